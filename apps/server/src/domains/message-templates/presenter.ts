import type { EmailTemplate, EmailTemplateSummary, SmsTemplate } from "@atende/shared";
import type { EmailTemplateRow, SmsTemplateRow } from "./repository.js";

export const presentSmsTemplate = (r: SmsTemplateRow): SmsTemplate => ({
  id: r.id,
  title: r.title,
  content: r.content,
  modified_at: r.modified_at.toISOString(),
  type: "sms",
});

export const presentEmailTemplate = (r: EmailTemplateRow): EmailTemplate => ({
  id: r.id,
  title: r.title,
  subject: r.subject,
  content: r.content,
  updated_at: r.updated_at.toISOString(),
  type: "email",
});

export const presentEmailTemplateSummary = (r: Omit<EmailTemplateRow, "content">): EmailTemplateSummary => ({
  id: r.id,
  title: r.title,
  subject: r.subject,
  updated_at: r.updated_at.toISOString(),
  type: "email",
});
