import type { Sql } from "../../db/sql.js";
import { applyTransitions } from "./counters.js";

/**
 * Replies to campaigns: a message from a recipient's phone to the number that sent them a campaign
 * message, after it was sent. The first one sets the row's replied_at and the campaign's
 * count_replied (one statement per batch of inbound messages; later replies change nothing). Returns
 * the campaigns that counted a reply.
 */
export async function noteCampaignReplies(sql: Sql, companyId: number, whatsappId: number, replies: { phone: string; at: Date }[]): Promise<number[]> {
  if (!replies.length) return [];
  const rows = await sql.many<{ campaign_id: number }>(
    `WITH latest AS (
       SELECT DISTINCT ON (x.phone) r.id
         FROM unnest($3::text[], $4::timestamptz[]) AS x(phone, at)
         JOIN official_numbers o ON o.company_id = $1 AND o.whatsapp_id = $2
         JOIN campaign_recipients r ON r.official_number_id = o.id AND r.phone = x.phone AND r.sent_at IS NOT NULL AND r.sent_at < x.at + interval '1 second'
        ORDER BY x.phone, r.sent_at DESC)
     UPDATE campaign_recipients r SET replied_at = now() FROM latest
      WHERE r.id = latest.id AND r.replied_at IS NULL AND r.company_id = $1
      RETURNING r.campaign_id`,
    [companyId, whatsappId, replies.map((r) => r.phone), replies.map((r) => r.at)],
  );
  return applyTransitions(sql, rows.map((r) => ({ campaignId: r.campaign_id, before: "x", after: "x", replied: true })));
}

/**
 * Where a new ticket of this contact on this connection goes when the contact is answering a campaign:
 * the queue of the campaign most recently sent to their phone from the connection's number, and its
 * bot (queue integration) when it chose one (null when none, or the campaign has no queue). Read by the
 * routing decision of a new ticket.
 */
export async function campaignReplyRoute(sql: Sql, companyId: number, whatsappId: number, ticketId: number): Promise<{ queueId: number; integrationId: number | null } | null> {
  const row = await sql.maybe<{ queue_id: number | null; integration_id: number | null }>(
    `SELECT c.queue_id, (SELECT i.id FROM queue_integrations i WHERE i.company_id = c.company_id AND i.id = c.integration_id) AS integration_id
       FROM tickets t
       JOIN contacts ct ON ct.company_id = t.company_id AND ct.id = t.contact_id
       JOIN official_numbers o ON o.company_id = t.company_id AND o.whatsapp_id = $2
       JOIN campaign_recipients r ON r.official_number_id = o.id AND r.phone = ct.number AND r.sent_at IS NOT NULL
       JOIN campaigns c ON c.id = r.campaign_id
      WHERE t.company_id = $1 AND t.id = $3
      ORDER BY r.sent_at DESC LIMIT 1`,
    [companyId, whatsappId, ticketId],
  );
  return row?.queue_id ? { queueId: row.queue_id, integrationId: row.integration_id } : null;
}
