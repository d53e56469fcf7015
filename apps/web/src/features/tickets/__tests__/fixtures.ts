import type { Message, Ticket } from "../types";

/** A ticket as GET /tickets returns it; only what a test names differs. */
export function ticketFixture(over: Partial<Ticket> & Pick<Ticket, "id">): Ticket {
  return {
    uuid: `uuid-${over.id}`,
    status: "open",
    userId: 7,
    user: { id: 7, name: "Ana" },
    queueId: null,
    queue: null,
    transferQueueId: null,
    whatsappId: 1,
    whatsapp: null,
    contactId: 100 + over.id,
    contact: { id: 100 + over.id, name: `Contact ${over.id}`, number: `55119999900${over.id}`, profilePicUrl: "", isGroup: false },
    tags: [],
    lastMessage: "",
    lastMessageAt: null,
    lastMessageAck: null,
    unreadMessages: 0,
    isGroup: false,
    chatbot: false,
    fromMe: false,
    originFromMe: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    code: `P-${over.id}`,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
    ...over,
  };
}

export function messageFixture(over: Partial<Message> & Pick<Message, "id" | "ticketId" | "createdAt">): Message {
  return {
    contactId: null,
    body: `message ${over.id}`,
    fromMe: false,
    mediaType: "chat",
    mediaUrl: null,
    mediaName: null,
    mimetype: null,
    ack: 0,
    read: true,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    userId: null,
    user: null,
    updatedAt: over.createdAt,
    ...over,
  };
}
