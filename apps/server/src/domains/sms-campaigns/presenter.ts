import { formatSmsMinute, type SmsCampaign } from "@atende/shared";
import type { SmsCampaignRow } from "./repository.js";
import { sendingWindowOpen } from "./window.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The upload address of a campaign waiting for its file (the user's bearer authorizes the PUT). */
/** The web's upload route (user session), or the Messages API's for a campaign it created (the same token). */
export const smsUploadUrl = (id: number, source: "WEB" | "API" = "WEB") => (source === "API" ? `/api/messages/sms-campaigns/${id}/file/` : `/api/sms/campaigns/${id}/file/`);

/** The only place that decides which SMS campaign fields leave the server (no file path, no job id, no text). */
export function presentSmsCampaign(r: SmsCampaignRow, now = new Date()): SmsCampaign {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    source: r.source,
    created_at: r.created_at.toISOString(),
    cost_center: r.cost_center_name,
    cost_center_id: r.cost_center_id,
    template: r.template_id,
    total: r.count_total,
    invalid: r.count_invalid,
    triggered: r.count_triggered,
    delivered: r.count_delivered,
    not_delivered: r.count_not_delivered,
    clicks: r.count_clicks,
    accountViolation: r.account_violation,
    countProcessed: r.count_processed,
    error_message: r.error_message,
    tags: r.tags,
    use_whitelist: r.use_whitelist,
    use_blacklist_nexus: r.use_blacklist_nexus,
    use_shortener_url: r.use_shortener_url,
    schedule_date: iso(r.scheduled_at),
    start_hour: formatSmsMinute(r.start_minute),
    end_hour: formatSmsMinute(r.end_minute),
    outside_window: r.status === "RUNNING" && !sendingWindowOpen(now, r.time_zone, r.start_minute, r.end_minute),
    filename: r.file_name,
    upload_url: r.status === "MISSING_FILE" ? smsUploadUrl(r.id, r.source) : null,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
  };
}
