import { isSameDay, isToday, isYesterday, parseISO } from "date-fns";

// fixed forms written by hand: date-fns' `format` (its token parser and locale) is no part of the workspace's first load
const pad = (n: number) => String(n).padStart(2, "0");
const hhmm = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const ddmmyyyy = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;

export function toDate(value: string | Date): Date {
  return typeof value === "string" ? parseISO(value) : value;
}

/** List time: HH:mm today, dd/MM/yyyy before. */
export function listTime(value: string | null | undefined): string {
  if (!value) return "";
  const d = toDate(value);
  return isToday(d) ? hhmm(d) : ddmmyyyy(d);
}

export const clock = (value: string) => hhmm(toDate(value));

export type DayLabel = { kind: "today" } | { kind: "yesterday" } | { kind: "date"; text: string };

export function dayLabel(value: string): DayLabel {
  const d = toDate(value);
  if (isToday(d)) return { kind: "today" };
  if (isYesterday(d)) return { kind: "yesterday" };
  return { kind: "date", text: ddmmyyyy(d) };
}

export const sameDay = (a: string, b: string) => isSameDay(toDate(a), toDate(b));

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase() || "?";
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
