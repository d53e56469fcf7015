import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportBreakdown, ReportDimension, ReportFilters } from "@atende/shared";
import { api } from "../../../lib/api";
import { toQuery } from "./query";

export const breakdownQuery = (f: ReportFilters, by: ReportDimension) =>
  queryOptions({
    queryKey: ["reports", "breakdown", by, f] as const,
    queryFn: ({ signal }) => api<ReportBreakdown>("/reports/breakdown", { query: toQuery({ ...f, by }), signal }),
  });

export const useReportBreakdown = (f: ReportFilters, by: ReportDimension) => useQuery({ ...breakdownQuery(f, by), placeholderData: keepPreviousData });
