import { channel } from "@atende/shared";
import { GraphClient } from "../../channels/cloud-api/graph-client.js";
import { digitsOf } from "../../channels/cloud-api/number-state.js";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import * as officialRepo from "../official-whatsapp/repository.js";
import { presentWhatsapp } from "../whatsapp/presenter.js";
import * as whatsappRepo from "../whatsapp/repository.js";

interface NumberRef {
  id: number;
  whatsapp_id: number;
  phone_number_id: string;
}

/** The business's numbers a change names by phone number, or all of them when it names none. */
async function targets(ctx: AppContext, business: BusinessSecrets, phone: string | undefined): Promise<NumberRef[]> {
  const all = await officialRepo.numbersOfBusiness(ctx.sql, business.company_id, business.id);
  const digits = digitsOf(phone);
  return digits ? all.filter((n) => n.phone_number === digits) : all;
}

async function announce(ctx: AppContext, companyId: number, numbers: NumberRef[]): Promise<void> {
  for (const n of numbers) {
    const row = await whatsappRepo.findWhatsapp(ctx.sql, companyId, n.whatsapp_id);
    if (row) ctx.realtime.emit(rooms.company(companyId), channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
  }
}

/**
 * phone_number_quality_update: { display_phone_number, event (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE),
 * current_limit }. The tier comes with the event; FLAGGED means the quality dropped to RED; on other
 * events the quality rating is read again from the Graph API (best effort).
 */
export async function processQualityUpdate(ctx: AppContext, business: BusinessSecrets, value: Record<string, unknown>): Promise<void> {
  const numbers = await targets(ctx, business, String(value.display_phone_number ?? ""));
  if (!numbers.length || !value.display_phone_number) return;
  const event = String(value.event ?? "").toUpperCase();
  const limit = typeof value.current_limit === "string" ? value.current_limit : undefined;
  for (const n of numbers) {
    const state: officialRepo.NumberState = { messaging_limit: limit };
    if (event === "FLAGGED") {
      state.quality_score = "RED";
      state.operating_status = "FLAGGED";
    } else {
      if (event === "UNFLAGGED") state.operating_status = "CONNECTED";
      const fresh = await new GraphClient(ctx.config.whatsappGraphUrl, business.access_token, 5000)
        .get<{ quality_rating?: string }>(n.phone_number_id, { fields: "quality_rating" })
        .catch((err: unknown) => {
          // the event's own fields are applied anyway; only the fresh rating is missing
          ctx.log.warn({ err, companyId: business.company_id, officialNumberId: n.id }, "could not read a number's quality rating");
          return null;
        });
      const q = fresh?.quality_rating?.toUpperCase();
      if (q && ["GREEN", "YELLOW", "RED", "UNKNOWN"].includes(q)) state.quality_score = q;
    }
    await officialRepo.updateNumberState(ctx.sql, business.company_id, n.id, state);
  }
  await announce(ctx, business.company_id, numbers);
}

/**
 * account_update: { phone_number?, event, violation_info?, ban_info?, restriction_info? }. Violations
 * and restrictions mark the numbers; a ban (waba_ban_state DISABLE) or deletion disables them and a
 * REINSTATE brings them back.
 */
export async function processAccountUpdate(ctx: AppContext, business: BusinessSecrets, value: Record<string, unknown>): Promise<void> {
  const event = String(value.event ?? "").toUpperCase();
  if (!event) return;
  const numbers = await targets(ctx, business, typeof value.phone_number === "string" ? value.phone_number : undefined);
  const violation = value.violation_info as { violation_type?: string } | undefined;
  const ban = value.ban_info as { waba_ban_state?: string; waba_ban_date?: string } | undefined;
  const restrictions = value.restriction_info as { restriction_type?: string; expiration?: string }[] | undefined;
  const state: officialRepo.NumberState = { account_status: event };
  if (event === "ACCOUNT_VIOLATION") {
    state.account_violation = true;
    state.violation_type = violation?.violation_type ?? "";
  }
  if (event === "ACCOUNT_RESTRICTION") {
    state.operating_status = "RESTRICTED";
    state.phone_status_reason = restrictions?.map((r) => r.restriction_type).filter(Boolean).join(", ") ?? "";
  }
  const banState = (ban?.waba_ban_state ?? "").toUpperCase();
  if (banState === "DISABLE" || event === "ACCOUNT_DELETED" || event === "PARTNER_REMOVED") {
    state.phone_status = "DISABLED";
    state.operating_status = event === "ACCOUNT_DELETED" ? "DELETED" : "BANNED";
    state.phone_status_reason = banState ? `${event} ${banState}`.trim() : event;
  } else if (banState === "REINSTATE") {
    state.phone_status = "ACTIVE";
    state.operating_status = "CONNECTED";
    state.phone_status_reason = "";
    state.account_violation = false;
    state.violation_type = "";
  }
  for (const n of numbers) await officialRepo.updateNumberState(ctx.sql, business.company_id, n.id, state);
  if (!value.phone_number) {
    await ctx.sql.exec("UPDATE businesses SET account_status = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [business.company_id, business.id, event]);
  }
  await announce(ctx, business.company_id, numbers);
}

/** message_template_status_update: { event (APPROVED, REJECTED, PAUSED, DISABLED...), message_template_id, name, language, reason }. */
export async function processTemplateStatus(ctx: AppContext, business: BusinessSecrets, value: Record<string, unknown>): Promise<void> {
  const event = String(value.event ?? "").toUpperCase();
  if (!event) return;
  const reason = typeof value.reason === "string" && value.reason !== "NONE" ? value.reason : "";
  await ctx.sql.exec(
    `UPDATE whatsapp_templates SET status = $3, rejected_reason = $4, updated_at = now()
      WHERE company_id = $1 AND business_id = $2
        AND (template_id = $5 OR (name = $6 AND language = $7))`,
    [
      business.company_id,
      business.id,
      event,
      reason,
      String(value.message_template_id ?? ""),
      String(value.message_template_name ?? ""),
      String(value.message_template_language ?? ""),
    ],
  );
}

/** phone_number_name_update: { display_phone_number, decision (APPROVED...), requested_verified_name }. */
export async function processNameUpdate(ctx: AppContext, business: BusinessSecrets, value: Record<string, unknown>): Promise<void> {
  if (String(value.decision ?? "").toUpperCase() !== "APPROVED" || typeof value.requested_verified_name !== "string") return;
  const numbers = await targets(ctx, business, String(value.display_phone_number ?? ""));
  if (!value.display_phone_number) return;
  for (const n of numbers) await officialRepo.updateNumberState(ctx.sql, business.company_id, n.id, { verified_name: value.requested_verified_name });
}
