import { authorizeMessage, authorizeTicket, LIMITS, type Message, type MessagesPage } from "@atende/shared";
import type { Readable } from "node:stream";
import { channels } from "../../channels/manager.js";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { enforce } from "../../core/enforce.js";
import { AppError } from "../../core/errors.js";
import { mediaStorage } from "../../core/storage.js";
import { settingEnabled } from "../tickets/company-settings.js";
import { emitAppMessage } from "../tickets/events.js";
import { presentTicket, ticketProtocol } from "../tickets/presenter.js";
import * as ticketRepo from "../tickets/repository.js";
import type { TicketRow } from "../tickets/repository.js";
import { assertVisible, historyVisibilityFor, loadVisibleTicket, mayReadInHistory } from "../tickets/visibility.js";
import { presentMessage } from "./presenter.js";
import * as repo from "./repository.js";
import { mediaTypeOf, sendOutgoing, type OutgoingFile } from "./send-message.js";
import { applyVariables, signBody } from "./variables.js";

/**
 * GET /messages/{ticketId}: 20 visible messages per page counted from the newest, each page returned
 * oldest first. The pages cover the conversation with the contact on this connection (earlier, closed
 * tickets included), without the messages of tickets the user may not open unless the company shares
 * the whole history (canSeeInHistory); `hidden` says where those were and how many. A visible reply
 * to a hidden message carries no quote.
 */
export async function listMessages(ctx: AppContext, actor: RequestActor, ticketId: number, pageNumber: number): Promise<MessagesPage> {
  const ticket = await loadVisibleTicket(ctx, actor, ticketId);
  const size = LIMITS.messagesPerPage;
  const page = await repo.conversationPage(
    ctx.sql,
    actor.companyId,
    { contactId: ticket.contact_id, whatsappId: ticket.whatsapp_id, ticketId: ticket.id },
    await historyVisibilityFor(ctx.sql, actor),
    size,
    (pageNumber - 1) * size,
  );
  return {
    messages: page.rows.reverse().map((row) => {
      const m = presentMessage(row);
      return row.q_visible ? m : { ...m, quotedMsg: null };
    }),
    hasMore: pageNumber * size < page.count,
    count: page.count,
    hidden: page.hidden.map((r) => ({
      beforeMessageId: r.beforeMessageId,
      count: r.count,
      queue: r.queueId !== null ? { id: r.queueId, name: r.queueName ?? "", color: r.queueColor ?? "" } : null,
    })),
  };
}

export interface AgentMessage {
  body: string;
  files: OutgoingFile[];
  quotedMsgId?: number | null;
  /** false: no "*Agent*:" prefix (the web's signOption off). */
  sign?: boolean;
  /** A quick message's stored attachment (its mediaPath). */
  mediaUrl?: string;
}

/** The agent's text: variables substituted, then signed unless asked not to (or the company turned signing off). */
async function agentText(ctx: AppContext, actor: RequestActor, ticket: TicketRow, body: string, sign: boolean | undefined): Promise<string> {
  const text = applyVariables(body, { contactName: ticket.contact_name, protocol: ticketProtocol(ticket) });
  if (!text.trim() || sign === false) return text;
  if (!(await settingEnabled(ctx.sql, actor.companyId, "signMessages"))) return text;
  return signBody(text, actor.name);
}

async function quickMessageMedia(ctx: AppContext, actor: RequestActor, mediaUrl: string) {
  const match = /^\/(?:api\/)?quick-messages\/(\d+)\/media$/.exec(mediaUrl);
  if (!match) throw new AppError("ERR_VALIDATION", "mediaUrl inválida");
  const qm = await ctx.sql.maybe<{ media_path: string | null; media_name: string | null; geral: boolean; user_id: number | null }>(
    "SELECT media_path, media_name, geral, user_id FROM quick_messages WHERE company_id = $1 AND id = $2",
    [actor.companyId, Number(match[1])],
  );
  if (!qm?.media_path || (!qm.geral && qm.user_id !== actor.id)) throw new AppError("ERR_VALIDATION", "mediaUrl inválida");
  const mimetype = mimeFromName(qm.media_name ?? qm.media_path);
  return { path: qm.media_path, fileName: qm.media_name ?? "arquivo", mimetype };
}

export function mimeFromName(name: string): string {
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  const map: Record<string, string> = {
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    png: "image/png",
    gif: "image/gif",
    webp: "image/webp",
    mp3: "audio/mpeg",
    ogg: "audio/ogg",
    wav: "audio/wav",
    mp4: "video/mp4",
    pdf: "application/pdf",
    txt: "text/plain",
  };
  return map[ext] ?? "application/octet-stream";
}

/**
 * Sends what an agent wrote (text, attachments, or both; the text is the first attachment's caption,
 * or a message of its own before an audio). Used by POST /messages and by POST /tickets.
 */
export async function sendAsAgent(ctx: AppContext, actor: RequestActor, ticket: TicketRow, m: AgentMessage): Promise<Message[]> {
  const body = await agentText(ctx, actor, ticket, m.body, m.sign);
  const out: Message[] = [];
  const stored = m.mediaUrl ? await quickMessageMedia(ctx, actor, m.mediaUrl) : undefined;
  const attachments: ({ file: OutgoingFile } | { stored: NonNullable<typeof stored> })[] = [
    ...(stored ? [{ stored }] : []),
    ...m.files.map((file) => ({ file })),
  ];
  const firstMime = attachments[0] ? ("file" in attachments[0] ? attachments[0].file.mimetype : attachments[0].stored.mimetype) : "";
  const captionFits = attachments.length > 0 && mediaTypeOf(firstMime) !== "audio";
  if (body.trim() && !captionFits) {
    out.push(presentMessage(await sendOutgoing(ctx, { ticket, body, userId: actor.id, quotedMsgId: m.quotedMsgId })));
  }
  for (const [i, a] of attachments.entries()) {
    const caption = i === 0 && captionFits ? body : "";
    const quoted = i === 0 && captionFits ? m.quotedMsgId : null;
    const row = await sendOutgoing(ctx, { ticket, body: caption, userId: actor.id, quotedMsgId: quoted, ...a });
    out.push(presentMessage(row));
  }
  return out;
}

/**
 * The send-message policy (authorizeTicket "sendMessage", the rule that also shows the web's message
 * input): a ticket someone else handles answers ERR_TICKET_USER_MISMATCH with the ticket, any other
 * refusal ERR_NO_PERMISSION. The connection is checked by the driver when sending.
 */
export function assertMaySend(actor: RequestActor, ticket: TicketRow): void {
  const ruleTicket = { status: ticket.status, userId: ticket.user_id, queue: ticket.queue_name ? { name: ticket.queue_name } : null };
  const refusal = authorizeTicket(actor, "sendMessage", ruleTicket);
  if (refusal === "ERR_TICKET_USER_MISMATCH") {
    throw new AppError(refusal, "Este ticket está sendo atendido por outro usuário", { ticket: presentTicket(ticket) });
  }
  enforce(refusal, "O ticket precisa estar aberto e com você para enviar mensagens");
}

/** POST /messages/{ticketId}. */
export async function sendMessage(ctx: AppContext, actor: RequestActor, ticketId: number, m: AgentMessage): Promise<Message[]> {
  const ticket = await loadVisibleTicket(ctx, actor, ticketId);
  assertMaySend(actor, ticket);
  const total = m.files.reduce((n, f) => n + f.data.length, 0);
  if (total > LIMITS.attachmentMaxBytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", "O arquivo excede o tamanho máximo de 10MB");
  if (!m.body.trim() && !m.files.length && !m.mediaUrl) throw new AppError("ERR_VALIDATION", "Mensagem vazia");
  if (m.quotedMsgId) await assertQuotable(ctx, actor, m.quotedMsgId);
  return sendAsAgent(ctx, actor, ticket, m);
}

/** A reply may quote only a message the user's history shows (the answer would carry the quote's text). */
async function assertQuotable(ctx: AppContext, actor: RequestActor, quotedMsgId: number): Promise<void> {
  const quoted = await repo.findMessage(ctx.sql, actor.companyId, quotedMsgId);
  const owner = quoted ? await ticketRepo.findTicket(ctx.sql, actor.companyId, quoted.ticket_id) : null;
  const readable = quoted && owner && (await mayReadInHistory(ctx.sql, actor, owner, { contactId: quoted.contact_id, whatsappId: quoted.whatsapp_id }));
  if (!readable) throw new AppError("ERR_VALIDATION", "Mensagem citada não encontrada");
}

/** DELETE /messages/{id}: only the agent's own messages. */
export async function deleteMessage(ctx: AppContext, actor: RequestActor, id: number): Promise<Message> {
  const message = await repo.findMessage(ctx.sql, actor.companyId, id);
  if (!message) throw new AppError("ERR_NOT_FOUND", "Mensagem não encontrada");
  const ticket = (await ticketRepo.findTicket(ctx.sql, actor.companyId, message.ticket_id))!;
  await assertVisible(ctx, actor, ticket);
  enforce(authorizeMessage(actor, "delete", { fromMe: message.from_me, userId: message.user_id }), "Só é possível apagar as próprias mensagens");
  if (message.is_deleted) return presentMessage(message);
  if (message.provider_id && message.whatsapp_id !== null) {
    // on the process that runs the connection (carried there when it is another): ERR_DELETE_WAPP_MSG when the driver fails
    await channels(ctx).act(actor.companyId, message.whatsapp_id, "deleteMessage", { to: ticket.contact_address, providerId: message.provider_id });
  }
  await repo.markDeleted(ctx.sql, actor.companyId, id);
  const row = (await repo.findMessage(ctx.sql, actor.companyId, id))!;
  const presented = presentMessage(row);
  await emitAppMessage(ctx, "update", presented, ticket);
  return presented;
}

/** GET /messages/media/{id}: the file, to users of the company whose history of the contact shows the message (canSeeInHistory). */
export async function openMedia(
  ctx: AppContext,
  actor: RequestActor,
  id: number,
): Promise<{ stream: Readable; size: number; mimetype: string; fileName: string }> {
  const message = await repo.findMessage(ctx.sql, actor.companyId, id);
  if (!message?.media_path) throw new AppError("ERR_NOT_FOUND", "Arquivo não encontrado");
  const ticket = (await ticketRepo.findTicket(ctx.sql, actor.companyId, message.ticket_id))!;
  // the history rule: the file of a message the user's history leaves out is not served either
  const readable = await mayReadInHistory(ctx.sql, actor, ticket, { contactId: message.contact_id, whatsappId: message.whatsapp_id });
  if (!readable) throw new AppError("ERR_NO_PERMISSION", "Sem permissão para ver esta mensagem");
  const file = await mediaStorage(ctx.config.dataDir).open(message.media_path);
  if (!file) throw new AppError("ERR_NOT_FOUND", "Arquivo não encontrado");
  return { ...file, mimetype: message.mimetype ?? "application/octet-stream", fileName: message.media_name ?? `arquivo-${id}` };
}
