import { api, fetchBlob } from "../../../lib/api";
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
export function fetchMediaBlob(messageId: number, signal?: AbortSignal): Promise<Blob> {
  return fetchBlob(`/messages/media/${messageId}`, signal);
}
