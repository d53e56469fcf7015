import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildCompany, buildUser, createTestApp, type TestApp } from "../../test/helper.js";

// Access tokens live 3 seconds here, so a socket's expiry can be watched.
let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await createTestApp({ accessTokenTtlSeconds: 3 });
  base = await app.listen();
});
afterAll(async () => {
  await app.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function loginWithCookie(email: string) {
  const res = await app.api("POST", "/api/auth/login", { body: { email, password: "secret123" }, headers: { "x-forwarded-for": "10.9.9.9" } });
  return { token: res.json().token as string, cookie: `jrt=${res.cookies.find((c) => c.name === "jrt")!.value}` };
}

function open(token: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.on("connect", () => resolve(socket));
    socket.on("connect_error", (err) => {
      socket.close();
      reject(err);
    });
  });
}

async function freshUser() {
  const companyId = await buildCompany(app.sql);
  return buildUser(app.sql, companyId);
}

describe("socket lifetime", () => {
  it("closes a socket when its access token expires", async () => {
    const user = await freshUser();
    const { token } = await loginWithCookie(user.email);
    const socket = await open(token);
    const closed = new Promise<string>((resolve) => socket.on("disconnect", resolve));
    await sleep(3300);
    expect(socket.connected).toBe(false);
    await expect(closed).resolves.toBe("io server disconnect");
  });

  it("keeps a socket that sends its refreshed token, and refuses another session's token", async () => {
    const user = await freshUser();
    // another user's session, logged in before the timed part (hashing a password took ~1 s under CI's
    // load, past the refreshed token's 3 s); its fresh token comes from its refresh below, no hashing
    const other = await loginWithCookie((await freshUser()).email);
    const { token, cookie } = await loginWithCookie(user.email);
    const socket = await open(token);
    await sleep(1500);
    const refreshed = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie } });
    expect(refreshed.statusCode).toBe(200);
    const answer = await socket.emitWithAck("authToken", refreshed.json().token);
    expect(answer).toEqual({ ok: true });
    // Past the first token's expiry (at most 3 s after login), before the refreshed one's.
    await sleep(1800);
    expect(socket.connected).toBe(true);

    const foreign = await app.api("POST", "/api/auth/refresh_token", { headers: { cookie: other.cookie } });
    expect(foreign.statusCode).toBe(200);
    const refusal = await socket.timeout(5000).emitWithAck("authToken", foreign.json().token);
    expect(refusal).toEqual({ error: "ERR_SESSION_EXPIRED" });
    await sleep(100);
    expect(socket.connected).toBe(false);
  });
});

describe("socket cap and online flag", () => {
  it("refuses the 11th socket of a user with ERR_TOO_MANY_SOCKETS", async () => {
    const user = await freshUser();
    const { token } = await loginWithCookie(user.email);
    const sockets: Socket[] = [];
    for (let i = 0; i < 10; i++) sockets.push(await open(token));
    await expect(open(token)).rejects.toThrow("ERR_TOO_MANY_SOCKETS");
    sockets[0]!.close();
    await sleep(100);
    const again = await open(token);
    for (const s of [...sockets, again]) s.close();
  });

  it("clears the online flag when the user's last socket closes", async () => {
    const user = await freshUser();
    const { token } = await loginWithCookie(user.email);
    const online = async () => (await app.sql.one<{ online: boolean }>("SELECT online FROM users WHERE id = $1", [user.id])).online;
    const a = await open(token);
    const b = await open(token);
    a.emit("userStatus");
    await sleep(200);
    expect(await online()).toBe(true);
    a.close();
    await sleep(200);
    expect(await online()).toBe(true);
    b.close();
    await sleep(300);
    expect(await online()).toBe(false);
  });
});

describe("a page reload", () => {
  it("leaves its user online when the old socket's offline write lands after the new socket's connect", async () => {
    const user = await freshUser();
    const { token } = await loginWithCookie(user.email);
    const online = async () => (await app.sql.one<{ online: boolean }>("SELECT online FROM users WHERE id = $1", [user.id])).online;
    const old = await open(token);
    await sleep(200);
    // hold the old socket's "online = false" until the new page's socket has connected and marked itself
    let release!: () => void;
    const newSocketUp = new Promise<void>((resolve) => (release = resolve));
    const maybe = app.ctx.sql.maybe.bind(app.ctx.sql);
    const spy = vi.spyOn(app.ctx.sql, "maybe").mockImplementation(async (text: string, params?: unknown[]) => {
      if (text.includes("SET online = $3") && Array.isArray(params) && params[0] === user.id && params[2] === false) await newSocketUp;
      return maybe(text, params);
    });
    let reloaded: Socket | undefined;
    try {
      old.close();
      await sleep(100);
      reloaded = await open(token);
      await sleep(200);
      release();
      await sleep(300);
      expect(await online()).toBe(true);
    } finally {
      spy.mockRestore();
      reloaded?.close();
    }
  });
});

describe("presence on the users page", () => {
  it("tells the company's admins when a user comes online and when the user's last socket closes", async () => {
    const companyId = await buildCompany(app.sql);
    const admin = await buildUser(app.sql, companyId, { profile: "admin" });
    const agent = await buildUser(app.sql, companyId);
    const watcher = await open((await loginWithCookie(admin.email)).token);
    const seen: { id: number; online: boolean }[] = [];
    watcher.on(`company-${companyId}-user`, (e: { action: string; user?: { id: number; online: boolean } }) => {
      if (e.action === "update" && e.user?.id === agent.id) seen.push({ id: e.user.id, online: e.user.online });
    });
    const agentSocket = await open((await loginWithCookie(agent.email)).token);
    await vi.waitFor(() => expect(seen).toEqual([{ id: agent.id, online: true }]));
    agentSocket.close();
    await vi.waitFor(() => expect(seen).toEqual([{ id: agent.id, online: true }, { id: agent.id, online: false }]));
    watcher.close();
  });
});

describe("userStatus", () => {
  it("logs a failed update instead of leaving an unhandled rejection", async () => {
    const user = await freshUser();
    const { token } = await loginWithCookie(user.email);
    const socket = await open(token);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const logged = vi.spyOn(app.app.log, "error");
    const exec = vi.spyOn(app.ctx.sql, "maybe").mockRejectedValueOnce(new Error("database unavailable"));
    try {
      socket.emit("userStatus");
      await vi.waitFor(() => expect(logged).toHaveBeenCalled());
      await sleep(50);
      expect(logged.mock.calls[0]?.[0]).toMatchObject({ userId: user.id });
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      exec.mockRestore();
      logged.mockRestore();
      socket.close();
    }
  });
});
