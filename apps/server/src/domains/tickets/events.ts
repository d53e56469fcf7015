import { canSeeTicket, channel, isSystemQueueName, type Message, type Ticket } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import { presentTicket } from "./presenter.js";
import type { TicketRow } from "./repository.js";
import { settingEnabled } from "./company-settings.js";
import { companyRestrictedQueueIds } from "./visibility.js";

type RoomTicket = Pick<TicketRow, "id" | "company_id" | "status" | "queue_id" | "queue_name" | "transfer_queue_id" | "user_id">;

interface MemberRow {
  id: number;
  profile: "admin" | "supervisor" | "user";
  super: boolean;
  all_ticket: "enable" | "disable";
  queue_ids: number[];
}

/**
 * The sockets that receive a ticket's events: exactly the users for whom `canSeeTicket` (packages/
 * shared) holds with the widest view they may switch on (show all). The rule, room by room:
 * admins and super users (admin room), the assignee (user room), supervisors (show all), the
 * members of the ticket's queue, and for a pending ticket without a queue the allTicket users.
 * A ticket that restrictSystemQueuesVisibility hides (system queue with a transfer queue) goes, beyond
 * admins and the assignee, to the transfer queue's members that the rule lets through, named one by one.
 */
export async function ticketRooms(ctx: AppContext, t: RoomTicket): Promise<string[]> {
  const c = t.company_id;
  const list = [rooms.profile(c, "admin")];
  if (t.user_id !== null) list.push(rooms.user(t.user_id));
  if (t.queue_id !== null && t.transfer_queue_id !== null && t.queue_name !== null && isSystemQueueName(t.queue_name)) {
    const restricted = await companyRestrictedQueueIds(ctx.sql, c);
    if (restricted.includes(t.queue_id)) {
      for (const id of await restrictedAudience(ctx, t, restricted)) list.push(rooms.user(id));
      return list;
    }
  }
  list.push(rooms.profile(c, "supervisor"));
  if (t.queue_id !== null) list.push(rooms.queue(c, t.queue_id));
  else if (t.status === "pending") list.push(rooms.allTicket(c));
  return list;
}

/** The transfer queue's members who may see a restricted ticket (the rule decides, per user). */
async function restrictedAudience(ctx: AppContext, t: RoomTicket, restricted: number[]): Promise<number[]> {
  const members = await ctx.sql.many<MemberRow>(
    `SELECT u.id, u.profile, u.super, u.all_ticket,
            COALESCE((SELECT array_agg(q.queue_id) FROM user_queues q WHERE q.company_id = u.company_id AND q.user_id = u.id), '{}') AS queue_ids
       FROM users u
       JOIN user_queues m ON m.company_id = u.company_id AND m.user_id = u.id AND m.queue_id = $2
      WHERE u.company_id = $1`,
    [t.company_id, t.transfer_queue_id],
  );
  const ticket = { status: t.status, userId: t.user_id, queueId: t.queue_id, transferQueueId: t.transfer_queue_id };
  return members
    .filter((u) =>
      canSeeTicket({ id: u.id, profile: u.profile, super: u.super, allTicket: u.all_ticket, queueIds: u.queue_ids }, ticket, {
        restrictedQueueIds: restricted,
        showAll: true,
      }),
    )
    .map((u) => u.id);
}

async function roomsFor(ctx: AppContext, current: RoomTicket, previous?: RoomTicket | null): Promise<string[]> {
  const list = await ticketRooms(ctx, current);
  if (previous) for (const r of await ticketRooms(ctx, previous)) if (!list.includes(r)) list.push(r);
  return list;
}

/** `company-{id}-ticket` update; `previous` adds the rooms that saw the ticket before a move. */
export async function emitTicketUpdate(ctx: AppContext, row: TicketRow, previous?: RoomTicket | null): Promise<Ticket> {
  const ticket = presentTicket(row);
  ctx.realtime.emit(await roomsFor(ctx, row, previous), channel.ticket(row.company_id), { action: "update", ticket });
  return ticket;
}

export async function emitTicketDelete(ctx: AppContext, row: TicketRow): Promise<void> {
  ctx.realtime.emit(await ticketRooms(ctx, row), channel.ticket(row.company_id), { action: "delete", ticketId: row.id });
}

export async function emitUnread(ctx: AppContext, row: TicketRow): Promise<void> {
  ctx.realtime.emit(await ticketRooms(ctx, row), channel.ticket(row.company_id), { action: "updateUnread", ticketId: row.id });
}

/** `company-{id}-appMessage` create/update with the message, its ticket and contact. */
/**
 * The audience of a ticket is whoever may open it; a quoted message of another ticket of the contact
 * may be one some of them may not see (canSeeInHistory). Unless the company shares the whole history,
 * such a quote leaves without its content: each reader gets it with GET /messages when allowed.
 */
async function quoteForAudience(ctx: AppContext, message: Message, row: TicketRow): Promise<Message> {
  if (!message.quotedMsg) return message;
  const quoted = await ctx.sql.maybe<{ ticket_id: number; contact_id: number; whatsapp_id: number | null }>(
    "SELECT ticket_id, contact_id, whatsapp_id FROM messages WHERE company_id = $1 AND id = $2",
    [row.company_id, message.quotedMsg.id],
  );
  if (quoted?.ticket_id === row.id) return message;
  const sameConversation = quoted !== null && quoted.contact_id === row.contact_id && quoted.whatsapp_id !== null && quoted.whatsapp_id === row.whatsapp_id;
  if (sameConversation && (await settingEnabled(ctx.sql, row.company_id, "shareContactHistory"))) return message;
  return { ...message, quotedMsg: null };
}

export async function emitAppMessage(ctx: AppContext, action: "create" | "update", message: Message, row: TicketRow): Promise<void> {
  const ticket = presentTicket(row);
  ctx.realtime.emit(await ticketRooms(ctx, row), channel.appMessage(row.company_id), {
    action,
    message: await quoteForAudience(ctx, message, row),
    ticket,
    contact: ticket.contact,
  });
}
