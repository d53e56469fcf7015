import { createVerify, generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test doubles on loopback speaking the providers' documented protocols: Typebot's chat API v1
 * (startChat / continueChat), Google's OAuth2 token endpoint (jwt-bearer grant, the assertion's RS256
 * signature checked against the service account's public key), Dialogflow ES detectIntent (v2), and a
 * webhook / n8n receiver. Every request is recorded with its time.
 */
export interface Recorded {
  path: string;
  body: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface FakeBots {
  url: string;
  host: string;
  requests: Recorded[];
  serviceAccountJson: string;
  /** Next answers of the webhook receiver fail with this status (then it recovers). */
  failNext: { status: number; times: number };
  close(): Promise<void>;
}

/**
 * The Typebot flow "suporte": greets and asks the name; then asks whether to talk to an agent
 * ("sim" ends the flow: hand-over; "não" asks again); anything else at that question gets no bubble
 * (an unknown answer, as Typebot's choice input does).
 */
function typebotFlow(sessions: Map<string, number>, sessionId: string, text: string) {
  const step = sessions.get(sessionId) ?? 0;
  const md = (markdown: string) => ({ id: `m${Math.random()}`, type: "text", content: { type: "markdown", markdown } });
  const input = { id: "in", type: "text input", options: {} };
  if (step === 1) {
    sessions.set(sessionId, 2);
    return { messages: [md(`Prazer, ${text}!`), md("Quer falar com um atendente? (sim/não)")], input };
  }
  if (text.toLowerCase() === "sim") {
    sessions.delete(sessionId);
    return { messages: [md("Transferindo para um atendente...")] };
  }
  if (text.toLowerCase() === "não") return { messages: [md("Tudo bem! Quer falar com um atendente? (sim/não)")], input };
  return { messages: [], input };
}

export async function startFakeBots(): Promise<FakeBots> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const requests: Recorded[] = [];
  const typebotSessions = new Map<string, number>();
  let sessionSeq = 0;
  const failNext = { status: 0, times: 0 };
  const issued = new Set<string>();
  let base = "";

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      requests.push({ path, body, headers: req.headers, at: Date.now() });
      const send = (status: number, data: unknown, type = "application/json") => {
        res.writeHead(status, { "content-type": type });
        res.end(typeof data === "string" ? data : JSON.stringify(data));
      };
      let m: RegExpMatchArray | null;
      if ((m = path.match(/^\/typebot\/api\/v1\/typebots\/([^/]+)\/startChat$/))) {
        if (m[1] !== "suporte") return send(404, { message: "Typebot not found" });
        const sessionId = `sess-${++sessionSeq}`;
        typebotSessions.set(sessionId, 1);
        return send(200, {
          sessionId,
          typebot: { id: "tb1", theme: {}, settings: {} },
          messages: [
            { id: "g1", type: "text", content: { type: "markdown", markdown: "Olá! Eu sou o robô." } },
            { id: "g2", type: "text", content: { type: "markdown", markdown: "Qual é o seu nome?" } },
          ],
          input: { id: "name", type: "text input", options: {} },
        });
      }
      if ((m = path.match(/^\/typebot\/api\/v1\/sessions\/([^/]+)\/continueChat$/))) {
        const sessionId = decodeURIComponent(m[1]!);
        if (!typebotSessions.has(sessionId)) return send(404, { message: "Session not found" });
        const text = (JSON.parse(body) as { message: { type: string; text: string } }).message.text;
        return send(200, typebotFlow(typebotSessions, sessionId, text));
      }
      if (path === "/oauth2/token") {
        const form = new URLSearchParams(body);
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return send(400, { error: "unsupported_grant_type" });
        const [h, c, sig] = (form.get("assertion") ?? "").split(".");
        const verifier = createVerify("RSA-SHA256");
        verifier.update(`${h}.${c}`);
        if (!sig || !verifier.verify(publicKey, Buffer.from(sig, "base64url"))) return send(400, { error: "invalid_grant" });
        const claims = JSON.parse(Buffer.from(c!, "base64url").toString()) as { aud: string; scope: string; iss: string };
        if (claims.aud !== `${base}/oauth2/token` || !claims.scope.includes("dialogflow")) return send(400, { error: "invalid_grant" });
        const token = `ya29.fake-${issued.size + 1}`;
        issued.add(token);
        return send(200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
      }
      if ((m = path.match(/^\/dialogflow\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/))) {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        if (!issued.has(token)) return send(401, { error: { code: 401, status: "UNAUTHENTICATED" } });
        if (m[1] !== "atende-bot") return send(404, { error: { code: 404, status: "NOT_FOUND" } });
        const q = (JSON.parse(body) as { queryInput: { text: { text: string; languageCode: string } } }).queryInput.text;
        if (/atendente/i.test(q.text)) {
          return send(200, { responseId: "r", queryResult: { queryText: q.text, fulfillmentText: "Chamando um atendente.", intent: { displayName: "humano", endInteraction: true } } });
        }
        return send(200, {
          responseId: "r",
          queryResult: {
            queryText: q.text,
            languageCode: q.languageCode,
            fulfillmentText: `Resposta (${q.languageCode}): ${q.text}`,
            fulfillmentMessages: [{ text: { text: [`Resposta (${q.languageCode}): ${q.text}`] } }],
            intent: { displayName: "Default" },
          },
        });
      }
      if (path === "/webhook" || path === "/n8n") {
        if (failNext.times > 0) {
          failNext.times--;
          return send(failNext.status, { error: "down" });
        }
        const data = JSON.parse(body) as { text: string; contact: { name: string } };
        if (/humano/i.test(data.text)) return send(200, { text: "Vou te transferir.", transfer: true });
        if (/enxurrada/i.test(data.text)) return send(200, { messages: Array.from({ length: 30 }, (_, i) => `Mensagem ${i + 1}`) });
        // n8n's Respond to Webhook answers with a list of items
        if (path === "/n8n") return send(200, [{ output: `n8n: ${data.text}` }]);
        return send(200, { text: `Eco: ${data.text}`, messages: [`Contato: ${data.contact.name}`] });
      }
      send(404, { error: "not found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  const serviceAccountJson = JSON.stringify({
    type: "service_account",
    project_id: "atende-bot",
    private_key_id: "k1",
    private_key: pem,
    client_email: "bot@atende-bot.iam.gserviceaccount.com",
    token_uri: `${base}/oauth2/token`,
  });
  return {
    url: base,
    host: `127.0.0.1:${port}`,
    requests,
    serviceAccountJson,
    failNext,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
