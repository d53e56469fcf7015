import type { ContactErasure } from "@atende/shared";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";

/** Downloads GET /contacts/{id}/export: everything stored about the contact, as JSON (LGPD). */
export function exportContactData(id: number): Promise<void> {
  return downloadFile(`/contacts/${id}/export`, {}, `contato-${id}.json`);
}

/** POST /contacts/{id}/erase: erases the contact's personal data (LGPD); the contact stays, anonymised. */
export function eraseContactData(id: number): Promise<ContactErasure> {
  return api<ContactErasure>(`/contacts/${id}/erase`, { method: "POST" });
}
