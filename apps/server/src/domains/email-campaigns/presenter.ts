import type { EmailCampaign } from "@atende/shared";
import type { EmailCampaignRow } from "./repository.js";

/** The only place that decides which e-mail campaign fields leave the server (no file path, no HTML). */
export function presentEmailCampaign(r: EmailCampaignRow): EmailCampaign {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    source: r.source,
    created_at: r.created_at.toISOString(),
    cost_center_id: r.cost_center_id,
    cost_center_name: r.cost_center_name,
    sender_id: r.sender_id,
    sender: r.from_address,
    template_id: r.template_id,
    filename: r.file_name,
    error_message: r.error_message,
    total: r.count_total,
    invalid: r.count_invalid,
    count_emails_sent: r.count_emails_sent,
    count_emails_delivered: r.count_emails_delivered,
    count_emails_opened: r.count_emails_opened,
    count_emails_clicked: r.count_emails_clicked,
    count_emails_not_delivered: r.count_emails_not_delivered,
  };
}
