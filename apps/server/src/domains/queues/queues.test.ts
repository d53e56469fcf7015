import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
});

async function socketFor(token: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return socket;
}

let colorSeq = 0;
const nextColor = () => `#a${String(++colorSeq).padStart(5, "0")}`;
const body = (o: Record<string, unknown> = {}) => ({ name: `Fila ${++colorSeq}`, color: nextColor(), ...o });

describe("queues: access", () => {
  it("refuses every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/queue"],
      ["GET", "/api/queue/1"],
      ["POST", "/api/queue"],
      ["PUT", "/api/queue/1"],
      ["DELETE", "/api/queue/1"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" || method === "PUT" ? body() : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });

  it("lets supervisors and users read but not write", async () => {
    const id = await buildQueue(app.sql, t.companyId);
    for (const who of [t.supervisor, t.user]) {
      expect((await app.api("GET", "/api/queue", { token: who.token })).statusCode).toBe(200);
      expect((await app.api("GET", `/api/queue/${id}`, { token: who.token })).statusCode).toBe(200);
      const post = await app.api("POST", "/api/queue", { token: who.token, body: body() });
      expect(post.statusCode).toBe(403);
      expect(post.json().error).toBe("ERR_NO_PERMISSION");
      const put = await app.api("PUT", `/api/queue/${id}`, { token: who.token, body: { name: "Renomeada" } });
      expect(put.statusCode).toBe(403);
      const del = await app.api("DELETE", `/api/queue/${id}`, { token: who.token });
      expect(del.statusCode).toBe(403);
    }
    expect((await app.api("GET", `/api/queue/${id}`, { token: t.admin.token })).json().name).not.toBe("Renomeada");
  });

  it("treats another company's queue as not found and never lists it", async () => {
    const foreign = await buildQueue(app.sql, other.companyId, { name: "Estrangeira" });
    expect((await app.api("GET", `/api/queue/${foreign}`, { token: t.admin.token })).statusCode).toBe(404);
    const put = await app.api("PUT", `/api/queue/${foreign}`, { token: t.admin.token, body: { name: "Tomada" } });
    expect(put.statusCode).toBe(404);
    expect((await app.api("DELETE", `/api/queue/${foreign}`, { token: t.admin.token })).statusCode).toBe(404);
    const list = await app.api("GET", "/api/queue", { token: t.admin.token });
    expect(list.json().map((q: { id: number }) => q.id)).not.toContain(foreign);
    const still = await app.sql.one<{ name: string }>("SELECT name FROM queues WHERE id = $1", [foreign]);
    expect(still.name).toBe("Estrangeira");
  });
});

describe("queues: create and validate", () => {
  it("creates a queue with the default opening hours and emits the create event", async () => {
    const socket = await socketFor(t.user.token);
    const event = new Promise<{ action: string; queue: { id: number } }>((resolve) => socket.once(`company-${t.companyId}-queue`, resolve));
    const res = await app.api("POST", "/api/queue", {
      token: t.admin.token,
      body: { name: "Vendas", color: "#112233", greetingMessage: "Olá!", outOfHoursMessage: "Fechado", orderQueue: 2 },
    });
    expect(res.statusCode).toBe(200);
    const q = res.json();
    expect(q).toMatchObject({ name: "Vendas", color: "#112233", greetingMessage: "Olá!", outOfHoursMessage: "Fechado", orderQueue: 2, promptId: null, integrationId: null });
    expect(q.schedules).toEqual([
      { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Quarta-feira", weekdayEn: "wednesday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Quinta-feira", weekdayEn: "thursday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Sexta-feira", weekdayEn: "friday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
      { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
    ]);
    await expect(event).resolves.toMatchObject({ action: "create", queue: { id: q.id } });
  });

  it("applies the name rules: Required, Too Short!, Too Long!", async () => {
    const cases: [unknown, string][] = [
      [undefined, "Required"],
      ["", "Required"],
      ["A", "Too Short!"],
      ["x".repeat(51), "Too Long!"],
    ];
    for (const [name, message] of cases) {
      const res = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name, color: nextColor() } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { name: message } });
    }
    const ok = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "ab", color: nextColor() } });
    expect(ok.statusCode).toBe(200);
    const ok50 = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "y".repeat(50), color: nextColor() } });
    expect(ok50.statusCode).toBe(200);
  });

  it("applies the colour rules: required, 3 to 9 characters", async () => {
    const cases: [unknown, string][] = [
      [undefined, "Required"],
      ["#1", "Too Short!"],
      ["#12345678a", "Too Long!"],
    ];
    for (const [color, message] of cases) {
      const res = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Cores", color } });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.color).toBe(message);
    }
    expect((await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Cor3", color: "red" } })).statusCode).toBe(200);
  });

  it("refuses a colour already used in the company (any case) but not in another company", async () => {
    await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Azul", color: "#0000FF" } });
    const dup = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Azul 2", color: "#0000ff" } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const elsewhere = await app.api("POST", "/api/queue", { token: other.admin.token, body: { name: "Azul", color: "#0000FF" } });
    expect(elsewhere.statusCode).toBe(200);
  });

  it("refuses a duplicate name in the company", async () => {
    await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Suporte", color: nextColor() } });
    const dup = await app.api("POST", "/api/queue", { token: t.admin.token, body: { name: "Suporte", color: nextColor() } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toBeTruthy();
  });

  it("validates schedule entries (HH:MM, known weekday)", async () => {
    const bad = await app.api("POST", "/api/queue", {
      token: t.admin.token,
      body: body({ schedules: [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "8h", endTime: "18:00" }] }),
    });
    expect(bad.statusCode).toBe(400);
    const badDay = await app.api("POST", "/api/queue", {
      token: t.admin.token,
      body: body({ schedules: [{ weekday: "X", weekdayEn: "funday", startTime: "08:00", endTime: "18:00" }] }),
    });
    expect(badDay.statusCode).toBe(400);
  });

  it("stops at the plan's queue limit with ERR_PLAN_LIMIT_REACHED; 0 means unlimited", async () => {
    const limited = await buildTenant(app, { plan: { queues: 2 } });
    for (let i = 0; i < 2; i++) {
      expect((await app.api("POST", "/api/queue", { token: limited.admin.token, body: body() })).statusCode).toBe(200);
    }
    const third = await app.api("POST", "/api/queue", { token: limited.admin.token, body: body() });
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe("ERR_PLAN_LIMIT_REACHED");
    const count = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM queues WHERE company_id = $1", [limited.companyId]);
    expect(count.n).toBe(2);

    const unlimited = await buildTenant(app, { plan: { queues: 0 } });
    for (let i = 0; i < 5; i++) {
      expect((await app.api("POST", "/api/queue", { token: unlimited.admin.token, body: body() })).statusCode).toBe(200);
    }
  });

  it("does not pass the limit with concurrent creations", async () => {
    const limited = await buildTenant(app, { plan: { queues: 1 } });
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => app.api("POST", "/api/queue", { token: limited.admin.token, body: body() })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.json().error === "ERR_PLAN_LIMIT_REACHED")).toHaveLength(3);
  });
});

describe("queues: list, update, delete", () => {
  it("lists by orderQueue (unset last) then name", async () => {
    const tenant = await buildTenant(app);
    for (const [name, orderQueue] of [["Zeta", 1], ["Beta", 2], ["Alfa", 2], ["Gama", null]] as const) {
      await app.api("POST", "/api/queue", { token: tenant.admin.token, body: { name, color: nextColor(), orderQueue } });
    }
    const res = await app.api("GET", "/api/queue", { token: tenant.user.token });
    expect(res.json().map((q: { name: string }) => q.name)).toEqual(["Zeta", "Alfa", "Beta", "Gama"]);
  });

  it("updates the payload with schedules, prompt and integration, keeping omitted fields", async () => {
    const created = (await app.api("POST", "/api/queue", { token: t.admin.token, body: body({ greetingMessage: "Oi" }) })).json();
    const socket = await socketFor(t.user.token);
    const event = new Promise<{ action: string; queue: { id: number; name: string } }>((resolve) =>
      socket.once(`company-${t.companyId}-queue`, resolve),
    );
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:30" }];
    const res = await app.api("PUT", `/api/queue/${created.id}`, {
      token: t.admin.token,
      body: { name: "Financeiro", schedules, promptId: 7, integrationId: 9 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Financeiro", color: created.color, greetingMessage: "Oi", schedules, promptId: 7, integrationId: 9 });
    await expect(event).resolves.toMatchObject({ action: "update", queue: { id: created.id, name: "Financeiro" } });
    const again = (await app.api("GET", `/api/queue/${created.id}`, { token: t.admin.token })).json();
    expect(again.schedules).toEqual(schedules);
    const cleared = await app.api("PUT", `/api/queue/${created.id}`, { token: t.admin.token, body: { promptId: null } });
    expect(cleared.json()).toMatchObject({ promptId: null, integrationId: 9 });
  });

  it("refuses an update to another queue's colour, accepts its own", async () => {
    const a = (await app.api("POST", "/api/queue", { token: t.admin.token, body: body() })).json();
    const b = (await app.api("POST", "/api/queue", { token: t.admin.token, body: body() })).json();
    const res = await app.api("PUT", `/api/queue/${b.id}`, { token: t.admin.token, body: { color: a.color } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const own = await app.api("PUT", `/api/queue/${b.id}`, { token: t.admin.token, body: { color: b.color, name: b.name } });
    expect(own.statusCode).toBe(200);
    const short = await app.api("PUT", `/api/queue/${b.id}`, { token: t.admin.token, body: { name: "x" } });
    expect(short.json().fields.name).toBe("Too Short!");
  });

  it("deletes a queue, removes memberships and emits the delete event", async () => {
    const created = (await app.api("POST", "/api/queue", { token: t.admin.token, body: body() })).json();
    await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1,$2,$3)", [t.companyId, t.user.id, created.id]);
    const socket = await socketFor(t.user.token);
    const event = new Promise((resolve) => socket.once(`company-${t.companyId}-queue`, resolve));
    const res = await app.api("DELETE", `/api/queue/${created.id}`, { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    await expect(event).resolves.toEqual({ action: "delete", queueId: created.id });
    expect((await app.api("GET", `/api/queue/${created.id}`, { token: t.admin.token })).statusCode).toBe(404);
    const m = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM user_queues WHERE queue_id = $1", [created.id]);
    expect(m.n).toBe(0);
    expect((await app.api("DELETE", `/api/queue/${created.id}`, { token: t.admin.token })).statusCode).toBe(404);
  });
});
