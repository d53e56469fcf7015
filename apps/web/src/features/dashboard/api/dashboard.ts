import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DashboardResponse } from "@atende/shared";
import { api } from "../../../lib/api";

/** What GET /dashboard is asked: a period of days or two dates, and tag ids (sent as a JSON array). */
export type DashboardParams = { days: number; tagIds: number[] } | { dateFrom: string; dateTo: string; tagIds: number[] };

export const dashboardKeys = {
  all: ["dashboard"] as const,
  figures: (p: DashboardParams) => ["dashboard", p] as const,
};

export function fetchDashboard(p: DashboardParams, signal?: AbortSignal): Promise<DashboardResponse> {
  const range = "days" in p ? { days: p.days } : { date_from: p.dateFrom, date_to: p.dateTo };
  return api<DashboardResponse>("/dashboard", { query: { ...range, idTags: p.tagIds.length ? p.tagIds : undefined }, signal });
}

export const dashboardQuery = (p: DashboardParams) =>
  queryOptions({ queryKey: dashboardKeys.figures(p), queryFn: ({ signal }) => fetchDashboard(p, signal) });

/** The figures for the applied filter; nothing is asked before one is applied. */
export function useDashboard(p: DashboardParams | null) {
  return useQuery({ ...dashboardQuery(p ?? { days: 1, tagIds: [] }), enabled: p !== null });
}
