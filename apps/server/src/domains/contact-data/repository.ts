import type { Sql } from "../../db/sql.js";

/** Who the contact is, for matching rows that name it by address rather than by id. */
export interface ContactAddresses {
  /** the number and its other WhatsApp forms (core/phone.ts phoneVariants) */
  phones: string[];
  /** lower-case, or "" */
  email: string;
}

// The tickets of the contact, used by several statements below.
const TICKETS = "SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2";

export function contactRow(sql: Sql, companyId: number, contactId: number, lock = false) {
  return sql.maybe<Record<string, unknown> & { id: number; number: string; email: string; is_group: boolean; erased_at: Date | null }>(
    `SELECT * FROM contacts WHERE company_id = $1 AND id = $2 ${lock ? "FOR UPDATE" : ""}`,
    [companyId, contactId],
  );
}

/** Every row about the contact, for the export (column names as stored). */
export async function collect(sql: Sql, companyId: number, contactId: number, a: ContactAddresses) {
  const many = (text: string, params: unknown[] = [companyId, contactId]) => sql.many<Record<string, unknown>>(text, params);
  const byAddress = [companyId, a.phones, a.email];
  return {
    tickets: await many(
      `SELECT t.id, t.uuid, t.status, t.whatsapp_id, t.user_id, t.queue_id, t.is_group, t.last_message, t.last_message_at, t.closed_at,
              t.created_at, t.updated_at,
              COALESCE((SELECT array_agg(tg.name ORDER BY tg.name) FROM ticket_tags tt JOIN tags tg ON tg.company_id = tt.company_id AND tg.id = tt.tag_id
                         WHERE tt.company_id = t.company_id AND tt.ticket_id = t.id), '{}') AS tags
         FROM tickets t WHERE t.company_id = $1 AND t.contact_id = $2 ORDER BY t.id`,
    ),
    messages: await many(
      `SELECT id::text, ticket_id, from_me, body, media_type, media_name, mimetype, ack, is_deleted, is_edited, reactions, referral,
              send_status, created_at, updated_at
         FROM messages WHERE company_id = $1 AND (contact_id = $2 OR ticket_id IN (${TICKETS})) ORDER BY created_at, id`,
    ),
    notes: await many(
      `SELECT id, ticket_id, user_id, note, created_at, updated_at FROM ticket_notes
        WHERE company_id = $1 AND (contact_id = $2 OR ticket_id IN (${TICKETS})) ORDER BY id`,
    ),
    schedules: await many(
      "SELECT id, body, send_at, sent_at, status, error, media_name, whatsapp_id, ticket_id, created_at FROM schedules WHERE company_id = $1 AND contact_id = $2 ORDER BY id",
    ),
    ratings: await many(`SELECT ticket_id, rate, created_at FROM ticket_ratings WHERE company_id = $1 AND ticket_id IN (${TICKETS}) ORDER BY id`),
    campaignRecipients: await many(
      `SELECT campaign_id, row_number, phone, cpf, email, variables, state, sent_at, delivered_at, read_at, failed_at, replied_at
         FROM campaign_recipients WHERE company_id = $1 AND phone = ANY($2::text[]) ORDER BY id`,
      [companyId, a.phones],
    ),
    smsCampaignRecipients: await many(
      `SELECT campaign_id, row_number, phone, cpf, email, variables, state, body, sent_at, delivered_at, failed_at
         FROM sms_campaign_recipients WHERE company_id = $1 AND phone = ANY($2::text[]) ORDER BY id`,
      [companyId, a.phones],
    ),
    emailCampaignRecipients: await many(
      `SELECT campaign_id, row_number, email, phone, cpf, variables, state, sent_at, opened_at, clicked_at, unsubscribed_at, bounced_at
         FROM email_campaign_recipients WHERE company_id = $1 AND (phone = ANY($2::text[]) OR ($3 <> '' AND lower(email) = $3)) ORDER BY id`,
      byAddress,
    ),
    optOuts: await many(
      "SELECT channel, address, source, created_at FROM opt_outs WHERE company_id = $1 AND (address = ANY($2::text[]) OR ($3 <> '' AND lower(address) = $3)) ORDER BY created_at",
      byAddress,
    ),
  };
}

export interface ErasedCounts {
  messages: number;
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
  const messages = await sql.exec(
    `UPDATE messages SET body = '', media_path = NULL, media_name = NULL, reactions = '[]'::jsonb, referral = NULL, send_template = NULL,
            send_error = NULL, updated_at = now()
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
    `UPDATE campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', state = ${waiting}, invalid_reason = ${reason}
      WHERE company_id = $1 AND phone = ANY($2::text[])`,
    byPhone,
  );
  campaignRows += await sql.exec(
    `UPDATE sms_campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', body = NULL, state = ${waiting}, invalid_reason = ${reason}
      WHERE company_id = $1 AND phone = ANY($2::text[])`,
    byPhone,
  );
  campaignRows += await sql.exec(
    `UPDATE email_campaign_recipients SET phone = '', cpf = '', email = '', variables = '{}', state = ${waiting}, invalid_reason = ${reason}
      WHERE company_id = $1 AND (phone = ANY($2::text[]) OR ($3 <> '' AND lower(email) = $3))`,
    [companyId, a.phones, a.email],
  );
  await sql.exec("DELETE FROM official_conversations WHERE company_id = $1 AND contact_number = ANY($2::text[])", byPhone);
  await sql.exec("UPDATE business_initiated_sends SET phone = '' WHERE company_id = $1 AND phone = ANY($2::text[])", byPhone);
  await sql.exec("DELETE FROM sandbox_messages WHERE company_id = $1 AND number = ANY($2::text[])", byPhone);
  await sql.exec("DELETE FROM sms_sandbox_messages WHERE company_id = $1 AND to_number = ANY($2::text[])", byPhone);
  if (a.email) await sql.exec("DELETE FROM email_sandbox_messages WHERE company_id = $1 AND lower(to_address) = $2", [companyId, a.email]);
  await sql.exec("DELETE FROM baileys_messages WHERE company_id = $1 AND split_part(remote_jid, '@', 1) = ANY($2::text[])", byPhone);

  await sql.exec(
    `UPDATE contacts SET name = 'Contato apagado', number = 'apagado-' || id, email = '', document = '', profile_pic_url = '',
            extra_info = '[]'::jsonb, erased_at = now(), updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    base,
  );
  // the tickets' search words held the contact's name, number and messages: rebuilt from what is left
  const tickets = await sql.exec(
    `UPDATE tickets t SET last_message = '', search_words = contact_search_words(c.name, c.number), updated_at = now()
       FROM contacts c WHERE c.company_id = t.company_id AND c.id = t.contact_id AND t.company_id = $1 AND t.contact_id = $2`,
    base,
  );
  return { messages, tickets, notes, schedules, campaignRows, mediaPaths: media.map((m) => m.media_path) };
}
