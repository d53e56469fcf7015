import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  cachedMessages,
  cachedTicket,
  cachedTickets,
  clearOfflineCache,
  latestUpdatedAt,
  openOffline,
  pruneClosed,
  putMessage,
  putTickets,
  removeTicket,
} from "../offline/db";
import { messageFixture, ticketFixture } from "./fixtures";

const COMPANY = 1;
let nextUser = 1;
const opened: number[] = [];

/** Each test gets a user of its own, so one test's cache never leaks into the next. */
async function openFreshCache(): Promise<number> {
  const userId = nextUser++;
  opened.push(userId);
  await openOffline(COMPANY, userId);
  return userId;
}

afterEach(async () => {
  for (const userId of opened.splice(0)) await clearOfflineCache(COMPANY, userId);
});

const minute = (n: number) => `2026-11-01T10:${String(n).padStart(2, "0")}:00.000Z`;

describe("offline cache reads (what the workspace shows without a connection)", () => {
  it("returns one status's tickets, most recently updated first", async () => {
    await openFreshCache();
    await putTickets([
      ticketFixture({ id: 1, status: "open", updatedAt: minute(1) }),
      ticketFixture({ id: 2, status: "pending", updatedAt: minute(2) }),
      ticketFixture({ id: 3, status: "open", updatedAt: minute(3) }),
      ticketFixture({ id: 4, status: "open", updatedAt: minute(2) }),
    ]);

    expect((await cachedTickets("open")).map((t) => t.id)).toEqual([3, 4, 1]);
    expect((await cachedTickets("pending")).map((t) => t.id)).toEqual([2]);
    expect(await cachedTickets("closed")).toEqual([]);
    expect(await latestUpdatedAt()).toBe("2026-11-01T10:03:00.000Z");
  });

  it("keeps the newer version when an older update of the same ticket arrives late", async () => {
    await openFreshCache();
    await putTickets([ticketFixture({ id: 1, status: "pending", lastMessage: "newer", updatedAt: minute(5) })]);
    await putTickets([ticketFixture({ id: 1, status: "open", lastMessage: "older", updatedAt: minute(4) })]);

    expect(await cachedTickets("open")).toEqual([]);
    expect((await cachedTickets("pending")).map((t) => [t.id, t.lastMessage])).toEqual([[1, "newer"]]);
  });

  it("stores a ticket's embedded messages apart and keeps the 30 newest per ticket, oldest first", async () => {
    await openFreshCache();
    const messages = Array.from({ length: 32 }, (_, i) => messageFixture({ id: i + 1, ticketId: 1, createdAt: minute(i) }));
    await putTickets([{ ...ticketFixture({ id: 1 }), messages }]);
    await putMessage(messageFixture({ id: 50, ticketId: 2, createdAt: minute(1) }));

    const kept = await cachedMessages(1);
    expect(kept).toHaveLength(30);
    expect(kept[0]?.id).toBe(3);
    expect(kept[29]?.id).toBe(32);
    expect((await cachedMessages(2)).map((m) => m.id)).toEqual([50]);
    const [cached] = await cachedTickets("open");
    expect(cached && "messages" in cached).toBe(false);

    await putMessage(messageFixture({ id: 33, ticketId: 1, createdAt: minute(40) }));
    expect((await cachedMessages(1)).map((m) => m.id).slice(0, 2)).toEqual([4, 5]);
    expect((await cachedMessages(1)).at(-1)?.id).toBe(33);
  });

  it("finds one ticket by uuid or by id, and forgets a removed ticket with its messages", async () => {
    await openFreshCache();
    await putTickets([{ ...ticketFixture({ id: 8, uuid: "abc-8" }), messages: [messageFixture({ id: 1, ticketId: 8, createdAt: minute(1) })] }]);

    expect((await cachedTicket("abc-8"))?.id).toBe(8);
    expect((await cachedTicket("8"))?.uuid).toBe("abc-8");
    expect(await cachedTicket("missing")).toBeUndefined();

    await removeTicket(8);
    expect(await cachedTicket("abc-8")).toBeUndefined();
    expect(await cachedMessages(8)).toEqual([]);
  });

  it("keeps the 100 most recently updated closed tickets and drops the others' messages", async () => {
    await openFreshCache();
    const closed = Array.from({ length: 102 }, (_, i) =>
      ticketFixture({ id: i + 1, status: "closed", updatedAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() }),
    );
    await putTickets([...closed, ticketFixture({ id: 500, status: "open", updatedAt: minute(0) })]);
    await putMessage(messageFixture({ id: 1, ticketId: 1, createdAt: minute(1) }));

    await pruneClosed();

    const left = (await cachedTickets("closed")).map((t) => t.id);
    expect(left).toHaveLength(100);
    expect(left[0]).toBe(102);
    expect(left.at(-1)).toBe(3);
    expect(left).not.toContain(1);
    expect(await cachedMessages(1)).toEqual([]);
    expect((await cachedTickets("open")).map((t) => t.id)).toEqual([500]);
  });

  it("shows one user's cache to nobody else, and nothing after it was cleared", async () => {
    const ana = await openFreshCache();
    await putTickets([ticketFixture({ id: 1 })]);

    await openFreshCache();
    expect(await cachedTickets("open")).toEqual([]);
    await putTickets([ticketFixture({ id: 2 })]);

    await openOffline(COMPANY, ana);
    expect((await cachedTickets("open")).map((t) => t.id)).toEqual([1]);

    await clearOfflineCache(COMPANY, ana);
    expect(await cachedTickets("open")).toEqual([]);
    await openOffline(COMPANY, ana);
    expect(await cachedTickets("open")).toEqual([]);
  });
});

describe("offline cache without IndexedDB (private windows of some browsers)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("reads as empty and writes nothing, without throwing", async () => {
    vi.stubGlobal("indexedDB", undefined);
    vi.resetModules();
    const db = await import("../offline/db");

    expect(await db.openOffline(COMPANY, 999)).toBeNull();
    await db.putTickets([ticketFixture({ id: 1 })]);
    expect(await db.cachedTickets("open")).toEqual([]);
    expect(await db.cachedTicket("1")).toBeUndefined();
    expect(await db.cachedMessages(1)).toEqual([]);
    expect(await db.latestUpdatedAt()).toBeUndefined();
    await expect(db.clearOfflineCache(COMPANY, 999)).resolves.toBeUndefined();
  });
});
