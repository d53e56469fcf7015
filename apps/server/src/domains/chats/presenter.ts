import type { Chat, ChatMessage } from "@atende/shared";
import type { ChatMessageRow, ChatRow } from "./repository.js";

export function presentChat(row: ChatRow): Chat {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    ownerId: row.owner_id,
    lastMessage: row.last_message,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    users: row.users,
  };
}

export function presentChatMessage(row: ChatMessageRow): ChatMessage {
  return {
    id: Number(row.id),
    chatId: row.chat_id,
    message: row.message,
    senderId: row.sender_id,
    sender: row.sender_id !== null && row.sender_name !== null ? { id: row.sender_id, name: row.sender_name } : null,
    createdAt: row.created_at.toISOString(),
  };
}
