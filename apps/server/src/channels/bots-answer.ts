import type { AppContext } from "../core/context.js";
import { onCustomerMessage } from "../domains/prompts/runtime.js";
import { integrationInbound } from "../domains/queue-integrations/runtime.js";
import type { TicketRow } from "../domains/tickets/repository.js";

/**
 * After a customer's message is stored and routed, by either inbound path (one message, or a webhook
 * delivery's batch): a queue's or connection's bot (Typebot, n8n, webhook, Dialogflow) answers while no
 * agent has the ticket; an AI prompt of its queue or connection answers when no bot has taken (or
 * handed over) the ticket. Both queue durable jobs and return at once.
 */
export async function botsAnswer(ctx: AppContext, ticket: TicketRow, messageId: number): Promise<void> {
  await integrationInbound(ctx, ticket, messageId);
  if (!ticket.is_group) await onCustomerMessage(ctx, ticket.company_id, ticket.id, messageId);
}
