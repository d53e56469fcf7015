import { isJidGroup, isLidUser, isPnUser, jidDecode, type WAMessageKey } from "baileys";

/** The user part of a JID without device or agent ("5511999990000:3@s.whatsapp.net" → "5511999990000"). */
export function userOf(jid: string | null | undefined): string | null {
  if (!jid) return null;
  return jidDecode(jid)?.user ?? null;
}

/** A phone-number JID's digits, or null for anything else (LID, group, broadcast). */
export function pnDigits(jid: string | null | undefined): string | null {
  if (!jid || !isPnUser(jid)) return null;
  const user = userOf(jid);
  return user && /^\d+$/.test(user) ? user : null;
}

/** Key fields that name the phone number behind a LID, across Baileys 7 releases. */
type KeyWithAlternates = WAMessageKey & { senderPn?: string | null; participantPn?: string | null };

/** The phone-number JID the library attached to a message key whose chat (or sender) is a LID. */
export function alternatePn(key: WAMessageKey): string | null {
  const k = key as KeyWithAlternates;
  const candidates = isJidGroup(k.remoteJid ?? undefined)
    ? [k.participantAlt, k.participantPn]
    : [k.remoteJidAlt, k.senderPn, k.participantAlt, k.participantPn];
  for (const c of candidates) if (pnDigits(c)) return pnDigits(c);
  return null;
}

export { isLidUser };

/** The JID to send to for a contact's number: groups keep their id ("120363...", "5511...-1600000000"). */
export function jidFor(number: string, knownGroups: ReadonlySet<string>): string {
  if (number.includes("@")) return number;
  const isGroup = knownGroups.has(number) || number.includes("-") || number.length >= 18;
  return `${number}@${isGroup ? "g.us" : "s.whatsapp.net"}`;
}
