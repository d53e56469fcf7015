import { addMonths, differenceInCalendarDays, format, isValid, parseISO } from "date-fns";
import { RECURRENCE_MONTHS, type Recurrence } from "@atende/shared";

/** A YYYY-MM-DD string when it is a real date, else null (an empty or invalid due date is sent as null). */
export function validDueDate(value: string | null | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  return isValid(parseISO(value)) ? value : null;
}

/** The due date moved forward by one period of the recurrence (1, 2, 3, 6 or 12 months). */
export function addPeriod(dueDate: string, recurrence: string): string {
  const months = RECURRENCE_MONTHS[recurrence as Recurrence] ?? 1;
  return format(addMonths(parseISO(dueDate), months), "yyyy-MM-dd");
}

export type DueTone = "yellow" | "orange" | "red" | null;

/** Row warning by days until due (2-administration §4): 5 yellow; -3 to 4 orange; -4 or less red. */
export function dueTone(dueDate: string | null | undefined, today: Date = new Date()): DueTone {
  const valid = validDueDate(dueDate ?? null);
  if (!valid) return null;
  const days = differenceInCalendarDays(parseISO(valid), today);
  if (days === 5) return "yellow";
  if (days >= -3 && days <= 4) return "orange";
  if (days <= -4) return "red";
  return null;
}

export const DUE_TONE_COLORS: Record<Exclude<DueTone, null>, string> = {
  yellow: "#fffead",
  orange: "#f7cc8f",
  red: "#fa8c8c",
};
