import { connect } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";
import { classifySmtpError } from "./classify.js";
import type { MailDriver, OutgoingMail, SendResult } from "./driver.js";

/**
 * nodemailer's pooled SMTP transport: up to `maxConnections` connections kept open and reused, so a
 * campaign does not pay a TCP + TLS + EHLO handshake per message. The engine paces the sends
 * (EMAIL_RATE_PER_SECOND) and, before each, waits for a free connection (`connectionFree`), so a
 * message starts on the wire when its slot comes instead of queueing inside the pool; the pool itself
 * is not rate limited.
 *
 * Why the URL is parsed here: `createTransport({ url, pool: true, ... })` reads **only** the URL when
 * the options carry one (nodemailer's createTransport replaces the options object by the parsed URL),
 * so `pool`, `maxConnections` and `maxMessages` were dropped and every message went through a
 * one-shot, unpooled transport: one new connection per message (docs/performance.md, e-mail campaigns).
 *
 * Why `noDelay`: SMTP is a dialogue of small writes (MAIL FROM, RCPT TO, DATA, the final ".").
 * With Nagle's algorithm on (Node's default for a plain socket) a small write waits for the ACK of the
 * previous one, which the server delays (40 ms on Linux): a reused connection took ~47 ms per message
 * against a loopback server instead of ~7 ms, so 5 connections could not carry 100 messages a second.
 * Every connection is opened here with Nagle off and handed to nodemailer connected: a plain `smtp://`
 * one reads the greeting and may STARTTLS on that socket; an implicit-TLS `smtps://` one (port 465,
 * common among Brazilian relays) is wrapped in TLS by nodemailer at once (its `connection` option with
 * `secure`), SNI and the URL's `tls.*` options included. Either way the TLS socket writes through the
 * plain one, Nagle off.
 */
const CONNECT_TIMEOUT_MS = 30_000;

export class SmtpDriver implements MailDriver {
  readonly name = "smtp" as const;
  private readonly transport: Transporter;
  private sending = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    url: string,
    private readonly maxConnections: number,
  ) {
    const parsed = parseConnectionUrl(url);
    this.transport = nodemailer.createTransport({
      ...parsed,
      pool: true,
      maxConnections,
      maxMessages: Infinity,
      getSocket: (_options, callback) => {
        if (!parsed.host) return callback(null, false);
        // handed to nodemailer connected (its `connection` option): it wraps it in TLS first for smtps://
        const socket = connect({ host: parsed.host, port: parsed.port ?? (parsed.secure ? 465 : 587), noDelay: true });
        socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`SMTP connection to ${parsed.host} timed out`)));
        socket.once("error", callback);
        socket.once("connect", () => {
          socket.setTimeout(0);
          socket.off("error", callback);
          callback(null, { connection: socket });
        });
      },
    });
  }

  /** Messages handed to the pool whose answer has not come yet. */
  inFlight(): number {
    return this.sending;
  }

  hasFreeConnection(): boolean {
    return this.sending < this.maxConnections;
  }

  /** Resolves once fewer than `maxConnections` messages are in flight: the next send gets a connection at once. */
  connectionFree(): Promise<void> {
    if (this.hasFreeConnection()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    this.sending++;
    try {
      const info = await this.transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        messageId: mail.messageId,
        envelope: mail.envelopeFrom ? { from: mail.envelopeFrom, to: mail.to } : undefined,
      });
      const rejected = (info.rejected as unknown[] | undefined)?.length ?? 0;
      if (rejected > 0) {
        const errors = (info as { rejectedErrors?: unknown[] }).rejectedErrors;
        return classifySmtpError(errors?.[0] ?? new Error(String(info.response)));
      }
      return { kind: "accepted", response: String(info.response ?? ""), messageId: String(info.messageId ?? mail.messageId ?? "") };
    } catch (err) {
      return classifySmtpError(err);
    } finally {
      this.sending--;
      // the sender verification shares the pool without waiting: wake the engine only while a connection is free
      if (this.hasFreeConnection()) this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
