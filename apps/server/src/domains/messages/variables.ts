/** Company-facing clock for greetings and {{hora}}: the product serves Brazilian companies. */
export const MESSAGE_TIMEZONE = process.env.MESSAGE_TIMEZONE ?? "America/Sao_Paulo";

function hourIn(date: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(date));
}

/** Bom dia (05:00-11:59), Boa tarde (12:00-17:59), Boa noite (otherwise). */
export function greetingFor(date: Date, timeZone = MESSAGE_TIMEZONE): string {
  const h = hourIn(date, timeZone);
  if (h >= 5 && h < 12) return "Bom dia";
  if (h >= 12 && h < 18) return "Boa tarde";
  return "Boa noite";
}

export interface VariableContext {
  contactName: string;
  protocol: string;
  now?: Date;
  timeZone?: string;
}

/** Substitutes {{firstName}}, {{name}}, {{ms}}, {{protocol}} and {{hora}} (1-core §3). */
export function applyVariables(text: string, v: VariableContext): string {
  if (!text.includes("{{")) return text;
  const now = v.now ?? new Date();
  const timeZone = v.timeZone ?? MESSAGE_TIMEZONE;
  const name = v.contactName.trim();
  const values: Record<string, string> = {
    firstname: name.split(/\s+/)[0] ?? "",
    name,
    ms: greetingFor(now, timeZone),
    protocol: v.protocol,
    hora: new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone }).format(now),
  };
  return text.replace(/\{\{\s*(firstName|name|ms|protocol|hora)\s*\}\}/gi, (_, key: string) => values[key.toLowerCase()] ?? "");
}

/** The agent's signature prefix: "*Name*:\n". */
export function signBody(body: string, agentName: string): string {
  return `*${agentName}*:\n${body}`;
}
