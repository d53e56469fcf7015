import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildTenant, buildUser, createTestApp, type TestApp } from "../../test/helper.js";

/**
 * Values unique platform-wide (migration 0798): their uniqueness lives in global_keys, kept by triggers
 * on the owning tables, and a taken value fails as the old unique index did (23505 naming the same
 * constraint), so the routes answer as before.
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const failure = (err: unknown) => ({ code: (err as { code?: string }).code, constraint: (err as { constraint?: string }).constraint });
const keysOf = (companyId: number) =>
  app.sql.many<{ kind: string; value: string }>("SELECT kind, value FROM global_keys WHERE company_id = $1 ORDER BY kind, value", [companyId]);

describe("global keys", () => {
  it("a sign-in e-mail is unique across companies, case-insensitively; changing or deleting a user frees it", async () => {
    const a = await buildCompany(app.sql);
    const b = await buildCompany(app.sql);
    const ana = await buildUser(app.sql, a, { email: "Ana.Souza@Cliente.test" });
    const taken = app.sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Outra', 'ana.souza@cliente.TEST', 'x')", [b]);
    await expect(taken.catch(failure)).resolves.toEqual({ code: "23505", constraint: "users_email_key" });
    // within one company too
    await expect(app.sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Outra', 'ANA.souza@cliente.test', 'x')", [a]).catch(failure)).resolves.toEqual({
      code: "23505",
      constraint: "users_email_key",
    });
    expect(await keysOf(a)).toContainEqual({ kind: "user_email", value: "ana.souza@cliente.test" });

    await app.sql.exec("UPDATE users SET email = 'ana@nova.test' WHERE company_id = $1 AND id = $2", [a, ana.id]);
    await app.sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Outra', 'ana.souza@cliente.test', 'x')", [b]);
    await app.sql.exec("DELETE FROM users WHERE company_id = $1 AND id = $2", [a, ana.id]);
    await app.sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Ana de novo', 'ana@nova.test', 'x')", [b]);
    expect((await keysOf(a)).filter((k) => k.kind === "user_email")).toEqual([]);
  });

  it("the API refuses another company's e-mail as before, and a deleted company's keys go with it", async () => {
    const t = await buildTenant(app);
    const other = await buildTenant(app);
    const res = await app.api("POST", "/api/users", {
      token: t.admin.token,
      body: { name: "Copia", email: other.user.email.toUpperCase(), password: "segredo123", profile: "user" },
    });
    expect(res.json().error).toBe("ERR_EMAIL_ALREADY_EXISTS");
    expect((await keysOf(other.companyId)).filter((k) => k.kind === "user_email")).toHaveLength(3);
    await app.sql.exec("DELETE FROM companies WHERE id = $1", [other.companyId]);
    expect(await keysOf(other.companyId)).toEqual([]);
    const again = await app.api("POST", "/api/users", {
      token: t.admin.token,
      body: { name: "Agora pode", email: other.user.email, password: "segredo123", profile: "user" },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it("short-link codes, connection tokens and Pix txids are unique platform-wide; no value is no key", async () => {
    const a = await buildCompany(app.sql);
    const b = await buildCompany(app.sql);
    const link = async (companyId: number, code: string) => {
      const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
      const center = await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Centro ${code}`]);
      const template = await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Oferta', 'Veja') RETURNING id", [companyId]);
      const campaign = await one<{ id: number }>(
        "INSERT INTO sms_campaigns (company_id, title, cost_center_id, template_id, template_content) VALUES ($1, 'Oferta', $2, $3, 'Veja') RETURNING id",
        [companyId, center.id, template.id],
      );
      const row = await one<{ id: number }>(
        "INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, state) VALUES ($1, $2, 1, '5511988887777', 'pending') RETURNING id",
        [companyId, campaign.id],
      );
      await app.sql.exec("INSERT INTO sms_short_links (code, company_id, campaign_id, recipient_id, url) VALUES ($1, $2, $3, $4, 'https://loja.test')", [
        code,
        companyId,
        campaign.id,
        row.id,
      ]);
    };
    await link(a, "Ab12Cd34");
    await expect(link(b, "Ab12Cd34").catch(failure)).resolves.toEqual({ code: "23505", constraint: "sms_short_links_pkey" });
    await link(b, "ab12cd34"); // codes are case-sensitive

    const connection = (companyId: number, token: string) =>
      app.sql.exec("INSERT INTO whatsapps (company_id, name, token) VALUES ($1, $2, $3)", [companyId, `c${Math.random()}`, token]);
    await connection(a, "");
    await connection(b, ""); // an empty token is no token
    await connection(a, "tok-123");
    await expect(connection(b, "tok-123").catch(failure)).resolves.toEqual({ code: "23505", constraint: "whatsapps_token_key" });

    const charge = async (companyId: number, txid: string) => {
      const invoice = await app.sql.one<{ id: number }>("INSERT INTO invoices (company_id, due_date, recurrence, value, detail) VALUES ($1, current_date, 'MENSAL', 10, 'Plano') RETURNING id", [
        companyId,
      ]);
      await app.sql.exec("INSERT INTO pix_charges (company_id, invoice_id, txid, amount, brcode, expires_at) VALUES ($1, $2, $3, 10, 'br', now() + interval '1 day')", [
        companyId,
        invoice.id,
        txid,
      ]);
    };
    await charge(a, "txid0000000000000000000000001");
    await expect(charge(b, "txid0000000000000000000000001").catch(failure)).resolves.toEqual({ code: "23505", constraint: "pix_charges_txid_key" });

    expect(await keysOf(a)).toEqual([
      { kind: "connection_token", value: "tok-123" },
      { kind: "pix_txid", value: "txid0000000000000000000000001" },
      { kind: "short_link", value: "Ab12Cd34" },
    ]);
  });
});
