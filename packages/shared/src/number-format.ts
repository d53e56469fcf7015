import { DEFAULT_LANGUAGE, type Language } from "./limits.js";

/**
 * Numbers as people read and type them in the product's languages. Money is always the real (BRL)
 * written the Brazilian way (R$ 1.234,56), whatever the interface language: the companies and their
 * invoices are Brazilian. Percentages and other decimal figures follow the interface language (pt by
 * default: 37,50%). The web app and the server's exports use these functions, never `toFixed`.
 */
const LOCALES: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es" };

const cache = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale + JSON.stringify(options);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

const localeOf = (lang: string | undefined) => LOCALES[(lang ?? DEFAULT_LANGUAGE) as Language] ?? LOCALES[DEFAULT_LANGUAGE];

/** An amount of money: `R$ 1.234,56` (BRL, two decimals, Brazilian separators). */
export function formatMoney(value: number): string {
  return formatter("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** An amount as a money field shows it: `1.234,56` (no currency sign, two decimals). */
export function formatMoneyInput(value: number): string {
  return formatter("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/**
 * A typed amount, read the Brazilian way: `99,90` → 99.9, `1.234,56` → 1234.56, `1234` → 1234, with an
 * optional `R$`. A dot alone is read as the decimal point only when one or two digits follow it
 * (`99.90` → 99.9, typed from a keyboard without a comma); otherwise dots group thousands
 * (`1.234` → 1234). Null for an empty text; NaN for a text that is not an amount (letters, two commas,
 * more than two decimals, misplaced thousands dots).
 */
export function parseMoney(text: string): number | null {
  const s = text.replace(/R\$/i, "").replace(/[\s\u00a0]/g, "");
  if (s === "") return null;
  const negative = s.startsWith("-");
  const body = negative ? s.slice(1) : s;
  let integer: string;
  let decimals = "";
  const commas = body.split(",");
  if (commas.length > 2) return NaN;
  if (commas.length === 2) {
    integer = commas[0]!;
    decimals = commas[1]!;
  } else if (/^\d+\.\d{1,2}$/.test(body)) {
    [integer, decimals] = body.split(".") as [string, string];
  } else {
    integer = body;
  }
  if (!/^\d{0,2}$/.test(decimals)) return NaN;
  if (integer.includes(".") && !/^\d{1,3}(\.\d{3})+$/.test(integer)) return NaN;
  const digits = integer.replaceAll(".", "");
  if (!/^\d*$/.test(digits) || (digits === "" && decimals === "")) return NaN;
  const value = Number(`${digits || "0"}.${decimals || "0"}`);
  return negative ? -value : value;
}

/** A percentage given in percent units (37.5 → `37,50%` in pt, `37.50%` in en), two decimals by default. */
export function formatPercent(percent: number, lang?: string, fractionDigits = 2): string {
  return formatter(localeOf(lang), { style: "percent", minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(percent / 100);
}

/** A decimal figure such as an average (4.5 → `4,50` in pt, `4.50` in en). */
export function formatDecimal(value: number, lang?: string, fractionDigits = 2): string {
  return formatter(localeOf(lang), { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(value);
}
