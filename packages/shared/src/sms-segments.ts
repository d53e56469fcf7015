/**
 * SMS segment counting (3GPP TS 23.038): a text fits the GSM 7-bit default alphabet (characters of its
 * extension table take two septets) or is sent as UCS-2. One segment holds 160 septets (GSM-7) or 70
 * UTF-16 code units (UCS-2); a longer text is split into segments of 153 / 67 (the concatenation header
 * takes the rest). An extension character is never split across two segments, nor a surrogate pair.
 */
const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXTENSION = "\f^{}\\[~]|€";
const basic = new Set(GSM7_BASIC);
const extension = new Set(GSM7_EXTENSION);

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the whole text. */
  units: number;
  segments: number;
  /** Units left in the last segment before another one starts. */
  remaining: number;
  /** Characters that forced UCS-2 (empty for GSM-7). */
  nonGsmCharacters: string[];
}

export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) if (!basic.has(ch) && !extension.has(ch)) return "UCS-2";
  return "GSM-7";
}

export function countSmsSegments(text: string): SmsSegments {
  const encoding = smsEncoding(text);
  const nonGsm = encoding === "UCS-2" ? [...new Set([...text].filter((ch) => !basic.has(ch) && !extension.has(ch)))] : [];
  // Each character's size in units: GSM-7 extension = 2 septets; UCS-2 astral = 2 code units.
  const sizes = [...text].map((ch) => (encoding === "GSM-7" ? (extension.has(ch) ? 2 : 1) : ch.length));
  const units = sizes.reduce((a, b) => a + b, 0);
  const single = encoding === "GSM-7" ? 160 : 70;
  const multi = encoding === "GSM-7" ? 153 : 67;
  if (units === 0) return { encoding, units, segments: 0, remaining: single, nonGsmCharacters: nonGsm };
  if (units <= single) return { encoding, units, segments: 1, remaining: single - units, nonGsmCharacters: nonGsm };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > multi) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments, remaining: multi - used, nonGsmCharacters: nonGsm };
}
