// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TicketsPage } from "@atende/shared";
import { fetchTickets } from "../api/tickets";
import { useTicketsList } from "../hooks/use-tickets-list";
import { clearOfflineCache, openOffline, putTickets } from "../offline/db";
import type { Ticket } from "../types";
import { fakeSocket as socket } from "./fake-socket";
import { ticketFixture } from "./fixtures";

vi.mock("../../../lib/socket", async () => {
  const { fakeSocket } = await import("./fake-socket");
  return { getSocket: () => fakeSocket, disconnectSocket: () => undefined };
});
vi.mock("../api/tickets", () => ({ fetchTickets: vi.fn() }));
const fetchMock = vi.mocked(fetchTickets);

type Options = Parameters<typeof useTicketsList>[0];
// Only id, companyId, queues and the company's settings are read by the list.
const me = { id: 7, companyId: 1, queues: [{ id: 5, name: "Vendas" }], company: { settings: [] } } as unknown as Options["me"];
const mine = (id: number, over: Partial<Ticket> = {}) => ticketFixture({ id, userId: 7, ...over });
const page = (tickets: Ticket[], hasMore = false, count: number | null = tickets.length): TicketsPage => ({ tickets, hasMore, count });

const ids = (r: { current: ReturnType<typeof useTicketsList> }) => r.current.state.tickets.map((t) => t.id);

async function renderOpenTab(first: TicketsPage) {
  fetchMock.mockResolvedValueOnce(first);
  const view = renderHook(() => useTicketsList({ me, status: "open", showAll: false }));
  await waitFor(() => expect(view.result.current.state.loading).toBe(false));
  return view;
}

const emit = (event: string, data: unknown) => act(() => socket.emit(event, data));

beforeEach(() => {
  fetchMock.mockReset();
  socket.reset();
});
// Without vitest globals the library cannot register its own unmount after each test.
afterEach(cleanup);

describe("ticket list merging: pages", () => {
  it("appends the next page without repeating a ticket that moved between the two requests", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2), mine(1)], true, 5));
    expect(ids(result)).toEqual([3, 2, 1]);
    expect(result.current.state.count).toBe(5);

    fetchMock.mockResolvedValueOnce(page([mine(1), mine(0)], false, null));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.state.page).toBe(2));

    expect(ids(result)).toEqual([3, 2, 1, 0]);
    expect(result.current.state.hasMore).toBe(false);
    expect(fetchMock).toHaveBeenLastCalledWith({ status: "open", showAll: false, pageNumber: 2 });
  });
});

describe("ticket list merging: live ticket events (company-1-ticket)", () => {
  it("replaces a listed ticket in place when it still belongs to the tab", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2), mine(1)]));

    emit("company-1-ticket", { action: "update", ticket: mine(2, { lastMessage: "updated" }) });

    expect(ids(result)).toEqual([3, 2, 1]);
    expect(result.current.state.tickets[1]?.lastMessage).toBe("updated");
    expect(result.current.state.count).toBe(3);
  });

  it("inserts a ticket that now belongs to the tab at the top and counts it", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2)]));

    emit("company-1-ticket", { action: "update", ticket: mine(9) });
    emit("company-1-ticket", { action: "update", ticket: ticketFixture({ id: 10, userId: null, queueId: 5 }) });
    // Open, nobody's and without a queue: not this user's to see (only pending ones, with allTicket).
    emit("company-1-ticket", { action: "update", ticket: ticketFixture({ id: 11, userId: null }) });

    expect(ids(result)).toEqual([10, 9, 3, 2]);
    expect(result.current.state.count).toBe(4);
  });

  it("removes a ticket that left the tab (closed, or taken by another agent) and uncounts it", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2), mine(1)]));

    emit("company-1-ticket", { action: "update", ticket: mine(3, { status: "closed" }) });
    emit("company-1-ticket", { action: "update", ticket: mine(1, { userId: 8 }) });

    expect(ids(result)).toEqual([2]);
    expect(result.current.state.count).toBe(1);
  });

  it("ignores a ticket of another agent that was not listed", async () => {
    const { result } = await renderOpenTab(page([mine(3)]));

    emit("company-1-ticket", { action: "update", ticket: mine(4, { userId: 8 }) });

    expect(ids(result)).toEqual([3]);
    expect(result.current.state.count).toBe(1);
  });

  it("drops a deleted ticket, and counts nothing for a deletion it did not list", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2)]));

    emit("company-1-ticket", { action: "delete", ticketId: 3 });
    emit("company-1-ticket", { action: "delete", ticketId: 42 });

    expect(ids(result)).toEqual([2]);
    expect(result.current.state.count).toBe(1);
  });

  it("zeroes the unread badge of the ticket read elsewhere only", async () => {
    const { result } = await renderOpenTab(page([mine(3, { unreadMessages: 4 }), mine(2, { unreadMessages: 2 })]));

    emit("company-1-ticket", { action: "updateUnread", ticketId: 3 });

    expect(result.current.state.tickets.map((t) => [t.id, t.unreadMessages])).toEqual([
      [3, 0],
      [2, 2],
    ]);
  });

  it("listens to its own company's channel only", async () => {
    const { result } = await renderOpenTab(page([mine(3)]));

    emit("company-2-ticket", { action: "update", ticket: mine(5) });
    emit("company-2-ticket", { action: "delete", ticketId: 3 });

    expect(ids(result)).toEqual([3]);
  });
});

describe("ticket list merging: live messages (company-1-appMessage) and contacts", () => {
  it("moves a ticket to the top on a new message, but keeps its place on a message update (ack, edit)", async () => {
    const { result } = await renderOpenTab(page([mine(3), mine(2), mine(1)]));

    emit("company-1-appMessage", { action: "update", message: {}, contact: null, ticket: mine(1, { lastMessageAck: 3 }) });
    expect(ids(result)).toEqual([3, 2, 1]);
    expect(result.current.state.tickets[2]?.lastMessageAck).toBe(3);

    emit("company-1-appMessage", { action: "create", message: {}, contact: null, ticket: mine(1, { lastMessage: "hello" }) });
    expect(ids(result)).toEqual([1, 3, 2]);
    expect(result.current.state.tickets[0]?.lastMessage).toBe("hello");
    expect(result.current.state.count).toBe(3);
  });

  it("brings in the ticket of a new message that belongs to the tab, and not one updated outside it", async () => {
    const { result } = await renderOpenTab(page([mine(3)]));

    emit("company-1-appMessage", { action: "update", message: {}, contact: null, ticket: mine(6) });
    emit("company-1-appMessage", { action: "create", message: {}, contact: null, ticket: mine(7, { status: "pending" }) });
    expect(ids(result)).toEqual([3]);

    emit("company-1-appMessage", { action: "create", message: {}, contact: null, ticket: mine(8) });
    expect(ids(result)).toEqual([8, 3]);
  });

  it("renames the contact on every listed ticket of that contact", async () => {
    const contact = { id: 500, name: "Old", number: "5511988887777", profilePicUrl: "", isGroup: false };
    const { result } = await renderOpenTab(page([mine(3, { contactId: 500, contact }), mine(2), mine(1, { contactId: 500, contact })]));

    emit("company-1-contact", { action: "update", contact: { ...contact, name: "New name" } });

    expect(result.current.state.tickets.map((t) => t.contact.name)).toEqual(["New name", "Contact 2", "New name"]);
  });

  it("in a search, refreshes listed tickets but never inserts or removes on live events", async () => {
    fetchMock.mockResolvedValueOnce(page([mine(3), mine(2)], false, null));
    const { result } = renderHook(() => useTicketsList({ me, searchParam: "maria" }));
    await waitFor(() => expect(result.current.state.loading).toBe(false));

    emit("company-1-ticket", { action: "update", ticket: mine(9) });
    emit("company-1-appMessage", { action: "create", message: {}, contact: null, ticket: mine(10) });
    emit("company-1-ticket", { action: "update", ticket: mine(2, { status: "closed" }) });

    expect(ids(result)).toEqual([3, 2]);
    expect(result.current.state.tickets[1]?.status).toBe("closed");
  });
});

describe("ticket list: offline reads", () => {
  beforeEach(async () => {
    await openOffline(1, 7);
    await putTickets([
      mine(21, { updatedAt: "2026-11-01T10:01:00.000Z" }),
      mine(22, { updatedAt: "2026-11-01T10:03:00.000Z" }),
      mine(23, { status: "pending", updatedAt: "2026-11-01T10:02:00.000Z" }),
    ]);
  });
  afterEach(() => clearOfflineCache(1, 7));

  it("shows the cached tickets of the tab when the server cannot be reached", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const { result } = renderHook(() => useTicketsList({ me, status: "open", showAll: false }));

    await waitFor(() => expect(ids(result)).toEqual([22, 21]));
    await waitFor(() => expect(result.current.state.loading).toBe(false));
    expect(ids(result)).toEqual([22, 21]);
    expect(result.current.state.fromCache).toBe(true);
  });

  it("replaces the cached tickets with the server's first page once it answers", async () => {
    let answer: (p: TicketsPage) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<TicketsPage>((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useTicketsList({ me, status: "open", showAll: false }));
    await waitFor(() => expect(ids(result)).toEqual([22, 21]));
    expect(result.current.state.fromCache).toBe(true);

    await act(async () => answer(page([mine(30)])));

    expect(ids(result)).toEqual([30]);
    expect(result.current.state.fromCache).toBe(false);
  });

  it("does not read the cache for a search (the cache cannot answer a search)", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const { result } = renderHook(() => useTicketsList({ me, searchParam: "maria" }));

    await waitFor(() => expect(result.current.state.loading).toBe(false));
    await new Promise((r) => setTimeout(r, 50));
    expect(ids(result)).toEqual([]);
  });
});
