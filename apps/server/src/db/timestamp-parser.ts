/**
 * PostgreSQL's `timestamptz` text (DateStyle ISO: `2026-11-26 06:20:11.077+00`, offsets `+05:30` or
 * `-03:06:28`) read without regular expressions: the ticket list alone parses three per ticket, and
 * pg's own parser (postgres-date) was a fifth of the list's row parsing. Anything else (BC, infinity,
 * years before 1000 or after 9999, another DateStyle) goes to `fallback`, the parser pg had.
 */
export function timestamptzParser(fallback: (text: string) => unknown): (text: string) => unknown {
  return (s) => parseIsoTimestamptz(s) ?? fallback(s);
}

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
};
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/** The instant, or null when the text is not the plain ISO form (the caller falls back). */
export function parseIsoTimestamptz(s: string): Date | null {
  if (s.length < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) {
    return null;
  }
  const year = two(s, 0) * 100 + two(s, 2);
  if (!(year >= 1000)) return null; // NaN too; Date.UTC reads years 0-99 as 1900-1999
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // fraction: milliseconds are its first three digits (the rest truncated, as Date does)
    i++;
    let scale = 100;
    while (i < s.length && digit(s, i) >= 0) {
      ms += digit(s, i) * scale;
      scale /= 10;
      i++;
    }
    ms = Math.trunc(ms);
  }
  const sign = s.charCodeAt(i) === 43 ? 1 : s.charCodeAt(i) === 45 ? -1 : 0;
  if (!sign) return null;
  let offset = two(s, i + 1) * 3600;
  i += 3;
  for (const unit of [60, 1]) {
    if (s.charCodeAt(i) !== 58) break;
    offset += two(s, i + 1) * unit;
    i += 3;
  }
  if (i !== s.length) return null;
  const utc = Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), ms) - sign * offset * 1000;
  return Number.isNaN(utc) ? null : new Date(utc);
}
