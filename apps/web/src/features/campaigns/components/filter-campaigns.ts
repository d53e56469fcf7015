import { dateToZonedLocal, type Campaign } from "@atende/shared";
import type { CampaignFilters } from "../api/campaigns";

/**
 * Whether a campaign of a live event belongs in the list as filtered (spec §2: live events are
 * filtered on the client by date, status and cost center). Dates are the company's days.
 */
export function matchesFilters(c: Pick<Campaign, "createdAt" | "status" | "costCenterId">, f: CampaignFilters, timeZone: string): boolean {
  if (f.status && c.status !== f.status) return false;
  if (f.costCenterId && String(c.costCenterId) !== f.costCenterId) return false;
  const day = dateToZonedLocal(new Date(c.createdAt), timeZone).slice(0, 10);
  if (f.startDate && day < f.startDate) return false;
  if (f.endDate && day > f.endDate) return false;
  return true;
}
