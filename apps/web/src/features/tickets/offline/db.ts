import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import { LIMITS } from "@atende/shared";
import type { Message, Ticket } from "../types";
import { logFailure } from "../../../lib/log-failure";

/**
 * The offline cache (spec 1-core §3): tickets and messages in IndexedDB, one database per user so one
 * person's cache is never shown to another. Every call degrades to a no-op when IndexedDB is missing.
 */
interface OfflineSchema extends DBSchema {
  tickets: {
    key: number;
    value: Ticket;
    indexes: { status: string; userId: number; contactId: number; updatedAt: string };
  };
  messages: {
    key: number;
    value: Message;
    indexes: { ticketCreatedAt: [number, string] };
  };
}

type Db = IDBPDatabase<OfflineSchema>;
let current: { name: string; db: Promise<Db | null> } | null = null;

const dbName = (companyId: number, userId: number) => `atende-offline-${companyId}-${userId}`;

export function openOffline(companyId: number, userId: number): Promise<Db | null> {
  const name = dbName(companyId, userId);
  if (current?.name === name) return current.db;
  // Another user's connection left open would block the deletion of that user's cache (and every
  // later open of it behind the pending deletion), e.g. after a session ended by a 401.
  if (current) void current.db.then((previous) => previous?.close());
  const db = (typeof indexedDB === "undefined"
    ? Promise.resolve(null)
    : openDB<OfflineSchema>(name, 1, {
        upgrade(d) {
          const tickets = d.createObjectStore("tickets", { keyPath: "id" });
          tickets.createIndex("status", "status");
          tickets.createIndex("userId", "userId");
          tickets.createIndex("contactId", "contactId");
          tickets.createIndex("updatedAt", "updatedAt");
          const messages = d.createObjectStore("messages", { keyPath: "id" });
          messages.createIndex("ticketCreatedAt", ["ticketId", "createdAt"]);
        },
      })
  ).catch((err: unknown) => {
    // The cache is optional (spec 1-core §3): the workspace works from the server alone.
    console.warn(`offline cache ${name} unavailable`, err);
    return null;
  });
  current = { name, db };
  return db;
}

/**
 * Deletes one user's offline cache (on logout and when the account logs in elsewhere): closes the open
 * connection first, which would otherwise block the deletion. Never rejects.
 */
export async function clearOfflineCache(companyId: number, userId: number): Promise<void> {
  const name = dbName(companyId, userId);
  if (current?.name === name) {
    const open = current.db;
    current = null;
    (await open)?.close();
  }
  if (typeof indexedDB === "undefined") return;
  await new Promise<void>((resolve) => {
    try {
      const req = indexedDB.deleteDatabase(name);
      req.onsuccess = req.onerror = req.onblocked = () => resolve();
    } catch (err) {
      logFailure("offline cache: clearOfflineCache failed", err);
      resolve();
    }
  });
}

function db(): Promise<Db | null> {
  return current?.db ?? Promise.resolve(null);
}

/** Strip what should not be cached (embedded messages travel separately). */
function plainTicket(t: Ticket & { messages?: unknown }): Ticket {
  const { messages: _m, ...rest } = t;
  return rest;
}

export async function putTickets(tickets: (Ticket & { messages?: Message[] })[]): Promise<void> {
  const d = await db();
  if (!d || tickets.length === 0) return;
  try {
    const tx = d.transaction(["tickets", "messages"], "readwrite");
    const touched = new Set<number>();
    for (const t of tickets) {
      const existing = await tx.objectStore("tickets").get(t.id);
      if (existing && existing.updatedAt > t.updatedAt) continue;
      await tx.objectStore("tickets").put(plainTicket(t));
      for (const m of t.messages ?? []) {
        await tx.objectStore("messages").put(m);
        touched.add(t.id);
      }
    }
    await tx.done;
    for (const id of touched) await trimMessages(id);
  } catch (err) {
    logFailure("offline cache: putTickets failed", err);
    // the cache is best effort
  }
}

export async function putMessage(message: Message): Promise<void> {
  const d = await db();
  if (!d) return;
  try {
    await d.put("messages", message);
    await trimMessages(message.ticketId);
  } catch (err) {
    logFailure("offline cache: putMessage failed", err);
    // best effort
  }
}

export async function removeTicket(ticketId: number): Promise<void> {
  const d = await db();
  if (!d) return;
  try {
    await d.delete("tickets", ticketId);
    const range = IDBKeyRange.bound([ticketId, ""], [ticketId, "\uffff"]);
    const keys = await d.getAllKeysFromIndex("messages", "ticketCreatedAt", range);
    const tx = d.transaction("messages", "readwrite");
    for (const k of keys) await tx.store.delete(k);
    await tx.done;
  } catch (err) {
    logFailure("offline cache: removeTicket failed", err);
    // best effort
  }
}

/** Keeps the 30 most recent messages of one ticket. */
async function trimMessages(ticketId: number): Promise<void> {
  const d = await db();
  if (!d) return;
  const range = IDBKeyRange.bound([ticketId, ""], [ticketId, "\uffff"]);
  const keys = await d.getAllKeysFromIndex("messages", "ticketCreatedAt", range);
  const extra = keys.length - LIMITS.offlineMessagesPerTicket;
  if (extra <= 0) return;
  const tx = d.transaction("messages", "readwrite");
  for (const k of keys.slice(0, extra)) await tx.store.delete(k);
  await tx.done;
}

/** Keeps the 100 most recently updated closed tickets (and drops the others' messages). */
export async function pruneClosed(): Promise<void> {
  const d = await db();
  if (!d) return;
  try {
    const closed = await d.getAllFromIndex("tickets", "status", "closed");
    closed.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
    for (const t of closed.slice(LIMITS.offlineClosedTickets)) await removeTicket(t.id);
  } catch (err) {
    logFailure("offline cache: pruneClosed failed", err);
    // best effort
  }
}

export async function cachedTickets(status: string): Promise<Ticket[]> {
  const d = await db();
  if (!d) return [];
  try {
    const rows = await d.getAllFromIndex("tickets", "status", status);
    return rows.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  } catch (err) {
    logFailure("offline cache: cachedTickets failed", err);
    return [];
  }
}

export async function cachedTicket(uuid: string): Promise<Ticket | undefined> {
  const d = await db();
  if (!d) return undefined;
  try {
    const all = await d.getAll("tickets");
    return all.find((t) => t.uuid === uuid || String(t.id) === uuid);
  } catch (err) {
    logFailure("offline cache: cachedTicket failed", err);
    return undefined;
  }
}

export async function cachedMessages(ticketId: number): Promise<Message[]> {
  const d = await db();
  if (!d) return [];
  try {
    const range = IDBKeyRange.bound([ticketId, ""], [ticketId, "\uffff"]);
    return await d.getAllFromIndex("messages", "ticketCreatedAt", range);
  } catch (err) {
    logFailure("offline cache: cachedMessages failed", err);
    return [];
  }
}

/** The newest updatedAt in the cache: where the next sync starts. */
export async function latestUpdatedAt(): Promise<string | undefined> {
  const d = await db();
  if (!d) return undefined;
  try {
    const cursor = await d.transaction("tickets").store.index("updatedAt").openCursor(null, "prev");
    return cursor?.value.updatedAt;
  } catch (err) {
    logFailure("offline cache: latestUpdatedAt failed", err);
    return undefined;
  }
}
