import { SYSTEM_QUEUE_NAMES } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { applyVariables } from "../../domains/messages/variables.js";
import { isOpen, type OpeningHoursEntry } from "../../domains/queues/opening-hours.js";
import { companyTimeZone } from "../../domains/companies/repository.js";
import { companySetting } from "../../domains/tickets/company-settings.js";
import { ticketProtocol } from "../../domains/tickets/presenter.js";
import type { TicketPatch } from "../../domains/tickets/repository.js";
import type { WhatsappRow } from "../../domains/whatsapp/repository.js";
import { campaignReplyRoute, type CampaignReplyRoute } from "../../domains/campaign-dispatch/replies.js";

/** The queue the chatbot keeps its tickets in: they stay chatbot=true until moved to another queue. */
export const BOT_QUEUE_NAME: (typeof SYSTEM_QUEUE_NAMES)[number] = "BOT";

/** The ticket state routing reads (locked FOR UPDATE by the inbound transaction). */
export interface RoutingTicket {
  id: number;
  company_id: number;
  status: "pending" | "open" | "paused" | "closed";
  queue_id: number | null;
  chatbot: boolean;
  amount_used_bot_queues: number;
  /** the last menu is older than the connection's timeUseBotQueues minutes */
  menu_expired: boolean;
  is_group: boolean;
  created_at: Date;
  contact_name: string;
}

/** The columns of RoutingTicket over `tickets` ($3 = the connection's timeUseBotQueues). */
export const ROUTING_COLUMNS = `id, company_id, status, queue_id, chatbot, amount_used_bot_queues, is_group, created_at,
  (SELECT c.name FROM contacts c WHERE c.company_id = tickets.company_id AND c.id = tickets.contact_id) AS contact_name,
  ($3::int > 0 AND bot_menu_at IS NOT NULL AND bot_menu_at < now() - make_interval(mins => $3::int)) AS menu_expired`;

export interface RoutingDecision {
  /** Applied to the ticket in the same transaction. */
  patch: TicketPatch & { bot_menu_at?: Date | null };
  /** Automatic messages to send, in order, once the transaction has committed. */
  sends: string[];
}

export function menuText(connection: Pick<WhatsappRow, "greeting_message" | "queues">, vars: Vars): string {
  const greeting = applyVariables(connection.greeting_message, vars).trim();
  const options = connection.queues.map((q, i) => `*${i + 1}* - ${q.name}`).join("\n");
  return greeting ? `${greeting}\n\n${options}` : options;
}

type Vars = { contactName: string; protocol: string };

interface QueueHours {
  name: string;
  greeting_message: string;
  out_of_hours_message: string;
  schedules: OpeningHoursEntry[];
}

/**
 * What routing reads besides the ticket: the company's scheduleType setting (`company` uses the
 * company's schedules, `queue` each queue's own, anything else never closes), whether the company is
 * closed, a queue's hours and texts, the company's time zone, and a new ticket's campaign route. Each
 * is read once per instance: a webhook delivery's new tickets share one (inbound-batch.ts), with their
 * campaign routes read for all of them in one statement; a single message uses its own.
 */
export class RoutingReads {
  private type?: Promise<string>;
  private closed?: Promise<boolean>;
  private zone?: Promise<string>;
  private readonly queues = new Map<number, Promise<QueueHours | null>>();

  constructor(
    private readonly sql: Sql,
    private readonly companyId: number,
    private readonly now: Date,
    /** Campaign routes already read, by ticket id (a ticket not in it has none); absent: read per ticket. */
    private readonly campaignRoutes?: ReadonlyMap<number, CampaignReplyRoute>,
  ) {}

  scheduleType(): Promise<string> {
    return (this.type ??= companySetting(this.sql, this.companyId, "scheduleType"));
  }

  companyClosed(): Promise<boolean> {
    return (this.closed ??= this.sql
      .maybe<{ schedules: OpeningHoursEntry[]; time_zone: string }>("SELECT schedules, time_zone FROM companies WHERE id = $1", [this.companyId])
      .then((row) => !isOpen(row?.schedules ?? [], this.now, row?.time_zone)));
  }

  timeZone(): Promise<string> {
    return (this.zone ??= companyTimeZone(this.sql, this.companyId));
  }

  queueHours(queueId: number): Promise<QueueHours | null> {
    let q = this.queues.get(queueId);
    if (!q) {
      q = this.sql.maybe<QueueHours>("SELECT name, greeting_message, out_of_hours_message, schedules FROM queues WHERE company_id = $1 AND id = $2", [
        this.companyId,
        queueId,
      ]);
      this.queues.set(queueId, q);
    }
    return q;
  }

  async campaignRoute(whatsappId: number, ticketId: number): Promise<CampaignReplyRoute | null> {
    if (this.campaignRoutes) return this.campaignRoutes.get(ticketId) ?? null;
    return campaignReplyRoute(this.sql, this.companyId, whatsappId, ticketId);
  }
}

/** The message for a ticket that has just entered `queueId`: its out-of-hours text when closed, else its greeting. */
async function enterQueue(
  reads: RoutingReads,
  connection: WhatsappRow,
  queueId: number,
  type: string,
  now: Date,
  vars: Vars,
): Promise<{ message: string; bot: boolean }> {
  const q = await reads.queueHours(queueId);
  if (!q) return { message: "", bot: false };
  const bot = q.name === BOT_QUEUE_NAME;
  if (type === "queue" && !isOpen(q.schedules, now, await reads.timeZone())) {
    return { message: applyVariables(q.out_of_hours_message || connection.out_of_hours_message, vars), bot };
  }
  return { message: applyVariables(q.greeting_message, vars), bot };
}

/**
 * What an incoming message does to its ticket's queue:
 * - groups, the connection's own phone and tickets an agent already has (not pending) are never routed;
 * - scheduleType=company and the company closed: the connection's out-of-hours message, the ticket
 *   stays pending (no menu);
 * - one queue on the connection: the ticket is in it from creation; its greeting (or, with
 *   scheduleType=queue and the queue closed, its out-of-hours message) is sent;
 * - several queues: the greeting with a numbered menu ("*1* - Vendas"); a valid number moves the ticket
 *   to that queue (with its greeting or out-of-hours message); anything else resends the menu, until
 *   maxUseBotQueues menus were sent: then the ticket goes to the connection's transfer queue, or
 *   stays pending without a queue. A reply after timeUseBotQueues minutes restarts the menu;
 * - a ticket in the queue named BOT keeps chatbot=true until it is moved to another queue;
 * - several queues and a bot of the connection (whatsapps.integration_id): no menu on creation, the bot
 *   answers; when it hands the ticket over still without a queue, the menu starts (menuAfterBot).
 */
export async function decideRoute(
  sql: Sql,
  t: RoutingTicket,
  connection: WhatsappRow,
  body: string,
  created: boolean,
  now = new Date(),
  reads = new RoutingReads(sql, t.company_id, now),
): Promise<RoutingDecision> {
  const none: RoutingDecision = { patch: {}, sends: [] };
  if (t.is_group || t.status !== "pending") return none;
  const queues = connection.queues;
  const vars = { contactName: t.contact_name, protocol: ticketProtocol(t) };
  const inMenu = t.chatbot && t.queue_id === null;
  if (!created && !inMenu) return none;

  const type = await reads.scheduleType();
  if (created) {
    // a customer answering a campaign goes to the campaign's queue (domains/campaign-dispatch/replies.ts)
    const campaign = await reads.campaignRoute(connection.id, t.id);
    const campaignQueue = campaign?.queueId ?? null;
    if (type === "company" && (await reads.companyClosed())) {
      const text = applyVariables(connection.out_of_hours_message, vars);
      return { patch: { chatbot: false, ...(campaignQueue !== null ? { queue_id: campaignQueue } : {}) }, sends: text.trim() ? [text] : [] };
    }
    if (campaignQueue !== null) {
      // the campaign's bot answers the reply (domains/queue-integrations runtime: use_integration), not the queue's greeting
      if (campaign?.integrationId) return { patch: { queue_id: campaignQueue, chatbot: false, integration_id: campaign.integrationId, use_integration: true }, sends: [] };
      const entered = await enterQueue(reads, connection, campaignQueue, type, now, vars);
      return { patch: { queue_id: campaignQueue, chatbot: entered.bot }, sends: entered.message.trim() ? [entered.message] : [] };
    }
    if (queues.length === 0) return none;
    // the connection's own bot (queue integration) talks first; the menu waits for its hand-over (menuAfterBot)
    if (queues.length > 1 && t.queue_id === null && connection.integration_id !== null) return none;
    if (queues.length === 1 || t.queue_id !== null) {
      const entered = await enterQueue(reads, connection, t.queue_id ?? queues[0]!.id, type, now, vars);
      return { patch: { queue_id: t.queue_id ?? queues[0]!.id, chatbot: entered.bot }, sends: entered.message.trim() ? [entered.message] : [] };
    }
    return { patch: { chatbot: true, amount_used_bot_queues: 1, bot_menu_at: now }, sends: [menuText(connection, vars)] };
  }

  // in the menu
  if (queues.length === 0) return { patch: { chatbot: false }, sends: [] };
  if (t.menu_expired) return { patch: { amount_used_bot_queues: 1, bot_menu_at: now }, sends: [menuText(connection, vars)] };
  const choice = /^\s*\*?(\d{1,3})\*?\s*$/.exec(body)?.[1];
  const queue = choice !== undefined ? queues[Number(choice) - 1] : undefined;
  if (queue) {
    const entered = await enterQueue(reads, connection, queue.id, type, now, vars);
    return { patch: { queue_id: queue.id, chatbot: entered.bot, bot_menu_at: null }, sends: entered.message.trim() ? [entered.message] : [] };
  }
  const max = connection.max_use_bot_queues > 0 ? connection.max_use_bot_queues : Infinity;
  if (t.amount_used_bot_queues < max) {
    return { patch: { amount_used_bot_queues: t.amount_used_bot_queues + 1, bot_menu_at: now }, sends: [menuText(connection, vars)] };
  }
  // attempts exhausted
  if (connection.transfer_queue_id !== null) {
    const q = await reads.queueHours(connection.transfer_queue_id);
    if (q) return { patch: { queue_id: connection.transfer_queue_id, chatbot: q.name === BOT_QUEUE_NAME, bot_menu_at: null }, sends: [] };
  }
  return { patch: { chatbot: false, bot_menu_at: null }, sends: [] };
}

/**
 * The queue menu a connection's bot leaves behind: when it hands over a ticket that is still pending
 * without a queue or an agent on a connection with several queues, the menu starts as on a new ticket.
 */
export function menuAfterBot(t: Pick<RoutingTicket, "status" | "queue_id" | "is_group" | "contact_name" | "id" | "created_at">, connection: WhatsappRow, now = new Date()): RoutingDecision {
  if (t.status !== "pending" || t.queue_id !== null || t.is_group || connection.queues.length < 2) return { patch: {}, sends: [] };
  const vars = { contactName: t.contact_name, protocol: ticketProtocol(t) };
  return { patch: { chatbot: true, amount_used_bot_queues: 1, bot_menu_at: now }, sends: [menuText(connection, vars)] };
}
