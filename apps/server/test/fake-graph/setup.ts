import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Config } from "../../src/config.js";
import { buildTenant, createTestApp, type TestApp } from "../helper.js";
import { fakePhone } from "./builders.js";
import { FakeGraph } from "./server.js";
import { waitFor } from "../wait.js";

export { FakeGraph };
export { fakePhone, fakeTemplate } from "./builders.js";

/** The app under test with its Graph base URL on the fake and its media in a private folder. */
export async function createOfficialTestApp(fake: FakeGraph, overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atende-official-"));
  const app = await createTestApp({ whatsappGraphUrl: fake.url, dataDir, ...overrides });
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return app;
}

/** Creates the fake's business through the API and syncs it; returns its id and the webhook URL base. */
export async function addBusiness(app: TestApp, adminToken: string, fake: FakeGraph, o: { name?: string; verifyToken?: string } = {}): Promise<number> {
  const res = await app.api("POST", "/api/businesses", {
    token: adminToken,
    body: { name: o.name ?? "Conta Oficial", wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: fake.appSecret, verifyToken: o.verifyToken ?? "verify-token-123" },
  });
  if (res.statusCode !== 200) throw new Error(`create business failed: ${res.body}`);
  return res.json().id as number;
}

export async function syncBusiness(app: TestApp, adminToken: string, businessId: number) {
  const res = await app.api("POST", `/api/businesses/${businessId}/sync`, { token: adminToken });
  if (res.statusCode !== 200) throw new Error(`sync failed: ${res.body}`);
  return res.json();
}

export { waitFor };

/** Waits until every stored webhook delivery of the business has been processed. */
export async function webhooksSettled(app: TestApp, businessId: number, count?: number): Promise<void> {
  await waitFor(
    async () => {
      const r = await app.sql.one<{ total: number; done: number }>(
        "SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'processed')::int AS done FROM webhook_events WHERE business_id = $1",
        [businessId],
      );
      return r.total === r.done && (count === undefined || r.total >= count);
    },
    20_000,
    "webhook processing",
  );
}

export interface OfficialTenant {
  companyId: number;
  admin: { id: number; email: string; token: string };
  supervisor: { id: number; email: string; token: string };
  user: { id: number; email: string; token: string };
  businessId: number;
  numbers: { id: number; whatsappId: number; phoneNumberId: string; phoneNumber: string; displayPhoneNumber: string }[];
}

/** A company whose business (on the fake) was synced with the given numbers. */
export async function officialTenant(app: TestApp, fake: FakeGraph, digits: string[]): Promise<OfficialTenant> {
  const tenant = await buildTenant(app);
  fake.phones = digits.map((d) => fakePhone({ digits: d }));
  const businessId = await addBusiness(app, tenant.admin.token, fake);
  await syncBusiness(app, tenant.admin.token, businessId);
  const numbers = await app.sql.many<{ id: number; whatsapp_id: number; phone_number_id: string; phone_number: string; display_phone_number: string }>(
    "SELECT id, whatsapp_id, phone_number_id, phone_number, display_phone_number FROM official_numbers WHERE business_id = $1 ORDER BY phone_number",
    [businessId],
  );
  return {
    ...tenant,
    businessId,
    numbers: numbers.map((n) => ({ id: n.id, whatsappId: n.whatsapp_id, phoneNumberId: n.phone_number_id, phoneNumber: n.phone_number, displayPhoneNumber: n.display_phone_number })),
  };
}
