import type { ContactImport } from "@atende/shared";
import { api, getToken, refreshSession, API_BASE } from "../../../lib/api";

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

/** Downloads GET /contacts/export (CSV streamed by the server) with the bearer token, as a file. */
export async function exportContacts(): Promise<void> {
  const get = () => fetch(`${API_BASE}/contacts/export`, { headers: { authorization: `Bearer ${getToken() ?? ""}` }, credentials: "include" });
  let res = await get();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await get();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? "contatos.csv";
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = decodeURIComponent(name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
