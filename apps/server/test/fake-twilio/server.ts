import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/**
 * A fake of Twilio Programmable Messaging on loopback, built from Twilio's published documentation
 * (not from what our client sends):
 * - "Message resource" (https://www.twilio.com/docs/messaging/api/message-resource): POST
 *   /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From or MessagingServiceSid,
 *   Body, StatusCallback; HTTP Basic auth AccountSid:AuthToken; 201 with the Message resource JSON
 *   (sid "SM" + 32 hex, status "queued", num_segments as a string, direction "outbound-api", uri ...).
 * - "Errors" (https://www.twilio.com/docs/api/errors): `{ code, message, more_info, status }` —
 *   20003 Authenticate (401), 20429 Too Many Requests (429), 21211 invalid 'To', 21602 body required,
 *   21604 'To' required, 21603 'From' required, 21610 unsubscribed recipient, 21614 not a mobile number.
 * - "Outbound message status in status callbacks": POST to StatusCallback, form-encoded MessageSid,
 *   SmsSid, AccountSid, From, To, MessageStatus and SmsStatus (sent, then delivered or undelivered
 *   with ErrorCode, e.g. 30003 Unreachable destination handset), ApiVersion 2010-04-01.
 * - "Webhooks security": X-Twilio-Signature = base64(HMAC-SHA1(auth token, URL + sorted name/value pairs)).
 * - "Receive an inbound SMS": POST to the number's webhook with MessageSid, SmsSid, AccountSid, From,
 *   To, Body, NumMedia, NumSegments, ApiVersion; answered with TwiML.
 */
export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /** Sliding one-second limit: a send above it answers 429 / 20429 (Twilio's queue-overflow rule, simplified). */
  maxPerSecond?: number;
  /** Delay before the status callbacks (ms); null: send none. */
  callbackDelayMs?: number | null;
  /** Only the final status (delivered/undelivered), not `sent` first: halves the callbacks of a bench. */
  finalStatusOnly?: boolean;
}

/** What a test can make the fake do with a message to `To` (+E.164). */
export type Script =
  | { kind: "error"; status: number; code: number; message: string }
  /** Accepts the message (and sends its callbacks) but drops the connection before answering. */
  | { kind: "drop" }
  | { kind: "undelivered"; errorCode: number };

export interface ReceivedMessage {
  sid: string;
  to: string;
  from: string;
  messagingServiceSid: string;
  body: string;
  statusCallback: string;
  at: number;
}

const sign = (token: string, url: string, params: Record<string, string>) =>
  createHmac("sha1", token)
    .update(url + Object.keys(params).sort().map((k) => k + params[k]).join(""), "utf8")
    .digest("base64");

export class FakeTwilio {
  readonly messages: ReceivedMessage[] = [];
  /** Every request's arrival time (accepted or not), for rate checks. */
  readonly arrivals: number[] = [];
  readonly scripts = new Map<string, Script>();
  readonly callbackFailures: string[] = [];
  private server: http.Server | null = null;
  private readonly recent: number[] = [];
  private pendingCallbacks = new Set<Promise<void>>();
  url = "";

  constructor(readonly o: FakeTwilioOptions) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 10_000;
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.pendingCallbacks]);
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  /** Waits until every scheduled status callback has been posted. */
  async settled(): Promise<void> {
    while (this.pendingCallbacks.size) await Promise.allSettled([...this.pendingCallbacks]);
  }

  private error(res: http.ServerResponse, status: number, code: number, message: string) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // the request's arrival: when its headers came in (its body follows in the same packet or soon after)
    const now = Date.now();
    this.arrivals.push(now);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = `/2010-04-01/Accounts/${this.o.accountSid}/Messages.json`;
    if (req.method !== "POST" || req.url !== path) return this.error(res, 404, 20404, "The requested resource was not found");
    const expected = `Basic ${Buffer.from(`${this.o.accountSid}:${this.o.authToken}`).toString("base64")}`;
    if (req.headers.authorization !== expected) return this.error(res, 401, 20003, "Authenticate");
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    while (this.recent.length && this.recent[0]! <= now - 1000) this.recent.shift();
    if (this.o.maxPerSecond && this.recent.length >= this.o.maxPerSecond) return this.error(res, 429, 20429, "Too Many Requests");
    this.recent.push(now);
    const to = form.To ?? "";
    if (!to) return this.error(res, 400, 21604, "A 'To' phone number is required.");
    if (!form.From && !form.MessagingServiceSid) return this.error(res, 400, 21603, "A 'From' phone number is required.");
    if (!form.Body) return this.error(res, 400, 21602, "Message body is required.");
    if (!/^\+[1-9]\d{7,14}$/.test(to)) return this.error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    const script = this.scripts.get(to);
    if (script?.kind === "error") return this.error(res, script.status, script.code, script.message);
    const sid = `SM${randomBytes(16).toString("hex")}`;
    const msg: ReceivedMessage = { sid, to, from: form.From ?? "", messagingServiceSid: form.MessagingServiceSid ?? "", body: form.Body, statusCallback: form.StatusCallback ?? "", at: now };
    this.messages.push(msg);
    if (msg.statusCallback && this.o.callbackDelayMs !== null) this.scheduleCallbacks(msg, script?.kind === "undelivered" ? script.errorCode : null);
    if (script?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    const date = new Date(now).toUTCString().replace("GMT", "+0000");
    res.writeHead(201, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        account_sid: this.o.accountSid,
        api_version: "2010-04-01",
        body: msg.body,
        date_created: date,
        date_sent: null,
        date_updated: date,
        direction: "outbound-api",
        error_code: null,
        error_message: null,
        from: msg.from || null,
        messaging_service_sid: msg.messagingServiceSid || null,
        num_media: "0",
        num_segments: "1",
        price: null,
        price_unit: "USD",
        sid,
        status: msg.messagingServiceSid ? "accepted" : "queued",
        subresource_uris: { media: `/2010-04-01/Accounts/${this.o.accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${this.o.accountSid}/Messages/${sid}.json`,
      }),
    );
  }

  private scheduleCallbacks(msg: ReceivedMessage, errorCode: number | null) {
    const post = async (status: string) => {
      const params: Record<string, string> = {
        AccountSid: this.o.accountSid,
        ApiVersion: "2010-04-01",
        From: msg.from || "+15005550006",
        MessageSid: msg.sid,
        MessageStatus: status,
        SmsSid: msg.sid,
        SmsStatus: status,
        To: msg.to,
        ...(msg.messagingServiceSid ? { MessagingServiceSid: msg.messagingServiceSid } : {}),
        ...(status === "undelivered" && errorCode ? { ErrorCode: String(errorCode) } : {}),
      };
      // undici's request on a keep-alive pool: at hundreds a second the fake's own CPU (fetch costs four
      // times as much) would be taken from the server it measures
      const res = await request(msg.statusCallback, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": sign(this.o.authToken, msg.statusCallback, params) },
        body: new URLSearchParams(params).toString(),
      });
      await res.body.dump();
      if (res.statusCode >= 300) this.callbackFailures.push(`${status} ${msg.sid}: HTTP ${res.statusCode}`);
    };
    const p = (async () => {
      await new Promise((r) => setTimeout(r, this.o.callbackDelayMs ?? 20));
      if (!this.o.finalStatusOnly) await post("sent");
      await post(errorCode ? "undelivered" : "delivered");
    })().catch((err: unknown) => void this.callbackFailures.push(`${msg.sid}: ${String(err)}`));
    this.pendingCallbacks.add(p);
    void p.finally(() => this.pendingCallbacks.delete(p));
  }

  /** A recipient's SMS to our number, posted to `webhookUrl` as Twilio does (signed unless `badSignature`). */
  async inbound(webhookUrl: string, from: string, body: string, o: { badSignature?: boolean } = {}) {
    const sid = `SM${randomBytes(16).toString("hex")}`;
    const params: Record<string, string> = {
      AccountSid: this.o.accountSid,
      ApiVersion: "2010-04-01",
      Body: body,
      From: from,
      MessageSid: sid,
      NumMedia: "0",
      NumSegments: "1",
      SmsMessageSid: sid,
      SmsSid: sid,
      SmsStatus: "received",
      To: "+15005550006",
    };
    const signature = o.badSignature ? sign("wrong-token", webhookUrl, params) : sign(this.o.authToken, webhookUrl, params);
    return fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });
  }
}
