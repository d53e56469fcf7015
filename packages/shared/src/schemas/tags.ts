import { z } from "zod";
import { partialWithoutDefaults } from "./contacts.js";
import { LIMITS } from "../limits.js";

/** Tag form (2-administration §5): name at least 3 characters, at most 255. */
export const tagInput = z.object({
  name: z
    .string({ error: "Obrigatorio" })
    .trim()
    .min(1, "Obrigatorio")
    .min(LIMITS.tagNameMin, "Mensagem muito curta")
    .max(LIMITS.tagNameMax, "Too Long!"),
  color: z.string().trim().min(1).max(30).default("#5C59A0"),
  /** 1 shows the tag as a kanban lane. */
  kanban: z.coerce.number().int().min(0).max(1).default(0),
});
export type TagInput = z.infer<typeof tagInput>;
export const tagUpdateInput = partialWithoutDefaults(tagInput).extend({ userId: z.number().int().positive().nullable().optional() });
export type TagUpdateInput = z.infer<typeof tagUpdateInput>;

/** A tag as shown on tickets. */
export const tagRef = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type TagRef = z.infer<typeof tagRef>;

export const tag = tagRef.extend({
  kanban: z.number(),
  userId: z.number().nullable(),
  /** Tickets currently carrying the tag (GET /tags/ only; 0 elsewhere). */
  ticketsCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof tag>;

export const tagsPage = z.object({ tags: z.array(tag), hasMore: z.boolean(), count: z.number() });
export type TagsPage = z.infer<typeof tagsPage>;
export const tagsKanban = z.object({ lista: z.array(tag) });

/** POST /tags/sync: the ticket's complete tag set (tags missing from the list are removed). */
export const tagSyncInput = z.object({
  ticketId: z.coerce.number().int().positive(),
  tags: z.array(z.object({ id: z.coerce.number().int().positive() }).loose()).max(200),
});
export type TagSyncInput = z.infer<typeof tagSyncInput>;

/** Event on company-{id}-tag. */
export type TagEvent = { action: "create" | "update"; tag: Tag } | { action: "delete"; tagId: number };
