import type { Queue, QuickMessage, UserListItem, Whatsapp } from "@atende/shared";

/** The workspace reads the shared contract (packages/shared/src/schemas); a few narrow views of it. */
export type {
  Contact,
  ContactRef,
  HiddenMessagesRun,
  Message,
  MessagesPage,
  MessageSendResponse,
  QuickMessage,
  TagRef,
  Ticket,
  TicketNote,
  TicketsPage,
  TicketSyncResponse,
  TicketUpdateResponse,
} from "@atende/shared";

export type QueueRef = Pick<Queue, "id" | "name" | "color">;
export type WhatsappRef = Pick<Whatsapp, "id" | "name" | "status"> & Partial<Pick<Whatsapp, "isDefault" | "isOfficial" | "provider">>;
export type UserRef = UserListItem & { email?: string };
export type QuickReply = Pick<QuickMessage, "id" | "shortcode" | "message" | "mediaPath">;

export type ListTab = "open" | "pending" | "closed" | "search";
