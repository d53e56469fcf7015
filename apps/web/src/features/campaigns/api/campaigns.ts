import type { Business, Campaign, CampaignPhone, CampaignRecipientsPage, CampaignsPage, CampaignTemplate, CostCenterPage, Queue } from "@atende/shared";
import { api } from "../../../lib/api";

/** The list's filters as the page holds them (dates yyyy-MM-dd from the date fields). */
export interface CampaignFilters {
  status: string;
  startDate: string;
  endDate: string;
  costCenterId: string;
}

export const campaignKeys = {
  all: ["campaigns"] as const,
  /** Every cached page of the list (the prefix live events patch). */
  lists: ["campaigns", "list"] as const,
  list: (f: CampaignFilters, page: number) => ["campaigns", "list", f, page] as const,
  calendar: (month: string) => ["campaigns", "calendar", month] as const,
  recipients: (id: number, page: number) => ["campaigns", "recipients", id, page] as const,
  costCenters: ["campaigns", "cost-centers"] as const,
  businesses: ["campaigns", "businesses"] as const,
  templates: (businessId: number) => ["campaigns", "templates", businessId] as const,
  phones: (businessId: number) => ["campaigns", "phones", businessId] as const,
  queues: ["campaigns", "queues"] as const,
  bots: ["campaigns", "bots"] as const,
};

/** yyyy-MM-dd → dd/MM/yyyy (the API's date format, spec §7). */
export const brDate = (iso: string) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : "");

export function fetchCampaigns(f: CampaignFilters, page: number, signal?: AbortSignal): Promise<CampaignsPage> {
  return api<CampaignsPage>("/campaigns", {
    query: { page, limit: 20, status: f.status, startDate: brDate(f.startDate), endDate: brDate(f.endDate), costCenterId: f.costCenterId },
    signal,
  });
}

export function fetchCalendar(month: string, signal?: AbortSignal): Promise<Campaign[]> {
  return api<Campaign[]>("/campaigns/calendar", { query: { month }, signal });
}

export function fetchRecipients(id: number, page: number, signal?: AbortSignal): Promise<CampaignRecipientsPage> {
  return api<CampaignRecipientsPage>(`/campaigns/${id}/recipients`, { query: { page, limit: 50, state: "invalid" }, signal });
}

export function scheduleCampaign(id: number, scheduledAt: string): Promise<Campaign> {
  return api<Campaign>(`/campaigns/${id}/schedule`, { method: "PUT", body: { scheduledAt } });
}

export function unscheduleCampaign(id: number): Promise<unknown> {
  return api(`/campaigns/${id}/schedule`, { method: "DELETE" });
}

/** The dispatch module's routes (spec §7). */
export function startCampaign(id: number): Promise<unknown> {
  return api(`/campaigns/${id}/start`, { method: "POST" });
}
export function pauseCampaign(id: number): Promise<unknown> {
  return api(`/campaigns/${id}/pause`, { method: "POST" });
}

export interface NewCampaignInput {
  title: string;
  costCenterId: number;
  costCenterName: string;
  businessId: number;
  templateIds: number[];
  phoneIds: number[];
  queueId: number;
  /** The bot (queue integration) that answers the replies; null for none. */
  integrationId: number | null;
  scheduledAt: string;
  file: File;
}

export function createCampaign(input: NewCampaignInput): Promise<Campaign> {
  const form = new FormData();
  form.append("title", input.title);
  form.append("costCenterId", String(input.costCenterId));
  form.append("costCenterName", input.costCenterName);
  form.append("businessIds[]", String(input.businessId));
  for (const id of input.templateIds) form.append("templateIds[]", String(id));
  for (const id of input.phoneIds) form.append("phoneIds[]", String(id));
  form.append("queueId", String(input.queueId));
  if (input.integrationId) form.append("integrationId", String(input.integrationId));
  if (input.scheduledAt) form.append("scheduledAt", input.scheduledAt);
  // the server accepts text/csv only (spec §5); some systems label .csv files as Excel
  form.append("file", new File([input.file], input.file.name, { type: "text/csv" }));
  return api<Campaign>("/campaigns", { method: "POST", body: form });
}

/** Every cost center (the SMS service pages them 40 at a time). */
export async function fetchAllCostCenters(signal?: AbortSignal): Promise<{ id: number; name: string }[]> {
  const all: { id: number; name: string }[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await api<CostCenterPage>("/sms/cost-center/", { query: { page }, signal });
    all.push(...res.results);
    if (res.results.length === 0 || all.length >= res.count) break;
  }
  return all;
}

export const fetchBusinesses = (signal?: AbortSignal) => api<Business[]>("/businesses", { signal });
export const fetchQueues = (signal?: AbortSignal) => api<Queue[]>("/queue", { signal });
/** The company's bots (queue integrations) by name, for the optional Bot field. */
export const fetchBots = (signal?: AbortSignal) => api<{ id: number; name: string }[]>("/campaigns/bots", { signal });
export const fetchTemplates = (businessId: number, signal?: AbortSignal) =>
  api<CampaignTemplate[]>("/templates/", { query: { BusinessId: businessId, active: true, isValid: true }, signal });
export const fetchPhones = (businessId: number, signal?: AbortSignal) =>
  api<CampaignPhone[]>("/phones/", { query: { BusinessId: businessId, output: true }, signal });
