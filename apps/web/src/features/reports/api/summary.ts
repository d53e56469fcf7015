import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportFilters, ReportSummary } from "@atende/shared";
import { api } from "../../../lib/api";
import { toQuery } from "./query";

export const summaryQuery = (f: ReportFilters) =>
  queryOptions({
    queryKey: ["reports", "summary", f] as const,
    queryFn: ({ signal }) => api<ReportSummary>("/reports/summary", { query: toQuery(f), signal }),
  });

export const useReportSummary = (f: ReportFilters) => useQuery(summaryQuery(f));
