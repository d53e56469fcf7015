import type { EmailCampaign, EmailCampaignCreateInput, EmailCampaignsPage, InvalidRowsPage } from "@atende/shared";
import { API_BASE, ApiError, api, getToken, refreshSession, safeJson } from "../../../lib/api";
import { brDate, type CampaignFilters } from "../api/campaigns";

export const emailCampaignKeys = {
  all: ["email-campaigns"] as const,
  lists: ["email-campaigns", "list"] as const,
  list: (f: CampaignFilters, page: number) => ["email-campaigns", "list", f, page] as const,
  senders: ["email-campaigns", "senders"] as const,
  templates: ["email-campaigns", "templates"] as const,
  invalidRows: (id: number, page: number) => ["email-campaigns", "invalid-rows", id, page] as const,
};

/** GET /email/campaigns/ (spec §7): page, page_size 40, dates dd/MM/yyyy, status, cost center. */
export function fetchEmailCampaigns(f: CampaignFilters, page: number, signal?: AbortSignal): Promise<EmailCampaignsPage> {
  return api<EmailCampaignsPage>("/email/campaigns/", {
    query: { page, page_size: 40, status: f.status, start_date: brDate(f.startDate), end_date: brDate(f.endDate), cost_center_id: f.costCenterId },
    signal,
  });
}

export const triggerEmailCampaign = (id: number) => api<EmailCampaign>(`/email/campaigns/${id}/trigger/`, { method: "POST" });
export const pauseEmailCampaign = (id: number) => api<EmailCampaign>(`/email/campaigns/${id}/pause/`, { method: "PATCH" });
export const resumeEmailCampaign = (id: number) => api<EmailCampaign>(`/email/campaigns/${id}/resume/`, { method: "PATCH" });
export const cancelEmailCampaign = (id: number) => api<EmailCampaign>(`/email/campaigns/${id}/cancel/`, { method: "POST" });
export const fetchEmailInvalidRows = (id: number, page: number, signal?: AbortSignal) =>
  api<InvalidRowsPage>(`/email/campaigns/${id}/invalid-rows/`, { query: { page }, signal });

export const createEmailCampaign = (input: EmailCampaignCreateInput) =>
  api<EmailCampaign & { upload_url: string }>("/email/campaigns/", { method: "POST", body: input });

/**
 * PUT upload_url with the CSV as text/csv (the api client sends JSON or forms only). The bearer token
 * authenticates it; a 401/403 refreshes the session once, like every other call.
 */
export async function uploadEmailCampaignFile(uploadUrl: string, file: File): Promise<EmailCampaign> {
  // the URL names the public address; the app calls its own origin's API path
  const path = new URL(uploadUrl, window.location.origin).pathname;
  const put = () =>
    fetch(path.startsWith(API_BASE) ? path : `${API_BASE}${path}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${getToken() ?? ""}`, "content-type": "text/csv" },
      body: file,
      credentials: "include",
    });
  let res = await put();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await put();
  const text = await res.text();
  const data = (text ? safeJson(text) : {}) as Record<string, unknown>;
  if (!res.ok) throw new ApiError(res.status, data);
  return data as unknown as EmailCampaign;
}

export const fetchVerifiedSenders = (signal?: AbortSignal) =>
  api<{ results: { id: number; email_address: string }[]; count: number }>("/email/senders/", { signal }).then((r) => r.results);

interface TemplateOption {
  id: number;
  title: string;
  subject: string;
}

/** Every e-mail template (GET /email/templates/, paged with `next`). */
export async function fetchEmailTemplates(signal?: AbortSignal): Promise<TemplateOption[]> {
  const all: TemplateOption[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<{ results: TemplateOption[]; next: unknown }>("/email/templates/", { query: { page }, signal });
    all.push(...res.results);
    if (!res.next || res.results.length === 0) break;
  }
  return all;
}
