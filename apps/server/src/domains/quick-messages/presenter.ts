import type { QuickMessage } from "@atende/shared";
import type { QuickMessageRow } from "./repository.js";

export const quickMessageMediaPath = (id: number) => `/quick-messages/${id}/media`;

export function presentQuickMessage(row: QuickMessageRow): QuickMessage {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    geral: row.geral,
    userId: row.user_id,
    isMedia: row.media_path !== null,
    mediaPath: row.media_path ? quickMessageMediaPath(row.id) : null,
    mediaName: row.media_name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
