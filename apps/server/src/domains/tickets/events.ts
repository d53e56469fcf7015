import { channel, SYSTEM_QUEUE_NAMES, type Message, type Ticket } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import { settingEnabled } from "./company-settings.js";
import { presentTicket } from "./presenter.js";
import type { TicketRow } from "./repository.js";

type RoomTicket = Pick<TicketRow, "company_id" | "queue_id" | "queue_name" | "transfer_queue_id" | "user_id">;

/**
 * The sockets allowed to see a ticket: its queue's members, admins, supervisors and its assignee;
 * a ticket without a queue goes to the whole company. With restrictSystemQueuesVisibility, a ticket
 * in a system queue that has a transfer queue goes to that transfer queue's members instead (and not
 * to supervisors, whose show-all view excludes it).
 */
export async function ticketRooms(ctx: AppContext, t: RoomTicket): Promise<string[]> {
  const c = t.company_id;
  if (t.queue_id === null) return [rooms.company(c)];
  const list = [rooms.profile(c, "admin")];
  if (t.user_id !== null) list.push(rooms.user(t.user_id));
  const system = t.queue_name !== null && (SYSTEM_QUEUE_NAMES as readonly string[]).includes(t.queue_name);
  if (system && t.transfer_queue_id !== null && (await settingEnabled(ctx.sql, c, "restrictSystemQueuesVisibility"))) {
    list.push(rooms.queue(c, t.transfer_queue_id));
    return list;
  }
  list.push(rooms.queue(c, t.queue_id), rooms.profile(c, "supervisor"));
  return list;
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
export async function emitAppMessage(ctx: AppContext, action: "create" | "update", message: Message, row: TicketRow): Promise<void> {
  const ticket = presentTicket(row);
  ctx.realtime.emit(await ticketRooms(ctx, row), channel.appMessage(row.company_id), {
    action,
    message,
    ticket,
    contact: ticket.contact,
  });
}
