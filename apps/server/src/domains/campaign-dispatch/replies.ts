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
export type CampaignReplyRoute = { queueId: number; integrationId: number | null };

export async function campaignReplyRoute(sql: Sql, companyId: number, whatsappId: number, ticketId: number): Promise<CampaignReplyRoute | null> {
  // The contact's number first, by the two primary keys alone: with the company in the same WHERE, a
  // company too new for the table's statistics (estimated at one row) made PostgreSQL walk its
  // contacts and tickets in a nested loop (29 s for a company's first 1,660 tickets in a 1M-ticket
  // database) instead of the ticket's row.
  const me = await sql.maybe<{ company_id: number; number: string }>(
    "SELECT t.company_id, ct.number FROM tickets t JOIN contacts ct ON ct.id = t.contact_id WHERE t.id = $1",
    [ticketId],
  );
  if (!me || me.company_id !== companyId) return null;
  return (await campaignReplyRoutes(sql, companyId, whatsappId, [me.number])).get(me.number) ?? null;
}

/** campaignReplyRoute for many contact numbers at once (a webhook delivery's new tickets): by number. */
export async function campaignReplyRoutes(sql: Sql, companyId: number, whatsappId: number, numbers: string[]): Promise<Map<string, CampaignReplyRoute>> {
  if (!numbers.length) return new Map();
  const rows = await sql.many<{ phone: string; queue_id: number | null; integration_id: number | null }>(
    `SELECT DISTINCT ON (r.phone) r.phone, c.queue_id,
            (SELECT i.id FROM queue_integrations i WHERE i.company_id = c.company_id AND i.id = c.integration_id) AS integration_id
       FROM official_numbers o
       JOIN campaign_recipients r ON r.official_number_id = o.id AND r.phone = ANY($3::text[]) AND r.sent_at IS NOT NULL
       JOIN campaigns c ON c.id = r.campaign_id
      WHERE o.company_id = $1 AND o.whatsapp_id = $2
      ORDER BY r.phone, r.sent_at DESC`,
    [companyId, whatsappId, numbers],
  );
  return new Map(rows.filter((r) => r.queue_id).map((r) => [r.phone, { queueId: r.queue_id!, integrationId: r.integration_id }]));
}
