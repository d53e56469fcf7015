import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { giveDueSimulatedStatuses, type SimulatedStatus } from "./sender.js";

// no dispatcher here (runJobs off): only the calls below give the statuses
let app: TestApp;
let companyId: number;
let whatsappId: number;
beforeAll(async () => {
  app = await createTestApp({ runJobs: false });
  const t = await buildTenant(app);
  companyId = t.companyId;
  whatsappId = (await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider) VALUES ($1, 'Sandbox', 'sandbox') RETURNING id", [companyId])).id;
});
afterAll(() => app.close());

/** Rows a process left owing: their first step due now. */
async function owed(n: number, steps: string[]): Promise<string[]> {
  const rows = await app.sql.many<{ provider_id: string }>(
    `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, ack, simulated_steps, simulated_due_at, simulated_row_id)
     SELECT $1, $2, 'SBC-' || g || '-' || gen_random_uuid(), 'outbound', '5511' || g, 'texto', 1, $3, now(), g FROM generate_series(1, $4) g
     RETURNING provider_id`,
    [companyId, whatsappId, steps, n],
  );
  return rows.map((r) => r.provider_id);
}

const dueNow = () => app.sql.exec("UPDATE sandbox_messages SET simulated_due_at = now() WHERE simulated_due_at IS NOT NULL");
const give = (apply: (companyId: number, s: SimulatedStatus[]) => Promise<void>, claimMs = 30_000) =>
  giveDueSimulatedStatuses(app.sql, { limit: 500, stepMs: 60_000, claimMs, log: app.ctx.log }, apply);

describe("the sandbox business's simulated statuses are owed by rows", () => {
  it("gives each row's steps in order, once each, moving the phone's ticks, whichever call runs them", async () => {
    const ids = await owed(20, ["sent", "delivered", "read"]);
    const given: SimulatedStatus[] = [];
    const apply = async (_: number, s: SimulatedStatus[]) => void given.push(...s);
    expect(await give(apply)).toBe(20);
    // the next step waits its delay: nothing is due yet
    expect(await give(apply)).toBe(0);
    await dueNow();
    // two runs at once (two processes): each row's step is given by one of them
    const [a, b] = await Promise.all([give(apply), give(apply)]);
    expect(a + b).toBe(20);
    await dueNow();
    expect(await give(apply)).toBe(20);
    for (const id of ids) expect(given.filter((s) => s.providerId === id).map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
    expect(given[0]).toMatchObject({ companyId, errorCode: null });
    const left = await app.sql.one<{ pending: number; read: number }>(
      "SELECT count(*) FILTER (WHERE simulated_due_at IS NOT NULL)::int AS pending, count(*) FILTER (WHERE ack = 4)::int AS read FROM sandbox_messages WHERE provider_id = ANY($1)",
      [ids],
    );
    expect(left).toEqual({ pending: 0, read: 20 });
  });

  it("a step whose handler failed (or whose process stopped) is given again when its claim expires", async () => {
    const [id] = await owed(1, ["sent", "failed"]);
    const given: SimulatedStatus[] = [];
    await expect(give(async () => Promise.reject(new Error("database away")), 200)).resolves.toBe(1);
    expect(await give(async (_, s) => void given.push(...s))).toBe(0); // still claimed
    await new Promise((r) => setTimeout(r, 300));
    expect(await give(async (_, s) => void given.push(...s))).toBe(1);
    await dueNow();
    expect(await give(async (_, s) => void given.push(...s))).toBe(1);
    expect(given.map((s) => [s.providerId, s.status, s.errorCode])).toEqual([
      [id, "sent", null],
      [id, "failed", 131026],
    ]);
  });
});
