import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { io as connect, type Socket } from "socket.io-client";
import { createSession } from "../../core/sessions.js";
import { buildCompany, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { hashCode } from "../password-reset/service.js";
import * as resetRepo from "../password-reset/repository.js";

let app: TestApp;
let base: string;
let rootToken: string;
beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  rootToken = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
});

/** A connected socket and a promise of its disconnection (the reason). */
async function openSocket(token: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"], reconnection: false });
  const closed = new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason)));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, closed };
}

/** The handshake refusal's code, or "connected". */
function handshake(token: string): Promise<string> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"], reconnection: false });
  return new Promise<string>((resolve) => {
    socket.on("connect", () => {
      socket.close();
      resolve("connected");
    });
    socket.on("connect_error", (err) => {
      socket.close();
      resolve(err.message);
    });
  });
}

const within = <T>(p: Promise<T>, ms = 3000) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

const me = (token: string) => app.api("GET", "/api/auth/me", { token });

async function loggedInUser(profile: "admin" | "supervisor" | "user" = "user") {
  const companyId = await buildCompany(app.sql);
  const user = await buildUser(app.sql, companyId, { profile });
  const token = await app.login(user.email);
  return { companyId, user, token };
}

describe("access tokens", () => {
  // `tv` (the user's token version) made such tokens valid before sessions existed.
  let tv = 0;
  const claims = (companyId: number, sid?: string) => ({ cid: companyId, tv, ...(sid ? { sid } : {}) });
  const tokenVersion = async (userId: number) =>
    (tv = (await app.sql.one<{ token_version: number }>("SELECT token_version FROM users WHERE id = $1", [userId])).token_version);

  it("refuses a token signed with the old development constant", async () => {
    const { companyId, user } = await loggedInUser();
    const sid = await createSession(app.sql, companyId, user.id);
    await tokenVersion(user.id);
    const forged = await new SignJWT(claims(companyId, sid))
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(user.id))
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("development-only-jwt-secret-change-me"));
    expect((await me(forged)).json().error).toBe("ERR_SESSION_EXPIRED");
    expect(await handshake(forged)).toBe("ERR_SESSION_EXPIRED");
  });

  it("refuses a correctly signed token without exp or without sid", async () => {
    const { companyId, user } = await loggedInUser();
    const sid = await createSession(app.sql, companyId, user.id);
    await tokenVersion(user.id);
    const key = new TextEncoder().encode(app.ctx.config.jwtSecret);
    const noExp = await new SignJWT(claims(companyId, sid)).setProtectedHeader({ alg: "HS256" }).setSubject(String(user.id)).sign(key);
    const noSid = await new SignJWT(claims(companyId)).setProtectedHeader({ alg: "HS256" }).setSubject(String(user.id)).setExpirationTime("1h").sign(key);
    const good = await new SignJWT(claims(companyId, sid)).setProtectedHeader({ alg: "HS256" }).setSubject(String(user.id)).setExpirationTime("1h").sign(key);
    expect((await me(noExp)).statusCode).toBe(401);
    expect((await me(noSid)).statusCode).toBe(401);
    expect((await me(good)).statusCode).toBe(200);
  });
});

describe("a session ends everywhere at once", () => {
  it("on logout: the token and its socket", async () => {
    const { token } = await loggedInUser();
    const { closed } = await openSocket(token);
    expect((await app.api("DELETE", "/api/auth/logout", { token })).statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("on a login elsewhere, after telling the first browser why", async () => {
    const { companyId, user, token } = await loggedInUser();
    const { socket, closed } = await openSocket(token);
    const heard: string[] = [];
    socket.on(`company-${companyId}-auth`, (ev: { user?: { id?: number } }) => heard.push(`auth ${ev.user?.id}`));
    void closed.then(() => heard.push("closed"));
    const second = await app.login(user.email);
    await within(closed);
    // the notice arrives before the close, not dropped with it
    expect(heard).toEqual([`auth ${user.id}`, "closed"]);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("an ended session's refresh token no longer works", async () => {
    const { user } = await loggedInUser();
    const first = await app.api("POST", "/api/auth/login", { body: { email: user.email, password: "secret123" }, headers: { "x-forwarded-for": "10.200.0.1" } });
    const cookie = `jrt=${first.cookies.find((c) => c.name === "jrt")!.value}`;
    await app.login(user.email);
    const refreshed = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie } });
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("on a password reset", async () => {
    const { companyId, user, token } = await loggedInUser();
    const { closed } = await openSocket(token);
    await resetRepo.replaceCode(app.sql, companyId, user.id, hashCode(app.ctx.config.jwtSecret, user.id, "123456"), 15);
    const reset = await app.api("POST", `/api/resetpasswords/${encodeURIComponent(user.email)}/123456/NovaSenha1`);
    expect(reset.statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
  });

  it("on a password set by an administrator", async () => {
    const { companyId, user, token } = await loggedInUser();
    const admin = await buildUser(app.sql, companyId, { profile: "admin" });
    const adminToken = await app.login(admin.email);
    const { closed } = await openSocket(token);
    const put = await app.api("PUT", `/api/users/${user.id}`, { token: adminToken, body: { password: "outrasenha" } });
    expect(put.statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
  });

  it("on one's own password change: the other sessions end, the current one stays", async () => {
    const { companyId, user, token } = await loggedInUser();
    // A second live session of the same user (e.g. opened on another process just before).
    const otherSid = await createSession(app.sql, companyId, user.id);
    const other = await app.ctx.tokens.signAccess({ userId: user.id, companyId, sessionId: otherSid });
    const current = await openSocket(token);
    const elsewhere = await openSocket(other);
    const put = await app.api("PUT", `/api/users/${user.id}`, { token, body: { password: "outrasenha", currentPassword: "secret123" } });
    expect(put.statusCode).toBe(200);
    await within(elsewhere.closed);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
    expect(current.socket.connected).toBe(true);
    current.socket.close();
  });

  it("refuses one's own password change without, or with a wrong, current password", async () => {
    const { user, token } = await loggedInUser();
    const without = await app.api("PUT", `/api/users/${user.id}`, { token, body: { password: "outrasenha" } });
    expect(without.statusCode).toBe(400);
    expect(without.json().error).toBe("ERR_INVALID_CURRENT_PASSWORD");
    const wrong = await app.api("PUT", `/api/users/${user.id}`, { token, body: { password: "outrasenha", currentPassword: "nope12345" } });
    expect(wrong.json().error).toBe("ERR_INVALID_CURRENT_PASSWORD");
    expect(await app.login(user.email, "secret123")).toBeTruthy();
  });

  it("on a demotion (profile lowered)", async () => {
    const { companyId, user, token } = await loggedInUser("supervisor");
    const admin = await buildUser(app.sql, companyId, { profile: "admin" });
    const adminToken = await app.login(admin.email);
    const { closed } = await openSocket(token);
    const put = await app.api("PUT", `/api/users/${user.id}`, { token: adminToken, body: { profile: "user" } });
    expect(put.statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
  });

  it("on the user's deletion", async () => {
    const { user, token } = await loggedInUser();
    const { closed } = await openSocket(token);
    expect((await app.api("DELETE", `/api/users/${user.id}`, { token: rootToken })).statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
  });

  it("on the company's deactivation", async () => {
    const { companyId, token } = await loggedInUser();
    const { closed } = await openSocket(token);
    expect((await app.api("PUT", `/api/companies/${companyId}`, { token: rootToken, body: { status: false } })).statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
    // Active again: the ended session stays ended.
    await app.api("PUT", `/api/companies/${companyId}`, { token: rootToken, body: { status: true } });
    expect((await me(token)).json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("on a due date moved into the past", async () => {
    const { companyId, token } = await loggedInUser();
    const { closed } = await openSocket(token);
    expect((await app.api("PUT", `/api/companies/${companyId}`, { token: rootToken, body: { dueDate: "2021-03-04" } })).statusCode).toBe(200);
    await within(closed);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe("a refresh token presented again after its grace", () => {
  const refreshWith = (token: string) => app.api("POST", "/api/auth/refresh_token", { headers: { cookie: `jrt=${token}`, "x-forwarded-for": "10.200.0.9" } });
  const jrtOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === "jrt")!.value;

  it("ends the whole session: its access tokens, its other refresh tokens and its sockets; the audit log says so", async () => {
    const companyId = await buildCompany(app.sql);
    const user = await buildUser(app.sql, companyId);
    const login = await app.api("POST", "/api/auth/login", { body: { email: user.email, password: "secret123" }, headers: { "x-forwarded-for": "10.200.0.8" } });
    const firstAccess = login.json().token as string;
    const stolen = jrtOf(login);
    const rotated = await refreshWith(stolen);
    expect(rotated.statusCode).toBe(200);
    const current = jrtOf(rotated);
    const currentAccess = rotated.json().token as string;
    const { closed } = await openSocket(currentAccess);
    // within the grace the spent token still works and ends nothing (a reload that lost the answer)
    expect((await refreshWith(stolen)).statusCode).toBe(200);
    expect((await me(currentAccess)).statusCode).toBe(200);

    await app.sql.exec("UPDATE refresh_tokens SET revoked_at = now() - interval '11 seconds' WHERE user_id = $1 AND revoked_at IS NOT NULL", [user.id]);
    const reused = await refreshWith(stolen);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error).toBe("ERR_SESSION_EXPIRED");
    await within(closed);
    expect((await me(currentAccess)).json().error).toBe("ERR_SESSION_EXPIRED");
    expect((await me(firstAccess)).json().error).toBe("ERR_SESSION_EXPIRED");
    expect((await refreshWith(current)).json().error).toBe("ERR_SESSION_EXPIRED");
    const session = await app.sql.one<{ revoked_reason: string }>("SELECT revoked_reason FROM sessions WHERE user_id = $1", [user.id]);
    expect(session.revoked_reason).toBe("refresh_token_reused");
    const audit = await app.sql.many<{ action: string; ip: string; target_id: number; target_label: string }>(
      "SELECT action, ip, target_id, target_label FROM audit_log WHERE company_id = $1 AND action = 'session.token_reused'",
      [companyId],
    );
    expect(audit).toEqual([{ action: "session.token_reused", ip: "10.200.0.9", target_id: user.id, target_label: user.email }]);
    // a later login works as usual
    expect((await me(await app.login(user.email))).statusCode).toBe(200);
  });

  it("of a session already ended (logout), touches nothing else: the user's new session stays, nothing is audited", async () => {
    const companyId = await buildCompany(app.sql);
    const user = await buildUser(app.sql, companyId);
    const login = await app.api("POST", "/api/auth/login", { body: { email: user.email, password: "secret123" }, headers: { "x-forwarded-for": "10.200.0.8" } });
    const old = jrtOf(login);
    expect((await refreshWith(old)).statusCode).toBe(200);
    expect((await app.api("DELETE", "/api/auth/logout", { token: login.json().token })).statusCode).toBe(200);
    const next = await app.login(user.email);
    await app.sql.exec("UPDATE refresh_tokens SET revoked_at = now() - interval '11 seconds' WHERE user_id = $1 AND revoked_at IS NOT NULL", [user.id]);
    expect((await refreshWith(old)).json().error).toBe("ERR_SESSION_EXPIRED");
    expect((await me(next)).statusCode).toBe(200);
    const audit = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE company_id = $1 AND action = 'session.token_reused'", [companyId]);
    expect(audit.n).toBe(0);
  });
});

describe("company state on every request", () => {
  it("refuses an inactive company's API call and socket", async () => {
    const { companyId, token } = await loggedInUser();
    await app.sql.exec("UPDATE companies SET status = false WHERE id = $1", [companyId]);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_COMPANY_INACTIVE");
    expect(await handshake(token)).toBe("ERR_COMPANY_INACTIVE");
  });

  it("refuses an expired company's API call with the date, and its socket", async () => {
    const { companyId, token } = await loggedInUser();
    await app.sql.exec("UPDATE companies SET due_date = '2022-02-02' WHERE id = $1", [companyId]);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: "2022-02-02" });
    expect(await handshake(token)).toBe("ERR_SUBSCRIPTION_EXPIRED");
  });

  it("never locks the platform company out, even past its due date", async () => {
    const platform = await app.sql.one<{ id: number }>("SELECT id FROM companies WHERE is_platform");
    await app.sql.exec("UPDATE companies SET due_date = '2020-01-01' WHERE id = $1", [platform.id]);
    try {
      expect((await me(rootToken)).statusCode).toBe(200);
      expect(await app.login("root@platform.test")).toBeTruthy();
    } finally {
      await app.sql.exec("UPDATE companies SET due_date = (now() + interval '10 years')::date WHERE id = $1", [platform.id]);
      rootToken = await app.login("root@platform.test");
    }
  });
});
