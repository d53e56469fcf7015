import { api, getToken, refreshSession, API_BASE } from "../../../lib/api";

/** Counts of a finished import, with the reason of each rejected row. */
export interface ImportResult {
  imported: number;
  updated: number;
  rejected: number;
  errors: { line?: number; row?: number; reason?: string; message?: string; error?: string }[];
}

/** A large file is imported in the background: the answer names the job, progress comes by events. */
export interface ImportJob {
  jobId: string | number;
  total?: number;
}

export function isImportJob(value: ImportResult | ImportJob): value is ImportJob {
  return (value as ImportJob).jobId !== undefined && (value as ImportResult).imported === undefined;
}

export function importContacts(file: File): Promise<ImportResult | ImportJob> {
  const form = new FormData();
  form.append("file", file);
  return api<ImportResult | ImportJob>("/contacts/import", { method: "POST", body: form });
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
