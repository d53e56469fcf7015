import type { MediaType } from "@atende/shared";
import { channels } from "../../channels/manager.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { mediaStorage } from "../../core/storage.js";
import { emitAppMessage } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import type { TicketRow } from "../tickets/repository.js";
import { messagePreview } from "./presenter.js";
import { presentMessage } from "./presenter.js";
import * as repo from "./repository.js";

export interface OutgoingFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

export function mediaTypeOf(mimetype: string): MediaType {
  const top = mimetype.split("/")[0];
  if (top === "image" || top === "audio" || top === "video") return top;
  return "application";
}

export interface SendInput {
  ticket: TicketRow;
  body: string;
  /** The agent; null for automatic messages (greeting, menu, completion). */
  userId: number | null;
  file?: OutgoingFile;
  /** An already-stored attachment (quick message media), reused without copying. */
  stored?: { path: string; fileName: string; mimetype: string };
  quotedMsgId?: number | null;
}

/**
 * Sends one message through the ticket's connection and records it: the driver first (so a failure
 * records nothing), then the row with the provider id, the ticket's last message, and the event.
 */
export async function sendOutgoing(ctx: AppContext, input: SendInput): Promise<repo.MessageRow> {
  const { ticket } = input;
  const driver = await channels(ctx).requireConnected(ticket.company_id, ticket.whatsapp_id);
  const to = ticket.contact_number;
  let quotedProviderId: string | undefined;
  if (input.quotedMsgId) {
    const quoted = await ctx.sql.maybe<{ provider_id: string | null; contact_id: number }>(
      "SELECT provider_id, contact_id FROM messages WHERE company_id = $1 AND id = $2",
      [ticket.company_id, input.quotedMsgId],
    );
    if (!quoted || quoted.contact_id !== ticket.contact_id) throw new AppError("ERR_VALIDATION", "Mensagem citada não encontrada");
    quotedProviderId = quoted.provider_id ?? undefined;
  }

  const storage = mediaStorage(ctx.config.dataDir);
  let media: { path: string; fileName: string; mimetype: string; type: MediaType } | null = null;
  let sent;
  try {
    if (input.file || input.stored) {
      let data: Buffer;
      let fileName: string;
      let mimetype: string;
      if (input.file) {
        ({ data, fileName, mimetype } = input.file);
      } else {
        const s = input.stored!;
        const opened = await storage.open(s.path);
        if (!opened) throw new AppError("ERR_VALIDATION", "Arquivo não encontrado");
        const chunks: Buffer[] = [];
        for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
        data = Buffer.concat(chunks);
        fileName = s.fileName;
        mimetype = s.mimetype;
      }
      const type = mediaTypeOf(mimetype);
      sent = await driver.sendMedia(to, { data, fileName, mimetype, mediaType: type, caption: input.body || undefined }, { quotedProviderId });
      const path = input.file ? await storage.put(ticket.company_id, data, { fileName, mimetype }) : input.stored!.path;
      media = { path, fileName, mimetype, type };
    } else {
      sent = await driver.sendText(to, input.body, { quotedProviderId });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_SENDING_WAPP_MSG", "Não foi possível enviar a mensagem");
  }

  const id = await ctx.sql.tx(async (sql) => {
    const messageId = await repo.insertMessage(sql, {
      companyId: ticket.company_id,
      ticketId: ticket.id,
      contactId: ticket.contact_id,
      whatsappId: ticket.whatsapp_id,
      providerId: sent.providerId,
      body: input.body,
      fromMe: true,
      mediaType: media?.type ?? "chat",
      mediaPath: media?.path ?? null,
      mediaName: media?.fileName ?? null,
      mimetype: media?.mimetype ?? null,
      ack: 1,
      read: true,
      quotedMsgId: input.quotedMsgId ?? null,
      userId: input.userId,
    });
    if (messageId === null) throw new AppError("ERR_CREATING_MESSAGE");
    await repo.touchTicketWithMessage(sql, ticket.company_id, ticket.id, messageId, messagePreview(input.body, media?.type ?? "chat", media?.fileName), true);
    return messageId;
  });
  const row = (await repo.findMessage(ctx.sql, ticket.company_id, id))!;
  const fresh = (await ticketRepo.findTicket(ctx.sql, ticket.company_id, ticket.id))!;
  await emitAppMessage(ctx, "create", presentMessage(row), fresh);
  return row;
}
