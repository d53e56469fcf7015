import type { ApiErrorBody, InvalidRowsPage, SmsCampaign, SmsCampaignCreateInput, SmsCampaignTemplate, SmsReportPage } from "@atende/shared";
import { api, API_BASE, ApiError, getToken, refreshSession } from "../../../lib/api";
import { brDate, type CampaignFilters } from "../api/campaigns";

/** The SMS service's calls (spec 3 §7 'SMS service'); the list's filters are the WhatsApp list's. */
export const smsKeys = {
  all: ["sms-campaigns"] as const,
  lists: ["sms-campaigns", "list"] as const,
  list: (f: CampaignFilters, page: number) => ["sms-campaigns", "list", f, page] as const,
  templates: ["sms-campaigns", "templates"] as const,
  invalidRows: (id: number, page: number) => ["sms-campaigns", "invalid-rows", id, page] as const,
};

export const SMS_PAGE_SIZE = 40;

export function fetchSmsReport(f: CampaignFilters, page: number, signal?: AbortSignal): Promise<SmsReportPage> {
  return api<SmsReportPage>("/sms/report/", {
    query: { page, page_size: SMS_PAGE_SIZE, status: f.status, start_date: brDate(f.startDate), end_date: brDate(f.endDate), cost_center_id: f.costCenterId },
    signal,
  });
}

export const fetchSmsTemplates = (signal?: AbortSignal) => api<SmsCampaignTemplate[]>("/sms/campaign-templates/", { signal });

export const createSmsCampaign = (input: SmsCampaignCreateInput) => api<SmsCampaign>("/sms/campaigns/", { method: "POST", body: input });
export const triggerSmsCampaign = (id: number) => api(`/sms/campaigns/${id}/trigger/`, { method: "POST" });
export const pauseSmsCampaign = (id: number) => api(`/sms/campaigns/${id}/pause/`, { method: "PATCH" });
export const resumeSmsCampaign = (id: number) => api(`/sms/campaigns/${id}/resume/`, { method: "PATCH" });
export const cancelSmsCampaign = (id: number) => api(`/sms/campaigns/${id}/cancel/`, { method: "POST" });
export const fetchSmsInvalidRows = (id: number, page: number, signal?: AbortSignal) =>
  api<InvalidRowsPage>(`/sms/campaigns/${id}/invalid-rows/`, { query: { page }, signal });

/**
 * PUT upload_url with the CSV as the raw text/csv body (streamed by the browser; the server writes it to
 * disk as it comes). The user's bearer token authorizes it, refreshed once on 401/403 like every call.
 */
export async function uploadSmsFile(uploadUrl: string, file: File): Promise<SmsCampaign> {
  const path = uploadUrl.startsWith(API_BASE) ? uploadUrl : `${API_BASE}${uploadUrl}`;
  const put = () =>
    fetch(path, { method: "PUT", headers: { authorization: `Bearer ${getToken() ?? ""}`, "content-type": "text/csv" }, body: file, credentials: "include" });
  let res = await put();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await put();
  const text = await res.text();
  let body: unknown = {};
  if (text.trim().startsWith("{")) body = JSON.parse(text) as unknown;
  if (!res.ok) throw new ApiError(res.status, body as Partial<ApiErrorBody>);
  return body as SmsCampaign;
}
