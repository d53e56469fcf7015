import { validateCampaignTemplate } from "@atende/shared";
import type { TemplateCheckRow } from "./repository.js";

/** Why a template cannot be used in a campaign, or null: the templates module's one shared rule. */
export function templateRefusal(t: TemplateCheckRow): string | null {
  const v = validateCampaignTemplate({ status: t.status, headerFormat: t.header_format, components: templateComponents(t.components) });
  return v.valid ? null : v.message;
}

/** The stored components (jsonb, as synced from Meta) in the shape the shared rules read. */
export function templateComponents(raw: unknown): Parameters<typeof validateCampaignTemplate>[0]["components"] {
  return Array.isArray(raw) ? (raw as Parameters<typeof validateCampaignTemplate>[0]["components"]) : [];
}

/** The texts a template sends (header, body, footer, button labels), for the block list. */
export function templateTexts(t: TemplateCheckRow): string[] {
  return templateComponents(t.components).flatMap((c) => [c.text ?? "", ...(c.buttons ?? []).map((b) => b.text ?? "")]).filter(Boolean);
}
