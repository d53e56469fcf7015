import { DEFAULT_TIMEZONE, localTime } from "../queues/opening-hours.js";

/** The {{ms}} greeting for the local hour: Bom dia (06-11), Boa tarde (12-17), Boa noite (18-23), Boa madrugada (00-05). */
export function greeting(hour: number): string {
  if (hour >= 6 && hour < 12) return "Bom dia";
  if (hour >= 12 && hour < 18) return "Boa tarde";
  if (hour >= 18) return "Boa noite";
  return "Boa madrugada";
}

export interface VariableValues {
  contactName: string;
  protocol: string;
  now?: Date;
  timezone?: string;
}

/**
 * Replaces {{firstName}}, {{name}}, {{ms}}, {{protocol}} and {{hora}} (spaces inside the braces allowed);
 * unknown variables are left as written.
 */
export function renderVariables(body: string, v: VariableValues): string {
  const local = localTime(v.now ?? new Date(), v.timezone ?? DEFAULT_TIMEZONE);
  const hh = Math.floor(local.seconds / 3600);
  const mm = Math.floor((local.seconds % 3600) / 60);
  const ss = local.seconds % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const name = v.contactName.trim();
  const values: Record<string, string> = {
    firstName: name.split(/\s+/)[0] ?? "",
    name,
    ms: greeting(hh),
    protocol: v.protocol,
    hora: `${pad(hh)}:${pad(mm)}:${pad(ss)}`,
  };
  return body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
