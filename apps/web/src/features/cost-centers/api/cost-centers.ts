import { COST_CENTER_PAGE_SIZE, type CostCenter, type CostCenterInput, type CostCenterPage } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const costCenterKeys = {
  all: ["cost-centers"] as const,
  /** Every cached search of the list. */
  lists: ["cost-centers", "list"] as const,
  list: (name: string) => ["cost-centers", "list", name] as const,
};

/** One page of `GET /sms/cost-center/` (the SMS service's `{ results, count }`, 40 a page). */
export async function fetchCostCentersPage(name: string, page: number, signal?: AbortSignal): Promise<ListPage<CostCenter>> {
  const res = await api<CostCenterPage>("/sms/cost-center/", { query: { name: name || undefined, page }, signal });
  return { items: res.results, hasMore: page * COST_CENTER_PAGE_SIZE < res.count, count: res.count };
}

export function createCostCenter(input: CostCenterInput): Promise<CostCenter> {
  return api<CostCenter>("/sms/cost-center/", { method: "POST", body: input });
}

export function updateCostCenter(id: number, input: CostCenterInput): Promise<CostCenter> {
  return api<CostCenter>(`/sms/cost-center/${id}/`, { method: "PUT", body: input });
}
