import type { Business, CampaignTemplate, TemplateType } from "@atende/shared";
import { api } from "../../../lib/api";

export interface TemplateFilters {
  name: string;
  businessId: number | "";
  /** all, active (validation valid) or inactive */
  status: "" | "true" | "false";
  templateTypeId: number | "";
}

export const templateKeys = {
  all: ["campaign-templates"] as const,
  list: (f: TemplateFilters) => ["campaign-templates", "list", f] as const,
  one: (id: number) => ["campaign-templates", "one", id] as const,
  types: ["campaign-templates", "types"] as const,
  businesses: ["campaign-templates", "businesses"] as const,
};

/** GET /templates/: each filter omitted when empty (the api client drops empty values); a plain array. */
export function fetchTemplates(f: TemplateFilters, signal?: AbortSignal): Promise<CampaignTemplate[]> {
  return api<CampaignTemplate[]>("/templates/", {
    query: { name: f.name, BusinessId: f.businessId, isValid: f.status, TemplateTypeId: f.templateTypeId },
    signal,
  });
}

/** GET /templates?id=N answers an array: the first item is the template. */
export async function fetchTemplate(id: number, signal?: AbortSignal): Promise<CampaignTemplate | null> {
  const list = await api<CampaignTemplate[]>("/templates", { query: { id }, signal });
  return list[0] ?? null;
}

export function fetchTemplateTypes(): Promise<TemplateType[]> {
  return api<TemplateType[]>("/template-types");
}

/** The business selector of the filters (id and name of GET /businesses). */
export function fetchBusinessOptions(): Promise<Pick<Business, "id" | "name">[]> {
  return api<Business[]>("/businesses");
}
