import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportOptions } from "@atende/shared";
import { api } from "../../../lib/api";

export const reportOptionsQuery = () =>
  queryOptions({ queryKey: ["reports", "options"] as const, queryFn: ({ signal }) => api<ReportOptions>("/reports/options", { signal }), staleTime: 60_000 });

/** The filters' choices: the company's queues, users, tags and connections. */
export const useReportOptions = () => useQuery(reportOptionsQuery());
