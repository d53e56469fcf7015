import { describe, expect, it } from "vitest";
import type { Ticket } from "@atende/shared";
import { belongsInList, inputBlock, type Viewer } from "../lib/rules";
import { ticketFixture } from "./fixtures";

// Queues: 1 Vendas, 2 Suporte, 9 BOT.
const QUEUES = { 1: "Vendas", 2: "Suporte", 9: "BOT" } as Record<number, string>;

function ticket(o: Partial<Pick<Ticket, "status" | "userId" | "queueId" | "transferQueueId">> & { connection?: Ticket["whatsapp"] } = {}): Ticket {
  const queueId = o.queueId ?? null;
  return ticketFixture({
    id: 10,
    status: o.status ?? "pending",
    userId: o.userId ?? null,
    user: null,
    queueId,
    queue: queueId === null ? null : { id: queueId, name: QUEUES[queueId]!, color: "#000000" },
    transferQueueId: o.transferQueueId ?? null,
    whatsappId: 3,
    whatsapp: o.connection === undefined ? { id: 3, name: "Loja", status: "CONNECTED", isOfficial: false, provider: "baileys" } : o.connection,
  } as Partial<Ticket> & Pick<Ticket, "id">);
}

function viewer(o: { id?: number; profile?: Viewer["profile"]; queues?: number[]; allTicket?: "enable" | "disable"; restrict?: boolean } = {}): Viewer {
  return {
    id: o.id ?? 5,
    profile: o.profile ?? "user",
    super: false,
    allTicket: o.allTicket ?? "disable",
    queues: (o.queues ?? []).map((id) => ({ id, name: QUEUES[id]!, color: "#000000" })),
    company: {
      id: 1,
      name: "Empresa",
      dueDate: null,
      biUrl: "",
      settings: [{ key: "restrictSystemQueuesVisibility", value: o.restrict ? "enabled" : "disabled" }],
      plan: { name: "P" },
    } as unknown as Viewer["company"],
  };
}

describe("belongsInList: the tickets a live event or the offline cache may add to a list", () => {
  const open = { status: "open", showAll: false, queueIds: [1, 2] };

  it("a user's open list takes open tickets of their queues, theirs, and no one else's", () => {
    const me = viewer({ queues: [1] });
    expect(belongsInList(me, open, ticket({ status: "open", queueId: 1, userId: 8 }))).toBe(true);
    expect(belongsInList(me, open, ticket({ status: "open", queueId: 2, userId: 8 }))).toBe(false);
    expect(belongsInList(me, open, ticket({ status: "open", queueId: 2, userId: 5 }))).toBe(true);
    expect(belongsInList(me, open, ticket({ status: "pending", queueId: 1 }))).toBe(false);
  });

  it("a queue-less pending ticket only with allTicket enabled (it was added for every user before)", () => {
    const pending = { status: "pending", showAll: false, queueIds: [1] };
    expect(belongsInList(viewer({ queues: [1] }), pending, ticket({ status: "pending" }))).toBe(false);
    expect(belongsInList(viewer({ queues: [1], allTicket: "enable" }), pending, ticket({ status: "pending" }))).toBe(true);
  });

  it("a pending ticket of another queue stays out of a user's pending list", () => {
    expect(belongsInList(viewer({ queues: [1] }), { status: "pending", queueIds: [1, 2] }, ticket({ status: "pending", queueId: 2 }))).toBe(false);
  });

  it("show all: a supervisor takes every ticket of the selected queues; without it, only their queues", () => {
    const sup = viewer({ id: 3, profile: "supervisor" });
    expect(belongsInList(sup, { ...open, showAll: true }, ticket({ status: "open", queueId: 2, userId: 8 }))).toBe(true);
    expect(belongsInList(sup, open, ticket({ status: "open", queueId: 2, userId: 8 }))).toBe(false);
    expect(belongsInList(sup, { ...open, showAll: true, queueIds: [1] }, ticket({ status: "open", queueId: 2, userId: 8 }))).toBe(false);
  });

  it("restrictSystemQueuesVisibility hides a BOT ticket whose transfer queue is not the user's, even with show all", () => {
    const list = { status: "pending", showAll: true, queueIds: [9, 2] };
    const bot = ticket({ status: "pending", queueId: 9, transferQueueId: 2 });
    expect(belongsInList(viewer({ id: 3, profile: "supervisor", restrict: true }), list, bot)).toBe(false);
    expect(belongsInList(viewer({ id: 3, profile: "supervisor", queues: [2], restrict: true }), list, bot)).toBe(true);
    expect(belongsInList(viewer({ id: 3, profile: "supervisor", restrict: false }), list, bot)).toBe(true);
    expect(belongsInList(viewer({ id: 1, profile: "admin", restrict: true }), list, bot)).toBe(true);
  });
});

describe("inputBlock: when the message input shows (1-core §2, the server's send rule)", () => {
  const me = { id: 5, profile: "user" as const, super: false };
  const admin = { id: 1, profile: "admin" as const, super: false };

  it("open, not BOT, connected, and the assignee or an admin", () => {
    expect(inputBlock(me, ticket({ status: "open", queueId: 1, userId: 5 }), undefined)).toBe(null);
    expect(inputBlock(me, ticket({ status: "open", queueId: 1, userId: 8 }), undefined)).toBe("otherUser");
    expect(inputBlock(me, ticket({ status: "open", queueId: 1, userId: null }), undefined)).toBe("otherUser");
    expect(inputBlock(admin, ticket({ status: "open", queueId: 1, userId: 8 }), undefined)).toBe(null);
    expect(inputBlock(me, ticket({ status: "pending", queueId: 1 }), undefined)).toBe("pending");
    expect(inputBlock(me, ticket({ status: "open", queueId: 9, userId: 5 }), undefined)).toBe("bot");
  });

  it("the live connection status wins over the ticket's copy; official connections always pass", () => {
    const t = ticket({ status: "open", queueId: 1, userId: 5 });
    expect(inputBlock(me, t, "DISCONNECTED")).toBe("disconnected");
    expect(inputBlock(me, ticket({ status: "open", userId: 5, connection: { id: 3, name: "Meta", status: "DISCONNECTED", isOfficial: true, provider: "cloud" } }), "DISCONNECTED")).toBe(null);
    expect(inputBlock(me, ticket({ status: "open", userId: 5, connection: null }), undefined)).toBe("disconnected");
  });
});
