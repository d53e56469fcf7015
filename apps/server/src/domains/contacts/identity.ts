import { isWhatsappUserId } from "@atende/shared";
import { contactKey, contactKeys } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";

/** How a WhatsApp message names its sender. */
export interface WhatsappIdentity {
  /** A phone number (any form WhatsApp uses), a group id, or a business-scoped user id when no number came. */
  address: string;
  /** The business-scoped user id (BSUID) that came with the message, if any. */
  userId?: string | null;
  name: string;
  isGroup: boolean;
  whatsappId: number | null;
  /**
   * The address came from WhatsApp itself (a received message, a number check), so it is WhatsApp's
   * own id for the number; a number typed by a person is not (it may be the other Brazilian form).
   */
  fromWhatsapp: boolean;
}

export interface ResolvedContact {
  id: number;
  created: boolean;
  /** Contacts found to be this same person and folded into it (their history moved here). */
  merged: number[];
  /** Its number or WhatsApp ids changed. */
  changed: boolean;
}

interface Known {
  id: number;
  number: string;
  wa_id: string | null;
  wa_user_id: string | null;
}
const KNOWN = "id, number, wa_id, wa_user_id";

/** The company's contact stored under any form of this address (its exact stored form first). */
export function findByAddress(sql: Sql, companyId: number, address: string, isGroup = false): Promise<Known | null> {
  const key = contactKey(address, isGroup);
  return sql.maybe<Known>(
    `SELECT ${KNOWN} FROM contacts WHERE company_id = $1 AND number = ANY($2::text[]) ORDER BY number = $3 DESC, id LIMIT 1`,
    [companyId, contactKeys(address, isGroup), key],
  );
}

const findByUserId = (sql: Sql, companyId: number, userId: string) =>
  sql.maybe<Known>(`SELECT ${KNOWN} FROM contacts WHERE company_id = $1 AND wa_user_id = $2`, [companyId, userId]);

/**
 * The contact a WhatsApp message belongs to, created when new, inside the caller's transaction.
 * One person is one contact: a Brazilian mobile in either form finds the same row; a message carrying
 * only a business-scoped user id (a username user) finds or creates the contact known by that id
 * (stored under it until a number arrives); a later message carrying both links them, folding the
 * username contact into the number's one when both exist. WhatsApp's own id for the number (`wa_id`,
 * e.g. the 8-digit form) is kept, so answers go where WhatsApp delivers them.
 */
export async function resolveWhatsappContact(sql: Sql, companyId: number, who: WhatsappIdentity): Promise<ResolvedContact> {
  const phone = who.isGroup || isWhatsappUserId(who.address) ? null : contactKey(who.address);
  const userId = who.userId && isWhatsappUserId(who.userId) ? who.userId : isWhatsappUserId(who.address) ? who.address : null;
  const [byAddress, byUser] = await Promise.all([
    findByAddress(sql, companyId, who.address, who.isGroup),
    userId ? findByUserId(sql, companyId, userId) : Promise.resolve(null),
  ]);
  const waId = phone && who.fromWhatsapp ? who.address.replace(/\D/g, "") : null;
  const merged: number[] = [];
  let found = byAddress ?? byUser;
  if (byAddress && byUser && byAddress.id !== byUser.id) {
    await mergeContacts(sql, companyId, byUser.id, byAddress.id);
    merged.push(byUser.id);
    found = byAddress;
  }
  if (found) {
    const changed = await refreshIdentity(sql, companyId, found, { phone, waId, userId });
    return { id: found.id, created: false, merged, changed };
  }
  const key = contactKey(who.address, who.isGroup);
  const inserted = await sql.maybe<{ id: number }>(
    `INSERT INTO contacts (company_id, name, number, is_group, whatsapp_id, wa_id, wa_user_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (company_id, number) DO NOTHING RETURNING id`,
    [companyId, (who.name || key).slice(0, 100), key, who.isGroup, who.whatsappId, waId, userId],
  );
  if (inserted) return { id: inserted.id, created: true, merged, changed: false };
  const row = await sql.one<{ id: number }>("SELECT id FROM contacts WHERE company_id = $1 AND number = $2", [companyId, key]);
  return { id: row.id, created: false, merged, changed: false };
}

/** Brings a found contact's number and WhatsApp ids up to what the message says; true when something changed. */
async function refreshIdentity(sql: Sql, companyId: number, c: Known, seen: { phone: string | null; waId: string | null; userId: string | null }): Promise<boolean> {
  // a username contact gets its number when one arrives; a number is never replaced by a user id
  const number = seen.phone && isWhatsappUserId(c.number) ? seen.phone : c.number;
  const waId = seen.waId ?? c.wa_id;
  const userId = seen.userId ?? c.wa_user_id;
  if (number === c.number && waId === c.wa_id && userId === c.wa_user_id) return false;
  await sql.exec("UPDATE contacts SET number = $3, wa_id = $4, wa_user_id = $5, updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    c.id,
    number,
    waId,
    userId,
  ]);
  return true;
}

/**
 * The customer changed their phone number (WhatsApp's `user_changed_number`): the contact moves to the
 * new number with its whole history; when the company already had a contact for the new number, the
 * old one is folded into it. A number change gives the user a new business-scoped id (`newUserId`).
 */
export async function changeContactNumber(
  sql: Sql,
  companyId: number,
  change: { from: string; previousUserId?: string | null; newNumber: string; newUserId?: string | null },
): Promise<ResolvedContact | null> {
  const old =
    (change.from ? await findByAddress(sql, companyId, change.from) : null) ??
    (change.previousUserId ? await findByUserId(sql, companyId, change.previousUserId) : null);
  if (!old) return null;
  const number = contactKey(change.newNumber);
  const waId = change.newNumber.replace(/\D/g, "");
  const target = await findByAddress(sql, companyId, change.newNumber);
  const merged: number[] = [];
  let id = old.id;
  if (target && target.id !== old.id) {
    await mergeContacts(sql, companyId, old.id, target.id);
    merged.push(old.id);
    id = target.id;
  }
  await sql.exec(
    `UPDATE contacts SET number = CASE WHEN id = $6 THEN number ELSE $3 END, wa_id = $4, wa_user_id = COALESCE($5, wa_user_id), updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, number, waId, change.newUserId ?? null, target?.id ?? 0],
  );
  return { id, created: false, merged, changed: true };
}

/** A business-scoped user id replaced by a new one (WhatsApp's `user_changed_user_id`). */
export async function changeContactUserId(sql: Sql, companyId: number, previousUserId: string, newUserId: string): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    `UPDATE contacts SET wa_user_id = $3, number = CASE WHEN number = $2 THEN $3 ELSE number END, updated_at = now()
      WHERE company_id = $1 AND wa_user_id = $2 RETURNING id`,
    [companyId, previousUserId, newUserId],
  );
  return row?.id ?? null;
}

/**
 * Folds contact `fromId` into `intoId` (the same person under two identities): every row that points
 * at a contact (tickets, messages, notes, schedules, and whatever table is added later) moves over;
 * when both have an active ticket on the same connection, the one with older activity is closed
 * first, so the conversation goes on in one ticket. Then `fromId` is deleted.
 */
export async function mergeContacts(sql: Sql, companyId: number, fromId: number, intoId: number): Promise<void> {
  await sql.exec(
    `UPDATE tickets t SET status = 'closed', updated_at = now()
       FROM tickets o
      WHERE t.company_id = $1 AND o.company_id = $1 AND t.status <> 'closed' AND o.status <> 'closed'
        AND t.whatsapp_id IS NOT DISTINCT FROM o.whatsapp_id AND t.id <> o.id
        AND t.contact_id IN ($2, $3) AND o.contact_id IN ($2, $3) AND t.contact_id <> o.contact_id
        AND (t.updated_at, t.id) < (o.updated_at, o.id)`,
    [companyId, fromId, intoId],
  );
  const refs = await sql.many<{ table_name: string; column_name: string }>(
    `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[array_length(c.conkey, 1)]
      WHERE c.contype = 'f' AND c.confrelid = 'contacts'::regclass`,
  );
  for (const ref of refs) {
    await sql.exec(`UPDATE ${ref.table_name} SET ${ref.column_name} = $3 WHERE company_id = $1 AND ${ref.column_name} = $2`, [companyId, fromId, intoId]);
  }
  const from = await sql.one<{ wa_user_id: string | null; wa_id: string | null }>(
    "DELETE FROM contacts WHERE company_id = $1 AND id = $2 RETURNING wa_user_id, wa_id",
    [companyId, fromId],
  );
  await sql.exec("UPDATE contacts SET wa_user_id = COALESCE(wa_user_id, $3), wa_id = COALESCE(wa_id, $4), updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    intoId,
    from.wa_user_id,
    from.wa_id,
  ]);
}

/** The id WhatsApp answered a send with (Meta's `wa_id`) becomes the WhatsApp id of the message's contact. */
export async function rememberWhatsappId(sql: Sql, companyId: number, messageId: number, waId: string): Promise<void> {
  await sql.exec(
    `UPDATE contacts c SET wa_id = $3, updated_at = now()
       FROM messages m
      WHERE m.company_id = $1 AND m.id = $2 AND c.company_id = m.company_id AND c.id = m.contact_id
        AND NOT c.is_group AND c.wa_id IS DISTINCT FROM $3`,
    [companyId, messageId, waId],
  );
}
