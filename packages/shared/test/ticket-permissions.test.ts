import { describe, expect, it } from "vitest";
import {
  authorizeMessage,
  authorizeNote,
  authorizeQuickMessage,
  authorizeTicket,
  canSeeTicket,
  messageInputBlock,
  restrictedQueueIds,
  type TicketViewer,
  type VisibilityTicket,
} from "../src/index.js";

// Queues: 1 Vendas, 2 Suporte, 9 BOT (a system queue).
const viewer = (id: number, profile: TicketViewer["profile"], queueIds: number[] = [], allTicket: "enable" | "disable" = "disable", isSuper = false): TicketViewer => ({
  id,
  profile,
  super: isSuper,
  queueIds,
  allTicket,
});
const admin = viewer(1, "admin");
const superUser = viewer(2, "user", [], "disable", true);
const supervisor = viewer(3, "supervisor");
const supervisorB = viewer(4, "supervisor", [2]);
const userA = viewer(5, "user", [1]);
const allTicket = viewer(6, "user", [], "enable");
const botAndB = viewer(7, "user", [9, 2]);
const viewers = { admin, superUser, supervisor, supervisorB, userA, allTicket, botAndB };

const tk = (status: VisibilityTicket["status"], queueId: number | null, userId: number | null = null, transferQueueId: number | null = null): VisibilityTicket => ({
  status,
  userId,
  queueId,
  transferQueueId,
});

/** Who sees `ticket`, by name, with the given scope. */
const audience = (ticket: VisibilityTicket, restricted: number[], showAll: boolean) =>
  Object.entries(viewers)
    .filter(([, v]) => canSeeTicket(v, ticket, { restrictedQueueIds: restricted, showAll }))
    .map(([name]) => name);

describe("canSeeTicket (1-core §5, §6)", () => {
  it("a ticket in a queue: admins, supervisors with show all, the queue's members", () => {
    expect(audience(tk("pending", 1), [], true)).toEqual(["admin", "superUser", "supervisor", "supervisorB", "userA"]);
    expect(audience(tk("pending", 1), [], false)).toEqual(["userA"]);
  });

  it("the assignee always sees their ticket, show all or not", () => {
    expect(audience(tk("open", 2, 5), [], false)).toEqual(["supervisorB", "userA", "botAndB"]);
  });

  it("a queue-less ticket: pending ones also to allTicket users, open ones not", () => {
    expect(audience(tk("pending", null), [], true)).toEqual(["admin", "superUser", "supervisor", "supervisorB", "allTicket"]);
    expect(audience(tk("open", null), [], true)).toEqual(["admin", "superUser", "supervisor", "supervisorB"]);
    expect(audience(tk("pending", null), [], false)).toEqual(["allTicket"]);
  });

  it("restrictSystemQueuesVisibility: a BOT ticket with a transfer queue only to that queue's members (and admins)", () => {
    expect(audience(tk("pending", 9, null, 2), [9], true)).toEqual(["admin", "superUser", "supervisorB", "botAndB"]);
    expect(audience(tk("pending", 9, null, 2), [], true)).toEqual(["admin", "superUser", "supervisor", "supervisorB", "botAndB"]);
    // without a transfer queue the restriction does not apply
    expect(audience(tk("pending", 9), [9], true)).toEqual(["admin", "superUser", "supervisor", "supervisorB", "botAndB"]);
    // the assignee still sees it
    expect(audience(tk("open", 9, 5, 2), [9], true)).toEqual(["admin", "superUser", "supervisorB", "userA", "botAndB"]);
  });

  it("admins without show all see their queues only", () => {
    expect(canSeeTicket(viewer(1, "admin", [2]), tk("pending", 1), { restrictedQueueIds: [], showAll: false })).toBe(false);
    expect(canSeeTicket(viewer(1, "admin", [2]), tk("pending", 2), { restrictedQueueIds: [], showAll: false })).toBe(true);
  });

  it("restrictedQueueIds: the BOT, ARW and ARO queues when the setting is on", () => {
    const queues = [
      { id: 1, name: "Vendas" },
      { id: 9, name: "BOT" },
      { id: 10, name: "ARW" },
      { id: 11, name: "ARO" },
    ];
    expect(restrictedQueueIds(true, queues)).toEqual([9, 10, 11]);
    expect(restrictedQueueIds(false, queues)).toEqual([]);
  });
});

describe("messageInputBlock and the send-message policy (1-core §2)", () => {
  const me = { id: 5, profile: "user" as const, super: false };
  const boss = { id: 1, profile: "admin" as const, super: false };
  const connected = { isOfficial: false, status: "CONNECTED" };
  const open = (userId: number | null, queue: string | null = "Vendas") => ({ status: "open" as const, userId, queue: queue ? { name: queue } : null });

  it("shown only when open, not in BOT, connected (or official), and the user is the assignee or an admin", () => {
    expect(messageInputBlock(me, open(5), connected)).toBe(null);
    expect(messageInputBlock(me, { ...open(5), status: "pending" }, connected)).toBe("pending");
    expect(messageInputBlock(me, { ...open(5), status: "paused" }, connected)).toBe("paused");
    expect(messageInputBlock(me, { ...open(5), status: "closed" }, connected)).toBe("closed");
    expect(messageInputBlock(me, open(5, "BOT"), connected)).toBe("bot");
    expect(messageInputBlock(me, open(5), { isOfficial: false, status: "DISCONNECTED" })).toBe("disconnected");
    expect(messageInputBlock(me, open(5), { isOfficial: true, status: "DISCONNECTED" })).toBe(null);
    expect(messageInputBlock(me, open(5), null)).toBe("disconnected");
    expect(messageInputBlock(me, open(8), connected)).toBe("otherUser");
    expect(messageInputBlock(me, open(null), connected)).toBe("otherUser");
    expect(messageInputBlock(boss, open(8), connected)).toBe(null);
    expect(messageInputBlock(boss, open(null), connected)).toBe(null);
  });

  it("the server's sendMessage answers with catalogue codes", () => {
    expect(authorizeTicket(me, "sendMessage", open(5))).toBe(null);
    expect(authorizeTicket(me, "sendMessage", open(8))).toBe("ERR_TICKET_USER_MISMATCH");
    expect(authorizeTicket(me, "sendMessage", open(null))).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(me, "sendMessage", { ...open(5), status: "pending" })).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(boss, "sendMessage", open(8))).toBe(null);
  });
});

describe("authorize per domain", () => {
  const me = { id: 5, profile: "user" as const, super: false };
  const sup = { id: 3, profile: "supervisor" as const, super: false };
  const boss = { id: 1, profile: "admin" as const, super: false };
  const root = { id: 2, profile: "user" as const, super: true };

  it("tickets: delete admin only; settings by owner or admin; transitions keep their codes", () => {
    const mine = { status: "open" as const, userId: 5 };
    expect(authorizeTicket(me, "delete", mine)).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(sup, "delete", mine)).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(boss, "delete", mine)).toBe(null);
    expect(authorizeTicket(root, "delete", mine)).toBe(null);
    expect(authorizeTicket(me, "editSettings", mine)).toBe(null);
    expect(authorizeTicket(sup, "editSettings", mine)).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(me, "assignOther", mine)).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(boss, "assignOther", mine)).toBe(null);
    expect(authorizeTicket(me, "accept", mine)).toBe("ERR_VALIDATION");
    expect(authorizeTicket(sup, "pause", mine)).toBe("ERR_NO_PERMISSION");
    expect(authorizeTicket(me, "pause", mine)).toBe(null);
  });

  it("messages, notes and quick messages", () => {
    expect(authorizeMessage(me, "delete", { fromMe: true, userId: 5 })).toBe(null);
    expect(authorizeMessage(boss, "delete", { fromMe: true, userId: 5 })).toBe("ERR_NO_PERMISSION");
    expect(authorizeMessage(me, "delete", { fromMe: false, userId: 5 })).toBe("ERR_NO_PERMISSION");
    expect(authorizeNote(me, "delete", { userId: 5 })).toBe(null);
    expect(authorizeNote(sup, "delete", { userId: 5 })).toBe("ERR_NO_PERMISSION");
    expect(authorizeNote(root, "delete", { userId: 5 })).toBe(null);
    expect(authorizeQuickMessage(me, "edit", { userId: 5 })).toBe(null);
    expect(authorizeQuickMessage(sup, "edit", { userId: 5 })).toBe("ERR_NO_PERMISSION");
    expect(authorizeQuickMessage(boss, "edit", { userId: 5 })).toBe(null);
  });
});
