import { atLeast, canChangeTicketTags, SYSTEM_QUEUE_NAMES, ticketActionRefusal, type SessionUser, type TicketAction } from "@atende/shared";
import type { Ticket } from "../types";

/**
 * Ticket rules of spec 1-core §2 and §4 as the workspace shows them. The permission itself comes from
 * the shared rule functions the API enforces (ticketActionRefusal, canChangeTicketTags).
 */
type Me = Pick<SessionUser, "id" | "profile" | "super">;

export const isAdmin = (me: Me) => atLeast(me, "admin");
export const isBotQueue = (t: Pick<Ticket, "queue">) => t.queue?.name === "BOT";
export const isSystemQueueName = (name: string) => (SYSTEM_QUEUE_NAMES as readonly string[]).includes(name);

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

export type InputBlock = "closed" | "pending" | "paused" | "bot" | "disconnected" | "otherUser" | null;

/** Why the message input is hidden (spec 1-core §2), or null when it is shown. */
export function inputBlock(me: Me, t: Ticket, connectionStatus: string | undefined): InputBlock {
  if (t.status === "closed") return "closed";
  if (t.status === "pending") return "pending";
  if (t.status === "paused") return "paused";
  if (isBotQueue(t)) return "bot";
  if (!connectionUsable(t, connectionStatus)) return "disconnected";
  if (t.userId !== me.id && !isAdmin(me)) return "otherUser";
  return null;
}

/**
 * Offline-cache visibility (spec 1-core §5), on top of the list's queue selection: with
 * restrictSystemQueuesVisibility enabled, tickets in the BOT, ARW and ARO queues show only when they have
 * no transfer queue or the user belongs to it.
 */
export function visibleOffline(t: Ticket, me: Pick<SessionUser, "queues" | "company">): boolean {
  const restrict = me.company.settings.find((s) => s.key === "restrictSystemQueuesVisibility")?.value === "enabled";
  if (!restrict || !t.queue || !isSystemQueueName(t.queue.name)) return true;
  return t.transferQueueId === null || me.queues.some((q) => q.id === t.transferQueueId);
}
