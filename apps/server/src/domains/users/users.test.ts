import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildCompany, buildQueue, buildTenant, buildUser, createTestApp, TEST_PASSWORD, type TestApp } from "../../../test/helper.js";
import { expectEvery } from "../../../test/expect-every.js";
import { socketsCaughtUp } from "../../../test/socket-fence.js";

let app: TestApp;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let rootToken: string;
let rootId: number;
let platformId: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
  rootToken = await app.login("root@platform.test");
  const root = await app.sql.one<{ id: number; company_id: number }>("SELECT id, company_id FROM users WHERE email = 'root@platform.test'");
  rootId = root.id;
  platformId = root.company_id;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
});

let seq = 0;
const email = () => `new-${++seq}-${Date.now()}@users.test`;
const newUser = (o: Record<string, unknown> = {}) => ({ name: `Novo ${++seq}`, email: email(), password: "abcde", ...o });

async function socketFor(token: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return socket;
}

const next = (socket: Socket, event: string) => new Promise<Record<string, unknown>>((resolve) => socket.once(event, resolve));

/** The next event on `event` that `match` accepts (a user event that is not someone's presence, say). */
const nextWhere = (socket: Socket, event: string, match: (e: Record<string, unknown>) => boolean) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const listener = (e: Record<string, unknown>) => {
      if (!match(e)) return;
      socket.off(event, listener);
      resolve(e);
    };
    socket.on(event, listener);
  });

/** A socket of a user who had no app open: resolves after the user event that announces it online. */
async function socketComingOnline(token: string, channel: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  const online = next(socket, channel);
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  expect(await online).toMatchObject({ action: "update", user: { online: true } });
  return socket;
}

describe("users: access", () => {
  it("refuses every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/users"],
      ["GET", "/api/users/list"],
      ["GET", "/api/users/1"],
      ["POST", "/api/users"],
      ["PUT", "/api/users/1"],
      ["DELETE", "/api/users/1"],
      ["POST", "/api/users/bulk-delete"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" ? { ids: [1] } : method === "PUT" ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });

  it("keeps the users page, create and delete to admins and supers", async () => {
    for (const who of [t.user, t.supervisor]) {
      for (const [method, url, body] of [
        ["GET", "/api/users", undefined],
        ["POST", "/api/users", newUser()],
        ["DELETE", `/api/users/${t.user.id}`, undefined],
        ["POST", "/api/users/bulk-delete", { ids: [t.user.id] }],
      ] as const) {
        const res = await app.api(method, url, { token: who.token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
    }
  });

  it("lets every user read the id/name list of their own company only", async () => {
    const res = await app.api("GET", "/api/users/list", { token: t.user.token });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: number; name: string }[];
    expect(list.map((u) => u.id).sort()).toEqual([t.admin.id, t.supervisor.id, t.user.id].sort());
    expect(Object.keys(list[0]!).sort()).toEqual(["id", "name"]);
    // A company id from a non-super is ignored; a super may name another company.
    const widened = await app.api("GET", `/api/users/list?companyId=${other.companyId}`, { token: t.admin.token });
    expect(widened.json().map((u: { id: number }) => u.id)).not.toContain(other.admin.id);
    const bySuper = await app.api("GET", `/api/users/list?companyId=${other.companyId}`, { token: rootToken });
    expect(bySuper.json().map((u: { id: number }) => u.id)).toContain(other.admin.id);
  });

  it("shows a user to themselves and to admins, never across companies", async () => {
    const self = await app.api("GET", `/api/users/${t.user.id}`, { token: t.user.token });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ id: t.user.id, profile: "user", companyId: t.companyId, queues: [] });
    expect(JSON.stringify(self.json())).not.toMatch(/password|hash|token/i);
    const peer = await app.api("GET", `/api/users/${t.admin.id}`, { token: t.user.token });
    expect(peer.statusCode).toBe(403);
    expect((await app.api("GET", `/api/users/${t.user.id}`, { token: t.admin.token })).statusCode).toBe(200);
    const cross = await app.api("GET", `/api/users/${other.user.id}`, { token: t.admin.token });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error).toBe("ERR_NO_USER_FOUND");
    expect((await app.api("GET", `/api/users/${other.user.id}`, { token: rootToken })).statusCode).toBe(200);
  });
});

describe("users: list", () => {
  it("pages by 20, ordered by name, with search, queue filter, count and hasMore", async () => {
    const companyId = await buildCompany(app.sql);
    const admin = await buildUser(app.sql, companyId, { profile: "admin", name: "Aaron Admin" });
    const q1 = await buildQueue(app.sql, companyId);
    const q2 = await buildQueue(app.sql, companyId);
    for (let i = 0; i < 24; i++) {
      await buildUser(app.sql, companyId, { name: `Zed ${String(i).padStart(2, "0")}`, queueIds: i < 3 ? [q1] : i === 3 ? [q2] : [] });
    }
    const token = await app.login(admin.email);
    const p1 = await app.api("GET", "/api/users?pageNumber=1", { token });
    expect(p1.statusCode).toBe(200);
    const body1 = p1.json();
    expect(body1.count).toBe(25);
    expect(body1.hasMore).toBe(true);
    expect(body1.users).toHaveLength(20);
    expect(body1.users[0].name).toBe("Aaron Admin");
    expect(body1.users[1].name).toBe("Zed 00");
    const p2 = (await app.api("GET", "/api/users?pageNumber=2", { token })).json();
    expect(p2.users).toHaveLength(5);
    expect(p2.hasMore).toBe(false);
    expect(p2.users[4].name).toBe("Zed 23");

    const search = (await app.api("GET", "/api/users?searchParam=zed%2002", { token })).json();
    expect(search.users.map((u: { name: string }) => u.name)).toEqual(["Zed 02"]);
    const wildcard = (await app.api("GET", "/api/users?searchParam=%25", { token })).json();
    expect(wildcard.count).toBe(0);

    const byQueue = (await app.api("GET", `/api/users?queueIds=${encodeURIComponent(JSON.stringify([q1]))}`, { token })).json();
    expect(byQueue.users.map((u: { name: string }) => u.name)).toEqual(["Zed 00", "Zed 01", "Zed 02"]);
    expect(byQueue.users[0].queues).toEqual([expect.objectContaining({ id: q1 })]);
    const both = (await app.api("GET", `/api/users?queueIds=${encodeURIComponent(JSON.stringify([q1, q2]))}`, { token })).json();
    expect(both.count).toBe(4);

    const bad = await app.api("GET", "/api/users?queueIds=notjson", { token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");
  });

  it("lists only the actor's company", async () => {
    const res = (await app.api("GET", "/api/users", { token: t.admin.token })).json();
    expectEvery(res.users, (u: { companyId: number }) => u.companyId === t.companyId);
    expect(res.count).toBe(3);
  });
});

describe("users: create", () => {
  it("creates a user whose password works, emits the create event, and never returns the hash", async () => {
    const socket = await socketFor(t.admin.token);
    const foreign = await socketFor(other.admin.token);
    let leaked = false;
    foreign.on(`company-${t.companyId}-user`, () => (leaked = true));
    const queueId = await buildQueue(app.sql, t.companyId);
    const event = nextWhere(socket, `company-${t.companyId}-user`, (e) => e.action === "create");
    const input = newUser({ email: `Mixed.${++seq}@Users.Test`, profile: "supervisor", queueIds: [queueId] });
    const res = await app.api("POST", "/api/users", { token: t.admin.token, body: input });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ name: input.name, email: input.email.toLowerCase(), profile: "supervisor", companyId: t.companyId, super: false });
    expect(created.queues).toEqual([expect.objectContaining({ id: queueId })]);
    expect(Object.keys(created).sort()).toEqual(
      ["allTicket", "companyId", "createdAt", "email", "id", "name", "online", "profile", "queues", "super", "whatsappId"].sort(),
    );
    await expect(event).resolves.toEqual({ action: "create", user: created });
    const stored = await app.sql.one<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [created.id]);
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(await app.login(input.email, "abcde")).toBeTruthy();
    await socketsCaughtUp(app, [foreign]);
    expect(leaked).toBe(false);
  });

  it("validates with the form messages", async () => {
    const res = await app.api("POST", "/api/users", { token: t.admin.token, body: { name: "A", email: "nope", password: "123" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { name: "Too Short!", email: "Invalid email", password: "Too Short!" } });
    const long = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ name: "x".repeat(51), password: "y".repeat(51) }) });
    expect(long.json().fields).toMatchObject({ name: "Too Long!", password: "Too Long!" });
    const missing = await app.api("POST", "/api/users", { token: t.admin.token, body: {} });
    expect(missing.json().fields).toMatchObject({ name: "Required", email: "Required", password: "Required" });
  });

  it("refuses an e-mail already used in any company, whatever its case", async () => {
    const res = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ email: other.user.email.toUpperCase() }) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("ERR_EMAIL_ALREADY_EXISTS");
  });

  it("refuses queues and connections of another company", async () => {
    const foreignQueue = await buildQueue(app.sql, other.companyId);
    const q = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ queueIds: [foreignQueue] }) });
    expect(q.statusCode).toBe(400);
    expect(q.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { queueIds: "Invalid" } });
    const w = await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Outra') RETURNING id", [other.companyId]);
    const c = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ whatsappId: w.id }) });
    expect(c.statusCode).toBe(400);
    expect(c.json().fields).toMatchObject({ whatsappId: "Invalid" });
    const own = await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Minha') RETURNING id", [t.companyId]);
    const ok = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ whatsappId: own.id }) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().whatsappId).toBe(own.id);
    // Deleting the connection clears the default, never the user.
    await app.sql.exec("DELETE FROM whatsapps WHERE id = $1", [own.id]);
    expect((await app.api("GET", `/api/users/${ok.json().id}`, { token: t.admin.token })).json().whatsappId).toBeNull();
  });

  it("ignores a company id from an admin; a super creates in the named company", async () => {
    const byAdmin = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser({ companyId: other.companyId }) });
    expect(byAdmin.json().companyId).toBe(t.companyId);
    const bySuper = await app.api("POST", "/api/users", { token: rootToken, body: newUser({ companyId: other.companyId }) });
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().companyId).toBe(other.companyId);
    const nowhere = await app.api("POST", "/api/users", { token: rootToken, body: newUser({ companyId: 999999 }) });
    expect(nowhere.statusCode).toBe(400);
  });

  it("enforces the plan's user limit (0 = unlimited)", async () => {
    const limited = await buildTenant(app, { plan: { users: 4 } });
    const first = await app.api("POST", "/api/users", { token: limited.admin.token, body: newUser() });
    expect(first.statusCode).toBe(200);
    const res = await app.api("POST", "/api/users", { token: limited.admin.token, body: newUser() });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: "ERR_PLAN_LIMIT_REACHED", limit: 4 });
    expect(res.json().message).toMatch(/4 usuário/);
    const unlimited = await app.api("POST", "/api/users", { token: t.admin.token, body: newUser() });
    expect(unlimited.statusCode).toBe(200);
  });
});

describe("users: update", () => {
  it("lets any user change their own name, e-mail and password, but not their profile or queues", async () => {
    const tenant = await buildTenant(app);
    const me = tenant.user;
    const newEmail = email();
    const res = await app.api("PUT", `/api/users/${me.id}`, {
      token: me.token,
      body: { name: "Meu Nome", email: newEmail, password: "novasenha", currentPassword: TEST_PASSWORD, profile: "user", queueIds: [] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Meu Nome", email: newEmail, profile: "user" });
    // One's own password change keeps the current session.
    expect((await app.api("GET", "/api/auth/me", { token: me.token })).statusCode).toBe(200);
    const promote = await app.api("PUT", `/api/users/${me.id}`, { token: me.token, body: { profile: "admin" } });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe("ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT");
    const queue = await buildQueue(app.sql, tenant.companyId);
    const queues = await app.api("PUT", `/api/users/${me.id}`, { token: me.token, body: { queueIds: [queue] } });
    expect(queues.statusCode).toBe(403);
    expect(queues.json().error).toBe("ERR_NO_PERMISSION");
    const all = await app.api("PUT", `/api/users/${me.id}`, { token: me.token, body: { allTicket: "enable" } });
    expect(all.json().error).toBe("ERR_NO_PERMISSION");
    expect(await app.login(newEmail, "novasenha")).toBeTruthy();
  });

  it("refuses a supervisor or user editing someone else", async () => {
    for (const who of [t.user, t.supervisor]) {
      const res = await app.api("PUT", `/api/users/${t.admin.id === who.id ? t.user.id : t.admin.id}`, { token: who.token, body: { name: "Hack" } });
      expect(res.statusCode).toBe(403);
    }
    const sup = await app.api("PUT", `/api/users/${t.user.id}`, { token: t.supervisor.token, body: { name: "Hack" } });
    expect(sup.json().error).toBe("ERR_NO_PERMISSION");
  });

  it("protects admins from other admins and every account from self-demotion", async () => {
    const tenant = await buildTenant(app);
    const admin2 = await buildUser(app.sql, tenant.companyId, { profile: "admin" });
    const other = await app.api("PUT", `/api/users/${admin2.id}`, { token: tenant.admin.token, body: { name: "Outro" } });
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe("ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN");
    const demote = await app.api("PUT", `/api/users/${tenant.admin.id}`, { token: tenant.admin.token, body: { profile: "user" } });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().error).toBe("ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT");
    // The same profile sent back is not a change.
    const same = await app.api("PUT", `/api/users/${tenant.admin.id}`, { token: tenant.admin.token, body: { profile: "admin", name: "Chefe" } });
    expect(same.statusCode).toBe(200);
    // A super may edit any admin.
    const bySuper = await app.api("PUT", `/api/users/${admin2.id}`, { token: rootToken, body: { profile: "supervisor" } });
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().profile).toBe("supervisor");
  });

  it("protects the super user: nobody else edits it and nobody demotes it", async () => {
    const platformAdmin = await buildUser(app.sql, platformId, { profile: "admin" });
    const token = await app.login(platformAdmin.email);
    const res = await app.api("PUT", `/api/users/${rootId}`, { token, body: { name: "Root?" } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_CANNOT_EDIT_SUPER_USER");
    const super2 = await buildUser(app.sql, platformId, { profile: "admin", super: true });
    const toUser = await app.api("PUT", `/api/users/${super2.id}`, { token: rootToken, body: { profile: "user" } });
    expect(toUser.json().error).toBe("ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER");
    const toSup = await app.api("PUT", `/api/users/${super2.id}`, { token: rootToken, body: { profile: "supervisor" } });
    expect(toSup.json().error).toBe("ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR");
    const self = await app.api("PUT", `/api/users/${rootId}`, { token: rootToken, body: { profile: "user" } });
    expect(self.statusCode).toBe(403);
  });

  it("changes profile and queues, emits the update, and ends sessions when an admin sets a password", async () => {
    const tenant = await buildTenant(app);
    const socket = await socketComingOnline(tenant.user.token, `company-${tenant.companyId}-user`);
    const queue = await buildQueue(app.sql, tenant.companyId);
    const event = next(socket, `company-${tenant.companyId}-user`);
    const res = await app.api("PUT", `/api/users/${tenant.user.id}`, {
      token: tenant.admin.token,
      body: { profile: "supervisor", queueIds: [queue, queue], allTicket: "enable" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: "supervisor", allTicket: "enable", queues: [expect.objectContaining({ id: queue })] });
    await expect(event).resolves.toEqual({ action: "update", user: res.json() });
    // The edited user's next request already sees the new profile.
    expect((await app.api("GET", "/api/auth/me", { token: tenant.user.token })).json().profile).toBe("supervisor");

    const dup = await app.api("PUT", `/api/users/${tenant.user.id}`, { token: tenant.admin.token, body: { email: t.admin.email } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_EMAIL_ALREADY_EXISTS");

    const disconnected = new Promise<void>((resolve) => socket.once("disconnect", () => resolve()));
    const pw = await app.api("PUT", `/api/users/${tenant.user.id}`, { token: tenant.admin.token, body: { password: "trocada1" } });
    expect(pw.statusCode).toBe(200);
    await disconnected;
    expect((await app.api("GET", "/api/auth/me", { token: tenant.user.token })).statusCode).toBe(401);
    expect(await app.login(tenant.user.email, "trocada1")).toBeTruthy();
    const empty = await app.api("PUT", `/api/users/${tenant.supervisor.id}`, { token: tenant.admin.token, body: { password: "" } });
    expect(empty.statusCode).toBe(200);
    expect((await app.api("GET", "/api/auth/me", { token: tenant.supervisor.token })).statusCode).toBe(200);
  });

  it("does not reach another company's user", async () => {
    const res = await app.api("PUT", `/api/users/${other.user.id}`, { token: t.admin.token, body: { name: "Hijack" } });
    expect(res.statusCode).toBe(404);
    const row = await app.sql.one<{ name: string }>("SELECT name FROM users WHERE id = $1", [other.user.id]);
    expect(row.name).not.toBe("Hijack");
  });
});

describe("users: delete", () => {
  it("is for super administrators only", async () => {
    const res = await app.api("DELETE", `/api/users/${t.user.id}`, { token: t.admin.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_USER_DELETE");
    const bulk = await app.api("POST", "/api/users/bulk-delete", { token: t.admin.token, body: { ids: [t.user.id] } });
    expect(bulk.json().error).toBe("ERR_NO_USER_DELETE");
  });

  it("deletes, ends the deleted user's session and emits the delete", async () => {
    const tenant = await buildTenant(app);
    const socket = await socketComingOnline(tenant.admin.token, `company-${tenant.companyId}-user`);
    const event = next(socket, `company-${tenant.companyId}-user`);
    const res = await app.api("DELETE", `/api/users/${tenant.user.id}`, { token: rootToken });
    expect(res.statusCode).toBe(200);
    await expect(event).resolves.toEqual({ action: "delete", userId: tenant.user.id });
    expect((await app.api("GET", "/api/auth/me", { token: tenant.user.token })).statusCode).toBe(401);
    const again = await app.api("DELETE", `/api/users/${tenant.user.id}`, { token: rootToken });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe("ERR_NO_USER_FOUND");
  });

  it("never deletes oneself or a super user", async () => {
    const self = await app.api("DELETE", `/api/users/${rootId}`, { token: rootToken });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toBe("ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT");
    const super2 = await buildUser(app.sql, platformId, { profile: "admin", super: true });
    const res = await app.api("DELETE", `/api/users/${super2.id}`, { token: rootToken });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_CANNOT_EDIT_SUPER_USER");
  });

  it("bulk deletes all or nothing", async () => {
    const tenant = await buildTenant(app);
    const refused = await app.api("POST", "/api/users/bulk-delete", { token: rootToken, body: { ids: [tenant.user.id, rootId] } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT");
    expect(await app.sql.maybe("SELECT 1 FROM users WHERE id = $1", [tenant.user.id])).not.toBeNull();
    const missing = await app.api("POST", "/api/users/bulk-delete", { token: rootToken, body: { ids: [tenant.user.id, 99999999] } });
    expect(missing.statusCode).toBe(404);
    const ok = await app.api("POST", "/api/users/bulk-delete", { token: rootToken, body: { ids: [tenant.user.id, tenant.supervisor.id] } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().deleted.sort()).toEqual([tenant.user.id, tenant.supervisor.id].sort());
    const left = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE company_id = $1", [tenant.companyId]);
    expect(left.n).toBe(1);
    const empty = await app.api("POST", "/api/users/bulk-delete", { token: rootToken, body: { ids: [] } });
    expect(empty.statusCode).toBe(400);
  });
});

