import { botCall, jsonBody, parseJson } from "./call.js";

/**
 * Typebot's public chat API (v1): POST {base}/api/v1/typebots/{publicId}/startChat starts a session
 * (answer: sessionId, messages, input); POST {base}/api/v1/sessions/{sessionId}/continueChat with
 * `{ message: { type: "text", text } }` answers the waiting input. Bubbles are asked for as markdown.
 */
interface ChatMessage {
  type: string;
  content?: { type?: string; markdown?: string; richText?: unknown; url?: string };
}
export interface TypebotAnswer {
  sessionId?: string;
  messages?: ChatMessage[];
  /** The input the flow waits for; absent when the flow has ended. */
  input?: unknown;
}

export interface TypebotStep {
  sessionId: string | null;
  bubbles: string[];
  /** The flow reached its end (no input to wait for). */
  ended: boolean;
}

/** The plain text of a rich-text tree (Slate nodes: `text` leaves, `children`), one line per block. */
function richText(nodes: unknown): string {
  if (!Array.isArray(nodes)) return "";
  return nodes
    .map((n: { text?: unknown; children?: unknown }) => (typeof n?.text === "string" ? n.text : richText(n?.children)))
    .join(Array.isArray(nodes) && nodes.some((n: { type?: string }) => n?.type === "p" || n?.type === "variable") ? "\n" : "");
}

function bubbleText(m: ChatMessage): string {
  const c = m.content ?? {};
  if (m.type === "text") return (c.type === "richText" ? richText(c.richText) : (c.markdown ?? "")).trim();
  // media and embeds go out as their link
  return typeof c.url === "string" ? c.url : "";
}

function step(a: TypebotAnswer, sessionId: string | null): TypebotStep {
  return { sessionId: a.sessionId ?? sessionId, bubbles: (a.messages ?? []).map(bubbleText).filter(Boolean), ended: a.input === undefined || a.input === null };
}

const base = (url: string) => url.replace(/\/+$/, "");

export async function startChat(url: string, slug: string, variables: Record<string, string>): Promise<TypebotStep> {
  const res = await botCall(
    `${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`,
    jsonBody({ isStreamEnabled: false, textBubbleContentFormat: "markdown", prefilledVariables: variables }),
    "typebot startChat",
  );
  const answer = parseJson<TypebotAnswer>(res, "typebot startChat");
  if (typeof answer.sessionId !== "string" || !answer.sessionId) throw new Error("typebot startChat: no sessionId in the answer");
  return step(answer, null);
}

export async function continueChat(url: string, sessionId: string, text: string): Promise<TypebotStep> {
  const res = await botCall(
    `${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
    jsonBody({ message: { type: "text", text }, textBubbleContentFormat: "markdown" }),
    "typebot continueChat",
  );
  return step(parseJson<TypebotAnswer>(res, "typebot continueChat"), sessionId);
}
