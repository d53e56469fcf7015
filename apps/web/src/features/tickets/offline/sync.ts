import { useEffect, useRef } from "react";
import { channel, LIMITS, type AppMessageEvent, type SessionUser, type TicketEvent } from "@atende/shared";
import { syncTickets } from "../api/tickets";
import { useChannel, useSocketReconnect } from "../hooks/use-realtime";
import { visibleTo, type Viewer } from "../lib/rules";
import type { Ticket } from "../types";
import { latestUpdatedAt, openOffline, pruneClosed, putMessage, putTickets, removeTicket } from "./db";
import { logFailure } from "../../../lib/log-failure";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let running: Promise<void> | null = null;

/** Pages backwards (until = the oldest updatedAt received) through one window, 1 s after each answer. */
async function pull(q: { since?: string; status?: string }, maxRounds: number, signal: AbortSignal): Promise<void> {
  let until: string | undefined;
  for (let round = 0; round < maxRounds && !signal.aborted; round++) {
    const res = await syncTickets({ ...q, until }, signal);
    await putTickets(res.tickets);
    await sleep(LIMITS.ticketSyncDelayMs);
    const oldest = res.tickets[res.tickets.length - 1]?.updatedAt;
    if (!res.hasMore || !oldest) break;
    until = oldest;
  }
}

/**
 * Keeps the offline cache current with GET /tickets/sync. A first run fills it (every non-closed
 * ticket the user may see, the 100 newest closed ones); later runs fetch what changed since the
 * newest cached ticket. One run at a time for the whole app.
 */
export function runSync(signal: AbortSignal): Promise<void> {
  running ??= (async () => {
    try {
      const since = await latestUpdatedAt();
      if (since) await pull({ since }, 20, signal);
      else {
        for (const status of ["open", "pending", "paused"]) await pull({ status }, 10, signal);
        await pull({ status: "closed" }, 1, signal);
      }
      await pruneClosed();
    } catch (err) {
      logFailure("offline cache: runSync failed", err);
      // offline or not available: the cache simply stays as it is
    } finally {
      running = null;
    }
  })();
  return running;
}

/**
 * Opens the user's cache, syncs it and keeps it current with the live events. A ticket an event shows
 * leaving the user's view (moved to another queue, say) is dropped from the cache rather than kept.
 */
export function useOfflineSync(me: Viewer & Pick<SessionUser, "companyId">): void {
  const meRef = useRef(me);
  useEffect(() => {
    meRef.current = me;
  });
  const keep = (t: Ticket) => (visibleTo(meRef.current, t, true) ? putTickets([t]) : removeTicket(t.id));

  useEffect(() => {
    const ctrl = new AbortController();
    void openOffline(me.companyId, me.id).then(() => runSync(ctrl.signal));
    return () => ctrl.abort();
  }, [me.companyId, me.id]);

  useSocketReconnect(() => void runSync(new AbortController().signal));

  useChannel<TicketEvent>(channel.ticket(me.companyId), (data) => {
    if (data.action === "update") void keep(data.ticket);
    if (data.action === "delete") void removeTicket(data.ticketId);
  });
  useChannel<AppMessageEvent<Ticket>>(channel.appMessage(me.companyId), (data) => {
    void putMessage(data.message);
    if (data.ticket) void keep(data.ticket);
  });
}
