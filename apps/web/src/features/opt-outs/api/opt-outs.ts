import type { OptOut, OptOutChannel, OptOutInput, OptOutPage } from "@atende/shared";
import { api } from "../../../lib/api";

export interface OptOutFilters {
  channel: OptOutChannel | "";
  search: string;
}

export const optOutKeys = {
  all: ["opt-outs"] as const,
  page: (f: OptOutFilters, page: number) => [...optOutKeys.all, f, page] as const,
};

/** GET /opt-outs: newest first, 40 a page; empty filters are left out. */
export function fetchOptOuts(f: OptOutFilters, page: number, signal?: AbortSignal): Promise<OptOutPage> {
  return api<OptOutPage>("/opt-outs", { signal, query: { page, channel: f.channel || undefined, search: f.search.trim() || undefined } });
}

export function addOptOut(input: OptOutInput): Promise<OptOut> {
  return api<OptOut>("/opt-outs", { method: "POST", body: input });
}

/** DELETE /opt-outs/{channel}/{address}: the address as listed. */
export function removeOptOut(o: Pick<OptOut, "channel" | "address">): Promise<{ message: string }> {
  return api<{ message: string }>(`/opt-outs/${o.channel}/${encodeURIComponent(o.address)}`, { method: "DELETE" });
}
