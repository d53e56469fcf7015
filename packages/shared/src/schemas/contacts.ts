import { contactNumberValue } from "../whatsapp-user-id.js";
import { z } from "zod";
import { MSG } from "./common.js";

/**
 * The update variant of a create schema: every field optional and no defaults, so a partial update
 * never resets a field the client did not send.
 */
export function partialWithoutDefaults<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    let f = field as z.ZodType;
    while (f instanceof z.ZodDefault) f = f.unwrap() as z.ZodType;
    shape[key] = f.optional();
  }
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof T]: z.ZodOptional<T[K]> }>;
}

export const extraInfoItem = z.object({
  name: z.string().trim().max(100, MSG.tooLong),
  value: z.string().trim().max(1000, MSG.tooLong),
});
export type ExtraInfoItem = z.infer<typeof extraInfoItem>;

/**
 * A phone number as digits only (non-digits are stripped first), 8 to 50 digits; a WhatsApp
 * business-scoped user id (a contact known only by it) is kept as it is.
 */
export const contactNumber = z
  .string({ error: MSG.required })
  .transform(contactNumberValue)
  .pipe(z.string().min(1, MSG.required).min(8, MSG.tooShort).max(50, MSG.tooLong));

/** Contact form (1-core §5): name 2-50, number 8-50 digits, e-mail valid when given. */
export const contactInput = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(2, MSG.tooShort).max(50, MSG.tooLong),
  number: contactNumber,
  email: z.union([z.literal(""), z.string().trim().email(MSG.invalidEmail).max(254, MSG.tooLong)]).default(""),
  document: z.string().trim().max(30, MSG.tooLong).default(""),
  extraInfo: z.array(extraInfoItem).max(50).default([]),
  whatsappId: z.number().int().positive().nullable().optional(),
});
export type ContactInput = z.input<typeof contactInput>;
export const contactUpdateInput = partialWithoutDefaults(contactInput);
export type ContactUpdateInput = z.input<typeof contactUpdateInput>;

/** The contact as shown on tickets and messages. */
export const contactRef = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
});
export type ContactRef = z.infer<typeof contactRef>;

export const contact = contactRef.extend({
  email: z.string(),
  document: z.string(),
  /** The document with CPF/CNPJ punctuation when it has 11 or 14 digits. */
  formattedDocument: z.string(),
  extraInfo: z.array(extraInfoItem),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof contact>;

export const contactsPage = z.object({ contacts: z.array(contact), hasMore: z.boolean(), count: z.number() });
export type ContactsPage = z.infer<typeof contactsPage>;

export const contactsListQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
});

/** Event on company-{id}-contact. */
export type ContactEvent = { action: "create" | "update"; contact: Contact } | { action: "delete"; contactId: number };
