import { z } from "zod";

/** Announcements (spec 3 §3): platform-wide notices written by super administrators. */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
/** Image types an announcement may carry (spec: png, jpg, jpeg). */
export const ANNOUNCEMENT_IMAGE_TYPES = ["image/png", "image/jpeg"] as const;
export const ANNOUNCEMENT_IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg"] as const;

const required = "Obrigatório";
export const announcementInput = z.object({
  title: z.string({ error: required }).trim().min(1, required).max(200, "Too Long!"),
  text: z.string({ error: required }).trim().min(1, required).max(5000, "Too Long!"),
  priority: z.coerce
    .number()
    .int()
    .refine((p): p is AnnouncementPriority => (ANNOUNCEMENT_PRIORITIES as readonly number[]).includes(p), "Prioridade inválida")
    .default(3),
  /** true: shown to everyone; false: kept, shown to no one. The spec's front end may send 1/0 or "true"/"false". */
  status: z.preprocess((v) => (v === 1 || v === "1" || v === "true" ? true : v === 0 || v === "0" || v === "false" ? false : v), z.boolean()).default(true),
});
export type AnnouncementInput = z.input<typeof announcementInput>;

export const announcement = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  /** API path (under /api) serving the image to signed-in users, or null. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof announcement>;

export const announcementsQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  /** Only the active ones (the app bar's list); users without the super flag always get only those. */
  active: z.enum(["true", "false"]).optional(),
});

/** GET /announcements: records, hasMore (20 a page), count, and how many active ones the user has not seen. */
export const announcementsPage = z.object({ records: z.array(announcement), hasMore: z.boolean(), count: z.number(), unseen: z.number() });
export type AnnouncementsPage = z.infer<typeof announcementsPage>;

/** Event on company-announcement (every signed-in socket). */
export type AnnouncementEvent = { action: "create" | "update"; record: Announcement } | { action: "delete"; id: number };
