import type { Message, MessageReferral } from "@atende/shared";
import type { MessageRow } from "./repository.js";

export const mediaUrl = (id: number) => `/messages/media/${id}`;

export function presentMessage(row: MessageRow): Message {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    contactId: row.from_me ? null : row.contact_id,
    body: row.body,
    fromMe: row.from_me,
    mediaType: row.media_type,
    mediaUrl: row.media_path ? mediaUrl(row.id) : null,
    mediaName: row.media_name,
    mimetype: row.mimetype,
    ack: row.ack,
    read: row.read,
    isDeleted: row.is_deleted,
    isEdited: row.is_edited,
    quotedMsgId: row.quoted_msg_id,
    quotedMsg:
      row.q_id !== null
        ? {
            id: row.q_id,
            body: row.q_body ?? "",
            fromMe: Boolean(row.q_from_me),
            mediaType: row.q_media_type ?? "chat",
            mediaUrl: row.q_has_media ? mediaUrl(row.q_id) : null,
            isDeleted: Boolean(row.q_is_deleted),
            contact: row.q_from_me ? null : { id: row.contact_id, name: row.contact_name },
          }
        : null,
    contact: row.from_me
      ? null
      : {
          id: row.contact_id,
          name: row.contact_name,
          number: row.contact_number,
          profilePicUrl: row.contact_profile_pic_url,
          isGroup: row.contact_is_group,
        },
    userId: row.user_id,
    user: row.user_id !== null && row.user_name !== null ? { id: row.user_id, name: row.user_name } : null,
    sendError: row.from_me && row.send_status === "failed" ? sendErrorText(row.send_error) : null,
    retry: row.from_me && row.send_status === "retrying" ? { attempts: row.send_attempts, nextAttemptAt: row.next_attempt_at?.toISOString() ?? null } : null,
    reactions: row.reactions ?? [],
    referral: row.referral ? presentReferral(row.referral) : null,
    mediaUnavailable: row.media_unavailable ?? false,
    unsupported: row.unsupported ?? false,
    // only on erased messages (the field is optional: older clients and caches lack it)
    ...(row.erased_at ? { erased: true } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Meta's `referral` object (snake_case, as stored) in the API's shape; other fields stay on the server. */
function presentReferral(r: Record<string, unknown>): MessageReferral {
  const text = (k: string) => (typeof r[k] === "string" ? (r[k] as string) : null);
  return { sourceUrl: text("source_url"), sourceType: text("source_type"), sourceId: text("source_id"), headline: text("headline"), body: text("body") };
}

/** The stored send error without its leading error code ("ERR_X: text" gives "text"). */
function sendErrorText(stored: string | null): string {
  const text = (stored ?? "").replace(/^ERR_[A-Z_]+: /, "").trim();
  return text || "Não foi possível enviar a mensagem";
}

/** The ticket list's preview of a message. */
export function messagePreview(body: string, mediaType: string, mediaName?: string | null, unsupported = false): string {
  if (body.trim()) return body;
  if (unsupported) return "⚠️ Mensagem não suportada";
  switch (mediaType) {
    case "image":
      return "📷 Imagem";
    case "audio":
      return "🎵 Áudio";
    case "video":
      return "🎥 Vídeo";
    case "application":
      return `📄 ${mediaName ?? "Documento"}`;
    case "locationMessage":
      return "📍 Localização";
    case "vcard":
      return "👤 Contato";
    case "call_log":
      return "📞 Chamada perdida";
    default:
      return body;
  }
}
