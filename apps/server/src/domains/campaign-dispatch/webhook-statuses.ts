import type { CloudStatus } from "../../channels/cloud-api/webhook-types.js";
import type { AppContext } from "../../core/context.js";
import { applyCampaignStatuses } from "./statuses.js";

/**
 * The webhook path's hook (domains/webhooks/process-messages.ts): a `messages` change's statuses that
 * belong to campaign rows, by wamid or by the row id echoed in biz_opaque_callback_data. Returns the
 * wamids handled, which need no message row.
 */
export function applyCampaignWebhookStatuses(ctx: AppContext, companyId: number, statuses: CloudStatus[]): Promise<Set<string>> {
  return applyCampaignStatuses(
    ctx,
    companyId,
    statuses
      .filter((s) => s.id)
      .map((s) => {
        const e = s.errors?.[0];
        return {
          providerId: s.id,
          rowId: s.biz_opaque_callback_data,
          status: s.status,
          at: s.timestamp && /^\d+$/.test(s.timestamp) ? new Date(Number(s.timestamp) * 1000) : undefined,
          errorCode: e?.code ?? null,
          errorTitle: e?.title ?? e?.message ?? "",
          errorDetail: e?.error_data?.details ?? "",
        };
      }),
  );
}
