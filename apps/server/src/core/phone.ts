import { isWhatsappUserId } from "@atende/shared";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { LRUCache } from "lru-cache";

/**
 * Phone numbers, the one place the server reads them. A number is stored as its E.164 digits without
 * the "+" ("5511988887777"); input may carry spaces, dashes, parentheses, a "+" or no country code at
 * all (then it is read as Brazilian, the product's home).
 *
 * Brazil's mobiles gained a ninth digit between 2012 and 2016, but WhatsApp still identifies many
 * older accounts by the 8-digit form (55 11 8888-7777): both forms are the same person. The stored
 * form is the current one (with the 9); `phoneVariants` gives the forms a lookup must also match.
 */

const BR_MOBILE_WITHOUT_NINE = /^55([1-9][0-9])([6-9][0-9]{7})$/;
const BR_MOBILE_WITH_NINE = /^55([1-9][0-9])9([6-9][0-9]{7})$/;


/** "551188887777" → "5511988887777" (a Brazilian mobile in its 8-digit form gets its ninth digit). */
function withNinthDigit(digits: string): string {
  const m = BR_MOBILE_WITHOUT_NINE.exec(digits);
  return m ? `55${m[1]}9${m[2]}` : digits;
}

/**
 * The stored form of a phone number, or null when the input cannot be one (too short or long for
 * any country). A number with a country code is kept as written (after the ninth digit rule) even
 * when libphonenumber does not know its range, so nothing a customer uses is refused; one without
 * (10-11 digits that are a valid Brazilian number) gets 55.
 */
export function normalizePhone(input: string): string | null {
  // pure and on the webhook's hot path (every inbound message's sender): libphonenumber's parse was
  // 9 % of the server's CPU at 1,000 messages a second from 2,000 customers
  const hit = normalized.get(input);
  if (hit !== undefined) return hit === NOT_A_PHONE ? null : hit;
  const out = normalizeUncached(input);
  normalized.set(input, out ?? NOT_A_PHONE);
  return out;
}

const NOT_A_PHONE = "";
const normalized = new LRUCache<string, string>({ max: 20_000 });

function normalizeUncached(input: string): string | null {
  const trimmed = input.trim();
  let digits = trimmed.replace(/\D/g, "");
  if (trimmed.startsWith("00")) digits = digits.slice(2);
  if (digits.length < 8 || digits.length > 15) return null;
  const international = withNinthDigit(digits);
  const intl = parsePhoneNumberFromString(`+${international}`);
  if (intl?.isValid()) return intl.number.slice(1);
  if (!trimmed.startsWith("+") && (digits.length === 10 || digits.length === 11)) {
    const national = withNinthDigit(`55${digits}`);
    if (parsePhoneNumberFromString(`+${national}`)?.isValid()) return national;
  }
  return intl?.isPossible() ? international : null;
}

/** Every form WhatsApp may use for a stored number: itself and, for a Brazilian mobile, the 8-digit form. */
export function phoneVariants(stored: string): string[] {
  const m = BR_MOBILE_WITH_NINE.exec(stored);
  return m ? [stored, `55${m[1]}${m[2]}`] : [stored];
}

/**
 * The key a WhatsApp conversation is stored under: a phone number in its stored form, a
 * business-scoped user id as it is, and a group id untouched.
 */
export function contactKey(address: string, isGroup = false): string {
  if (isGroup || isWhatsappUserId(address)) return address;
  return normalizePhone(address) ?? address.replace(/\D/g, "");
}

/** Every stored key a WhatsApp address may be found under (see phoneVariants). */
export const contactKeys = (address: string, isGroup = false): string[] =>
  isGroup || isWhatsappUserId(address) ? [address] : phoneVariants(contactKey(address));
