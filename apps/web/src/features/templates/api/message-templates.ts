import type { EmailTemplate, EmailTemplateInput, EmailTemplatePage, EmailTemplateSummary, SmsTemplate, SmsTemplateInput, SmsTemplatePage } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

/** SMS and e-mail templates at the SMS and e-mail services' paths (spec 3 §7). */
export const smsTemplateKeys = {
  lists: ["sms-templates", "list"] as const,
  list: (title: string) => ["sms-templates", "list", title] as const,
};
export const emailTemplateKeys = {
  lists: ["email-templates", "list"] as const,
  list: (title: string) => ["email-templates", "list", title] as const,
  one: (id: number) => ["email-templates", "one", id] as const,
};

/** One page of `GET /sms/templates/` (`next` truthy while more pages exist). */
export async function fetchSmsTemplatesPage(title: string, page: number, signal?: AbortSignal): Promise<ListPage<SmsTemplate>> {
  const res = await api<SmsTemplatePage>("/sms/templates/", { query: { title: title || undefined, page }, signal });
  return { items: res.results, hasMore: !!res.next, count: res.count };
}

export function createSmsTemplate(input: SmsTemplateInput): Promise<SmsTemplate> {
  return api<SmsTemplate>("/sms/templates/", { method: "POST", body: input });
}

export function updateSmsTemplate(id: number, input: SmsTemplateInput): Promise<SmsTemplate> {
  return api<SmsTemplate>(`/sms/templates/${id}/`, { method: "PUT", body: input });
}

/** One page of `GET /email/templates/` (titles and subjects; the HTML is read per template). */
export async function fetchEmailTemplatesPage(title: string, page: number, signal?: AbortSignal): Promise<ListPage<EmailTemplateSummary>> {
  const res = await api<EmailTemplatePage>("/email/templates/", { query: { title: title || undefined, page }, signal });
  return { items: res.results, hasMore: !!res.next, count: res.count };
}

export function fetchEmailTemplate(id: number, signal?: AbortSignal): Promise<EmailTemplate> {
  return api<EmailTemplate>(`/email/templates/${id}/`, { signal });
}

export function createEmailTemplate(input: EmailTemplateInput): Promise<EmailTemplate> {
  return api<EmailTemplate>("/email/templates/", { method: "POST", body: input });
}

export function updateEmailTemplate(id: number, input: EmailTemplateInput): Promise<EmailTemplate> {
  return api<EmailTemplate>(`/email/templates/${id}/`, { method: "PUT", body: input });
}
