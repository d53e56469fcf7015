import { z } from "zod";

const rows = z.array(z.record(z.string(), z.unknown()));

/**
 * GET /contacts/:id/export: everything stored about one contact (LGPD, right of access), as one JSON
 * document. Rows keep the database's column names, so nothing stored is left out by a renaming.
 */
export const contactExport = z.object({
  exportedAt: z.string(),
  company: z.object({ id: z.number(), name: z.string() }),
  contact: z.record(z.string(), z.unknown()),
  tickets: rows.describe("the contact's tickets, with their tags"),
  messages: rows.describe("every message of the contact's tickets; media as file name and type"),
  notes: rows,
  schedules: rows,
  ratings: rows,
  campaignRecipients: rows.describe("WhatsApp campaign rows whose phone is the contact's number"),
  smsCampaignRecipients: rows,
  emailCampaignRecipients: rows.describe("e-mail campaign rows whose address is the contact's e-mail or whose phone is its number"),
  optOuts: rows,
});
export type ContactExport = z.infer<typeof contactExport>;

/** POST /contacts/:id/erase: what was erased (the contact row stays, anonymised). */
export const contactErasure = z.object({
  contactId: z.number(),
  erasedAt: z.string(),
  messages: z.number().describe("messages whose text and media were erased"),
  mediaFiles: z.number().describe("media files removed from storage"),
  tickets: z.number(),
  notes: z.number().describe("ticket notes deleted"),
  schedules: z.number().describe("schedules deleted"),
  campaignRows: z.number().describe("campaign rows (WhatsApp, SMS, e-mail) anonymised"),
});
export type ContactErasure = z.infer<typeof contactErasure>;
