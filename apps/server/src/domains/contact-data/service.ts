import type { ContactErasure, ContactExport } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { phoneVariants } from "../../core/phone.js";
import { mediaStorage } from "../../core/storage.js";
import { recordAudit } from "../audit-log/service.js";
import { emitContactEvent } from "../contacts/events.js";
import { presentContact } from "../contacts/presenter.js";
import * as contactRepo from "../contacts/repository.js";
import { emitTicketUpdate } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import * as repo from "./repository.js";

const notFound = () => new AppError("ERR_NO_CONTACT_FOUND");

function addressesOf(row: { number: string; email: string; is_group: boolean }): repo.ContactAddresses {
  return { phones: row.is_group || !row.number ? [] : phoneVariants(row.number), email: row.email.trim().toLowerCase() };
}

/** The export of everything stored about one contact (LGPD right of access); the export is audited. */
export async function exportContact(ctx: AppContext, actor: RequestActor, contactId: number, ip: string): Promise<ContactExport> {
  const contact = await repo.contactRow(ctx.sql, actor.companyId, contactId);
  if (!contact) throw notFound();
  const rows = await repo.collect(ctx.sql, actor.companyId, contactId, addressesOf(contact));
  await recordAudit(ctx.sql, {
    companyId: actor.companyId,
    action: "contact.exported",
    actor: { id: actor.id, name: actor.name },
    ip,
    target: { type: "contact", id: contactId, label: `#${contactId}` },
    details: { tickets: rows.tickets.length, messages: rows.messages.length },
  });
  return { exportedAt: new Date().toISOString(), company: { id: actor.company.id, name: actor.company.name }, contact, ...rows };
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
      details: { messages: erased.messages, tickets: erased.tickets, notes: erased.notes, schedules: erased.schedules, campaignRows: erased.campaignRows },
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
  for (const t of await ticketRepo.ticketsByIds(ctx.sql, actor.companyId, tickets.map((x) => x.id))) await emitTicketUpdate(ctx, t);
  return {
    contactId,
    erasedAt: new Date().toISOString(),
    messages: counts.messages,
    mediaFiles,
    tickets: counts.tickets,
    notes: counts.notes,
    schedules: counts.schedules,
    campaignRows: counts.campaignRows,
  };
}
