import type { Sql } from "../../db/sql.js";

/** Who the contact is, for matching rows that name it by address rather than by id. */
export interface ContactAddresses {
  /** the number and its other WhatsApp forms (core/phone.ts phoneVariants) */
  phones: string[];
  /** lower-case, or "" */
  email: string;
  /**
   * Every string that names the person in a raw body (webhook deliveries, driver calls): the phone
   * forms, WhatsApp's own id of the number (wa_id) and the business-scoped user id (wa_user_id).
   */
  ids: string[];
}

// The tickets of the contact, used by several statements below.
const TICKETS = "SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2";

export interface ContactRow {
  id: number;
  name: string;
  number: string;
  email: string;
  document: string;
  extra_info: { name?: unknown; value?: unknown }[] | null;
  is_group: boolean;
  wa_id: string | null;
  wa_user_id: string | null;
  created_at: Date;
  erased_at: Date | null;
}

export function contactRow(sql: Sql, companyId: number, contactId: number, lock = false) {
  return sql.maybe<ContactRow>(
    `SELECT * FROM contacts WHERE company_id = $1 AND id = $2 ${lock ? "FOR UPDATE" : ""}`,
    [companyId, contactId],
  );
}

/** Everything stored about the contact, for the export: readable values (names, not ids); ids only to group rows. */
export async function collect(sql: Sql, companyId: number, contactId: number, a: ContactAddresses) {
  const many = <T>(text: string, params: unknown[] = [companyId, contactId]) => sql.many<T>(text, params);
  const byAddress = [companyId, a.phones, a.email];
  return {
    company: await sql.one<{ name: string; time_zone: string }>("SELECT name, time_zone FROM companies WHERE id = $1", [companyId]),
    tickets: await many<{ id: number; status: string; queue: string | null; agent: string | null; connection: string | null; tags: string[];
      created_at: Date; closed_at: Date | null; rating: number | null }>(
      `SELECT t.id, t.status, q.name AS queue, u.name AS agent, w.name AS connection, t.created_at, t.closed_at,
              (SELECT r.rate FROM ticket_ratings r WHERE r.company_id = t.company_id AND r.ticket_id = t.id) AS rating,
              COALESCE((SELECT array_agg(tg.name ORDER BY tg.name) FROM ticket_tags tt JOIN tags tg ON tg.company_id = tt.company_id AND tg.id = tt.tag_id
                         WHERE tt.company_id = t.company_id AND tt.ticket_id = t.id), '{}') AS tags
         FROM tickets t
         LEFT JOIN queues q ON q.company_id = t.company_id AND q.id = t.queue_id
         LEFT JOIN users u ON u.company_id = t.company_id AND u.id = t.user_id
         LEFT JOIN whatsapps w ON w.company_id = t.company_id AND w.id = t.whatsapp_id
        WHERE t.company_id = $1 AND t.contact_id = $2 ORDER BY t.created_at, t.id`,
    ),
    messages: await many<{ ticket_id: number; from_me: boolean; agent: string | null; body: string; media_type: string; media_name: string | null;
      is_deleted: boolean; is_edited: boolean; erased: boolean; created_at: Date }>(
      `SELECT m.ticket_id, m.from_me, u.name AS agent, m.body, m.media_type, m.media_name, m.is_deleted, m.is_edited, m.erased_at IS NOT NULL AS erased, m.created_at
         FROM messages m LEFT JOIN users u ON u.company_id = m.company_id AND u.id = m.user_id
        WHERE m.company_id = $1 AND (m.contact_id = $2 OR m.ticket_id IN (${TICKETS})) ORDER BY m.created_at, m.id`,
    ),
    notes: await many<{ ticket_id: number; author: string | null; note: string; created_at: Date }>(
      `SELECT n.ticket_id, u.name AS author, n.note, n.created_at FROM ticket_notes n LEFT JOIN users u ON u.company_id = n.company_id AND u.id = n.user_id
        WHERE n.company_id = $1 AND (n.contact_id = $2 OR n.ticket_id IN (${TICKETS})) ORDER BY n.created_at, n.id`,
    ),
    schedules: await many<{ body: string; send_at: Date; sent_at: Date | null; status: string; media_name: string | null; created_at: Date }>(
      "SELECT body, send_at, sent_at, status, media_name, created_at FROM schedules WHERE company_id = $1 AND contact_id = $2 ORDER BY send_at, id",
    ),
    campaignRows: await many<{ channel: "whatsapp" | "sms" | "email"; campaign: string; phone: string; email: string; state: string; sent_at: Date | null;
      delivered_at: Date | null; read_at: Date | null; failed_at: Date | null }>(
      `SELECT 'whatsapp' AS channel, c.name AS campaign, r.phone, r.email, r.state, r.sent_at, r.delivered_at, r.read_at, r.failed_at
         FROM campaign_recipients r JOIN campaigns c ON c.company_id = r.company_id AND c.id = r.campaign_id
        WHERE r.company_id = $1 AND r.phone = ANY($2::text[])
       UNION ALL
       SELECT 'sms', c.title, r.phone, r.email, r.state, r.sent_at, r.delivered_at, NULL, r.failed_at
         FROM sms_campaign_recipients r JOIN sms_campaigns c ON c.company_id = r.company_id AND c.id = r.campaign_id
        WHERE r.company_id = $1 AND r.phone = ANY($2::text[])
       UNION ALL
       SELECT 'email', c.title, r.phone, r.email, r.state, r.sent_at, NULL, r.opened_at, r.bounced_at
         FROM email_campaign_recipients r JOIN email_campaigns c ON c.company_id = r.company_id AND c.id = r.campaign_id
        WHERE r.company_id = $1 AND (r.phone = ANY($2::text[]) OR ($3 <> '' AND lower(r.email) = $3))
       ORDER BY 6 NULLS LAST, 2`,
      byAddress,
    ),
    optOuts: await many<{ channel: "sms" | "email"; address: string; source: string; created_at: Date }>(
      "SELECT channel, address, source, created_at FROM opt_outs WHERE company_id = $1 AND (address = ANY($2::text[]) OR ($3 <> '' AND lower(address) = $3)) ORDER BY created_at",
      byAddress,
    ),
  };
}
export type Collected = Awaited<ReturnType<typeof collect>>;

export interface ErasedCounts {
  messages: number;
  /** raw Cloud API deliveries deleted */
  webhookDeliveries: number;
  tickets: number;
  notes: number;
  schedules: number;
  campaignRows: number;
  /** storage keys to remove once the transaction committed */
  mediaPaths: string[];
}

/**
 * Erases the contact's personal data inside the caller's transaction (the choice is written in
 * docs/architecture.md "Data protection (LGPD)"): rows that reports count (tickets, messages, campaign
 * rows) stay, emptied of what identifies or was said; notes, schedules, sandbox copies, conversation
 * windows and the Baileys message cache go. Opt-outs stay: they are what keeps the person from being
 * messaged again.
 */
export async function erase(sql: Sql, companyId: number, contactId: number, a: ContactAddresses): Promise<ErasedCounts> {
  const base = [companyId, contactId];
  const media = await sql.many<{ media_path: string }>(
    `SELECT media_path FROM messages WHERE company_id = $1 AND (contact_id = $2 OR ticket_id IN (${TICKETS})) AND media_path IS NOT NULL
     UNION SELECT media_path FROM schedules WHERE company_id = $1 AND contact_id = $2 AND media_path IS NOT NULL`,
    base,
  );
  // Meta's statuses of these messages (an error's detail may name the number), matched by the message id
  await sql.exec(
    `DELETE FROM official_message_statuses s USING messages m
      WHERE s.company_id = $1 AND m.company_id = $1 AND (m.contact_id = $2 OR m.ticket_id IN (${TICKETS}))
        AND m.whatsapp_id = s.whatsapp_id AND m.provider_id = s.provider_id`,
    base,
  );
  const messages = await sql.exec(
    `UPDATE messages SET body = '', media_path = NULL, media_name = NULL, reactions = '[]'::jsonb, referral = NULL, send_template = NULL,
            send_error = NULL, erased_at = COALESCE(erased_at, now()), updated_at = now()
      WHERE company_id = $1 AND (contact_id = $2 OR ticket_id IN (${TICKETS}))`,
    base,
  );
  const notes = await sql.exec(`DELETE FROM ticket_notes WHERE company_id = $1 AND (contact_id = $2 OR ticket_id IN (${TICKETS}))`, base);
  const schedules = await sql.exec("DELETE FROM schedules WHERE company_id = $1 AND contact_id = $2", base);
  await sql.exec(`DELETE FROM queue_integration_sessions WHERE company_id = $1 AND ticket_id IN (${TICKETS})`, base);

  const byPhone = [companyId, a.phones];
  // a row still waiting in a campaign is not sent any more: it becomes invalid ("erased")
  const waiting = "CASE WHEN state = 'pending' THEN 'invalid' ELSE state END";
  const reason = "CASE WHEN state = 'pending' THEN 'erased' ELSE invalid_reason END";
  let campaignRows = await sql.exec(
    `UPDATE campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', error_message = '', state = ${waiting}, invalid_reason = ${reason}
      WHERE company_id = $1 AND phone = ANY($2::text[])`,
    byPhone,
  );
  campaignRows += await sql.exec(
    `UPDATE sms_campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', body = NULL, error_message = '', state = ${waiting},
            invalid_reason = ${reason}
      WHERE company_id = $1 AND phone = ANY($2::text[])`,
    byPhone,
  );
  campaignRows += await sql.exec(
    `UPDATE email_campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', smtp_response = '', error_message = '', state = ${waiting},
            invalid_reason = ${reason}
      WHERE company_id = $1 AND (phone = ANY($2::text[]) OR ($3 <> '' AND lower(email) = $3))`,
    [companyId, a.phones, a.email],
  );
  await sql.exec("DELETE FROM official_conversations WHERE company_id = $1 AND contact_number = ANY($2::text[])", byPhone);
  await sql.exec("UPDATE business_initiated_sends SET phone = '' WHERE company_id = $1 AND phone = ANY($2::text[])", byPhone);
  await sql.exec("DELETE FROM sandbox_messages WHERE company_id = $1 AND number = ANY($2::text[])", byPhone);
  await sql.exec("DELETE FROM sms_sandbox_messages WHERE company_id = $1 AND to_number = ANY($2::text[])", byPhone);
  if (a.email) {
    await sql.exec("DELETE FROM email_sandbox_messages WHERE company_id = $1 AND lower(to_address) = $2", [companyId, a.email]);
    // the e-mail tool's history: the row stays (it is the company's sending budget), without recipient or text
    await sql.exec("UPDATE sent_emails SET sender = '', subject = '', message = '', error = NULL WHERE company_id = $1 AND lower(sender) = $2", [companyId, a.email]);
  }
  const byId = [companyId, a.ids];
  await sql.exec("DELETE FROM baileys_messages WHERE company_id = $1 AND split_part(remote_jid, '@', 1) = ANY($2::text[])", byId);
  const webhookDeliveries = await eraseRawBodies(sql, companyId, a);

  await sql.exec(
    `UPDATE contacts SET name = 'Contato apagado', number = 'apagado-' || id, email = '', document = '', profile_pic_url = '',
            extra_info = '[]'::jsonb, wa_id = NULL, wa_user_id = NULL, erased_at = now(), updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    base,
  );
  // the tickets' search words held the contact's name, number and messages: rebuilt from what is left
  const tickets = await sql.exec(
    `UPDATE tickets t SET last_message = '', search_words = contact_search_words(c.name, c.number), updated_at = now()
       FROM contacts c WHERE c.company_id = t.company_id AND c.id = t.contact_id AND t.company_id = $1 AND t.contact_id = $2`,
    base,
  );
  return { messages, webhookDeliveries, tickets, notes, schedules, campaignRows, mediaPaths: media.map((m) => m.media_path) };
}

/** Whether a text column holds one of the strings in $2 (an array parameter). */
const names = (column: string) => `EXISTS (SELECT 1 FROM unnest($2::text[]) AS needle(v) WHERE v <> '' AND strpos(${column}, needle.v) > 0)`;

/**
 * Raw bodies that name the person, whoever's row they are in: Cloud API deliveries (a delivery
 * still pending goes too: it would only bring back what is being erased), driver calls, and the
 * reasons of contacts-import errors (a rejected line quotes the phone or e-mail it refused).
 * Returns the deliveries deleted.
 */
async function eraseRawBodies(sql: Sql, companyId: number, a: ContactAddresses): Promise<number> {
  if (!a.ids.length) return 0;
  const params = [companyId, a.ids];
  const deliveries = await sql.exec(`DELETE FROM webhook_events WHERE company_id = $1 AND ${names("payload::text")}`, params);
  await sql.exec(`DELETE FROM driver_calls WHERE company_id = $1 AND (${names("args::text")} OR ${names("COALESCE(result::text, '')")})`, params);
  const quoted = [...a.ids, a.email].filter(Boolean).map((v) => v.toLowerCase());
  await sql.exec(
    `UPDATE contact_imports SET errors = (
       SELECT COALESCE(jsonb_agg(CASE WHEN ${names("lower(e->>'reason')")} THEN jsonb_build_object('line', e->'line', 'reason', 'Dado apagado (LGPD)') ELSE e END
                       ORDER BY ord), '[]'::jsonb)
         FROM jsonb_array_elements(errors) WITH ORDINALITY AS x(e, ord))
      WHERE company_id = $1 AND ${names("lower(errors::text)")}`,
    [companyId, quoted],
  );
  return deliveries;
}
