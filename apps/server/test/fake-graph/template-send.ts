/** A message template as the fake Graph API holds it (the shape of GET /{waba}/message_templates). */
export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameter_format?: "NAMED" | "POSITIONAL";
  components: { type: string; format?: string; text?: string; buttons?: { type: string; text?: string; url?: string; example?: unknown }[] }[];
  rejected_reason?: string;
}

/**
 * Meta's checks of a template send (POST /{phone-number-id}/messages with type "template"), written
 * from Meta's documentation, not from what our code sends:
 * - "Send message templates" / "Template components" (developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates):
 *   components of type header, body and button, each with `parameters`; text parameters
 *   {type:"text", text} (plus `parameter_name` for templates with parameter_format NAMED);
 *   media headers {type:"image"|"video"|"document", <type>: {link | id, filename?}}.
 * - Buttons: {type:"button", sub_type:"url"|"quick_reply"|"copy_code", index:"<0-9>", parameters}
 *   with {type:"text", text:<URL suffix>}, {type:"payload", payload} and
 *   {type:"coupon_code", coupon_code} (max 15 characters; developers.facebook.com/documentation/
 *   business-messaging/whatsapp/templates/marketing-templates/coupon-templates).
 * - Error codes: 132001 template name does not exist in the translation, 132000 number of
 *   parameters does not match, 132012 parameter format does not match, 131008 required parameter
 *   missing, 100 invalid parameter.
 * Returns null when Meta would accept the send, else the Graph error to answer with.
 */
export interface TemplateSendError {
  code: number;
  message: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const keysOf = (text: string | undefined) => [...new Set([...(text ?? "").matchAll(PLACEHOLDER)].map((m) => m[1]!))];
const MEDIA = ["image", "video", "document"];

type Param = Record<string, unknown> & { type?: unknown };
interface Component {
  type?: unknown;
  sub_type?: unknown;
  index?: unknown;
  parameters?: unknown;
}

const mismatch = (what: string): TemplateSendError => ({ code: 132000, message: `(#132000) Number of parameters does not match the expected number of params (${what})` });
const badFormat = (what: string): TemplateSendError => ({ code: 132012, message: `(#132012) Parameter format does not match format in the created template (${what})` });
const invalid = (what: string): TemplateSendError => ({ code: 100, message: `(#100) Invalid parameter (${what})` });

function checkTextParams(section: string, expected: string[], params: Param[], named: boolean): TemplateSendError | null {
  if (params.length !== expected.length) return mismatch(`${section}: expected ${expected.length}, received ${params.length}`);
  for (const [i, p] of params.entries()) {
    if (p.type !== "text" || typeof p.text !== "string" || p.text.trim() === "") return badFormat(`${section} parameter ${i}`);
    if (named && !expected.includes(String(p.parameter_name))) return invalid(`${section} parameter_name ${String(p.parameter_name)}`);
    if (!named && p.parameter_name !== undefined) return invalid(`${section} parameter_name on a positional template`);
  }
  if (named && new Set(params.map((p) => p.parameter_name)).size !== expected.length) return mismatch(`${section}: repeated parameter_name`);
  return null;
}

export function checkTemplateSend(templates: FakeTemplate[], template: unknown): TemplateSendError | null {
  const t = (template ?? {}) as { name?: unknown; language?: { code?: unknown }; components?: unknown };
  if (typeof t.name !== "string" || typeof t.language?.code !== "string") return { code: 131008, message: "(#131008) Required parameter is missing (template name, language.code)" };
  const def = templates.find((d) => d.name === t.name && d.language === t.language!.code && d.status === "APPROVED");
  if (!def) return { code: 132001, message: "(#132001) Template name does not exist in the translation" };
  if (t.components !== undefined && !Array.isArray(t.components)) return invalid("components must be an array");
  const sent = (t.components ?? []) as Component[];
  const named = def.parameter_format === "NAMED";
  const part = (type: string) => def.components.find((c) => c.type.toUpperCase() === type);

  for (const c of sent) {
    if (!["header", "body", "button"].includes(String(c.type))) return invalid(`component type ${String(c.type)}`);
    if (!Array.isArray(c.parameters)) return { code: 131008, message: `(#131008) Required parameter is missing (${String(c.type)}.parameters)` };
  }
  const one = (type: string) => sent.filter((c) => c.type === type);
  if (one("header").length > 1 || one("body").length > 1) return invalid("repeated header or body component");

  const header = part("HEADER");
  const headerParams = (one("header")[0]?.parameters ?? []) as Param[];
  const format = header?.format?.toUpperCase() ?? "";
  if (MEDIA.includes(format.toLowerCase())) {
    const media = format.toLowerCase();
    const p = headerParams[0];
    if (headerParams.length !== 1 || !p) return mismatch(`header: a ${media} is required`);
    const object = p[media] as { link?: unknown; id?: unknown } | undefined;
    if (p.type !== media || !object || (typeof object.link !== "string" && typeof object.id !== "string")) return badFormat(`header ${media}`);
    if (typeof object.link === "string" && !/^https?:\/\//.test(object.link)) return invalid("header media link");
  } else {
    const err = checkTextParams("header", format === "TEXT" ? keysOf(header?.text) : [], headerParams, named);
    if (err) return err;
  }

  const err = checkTextParams("body", keysOf(part("BODY")?.text), (one("body")[0]?.parameters ?? []) as Param[], named);
  if (err) return err;

  const buttons = part("BUTTONS")?.buttons ?? [];
  const sentButtons = new Map<number, Component>();
  for (const c of one("button")) {
    if (typeof c.index !== "string" || !/^\d$/.test(c.index)) return invalid(`button index ${String(c.index)}`);
    const index = Number(c.index);
    if (sentButtons.has(index)) return invalid(`button ${index} repeated`);
    sentButtons.set(index, c);
    const def = buttons[index];
    const params = c.parameters as Param[];
    const p = params[0];
    if (!def) return invalid(`button ${index} does not exist`);
    if (params.length !== 1 || !p) return mismatch(`button ${index}`);
    const kind = def.type.toUpperCase();
    if (c.sub_type === "url" && kind === "URL" && keysOf(def.url).length) {
      if (p.type !== "text" || typeof p.text !== "string" || p.text === "") return badFormat(`button ${index} url suffix`);
    } else if (c.sub_type === "copy_code" && kind === "COPY_CODE") {
      if (p.type !== "coupon_code" || typeof p.coupon_code !== "string" || p.coupon_code === "" || p.coupon_code.length > 15) return badFormat(`button ${index} coupon_code`);
    } else if (c.sub_type === "quick_reply" && kind === "QUICK_REPLY") {
      if (p.type !== "payload" || typeof p.payload !== "string") return badFormat(`button ${index} payload`);
    } else return badFormat(`button ${index} sub_type ${String(c.sub_type)} for a ${kind} button`);
  }
  for (const [index, b] of buttons.entries()) {
    const kind = b.type.toUpperCase();
    const needed = (kind === "URL" && keysOf(b.url).length > 0) || kind === "COPY_CODE";
    if (needed && !sentButtons.has(index)) return mismatch(`button ${index} (${kind}) needs a parameter`);
  }
  return null;
}
