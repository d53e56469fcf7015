import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

/** The BI embed: biUrl kept to https and the BI hosts (built in + BI_ALLOWED_HOSTS), and GET /bi for admins. */
let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let rootToken: string;

beforeAll(async () => {
  app = await createTestApp({ biAllowedHosts: ["metabase.acme.com.br", "*.bi.example.org"] });
  t = await buildTenant(app);
  other = await buildTenant(app);
  rootToken = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
});

const setBiUrl = (companyId: number, biUrl: string) => app.api("PUT", `/api/companies/${companyId}`, { token: rootToken, body: { biUrl } });

describe("biUrl on the company form", () => {
  it("accepts https URLs of the BI hosts and of the operator's list, and an empty one", async () => {
    for (const url of [
      "https://app.powerbi.com/view?r=eyJrIjoiNjE",
      "https://lookerstudio.google.com/embed/reporting/1a2b/page/p_x",
      "https://datastudio.google.com/embed/reporting/1a2b",
      "https://public.tableau.com/views/Vendas/Painel?:showVizHome=no",
      "https://acme.metabaseapp.com/public/dashboard/9f1c",
      "https://acme.grafana.net/d/abc/ops?kiosk",
      "https://metabase.acme.com.br/public/dashboard/1",
      "https://dash.bi.example.org/x",
      "",
    ]) {
      const res = await setBiUrl(t.companyId, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json().biUrl).toBe(url);
    }
  });

  it("refuses anything else with ERR_VALIDATION and a clear message", async () => {
    await setBiUrl(t.companyId, "https://app.powerbi.com/view?r=ok");
    for (const [url, message] of [
      ["http://app.powerbi.com/view?r=1", "biUrl must start with https://"],
      ["javascript:alert(1)", "biUrl must start with https://"],
      ["<iframe src=https://app.powerbi.com></iframe>", "biUrl is not a valid URL"],
      ["https://user:pass@app.powerbi.com/view", "biUrl is not a valid URL"],
      ["https://evil.example.com/app.powerbi.com", "biUrl's host is not on the list of allowed BI hosts"],
      ["https://app.powerbi.com.evil.com/view", "biUrl's host is not on the list of allowed BI hosts"],
      ["https://metabaseapp.com/public/dashboard/1", "biUrl's host is not on the list of allowed BI hosts"],
      ["https://bi.example.org/x", "biUrl's host is not on the list of allowed BI hosts"],
      ["https://metabase.other.com.br/public", "biUrl's host is not on the list of allowed BI hosts"],
    ]) {
      const res = await setBiUrl(t.companyId, url!);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ error: "ERR_VALIDATION", message, fields: { biUrl: message } });
    }
    const kept = await app.api("GET", "/api/bi", { token: t.admin.token });
    expect(kept.json().biUrl).toBe("https://app.powerbi.com/view?r=ok");
  });

  it("keeps a biUrl stored before the rule while other fields are saved", async () => {
    await app.sql.exec("UPDATE companies SET bi_url = 'http://old.example.com/bi' WHERE id = $1", [other.companyId]);
    const res = await app.api("PUT", `/api/companies/${other.companyId}`, { token: rootToken, body: { phone: "1133334444", biUrl: "http://old.example.com/bi" } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("refuses a bad biUrl on a new company too", async () => {
    const plan = (await app.sql.one<{ id: number }>("SELECT id FROM plans ORDER BY id LIMIT 1")).id;
    const res = await app.api("POST", "/api/companies", {
      token: rootToken,
      body: { name: `BI ${Date.now()}`, email: `bi-${Date.now()}@bi.test`, phone: "11999990000", planId: plan, password: "senha123", biUrl: "https://example.com/x" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ biUrl: "biUrl's host is not on the list of allowed BI hosts" });
  });
});

describe("GET /bi", () => {
  it("answers admins with the biUrl and the server's extra hosts; refuses others", async () => {
    await setBiUrl(t.companyId, "https://app.powerbi.com/view?r=abc");
    const res = await app.api("GET", "/api/bi", { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ biUrl: "https://app.powerbi.com/view?r=abc", extraHosts: ["metabase.acme.com.br", "*.bi.example.org"] });
    expect((await app.api("GET", "/api/bi", { token: t.supervisor.token })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/bi", { token: t.user.token })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/bi")).statusCode).toBe(401);
    // each company its own
    expect((await app.api("GET", "/api/bi", { token: other.admin.token })).json().biUrl).toBe("http://old.example.com/bi");
  });

  it("lets the BI hosts be framed by the app's pages (CSP frame-src)", async () => {
    const res = await app.api("GET", "/api/bi", { token: t.admin.token });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("frame-src https://www.youtube.com https://www.youtube-nocookie.com https://app.powerbi.com https://lookerstudio.google.com");
    expect(csp).toContain("https://*.grafana.net https://metabase.acme.com.br https://*.bi.example.org");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
