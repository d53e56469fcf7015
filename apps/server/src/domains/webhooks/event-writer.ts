import type { FastifyBaseLogger } from "fastify";
import { WorkLine } from "../../core/work-line.js";
import type { Sql } from "../../db/sql.js";
import * as repo from "./repository.js";

interface Pending {
  value: repo.NewEvent;
  resolve: (id: number | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Stores deliveries as they arrive, several per statement: POSTs that come in while a write is under
 * way wait for the next one, which inserts them all in one multi-row statement (one commit), and
 * each POST is answered once its own row is stored. A busy number's thousand single-message
 * deliveries a second then cost a few dozen commits, not a thousand. When a grouped insert fails
 * (one body PostgreSQL refuses), each delivery of the group is stored alone, so only that one fails.
 */
export class WebhookEventWriter {
  private readonly line: WorkLine<Pending>;

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
  ) {
    this.line = new WorkLine((group) => this.write(group), {
      parallel: 2,
      maxGroup: 500,
      // write() settles every POST itself; anything escaping it must still answer them
      onFailure: (err, group) => group.forEach((p) => p.reject(err)),
    });
  }

  /** The stored event's id; null when the same body was already received. */
  store(value: repo.NewEvent): Promise<number | null> {
    return new Promise((resolve, reject) => void this.line.push({ value, resolve, reject }));
  }

  private async write(group: Pending[]): Promise<void> {
    try {
      const ids = await repo.insertEvents(this.sql, group.map((p) => p.value));
      group.forEach((p, i) => p.resolve(ids[i] ?? null));
    } catch (err) {
      this.log.warn({ err, deliveries: group.length }, "grouped webhook insert refused; storing each delivery alone");
      await Promise.all(group.map((p) => repo.insertEvents(this.sql, [p.value]).then((ids) => p.resolve(ids[0] ?? null), p.reject)));
    }
  }
}
