/** Opt-out list (issue 16): the channels it covers and the replies that put a phone on it. */
export const OPT_OUT_CHANNELS = ["sms", "email"] as const;
export type OptOutChannel = (typeof OPT_OUT_CHANNELS)[number];
/** `bounce`: a hard bounce (RFC 3464 report, Status 5.x.x) of an e-mail campaign message. */
export const OPT_OUT_SOURCES = ["reply", "unsubscribe", "admin", "bounce"] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** Replies that ask to stop receiving messages (pt, en, es), compared without case, accents or punctuation. */
export const OPT_OUT_REPLY_WORDS = ["sair", "parar", "pare", "stop", "cancelar", "descadastrar", "remover", "unsubscribe", "baja"] as const;

const replyKey = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, " ")
    .trim()
    .replace(/\s+/g, " ");

/** True when the whole reply is one of the opt-out words (so "não quero parar de receber" does not count). */
export function isOptOutReply(text: string): boolean {
  const key = replyKey(text);
  return (OPT_OUT_REPLY_WORDS as readonly string[]).includes(key);
}

/** The address as stored: lower-case trimmed e-mail; digits only for a phone (already normalised by the caller). */
export function optOutAddressKey(channel: OptOutChannel, address: string): string {
  return channel === "email" ? address.trim().toLowerCase() : address.replace(/\D/g, "");
}
