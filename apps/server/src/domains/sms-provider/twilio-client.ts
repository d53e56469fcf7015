import { request } from "undici";
import type { SmsConfig } from "../../config.js";
import type { SmsDriver, SmsSendOutcome, SmsSendRequest } from "./driver.js";
import { classifyTwilioError } from "./twilio-errors.js";

/** Where Twilio posts a message's statuses: our row id in the query, so a lost answer is still matched. */
export function statusCallbackUrl(publicUrl: string, rowId: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/webhooks/sms/twilio/status?row=${encodeURIComponent(rowId)}`;
}

const SEND_TIMEOUT_MS = 15_000;

/** Twilio answers JSON; anything else (a proxy's HTML page) becomes the error's message. */
function parseJson(text: string): unknown {
  if (!/^\s*[{[]/.test(text)) return { message: text.slice(0, 300) };
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return { message: `unreadable answer (${(err as Error).message}): ${text.slice(0, 200)}` };
  }
}

/**
 * Twilio Programmable Messaging: POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json with
 * HTTP Basic auth (AccountSid:AuthToken), form-encoded To, From or MessagingServiceSid, Body and
 * StatusCallback; 201 answers the Message resource (JSON with `sid`, `status` queued/accepted).
 *
 * The host is the operator's (TWILIO_API_BASE_URL), not a company's, so this uses undici's keep-alive
 * pool rather than core/outbound-http (which opens a fresh, address-checked connection per call for
 * addresses companies type): at hundreds of messages a second the pool matters, and `request` costs a
 * quarter of `fetch`'s CPU per call (docs/performance.md "SMS campaigns: the receipts in groups").
 */
export class TwilioClient implements SmsDriver {
  readonly name = "twilio" as const;
  private readonly auth: string;

  constructor(
    private readonly cfg: SmsConfig["twilio"],
    /** PUBLIC_URL, read at each send (the address Twilio calls back). */
    private readonly publicUrl: () => string,
  ) {
    this.auth = `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")}`;
  }

  async send(req: SmsSendRequest): Promise<SmsSendOutcome> {
    const form = new URLSearchParams({ To: `+${req.to}`, Body: req.body, StatusCallback: statusCallbackUrl(this.publicUrl(), req.rowId) });
    if (this.cfg.messagingServiceSid) form.set("MessagingServiceSid", this.cfg.messagingServiceSid);
    else form.set("From", this.cfg.from);
    const url = `${this.cfg.apiBaseUrl}/2010-04-01/Accounts/${encodeURIComponent(this.cfg.accountSid)}/Messages.json`;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: "POST",
        headers: { authorization: this.auth, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
        // undici's own timers (cheaper than AbortSignal.timeout, whose timer outlives the call)
        headersTimeout: SEND_TIMEOUT_MS,
        bodyTimeout: SEND_TIMEOUT_MS,
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      // refused before anything was sent: safe to try again; anything else may have reached Twilio
      if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") return { kind: "retry", code: null, message: `Twilio unreachable (${code})`, rateLimited: false };
      return { kind: "unknown", message: `Twilio request interrupted: ${(err as Error).message}` };
    }
    const text = await res.body.text().catch((err: unknown) => `unreadable answer: ${String(err)}`);
    const body = parseJson(text);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      const sid = (body as { sid?: unknown }).sid;
      if (typeof sid === "string" && sid) return { kind: "sent", providerId: sid };
      return { kind: "unknown", message: "Twilio accepted the message without a sid" };
    }
    return classifyTwilioError(res.statusCode, body);
  }
}
