import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportFilters, ReportMetric, ReportTickets } from "@atende/shared";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";
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

/** Downloads GET /reports/tickets.csv (streamed by the server) as a file. */
export function downloadTicketsCsv(p: TicketListParams, lang: string): Promise<void> {
  const query = Object.fromEntries(Object.entries({ ...listQuery(p), lang: ["pt", "en", "es"].includes(lang) ? lang : "pt" }).map(([k, v]) => [k, String(v)]));
  return downloadFile("/reports/tickets.csv", query, "tickets.csv");
}
