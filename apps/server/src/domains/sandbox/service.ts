import { LIMITS, type SandboxOutboxItem, type sandboxInboundInput, type WhatsappSession } from "@atende/shared";
import type { z } from "zod";
import { channels } from "../../channels/manager.js";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { extensionOf } from "../../core/storage.js";
import type { InboundResult } from "../../channels/sink.js";
import { presentSession } from "../whatsapp/presenter.js";
import * as whatsappRepo from "../whatsapp/repository.js";

/** A sandbox connection of the actor's company (any other connection is "not found"). */
async function sandboxOf(ctx: AppContext, actor: RequestActor, whatsappId: number) {
  // a sandbox connection left from before the flag was turned off cannot be driven either
  if (!ctx.config.enableSandbox) throw new AppError("ERR_SANDBOX_DISABLED", "Conexões sandbox estão desativadas neste servidor");
  const row = await whatsappRepo.findWhatsapp(ctx.sql, actor.companyId, whatsappId);
  if (!row || row.provider !== "sandbox") throw new AppError("ERR_NO_WAPP_FOUND");
  return row;
}

/**
 * The phone page's scan: connects the session (starting it first if needed). Like every action of the
 * phone it runs on the process that runs the connection (channels/driver-actions.ts), carried there when
 * it is another one; a session nobody runs is started by a process that runs sessions.
 */
export async function scan(ctx: AppContext, actor: RequestActor, whatsappId: number): Promise<WhatsappSession> {
  const row = await sandboxOf(ctx, actor, whatsappId);
  await channels(ctx).act(actor.companyId, whatsappId, "sandboxScan", { provider: row.provider });
  return presentSession((await whatsappRepo.findWhatsapp(ctx.sql, actor.companyId, whatsappId))!);
}

type Inbound = z.output<typeof sandboxInboundInput>;

/** A customer's message, handed to the same inbound pipeline a real driver uses. */
export async function inbound(ctx: AppContext, actor: RequestActor, whatsappId: number, input: Inbound): Promise<InboundResult> {
  await sandboxOf(ctx, actor, whatsappId);
  let media: { data: Buffer; fileName: string; mimetype: string } | undefined;
  if (input.mediaBase64) {
    const data = Buffer.from(input.mediaBase64.replace(/^data:[^,]*,/, ""), "base64");
    if (data.length > LIMITS.attachmentMaxBytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", "O arquivo excede o tamanho máximo de 10MB");
    const mimetype = input.mimetype ?? defaultMime(input.mediaType);
    media = { data, mimetype, fileName: input.mediaName ?? `arquivo.${extensionOf(undefined, mimetype)}` };
  }
  if (!input.body.trim() && !media && (input.mediaType ?? "chat") === "chat") throw new AppError("ERR_VALIDATION", "Mensagem vazia");
  return channels(ctx).act(actor.companyId, whatsappId, "sandboxInbound", {
    number: input.number,
    name: input.name,
    body: input.body,
    mediaType: input.mediaType ?? (media ? mediaTypeFromMime(media.mimetype) : "chat"),
    media: media ? { base64: media.data.toString("base64"), fileName: media.fileName, mimetype: media.mimetype } : undefined,
    quotedProviderId: input.quotedId === undefined ? undefined : String(input.quotedId),
  });
}

function defaultMime(type: string | undefined): string {
  switch (type) {
    case "image":
      return "image/png";
    case "audio":
      return "audio/mpeg";
    case "video":
      return "video/mp4";
    default:
      return "application/octet-stream";
  }
}

function mediaTypeFromMime(mime: string) {
  const top = mime.split("/")[0];
  return top === "image" || top === "audio" || top === "video" ? top : "application";
}

export async function outbox(
  ctx: AppContext,
  actor: RequestActor,
  whatsappId: number,
  q: { number?: string; outboundOnly?: "true" | "false" },
): Promise<SandboxOutboxItem[]> {
  await sandboxOf(ctx, actor, whatsappId);
  const number = q.number?.replace(/\D/g, "") || null;
  const rows = await ctx.sql.many<{
    id: number;
    provider_id: string;
    direction: "inbound" | "outbound";
    number: string;
    body: string;
    media_type: string;
    media_name: string | null;
    ack: number;
    is_deleted: boolean;
    created_at: Date;
  }>(
    `SELECT * FROM (
       SELECT id, provider_id, direction, number, body, media_type, media_name, ack, is_deleted, created_at
         FROM sandbox_messages
        WHERE company_id = $1 AND whatsapp_id = $2 AND ($3::text IS NULL OR number = $3) AND ($4 = false OR direction = 'outbound')
        ORDER BY id DESC LIMIT 500) x
      ORDER BY id`,
    [actor.companyId, whatsappId, number, q.outboundOnly === "true"],
  );
  return rows.map((r) => ({
    id: r.id,
    providerId: r.provider_id,
    direction: r.direction,
    number: r.number,
    body: r.is_deleted ? "" : r.body,
    mediaType: r.media_type,
    mediaName: r.media_name,
    ack: r.ack,
    isDeleted: r.is_deleted,
    createdAt: r.created_at.toISOString(),
  }));
}

/** The phone page is open on a chat: the agents' messages so far are read (ack 4). */
export async function phoneRead(ctx: AppContext, actor: RequestActor, whatsappId: number, number?: string): Promise<number> {
  await sandboxOf(ctx, actor, whatsappId);
  const n = number?.replace(/\D/g, "") || undefined;
  return (await channels(ctx).act(actor.companyId, whatsappId, "sandboxRead", n ? { number: n } : {})).updated;
}
