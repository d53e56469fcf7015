import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import type { AppContext } from "../../core/context.js";
import { readTrackingToken } from "../email-tracking/tokens.js";
import { isHardBounce, parseDsn, type DsnRecipient } from "./dsn.js";
import { recordHardBounce } from "./record.js";

/** A bounce report is small; one that carries the whole original message is cut at this size (and refused). */
const MAX_MESSAGE_BYTES = 1024 * 1024;
const MAX_RECIPIENTS = 20;

export interface BounceListenerOptions {
  port: number;
  host: string;
  /** BOUNCE_DOMAIN: the domain of the VERP addresses; null accepts any domain. */
  domain: string | null;
}

interface VerpRow {
  companyId: number;
  rowId: string;
}

/**
 * `bounces+<token>@<domain>` → the row it names, when the token is genuine (HMAC, kind "b"); else null.
 * A bare or altered id never names a row.
 */
export function verpRow(appSecret: string, domain: string | null, address: string): VerpRow | null {
  const m = /^bounces\+([A-Za-z0-9_.-]{1,2000})@([^@\s]+)$/.exec(address.trim());
  if (!m) return null;
  if (domain && m[2]!.toLowerCase() !== domain.toLowerCase()) return null;
  const parts = readTrackingToken(appSecret, "b", m[1]!);
  if (!parts || parts.length !== 2) return null;
  const [companyId, rowId] = parts;
  if (typeof companyId !== "number" || !Number.isInteger(companyId) || !/^\d{1,19}$/.test(String(rowId))) return null;
  return { companyId, rowId: String(rowId) };
}

const refuse = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** The report's block about this row: the one naming its address, else the only one. */
function blockFor(report: DsnRecipient[], email: string): DsnRecipient | null {
  const address = email.trim().toLowerCase();
  const named = report.filter((r) => r.finalRecipient === address || r.originalRecipient === address);
  if (named.length) return named.find(isHardBounce) ?? named[0]!;
  return report.length === 1 ? report[0]! : null;
}

/**
 * The inbound SMTP listener of asynchronous bounces (docs/architecture.md "E-mail campaigns"): the
 * `smtp-server` package, no AUTH, no STARTTLS (a bounce carries nothing secret; the signed address is
 * the credential). RCPT TO must be a genuine VERP address, else 550 5.1.1; a message over 1 MB is
 * refused (552). Each accepted report is parsed (RFC 3464) and a hard bounce (Action failed, Status
 * 5.x.x) is recorded once per row; a transient one (4.x.x, delayed) is read and ignored.
 */
export class BounceListener {
  private server: SMTPServer | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly o: BounceListenerOptions,
  ) {}

  get port(): number | null {
    const address = this.server?.server.address() as AddressInfo | null | undefined;
    return address ? address.port : null;
  }

  async start(): Promise<void> {
    const ctx = this.ctx;
    const secret = ctx.config.jwtSecret;
    const domain = this.o.domain;
    const server = new SMTPServer({
      name: domain ?? undefined,
      banner: "atende bounce receiver",
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      size: MAX_MESSAGE_BYTES,
      maxClients: 50,
      socketTimeout: 60_000,
      closeTimeout: 1000,
      logger: false,
      onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback) {
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(refuse(452, "4.5.3 Too many recipients"));
        if (!verpRow(secret, domain, address.address)) return callback(refuse(550, "5.1.1 No such bounce address"));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (c: Buffer) => {
          size += c.length;
          if (size <= MAX_MESSAGE_BYTES) chunks.push(c);
        });
        stream.on("end", () => {
          if (stream.sizeExceeded) return callback(refuse(552, "5.3.4 Message too big"));
          const rows = session.envelope.rcptTo.map((r) => verpRow(secret, domain, r.address)).filter((r): r is VerpRow => r !== null);
          this.handle(Buffer.concat(chunks).toString("utf8"), rows, session.remoteAddress).then(
            () => callback(),
            (err: unknown) => {
              // a database failure: 451 so the reporting MTA tries again later (recording is idempotent)
              ctx.log.error({ err, remoteAddress: session.remoteAddress }, "bounce report not recorded; answered 451");
              callback(refuse(451, "4.3.0 Try again later"));
            },
          );
        });
      },
    });
    server.on("error", (err: NodeJS.ErrnoException) => ctx.log.warn({ err }, "bounce listener connection error"));
    await new Promise<void>((resolve, reject) => {
      server.server.once("error", reject);
      server.listen(this.o.port, this.o.host, () => {
        server.server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    ctx.log.info({ port: this.port, host: this.o.host }, "bounce listener (SMTP) started");
  }

  private async handle(raw: string, rows: VerpRow[], remoteAddress: string): Promise<void> {
    const report = parseDsn(raw);
    if (!report) {
      this.ctx.log.info({ remoteAddress, rows: rows.length }, "message to a bounce address is not a delivery status report; ignored");
      return;
    }
    for (const { companyId, rowId } of rows) {
      const email = await this.ctx.sql.maybe<{ email: string }>("SELECT email FROM email_campaign_recipients WHERE company_id = $1 AND id = $2", [companyId, rowId]);
      if (!email) continue;
      const block = blockFor(report, email.email);
      if (!block || !isHardBounce(block)) {
        this.ctx.log.info({ companyId, rowId, action: block?.action, status: block?.status }, "bounce report is not a hard bounce; ignored");
        continue;
      }
      const outcome = await recordHardBounce(this.ctx, companyId, rowId, block);
      this.ctx.log.info({ companyId, rowId, status: block.status, outcome }, "hard bounce");
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
