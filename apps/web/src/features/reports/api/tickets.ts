import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportFilters, ReportMetric, ReportTickets } from "@atende/shared";
import { api, API_BASE, getToken, refreshSession } from "../../../lib/api";
import { toQuery } from "./query";

/** Which tickets a drill-down lists: the filters, the figure's event, and for CSAT one answer. */
export interface TicketListParams {
  filters: ReportFilters;
  metric: ReportMetric;
  rating?: number;
}

const listQuery = (p: TicketListParams) => toQuery({ ...p.filters, metric: p.metric, rating: p.rating });

export const reportTicketsQuery = (p: TicketListParams, page: number) =>
  queryOptions({
    queryKey: ["reports", "tickets", p, page] as const,
    queryFn: ({ signal }) => api<ReportTickets>("/reports/tickets", { query: { ...listQuery(p), page }, signal }),
  });

export const useReportTickets = (p: TicketListParams | null, page: number) =>
  useQuery({ ...reportTicketsQuery(p ?? { filters: {}, metric: "created" }, page), enabled: p !== null, placeholderData: keepPreviousData });

/** Downloads GET /reports/tickets.csv (streamed by the server) with the bearer token, as a file. */
export async function downloadTicketsCsv(p: TicketListParams, lang: string): Promise<void> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...listQuery(p), lang: ["pt", "en", "es"].includes(lang) ? lang : "pt" })) search.set(k, String(v));
  const get = () => fetch(`${API_BASE}/reports/tickets.csv?${search}`, { headers: { authorization: `Bearer ${getToken() ?? ""}` }, credentials: "include" });
  let res = await get();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await get();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/i.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "tickets.csv";
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
