/** What one bot turn produced: texts to send in order, and whether the bot hands the ticket to a human. */
export interface BotTurn {
  replies: string[];
  handOver: boolean;
}

/** The customer's message and its conversation, as every provider sees it. */
export interface BotInput {
  text: string;
  ticket: { id: number; uuid: string; status: string; queueId: number | null; whatsappId: number | null };
  contact: { id: number; name: string; number: string };
  message: { id: number; body: string; mediaType: string; createdAt: string };
}
