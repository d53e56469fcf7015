import { createHash } from "node:crypto";
import { botCall, jsonBody, parseJson } from "./call.js";
import { signAssertion, type ServiceAccount } from "./service-account.js";
import type { BotTurn } from "./types.js";

const SCOPE = "https://www.googleapis.com/auth/dialogflow";

/** Access tokens by key (a hash of the account and its key), reused until a minute before they expire. */
const tokens = new Map<string, { token: string; until: number }>();

/** OAuth2 for a service account: a JWT signed with its private key exchanged at its token_uri (jwt-bearer grant). */
async function accessToken(sa: ServiceAccount): Promise<string> {
  const key = createHash("sha256").update(`${sa.client_email}\n${sa.private_key}\n${sa.token_uri}`).digest("hex");
  const cached = tokens.get(key);
  if (cached && cached.until > Date.now()) return cached.token;
  const form = new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: signAssertion(sa, SCOPE) });
  const res = await botCall(sa.token_uri, { body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } }, "dialogflow token");
  const data = parseJson<{ access_token?: string; expires_in?: number }>(res, "dialogflow token");
  if (!data.access_token) throw new Error("dialogflow token: no access_token in the answer");
  tokens.set(key, { token: data.access_token, until: Date.now() + Math.max(0, (data.expires_in ?? 3600) - 60) * 1000 });
  return data.access_token;
}

interface DetectIntentAnswer {
  queryResult?: {
    fulfillmentText?: string;
    fulfillmentMessages?: { text?: { text?: string[] } }[];
    intent?: { displayName?: string; endInteraction?: boolean };
    parameters?: Record<string, unknown>;
  };
}

/**
 * Dialogflow ES detectIntent (v2): POST {api}/v2/projects/{project}/agent/sessions/{session}:detectIntent.
 * The texts of the fulfillment messages (or the fulfillment text) are the replies; the matched intent's
 * `endInteraction` (the console's "End of conversation") or a `transfer` parameter set to true hands the ticket over.
 */
export async function detectIntent(apiUrl: string, sa: ServiceAccount, o: { projectName: string; session: string; text: string; language: string }): Promise<BotTurn> {
  const token = await accessToken(sa);
  const url = `${apiUrl}/v2/projects/${encodeURIComponent(o.projectName)}/agent/sessions/${encodeURIComponent(o.session)}:detectIntent`;
  const req = jsonBody({ queryInput: { text: { text: o.text.slice(0, 256), languageCode: o.language } } });
  const res = await botCall(url, { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }, "dialogflow detectIntent");
  const q = parseJson<DetectIntentAnswer>(res, "dialogflow detectIntent").queryResult ?? {};
  const texts = (q.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t) => t.trim() !== "");
  const replies = texts.length ? texts : q.fulfillmentText?.trim() ? [q.fulfillmentText] : [];
  const transfer = q.parameters?.transfer;
  return { replies, handOver: q.intent?.endInteraction === true || transfer === true || transfer === "true" };
}
