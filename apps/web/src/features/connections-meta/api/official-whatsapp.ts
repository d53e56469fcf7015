import type { CampaignPhone, OfficialWhatsapp, OfficialWhatsappBulkInput, OfficialWhatsappQuery, OfficialWhatsappUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";

export interface OfficialFilters {
  phoneNumber: string;
  businessId: number | "";
  active: "all" | "active" | "inactive";
}

export const officialKeys = {
  all: ["official-whatsapp"] as const,
  list: (f: OfficialFilters) => ["official-whatsapp", "list", f] as const,
  queues: ["official-whatsapp", "queues"] as const,
};

/** GET /officialWhatsapp/ with the page's filters (empty ones left out). */
export function fetchOfficialNumbers(f: OfficialFilters): Promise<OfficialWhatsapp[]> {
  const query: Omit<OfficialWhatsappQuery, "businessId"> & { businessId?: number } = {
    phoneNumber: f.phoneNumber.trim() || undefined,
    businessId: f.businessId === "" ? undefined : f.businessId,
    active: f.active === "all" ? undefined : f.active === "active" ? "true" : "false",
  };
  return api<OfficialWhatsapp[]>("/officialWhatsapp/", { query: { ...query } });
}

export function updateOfficialNumber(id: number, input: OfficialWhatsappUpdateInput): Promise<OfficialWhatsapp> {
  return api<OfficialWhatsapp>(`/officialWhatsapp/${id}`, { method: "PUT", body: input });
}

export function bulkUpdateOfficialNumbers(input: OfficialWhatsappBulkInput): Promise<{ updated: number; records: OfficialWhatsapp[] }> {
  return api("/officialWhatsapp/bulk", { method: "PUT", body: input });
}

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/** The company's queues, for the transfer queue choice. */
export async function fetchQueueOptions(): Promise<QueueOption[]> {
  const list = await api<QueueOption[]>("/queue");
  return list.map(({ id, name, color }) => ({ id, name, color }));
}

/** A number's campaign send rate (messages per second, 1-1000): PUT /phones/{id}. */
export function updateThroughput(id: number, throughputPerSecond: number): Promise<CampaignPhone> {
  return api<CampaignPhone>(`/phones/${id}`, { method: "PUT", body: { throughputPerSecond } });
}
