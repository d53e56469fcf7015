import type { Contact } from "@atende/shared";
import type { ContactRow } from "./repository.js";

/** CPF (11 digits) or CNPJ (14 digits) punctuation; other documents unchanged. */
export function formatDocument(doc: string): string {
  const d = doc.replace(/\D/g, "");
  if (d.length === 11) return d.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, "$1.$2.$3-$4");
  if (d.length === 14) return d.replace(/(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})/, "$1.$2.$3/$4-$5");
  return doc;
}

export function presentContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    document: row.document,
    formattedDocument: formatDocument(row.document),
    profilePicUrl: row.profile_pic_url,
    isGroup: row.is_group,
    extraInfo: row.extra_info,
    whatsappId: row.whatsapp_id,
    whatsapp: row.whatsapp_id !== null && row.whatsapp_name !== null ? { id: row.whatsapp_id, name: row.whatsapp_name } : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
