import { z } from "zod";

/** POST /contacts/:id/erase: what was erased (the contact row stays, anonymised). */
export const contactErasure = z.object({
  contactId: z.number(),
  erasedAt: z.string(),
  messages: z.number().describe("messages whose text and media were erased"),
  mediaFiles: z.number().describe("media files removed from storage"),
  webhookDeliveries: z.number().describe("raw Cloud API webhook deliveries naming the contact, deleted"),
  tickets: z.number(),
  notes: z.number().describe("ticket notes deleted"),
  schedules: z.number().describe("schedules deleted"),
  campaignRows: z.number().describe("campaign rows (WhatsApp, SMS, e-mail) anonymised"),
});
export type ContactErasure = z.infer<typeof contactErasure>;
