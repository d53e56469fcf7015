import { randomBytes, randomInt } from "node:crypto";
import type { Sql } from "../../db/sql.js";
import type { SmsDriver, SmsReceipt, SmsSendOutcome, SmsSendRequest } from "./driver.js";

export interface SandboxOptions {
  /** Share of messages whose receipt says undelivered (SMS_SANDBOX_FAILURE_RATE). */
  failureRate: number;
  /** Delay of the delivery receipt (SMS_SANDBOX_RECEIPT_MS). */
  receiptMs: number;
}

/** A number whose national part ends in 0000 is refused as Twilio refuses an invalid To (21211): tests and demos. */
export const SANDBOX_INVALID_SUFFIX = "0000";

/**
 * The built-in provider (SMS_PROVIDER=sandbox, the default in development): each message is a row of
 * sms_sandbox_messages, shown on the /sms-sandbox page. Its receipt is owed at `receipt_due_at` (a
 * column, not a timer), so a restart delivers what was due; the outcome (delivered or undelivered, by
 * the failure share) is drawn at send time.
 */
export class SandboxSmsProvider implements SmsDriver {
  readonly name = "sandbox" as const;

  constructor(
    private readonly sql: Sql,
    private readonly opts: SandboxOptions,
  ) {}

  async send(req: SmsSendRequest): Promise<SmsSendOutcome> {
    if (req.to.endsWith(SANDBOX_INVALID_SUFFIX)) {
      return { kind: "failed", code: 21211, message: `The 'To' number +${req.to} is not a valid phone number.`, permanent: true };
    }
    const sid = `SM${randomBytes(16).toString("hex")}`;
    const outcome = randomInt(1_000_000) < this.opts.failureRate * 1_000_000 ? "undelivered" : "delivered";
    await this.sql.exec(
      `INSERT INTO sms_sandbox_messages (company_id, sid, recipient_id, to_number, body, segments, status, outcome, receipt_due_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, now() + $8 * interval '1 millisecond')`,
      [req.companyId, sid, req.rowId, req.to, req.body, req.segments, outcome, this.opts.receiptMs],
    );
    return { kind: "sent", providerId: sid };
  }
}

/**
 * Takes the receipts now due (at most `limit`, rows locked and skipped by other processes) and hands
 * them to `apply` inside the same transaction: a receipt is applied exactly when it is marked given.
 */
export async function takeDueSandboxReceipts(
  db: Sql,
  limit: number,
  apply: (sql: Sql, companyId: number, receipts: SmsReceipt[]) => Promise<void>,
): Promise<number> {
  return db.tx(async (sql) => {
    const due = await sql.many<{ company_id: number; sid: string; recipient_id: string | null; outcome: string }>(
      `UPDATE sms_sandbox_messages m SET status = m.outcome, receipt_due_at = NULL, updated_at = now()
        WHERE m.id IN (SELECT id FROM sms_sandbox_messages WHERE receipt_due_at <= now() ORDER BY receipt_due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING m.company_id, m.sid, m.recipient_id::text, m.outcome`,
      [limit],
    );
    const byCompany = new Map<number, SmsReceipt[]>();
    for (const d of due) {
      const list = byCompany.get(d.company_id) ?? [];
      list.push({ providerId: d.sid, rowId: d.recipient_id ?? undefined, status: d.outcome, errorCode: d.outcome === "undelivered" ? 30003 : null });
      byCompany.set(d.company_id, list);
    }
    for (const [companyId, receipts] of byCompany) await apply(sql, companyId, receipts);
    return due.length;
  });
}
