import { templatePlaceholders, type OfficialTemplateSendInput, type WhatsappTemplate } from "@atende/shared";

/** One input of the template dialog; `key` is unique within a template. */
export type TemplateField =
  | { key: string; kind: "headerText" | "headerMedia" | "headerFilename" }
  | { key: string; kind: "named"; name: string }
  | { key: string; kind: "positional"; position: number }
  | { key: string; kind: "button"; index: number; button: "URL" | "COPY_CODE" | "QUICK_REPLY"; label: string };

const part = (t: WhatsappTemplate, type: string) => t.components.find((c) => c.type.toUpperCase() === type);

/** The inputs a template needs, in the order the customer reads them (header, body, buttons). */
export function templateFields(t: WhatsappTemplate): TemplateField[] {
  const fields: TemplateField[] = [];
  const header = part(t, "HEADER");
  const format = header?.format?.toUpperCase() ?? "";
  const named = t.parameterFormat === "NAMED";
  const names = new Set<string>();
  const addNamed = (text: string | undefined) => {
    for (const name of templatePlaceholders(text ?? "")) {
      if (!names.has(name)) fields.push({ key: `named.${name}`, kind: "named", name });
      names.add(name);
    }
  };
  if (format === "TEXT" && templatePlaceholders(header?.text ?? "").length) {
    if (named) addNamed(header?.text);
    else fields.push({ key: "headerText", kind: "headerText" });
  } else if (["IMAGE", "VIDEO", "DOCUMENT"].includes(format)) {
    fields.push({ key: "headerMedia", kind: "headerMedia" });
    if (format === "DOCUMENT") fields.push({ key: "headerFilename", kind: "headerFilename" });
  }
  const body = part(t, "BODY")?.text ?? "";
  if (named) addNamed(body);
  else {
    const positions = templatePlaceholders(body).map(Number).sort((x, y) => x - y);
    for (const position of positions) fields.push({ key: `body.${position}`, kind: "positional", position });
  }
  (part(t, "BUTTONS")?.buttons ?? []).forEach((b, index) => {
    const kind = b.type.toUpperCase();
    const label = b.text ?? "";
    if (kind === "URL" && templatePlaceholders(b.url ?? "").length) fields.push({ key: `button.${index}`, kind: "button", index, button: "URL", label });
    else if (kind === "COPY_CODE" || kind === "QUICK_REPLY") fields.push({ key: `button.${index}`, kind: "button", index, button: kind, label });
  });
  return fields;
}

/** The send request from the dialog's values (by field key); empty values are left out. */
export function templateInput(t: WhatsappTemplate, fields: TemplateField[], values: Record<string, string>): OfficialTemplateSendInput {
  const value = (key: string) => values[key] ?? "";
  const input: OfficialTemplateSendInput = { templateId: t.id, variables: [], namedVariables: {}, buttons: [] };
  for (const f of fields) {
    const v = value(f.key);
    if (f.kind === "positional") input.variables![f.position - 1] = v;
    else if (!v) continue;
    else if (f.kind === "named") input.namedVariables![f.name] = v;
    else if (f.kind === "headerText") input.headerText = v;
    else if (f.kind === "headerMedia") input.headerMediaUrl = v;
    else if (f.kind === "headerFilename") input.headerFilename = v;
    else if (f.kind === "button") input.buttons!.push({ index: f.index, value: v });
  }
  input.variables = Array.from(input.variables!, (v) => v ?? "");
  return input;
}
