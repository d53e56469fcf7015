import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { DEFAULT_TIME_ZONE } from "@atende/shared";
import { useSession } from "./session";

/** The company's time zone: opening hours, schedules and campaign windows are entered and shown in it. */
export function useCompanyTimeZone(): string {
  const { user } = useSession();
  return user?.company.timeZone ?? DEFAULT_TIME_ZONE;
}

/** "GMT-03:00" for America/Sao_Paulo at `at` (daylight saving makes it depend on the date). */
export function zoneOffset(timeZone: string, at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value === "GMT" ? "GMT+00:00" : (part?.value ?? "");
}

/** "America/Sao_Paulo (GMT-03:00)": the name an administrator chose, with its current offset. */
export function zoneLabel(timeZone: string, at?: Date): string {
  return `${timeZone.replaceAll("_", " ")} (${zoneOffset(timeZone, at)})`;
}

/** An instant as the wall-clock time it was in `timeZone` (dd/MM/yyyy HH:mm by default). */
export function formatInZone(iso: string | Date, timeZone: string, pattern = "dd/MM/yyyy HH:mm"): string {
  return format(new TZDate(new Date(iso).getTime(), timeZone), pattern);
}
