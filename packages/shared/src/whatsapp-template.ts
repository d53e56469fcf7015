/**
 * Filling a WhatsApp message template: from the template's components as Meta
 * returns them (message_templates) and the values an agent typed, the `components` of Meta's
 * "Send message templates" request and the text the customer reads. Shared so the server sends
 * exactly what the web dialog previews.
 */

/** A template component as synced from Meta (HEADER, BODY, FOOTER, BUTTONS). */
export interface TemplateComponentDef {
  type: string;
  format?: string;
  text?: string;
  buttons?: { type: string; text?: string; url?: string; phone_number?: string }[];
}

/** The values an agent gives; which ones a template needs depends on its components. */
export interface TemplateValues {
  /** POSITIONAL templates: the body's {{1}}, {{2}}, ... in order. */
  variables?: string[];
  /** NAMED templates: header and body {{name}} values by parameter name. */
  namedVariables?: Record<string, string>;
  /** POSITIONAL templates: the value of a text header's {{1}}. */
  headerText?: string;
  /** Image, video or document headers: the media link (and a document's file name). */
  headerMediaUrl?: string;
  headerFilename?: string;
  /** By button index: a URL button's suffix, a copy-code button's code, a quick reply's payload. */
  buttons?: { index: number; value: string }[];
}

export type TemplateParameterFormat = "NAMED" | "POSITIONAL";

export interface FilledTemplate {
  /** Meta's send components (header, body, button), in Meta's documented shape. */
  components: Record<string, unknown>[];
  /** What the customer reads: header, body, footer and the buttons' labels. */
  text: string;
  /** The slots left unfilled, e.g. `header`, `body.2`, `body.first_name`, `button.0`. */
  missing: string[];
  /** Values Meta would refuse: a button that takes no parameter, a coupon code over 15 characters. */
  invalid: string[];
}

/** Meta's limit for a copy-code button's coupon code. */
export const COUPON_CODE_MAX = 15;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const MEDIA_HEADERS = ["IMAGE", "VIDEO", "DOCUMENT"];

/** The distinct placeholder keys of a text, in order of first use ({{1}} gives "1"). */
export function templatePlaceholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

const filled = (v: string | undefined): v is string => typeof v === "string" && v.trim() !== "";
const fill = (text: string, value: (key: string) => string | undefined) => text.replace(PLACEHOLDER, (whole, key: string) => value(key) ?? whole);

/** Positional keys sorted numerically ({{1}} before {{10}}): Meta maps parameters by their order. */
const ordered = (keys: string[], format: TemplateParameterFormat) => (format === "NAMED" ? keys : [...keys].sort((x, y) => Number(x) - Number(y)));

function textSlots(
  section: "header" | "body",
  text: string,
  format: TemplateParameterFormat,
  value: (key: string) => string | undefined,
  missing: string[],
): { parameters: Record<string, unknown>[]; rendered: string } {
  const keys = ordered(templatePlaceholders(text), format);
  const parameters: Record<string, unknown>[] = [];
  for (const key of keys) {
    const v = value(key);
    if (!filled(v)) missing.push(section === "header" && format === "POSITIONAL" ? "header" : `${section}.${key}`);
    else parameters.push(format === "NAMED" ? { type: "text", parameter_name: key, text: v } : { type: "text", text: v });
  }
  return { parameters, rendered: fill(text, (k) => (filled(value(k)) ? value(k) : undefined)) };
}

export function fillTemplate(defs: TemplateComponentDef[], format: TemplateParameterFormat, values: TemplateValues): FilledTemplate {
  const components: Record<string, unknown>[] = [];
  const missing: string[] = [];
  const invalid: string[] = [];
  const lines: string[] = [];
  const named = values.namedVariables ?? {};
  const byType = (type: string) => defs.find((c) => c.type.toUpperCase() === type);

  const header = byType("HEADER");
  const headerFormat = header?.format?.toUpperCase() ?? "";
  if (header && headerFormat === "TEXT") {
    const { parameters, rendered } = textSlots("header", header.text ?? "", format, (k) => (format === "NAMED" ? named[k] : values.headerText), missing);
    if (parameters.length) components.push({ type: "header", parameters });
    if (rendered) lines.push(rendered);
  } else if (MEDIA_HEADERS.includes(headerFormat)) {
    const media = headerFormat.toLowerCase();
    if (!filled(values.headerMediaUrl)) missing.push("header");
    else {
      const object: Record<string, string> = { link: values.headerMediaUrl };
      if (media === "document" && filled(values.headerFilename)) object.filename = values.headerFilename;
      components.push({ type: "header", parameters: [{ type: media, [media]: object }] });
    }
  }

  const body = byType("BODY");
  if (body) {
    const positional = values.variables ?? [];
    const { parameters, rendered } = textSlots("body", body.text ?? "", format, (k) => (format === "NAMED" ? named[k] : positional[Number(k) - 1]), missing);
    if (parameters.length) components.push({ type: "body", parameters });
    if (rendered) lines.push(rendered);
  }
  const footer = byType("FOOTER")?.text;
  if (footer) lines.push(footer);

  const buttonLines: string[] = [];
  const given = new Map((values.buttons ?? []).map((b) => [b.index, b.value]));
  (byType("BUTTONS")?.buttons ?? []).forEach((button, index) => {
    const kind = button.type.toUpperCase();
    const value = given.get(index);
    const label = button.text ?? "";
    if (kind === "URL") {
      const url = button.url ?? "";
      if (!templatePlaceholders(url).length) return void buttonLines.push(`[${label}] ${url}`);
      if (!filled(value)) return void missing.push(`button.${index}`);
      components.push({ type: "button", sub_type: "url", index: String(index), parameters: [{ type: "text", text: value }] });
      buttonLines.push(`[${label}] ${fill(url, () => value)}`);
    } else if (kind === "COPY_CODE") {
      if (!filled(value)) return void missing.push(`button.${index}`);
      if (value.length > COUPON_CODE_MAX) invalid.push(`button.${index}`);
      components.push({ type: "button", sub_type: "copy_code", index: String(index), parameters: [{ type: "coupon_code", coupon_code: value }] });
      buttonLines.push(`[${label || "Copiar código"}] ${value}`);
    } else if (kind === "QUICK_REPLY") {
      // the payload is optional: without one Meta reports the button's text when the customer taps it
      if (filled(value)) components.push({ type: "button", sub_type: "quick_reply", index: String(index), parameters: [{ type: "payload", payload: value }] });
      buttonLines.push(`[${label}]`);
    } else if (kind === "PHONE_NUMBER") {
      buttonLines.push(`[${label}] ${button.phone_number ?? ""}`);
    } else if (label) {
      buttonLines.push(`[${label}]`);
    }
  });

  const buttonDefs = byType("BUTTONS")?.buttons ?? [];
  for (const index of given.keys()) {
    const b = buttonDefs[index];
    const kind = b?.type.toUpperCase();
    const takesValue = kind === "COPY_CODE" || kind === "QUICK_REPLY" || (kind === "URL" && templatePlaceholders(b?.url ?? "").length > 0);
    if (!takesValue) invalid.push(`button.${index}`);
  }
  const text = [lines.join("\n\n"), buttonLines.join("\n")].filter(Boolean).join("\n\n");
  return { components, text, missing, invalid };
}
