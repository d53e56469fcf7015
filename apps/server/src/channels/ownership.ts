import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Sql } from "../db/sql.js";

/**
 * Leases on connections (table connection_owners): the driver of a connection runs only in the
 * process holding its lease. A process renews its leases every HEARTBEAT_MS; a lease not renewed for
 * LEASE_TTL_SECONDS is free to claim.
 */
export const HEARTBEAT_MS = 30_000;
export const LEASE_TTL_SECONDS = 90;

/** The owner ids of this process (one per server instance; tests run two in one process). */
const ownIds = new Set<string>();

export function newOwnerId(): string {
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  ownIds.add(id);
  return id;
}

/**
 * A lease as its holder knows it: the connection and the epoch it was taken with. Writes the holder makes
 * on the connection's state carry it (`fenced`, `assertFence`), so they are refused once another process
 * has taken the lease (a new epoch) or the lease was released (no row).
 */
export interface LeaseFence {
  whatsappId: number;
  epoch: number;
}

/** A write refused because the process no longer holds the connection's lease (it was taken over or released). */
export class LeaseLostError extends Error {
  constructor(readonly fence: LeaseFence) {
    super(`the lease of connection ${fence.whatsappId} (epoch ${fence.epoch}) is no longer held by this process`);
    this.name = "LeaseLostError";
  }
}

/**
 * Claims a connection's lease: always when `takeOver` (an administrator started the session here),
 * otherwise only when it is free, expired or already ours. The lease's epoch when this process holds it
 * now (a new one when the holder changed or `takeOver`: a restarted session fences its former driver
 * too), null otherwise.
 */
export async function claimLease(sql: Sql, whatsappId: number, ownerId: string, takeOver: boolean): Promise<LeaseFence | null> {
  const row = await sql.maybe<{ owner_id: string; epoch: number }>(
    `INSERT INTO connection_owners (company_id, whatsapp_id, owner_id, heartbeat_at) SELECT company_id, id, $2, now() FROM whatsapps WHERE id = $1
     ON CONFLICT (company_id, whatsapp_id) DO UPDATE SET owner_id = EXCLUDED.owner_id, heartbeat_at = now(),
            epoch = CASE WHEN $3 OR connection_owners.owner_id <> EXCLUDED.owner_id THEN EXCLUDED.epoch ELSE connection_owners.epoch END
      WHERE $3 OR connection_owners.owner_id = EXCLUDED.owner_id
         OR connection_owners.heartbeat_at < now() - make_interval(secs => $4)
     RETURNING owner_id, epoch`,
    [whatsappId, ownerId, takeOver, LEASE_TTL_SECONDS],
  );
  return row?.owner_id === ownerId ? { whatsappId, epoch: row.epoch } : null;
}

/**
 * The SQL condition of a fenced statement: true while the lease row still carries the fence's epoch.
 * `FOR SHARE` locks that row until the statement's transaction ends, so a takeover (an UPDATE of the
 * row) waits for the write to commit, and a write after a committed takeover sees the new epoch and
 * does nothing. `w` and `e` are the placeholders of the connection id and the epoch.
 */
export const fenceCondition = (w: string, e: string) =>
  `EXISTS (SELECT 1 FROM connection_owners WHERE whatsapp_id = ${w} AND epoch = ${e} FOR SHARE)`;

/**
 * Inside a transaction: locks the lease row while it carries the fence's epoch (see fenceCondition), or
 * throws LeaseLostError. The transaction's later writes are then the current holder's.
 */
export async function assertFence(sql: Sql, fence: LeaseFence): Promise<void> {
  const row = await sql.maybe("SELECT 1 FROM connection_owners WHERE whatsapp_id = $1 AND epoch = $2 FOR SHARE", [fence.whatsappId, fence.epoch]);
  if (!row) throw new LeaseLostError(fence);
}

/** Runs `write` in a transaction that first checks (and locks) the fence: nothing is written by a former holder. */
export function fenced<T>(sql: Sql, fence: LeaseFence, write: (tx: Sql) => Promise<T>): Promise<T> {
  return sql.tx(async (tx) => {
    await assertFence(tx, fence);
    return write(tx);
  });
}

/**
 * Whether the process an owner id names is known to be gone: it ran on this host (same hostname) and
 * its pid is this process's own without being one of its owner ids (a restarted container reuses
 * the pid) or no longer exists. An owner on another host is never judged from here: its lease
 * expires by itself.
 */
export function ownerIsGone(ownerId: string): boolean {
  const [host, pidText] = ownerId.split(":");
  if (host !== hostname() || !pidText || ownIds.has(ownerId)) return false;
  const pid = Number(pidText);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: no such process; EPERM: it exists but belongs to another user
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Frees the leases of processes of this host that are gone (a crash or kill before they could
 * release them), so their connections are taken over at start instead of after LEASE_TTL_SECONDS.
 */
export async function releaseGoneOwners(sql: Sql, ownerId: string): Promise<number> {
  const rows = await sql.many<{ owner_id: string }>("SELECT DISTINCT owner_id FROM connection_owners WHERE owner_id <> $1", [ownerId]);
  const gone = rows.map((r) => r.owner_id).filter(ownerIsGone);
  if (!gone.length) return 0;
  return sql.exec("DELETE FROM connection_owners WHERE owner_id = ANY($1::text[])", [gone]);
}

export async function releaseLease(sql: Sql, whatsappId: number, ownerId: string): Promise<void> {
  await sql.exec("DELETE FROM connection_owners WHERE whatsapp_id = $1 AND owner_id = $2", [whatsappId, ownerId]);
}

/** NOTIFY channel of freed leases (payload: the connection ids): processes that run sessions take them at once. */
export const RELEASED_CHANNEL = "connection_leases_freed";

/** Frees every lease of this process (shutdown); returns the connections freed. */
export async function releaseAll(sql: Sql, ownerId: string): Promise<number[]> {
  const rows = await sql.many<{ whatsapp_id: number }>("DELETE FROM connection_owners WHERE owner_id = $1 RETURNING whatsapp_id", [ownerId]);
  return rows.map((r) => r.whatsapp_id);
}

/** Renews every lease of this process; returns the connections it still holds. */
export async function renewLeases(sql: Sql, ownerId: string): Promise<Set<number>> {
  const rows = await sql.many<{ whatsapp_id: number }>(
    "UPDATE connection_owners SET heartbeat_at = now() WHERE owner_id = $1 RETURNING whatsapp_id",
    [ownerId],
  );
  return new Set(rows.map((r) => r.whatsapp_id));
}

/**
 * The connections this process holds, each with whether messages from other processes wait in its
 * outbox (messages.send_status = 'queued'). Polled often: one index probe per held connection.
 */
export function heldWithOutbox(sql: Sql, ownerId: string) {
  return sql.many<{ whatsapp_id: number; queued: boolean }>(
    `SELECT o.whatsapp_id, EXISTS (SELECT 1 FROM messages m WHERE m.whatsapp_id = o.whatsapp_id AND m.send_status = 'queued') AS queued
       FROM connection_owners o WHERE o.owner_id = $1`,
    [ownerId],
  );
}

/** Connected sessions nobody runs (no lease, or an expired one): a process may start them. */
export function unownedConnected(sql: Sql) {
  return sql.many<{ id: number; company_id: number; provider: string }>(
    `SELECT w.id, w.company_id, w.provider FROM whatsapps w
       LEFT JOIN connection_owners o ON o.whatsapp_id = w.id
      WHERE w.status = 'CONNECTED' AND (o.whatsapp_id IS NULL OR o.heartbeat_at < now() - make_interval(secs => $1))
      ORDER BY w.id`,
    [LEASE_TTL_SECONDS],
  );
}

/** Where a connection's driver runs, as seen from `ownerId`. */
export function connectionRoute(sql: Sql, companyId: number, whatsappId: number, ownerId: string) {
  return sql.maybe<{ status: string; provider: string; expires_ticket: number; owner: "me" | "other" | "none" }>(
    `SELECT w.status, w.provider, w.expires_ticket,
            CASE WHEN o.owner_id IS NULL OR o.heartbeat_at < now() - make_interval(secs => $4) THEN 'none'
                 WHEN o.owner_id = $3 THEN 'me' ELSE 'other' END AS owner
       FROM whatsapps w LEFT JOIN connection_owners o ON o.whatsapp_id = w.id
      WHERE w.company_id = $1 AND w.id = $2`,
    [companyId, whatsappId, ownerId, LEASE_TTL_SECONDS],
  );
}
