/**
 * A WhatsApp business-scoped user id (BSUID): two-letter country, a dot, an optional "ENT." (parent
 * id) and up to 128 letters and digits ("BR.1502576394655843"). A contact known only by it (a WhatsApp
 * user with a username, whose number Meta does not share) has it where a number would be.
 */
const WHATSAPP_USER_ID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

export const isWhatsappUserId = (s: string): boolean => WHATSAPP_USER_ID.test(s);

/** A contact's number as forms send it: digits only, or a business-scoped user id kept as it is. */
export const contactNumberValue = (input: string): string => (isWhatsappUserId(input.trim()) ? input.trim() : input.replace(/\D/g, ""));
