import type { ApiErrorBody, ExternalSendResponse } from "@atende/shared";
import { API_BASE, ApiError } from "../../../lib/api";

export const SEND_PATH = "/messages/send";

/**
 * POST /api/messages/send with a connection's token, exactly as an outside system calls it. Not through
 * `api()`: that one adds the user's own token and treats a 401 as the end of the user's session,
 * while here a 401 only means the connection token is wrong.
 */
async function post(token: string, body: BodyInit, contentType?: string): Promise<ExternalSendResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (contentType) headers["content-type"] = contentType;
  const res = await fetch(`${API_BASE}${SEND_PATH}`, { method: "POST", headers, body, credentials: "omit" });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch (err) {
    // a body that is not JSON (a proxy's error page): its text becomes the error message shown
    data = { message: text || String(err) };
  }
  if (!res.ok) throw new ApiError(res.status, (data as Partial<ApiErrorBody>) ?? {});
  return data as ExternalSendResponse;
}

export function sendText(token: string, input: { number: string; body: string }): Promise<ExternalSendResponse> {
  return post(token, JSON.stringify(input), "application/json");
}

export function sendMedia(token: string, input: { number: string; body: string; files: File[] }): Promise<ExternalSendResponse> {
  const form = new FormData();
  form.append("number", input.number);
  if (input.body) form.append("body", input.body);
  for (const f of input.files) form.append("medias", f, f.name);
  return post(token, form);
}
