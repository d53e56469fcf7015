import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestPki, type TestPki } from "../../../test/fake-pix-psp/certificates.js";
import { startFakePsp, type FakePsp } from "../../../test/fake-pix-psp/server.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { issueInvoices } from "./invoices.js";
import { reconcileAll } from "./payments.js";
import { pixDriverOf } from "./driver-of.js";
import { todayUtc } from "./today.js";
import { webhookSecret } from "./repository.js";

/** The whole server with PIX_PROVIDER=bcb against the fake PSP over mutual TLS. */
let app: TestApp;
let pki: TestPki;
let psp: FakePsp;
let secret: string;

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startFakePsp(pki);
  app = await createTestApp({
    pix: {
      provider: "bcb",
      baseUrl: psp.url,
      tokenUrl: `${psp.url}/oauth/token`,
      clientId: psp.clientId,
      clientSecret: psp.clientSecret,
      certFile: pki.clientCertFile,
      keyFile: pki.clientKeyFile,
      caFile: pki.caFile,
      chave: "financeiro@atende.test",
      merchantName: "Atende",
      merchantCity: "Sao Paulo",
      registerWebhook: true,
    },
  });
  secret = await webhookSecret(app.sql, app.ctx.secrets);
});
afterAll(async () => {
  await app.close();
  await psp.close();
  pki.cleanup();
});

async function billedTenant() {
  const due = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
  const t = await buildTenant(app, { dueDate: due });
  await app.sql.exec("UPDATE plans SET value = 79.9 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId]);
  await issueInvoices(app.ctx, todayUtc());
  const { id } = await app.sql.one<{ id: number }>("SELECT id FROM invoices WHERE company_id = $1", [t.companyId]);
  const pix = (
    await app.api("POST", "/api/subscription", { token: t.admin.token, body: { firstName: "Ana", address2: "Rua B", city: "Recife", zipcode: "50000-000", country: "BR", invoiceId: id } })
  ).json();
  return { ...t, invoiceId: id, pix };
}
const status = async (id: number) => (await app.sql.one<{ status: string }>("SELECT status FROM invoices WHERE id = $1", [id])).status;

describe("Pix through a PSP speaking the BCB API", () => {
  it("registers the webhook URL with the installation's secret at start (PIX_REGISTER_WEBHOOK)", async () => {
    for (let i = 0; i < 50 && !psp.webhooks.size; i++) await new Promise((r) => setTimeout(r, 100));
    expect(psp.webhooks.get("financeiro@atende.test")).toMatch(new RegExp(`/api/pix/webhook/${secret}$`));
    const root = await app.login("root@platform.test");
    expect((await app.api("GET", "/api/pix/webhook-url", { token: root })).json()).toEqual({ url: psp.webhooks.get("financeiro@atende.test"), provider: "bcb" });
  });

  it("checkout makes a cob at the PSP; a webhook for an unpaid cob pays nothing; once paid, the webhook pays the invoice", async () => {
    const t = await billedTenant();
    expect(psp.cobs.get(t.pix.txid)).toMatchObject({ valor: { original: "79.90" }, chave: "financeiro@atende.test" });
    expect(t.pix.qrcode.qrcode).toContain(psp.cobs.get(t.pix.txid)!.location);
    const hook = (body: unknown) => app.api("POST", `/api/pix/webhook/${secret}/pix`, { body });
    await hook({ pix: [{ endToEndId: "E99999999202611260000forged0001", txid: t.pix.txid, valor: "79.90" }] });
    expect(await status(t.invoiceId)).toBe("open");
    const paid = psp.pay(t.pix.txid);
    await hook({ pix: [paid] });
    expect(await status(t.invoiceId)).toBe("paid");
    expect((await app.sql.many("SELECT end_to_end_id FROM pix_payments WHERE invoice_id = $1", [t.invoiceId])).map((r) => r.end_to_end_id)).toEqual([paid.endToEndId]);
  });

  it("the reconciliation job pays an invoice whose webhook never came", async () => {
    const t = await billedTenant();
    psp.pay(t.pix.txid);
    expect(await status(t.invoiceId)).toBe("open");
    await reconcileAll(app.ctx, pixDriverOf(app.ctx)!);
    expect(await status(t.invoiceId)).toBe("paid");
  });
});
