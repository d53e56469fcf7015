import { useQueryClient } from "@tanstack/react-query";
import { channel, type Campaign, type CampaignsPage } from "@atende/shared";
import { patchLive } from "../../../lib/patch-live";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { campaignKeys, type CampaignFilters } from "../api/campaigns";
import { matchesFilters } from "./filter-campaigns";

type Incoming = { action?: string; campaign?: Partial<Campaign> & { id: number } };

/**
 * campaign-created and campaign-updated patch the page on screen (spec §2), filtered on the client by
 * date, status and cost center: a new campaign that matches joins page 1; an update is merged into its
 * row (the dispatcher sends counters and status only), and a row that no longer matches leaves. An
 * event that arrives while the page is being fetched asks for the page again (`patchLive`).
 */
export function useCampaignLive(companyId: number, filters: CampaignFilters, page: number, timeZone: string, onCalendarChange: () => void): void {
  const queryClient = useQueryClient();
  const key = campaignKeys.list(filters, page);

  useSocketEvent<Incoming>(channel.campaignCreated(companyId), (payload) => {
    const c = payload.campaign as Campaign | undefined;
    if (!c || page !== 1 || !matchesFilters(c, filters, timeZone)) return;
    patchLive<CampaignsPage>(queryClient, key, (old) => {
      if (!old || old.data.some((x) => x.id === c.id)) return old;
      return { ...old, data: [c, ...old.data].slice(0, 20), countPages: Math.max(old.countPages, 1) };
    });
    if (c.scheduledAt) onCalendarChange();
  });

  useSocketEvent<Incoming>(channel.campaignUpdated(companyId), (payload) => {
    const patch = payload.campaign;
    if (!patch) return;
    patchLive<CampaignsPage>(queryClient, key, (old) => {
      if (!old) return old;
      const current = old.data.find((x) => x.id === patch.id);
      if (!current) return old;
      const merged = { ...current, ...patch };
      const data = matchesFilters(merged, filters, timeZone) ? old.data.map((x) => (x.id === patch.id ? merged : x)) : old.data.filter((x) => x.id !== patch.id);
      return { ...old, data };
    });
    onCalendarChange();
  });
}
