import type { Business } from "@atende/shared";
import type { BusinessRow } from "./repository.js";

export const webhookPath = (businessId: number) => `/api/webhooks/whatsapp/${businessId}`;

/** Secrets never leave the server: only whether each one is set. */
export function presentBusiness(row: BusinessRow, publicUrl: string): Business {
  return {
    id: row.id,
    name: row.name,
    wabaId: row.waba_id,
    hasAccessToken: row.has_access_token,
    hasAppSecret: row.has_app_secret,
    hasVerifyToken: row.has_verify_token,
    webhookPath: webhookPath(row.id),
    webhookUrl: `${publicUrl.replace(/\/+$/, "")}${webhookPath(row.id)}`,
    accountStatus: row.account_status,
    phoneNumbersCount: row.phone_numbers_count,
    templatesCount: row.templates_count,
    sandbox: row.sandbox,
    sandboxFailureRate: row.sandbox ? row.sandbox_failure_rate : null,
    lastSyncAt: row.last_sync_at ? row.last_sync_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
