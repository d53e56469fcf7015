import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { createPool } from "../../db/sql.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";
import { insertContact } from "./test-fixtures.js";
import { expectEvery } from "../../../test/expect-every.js";
import { dueJobsSettled, waitFor } from "../../../test/wait.js";
import { SEND_JOB } from "./job.js";

/** A second server process on the same database (as after a restart, or a second replica). */
async function startProcess(a: TestApp): Promise<BuiltApp & { end(): Promise<void> }> {
  const pool = createPool(a.databaseUrl, 5);
  const b = await buildApp({ ...a.ctx.config }, pool, a.databaseUrl);
  await b.start();
  await b.app.ready();
  return { ...b, end: async () => { await b.close(); await pool.end(); } };
}

/** Stops a process's server and job workers without dropping its database. */
async function stopProcess(a: BuiltApp): Promise<void> {
  await a.ctx.realtime.close();
  await a.app.close();
  await a.ctx.jobs.stop();
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-restart-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("schedules: exactly once across processes", () => {
  it("fires once after a server restart", async () => {
    const a = await createTestApp({ dataDir });
    const t = await buildTenant(a);
    await connectedSandbox(a, t.admin.token);
    const contactId = await insertContact(a.sql, t.companyId);
    const res = await a.api("POST", "/api/schedules", {
      token: t.admin.token,
      body: { body: "Enviada depois do reinício", contactId, sendAt: new Date(Date.now() + 2000).toISOString() },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().id as number;
    await stopProcess(a);
    const before = await a.sql.one<{ sent_at: Date | null; status: string }>("SELECT sent_at, status FROM schedules WHERE id = $1", [id]);
    expect(before).toMatchObject({ sent_at: null, status: "AGENDADA" });

    const b = await startProcess(a);
    try {
      const row = await waitFor(() => a.sql.maybe<{ sent_at: Date; status: string }>("SELECT sent_at, status FROM schedules WHERE id = $1 AND sent_at IS NOT NULL", [id]));
      expect(row.status).toBe("ENVIADA");
      // every job that could send it again has ended
      await dueJobsSettled(a.sql, SEND_JOB, { scheduleId: id });
      const n = await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND body = 'Enviada depois do reinício'", [t.companyId]);
      expect(n.n).toBe(1);
      const phone = await a.sql.one<{ n: number }>(
        "SELECT count(*)::int AS n FROM sandbox_messages WHERE company_id = $1 AND direction = 'outbound' AND body = 'Enviada depois do reinício'",
        [t.companyId],
      );
      expect(phone.n).toBe(1);
    } finally {
      await b.end();
      // teardown only: a leftover test database is dropped by the global teardown
      await a.close().catch((err: unknown) => console.warn("teardown: closing the first process failed", err));
    }
  });

  it("fires once when two processes share the job queue", async () => {
    const a = await createTestApp({ dataDir });
    const t = await buildTenant(a);
    await connectedSandbox(a, t.admin.token);
    const contactId = await insertContact(a.sql, t.companyId);
    // Both processes run the connection's driver (B resumes it on start) and both work the queue.
    const b = await startProcess(a);
    try {
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await a.api("POST", "/api/schedules", {
          token: t.admin.token,
          body: { body: `Duas réplicas ${i}`, contactId, sendAt: new Date(Date.now() + 1000).toISOString() },
        });
        ids.push(res.json().id);
      }
      await waitFor(() => a.sql.maybe("SELECT 1 WHERE (SELECT count(*) FROM schedules WHERE id = ANY($1) AND sent_at IS NOT NULL) = 6", [ids]));
      for (const id of ids) await dueJobsSettled(a.sql, SEND_JOB, { scheduleId: id });
      const rows = await a.sql.many<{ body: string; n: number }>(
        "SELECT body, count(*)::int AS n FROM messages WHERE company_id = $1 GROUP BY body",
        [t.companyId],
      );
      expect(rows).toHaveLength(6);
      expectEvery(rows, (r) => r.n === 1);
    } finally {
      await b.end();
      await a.close();
    }
  });
});
