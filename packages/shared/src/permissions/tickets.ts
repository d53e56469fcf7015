import type { Profile, TicketStatus } from "../enums.js";
import type { ErrorCode } from "../errors.js";
import { SYSTEM_QUEUE_NAMES } from "../limits.js";
import type { TicketAction } from "../schemas/tickets.js";
import { can, isAdmin } from "./roles.js";

/* ------------------------------------------------------------------------------------------------
 * Ticket policies (1-core §2, §4, §5, §6): the one place that says who may see a ticket and who may
 * act on it. The server refuses with these rules and the web shows or hides with the same ones.
 * ---------------------------------------------------------------------------------------------- */

export interface TicketRuleActor {
  id: number;
  profile: Profile;
  super: boolean;
}

export interface TicketRuleTarget {
  status: TicketStatus;
  userId: number | null;
  queue?: { name: string } | null;
}

/** The acting user as the visibility rule needs them. */
export interface TicketViewer extends TicketRuleActor {
  queueIds: readonly number[];
  allTicket: "enable" | "disable";
}

export interface VisibilityTicket {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  transferQueueId: number | null;
}

export interface VisibilityScope {
  /**
   * The company's system queues (BOT, ARW, ARO) when its restrictSystemQueuesVisibility setting is
   * enabled; empty otherwise (see restrictedQueueIds).
   */
  restrictedQueueIds: readonly number[];
  /**
   * The show-all switch (supervisors and admins). Opening a single ticket, and the real-time
   * audience, use the widest view the user may switch on: showAll true.
   */
  showAll: boolean;
}

export const isSystemQueueName = (name: string): boolean => (SYSTEM_QUEUE_NAMES as readonly string[]).includes(name);

/** The ids of `queues` that the restrictSystemQueuesVisibility setting restricts (none when it is off). */
export function restrictedQueueIds(settingEnabled: boolean, queues: readonly { id: number; name: string }[]): number[] {
  return settingEnabled ? queues.filter((q) => isSystemQueueName(q.name)).map((q) => q.id) : [];
}

/**
 * Who sees a ticket (1-core §5, §6; the "view" policy):
 * - admins (and super users) with show all: every ticket of the company;
 * - the ticket's assignee, always;
 * - restrictSystemQueuesVisibility (non-admins): a ticket in a system queue with a transfer queue is
 *   hidden from whoever is not a member of that transfer queue;
 * - supervisors with show all: every other ticket;
 * - otherwise: tickets in the user's queues and, with allTicket enabled, pending tickets without a queue.
 * The server's SQL form (apps/server domains/tickets/visibility.ts) is tested to agree with this.
 */
export function canSeeTicket(viewer: TicketViewer, ticket: VisibilityTicket, scope: VisibilityScope): boolean {
  const admin = isAdmin(viewer);
  if (admin && scope.showAll) return true;
  if (ticket.userId === viewer.id) return true;
  if (
    !admin &&
    ticket.queueId !== null &&
    ticket.transferQueueId !== null &&
    scope.restrictedQueueIds.includes(ticket.queueId) &&
    !viewer.queueIds.includes(ticket.transferQueueId)
  ) {
    return false;
  }
  if (scope.showAll && can(viewer, "tickets-manager:showall")) return true;
  if (ticket.queueId !== null) return viewer.queueIds.includes(ticket.queueId);
  return ticket.status === "pending" && viewer.allTicket === "enable";
}

/** What the history rule needs beyond the viewer and the ticket (see canSeeInHistory). */
export interface HistoryScope {
  restrictedQueueIds: readonly number[];
  /** The company's shareContactHistory setting is enabled. */
  shareHistory: boolean;
  /**
   * The viewer may open at least one ticket of the item's conversation (the contact's tickets on the
   * item's connection). GET /messages/{ticketId} is only answered through such a ticket, so it is true
   * there; a media download or a note is checked on its own.
   */
  opensConversation: boolean;
}

/**
 * Who sees an item of a contact's history (a message, its media, a ticket's notes) that belongs to
 * `owner`, in the conversation of the contact on one connection (all its tickets, earlier and closed
 * ones included):
 * - whoever may open `owner` (canSeeTicket, widest view: what opening the ticket itself allows);
 * - with the company's shareContactHistory enabled, also whoever may open another ticket of that
 *   conversation;
 * - nobody else: an agent of queue 1 does not read, through a new ticket of the same contact, the
 *   messages of a closed ticket of queue 2 that it may not open.
 * The server's SQL form (historyVisibilitySql in apps/server domains/tickets/visibility.ts) is tested
 * to agree with this.
 */
export function canSeeInHistory(viewer: TicketViewer, owner: VisibilityTicket, scope: HistoryScope): boolean {
  if (canSeeTicket(viewer, owner, { restrictedQueueIds: scope.restrictedQueueIds, showAll: true })) return true;
  return scope.shareHistory && scope.opensConversation;
}

const isBotQueue = (t: TicketRuleTarget) => t.queue?.name === "BOT";

/** The status a transition starts from (transfer: any not closed). */
export const TICKET_ACTION_FROM: Record<TicketAction, readonly TicketStatus[]> = {
  accept: ["pending"],
  return: ["open"],
  pause: ["open"],
  resume: ["paused"],
  finish: ["pending", "open", "paused"],
  reopen: ["closed"],
  transfer: ["pending", "open", "paused"],
};

/**
 * Why `actor` may not apply `action` to `ticket`: "state" (the ticket is not in a status the
 * action starts from), "permission", or null when allowed.
 * Accept, finish and transfer: admin, the owner, or any pending ticket (accept hidden on BOT-queue
 * tickets for non-admins). Return, pause, resume: admin or owner. Reopen: anyone who sees it.
 */
export function ticketActionRefusal(actor: TicketRuleActor, ticket: TicketRuleTarget, action: TicketAction): "state" | "permission" | null {
  if (!TICKET_ACTION_FROM[action].includes(ticket.status)) return "state";
  const owner = ticket.userId === actor.id;
  switch (action) {
    case "accept":
      return isBotQueue(ticket) && !isAdmin(actor) ? "permission" : null;
    case "finish":
    case "transfer":
      return isAdmin(actor) || owner || ticket.status === "pending" ? null : "permission";
    case "return":
    case "pause":
    case "resume":
      return isAdmin(actor) || owner ? null : "permission";
    case "reopen":
      return null;
  }
}

/** Tag changes: open or paused tickets assigned to the user, or any ticket for admins. */
export function canChangeTicketTags(actor: TicketRuleActor, ticket: TicketRuleTarget): boolean {
  if (isAdmin(actor)) return true;
  return (ticket.status === "open" || ticket.status === "paused") && ticket.userId === actor.id;
}

/** The ticket's connection as the message input sees it; `status` is the live session status. */
export interface TicketConnection {
  isOfficial: boolean;
  status: string;
}

export type MessageInputBlock = "closed" | "pending" | "paused" | "bot" | "disconnected" | "otherUser";

/**
 * Why the message input is hidden and a message may not be sent, or null when it may (1-core §2,
 * ticket workspace): "shown only when the ticket is open, not in the BOT queue, the connection is
 * connected (or official), and the user is the assignee or an admin". `connection` undefined leaves
 * the connection out (the server asks the live driver instead, which answers with its own code).
 */
export function messageInputBlock(actor: TicketRuleActor, ticket: TicketRuleTarget, connection?: TicketConnection | null): MessageInputBlock | null {
  if (ticket.status === "closed") return "closed";
  if (ticket.status === "pending") return "pending";
  if (ticket.status === "paused") return "paused";
  if (isBotQueue(ticket)) return "bot";
  if (connection !== undefined && !(connection && (connection.isOfficial || connection.status === "CONNECTED"))) return "disconnected";
  if (ticket.userId !== actor.id && !isAdmin(actor)) return "otherUser";
  return null;
}

/** Ticket actions beyond the status transitions. */
export type TicketPolicyAction =
  | TicketAction
  | "delete"
  | "changeTags"
  /** Integration, prompt and chatbot switches of a PUT that changes no status. */
  | "editSettings"
  /** Accepting on behalf of another user. */
  | "assignOther"
  | "sendMessage"
  | "filterByUser";

/**
 * authorize(actor, action, ticket) for tickets: the catalogue code that refuses the action, or null.
 * A transition from a status it cannot start from is ERR_VALIDATION; a message that may not be sent
 * to a ticket someone else handles is ERR_TICKET_USER_MISMATCH.
 */
export function authorizeTicket(actor: TicketRuleActor, action: TicketPolicyAction, ticket: TicketRuleTarget): ErrorCode | null {
  switch (action) {
    case "delete":
      return can(actor, "tickets:delete") ? null : "ERR_NO_PERMISSION";
    case "filterByUser":
      return can(actor, "tickets:userFilter") ? null : "ERR_NO_PERMISSION";
    case "changeTags":
      return canChangeTicketTags(actor, ticket) ? null : "ERR_NO_PERMISSION";
    case "editSettings":
      return isAdmin(actor) || ticket.userId === actor.id ? null : "ERR_NO_PERMISSION";
    case "assignOther":
      return isAdmin(actor) ? null : "ERR_NO_PERMISSION";
    case "sendMessage": {
      const block = messageInputBlock(actor, ticket);
      if (block === null) return null;
      return block === "otherUser" && ticket.userId !== null ? "ERR_TICKET_USER_MISMATCH" : "ERR_NO_PERMISSION";
    }
    default: {
      const refusal = ticketActionRefusal(actor, ticket, action);
      return refusal === "state" ? "ERR_VALIDATION" : refusal === "permission" ? "ERR_NO_PERMISSION" : null;
    }
  }
}
