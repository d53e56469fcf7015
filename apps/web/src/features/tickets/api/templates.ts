import type { OfficialTemplateSendInput, WhatsappTemplate } from "@atende/shared";
import { api } from "../../../lib/api";
import type { Message } from "../types";

export const ticketTemplatesKey = (ticketId: number) => ["tickets", ticketId, "templates"] as const;

/** The approved templates of the ticket connection's business. */
export function fetchTicketTemplates(ticketId: number): Promise<WhatsappTemplate[]> {
  return api<WhatsappTemplate[]>(`/officialWhatsapp/ticket/${ticketId}/templates`);
}

export function sendTicketTemplate(ticketId: number, input: OfficialTemplateSendInput): Promise<Message> {
  return api<Message>(`/officialWhatsapp/ticket/${ticketId}/template`, { method: "POST", body: input });
}
