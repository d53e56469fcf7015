import { normalizePhone } from "../../core/phone.js";
import { assertNotConnectionNumber } from "../../channels/routing/own-numbers.js";
import { channel, LIMITS, type ExternalSendResponse, type Message } from "@atende/shared";
import { channels } from "../../channels/manager.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { assertCompanyUsable } from "../../core/company-state.js";
import { presentContact } from "../contacts/presenter.js";
import * as contactRepo from "../contacts/repository.js";
import { presentMessage } from "../messages/presenter.js";
import { mediaTypeOf, sendOutgoing, type OutgoingFile } from "../messages/send-message.js";
import { emitTicketUpdate } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import { apiTokenHash } from "../whatsapp/api-token.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import * as repo from "./repository.js";

export interface ApiConnection {
  companyId: number;
  whatsappId: number;
  /** The plan's useCampaigns flag (campaigns created through the API). */
  useCampaigns: boolean;
}

/**
 * The connection a bearer token belongs to: 401 ERR_SESSION_EXPIRED for a missing or unknown token,
 * 403 ERR_PLAN_FEATURE_DISABLED when the company's plan has no external API, 401
 * ERR_SUBSCRIPTION_EXPIRED for an inactive or overdue company.
 */
export async function authenticate(ctx: AppContext, token: string | null): Promise<ApiConnection> {
  const invalid = () => new AppError("ERR_SESSION_EXPIRED", "Token inválido");
  if (!token) throw invalid();
  const row = await repo.connectionByTokenHash(ctx.sql, apiTokenHash(ctx.config.jwtSecret, token));
  if (!row) throw invalid();
  if (!row.use_external_api) throw new AppError("ERR_PLAN_FEATURE_DISABLED", "Recurso não disponível no plano da empresa");
  // The platform company can be neither deactivated nor given another due date (companies service).
  assertCompanyUsable({ status: row.company_status, dueDate: row.due_date, isPlatform: false });
  return { companyId: row.company_id, whatsappId: row.id, useCampaigns: row.use_campaigns };
}

/** A phone number in its stored form (core/phone.ts: spaces, +, dashes, parentheses allowed); else ERR_WAPP_INVALID_CONTACT. */
function phoneOf(input: string): string {
  const number = /^[\d\s()+.-]+$/.test(input) ? normalizePhone(input) : null;
  if (!number) throw new AppError("ERR_WAPP_INVALID_CONTACT", "Digite um número de telefone válido");
  return number;
}

export interface ExternalMessage {
  number: string;
  body: string;
  files: OutgoingFile[];
}

/**
 * POST /messages/send: finds or creates the contact and its ticket on the token's connection and
 * sends like an agent would (no signature). Everything that can be refused is checked before the
 * first send; a ticket created for a send that then fails is removed again.
 */
export async function sendExternal(ctx: AppContext, conn: ApiConnection, input: ExternalMessage): Promise<ExternalSendResponse> {
  const { companyId, whatsappId } = conn;
  let number = phoneOf(input.number);
  let fromWhatsapp = false;
  if (!input.body.trim() && !input.files.length) {
    throw new AppError("ERR_VALIDATION", "Digite uma mensagem", { fields: { body: "Digite uma mensagem" } });
  }
  if (input.files.reduce((n, f) => n + f.data.length, 0) > LIMITS.attachmentMaxBytes) {
    throw new AppError("ERR_PAYLOAD_TOO_LARGE", "O arquivo excede o tamanho máximo de 10MB");
  }
  // on the process that runs the connection (carried there when it is another): a failed check is ERR_WAPP_CHECK_CONTACT
  const check = await channels(ctx).act(companyId, whatsappId, "checkNumber", { number });
  if (check.supported) {
    if (!check.known) throw new AppError("ERR_WAPP_INVALID_CONTACT", "Este número não tem WhatsApp");
    number = check.known;
    fromWhatsapp = true;
  }
  await assertNotConnectionNumber(ctx.sql, companyId, number);

  const contact = await contactRepo.findOrCreateByNumber(ctx.sql, companyId, { number, name: "", isGroup: false, whatsappId, fromWhatsapp });
  if (contact.created) {
    const full = await contactRepo.findContact(ctx.sql, companyId, contact.id);
    if (full) ctx.realtime.emit(rooms.company(companyId), channel.contact(companyId), { action: "create", contact: presentContact(full) });
  }
  let ticketId = (await ticketRepo.findActiveTicket(ctx.sql, companyId, contact.id, whatsappId))?.id ?? null;
  let created = false;
  if (ticketId === null) {
    const connection = await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId);
    ticketId = await ticketRepo.insertTicketIfNone(ctx.sql, {
      companyId,
      contactId: contact.id,
      whatsappId,
      status: "pending",
      userId: null,
      queueId: connection?.queues.length === 1 ? connection.queues[0]!.id : null,
      isGroup: false,
      originFromMe: true,
    });
    created = ticketId !== null;
    ticketId ??= (await ticketRepo.findActiveTicket(ctx.sql, companyId, contact.id, whatsappId))!.id;
  }
  const ticket = (await ticketRepo.findTicket(ctx.sql, companyId, ticketId))!;

  // The text is the first file's caption (not for audio, which has none), else a message of its own.
  const captionFits = input.files.length > 0 && mediaTypeOf(input.files[0]!.mimetype) !== "audio";
  const sends: { body: string; file?: OutgoingFile }[] = [];
  if (input.body.trim() && !captionFits) sends.push({ body: input.body });
  input.files.forEach((file, i) => sends.push({ body: i === 0 && captionFits ? input.body : "", file }));

  const out: Message[] = [];
  for (const [i, s] of sends.entries()) {
    try {
      out.push(presentMessage(await sendOutgoing(ctx, { ticket, body: s.body, userId: null, file: s.file })));
    } catch (err) {
      if (i === 0 && created) await ticketRepo.deleteTicket(ctx.sql, companyId, ticket.id);
      throw err;
    }
    if (i === 0 && created) await emitTicketUpdate(ctx, (await ticketRepo.findTicket(ctx.sql, companyId, ticket.id))!);
  }
  return { message: "Mensagem enviada", ticketId: ticket.id, contactId: contact.id, messages: out };
}
