import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { channels } from "../../channels/manager.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import type { TestApp } from "../../../test/helper.js";

/**
 * A template sent from a ticket on a web process (ROLE web), whose official connection runs on another
 * process (A): stored there and sent by A through its outbox, not refused with ERR_WAPP_NOT_INITIALIZED.
 */
let app: TestApp;
let web: BuiltApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;

beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [fakeTemplate("pedido_enviado", { components: [{ type: "BODY", text: "Olá {{1}}, seu pedido saiu." }] })];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511922229001"]);
  web = await buildApp({ ...app.ctx.config, role: "web", runJobs: false, runSessions: false }, app.pool, app.databaseUrl);
  await web.start();
  await web.app.ready();
});
afterAll(async () => {
  await web.close();
  await app.close();
  await fake.close();
});

describe("a template from a ticket, asked of a web process", () => {
  it("is stored by the web process and sent once by the process that runs the connection", async () => {
    const from = "5511944449001";
    const phone = { id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber };
    const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone, { contacts: [{ wa_id: from, name: "Cliente" }], messages: [P.text(from, "Oi")] })]]);
    expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload)).status).toBe(200);
    await webhooksSettled(app, a.businessId);
    const ticket = await app.sql.one<{ id: number; whatsapp_id: number }>(
      `SELECT t.id, t.whatsapp_id FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id WHERE t.company_id = $1 AND c.number = $2`,
      [a.companyId, from],
    );
    expect(channels(app.ctx).get(ticket.whatsapp_id)).toBeDefined();
    expect(channels(web.ctx).get(ticket.whatsapp_id)).toBeUndefined();
    const templateId = (await app.sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1 AND name = 'pedido_enviado'", [a.businessId])).id;
    const auth = { authorization: `Bearer ${a.admin.token}` };
    expect((await web.app.inject({ method: "PUT", url: `/api/tickets/${ticket.id}`, headers: auth, payload: { status: "open", userId: a.admin.id } })).statusCode).toBe(200);

    const res = await web.app.inject({ method: "POST", url: `/api/officialWhatsapp/ticket/${ticket.id}/template`, headers: auth, payload: { templateId, variables: ["Ana"] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ack: 1, fromMe: true, body: "Olá Ana, seu pedido saiu." });
    const sent = fake.messagesTo(from).filter((m) => m.body.type === "template");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.template).toMatchObject({ name: "pedido_enviado", components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }] });
  });
});
