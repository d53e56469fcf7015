import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Chat, ChatEvent, ChatMessagesPage } from "@atende/shared";
import { removePagedItem, upsertPagedItem } from "../../../components/use-paged-list";
import { chatKeys } from "../api/chats";

/**
 * One place applies a chat event to every cache: the lists (a chat with a new message goes to the top),
 * the open chat, and its messages (the new one appended once, whoever's tab sent it).
 */
export function applyChatEvent(client: QueryClient, event: ChatEvent): void {
  if (event.action === "delete") {
    removePagedItem<Chat>(client, chatKeys.lists, event.id);
    client.removeQueries({ queryKey: chatKeys.messages(event.id) });
    return;
  }
  const chat = event.record;
  if (event.action === "new-message") removePagedItem<Chat>(client, chatKeys.lists, chat.id);
  upsertPagedItem(client, chatKeys.lists, chat);
  client.setQueryData(chatKeys.chat(chat.uuid), chat);
  if (event.action !== "new-message") return;
  const message = event.newMessage;
  client.setQueryData<InfiniteData<ChatMessagesPage, number>>(chatKeys.messages(chat.id), (data) => {
    if (!data || data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, records: [message, ...first.records], count: first.count + 1 }, ...rest] };
  });
}

/** The user's unread messages in a chat. */
export const unreadsFor = (chat: Chat, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
