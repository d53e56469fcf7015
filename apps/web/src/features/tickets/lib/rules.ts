import {
  canChangeTicketTags,
  canSeeTicket,
  isAdmin,
  isSystemQueueName,
  messageInputBlock,
  ticketActionRefusal,
  type MessageInputBlock,
  type SessionUser,
  type TicketAction,
  type TicketViewer,
} from "@atende/shared";
import type { Ticket } from "../types";

/**
 * Ticket rules of spec 1-core §2, §4 and §5 as the workspace shows them. Each is a shared policy from
 * packages/shared/permissions that the API enforces (ticketActionRefusal, canChangeTicketTags,
 * messageInputBlock, canSeeTicket); this file only adapts the web's ticket and session shapes.
 */
type Me = Pick<SessionUser, "id" | "profile" | "super">;

export { isSystemQueueName };
export const isBotQueue = (t: Pick<Ticket, "queue">) => t.queue?.name === "BOT";

const allowed = (me: Me, t: Ticket, action: TicketAction) => ticketActionRefusal(me, t, action) === null;

/** Non-admins see no action buttons on open or paused tickets assigned to someone else. */
export function showsActions(me: Me, t: Ticket): boolean {
  if (isAdmin(me)) return true;
  return !((t.status === "open" || t.status === "paused") && t.userId !== null && t.userId !== me.id);
}

/** Accept is hidden on BOT-queue tickets: finishing is their only way out. */
export const canAccept = (me: Me, t: Ticket) => !isBotQueue(t) && allowed(me, t, "accept");
export const canResume = (me: Me, t: Ticket) => allowed(me, t, "resume");
export const canFinish = (me: Me, t: Ticket) => showsActions(me, t) && allowed(me, t, "finish");
export const canReturn = (me: Me, t: Ticket) => allowed(me, t, "return");
export const canPause = (me: Me, t: Ticket) => allowed(me, t, "pause");
export const canReopen = (me: Me, t: Ticket) => allowed(me, t, "reopen");
export const canTransfer = (me: Me, t: Ticket) => showsActions(me, t) && allowed(me, t, "transfer");
export const canEditTags = (me: Me, t: Ticket) => canChangeTicketTags(me, t);

/** `status` is the live status of the ticket's connection (the ticket's own copy may be stale). */
export function connectionUsable(t: Ticket, status: string | undefined): boolean {
  if (!t.whatsapp) return false;
  return t.whatsapp.isOfficial || (status ?? t.whatsapp.status) === "CONNECTED";
}

export type InputBlock = MessageInputBlock | null;

/** Why the message input is hidden (the shared send-message policy), or null when it is shown. */
export function inputBlock(me: Me, t: Ticket, connectionStatus: string | undefined): InputBlock {
  const connection = t.whatsapp ? { isOfficial: t.whatsapp.isOfficial, status: connectionStatus ?? t.whatsapp.status } : null;
  return messageInputBlock(me, t, connection);
}

export type Viewer = Pick<SessionUser, "id" | "profile" | "super" | "allTicket" | "queues" | "company">;

/**
 * Whether `me` may see `t` with the show-all switch as given (the API's list rule): used for the
 * live events a list may take in and for the offline cache. The ticket carries its queue's name, so
 * restrictSystemQueuesVisibility needs no list of the company's queues.
 */
export function visibleTo(me: Viewer, t: Ticket, showAll: boolean): boolean {
  const restrict = me.company.settings.find((s) => s.key === "restrictSystemQueuesVisibility")?.value === "enabled";
  const restrictedQueueIds = restrict && t.queue && isSystemQueueName(t.queue.name) ? [t.queue.id] : [];
  const viewer: TicketViewer = { id: me.id, profile: me.profile, super: me.super, allTicket: me.allTicket, queueIds: me.queues.map((q) => q.id) };
  return canSeeTicket(viewer, t, { restrictedQueueIds, showAll });
}

/**
 * Whether a ticket belongs in a status list, as the API would answer GET /tickets: its status tab, the
 * queue selection (queue-less tickets always pass) and the shared visibility rule with the list's
 * show-all switch. Used for the live events a list takes in and for the offline cache alike.
 */
export function belongsInList(me: Viewer, params: { status?: string; queueIds?: number[]; showAll?: boolean }, t: Ticket): boolean {
  if (!params.status || t.status !== params.status) return false;
  if (params.queueIds && t.queueId !== null && !params.queueIds.includes(t.queueId)) return false;
  return visibleTo(me, t, Boolean(params.showAll));
}
