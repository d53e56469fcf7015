/** `{{variable}}` placeholders of SMS templates (spec 3 §3): names in order of first use, each once. */
const PLACEHOLDER = /\{\{\s*([^{}\s][^{}]*?)\s*\}\}/g;

export function smsTemplateVariables(content: string): string[] {
  const names: string[] = [];
  for (const m of content.matchAll(PLACEHOLDER)) {
    const name = m[1]!;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Fills each placeholder with its value (missing names become empty). */
export function fillSmsTemplate(content: string, values: Record<string, string>): string {
  return content.replace(PLACEHOLDER, (_all, name: string) => values[name] ?? "");
}
