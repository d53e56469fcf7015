import { botCall, jsonBody, parseJson } from "./call.js";
import type { BotInput, BotTurn } from "./types.js";

/**
 * n8n and webhook integrations: the message is POSTed as JSON
 * `{ event: "message", text, ticket, contact, message }` to the URL; the answer (JSON) may carry
 * `text` (or `reply`, `output`, `message`: one text), `messages` (several texts, in order) and
 * `transfer: true` (hand the ticket to a human). A plain-text answer is sent as it is; an empty one sends nothing.
 */
export async function httpBotTurn(url: string, input: BotInput, label: string): Promise<BotTurn> {
  const res = await botCall(url, jsonBody({ event: "message", ...input }), label);
  const raw = res.text().trim();
  if (!raw) return { replies: [], handOver: false };
  const type = String(res.headers["content-type"] ?? "");
  if (!type.includes("json")) return { replies: [raw], handOver: false };
  const data = parseJson<unknown>(res, label);
  // n8n's "Respond to Webhook" answers with an array of items: the first one counts
  const answer = (Array.isArray(data) ? data[0] : data) as Record<string, unknown> | string | null;
  if (typeof answer === "string") return { replies: [answer], handOver: false };
  if (!answer || typeof answer !== "object") return { replies: [], handOver: false };
  const replies: string[] = [];
  for (const key of ["text", "reply", "output", "message"]) {
    const v = answer[key];
    if (typeof v === "string" && v.trim()) {
      replies.push(v);
      break;
    }
  }
  if (Array.isArray(answer.messages)) replies.push(...answer.messages.filter((m): m is string => typeof m === "string" && m.trim() !== ""));
  return { replies, handOver: answer.transfer === true || answer.transfer === "true" };
}
