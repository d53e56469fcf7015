import type { ReportFilters } from "@atende/shared";
import type { RequestOptions } from "../../../lib/api";

/** A report query as the API client sends it (undefined values are left out of the URL). */
export function toQuery(q: ReportFilters & Record<string, string | number | undefined>): NonNullable<RequestOptions["query"]> {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as NonNullable<RequestOptions["query"]>;
}
