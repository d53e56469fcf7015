import { z } from "zod";

/** The form messages of spec 1-core §5 / 2-administration §5. */
export const MSG = {
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  required: "Required",
  invalidEmail: "Invalid email",
} as const;

export const requiredString = (min: number, max: number) =>
  z.string({ error: MSG.required }).trim().min(1, MSG.required).min(min, MSG.tooShort).max(max, MSG.tooLong);

export const emailField = z.string({ error: MSG.required }).trim().min(1, MSG.required).email(MSG.invalidEmail).max(254, MSG.tooLong);

export const idParam = z.object({ id: z.coerce.number().int().positive() });
export type IdParam = z.infer<typeof idParam>;

export const pageQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});

export const messageResponse = z.object({ message: z.string() });

/** A date as YYYY-MM-DD. */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Invalid date");
export const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM");
