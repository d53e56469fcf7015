import { z } from "zod";
import { requiredString } from "./common.js";

/** Help videos (2-administration §3): platform-wide, managed by super administrators. */
export const helpInput = z.object({
  title: requiredString(1, 200),
  description: z.string().trim().max(2000, "Too Long!").optional().default(""),
  video: z
    .string()
    .trim()
    .max(64, "Too Long!")
    .regex(/^[A-Za-z0-9_-]*$/, "Código do vídeo inválido")
    .optional()
    .default("")
    .describe("The video provider's code (e.g. a YouTube id), not a URL"),
});
export type HelpInput = z.infer<typeof helpInput>;

export const help = z.object({ id: z.number(), title: z.string(), description: z.string(), video: z.string() });
export type Help = z.infer<typeof help>;

/** GET /helps: searchParam, pageNumber → records, hasMore (20 per page). */
export const helpsPage = z.object({ records: z.array(help), hasMore: z.boolean(), count: z.number() });
export type HelpsPage = z.infer<typeof helpsPage>;
