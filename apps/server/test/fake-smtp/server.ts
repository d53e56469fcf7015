import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

/**
 * A local SMTP server on loopback (the `smtp-server` package, RFC 5321), standing for a campaign relay.
 * Replies follow RFC 5321 §4.2: `rejectRecipient` answers RCPT TO with 550 (permanent) or 451
 * (transient, once per listed address, then accepts), as the smtp-server docs show (an Error with
 * `responseCode`). Every accepted message is kept raw with its envelope.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  at: number;
}

export class FakeSmtp {
  readonly received: ReceivedMail[] = [];
  /** TCP connections accepted so far (a pooled client reuses a few). */
  connections = 0;
  /** address → 550 (always) or 451 (the first time only). */
  readonly refuse = new Map<string, 550 | 451>();
  private readonly refusedOnce = new Set<string>();
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** `light`: keep only the envelope, the Message-ID and the time (a 100k-message bench), not the raw message. */
  static async start(o: { light?: boolean } = {}): Promise<FakeSmtp> {
    let self: FakeSmtp | null = null;
    const mailFromAt = new Map<string, number>();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      size: 10 * 1024 * 1024,
      // close() waits for pooled client connections at most this long
      closeTimeout: 500,
      onConnect(_session, callback) {
        if (self) self.connections++;
        callback();
      },
      onMailFrom(_address, session, callback) {
        // the arrival of the transaction's first command: the closest the server sees to the send's start
        mailFromAt.set(session.id, Date.now());
        callback();
      },
      onRcptTo(address: SMTPServerAddress, _session, callback) {
        const rule = self?.refuse.get(address.address.toLowerCase());
        if (rule === 550) return callback(Object.assign(new Error("5.1.1 Mailbox unavailable"), { responseCode: 550 }));
        if (rule === 451 && !self!.refusedOnce.has(address.address)) {
          self!.refusedOnce.add(address.address);
          return callback(Object.assign(new Error("4.7.1 Try again later"), { responseCode: 451 }));
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => {
          if (!o.light || chunks.length === 0) chunks.push(c);
        });
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const headers = parseHeaders(raw);
          self!.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: o.light ? "" : raw,
            headers: o.light ? new Map([["message-id", headers.get("message-id") ?? ""]]) : headers,
            at: mailFromAt.get(session.id) ?? Date.now(),
          });
          callback();
        });
      },
    });
    // a client killed mid-transaction (the crash test's SIGKILL) resets its connection: part of the test, not a failure
    server.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "ECONNRESET" && err.code !== "EPIPE") console.error("fake SMTP server error", err);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new FakeSmtp(server, (server.server.address() as AddressInfo).port);
    return self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** RFC 5322 header block, unfolded; names lower case. */
export function parseHeaders(raw: string): Map<string, string> {
  const block = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const out = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return out;
}

/** The decoded body of a (possibly multipart) message's part of this type: quoted-printable or base64. */
export function bodyPart(raw: string, type: "text/html" | "text/plain"): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const p of parts) {
    const h = parseHeaders(p);
    if (!(h.get("content-type") ?? "").toLowerCase().startsWith(type)) continue;
    const body = p.split(/\r?\n\r?\n/).slice(1).join("\n\n");
    const enc = (h.get("content-transfer-encoding") ?? "").toLowerCase();
    if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    if (enc === "quoted-printable") {
      const soft = body.replace(/=\r?\n/g, "");
      return Buffer.from(soft.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8");
    }
    return body;
  }
  return "";
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=` / `?B?`) of a header value, decoded. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) => {
    if (enc.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
    const bytes = text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  });
}
