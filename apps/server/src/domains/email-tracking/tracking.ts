import type { AppContext } from "../../core/context.js";
import { notifyEmailCampaign } from "../email-campaigns/events.js";
import { addOptOut } from "../opt-outs/repository.js";

/**
 * An open (the pixel, or implied by a click): counted once per recipient, the first time, in one
 * statement pair inside a transaction; the campaign's list hears of it within a second.
 */
export async function recordOpen(ctx: AppContext, companyId: number, rowId: string, click: boolean): Promise<void> {
  const changed = await ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ campaign_id: number; first_open: boolean; first_click: boolean }>(
      `WITH before AS (SELECT id, opened_at, clicked_at FROM email_campaign_recipients WHERE company_id = $1 AND id = $2 FOR UPDATE)
       UPDATE email_campaign_recipients r SET opened_at = COALESCE(r.opened_at, now()),
              clicked_at = CASE WHEN $3 THEN COALESCE(r.clicked_at, now()) ELSE r.clicked_at END
         FROM before b WHERE r.id = b.id
       RETURNING r.campaign_id, b.opened_at IS NULL AS first_open, ($3 AND b.clicked_at IS NULL) AS first_click`,
      [companyId, rowId, click],
    );
    if (!row || (!row.first_open && !row.first_click)) return null;
    await tx.exec(
      `UPDATE email_campaigns SET count_emails_opened = count_emails_opened + $3, count_emails_clicked = count_emails_clicked + $4, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, row.campaign_id, row.first_open ? 1 : 0, row.first_click ? 1 : 0],
    );
    return row.campaign_id;
  });
  if (changed !== null) notifyEmailCampaign(ctx, companyId, changed);
}

/** One-click unsubscribe (RFC 8058): the row's address joins the company's e-mail opt-out list. */
export async function unsubscribe(ctx: AppContext, companyId: number, rowId: string): Promise<string | null> {
  return ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ email: string; campaign_id: number }>(
      "UPDATE email_campaign_recipients SET unsubscribed_at = COALESCE(unsubscribed_at, now()) WHERE company_id = $1 AND id = $2 RETURNING email, campaign_id",
      [companyId, rowId],
    );
    if (!row) return null;
    await addOptOut(tx, companyId, "email", row.email, "unsubscribe", `email-campaign:${row.campaign_id}`);
    return row.email;
  });
}
