import { z } from "zod";
import { partialWithoutDefaults } from "./contacts.js";

export const quickMessageInput = z.object({
  shortcode: z.string({ error: "Obrigatorio" }).trim().min(1, "Obrigatorio").max(100, "Too Long!"),
  message: z.string().max(10000, "Too Long!").default(""),
  /** true: visible to the whole company; false: only to its author. */
  geral: z.boolean().default(true),
});
export type QuickMessageInput = z.input<typeof quickMessageInput>;
export const quickMessageUpdateInput = partialWithoutDefaults(quickMessageInput);

export const quickMessage = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  userId: z.number().nullable(),
  isMedia: z.boolean(),
  /** API path (under /api) that serves the attachment to authenticated users of the company. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QuickMessage = z.infer<typeof quickMessage>;

export const quickMessagesQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  userId: z.coerce.number().int().positive().optional(),
});
export const quickMessagesPage = z.object({ records: z.array(quickMessage), hasMore: z.boolean(), count: z.number() });
export type QuickMessagesPage = z.infer<typeof quickMessagesPage>;

/** Event on company-{id}-quickmessage. */
export type QuickMessageEvent = { action: "create" | "update"; record: QuickMessage } | { action: "delete"; id: number };
