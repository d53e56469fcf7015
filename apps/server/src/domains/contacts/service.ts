import { contactKey } from "../../core/phone.js";
import { LIMITS, type Contact, type contactInput, type ContactsPage, type contactUpdateInput } from "@atende/shared";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { emitTicketDelete } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import { presentContact } from "./presenter.js";
import * as repo from "./repository.js";
import { emitContactEvent, type ContactEvent } from "./events.js";

type CreateInput = z.output<typeof contactInput>;
type UpdateInput = z.output<typeof contactUpdateInput>;

const duplicated = () => new AppError("ERR_DUPLICATED_CONTACT", "Já existe um contato com este número");
const isUnique = (err: unknown) => typeof err === "object" && err !== null && (err as { code?: string }).code === "23505";

function emit(ctx: AppContext, companyId: number, payload: ContactEvent) {
  emitContactEvent(ctx, companyId, payload);
}

async function checkWhatsapp(ctx: AppContext, companyId: number, whatsappId: number | null | undefined) {
  if (!whatsappId) return;
  const w = await ctx.sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND id = $2", [companyId, whatsappId]);
  if (!w) throw new AppError("ERR_NO_WAPP_FOUND");
}

export async function pageContacts(ctx: AppContext, actor: RequestActor, searchParam: string, pageNumber: number): Promise<ContactsPage> {
  const size = LIMITS.listPageSize;
  const { rows, count } = await repo.pageContacts(ctx.sql, actor.companyId, searchParam, size, (pageNumber - 1) * size);
  return { contacts: rows.map(presentContact), hasMore: pageNumber * size < count, count };
}

export async function listContacts(ctx: AppContext, actor: RequestActor, searchParam: string): Promise<Contact[]> {
  return (await repo.listContacts(ctx.sql, actor.companyId, searchParam, 1000)).map(presentContact);
}

export async function showContact(ctx: AppContext, actor: RequestActor, id: number): Promise<Contact> {
  const row = await repo.findContact(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
  return presentContact(row);
}

export async function createContact(ctx: AppContext, actor: RequestActor, input: CreateInput): Promise<Contact> {
  await checkWhatsapp(ctx, actor.companyId, input.whatsappId);
  const id = await repo.insertContact(ctx.sql, actor.companyId, {
    name: input.name,
    number: contactKey(input.number),
    email: input.email,
    document: input.document,
    extraInfo: input.extraInfo,
    whatsappId: input.whatsappId ?? null,
  });
  if (id === null) throw duplicated();
  const contact = presentContact((await repo.findContact(ctx.sql, actor.companyId, id))!);
  emit(ctx, actor.companyId, { action: "create", contact });
  return contact;
}

export async function updateContact(ctx: AppContext, actor: RequestActor, id: number, input: UpdateInput): Promise<Contact> {
  if (!(await repo.findContact(ctx.sql, actor.companyId, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
  await checkWhatsapp(ctx, actor.companyId, input.whatsappId);
  try {
    await repo.updateContact(ctx.sql, actor.companyId, id, { ...input, number: input.number === undefined ? undefined : contactKey(input.number) });
  } catch (err) {
    if (isUnique(err)) throw duplicated();
    throw err;
  }
  const contact = presentContact((await repo.findContact(ctx.sql, actor.companyId, id))!);
  emit(ctx, actor.companyId, { action: "update", contact });
  return contact;
}

/** Deleting a contact deletes its tickets and messages; their viewers are told. */
export async function deleteContact(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  if (!(await repo.findContact(ctx.sql, actor.companyId, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
  const tickets = await ctx.sql.many<{ id: number }>("SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2", [actor.companyId, id]);
  const rows = await ticketRepo.ticketsByIds(
    ctx.sql,
    actor.companyId,
    tickets.map((t) => t.id),
  );
  await repo.deleteContact(ctx.sql, actor.companyId, id);
  for (const row of rows) await emitTicketDelete(ctx, row);
  emit(ctx, actor.companyId, { action: "delete", contactId: id });
}
