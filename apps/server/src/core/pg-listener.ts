import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import type { Sql } from "../db/sql.js";

type Handler = (payload: string) => void;

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * PostgreSQL LISTEN/NOTIFY for one process: one dedicated connection (not from the pool, which would
 * hand it back) that listens on every channel asked for and hands each notification's payload to the
 * channel's handlers. A lost connection is logged and opened again after RECONNECT_MS; notifications
 * sent meanwhile are lost, so every user also polls (slowly) for what it may have missed.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Calls `handler` with the payload of every notification on `channel` from now on. */
  async listen(channel: string, handler: Handler): Promise<void> {
    // channel names are the code's constants, written into LISTEN as identifiers
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`invalid notification channel ${channel}`);
    let set = this.handlers.get(channel);
    const fresh = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    if (this.closed) return;
    if (!this.client) await this.connect();
    else if (fresh) await this.client.query(`LISTEN ${channel}`);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on("notification", (m) => {
      for (const handler of this.handlers.get(m.channel) ?? []) handler(m.payload ?? "");
    });
    client.on("error", (err) => {
      this.log.warn({ err }, "the LISTEN connection failed; it connects again");
      this.lost(client);
    });
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
    } catch (err) {
      this.log.warn({ err }, "could not open the LISTEN connection; trying again");
      await client.end().catch((endErr: unknown) => this.log.debug({ err: endErr }, "closing a failed LISTEN connection"));
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client === client) this.client = null;
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed && !this.client) void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch((err: unknown) => this.log.warn({ err }, "closing the LISTEN connection failed"));
  }
}

/** Sends a notification (delivered when the surrounding transaction, if any, commits). */
export async function notify(sql: Sql, channel: string, payload: string): Promise<void> {
  await sql.exec("SELECT pg_notify($1, $2)", [channel, payload]);
}
