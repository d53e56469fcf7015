import { z } from "zod";

/**
 * The invalid rows of an SMS or e-mail campaign's CSV, for the lists' dialog (the WhatsApp list's
 * "invalid rows" shape): GET /sms/campaigns/{id}/invalid-rows/ and /email/campaigns/{id}/invalid-rows/.
 * Rows found invalid by the analysis, and rows skipped (never sent: a cancel, an opt-out since).
 */
export const INVALID_ROWS_PAGE_SIZE = 50;

export const invalidRowsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(INVALID_ROWS_PAGE_SIZE),
});

export const invalidRow = z.object({
  id: z.number(),
  row_number: z.number().describe("The CSV line (1 = the first line after the header)"),
  phone: z.string(),
  email: z.string(),
  reason: z.string(),
});
export type InvalidRow = z.infer<typeof invalidRow>;

export const invalidRowsPage = z.object({ results: z.array(invalidRow), count: z.number() });
export type InvalidRowsPage = z.infer<typeof invalidRowsPage>;
