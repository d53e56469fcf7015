import { fillTemplate, templatePlaceholders, type TemplateComponentDef, type TemplateValues } from "@atende/shared";

/** The template columns the dispatcher reads (whatsapp_templates). */
export interface CampaignTemplate {
  id: number;
  name: string;
  language: string;
  header_format: string;
  parameter_format: string;
  components: TemplateComponentDef[];
}

const MEDIA_HEADERS = new Set(["IMAGE", "VIDEO", "DOCUMENT"]);

/**
 * A recipient row's CSV variables as the template's values: with an image, video or document header
 * the first variable column is the media URL; the rest fill the body's placeholders in order (for a
 * NAMED template, in the order the names first appear in the header and body).
 */
export function valuesFromRow(template: CampaignTemplate, variables: string[]): TemplateValues {
  const vars = [...variables];
  const values: TemplateValues = {};
  if (MEDIA_HEADERS.has(template.header_format.toUpperCase())) values.headerMediaUrl = vars.shift() ?? "";
  if (template.parameter_format === "NAMED") {
    const keys = template.components
      .filter((c) => ["HEADER", "BODY"].includes(c.type.toUpperCase()))
      .flatMap((c) => templatePlaceholders(c.text ?? ""));
    values.namedVariables = Object.fromEntries([...new Set(keys)].map((k, i) => [k, vars[i] ?? ""]));
  } else {
    const header = template.components.find((c) => c.type.toUpperCase() === "HEADER");
    if (header?.format?.toUpperCase() === "TEXT" && templatePlaceholders(header.text ?? "").length) values.headerText = vars.shift() ?? "";
    values.variables = vars;
  }
  return values;
}

export interface RenderedTemplate {
  /** Meta's `template` object of the send request. */
  template: { name: string; language: { code: string }; components: Record<string, unknown>[] };
  /** What the customer reads. */
  text: string;
  /** Unfilled or refused slots: the row cannot be sent. */
  problems: string[];
}

export function renderTemplate(template: CampaignTemplate, variables: string[]): RenderedTemplate {
  const format = template.parameter_format === "NAMED" ? "NAMED" : "POSITIONAL";
  const filled = fillTemplate(template.components, format, valuesFromRow(template, variables));
  return {
    template: { name: template.name, language: { code: template.language }, components: filled.components },
    text: filled.text || template.name,
    problems: [...filled.missing, ...filled.invalid],
  };
}
