import { isInlineMediaType } from "@atende/shared";
import { api, API_BASE, ApiError, getToken, refreshSession } from "../../../lib/api";
import type { Message, MessageSendResponse, MessagesPage } from "../types";

export function fetchMessages(ticketId: number, pageNumber: number, signal?: AbortSignal): Promise<MessagesPage> {
  return api<MessagesPage>(`/messages/${ticketId}`, { query: { pageNumber }, signal });
}

export interface SendText {
  body: string;
  quotedMsg?: { id: number } | null;
  sign: boolean;
}

export function sendTextMessage(ticketId: number, data: SendText): Promise<MessageSendResponse> {
  return api<MessageSendResponse>(`/messages/${ticketId}`, { method: "POST", body: data });
}

export function sendMediaMessage(ticketId: number, files: File[], body: string, sign: boolean, quotedMsgId?: number | null): Promise<MessageSendResponse> {
  const form = new FormData();
  for (const f of files) form.append("medias", f, f.name);
  form.append("body", body);
  form.append("sign", String(sign));
  if (quotedMsgId) form.append("quotedMsg", JSON.stringify({ id: quotedMsgId }));
  return api<MessageSendResponse>(`/messages/${ticketId}`, { method: "POST", body: form });
}

export function deleteMessage(id: number): Promise<Message> {
  return api<Message>(`/messages/${id}`, { method: "DELETE" });
}

/** Media is private: fetched with the bearer token and shown through an object URL. */
export async function fetchMediaBlob(messageId: number, signal?: AbortSignal): Promise<Blob> {
  const get = () =>
    fetch(`${API_BASE}/messages/media/${messageId}`, {
      headers: { authorization: `Bearer ${getToken() ?? ""}` },
      credentials: "include",
      signal,
    });
  let res = await get();
  if ((res.status === 401 || res.status === 403) && (await refreshSession())) res = await get();
  if (!res.ok) throw new ApiError(res.status, {});
  const blob = await res.blob();
  // a blob: URL is a document of this origin when opened: a type the server would not show inline (SVG, HTML...) stays opaque
  return isInlineMediaType(blob.type) ? blob : new Blob([blob], { type: "application/octet-stream" });
}
