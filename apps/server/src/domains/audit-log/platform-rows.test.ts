import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

/**
 * Rows without a tenant (a failed sign-in with an e-mail no user has, mail sent without a company)
 * belong to the platform company (migration 0797): its administrators see them, no tenant does.
 */
let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let root: string;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  root = await app.login("root@platform.test");
});
afterAll(async () => {
  await app?.close();
});

describe("the platform's own rows", () => {
  it("a failed sign-in with an unknown e-mail is in the platform's audit log, not in a tenant's", async () => {
    const res = await app.api("POST", "/api/auth/login", { body: { email: "ninguem@fora.test", password: "whatever1" }, headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(res.statusCode).toBe(401);
    const platform = (await app.api("GET", "/api/audit-log?action=login.failed", { token: root })).json();
    expect(platform.entries).toContainEqual(
      expect.objectContaining({ action: "login.failed", ip: "203.0.113.9", target: { type: "user", id: null, label: "ninguem@fora.test" }, details: { reason: "unknown_email" } }),
    );
    const tenant = (await app.api("GET", "/api/audit-log?action=login.failed", { token: t.admin.token })).json();
    expect(JSON.stringify(tenant.entries)).not.toContain("ninguem@fora.test");
    const { n } = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE company_id IS NULL");
    expect(n).toBe(0);
  });

  it("mail sent without a company is the platform's in the sandbox mailbox: the super admin sees it marked, a tenant's admin does not", async () => {
    const asked = await app.api("POST", `/api/forgetpassword/${encodeURIComponent(t.user.email)}`);
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const mailbox = async (token: string) =>
      (await app.api("GET", `/api/email/sandbox/?to=${encodeURIComponent(t.user.email)}`, { token })).json() as { results: { subject: string; platform: boolean }[]; count: number };
    // the code is mailed after the answer
    await expect.poll(async () => (await mailbox(root)).count, { timeout: 5000 }).toBe(1);
    expect((await mailbox(root)).results[0]).toMatchObject({ subject: "Código para redefinir sua senha", platform: true });
    expect((await mailbox(t.admin.token)).count).toBe(0);
    const stored = await app.sql.one<{ platform: boolean }>(
      "SELECT c.is_platform AS platform FROM email_sandbox_messages m JOIN companies c ON c.id = m.company_id WHERE m.to_address = $1",
      [t.user.email],
    );
    expect(stored.platform).toBe(true);
  });
});
