import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test double of an OpenAI-compatible server (POST /v1/chat/completions, POST /v1/audio/transcriptions,
 * in the shapes of OpenAI's API reference) and of Azure Speech's text-to-speech REST endpoint
 * (POST /cognitiveservices/v1, SSML in, audio out), on loopback. Tests queue the answers and read the
 * requests it received.
 */
export interface FakeRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  json?: Record<string, unknown>;
}

export interface FakeAi {
  url: string;
  requests: FakeRequest[];
  /** The next chat completion: a text reply, or an HTTP status to fail with. */
  replies: ({ content: string } | { status: number })[];
  transcript: string;
  speech: Buffer;
  close(): Promise<void>;
}

export async function startFakeAi(): Promise<FakeAi> {
  const fake: Omit<FakeAi, "url" | "close"> = { requests: [], replies: [], transcript: "", speech: Buffer.from("OggS-fake-opus-audio") };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const entry: FakeRequest = { path: req.url ?? "", headers: req.headers, body };
      if ((req.headers["content-type"] ?? "").includes("json")) entry.json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      fake.requests.push(entry);
      const send = (status: number, data: unknown, type = "application/json") => {
        res.writeHead(status, { "content-type": type });
        res.end(Buffer.isBuffer(data) ? data : JSON.stringify(data));
      };
      if (req.headers.authorization !== "Bearer sk-test-123456" && req.url?.startsWith("/v1")) {
        return send(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
      }
      if (req.url === "/v1/chat/completions") {
        const next = fake.replies.shift() ?? { content: "Olá! Como posso ajudar?" };
        if ("status" in next) return send(next.status, { error: { message: "The server had an error", type: "server_error" } });
        return send(200, {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: (entry.json?.model as string) ?? "gpt-4o-mini",
          choices: [{ index: 0, message: { role: "assistant", content: next.content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      }
      if (req.url === "/v1/audio/transcriptions") return send(200, { text: fake.transcript });
      if (req.url === "/cognitiveservices/v1") {
        if (req.headers["ocp-apim-subscription-key"] !== "azure-key-9876") return send(401, "", "text/plain");
        return send(200, fake.speech, "audio/ogg");
      }
      send(404, { error: { message: "not found" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FakeAi;
}
