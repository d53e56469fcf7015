import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { channels } from "../../channels/manager.js";
import * as businessRepo from "../businesses/repository.js";
import { seedSandboxBusiness } from "./sandbox-business.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("sandbox business", () => {
  it("creates once (idempotent) a business with two sandbox numbers and approved templates of each kind", async () => {
    const t = await buildTenant(app);
    const first = await app.api("POST", "/api/businesses/sandbox", { token: t.admin.token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ name: "BM de teste (sandbox)", created: true, numbers: 2, templates: 5 });
    const again = await app.api("POST", "/api/businesses/sandbox", { token: t.admin.token });
    expect(again.json()).toEqual({ ...first.json(), created: false });
    const businessId = first.json().id as number;

    const business = await app.sql.one<{ sandbox: boolean; access_token: string }>("SELECT sandbox, access_token FROM businesses WHERE id = $1", [businessId]);
    expect(business).toEqual({ sandbox: true, access_token: "" });
    const conns = await app.sql.many<{ id: number; provider: string; status: string; number: string; is_default: boolean }>(
      "SELECT w.id, w.provider, w.status, w.number, w.is_default FROM whatsapps w JOIN official_numbers o ON o.whatsapp_id = w.id WHERE o.business_id = $1 ORDER BY w.id",
      [businessId],
    );
    expect(conns.map((c) => [c.provider, c.status, c.number])).toEqual([
      ["sandbox", "CONNECTED", `5500000${String(conns[0]!.id).padStart(6, "0")}`],
      ["sandbox", "CONNECTED", `5500000${String(conns[1]!.id).padStart(6, "0")}`],
    ]);
    expect(conns.map((c) => c.is_default)).toEqual([true, false]);
    for (const c of conns) expect(channels(app.ctx).get(c.id)).toBeDefined();

    const phones = (await app.api("GET", `/api/phones/?BusinessId=${businessId}&output=true`, { token: t.supervisor.token })).json();
    expect(phones.map((p: { messagingLimit: string; remainingOutput: number }) => [p.messagingLimit, p.remainingOutput])).toEqual([
      ["TIER_1K", 1000],
      ["TIER_1K", 1000],
    ]);
    const templates = (await app.api("GET", `/api/templates/?BusinessId=${businessId}`, { token: t.supervisor.token })).json() as {
      name: string;
      category: string;
      type: string;
      variableCount: number;
      validation: { valid: boolean };
      PhoneNumbers: unknown[];
    }[];
    expect(templates.map((x) => [x.name, x.category, x.type, x.variableCount, x.validation.valid, x.PhoneNumbers.length])).toEqual([
      ["codigo_verificacao", "AUTHENTICATION", "TEXT", 1, true, 2],
      ["entrega_agendada", "UTILITY", "TEXT", 2, true, 2],
      ["novidades_loja", "MARKETING", "TEXT", 0, true, 2],
      ["oferta_imagem", "MARKETING", "IMAGE", 1, true, 2],
      ["pedido_confirmado", "UTILITY", "TEXT", 1, true, 2],
    ]);
    // a template removed by hand comes back on the next call
    await app.sql.exec("DELETE FROM whatsapp_templates WHERE business_id = $1 AND name = 'novidades_loja'", [businessId]);
    expect((await app.api("POST", "/api/businesses/sandbox", { token: t.admin.token })).json().templates).toBe(5);
  });

  it("is never synced with Meta and never matched by a webhook", async () => {
    const t = await buildTenant(app);
    const id = (await app.api("POST", "/api/businesses/sandbox", { token: t.admin.token })).json().id as number;
    const sync = await app.api("POST", `/api/businesses/${id}/sync`, { token: t.admin.token });
    expect(sync.statusCode).toBe(409);
    expect(sync.json().error).toBe("ERR_SANDBOX_BUSINESS_NO_SYNC");
    // its secrets are empty: a verification or a delivery "signed" with an empty secret must not pass
    const verify = await app.api("GET", `/api/webhooks/whatsapp/${id}?hub.mode=subscribe&hub.verify_token=&hub.challenge=123`);
    expect(verify.statusCode).toBe(403);
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: "sandbox", changes: [] }] });
    const signature = `sha256=${createHmac("sha256", "").update(body).digest("hex")}`;
    const post = await app.api("POST", `/api/webhooks/whatsapp/${id}`, { body, headers: { "content-type": "application/json", "x-hub-signature-256": signature } });
    expect(post.statusCode).toBe(401);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE business_id = $1", [id])).n).toBe(0);
    // the webhook lookups never return it (by URL id or by WABA id)
    expect(await businessRepo.findSecretsForWebhook(app.sql, app.ctx.secrets, id)).toBeNull();
    expect(await businessRepo.findSecretsByWaba(app.sql, app.ctx.secrets, "sandbox")).toEqual([]);
    // its numbers are ordinary sandbox connections: a customer's message opens a ticket
    const conn = await app.sql.one<{ whatsapp_id: number }>("SELECT whatsapp_id FROM official_numbers WHERE business_id = $1 ORDER BY id LIMIT 1", [id]);
    const inbound = await app.api("POST", `/api/sandbox/${conn.whatsapp_id}/inbound`, { token: t.admin.token, body: { number: "5511987650001", name: "Cliente", body: "Oi" } });
    expect(inbound.statusCode, inbound.body).toBe(200);
    const ticket = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE company_id = $1 AND whatsapp_id = $2", [t.companyId, conn.whatsapp_id]);
    expect(ticket.n).toBe(1);
  });

  it("respects the plan's connection limit and the server's sandbox switch", async () => {
    const t = await buildTenant(app, { plan: { connections: 1 } });
    const res = await app.api("POST", "/api/businesses/sandbox", { token: t.admin.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_PLAN_LIMIT_REACHED");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM businesses WHERE company_id = $1", [t.companyId])).n).toBe(0);

    const off = await createTestApp({ enableSandbox: false });
    try {
      const o = await buildTenant(off);
      const refused = await off.api("POST", "/api/businesses/sandbox", { token: o.admin.token });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("ERR_SANDBOX_DISABLED");
      // the first-start seed does nothing there
      await seedSandboxBusiness(off.ctx);
      expect((await off.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM businesses")).n).toBe(0);
    } finally {
      await off.close();
    }
  });

  it("is seeded for the platform company on first start where the sandbox is allowed", async () => {
    await seedSandboxBusiness(app.ctx);
    await seedSandboxBusiness(app.ctx);
    const rows = await app.sql.many<{ name: string; numbers: number }>(
      `SELECT b.name, (SELECT count(*)::int FROM official_numbers o WHERE o.business_id = b.id) AS numbers
         FROM businesses b JOIN companies c ON c.id = b.company_id WHERE c.is_platform AND b.sandbox`,
    );
    expect(rows).toEqual([{ name: "BM de teste (sandbox)", numbers: 2 }]);
  });
});
