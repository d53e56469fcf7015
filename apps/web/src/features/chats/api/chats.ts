import type { Chat, ChatMessage, ChatMessagesPage, ChatsPage, UserListItem } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const chatKeys = {
  all: ["chats"] as const,
  /** Every cached search of the chat list (the prefix live events patch). */
  lists: ["chats", "list"] as const,
  list: (search: string) => ["chats", "list", search] as const,
  chat: (ref: string) => ["chats", "one", ref] as const,
  messages: (chatId: number) => ["chats", "messages", chatId] as const,
  users: ["chats", "users"] as const,
};

export async function fetchChatsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Chat>> {
  const res = await api<ChatsPage>("/chats", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.records, hasMore: res.hasMore, count: res.count };
}

/** One chat by its uuid (the /chats/{uuid} address) or id. */
export function fetchChat(ref: string | number, signal?: AbortSignal): Promise<Chat> {
  return api<Chat>(`/chats/${ref}`, { signal });
}

export interface ChatForm {
  title: string;
  users: number[];
}

export function createChat(input: ChatForm): Promise<Chat> {
  return api<Chat>("/chats", { method: "POST", body: input });
}

export function updateChat(id: number, input: ChatForm): Promise<Chat> {
  return api<Chat>(`/chats/${id}`, { method: "PUT", body: input });
}

export function deleteChat(id: number): Promise<unknown> {
  return api(`/chats/${id}`, { method: "DELETE" });
}

export function fetchChatMessages(chatId: number, pageNumber: number, signal?: AbortSignal): Promise<ChatMessagesPage> {
  return api<ChatMessagesPage>(`/chats/${chatId}/messages`, { query: { pageNumber }, signal });
}

export function sendChatMessage(chatId: number, message: string): Promise<ChatMessage> {
  return api<ChatMessage>(`/chats/${chatId}/messages`, { method: "POST", body: { message } });
}

export function markChatRead(chatId: number, userId: number): Promise<Chat> {
  return api<Chat>(`/chats/${chatId}/read`, { method: "POST", body: { userId } });
}

/** The company's users (id and name), for choosing a chat's members. */
export function fetchCompanyUsers(signal?: AbortSignal): Promise<UserListItem[]> {
  return api<UserListItem[]>("/users/list", { signal });
}
