import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { PROMPT_HANDOFF_MARKER } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { OutboundFailed, OutboundRefused, outboundRequest } from "../../core/outbound-http.js";
import { SecretUnreadable } from "../../core/secrets/sealer.js";
import { mediaStorage } from "../../core/storage.js";
import { sendOutgoing } from "../messages/send-message.js";
import { emitTicketUpdate } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import * as repo from "./repository.js";

/**
 * The prompt answering customers (spec 3 §2, issue 15): a customer message on a ticket nobody took
 * (pending, no agent) whose queue — or else whose connection — has a prompt becomes a durable job; the
 * job asks the OpenAI-compatible server (chat completions, audio transcriptions) and sends its reply
 * through the normal send path as the bot (no user). A reply carrying PROMPT_HANDOFF_MARKER, or any
 * provider failure, hands the ticket to the queue's agents: it stays pending, `prompt_handoff` is set
 * and the prompt stays silent for the rest of that ticket.
 */
export const PROMPT_JOB = "prompt-answer";
const payload = z.object({ companyId: z.number().int(), ticketId: z.number().int(), messageId: z.number().int() });

/** Said to the customer when the provider fails, so they are never left without an answer. */
export const PROVIDER_ERROR_REPLY = "Desculpe, não consegui responder agora. Um atendente vai continuar o seu atendimento em instantes.";
/** Said when the model hands over without words of its own. */
export const HANDOFF_REPLY = "Certo! Vou transferir você para um de nossos atendentes.";
const PROVIDER_TIMEOUT_MS = 30_000;

/** The instruction appended to the company's prompt so the model knows the hand-off convention. */
export const handoffInstruction = () =>
  `\n\nSe o cliente pedir para falar com uma pessoa, ou se você não puder ajudar, responda apenas com ${PROMPT_HANDOFF_MARKER}.`;

export function definePromptJob(ctx: AppContext): void {
  ctx.jobs.define({ name: PROMPT_JOB, schema: payload, concurrency: 2, batchSize: 5, retryLimit: 2, handler: (p) => answerWithPrompt(ctx, p) });
}

interface ActivePrompt {
  prompt_id: number;
}

/** The prompt answering this ticket now, or null (taken by an agent, handed off, no prompt, a group). */
async function activePrompt(ctx: AppContext, companyId: number, ticketId: number): Promise<ActivePrompt | null> {
  return ctx.sql.maybe<ActivePrompt>(
    `SELECT p.id AS prompt_id
       FROM tickets t
       LEFT JOIN queues q ON q.company_id = t.company_id AND q.id = t.queue_id
       LEFT JOIN whatsapps w ON w.company_id = t.company_id AND w.id = t.whatsapp_id
       JOIN prompts p ON p.company_id = t.company_id AND p.id = COALESCE(q.prompt_id, w.prompt_id)
      WHERE t.company_id = $1 AND t.id = $2 AND t.status = 'pending' AND t.user_id IS NULL
        AND NOT t.prompt_handoff AND NOT t.is_group AND t.integration_id IS NULL`,
    [companyId, ticketId],
  );
}

/**
 * The inbound hook (channels/inbound.ts): after a customer's message is stored and routed, queues the
 * prompt's answer when the ticket is the prompt's to answer.
 */
export async function onCustomerMessage(ctx: AppContext, companyId: number, ticketId: number, messageId: number): Promise<void> {
  try {
    const active = await activePrompt(ctx, companyId, ticketId);
    if (!active) return;
    await ctx.sql.exec("UPDATE tickets SET prompt_id = $3 WHERE company_id = $1 AND id = $2 AND prompt_id IS DISTINCT FROM $3", [companyId, ticketId, active.prompt_id]);
    await ctx.jobs.send(PROMPT_JOB, { companyId, ticketId, messageId });
  } catch (err) {
    // The customer's message is stored and routed; the ticket stays pending for the agents.
    ctx.log.error({ err, companyId, ticketId, messageId }, "AI prompt answer could not be queued; the ticket waits for an agent");
  }
}

class ProviderError extends Error {}

async function call(url: string, init: { headers: Record<string, string>; body: string | Buffer }) {
  try {
    const res = await outboundRequest(url, { method: "POST", headers: init.headers, body: init.body, timeoutMs: PROVIDER_TIMEOUT_MS });
    if (res.status < 200 || res.status > 299) throw new ProviderError(`${url} answered ${res.status}: ${res.text().slice(0, 300)}`);
    return res;
  } catch (err) {
    if (err instanceof OutboundRefused || err instanceof OutboundFailed || err instanceof TypeError) throw new ProviderError(`${url}: ${err.message}`);
    throw err;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** POST {baseUrl}/audio/transcriptions (OpenAI's multipart shape: file, model) → the text. */
async function transcribe(baseUrl: string, apiKey: string, audio: Buffer, mimetype: string): Promise<string> {
  const boundary = `----atende${randomBytes(12).toString("hex")}`;
  const ext = mimetype.includes("ogg") ? "ogg" : mimetype.includes("mpeg") ? "mp3" : mimetype.includes("wav") ? "wav" : mimetype.includes("mp4") ? "m4a" : "ogg";
  const part = (head: string) => Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`);
  const body = Buffer.concat([
    part('Content-Disposition: form-data; name="model"'),
    Buffer.from("whisper-1\r\n"),
    part(`Content-Disposition: form-data; name="file"; filename="audio.${ext}"\r\nContent-Type: ${mimetype}`),
    audio,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await call(`${baseUrl}/audio/transcriptions`, {
    headers: { authorization: `Bearer ${apiKey}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
  const text = (res.json<{ text?: unknown }>() ?? {}).text;
  if (typeof text !== "string") throw new ProviderError("transcription without text");
  return text.trim();
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** Azure Speech text to speech (REST): SSML in, Ogg/Opus out. The host is `{region}.tts.speech.microsoft.com` unless AZURE_TTS_URL overrides it (tests). */
async function synthesise(region: string, key: string, voice: string, text: string): Promise<Buffer> {
  const url = process.env.AZURE_TTS_URL || `https://${region}.tts.speech.microsoft.com/cognitiveservices/v1`;
  const ssml = `<speak version="1.0" xml:lang="pt-BR"><voice xml:lang="pt-BR" name="${escapeXml(voice)}">${escapeXml(text)}</voice></speak>`;
  const res = await call(url, {
    headers: {
      "Ocp-Apim-Subscription-Key": key,
      "Content-Type": "application/ssml+xml",
      "X-Microsoft-OutputFormat": "ogg-24khz-16bit-mono-opus",
      "User-Agent": "atende",
    },
    body: ssml,
  });
  if (!res.body.length) throw new ProviderError("speech synthesis answered no audio");
  return res.body;
}

interface HistoryRow {
  id: string;
  body: string;
  from_me: boolean;
  media_type: string;
  media_path: string | null;
  mimetype: string | null;
}

/** The job: answer the ticket's latest customer message, or hand the ticket over. */
export async function answerWithPrompt(ctx: AppContext, p: z.infer<typeof payload>): Promise<void> {
  const { companyId, ticketId } = p;
  const active = await activePrompt(ctx, companyId, ticketId);
  if (!active) return;
  const prompt = await repo.findPrompt(ctx.sql, companyId, active.prompt_id);
  if (!prompt) return;
  // a newer customer message has its own job, which answers with the whole history
  const newer = await ctx.sql.maybe<{ id: string }>(
    "SELECT id FROM messages WHERE company_id = $1 AND ticket_id = $2 AND NOT from_me AND id > $3 LIMIT 1",
    [companyId, ticketId, p.messageId],
  );
  if (newer) return;

  let reply: string;
  try {
    const apiKey = ctx.secrets.open({ companyId: prompt.company_id, column: "prompts.api_key", row: prompt.id }, prompt.api_key);
    const rows = (
      await ctx.sql.many<HistoryRow>(
        // ORDER BY the column (m.id), not the output's text, which would sort "99" after "100"
        `SELECT m.id::text, m.body, m.from_me, m.media_type, m.media_path, m.mimetype FROM messages m
          WHERE m.company_id = $1 AND m.ticket_id = $2 AND NOT m.is_deleted ORDER BY m.id DESC LIMIT $3`,
        [companyId, ticketId, prompt.max_messages],
      )
    ).reverse();
    for (const r of rows) {
      // a customer's audio note is transcribed once; the text is kept as its body for agents and later turns
      if (!r.from_me && r.media_type === "audio" && !r.body && r.media_path) {
        const file = await mediaStorage(ctx.config.dataDir).open(r.media_path);
        if (!file) continue;
        r.body = await transcribe(prompt.base_url, apiKey, await readAll(file.stream), r.mimetype ?? "audio/ogg");
        await ctx.sql.exec("UPDATE messages SET body = $3 WHERE company_id = $1 AND id = $2 AND body = ''", [companyId, r.id, r.body]);
      }
    }
    const messages = [
      { role: "system", content: prompt.prompt + handoffInstruction() },
      ...rows.filter((r) => r.body.trim()).map((r) => ({ role: r.from_me ? "assistant" : "user", content: r.body })),
    ];
    const res = await call(`${prompt.base_url}/chat/completions`, {
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: prompt.model, messages, max_tokens: prompt.max_tokens, temperature: Number(prompt.temperature) }),
    });
    const content = res.json<{ choices?: { message?: { content?: unknown } }[] }>()?.choices?.[0]?.message?.content;
    if (typeof content !== "string" || !content.trim()) throw new ProviderError("chat completion without content");
    reply = content.trim();
  } catch (err) {
    if (!(err instanceof ProviderError) && !(err instanceof SecretUnreadable) && !(err instanceof SyntaxError)) throw err;
    ctx.log.warn({ err, companyId, ticketId, promptId: prompt.id }, "AI prompt provider failed; the ticket goes to a human");
    await handOff(ctx, companyId, ticketId, PROVIDER_ERROR_REPLY);
    return;
  }

  if (reply.toLowerCase().includes(PROMPT_HANDOFF_MARKER)) {
    const words = reply.replace(new RegExp(PROMPT_HANDOFF_MARKER, "gi"), "").trim();
    await handOff(ctx, companyId, ticketId, words || HANDOFF_REPLY);
    return;
  }
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  if (!ticket) return;
  if (prompt.voice !== "texto" && prompt.voice_key && prompt.voice_region) {
    try {
      const audio = await synthesise(prompt.voice_region, ctx.secrets.open({ companyId: prompt.company_id, column: "prompts.voice_key", row: prompt.id }, prompt.voice_key), prompt.voice, reply);
      await sendOutgoing(ctx, { ticket, body: "", userId: null, file: { data: audio, fileName: "resposta.ogg", mimetype: "audio/ogg" } });
      return;
    } catch (err) {
      if (!(err instanceof ProviderError) && !(err instanceof SecretUnreadable)) throw err;
      // the text still reaches the customer
      ctx.log.warn({ err, companyId, ticketId, promptId: prompt.id }, "speech synthesis failed; the answer goes as text");
    }
  }
  await sendOutgoing(ctx, { ticket, body: reply, userId: null });
}

/** The ticket goes to its queue's agents (still pending, no agent); the prompt stops for it. */
async function handOff(ctx: AppContext, companyId: number, ticketId: number, say: string): Promise<void> {
  await ctx.sql.exec("UPDATE tickets SET prompt_handoff = true, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, ticketId]);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  if (!ticket) return;
  await sendOutgoing(ctx, { ticket, body: say, userId: null });
  await emitTicketUpdate(ctx, ticket);
}
