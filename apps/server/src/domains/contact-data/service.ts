import type { ContactErasure } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { phoneVariants } from "../../core/phone.js";
import { mediaStorage } from "../../core/storage.js";
import { zipSync } from "fflate";
import { recordAudit } from "../audit-log/service.js";
import { emitContactEvent } from "../contacts/events.js";
import { presentContact } from "../contacts/presenter.js";
import * as contactRepo from "../contacts/repository.js";
import { presentMessage } from "../messages/presenter.js";
import * as messageRepo from "../messages/repository.js";
import { emitAppMessage, emitTicketUpdate } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import { buildDocument } from "./document.js";
import { renderHtml } from "./render-html.js";
import * as repo from "./repository.js";

const notFound = () => new AppError("ERR_NO_CONTACT_FOUND");
/** Per ticket, the newest erased messages announced to open screens (the offline cache holds the last 30). */
const ERASED_MESSAGES_EMITTED = 100;

function addressesOf(row: repo.ContactRow): repo.ContactAddresses {
  const phones = row.is_group || !row.number ? [] : phoneVariants(row.number);
  const known = [row.wa_id, row.wa_user_id].filter((v): v is string => !!v);
  // a short "number" (a test row, a typo) would match unrelated text: raw bodies are searched with 8+ characters only
  const ids = [...new Set([...phones, ...known])].filter((v) => v.length >= 8);
  return { phones, email: row.email.trim().toLowerCase(), ids };
}

/**
 * The export of everything stored about one contact (LGPD right of access): a ZIP with a page the
 * person can read (`dados-pessoais.html`, Portuguese, the company's clock) and the same content for
 * machines (`dados-pessoais.json`); the export is audited.
 */
export async function exportContact(ctx: AppContext, actor: RequestActor, contactId: number, ip: string): Promise<Buffer> {
  const contact = await repo.contactRow(ctx.sql, actor.companyId, contactId);
  if (!contact) throw notFound();
  const rows = await repo.collect(ctx.sql, actor.companyId, contactId, addressesOf(contact));
  const now = new Date();
  const doc = buildDocument(contact, rows, now);
  await recordAudit(ctx.sql, {
    companyId: actor.companyId,
    action: "contact.exported",
    actor: { id: actor.id, name: actor.name },
    ip,
    target: { type: "contact", id: contactId, label: `#${contactId}` },
    details: { tickets: doc.tickets.length, messages: rows.messages.length },
  });
  const files = {
    "dados-pessoais.html": Buffer.from(renderHtml(doc), "utf8"),
    "dados-pessoais.json": Buffer.from(JSON.stringify(doc, null, 2), "utf8"),
  };
  return Buffer.from(zipSync(files, { level: 6, mtime: now }));
}

/**
 * Erases one contact's personal data (LGPD right to erasure): one transaction with its audit line;
 * the media files go after the commit (a file left behind by a crash is unreachable: nothing points
 * at it any more, and the warning names it).
 */
export async function eraseContact(ctx: AppContext, actor: RequestActor, contactId: number, ip: string): Promise<ContactErasure> {
  const counts = await ctx.sql.tx(async (sql) => {
    const contact = await repo.contactRow(sql, actor.companyId, contactId, true);
    if (!contact) throw notFound();
    const erased = await repo.erase(sql, actor.companyId, contactId, addressesOf(contact));
    await recordAudit(sql, {
      companyId: actor.companyId,
      action: "contact.erased",
      actor: { id: actor.id, name: actor.name },
      ip,
      // never the erased name: the audit line must not keep what was erased
      target: { type: "contact", id: contactId, label: `#${contactId}` },
      details: { messages: erased.messages, webhookDeliveries: erased.webhookDeliveries, tickets: erased.tickets, notes: erased.notes, schedules: erased.schedules, campaignRows: erased.campaignRows },
    });
    return erased;
  });
  const storage = mediaStorage(ctx.config.dataDir);
  let mediaFiles = 0;
  for (const key of new Set(counts.mediaPaths)) {
    try {
      await storage.remove(key);
      mediaFiles++;
    } catch (err) {
      ctx.log.warn({ err, contactId, companyId: actor.companyId, mediaPath: key }, "an erased contact's media file could not be removed");
    }
  }
  const row = await contactRepo.findContact(ctx.sql, actor.companyId, contactId);
  if (row) emitContactEvent(ctx, actor.companyId, { action: "update", contact: presentContact(row) });
  const tickets = await ctx.sql.many<{ id: number }>("SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2", [actor.companyId, contactId]);
  const rows = await ticketRepo.ticketsByIds(ctx.sql, actor.companyId, tickets.map((x) => x.id));
  for (const t of rows) await emitTicketUpdate(ctx, t);
  // screens and offline caches holding the conversation replace its messages with the erased ones
  const byId = new Map(rows.map((t) => [t.id, t]));
  for (const m of await messageRepo.lastMessagesOfTickets(ctx.sql, actor.companyId, [...byId.keys()], ERASED_MESSAGES_EMITTED)) {
    const ticket = byId.get(m.ticket_id);
    if (ticket) await emitAppMessage(ctx, "update", presentMessage(m), ticket);
  }
  return {
    contactId,
    erasedAt: new Date().toISOString(),
    messages: counts.messages,
    mediaFiles,
    webhookDeliveries: counts.webhookDeliveries,
    tickets: counts.tickets,
    notes: counts.notes,
    schedules: counts.schedules,
    campaignRows: counts.campaignRows,
  };
}
