import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { runScheduledStart } from "./schedule.js";
import { seedCampaignWorld, type CampaignWorld } from "./test-fixtures.js";

/** GET /api/campaigns (filters, paging, dates in the company's zone), access rules, isolation, schedules. */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: CampaignWorld;
let ow: CampaignWorld;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedCampaignWorld(app, t.companyId);
  ow = await seedCampaignWorld(app, other.companyId);
  // the company works in Manaus (UTC−4): its days start at 04:00Z
  await app.sql.exec("UPDATE companies SET time_zone = 'America/Manaus' WHERE id = $1", [t.companyId]);
  // the rows below stand for what the dispatcher left; with an active number the test app's own
  // dispatcher would take the RUNNING one (no recipients left) and finish it while the tests read it
  await app.sql.exec("UPDATE official_numbers SET active = false WHERE company_id = ANY($1::int[])", [[t.companyId, other.companyId]]);
});
afterAll(async () => {
  await app.close();
});

/** A campaign row as the dispatcher would leave it (counters and status set directly). */
async function campaignRow(o: { companyId?: number; world?: CampaignWorld; name: string; createdAt: string; status?: string; costCenterId?: number; counters?: Record<string, number> }) {
  const world = o.world ?? w;
  const counters = o.counters ?? {};
  const cols = Object.keys(counters);
  const row = await app.sql.one<{ id: number }>(
    `INSERT INTO campaigns (company_id, name, cost_center_id, business_id, queue_id, status, created_at${cols.map((c) => `, ${c}`).join("")})
     VALUES ($1, $2, $3, $4, $5, $6, $7${cols.map((_, i) => `, $${i + 8}`).join("")}) RETURNING id`,
    [o.companyId ?? t.companyId, o.name, o.costCenterId ?? world.costCenterId, world.businessId, world.queueId, o.status ?? "READY", o.createdAt, ...Object.values(counters)],
  );
  return row.id;
}

const list = async (query: string, token = t.supervisor.token) => {
  const res = await app.api("GET", `/api/campaigns${query}`, { token });
  return { status: res.statusCode, body: res.json() };
};
const names = (body: { data: { name: string }[] }) => body.data.map((c) => c.name);

describe("access", () => {
  it("no session 401; a plain user 403; a supervisor and an admin 200", async () => {
    expect((await app.api("GET", "/api/campaigns")).statusCode).toBe(401);
    expect((await list("", t.user.token)).status).toBe(403);
    expect((await list("", t.user.token)).body.error).toBe("ERR_NO_PERMISSION");
    expect((await list("", t.supervisor.token)).status).toBe(200);
    expect((await list("", t.admin.token)).status).toBe(200);
  });

  it("a plan without useCampaigns: ERR_PLAN_FEATURE_DISABLED on every route", async () => {
    const noPlan = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
    for (const [method, url] of [
      ["GET", "/api/campaigns"],
      ["GET", "/api/campaigns/1"],
      ["POST", "/api/campaigns"],
      ["PUT", "/api/campaigns/1/schedule"],
      ["DELETE", "/api/campaigns/1/schedule"],
      ["GET", "/api/campaigns/calendar"],
    ] as const) {
      const res = await app.api(method, url, { token: noPlan.admin.token, body: method === "PUT" ? { scheduledAt: "2099-01-01T10:00" } : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    }
  });

  it("the company's campaignsEnabled off: ERR_FEATURE_DISABLED, back on: allowed", async () => {
    const off = await buildTenant(app);
    const put = (value: string) => app.api("PUT", "/api/settings/campaignsEnabled", { token: off.admin.token, body: { value } });
    expect((await put("false")).statusCode).toBe(200);
    const res = await list("", off.admin.token);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("ERR_FEATURE_DISABLED");
    await put("true");
    expect((await list("", off.admin.token)).status).toBe(200);
  });
});

describe("GET /api/campaigns", () => {
  let ids: Record<string, number> = {};
  beforeAll(async () => {
    ids = {
      // 9 March 23:30 in Manaus
      lateNight: await campaignRow({ name: "Noite 09/03", createdAt: "2026-03-10T03:30:00Z" }),
      // 10 March 00:30 in Manaus
      morning: await campaignRow({ name: "Madrugada 10/03", createdAt: "2026-03-10T04:30:00Z", status: "RUNNING", counters: { count_total: 100, count_invalid: 10, count_delivered: 45, count_processed: 50 } }),
      otherCenter: await campaignRow({ name: "Vendas 11/03", createdAt: "2026-03-11T15:00:00Z", costCenterId: w.otherCostCenterId, status: "FINISHED" }),
      foreign: await campaignRow({ companyId: other.companyId, world: ow, name: "Outra empresa", createdAt: "2026-03-10T12:00:00Z" }),
    };
  });

  it("answers { data, countPages } with each item's fields, newest first, only the company's", async () => {
    const { body } = await list("?startDate=01/03/2026&endDate=31/03/2026");
    expect(names(body)).toEqual(["Vendas 11/03", "Madrugada 10/03", "Noite 09/03"]);
    expect(body.countPages).toBe(1);
    expect(body.data[1]).toMatchObject({
      id: ids.morning,
      name: "Madrugada 10/03",
      status: "RUNNING",
      source: "WEB",
      createdAt: "2026-03-10T04:30:00.000Z",
      costCenterId: w.costCenterId,
      costCenterName: expect.stringMatching(/^Marketing/),
      accountViolation: "",
      errorMessage: "",
      countTotal: 100,
      countInvalid: 10,
      countDelivered: 45,
      countProcessed: 50,
      countExpired: 0,
      countFailed: 0,
      countReplied: 0,
      countSent: 0,
      countRead: 0,
      analysedRows: 0,
      scheduledAt: null,
      startedAt: null,
      finishedAt: null,
    });
  });

  it("start and end dates are whole days in the company's time zone (dd/MM/yyyy)", async () => {
    expect(names((await list("?startDate=10/03/2026&endDate=10/03/2026")).body)).toEqual(["Madrugada 10/03"]);
    expect(names((await list("?startDate=09/03/2026&endDate=09/03/2026")).body)).toEqual(["Noite 09/03"]);
    expect(names((await list("?startDate=11/03/2026")).body)).toEqual(["Vendas 11/03"]);
    expect(names((await list("?endDate=09/03/2026")).body)).toEqual(["Noite 09/03"]);
  });

  it("status and cost center filters", async () => {
    expect(names((await list("?status=RUNNING")).body)).toEqual(["Madrugada 10/03"]);
    expect(names((await list(`?costCenterId=${w.otherCostCenterId}`)).body)).toEqual(["Vendas 11/03"]);
    expect(names((await list(`?costCenterId=${ow.costCenterId}`)).body)).toEqual([]);
  });

  it("bad filters answer 400, never 500", async () => {
    for (const q of ["?startDate=2026-03-10", "?endDate=31/02/2026", "?status=NOPE", "?page=0", "?costCenterId=abc", "?limit=1000"]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
  });

  it("pages of 20: 'Página X de Y'", async () => {
    for (let i = 0; i < 22; i++) await campaignRow({ name: `Página ${String(i).padStart(2, "0")}`, createdAt: `2026-05-01T12:${String(i).padStart(2, "0")}:00Z` });
    const first = await list("?startDate=01/05/2026&endDate=01/05/2026");
    expect(first.body.countPages).toBe(2);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0].name).toBe("Página 21");
    const second = await list("?startDate=01/05/2026&endDate=01/05/2026&page=2");
    expect(names(second.body)).toEqual(["Página 01", "Página 00"]);
    expect((await list("?startDate=01/05/2026&endDate=01/05/2026&page=3")).body).toEqual({ data: [], countPages: 2 });
  });

  it("GET /api/campaigns/:id and /recipients: another company's campaign is 404", async () => {
    expect((await app.api("GET", `/api/campaigns/${ids.morning}`, { token: t.supervisor.token })).json().name).toBe("Madrugada 10/03");
    for (const url of [`/api/campaigns/${ids.foreign}`, `/api/campaigns/${ids.foreign}/recipients`, "/api/campaigns/999999"]) {
      const res = await app.api("GET", url, { token: t.admin.token });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: "ERR_CAMPAIGN_NOT_FOUND", message: "Campanha não encontrada." });
    }
  });
});

describe("scheduled start and the calendar", () => {
  it("PUT reads a wall-clock time in the company's zone; the calendar lists it; DELETE clears it", async () => {
    const id = await campaignRow({ name: "Agendável", createdAt: "2026-06-01T12:00:00Z" });
    const put = await app.api("PUT", `/api/campaigns/${id}/schedule`, { token: t.supervisor.token, body: { scheduledAt: "2099-07-15T09:30" } });
    expect(put.statusCode, put.body).toBe(200);
    // 09:30 in Manaus is 13:30Z
    expect(put.json().scheduledAt).toBe("2099-07-15T13:30:00.000Z");
    const job = await app.sql.one<{ name: string; start_after: Date; data: unknown }>(
      "SELECT name, start_after, data FROM pgboss.job WHERE id = (SELECT schedule_job_id::uuid FROM campaigns WHERE id = $1)",
      [id],
    );
    expect(job).toMatchObject({ name: "campaigns.scheduled-start", data: { companyId: t.companyId, campaignId: id, at: "2099-07-15T13:30:00.000Z" } });
    expect(job.start_after.toISOString()).toBe("2099-07-15T13:30:00.000Z");
    const calendar = await app.api("GET", "/api/campaigns/calendar?month=2099-07", { token: t.supervisor.token });
    expect(calendar.json().map((c: { id: number }) => c.id)).toEqual([id]);
    expect((await app.api("GET", "/api/campaigns/calendar?month=2099-08", { token: t.supervisor.token })).json()).toEqual([]);
    expect((await app.api("GET", "/api/campaigns/calendar?month=2099-07", { token: other.admin.token })).json()).toEqual([]);
    const del = await app.api("DELETE", `/api/campaigns/${id}/schedule`, { token: t.supervisor.token });
    expect(del.statusCode).toBe(200);
    expect((await app.api("GET", `/api/campaigns/${id}`, { token: t.supervisor.token })).json().scheduledAt).toBeNull();
  });

  it("a past time, a finished campaign or another company's campaign is refused", async () => {
    const id = await campaignRow({ name: "Passado", createdAt: "2026-06-01T12:00:00Z" });
    const past = await app.api("PUT", `/api/campaigns/${id}/schedule`, { token: t.supervisor.token, body: { scheduledAt: "2020-01-01T10:00" } });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe("A data do agendamento deve ser futura.");
    const done = await campaignRow({ name: "Terminada", createdAt: "2026-06-01T12:00:00Z", status: "FINISHED" });
    const finished = await app.api("PUT", `/api/campaigns/${done}/schedule`, { token: t.supervisor.token, body: { scheduledAt: "2099-01-01T10:00" } });
    expect(finished.statusCode).toBe(409);
    expect(finished.json().error).toBe("ERR_CAMPAIGN_NOT_SCHEDULABLE");
    const foreign = await campaignRow({ companyId: other.companyId, world: ow, name: "Alheia", createdAt: "2026-06-01T12:00:00Z" });
    for (const method of ["PUT", "DELETE"]) {
      const res = await app.api(method, `/api/campaigns/${foreign}/schedule`, { token: t.admin.token, body: method === "PUT" ? { scheduledAt: "2099-01-01T10:00" } : undefined });
      expect(res.statusCode).toBe(404);
    }
  });

  it("at the scheduled time the dispatcher's campaign-dispatch.start is sent with {companyId, campaignId}; an edited schedule's old timer does nothing", async () => {
    const sent: { name: string; payload: unknown }[] = [];
    const original = app.ctx.jobs.send.bind(app.ctx.jobs);
    const spy = vi.spyOn(app.ctx.jobs, "send").mockImplementation(async (name, payload, options) => {
      if (name !== "campaign-dispatch.start") return original(name, payload, options);
      sent.push({ name, payload });
      return "fake-job";
    });
    try {
      const id = await campaignRow({ name: "Dispara", createdAt: "2026-06-01T12:00:00Z" });
      const soon = new Date(Date.now() + 1500).toISOString();
      expect((await app.api("PUT", `/api/campaigns/${id}/schedule`, { token: t.supervisor.token, body: { scheduledAt: soon } })).statusCode).toBe(200);
      const until = Date.now() + 15_000;
      while (sent.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(sent).toEqual([{ name: "campaign-dispatch.start", payload: { companyId: t.companyId, campaignId: id } }]);
      expect((await app.api("GET", `/api/campaigns/${id}`, { token: t.supervisor.token })).json().scheduledAt).toBeNull();

      // a timer for an instant the campaign is no longer scheduled at
      const edited = await campaignRow({ name: "Editada", createdAt: "2026-06-01T12:00:00Z" });
      await app.api("PUT", `/api/campaigns/${edited}/schedule`, { token: t.supervisor.token, body: { scheduledAt: "2099-01-01T10:00" } });
      await runScheduledStart(app.ctx, { companyId: t.companyId, campaignId: edited, at: "2098-01-01T14:00:00.000Z" });
      expect(sent).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  }, 30_000);
});
