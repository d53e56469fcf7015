import { isOptOutReply } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { normalizePhone } from "../../core/phone.js";
import { addOptOut } from "../opt-outs/repository.js";

/**
 * An SMS a recipient sent back (Twilio's inbound webhook, a reply on the sandbox page). A reply that
 * asks to stop (SAIR, PARAR, STOP... `isOptOutReply`) puts the number on the opt-out list of each
 * company whose campaigns wrote to it (the sending number is the platform's, shared by every
 * company), with the latest such campaign as reference; `onlyCompanyId` limits it to one company (the
 * sandbox page). Other replies are only logged. Returns the companies that gained the opt-out.
 */
export async function handleInboundSms(ctx: AppContext, from: string, body: string, onlyCompanyId?: number): Promise<number[]> {
  const phone = normalizePhone(from);
  if (!phone || !isOptOutReply(body)) {
    ctx.log.info({ smsFrom: phone ?? "invalid", optOut: false }, "inbound SMS received");
    return [];
  }
  const senders = await ctx.sql.many<{ company_id: number; campaign_id: number }>(
    `SELECT DISTINCT ON (company_id) company_id, campaign_id FROM sms_campaign_recipients
      WHERE phone = $1 AND state IN ('sent', 'delivered', 'failed') AND ($2::int IS NULL OR company_id = $2)
      ORDER BY company_id, id DESC`,
    [phone, onlyCompanyId ?? null],
  );
  const targets = senders.length || onlyCompanyId === undefined ? senders : [{ company_id: onlyCompanyId, campaign_id: null }];
  const added: number[] = [];
  for (const t of targets) {
    if (await addOptOut(ctx.sql, t.company_id, "sms", phone, "reply", t.campaign_id === null ? null : `sms-campaign:${t.campaign_id}`)) added.push(t.company_id);
  }
  ctx.log.info({ smsFrom: phone, optOut: true, companies: targets.map((t) => t.company_id) }, "inbound SMS opt-out");
  return targets.map((t) => t.company_id);
}
