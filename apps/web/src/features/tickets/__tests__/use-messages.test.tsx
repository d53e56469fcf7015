// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MessagesPage } from "@atende/shared";
import { fetchMessages } from "../api/messages";
import { useMessages } from "../hooks/use-messages";
import { clearOfflineCache, openOffline, putMessage } from "../offline/db";
import type { Message } from "../types";
import { fakeSocket as socket } from "./fake-socket";
import { messageFixture } from "./fixtures";

vi.mock("../../../lib/socket", async () => {
  const { fakeSocket } = await import("./fake-socket");
  return { getSocket: () => fakeSocket, disconnectSocket: () => undefined };
});
vi.mock("../api/messages", () => ({ fetchMessages: vi.fn() }));
const fetchMock = vi.mocked(fetchMessages);

const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
const msg = (id: number, minute: number, over: Partial<Message> = {}) => messageFixture({ id, ticketId: 5, createdAt: at(minute), ...over });
const page = (messages: Message[], hasMore = false): MessagesPage => ({ messages, hasMore, count: messages.length, hidden: [] });
const ids = (r: { current: ReturnType<typeof useMessages> }) => r.current.state.messages.map((m) => m.id);
const emit = (data: unknown) => act(() => socket.emit("company-1-appMessage", data));

beforeEach(() => {
  fetchMock.mockReset();
  socket.reset();
});
afterEach(cleanup);

describe("ticket messages: merging", () => {
  it("puts an older page before the newer one, oldest first, without repeating a message", async () => {
    fetchMock.mockResolvedValueOnce(page([msg(3, 3), msg(4, 4)], true));
    const { result } = renderHook(() => useMessages(5, 1));
    await waitFor(() => expect(result.current.state.loading).toBe(false));

    fetchMock.mockResolvedValueOnce(page([msg(1, 1), msg(2, 2), msg(3, 3)]));
    act(() => result.current.loadOlder());
    await waitFor(() => expect(result.current.state.page).toBe(2));

    expect(ids(result)).toEqual([1, 2, 3, 4]);
    expect(fetchMock).toHaveBeenLastCalledWith(5, 2);
  });

  it("keeps the hidden runs of every page loaded, older pages' first", async () => {
    const financeiro = { id: 7, name: "Financeiro", color: "#aa0000" };
    fetchMock.mockResolvedValueOnce({ ...page([msg(3, 3), msg(4, 4)], true), hidden: [{ beforeMessageId: 4, count: 12, queue: financeiro }] });
    const { result } = renderHook(() => useMessages(5, 1));
    await waitFor(() => expect(result.current.state.loading).toBe(false));
    fetchMock.mockResolvedValueOnce({ ...page([msg(1, 1)]), hidden: [{ beforeMessageId: 1, count: 2, queue: null }] });
    act(() => result.current.loadOlder());
    await waitFor(() => expect(result.current.state.page).toBe(2));
    expect(result.current.state.hidden).toEqual([
      { beforeMessageId: 1, count: 2, queue: null },
      { beforeMessageId: 4, count: 12, queue: financeiro },
    ]);
  });

  it("adds a new message of this ticket at the end and ignores other tickets' messages", async () => {
    fetchMock.mockResolvedValueOnce(page([msg(1, 1)]));
    const onIncoming = vi.fn();
    const { result } = renderHook(() => useMessages(5, 1, onIncoming));
    await waitFor(() => expect(result.current.state.loading).toBe(false));

    emit({ action: "create", message: msg(2, 2) });
    emit({ action: "create", message: messageFixture({ id: 9, ticketId: 6, createdAt: at(3) }) });

    expect(ids(result)).toEqual([1, 2]);
    expect(onIncoming).toHaveBeenCalledTimes(1);
    expect(onIncoming.mock.calls[0]?.[0]).toMatchObject({ id: 2 });
  });

  it("never lowers an ack when a late update arrives (delivered after read)", async () => {
    fetchMock.mockResolvedValueOnce(page([msg(1, 1, { fromMe: true, ack: 1 })]));
    const { result } = renderHook(() => useMessages(5, 1));
    await waitFor(() => expect(result.current.state.loading).toBe(false));

    emit({ action: "update", message: msg(1, 1, { fromMe: true, ack: 4 }) });
    emit({ action: "update", message: msg(1, 1, { fromMe: true, ack: 3, body: "edited" }) });

    expect(result.current.state.messages).toHaveLength(1);
    expect(result.current.state.messages[0]).toMatchObject({ ack: 4, body: "edited" });
  });
});

describe("ticket messages: offline reads", () => {
  beforeEach(async () => {
    await openOffline(1, 7);
    await putMessage(msg(11, 2));
    await putMessage(msg(10, 1));
  });
  afterEach(() => clearOfflineCache(1, 7));

  it("shows the cached messages, oldest first, when the server cannot be reached", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const { result } = renderHook(() => useMessages(5, 1));

    await waitFor(() => expect(ids(result)).toEqual([10, 11]));
    expect(result.current.state.loading).toBe(false);
  });

  it("replaces the cached messages with the server's page once it answers", async () => {
    let answer: (p: MessagesPage) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<MessagesPage>((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useMessages(5, 1));
    await waitFor(() => expect(ids(result)).toEqual([10, 11]));

    await act(async () => answer(page([msg(11, 2), msg(12, 3)])));

    expect(ids(result)).toEqual([11, 12]);
  });
});
