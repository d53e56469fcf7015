import type { ContactErasure } from "@atende/shared";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";

/** Downloads GET /contacts/{id}/export: everything stored about the contact (LGPD), a ZIP with a readable page and its JSON. */
export function exportContactData(id: number): Promise<void> {
  return downloadFile(`/contacts/${id}/export`, {}, `dados-pessoais-contato-${id}.zip`);
}

/** POST /contacts/{id}/erase: erases the contact's personal data (LGPD); the contact stays, anonymised. */
export function eraseContactData(id: number): Promise<ContactErasure> {
  return api<ContactErasure>(`/contacts/${id}/erase`, { method: "POST" });
}
