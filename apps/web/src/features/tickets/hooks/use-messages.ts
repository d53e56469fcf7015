import { useCallback, useEffect, useReducer, useRef } from "react";
import { channel } from "@atende/shared";
import { fetchMessages } from "../api/messages";
import { cachedMessages } from "../offline/db";
import type { HiddenMessagesRun, Message } from "../types";
import { useChannel, useSocketReconnect } from "./use-realtime";
import { logFailure } from "../../../lib/log-failure";

interface State {
  messages: Message[];
  /** Runs of messages the history leaves out (tickets the user may not open), of the pages loaded. */
  hidden: HiddenMessagesRun[];
  page: number;
  hasMore: boolean;
  loading: boolean;
  /** Bumped when the newest end of the list changes (new message arrived or first load). */
  tailVersion: number;
  /** The server answered a page since the last reset: from then on the offline cache is not shown. */
  serverAnswered: boolean;
}

type Action =
  | { type: "reset" }
  | { type: "cached"; messages: Message[] }
  | { type: "loaded"; page: number; messages: Message[]; hidden: HiddenMessagesRun[]; hasMore: boolean }
  | { type: "loading" }
  | { type: "failed" }
  | { type: "upsert"; message: Message };

const initial: State = { messages: [], hidden: [], page: 1, hasMore: false, loading: true, tailVersion: 0, serverAnswered: false };

function order(list: Message[]): Message[] {
  return list.sort((a, b) => (a.createdAt === b.createdAt ? a.id - b.id : a.createdAt < b.createdAt ? -1 : 1));
}

/** Acks only go up: live updates may arrive out of order (delivered after read). */
function merge(base: Message[], incoming: Message[]): Message[] {
  const byId = new Map(base.map((m) => [m.id, m]));
  for (const m of incoming) {
    const old = byId.get(m.id);
    byId.set(m.id, old && old.ack > m.ack ? { ...m, ack: old.ack } : m);
  }
  return order([...byId.values()]);
}

function reducer(s: State, a: Action): State {
  switch (a.type) {
    case "reset":
      return initial;
    case "cached":
      // Offline the request may fail before IndexedDB answers: the cache is still worth showing then.
      return !s.serverAnswered && s.messages.length === 0 ? { ...s, messages: order(a.messages.slice()), tailVersion: s.tailVersion + 1 } : s;
    case "loaded":
      return {
        messages: a.page === 1 ? merge([], a.messages) : merge(s.messages, a.messages),
        // each run comes with exactly one page (the one of the visible message it precedes)
        hidden: a.page === 1 ? a.hidden : [...a.hidden, ...s.hidden],
        page: a.page,
        hasMore: a.hasMore,
        loading: false,
        tailVersion: a.page === 1 ? s.tailVersion + 1 : s.tailVersion,
        serverAnswered: true,
      };
    case "loading":
      return { ...s, loading: true };
    case "failed":
      return { ...s, loading: false };
    case "upsert": {
      const exists = s.messages.some((m) => m.id === a.message.id);
      return { ...s, messages: merge(s.messages, [a.message]), tailVersion: exists ? s.tailVersion : s.tailVersion + 1 };
    }
  }
}

/**
 * The messages of one ticket's history: 20 visible per page, older pages on demand, live create/update
 * events; `hidden` holds where the server left out messages of tickets the user may not open.
 */
export function useMessages(ticketId: number | undefined, companyId: number, onIncoming?: (m: Message) => void) {
  const [state, dispatch] = useReducer(reducer, initial);
  const request = useRef(0);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

  const load = useCallback(
    async (page: number) => {
      if (!ticketId) return;
      const id = ++request.current;
      try {
        const res = await fetchMessages(ticketId, page);
        if (id === request.current) dispatch({ type: "loaded", page, messages: res.messages, hidden: res.hidden, hasMore: res.hasMore });
      } catch (err) {
        logFailure("loading messages failed", err, { ticketId, page });
        if (id === request.current) dispatch({ type: "failed" });
      }
    },
    [ticketId],
  );

  useEffect(() => {
    dispatch({ type: "reset" });
    if (!ticketId) return;
    void cachedMessages(ticketId).then((rows) => rows.length && dispatch({ type: "cached", messages: rows }));
    void load(1);
  }, [ticketId, load]);

  useSocketReconnect(() => void load(1));

  const loadOlder = useCallback(() => {
    const s = stateRef.current;
    if (s.loading || !s.hasMore) return;
    stateRef.current = { ...s, loading: true };
    dispatch({ type: "loading" });
    void load(s.page + 1);
  }, [load]);

  useChannel<{ action: string; message?: Message }>(ticketId ? channel.appMessage(companyId) : null, (data) => {
    const m = data.message;
    if (!m || m.ticketId !== ticketId) return;
    if (data.action === "create" || data.action === "update") {
      const isNew = !stateRef.current.messages.some((x) => x.id === m.id);
      dispatch({ type: "upsert", message: m });
      if (isNew && data.action === "create") onIncoming?.(m);
    }
  });

  const add = useCallback((m: Message) => dispatch({ type: "upsert", message: m }), []);
  return { state, loadOlder, add };
}
