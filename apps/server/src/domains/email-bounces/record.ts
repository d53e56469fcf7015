import type { AppContext } from "../../core/context.js";
import { notifyEmailCampaign } from "../email-campaigns/events.js";
import { addOptOut } from "../opt-outs/repository.js";
import type { DsnRecipient } from "./dsn.js";

export type BounceOutcome = "recorded" | "repeat" | "not-sent" | "unknown-row";

/**
 * A hard bounce of one recipient row (named by its signed VERP token), in one transaction under the
 * row's lock: the first report sets `bounced_at`, turns the row `not_delivered` with the report's
 * status and diagnostic, moves the campaign's counters once (delivered → not delivered; a row whose
 * answer was never recorded, `sending` or `unconfirmed`, now counts as sent and not delivered) and
 * puts the address on the company's e-mail opt-out list (source `bounce`). A repeated report changes
 * nothing. A row that was never sent (pending, invalid, skipped) is left alone.
 */
export async function recordHardBounce(ctx: AppContext, companyId: number, rowId: string, report: DsnRecipient): Promise<BounceOutcome> {
  const outcome = await ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ campaign_id: number; email: string; state: string; bounced_at: Date | null }>(
      "SELECT campaign_id, email, state, bounced_at FROM email_campaign_recipients WHERE company_id = $1 AND id = $2 FOR UPDATE",
      [companyId, rowId],
    );
    if (!row) return { kind: "unknown-row" as const };
    if (row.bounced_at) return { kind: "repeat" as const };
    if (!["delivered", "not_delivered", "sending", "unconfirmed"].includes(row.state)) return { kind: "not-sent" as const };
    const message = `Devolvido (${report.status})${report.diagnostic ? `: ${report.diagnostic}` : ""}`.slice(0, 500);
    await tx.exec(
      `UPDATE email_campaign_recipients SET bounced_at = now(), state = 'not_delivered', error_message = $3,
              error_code = COALESCE(CASE WHEN $4 ~ '^[2-5][0-9][0-9]$' THEN $4::int END, error_code), sent_at = COALESCE(sent_at, now())
        WHERE company_id = $1 AND id = $2`,
      [companyId, rowId, message, /(?:^|;\s*)([2-5]\d\d)\b/.exec(report.diagnostic)?.[1] ?? ""],
    );
    // the counters move by what the row was: delivered → not delivered; never answered → sent and not delivered
    const sent = row.state === "sending" || row.state === "unconfirmed" ? 1 : 0;
    const undelivered = row.state === "delivered" ? 1 : 0;
    if (sent || undelivered) {
      await tx.exec(
        `UPDATE email_campaigns SET count_emails_sent = count_emails_sent + $3, count_emails_delivered = count_emails_delivered - $4,
                count_emails_not_delivered = count_emails_not_delivered + $3 + $4, updated_at = now()
          WHERE company_id = $1 AND id = $2`,
        [companyId, row.campaign_id, sent, undelivered],
      );
    }
    await addOptOut(tx, companyId, "email", row.email, "bounce", `email-campaign:${row.campaign_id}`);
    return { kind: "recorded" as const, campaignId: row.campaign_id };
  });
  if (outcome.kind === "recorded") notifyEmailCampaign(ctx, companyId, outcome.campaignId);
  return outcome.kind;
}
