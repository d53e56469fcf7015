import type { QueueIntegration } from "@atende/shared";
import type { QueueIntegrationRow } from "./repository.js";

/** The stored service-account key never leaves the server: only its mask (client_email and the key's last characters). */
export function presentIntegration(row: QueueIntegrationRow): QueueIntegration {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    projectName: row.project_name,
    jsonContent: row.json_content_mask,
    language: row.language,
    urlN8N: row.url_n8n,
    typebotSlug: row.typebot_slug,
    typebotExpires: row.typebot_expires,
    typebotDelayMessage: row.typebot_delay_message,
    typebotKeywordFinish: row.typebot_keyword_finish,
    typebotKeywordRestart: row.typebot_keyword_restart,
    typebotUnknownMessage: row.typebot_unknown_message,
    typebotRestartMessage: row.typebot_restart_message,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
