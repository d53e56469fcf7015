import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import { buildCompany, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const isoInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("auth", () => {
  it("logs in with the seeded super administrator and reads /auth/me", async () => {
    const res = await app.api("POST", "/api/auth/login", { body: { email: "root@platform.test", password: "secret123" } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ super: true, profile: "admin", companyId: expect.any(Number) });
    expect(body.user.company.plan.useKanban).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
    const cookie = res.cookies.find((c) => c.name === "jrt");
    expect(cookie?.httpOnly).toBe(true);
    const me = await app.api("GET", "/api/auth/me", { token: body.token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe("root@platform.test");
  });

  it("refuses a wrong password and an unknown e-mail with the same code", async () => {
    const a = await app.api("POST", "/api/auth/login", { body: { email: "root@platform.test", password: "nope" } });
    const b = await app.api("POST", "/api/auth/login", { body: { email: "ghost@platform.test", password: "nope" } });
    expect(a.statusCode).toBe(401);
    expect(a.json().error).toBe("ERR_INVALID_CREDENTIALS");
    expect(b.json().error).toBe("ERR_INVALID_CREDENTIALS");
  });

  it("refuses a company whose due date has passed, with the date, and creates no session", async () => {
    const companyId = await buildCompany(app.sql, { dueDate: "2020-01-31" });
    const u = await buildUser(app.sql, companyId);
    const res = await app.api("POST", "/api/auth/login", { body: { email: u.email, password: "secret123" } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: "2020-01-31" });
    expect(res.cookies.find((c) => c.name === "jrt")).toBeUndefined();
    const tokens = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1", [u.id]);
    expect(tokens.n).toBe(0);
  });

  it("warns with the days left when fewer than 5 remain", async () => {
    const companyId = await buildCompany(app.sql, { dueDate: isoInDays(2) });
    const u = await buildUser(app.sql, companyId);
    const res = await app.api("POST", "/api/auth/login", { body: { email: u.email, password: "secret123" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().warningDays).toBe(2);
  });

  it("rotates the refresh token: a spent one works again only for a few seconds (a reload that lost the answer), then no more", async () => {
    const login = await app.api("POST", "/api/auth/login", { body: { email: "root@platform.test", password: "secret123" } });
    const first = login.cookies.find((c) => c.name === "jrt")!.value;
    const r1 = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie: `jrt=${first}` } });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().token).toBeTruthy();
    // the answer never reached the page (it was reloaded): the same token once more, within the grace
    const again = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie: `jrt=${first}` } });
    expect(again.statusCode).toBe(200);
    expect(again.cookies.find((c) => c.name === "jrt")!.value).not.toBe(first);
    // past the grace the spent token is refused
    await app.sql.exec("UPDATE refresh_tokens SET revoked_at = now() - interval '11 seconds' WHERE revoked_at IS NOT NULL");
    const r2 = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie: `jrt=${first}` } });
    expect(r2.statusCode).toBe(401);
    expect(r2.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("a second login ends the first session and sends it the auth event", async () => {
    const companyId = await buildCompany(app.sql);
    const u = await buildUser(app.sql, companyId);
    const firstToken = await app.login(u.email);
    const base = await app.listen();
    const socket = connect(base, { auth: { token: firstToken }, transports: ["websocket"] });
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const event = new Promise<unknown>((resolve) => socket.on(`company-${companyId}-auth`, resolve));
    await app.login(u.email);
    await expect(event).resolves.toEqual({ action: "update", user: { id: u.id } });
    socket.close();
    const me = await app.api("GET", "/api/auth/me", { token: firstToken });
    expect(me.statusCode).toBe(401);
  });

  it("logout revokes the refresh token", async () => {
    const login = await app.api("POST", "/api/auth/login", { body: { email: "root@platform.test", password: "secret123" } });
    const cookie = login.cookies.find((c) => c.name === "jrt")!.value;
    const out = await app.api("DELETE", "/api/auth/logout", { token: login.json().token });
    expect(out.statusCode).toBe(200);
    const r = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie: `jrt=${cookie}` } });
    expect(r.statusCode).toBe(401);
  });

  it("rejects requests without a token and with a forged one", async () => {
    expect((await app.api("GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/auth/me", { token: "x.y.z" })).json().error).toBe("ERR_SESSION_EXPIRED");
  });
});
