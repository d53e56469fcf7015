import { OPERATING_STATUSES, QUALITY_SCORES } from "@atende/shared";
import type { NumberState } from "../../domains/official-whatsapp/repository.js";
import type { GraphPhoneNumber } from "./graph-client.js";

/** Operating statuses in which the number cannot be used at all. */
const DISABLING = new Set(["BANNED", "DELETED", "DISCONNECTED", "MIGRATED"]);

export const digitsOf = (s: string | undefined) => (s ?? "").replace(/\D/g, "");

const known = <T extends string>(list: readonly T[], value: string | undefined, fallback: T): T =>
  (list as readonly string[]).includes((value ?? "").toUpperCase()) ? ((value ?? "").toUpperCase() as T) : fallback;

/**
 * A number's state as Meta reports it (GET phone_numbers): operating status is Meta's `status`,
 * quality its `quality_rating`, the tier its `messaging_limit_tier`; the number is DISABLED when its
 * status makes it unusable or its health says it cannot send.
 */
export function numberStateFromGraph(p: GraphPhoneNumber): NumberState {
  const operating = known(OPERATING_STATUSES, p.status, "UNKNOWN");
  const canSend = (p.health_status?.can_send_message ?? "").toUpperCase();
  const errors = (p.health_status?.entities ?? []).flatMap((e) =>
    (e.errors ?? []).map((x) => ({ code: String(x.error_code ?? ""), description: String(x.error_description ?? "") })),
  );
  const disabled = DISABLING.has(operating) || canSend === "BLOCKED";
  return {
    phone_number: digitsOf(p.display_phone_number),
    display_phone_number: p.display_phone_number ?? "",
    verified_name: p.verified_name ?? "",
    messaging_limit: p.messaging_limit_tier ?? "",
    operating_status: operating,
    quality_score: known(QUALITY_SCORES, p.quality_rating, "UNKNOWN"),
    can_send_message: canSend,
    health_errors: errors,
    phone_status: disabled ? "DISABLED" : "ACTIVE",
    phone_status_reason: disabled ? (errors[0]?.description || (DISABLING.has(operating) ? operating : canSend)) : "",
  };
}
