import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("company time zone", () => {
  it("defaults to America/Sao_Paulo and is in the session and the company", async () => {
    const t = await buildTenant(app);
    const me = (await app.api("GET", "/api/auth/me", { token: t.user.token })).json();
    expect(me.company.timeZone).toBe("America/Sao_Paulo");
    expect((await app.api("GET", `/api/companies/${t.companyId}`, { token: t.admin.token })).json().timeZone).toBe("America/Sao_Paulo");
  });

  it("the company's admin changes it to an IANA zone; others may not; unknown names are refused", async () => {
    const t = await buildTenant(app);
    const other = await buildTenant(app);
    const url = `/api/companies/${t.companyId}/time-zone`;
    expect((await app.api("PUT", url, { body: { timeZone: "America/Manaus" } })).statusCode).toBe(401);
    expect((await app.api("PUT", url, { token: t.user.token, body: { timeZone: "America/Manaus" } })).statusCode).toBe(403);
    expect((await app.api("PUT", url, { token: other.admin.token, body: { timeZone: "America/Manaus" } })).statusCode).toBe(404);
    const bad = await app.api("PUT", url, { token: t.admin.token, body: { timeZone: "Brasil/Horário" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");

    const res = await app.api("PUT", url, { token: t.admin.token, body: { timeZone: "America/Manaus" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().timeZone).toBe("America/Manaus");
    const row = await app.sql.one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [t.companyId]);
    expect(row.time_zone).toBe("America/Manaus");
    const me = (await app.api("GET", "/api/auth/me", { token: t.user.token })).json();
    expect(me.company.timeZone).toBe("America/Manaus");
  });
});
