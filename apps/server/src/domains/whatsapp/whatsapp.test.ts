import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { channels } from "../../channels/manager.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-wa-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app, { plan: { connections: 3 } });
  other = await buildTenant(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

describe("whatsapp connections", () => {
  it("requires a session; creating, editing, deleting and session actions are for admins", async () => {
    expect((await api("GET", "/api/whatsapp", undefined)).statusCode).toBe(401);
    expect((await api("POST", "/api/whatsapp", t.user.token, { name: "Loja" })).statusCode).toBe(403);
    expect((await api("POST", "/api/whatsapp", t.supervisor.token, { name: "Loja" })).json().error).toBe("ERR_NO_PERMISSION");
    const created = (await api("POST", "/api/whatsapp", t.admin.token, { name: "Loja" })).json();
    expect((await api("PUT", `/api/whatsapp/${created.id}`, t.user.token, { name: "X" })).statusCode).toBe(403);
    expect((await api("DELETE", `/api/whatsapp/${created.id}`, t.user.token)).statusCode).toBe(403);
    expect((await api("POST", `/api/whatsappsession/${created.id}`, t.user.token)).statusCode).toBe(403);
    // everyone reads the list, without tokens
    const list = await api("GET", "/api/whatsapp?session=0", t.user.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().some((w: { id: number }) => w.id === created.id)).toBe(true);
    await api("DELETE", `/api/whatsapp/${created.id}`, t.admin.token);
  });

  it("creates a sandbox connection: validation, default flag, queues, QR session and token only for admins", async () => {
    const q1 = await buildQueue(app.sql, t.companyId);
    const q2 = await buildQueue(app.sql, t.companyId);
    expect((await api("POST", "/api/whatsapp", t.admin.token, { name: "A" })).json()).toMatchObject({ error: "ERR_VALIDATION", fields: { name: "Too Short!" } });
    expect((await api("POST", "/api/whatsapp", t.admin.token, { name: "Oficial", provider: "official" })).json().error).toBe("ERR_VALIDATION");
    expect((await api("POST", "/api/whatsapp", t.admin.token, { name: "Duas filas", queueIds: [q1, q2] })).json().error).toBe("ERR_WAPP_GREETING_REQUIRED");
    const otherQueue = await buildQueue(app.sql, other.companyId);
    expect((await api("POST", "/api/whatsapp", t.admin.token, { name: "Fila alheia", queueIds: [otherQueue] })).json().error).toBe("ERR_VALIDATION");

    const res = await api("POST", "/api/whatsapp", t.admin.token, { name: "Atendimento", queueIds: [q1, q2], greetingMessage: "Olá!" });
    expect(res.statusCode).toBe(200);
    const w = res.json();
    expect(w).toMatchObject({ name: "Atendimento", provider: "sandbox", isDefault: true, status: "qrcode", maxUseBotQueues: 3, expiresTicket: 0 });
    expect(w.qrcode).toMatch(/^SANDBOX-/);
    expect(w.queues.map((q: { id: number }) => q.id).sort()).toEqual([q1, q2].sort());
    // no token until an admin generates one; only admins see its hint
    expect((await api("GET", `/api/whatsapp/${w.id}`, t.admin.token)).json().tokenHint).toBe("");
    expect((await api("GET", `/api/whatsapp/${w.id}`, t.user.token)).json().tokenHint).toBeUndefined();
    expect((await api("POST", `/api/whatsapp/${w.id}/token`, t.user.token)).statusCode).toBe(403);

    // another company: not found everywhere
    expect((await api("GET", `/api/whatsapp/${w.id}`, other.admin.token)).json().error).toBe("ERR_NO_WAPP_FOUND");
    expect((await api("PUT", `/api/whatsapp/${w.id}`, other.admin.token, { name: "Hack" })).statusCode).toBe(404);
    expect((await api("DELETE", `/api/whatsapp/${w.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("POST", `/api/whatsappsession/${w.id}`, other.admin.token)).statusCode).toBe(404);

    // a partial update keeps the other fields; a second default takes the flag
    const upd = await api("PUT", `/api/whatsapp/${w.id}`, t.admin.token, { name: "Atendimento 2" });
    expect(upd.json()).toMatchObject({ name: "Atendimento 2", greetingMessage: "Olá!", isDefault: true, tokenHint: "" });
    expect((await api("PUT", `/api/whatsapp/${w.id}`, t.admin.token, { greetingMessage: "" })).json().error).toBe("ERR_WAPP_GREETING_REQUIRED");
    const second = (await api("POST", "/api/whatsapp", t.admin.token, { name: "Segunda", isDefault: true })).json();
    expect(second.isDefault).toBe(true);
    expect((await api("GET", `/api/whatsapp/${w.id}`, t.admin.token)).json().isDefault).toBe(false);

    // plan limit of 3 connections
    await api("POST", "/api/whatsapp", t.admin.token, { name: "Terceira" });
    expect((await api("POST", "/api/whatsapp", t.admin.token, { name: "Quarta" })).json().error).toBe("ERR_PLAN_LIMIT_REACHED");

    // deleting the default promotes another
    expect((await api("DELETE", `/api/whatsapp/${second.id}`, t.admin.token)).statusCode).toBe(200);
    const remaining = (await api("GET", "/api/whatsapp", t.admin.token)).json() as { isDefault: boolean }[];
    expect(remaining.filter((x) => x.isDefault)).toHaveLength(1);
  });

  it("session actions emit whatsappSession updates; scan connects with an empty qrcode; the manager resumes connected sessions", async () => {
    const base = await app.listen();
    const socket = connect(base, { auth: { token: t.user.token }, transports: ["websocket"] });
    sockets.push(socket);
    const events: { session: { id: number; status: string; qrcode: string } }[] = [];
    socket.on(`company-${t.companyId}-whatsappSession`, (p) => events.push(p));
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const w = (await api("GET", "/api/whatsapp", t.admin.token)).json()[0];
    const restarted = await api("PUT", `/api/whatsappsession/${w.id}`, t.admin.token);
    expect(restarted.json()).toMatchObject({ id: w.id, status: "qrcode" });
    const scanned = await api("POST", `/api/sandbox/${w.id}/scan`, t.admin.token);
    expect(scanned.json()).toEqual({ id: w.id, status: "CONNECTED", qrcode: "" });
    const until = Date.now() + 5000;
    while (!events.some((e) => e.session.status === "CONNECTED") && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(events.find((e) => e.session.status === "qrcode")!.session.qrcode).toMatch(/^SANDBOX-/);
    expect(events.at(-1)!.session).toEqual({ id: w.id, status: "CONNECTED", qrcode: "" });

    // a restart of the process: drivers of connected sessions come back without a QR code
    await channels(app.ctx).stopAll();
    expect(channels(app.ctx).get(w.id)).toBeUndefined();
    await channels(app.ctx).startConnected();
    expect((await api("POST", `/api/sandbox/${w.id}/inbound`, t.admin.token, { number: "5511999990001", body: "ok" })).statusCode).toBe(200);

    const stopped = await api("DELETE", `/api/whatsappsession/${w.id}`, t.admin.token);
    expect(stopped.json()).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
  });

  it("keeps one default (ERR_NO_OTHER_WHATSAPP) and answers the spec's slashed route", async () => {
    const mine = (await api("POST", "/api/whatsapp", other.admin.token, { name: "Padrão" })).json();
    expect(mine.isDefault).toBe(true);
    const off = await api("PUT", `/api/whatsapp/${mine.id}`, other.admin.token, { isDefault: false });
    expect(off.statusCode).toBe(400);
    expect(off.json().error).toBe("ERR_NO_OTHER_WHATSAPP");
    expect((await api("GET", `/api/whatsapp/${mine.id}`, other.admin.token)).json().isDefault).toBe(true);

    const free = (await api("POST", "/api/whatsapp", other.admin.token, { name: "Outra" })).json();

    const slashed = await api("GET", "/api/whatsapp/?session=0", other.admin.token);
    expect(slashed.statusCode).toBe(200);
    expect((slashed.json() as { id: number }[]).map((w) => w.id).sort()).toEqual([mine.id, free.id].sort());
  });
});
