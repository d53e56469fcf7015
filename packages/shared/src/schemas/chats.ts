import { z } from "zod";

/** Internal chat (spec 3 §3, 1-core §3): the spec's validation messages, verbatim. */
export const CHAT_MESSAGES = {
  titleRequired: "Por favor, preencha o título da conversa.",
  usersRequired: "Por favor, selecione pelo menos um usuário.",
} as const;

/** The spec's front end sends the chosen users as objects ({ id, name }); plain ids are accepted too. */
const memberRef = z.union([z.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).transform((u) => u.id)]);

export const chatInput = z.object({
  title: z.string({ error: CHAT_MESSAGES.titleRequired }).trim().min(1, CHAT_MESSAGES.titleRequired).max(200, "Too Long!"),
  users: z.array(memberRef, { error: CHAT_MESSAGES.usersRequired }).min(1, CHAT_MESSAGES.usersRequired).max(500),
});
export type ChatInput = z.input<typeof chatInput>;

export const chatMember = z.object({ userId: z.number(), unreads: z.number(), user: z.object({ id: z.number(), name: z.string() }) });
export const chat = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(chatMember),
});
export type Chat = z.infer<typeof chat>;

export const chatsPage = z.object({ records: z.array(chat), hasMore: z.boolean(), count: z.number() });
export type ChatsPage = z.infer<typeof chatsPage>;

export const chatMessageInput = z.object({ message: z.string({ error: "Obrigatório" }).trim().min(1, "Obrigatório").max(10000, "Too Long!") });

export const chatMessage = z.object({
  id: z.number(),
  chatId: z.number(),
  message: z.string(),
  senderId: z.number().nullable(),
  sender: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const chatMessagesPage = z.object({ records: z.array(chatMessage), hasMore: z.boolean(), count: z.number() });
export type ChatMessagesPage = z.infer<typeof chatMessagesPage>;

/** GET /chats/:id takes the number or the uuid (the web opens /chats/{uuid}). */
export const chatRefParam = z.object({ id: z.union([z.coerce.number().int().positive(), z.uuid()]) });

/** Events on company-{id}-chat, sent to the chat's members only. */
export type ChatEvent =
  | { action: "create" | "update"; record: Chat }
  | { action: "delete"; id: number }
  | { action: "new-message"; record: Chat; newMessage: ChatMessage };
