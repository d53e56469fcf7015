import { authorizeNote, type TicketNote } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { enforce } from "../../core/enforce.js";
import { AppError } from "../../core/errors.js";
import * as ticketRepo from "../tickets/repository.js";
import { assertVisible, historyVisibilityFor, loadVisibleTicket, mayReadInHistory } from "../tickets/visibility.js";
import * as repo from "./repository.js";

function present(row: repo.NoteRow): TicketNote {
  return {
    id: row.id,
    note: row.note,
    userId: row.user_id,
    user: row.user_id !== null && row.user_name !== null ? { id: row.user_id, name: row.user_name } : null,
    ticketId: row.ticket_id,
    contactId: row.contact_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function createNote(ctx: AppContext, actor: RequestActor, input: { note: string; ticketId: number; contactId: number }): Promise<TicketNote> {
  const ticket = await loadVisibleTicket(ctx, actor, input.ticketId);
  if (ticket.contact_id !== input.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
  const id = await repo.insertNote(ctx.sql, actor.companyId, { ...input, userId: actor.id });
  return present((await repo.findNote(ctx.sql, actor.companyId, id))!);
}

/**
 * The notes of a ticket, or of a contact (across its tickets), that the history rule lets the user
 * read (canSeeInHistory: tickets the user may open, and with shareContactHistory the other tickets of
 * a conversation the user may open one of).
 */
export async function listNotes(ctx: AppContext, actor: RequestActor, f: { ticketId?: number; contactId?: number }): Promise<TicketNote[]> {
  if (!f.ticketId && !f.contactId) throw new AppError("ERR_VALIDATION", "ticketId ou contactId obrigatório");
  if (f.ticketId) {
    const ticket = await ticketRepo.findTicket(ctx.sql, actor.companyId, f.ticketId);
    if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
    const readable = await mayReadInHistory(ctx.sql, actor, ticket, { contactId: ticket.contact_id, whatsappId: ticket.whatsapp_id });
    if (!readable) throw new AppError("ERR_NO_PERMISSION", "Sem permissão para ver este ticket");
    if (f.contactId && ticket.contact_id !== f.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
  } else {
    const c = await ctx.sql.maybe("SELECT 1 FROM contacts WHERE company_id = $1 AND id = $2", [actor.companyId, f.contactId]);
    if (!c) throw new AppError("ERR_NO_CONTACT_FOUND");
  }
  return (await repo.listNotes(ctx.sql, actor.companyId, f, await historyVisibilityFor(ctx.sql, actor))).map(present);
}

/** The note's author or an admin. */
export async function deleteNote(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  const note = await repo.findNote(ctx.sql, actor.companyId, id);
  if (!note) throw new AppError("ERR_NOT_FOUND", "Observação não encontrada");
  const ticket = await ticketRepo.findTicket(ctx.sql, actor.companyId, note.ticket_id);
  if (ticket) await assertVisible(ctx, actor, ticket);
  enforce(authorizeNote(actor, "delete", { userId: note.user_id }));
  await repo.deleteNote(ctx.sql, actor.companyId, id);
}
