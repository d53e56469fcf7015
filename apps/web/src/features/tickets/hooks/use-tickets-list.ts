import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { channel, LIMITS, type AppMessageEvent, type ContactEvent, type TicketEvent, type SessionUser } from "@atende/shared";
import { fetchTickets, type TicketListParams } from "../api/tickets";
import { belongsInList, type Viewer } from "../lib/rules";
import { cachedTickets } from "../offline/db";
import type { ContactRef, Ticket } from "../types";
import { useChannel, useSocketReconnect } from "./use-realtime";
import { logFailure } from "../../../lib/log-failure";

export interface ListState {
  tickets: Ticket[];
  hasMore: boolean;
  count: number;
  loading: boolean;
  page: number;
  /** Showing tickets from the offline cache while the first page loads (or could not be loaded). */
  fromCache: boolean;
  /** The server answered a page since the last reset: from then on the cache is not shown. */
  serverAnswered: boolean;
}

type Action =
  | { type: "reset" }
  | { type: "cached"; tickets: Ticket[] }
  | { type: "loaded"; page: number; tickets: Ticket[]; hasMore: boolean; count?: number | null }
  | { type: "failed" }
  | { type: "loading" }
  | { type: "upsert"; ticket: Ticket; top: boolean }
  | { type: "remove"; id: number }
  | { type: "resetUnread"; id: number }
  | { type: "contact"; contact: ContactRef };

const initial: ListState = { tickets: [], hasMore: false, count: 0, loading: true, page: 1, fromCache: false, serverAnswered: false };

function reducer(s: ListState, a: Action): ListState {
  switch (a.type) {
    case "reset":
      return initial;
    case "cached":
      // Offline the request may fail before IndexedDB answers: the cache is still worth showing then.
      return !s.serverAnswered && s.tickets.length === 0 ? { ...s, tickets: a.tickets, count: a.tickets.length, fromCache: true } : s;
    case "loaded": {
      const base = a.page === 1 ? [] : s.tickets;
      const seen = new Set(base.map((t) => t.id));
      const tickets = [...base, ...a.tickets.filter((t) => !seen.has(t.id))];
      return { tickets, hasMore: a.hasMore, count: a.count ?? (a.page === 1 ? tickets.length : Math.max(s.count, tickets.length)), loading: false, page: a.page, fromCache: false, serverAnswered: true };
    }
    case "failed":
      return { ...s, loading: false };
    case "loading":
      return { ...s, loading: true };
    case "upsert": {
      const i = s.tickets.findIndex((t) => t.id === a.ticket.id);
      if (i === -1) return { ...s, tickets: [a.ticket, ...s.tickets], count: s.count + 1 };
      if (a.top) return { ...s, tickets: [a.ticket, ...s.tickets.filter((t) => t.id !== a.ticket.id)] };
      const tickets = s.tickets.slice();
      tickets[i] = a.ticket;
      return { ...s, tickets };
    }
    case "remove":
      return s.tickets.some((t) => t.id === a.id)
        ? { ...s, tickets: s.tickets.filter((t) => t.id !== a.id), count: Math.max(0, s.count - 1) }
        : s;
    case "resetUnread":
      return { ...s, tickets: s.tickets.map((t) => (t.id === a.id ? { ...t, unreadMessages: 0 } : t)) };
    case "contact":
      return { ...s, tickets: s.tickets.map((t) => (t.contactId === a.contact.id ? { ...t, contact: { ...t.contact, ...a.contact } } : t)) };
  }
}

export interface UseTicketsList {
  state: ListState;
  loadMore(): void;
  reload(): void;
}

interface Options extends Omit<TicketListParams, "pageNumber"> {
  me: Viewer & Pick<SessionUser, "companyId">;
  enabled?: boolean;
}

/**
 * One ticket list (a status tab or the search): paged loading, cached tickets first, and the live
 * events of spec 1-core §4 (load, reset unread, update, unread update, contact update, delete).
 */
export function useTicketsList(o: Options): UseTicketsList {
  const [state, dispatch] = useReducer(reducer, initial);
  const { me, enabled = true, ...params } = o;
  const key = JSON.stringify(params);
  const stable = useMemo(() => JSON.parse(key) as Omit<TicketListParams, "pageNumber">, [key]);
  const request = useRef(0);
  const stateRef = useRef(state);
  const meRef = useRef(me);
  useEffect(() => {
    stateRef.current = state;
    meRef.current = me;
  });

  const load = useCallback(
    async (page: number) => {
      const id = ++request.current;
      try {
        const res = await fetchTickets({ ...stable, pageNumber: page });
        if (id === request.current) dispatch({ type: "loaded", page, tickets: res.tickets, hasMore: res.hasMore, count: res.count });
      } catch (err) {
        logFailure("loading the ticket list failed", err, { page });
        if (id === request.current) dispatch({ type: "failed" });
      }
    },
    [stable],
  );

  const matches = useCallback((t: Ticket) => belongsInList(meRef.current, stable, t), [stable]);

  useEffect(() => {
    if (!enabled) return;
    dispatch({ type: "reset" });
    if (stable.status && !stable.searchParam) {
      void cachedTickets(stable.status).then((rows) => {
        const visible = rows.filter(matches).slice(0, LIMITS.ticketsPerPage);
        if (visible.length) dispatch({ type: "cached", tickets: visible });
      });
    }
    void load(1);
  }, [enabled, stable, load, matches]);

  const loadMore = useCallback(() => {
    const s = stateRef.current;
    if (s.loading || !s.hasMore) return;
    dispatch({ type: "loading" });
    stateRef.current = { ...s, loading: true };
    void load(s.page + 1);
  }, [load]);

  const reload = useCallback(() => void load(1), [load]);
  useSocketReconnect(() => enabled && reload());

  const live = enabled;
  const isSearch = !stable.status;
  useChannel<TicketEvent>(live ? channel.ticket(me.companyId) : null, (data) => {
    if (data.action === "updateUnread") dispatch({ type: "resetUnread", id: data.ticketId });
    if (data.action === "delete") dispatch({ type: "remove", id: data.ticketId });
    if (data.action === "update") {
      const t = data.ticket;
      if (isSearch) {
        if (stateRef.current.tickets.some((x) => x.id === t.id)) dispatch({ type: "upsert", ticket: t, top: false });
      } else if (matches(t)) dispatch({ type: "upsert", ticket: t, top: false });
      else dispatch({ type: "remove", id: t.id });
    }
  });
  useChannel<AppMessageEvent<Ticket>>(live ? channel.appMessage(me.companyId) : null, (data) => {
    if (!data.ticket) return;
    const t = data.ticket;
    // Updates (acks, edits) refresh a listed ticket in place; only new messages move it to the top.
    if (data.action === "update") {
      if (stateRef.current.tickets.some((x) => x.id === t.id)) dispatch({ type: "upsert", ticket: t, top: false });
      return;
    }
    if (isSearch) {
      if (stateRef.current.tickets.some((x) => x.id === t.id)) dispatch({ type: "upsert", ticket: t, top: false });
    } else if (matches(t)) dispatch({ type: "upsert", ticket: t, top: true });
    else dispatch({ type: "remove", id: t.id });
  });
  useChannel<ContactEvent>(live ? channel.contact(me.companyId) : null, (data) => {
    if (data.action === "update") dispatch({ type: "contact", contact: data.contact });
  });

  return { state, loadMore, reload };
}
