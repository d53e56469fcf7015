import type { ContactImport } from "@atende/shared";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";

/**
 * POST /contacts/import: a small file is imported during the request (status done); a large one is
 * queued (status queued) and followed by GET /contacts/import/{jobId} or the import-progress events.
 */
export function importContacts(file: File): Promise<ContactImport> {
  const form = new FormData();
  form.append("file", file);
  return api<ContactImport>("/contacts/import", { method: "POST", body: form });
}

export function fetchImport(jobId: string): Promise<ContactImport> {
  return api<ContactImport>(`/contacts/import/${jobId}`);
}

/** Downloads GET /contacts/export (CSV streamed by the server) as a file. */
export function exportContacts(): Promise<void> {
  return downloadFile("/contacts/export", {}, "contatos.csv");
}
