import { CAMPAIGN_MESSAGES } from "@atende/shared";
import type { TemplateCheckRow } from "./repository.js";

/**
 * Why a template cannot be used in a campaign, or null. Until the templates module's shared validation
 * (`{valid, message}`, packages/shared, branch wip/templates) is merged, the rule is Meta's approval:
 * only APPROVED templates can be sent.
 */
export function templateRefusal(t: TemplateCheckRow): string | null {
  return t.status === "APPROVED" ? null : CAMPAIGN_MESSAGES.templateInvalid;
}
