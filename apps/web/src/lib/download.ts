import type { ApiErrorBody } from "@atende/shared";
import { API_BASE, ApiError, getToken, refreshSession, safeJson } from "./api";

/**
 * Downloads a file the server streams (CSV exports) with the bearer token, refreshing the session once
 * on a refusal, and saves it under the name of its Content-Disposition (or `fallbackName`). A refusal
 * is thrown as an ApiError with the server's code, so toastError shows its text.
 */
export async function downloadFile(path: string, query: Record<string, string>, fallbackName: string): Promise<void> {
  const search = new URLSearchParams(query).toString();
  const get = () => fetch(`${API_BASE}${path}${search ? `?${search}` : ""}`, { headers: { authorization: `Bearer ${getToken() ?? ""}` }, credentials: "include" });
  let res = await get();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await get();
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, (text ? safeJson(text) : {}) as Partial<ApiErrorBody>);
  }
  const blob = await res.blob();
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name ? decodeURIComponent(name) : fallbackName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
