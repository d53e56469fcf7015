/**
 * WhatsApp templates in campaigns (spec 3 §2-§3): whether a template can be sent in a campaign, the
 * CSV columns it needs, its type, and a portfolio's 24-hour messaging limit. One rule for the
 * templates list, the web and the campaign analysis, so they never disagree.
 */

/** The components a template needs for the rules (as synced from Meta's message_templates). */
export interface CampaignTemplateDef {
  status: string;
  /** The header's format: IMAGE, VIDEO, DOCUMENT, TEXT, LOCATION, ... or '' (no header). */
  headerFormat: string;
  components: { type: string; format?: string; text?: string; buttons?: { type: string; text?: string; url?: string }[] }[];
}

export interface TemplateValidation {
  valid: boolean;
  message: string;
}

/** The columns every campaign CSV starts with, in this order (spec 3 §4). */
export const CAMPAIGN_MANDATORY_COLUMNS = ["telefone", "cpf", "email"] as const;

/** The template types of the catalogue (`GET /template-types`): the header's format; no header is TEXT. */
export const TEMPLATE_TYPES = [
  { id: 1, name: "TEXT" },
  { id: 2, name: "IMAGE" },
  { id: 3, name: "VIDEO" },
  { id: 4, name: "DOCUMENT" },
  { id: 5, name: "LOCATION" },
] as const;
export type TemplateTypeName = (typeof TEMPLATE_TYPES)[number]["name"];

/** The catalogue entry of a header format ('' and TEXT are TEXT); undefined for a format outside it. */
export function templateTypeOf(headerFormat: string): (typeof TEMPLATE_TYPES)[number] | undefined {
  const name = (headerFormat || "TEXT").toUpperCase();
  return TEMPLATE_TYPES.find((t) => t.name === name);
}

const MEDIA_LABEL: Record<string, string> = { IMAGE: "da imagem", VIDEO: "do vídeo", DOCUMENT: "do documento" };
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
/** Button types whose send needs a value of its own (a coupon code, a catalog item, an OTP). */
const PARAMETER_BUTTONS = new Set(["COPY_CODE", "OTP", "CATALOG", "MPM", "SPM", "LIMITED_TIME_OFFER", "ORDER_DETAILS"]);

const placeholders = (text: string | undefined) => [...new Set([...(text ?? "").matchAll(PLACEHOLDER)].map((m) => m[1]!))];
const ordered = (keys: string[]) => (keys.every((k) => /^\d+$/.test(k)) ? [...keys].sort((a, b) => Number(a) - Number(b)) : keys);
const component = (t: CampaignTemplateDef, type: string) => t.components.find((c) => c.type.toUpperCase() === type);

/**
 * Where each CSV value goes, after the mandatory columns telefone;cpf;email: first the header's media
 * URL (IMAGE, VIDEO, DOCUMENT headers), then the text header's variable, then the body's variables in
 * order ({{1}}, {{2}}, ... or named ones in order of first use).
 */
export interface TemplateCsvLayout {
  mediaHeader: "IMAGE" | "VIDEO" | "DOCUMENT" | null;
  headerVariables: string[];
  bodyVariables: string[];
  /** The number of variable columns after the mandatory ones. */
  columns: number;
}

export function templateCsvLayout(t: CampaignTemplateDef): TemplateCsvLayout {
  const format = (t.headerFormat || "").toUpperCase();
  const mediaHeader = format === "IMAGE" || format === "VIDEO" || format === "DOCUMENT" ? format : null;
  const header = component(t, "HEADER");
  const headerVariables = format === "TEXT" || format === "" ? ordered(placeholders(header?.text)) : [];
  const bodyVariables = ordered(placeholders(component(t, "BODY")?.text));
  return { mediaHeader, headerVariables, bodyVariables, columns: (mediaHeader ? 1 : 0) + headerVariables.length + bodyVariables.length };
}

/** How many CSV variable columns (after telefone;cpf;email) a template needs: media URL + header and body variables. */
export function templateCsvColumns(t: CampaignTemplateDef): number {
  return templateCsvLayout(t).columns;
}

/** The variables a recipient row fills (header and body), without the media URL. */
export function templateVariableCount(t: CampaignTemplateDef): number {
  const l = templateCsvLayout(t);
  return l.headerVariables.length + l.bodyVariables.length;
}

/**
 * Whether the template can be sent in a campaign, and what the user must know:
 * - not APPROVED by Meta → invalid ('Template não aprovado pela Meta (status X)');
 * - a header other than text or media (LOCATION, PRODUCT, ...) → invalid;
 * - a button that needs a value per recipient (a URL with a variable, copy code, OTP, catalog) → invalid:
 *   the CSV has no column for it;
 * - IMAGE / VIDEO / DOCUMENT header → valid; the media URL is the first variable after the mandatory columns;
 * - otherwise valid, 'Template ativo'.
 */
export function validateCampaignTemplate(t: CampaignTemplateDef): TemplateValidation {
  const status = (t.status || "").toUpperCase();
  if (status !== "APPROVED") return { valid: false, message: `Template não aprovado pela Meta (status ${status || "desconhecido"})` };
  const format = (t.headerFormat || "").toUpperCase();
  if (format && !["TEXT", "IMAGE", "VIDEO", "DOCUMENT"].includes(format)) {
    return { valid: false, message: `Cabeçalho do tipo ${format} não é suportado em campanhas` };
  }
  for (const c of t.components) {
    for (const b of c.buttons ?? []) {
      const type = (b.type || "").toUpperCase();
      const needsValue = PARAMETER_BUTTONS.has(type) || (type === "URL" && placeholders(b.url).length > 0);
      if (needsValue) {
        return {
          valid: false,
          message: `O botão "${b.text ?? type}" (${type}) precisa de um valor por destinatário, o que as campanhas não suportam`,
        };
      }
    }
  }
  const label = MEDIA_LABEL[format];
  if (label) {
    return {
      valid: true,
      message: `A URL ${label} deve ser a primeira variável após as colunas obrigatórias (${CAMPAIGN_MANDATORY_COLUMNS.join(";")})`,
    };
  }
  return { valid: true, message: "Template ativo" };
}

/**
 * Meta's messaging limit tiers: unique users a business portfolio may reach with business-initiated
 * messages in a moving 24 hours (null = unlimited). Current tiers are 250, 2K, 10K, 100K and unlimited;
 * TIER_50 and TIER_1K are older values still returned for some numbers.
 */
export const MESSAGING_LIMIT_TIERS: Record<string, number | null> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10000,
  TIER_100K: 100000,
  TIER_UNLIMITED: null,
};

/** A new portfolio's limit, used when no number reports a known tier. */
export const DEFAULT_PORTFOLIO_LIMIT = 250;

/**
 * The portfolio's limit: Meta sets it per business portfolio, shared by its numbers, as the highest
 * tier among them (null = unlimited).
 */
export function portfolioMessagingLimit(tiers: string[]): number | null {
  let best: number | undefined;
  for (const tier of tiers) {
    const limit = Object.prototype.hasOwnProperty.call(MESSAGING_LIMIT_TIERS, tier.toUpperCase()) ? MESSAGING_LIMIT_TIERS[tier.toUpperCase()] : undefined;
    if (limit === undefined) continue;
    if (limit === null) return null;
    if (best === undefined || limit > best) best = limit;
  }
  return best ?? DEFAULT_PORTFOLIO_LIMIT;
}
