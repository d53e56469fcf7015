import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, type TestApp } from "../../../test/helper.js";
import { addBusiness, createOfficialTestApp, FakeGraph, fakePhone, fakeTemplate, officialTenant, syncBusiness, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { expectEvery } from "../../../test/expect-every.js";

let app: TestApp;
let fake: FakeGraph;
let a: OfficialTenant;
let b: OfficialTenant;
let secondBusiness: number;
beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
  a = await officialTenant(app, fake, ["5511900001111", "5511900002222"]);
  // a second account of the same company, with a number Meta reports as banned
  fake.phones = [fakePhone({ digits: "5521900003333", status: "BANNED", quality_rating: "RED", messaging_limit_tier: "TIER_250" })];
  await app.sql.exec("UPDATE businesses SET waba_id = '42' WHERE id = $1", [a.businessId]); // distinct WABA ids
  secondBusiness = await addBusiness(app, a.admin.token, fake, { name: "Filial" });
  await syncBusiness(app, a.admin.token, secondBusiness);
  b = await officialTenant(app, fake, ["5531900004444"]);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const list = (token: string, q = "") => app.api("GET", `/api/officialWhatsapp/${q ? `?${q}` : ""}`, { token });

describe("official connections: access", () => {
  it("needs a session, supervisor to read and admin to edit", async () => {
    expect((await app.api("GET", "/api/officialWhatsapp/")).statusCode).toBe(401);
    expect((await app.api("PUT", "/api/officialWhatsapp/bulk", { body: { ids: [1], active: false } })).statusCode).toBe(401);
    expect((await app.api("PUT", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { body: { active: false } })).statusCode).toBe(401);
    expect((await list(a.user.token)).statusCode).toBe(403);
    expect((await list(a.supervisor.token)).statusCode).toBe(200);
    expect((await app.api("PUT", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { token: a.supervisor.token, body: { active: false } })).statusCode).toBe(403);
    expect((await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.supervisor.token, body: { ids: [a.numbers[0]!.id], active: false } })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/officialWhatsapp/templates", { token: a.user.token })).statusCode).toBe(403);
  });

  it("shows and changes only the company's own numbers", async () => {
    const mine = (await list(b.admin.token)).json();
    expect(mine.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual(["5531900004444"]);
    expect((await app.api("GET", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { token: b.admin.token })).statusCode).toBe(404);
    expect((await app.api("PUT", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { token: b.admin.token, body: { active: false } })).statusCode).toBe(404);
    const bulk = await app.api("PUT", "/api/officialWhatsapp/bulk", { token: b.admin.token, body: { ids: [b.numbers[0]!.id, a.numbers[0]!.id], active: false } });
    expect(bulk.statusCode).toBe(404);
    // nothing changed on either side
    const rows = await app.sql.many<{ active: boolean }>("SELECT active FROM official_numbers WHERE id = ANY($1::int[])", [[b.numbers[0]!.id, a.numbers[0]!.id]]);
    expectEvery(rows, (r) => r.active);
    // another company's queue cannot be the transfer queue
    const foreignQueue = await buildQueue(app.sql, b.companyId);
    const res = await app.api("PUT", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { token: a.admin.token, body: { transferQueueId: foreignQueue } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.transferQueueId).toBeDefined();
  });
});

describe("official connections: list and edit", () => {
  it("lists every number with the page's fields and filters by phone, business, phone status and active", async () => {
    const all = (await list(a.supervisor.token)).json();
    expect(all).toHaveLength(3);
    const banned = all.find((n: { phoneNumber: string }) => n.phoneNumber === "5521900003333");
    expect(banned).toMatchObject({
      businessName: "Filial",
      businessId: secondBusiness,
      messagingLimit: "TIER_250",
      phoneStatus: "DISABLED",
      phoneStatusReason: "BANNED",
      operatingStatus: "BANNED",
      qualityScore: "RED",
      accountStatus: "APPROVED",
      active: true,
      transferQueue: null,
      whatsappId: expect.any(Number),
    });
    expect(JSON.stringify(all)).not.toContain(fake.accessToken);

    const byPhone = (await list(a.supervisor.token, "phoneNumber=2222")).json();
    expect(byPhone.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual(["5511900002222"]);
    const byBusiness = (await list(a.supervisor.token, `businessId=${a.businessId}`)).json();
    expect(byBusiness).toHaveLength(2);
    const disabled = (await list(a.supervisor.token, "phoneStatus=DISABLED")).json();
    expect(disabled.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual(["5521900003333"]);
    expect((await list(a.supervisor.token, "phoneStatus=BROKEN")).statusCode).toBe(400);

    await app.api("PUT", `/api/officialWhatsapp/${a.numbers[1]!.id}`, { token: a.admin.token, body: { active: false } });
    expect((await list(a.supervisor.token, "active=false")).json().map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual(["5511900002222"]);
    expect((await list(a.supervisor.token, "active=true")).json()).toHaveLength(2);
    await app.api("PUT", `/api/officialWhatsapp/${a.numbers[1]!.id}`, { token: a.admin.token, body: { active: true } });
  });

  it("edits one number and several at once (active, transfer queue), and the connection follows the transfer queue", async () => {
    const queue = await buildQueue(app.sql, a.companyId, { name: "Suporte" });
    const one = await app.api("PUT", `/api/officialWhatsapp/${a.numbers[0]!.id}`, { token: a.admin.token, body: { transferQueueId: queue } });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ transferQueueId: queue, transferQueue: { id: queue, name: "Suporte" }, active: true });
    const conn = await app.api("GET", `/api/whatsapp/${a.numbers[0]!.whatsappId}`, { token: a.admin.token });
    expect(conn.json()).toMatchObject({ transferQueueId: queue, isOfficial: true, provider: "official" });

    const ids = a.numbers.map((n) => n.id);
    const bulk = await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.admin.token, body: { ids, active: false, transferQueueId: null } });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().updated).toBe(2);
    expect(bulk.json().records.map((r: { active: boolean; transferQueueId: number | null }) => [r.active, r.transferQueueId])).toEqual([
      [false, null],
      [false, null],
    ]);
    // only active changes when only active is given
    await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.admin.token, body: { ids: [ids[0]], transferQueueId: queue } });
    const again = await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.admin.token, body: { ids: [ids[0]], active: true } });
    expect(again.json().records[0]).toMatchObject({ active: true, transferQueueId: queue });
    expect((await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.admin.token, body: { ids: [ids[0]] } })).statusCode).toBe(400);
    expect((await app.api("PUT", "/api/officialWhatsapp/bulk", { token: a.admin.token, body: { ids: [], active: true } })).statusCode).toBe(400);
  });

  it("lists the company's templates, optionally by business", async () => {
    const res = await app.api("GET", `/api/officialWhatsapp/templates?businessId=${secondBusiness}`, { token: a.supervisor.token });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
    // the other company syncs a template: it sees it, and the first company does not
    fake.phones = [fakePhone({ digits: "5531900004444" })];
    fake.templates = [fakeTemplate("pedido_saiu")];
    await syncBusiness(app, b.admin.token, b.businessId);
    const other = await app.api("GET", "/api/officialWhatsapp/templates", { token: b.admin.token });
    expectEvery(other.json(), (t: { businessId: number }) => t.businessId === b.businessId);
    const own = await app.api("GET", "/api/officialWhatsapp/templates", { token: a.supervisor.token });
    expect(own.json().filter((t: { businessId: number }) => t.businessId === b.businessId)).toEqual([]);
  });
});
