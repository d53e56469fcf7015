import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReportFilters, ReportVolume } from "@atende/shared";
import { api } from "../../../lib/api";
import { toQuery } from "./query";

export const volumeQuery = (f: ReportFilters) =>
  queryOptions({
    queryKey: ["reports", "volume", f] as const,
    queryFn: ({ signal }) => api<ReportVolume>("/reports/volume", { query: toQuery(f), signal }),
  });

export const useReportVolume = (f: ReportFilters) => useQuery(volumeQuery(f));
