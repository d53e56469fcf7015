import type { Whatsapp } from "@atende/shared";

/** Numbers with more than one CONNECTED session (they cause sync problems and duplicated tickets). */
export function duplicatedNumbers(list: Pick<Whatsapp, "status" | "number" | "phoneNumberStr">[]): string[] {
  const seen = new Map<string, number>();
  for (const w of list) {
    const n = (w.phoneNumberStr || w.number).replace(/\D/g, "");
    if (w.status === "CONNECTED" && n) seen.set(n, (seen.get(n) ?? 0) + 1);
  }
  return [...seen].filter(([, c]) => c > 1).map(([n]) => n);
}
