import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";
import { runScheduleSend, SEND_JOB } from "./job.js";
import { sendScheduledMessage } from "./sender.js";
import { insertContact, insertWhatsapp } from "./test-fixtures.js";
import { expectEvery } from "../../../test/expect-every.js";
import { dueJobsSettled, waitFor } from "../../../test/wait.js";

let app: TestApp;
let dataDir: string;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let contactId: number;
let whatsappId: number;
const sockets: Socket[] = [];

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

async function socketFor(token: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return socket;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

function multipart(fileName: string, data: Buffer, mimetype: string) {
  const boundary = "----atendeTestBoundary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mimetype}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

function upload(id: number, token: string | undefined, fileName: string, data: Buffer, mimetype = "image/png") {
  const m = multipart(fileName, data, mimetype);
  return app.app.inject({
    method: "POST",
    url: `/api/schedules/${id}/media-upload`,
    payload: m.body,
    headers: { ...m.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

async function create(token: string, o: Record<string, unknown> = {}) {
  const res = await app.api("POST", "/api/schedules", { token, body: { body: "Olá {{firstName}}, tudo bem?", contactId, sendAt: inSeconds(3600), ...o } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { id: number; status: string; sendAt: string; userId: number };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-schedules-"));
  app = await createTestApp({ dataDir });
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
  whatsappId = await connectedSandbox(app, t.admin.token);
  contactId = await insertContact(app.sql, t.companyId, { name: "Maria Silva" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("schedules: access", () => {
  it("refuses every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/schedules"],
      ["GET", "/api/schedules/1"],
      ["POST", "/api/schedules"],
      ["PUT", "/api/schedules/1"],
      ["DELETE", "/api/schedules/1"],
      ["POST", "/api/schedules/1/media-upload"],
      ["DELETE", "/api/schedules/1/media-upload"],
      ["GET", "/api/schedules/1/media"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" || method === "PUT" ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED without the useSchedules plan flag", async () => {
    const off = await buildTenant(app, { plan: { flags: { useSchedules: false } } });
    const c = await insertContact(app.sql, off.companyId);
    for (const token of [off.admin.token, off.user.token]) {
      const list = await app.api("GET", "/api/schedules", { token });
      expect(list.statusCode).toBe(403);
      expect(list.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
      const post = await app.api("POST", "/api/schedules", { token, body: { body: "Mensagem", contactId: c, sendAt: inSeconds(60) } });
      expect(post.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    }
    const count = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM schedules WHERE company_id = $1", [off.companyId]);
    expect(count.n).toBe(0);
  });

  it("treats another company's schedule as not found", async () => {
    const s = await create(t.admin.token);
    for (const [method, url] of [
      ["GET", `/api/schedules/${s.id}`],
      ["PUT", `/api/schedules/${s.id}`],
      ["DELETE", `/api/schedules/${s.id}`],
      ["DELETE", `/api/schedules/${s.id}/media-upload`],
      ["GET", `/api/schedules/${s.id}/media`],
    ] as const) {
      const res = await app.api(method, url, { token: other.admin.token, body: method === "PUT" ? { body: "Tomado de outra empresa" } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await upload(s.id, other.admin.token, "a.png", PNG)).statusCode).toBe(404);
    const list = await app.api("GET", "/api/schedules", { token: other.admin.token });
    expect(list.json().schedules.map((x: { id: number }) => x.id)).not.toContain(s.id);
    expect((await app.api("GET", `/api/schedules/${s.id}`, { token: t.user.token })).json().body).toBe("Olá {{firstName}}, tudo bem?");
  });

  it("refuses a contact or connection of another company", async () => {
    const foreignContact = await insertContact(app.sql, other.companyId);
    const foreignWhatsapp = await insertWhatsapp(app.sql, other.companyId);
    const a = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Mensagem", contactId: foreignContact, sendAt: inSeconds(60) } });
    expect(a.statusCode).toBe(404);
    expect(a.json().error).toBe("ERR_NO_CONTACT_FOUND");
    const b = await app.api("POST", "/api/schedules", {
      token: t.admin.token,
      body: { body: "Mensagem", contactId, sendAt: inSeconds(60), whatsappId: foreignWhatsapp },
    });
    expect(b.statusCode).toBe(404);
    expect(b.json().error).toBe("ERR_NO_WAPP_FOUND");
    const s = await create(t.admin.token);
    const c = await app.api("PUT", `/api/schedules/${s.id}`, { token: t.admin.token, body: { contactId: foreignContact } });
    expect(c.json().error).toBe("ERR_NO_CONTACT_FOUND");
  });

  it("lets a plain user change only their own schedules; supervisors change any", async () => {
    const mine = await create(t.user.token);
    const theirs = await create(t.supervisor.token);
    const other2 = await buildUser(app.sql, t.companyId, { profile: "user" });
    const otherToken = await app.login(other2.email);
    expect((await app.api("PUT", `/api/schedules/${mine.id}`, { token: t.user.token, body: { body: "Meu texto novo" } })).statusCode).toBe(200);
    const put = await app.api("PUT", `/api/schedules/${theirs.id}`, { token: t.user.token, body: { body: "Não é meu agendamento" } });
    expect(put.statusCode).toBe(403);
    expect(put.json().error).toBe("ERR_NO_PERMISSION");
    expect((await app.api("DELETE", `/api/schedules/${theirs.id}`, { token: t.user.token })).statusCode).toBe(403);
    expect((await upload(theirs.id, t.user.token, "a.png", PNG)).statusCode).toBe(403);
    expect((await app.api("DELETE", `/api/schedules/${theirs.id}/media-upload`, { token: t.user.token })).statusCode).toBe(403);
    expect((await app.api("DELETE", `/api/schedules/${mine.id}`, { token: otherToken })).statusCode).toBe(403);
    expect((await app.api("PUT", `/api/schedules/${mine.id}`, { token: t.supervisor.token, body: { body: "Corrigido pelo supervisor" } })).statusCode).toBe(200);
    expect((await app.api("DELETE", `/api/schedules/${mine.id}`, { token: t.admin.token })).statusCode).toBe(200);
  });
});

describe("schedules: validation and listing", () => {
  it("applies the dialog rules with their messages", async () => {
    const short = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Oi", contactId, sendAt: inSeconds(60) } });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.body).toBe("Mensagem muito curta");
    const noContact = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Mensagem", sendAt: inSeconds(60) } });
    expect(noContact.json().fields.contactId).toBe("Obrigatório");
    const noDate = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Mensagem", contactId } });
    expect(noDate.json().fields.sendAt).toBe("Obrigatório");
    const badDate = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Mensagem", contactId, sendAt: "amanhã" } });
    expect(badDate.json().fields.sendAt).toBe("Obrigatório");
    const nullDate = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Mensagem", contactId, sendAt: null } });
    expect(nullDate.json().fields.sendAt).toBe("Obrigatório");
    const ok = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "12345", contactId, sendAt: inSeconds(3600) } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ body: "12345", contactId, contact: { id: contactId, name: "Maria Silva" }, sentAt: null, userId: t.admin.id });
    expect(["PENDENTE", "AGENDADA"]).toContain(ok.json().status);
  });

  it("queues the send job: status AGENDADA", async () => {
    const s = await create(t.admin.token);
    expect(s.status).toBe("AGENDADA");
  });

  it("lists with search, contact filter, pages of 20, hasMore and count", async () => {
    const tenant = await buildTenant(app);
    const c1 = await insertContact(app.sql, tenant.companyId, { name: "Joana Prado" });
    const c2 = await insertContact(app.sql, tenant.companyId, { name: "Pedro Alves" });
    for (let i = 0; i < 22; i++) {
      await app.api("POST", "/api/schedules", {
        token: tenant.admin.token,
        body: { body: `Lembrete número ${i}`, contactId: i % 2 ? c1 : c2, sendAt: inSeconds(3600 + i * 60) },
      });
    }
    await app.api("POST", "/api/schedules", { token: tenant.admin.token, body: { body: "Boleto vencendo", contactId: c1, sendAt: inSeconds(7200) } });
    const p1 = (await app.api("GET", "/api/schedules?pageNumber=1", { token: tenant.user.token })).json();
    expect(p1.schedules).toHaveLength(20);
    expect(p1).toMatchObject({ hasMore: true, count: 23 });
    const p2 = (await app.api("GET", "/api/schedules?pageNumber=2", { token: tenant.user.token })).json();
    expect(p2.schedules).toHaveLength(3);
    expect(p2.hasMore).toBe(false);
    const byBody = (await app.api("GET", "/api/schedules?searchParam=BOLETO", { token: tenant.user.token })).json();
    expect(byBody.schedules.map((s: { body: string }) => s.body)).toEqual(["Boleto vencendo"]);
    const byName = (await app.api("GET", "/api/schedules?searchParam=pedro", { token: tenant.user.token })).json();
    expect(byName.count).toBe(11);
    const byContact = (await app.api(`GET`, `/api/schedules?contactId=${c1}`, { token: tenant.user.token })).json();
    expect(byContact.count).toBe(12);
    expectEvery(byContact.schedules, (s: { contactId: number }) => s.contactId === c1);
  });
});

describe("schedules: sending", () => {
  it("sends at its time through the contact's connection, once, with the variables replaced", async () => {
    const socket = await socketFor(t.admin.token);
    const sentEvent = new Promise<{ action: string; schedule: { id: number; status: string; sentAt: string } }>((resolve) =>
      socket.on(`company-${t.companyId}-schedule`, (e) => {
        if (e.action === "update" && e.schedule.status === "ENVIADA") resolve(e);
      }),
    );
    const messageEvent = new Promise<{ action: string; message: { body: string; fromMe: boolean } }>((resolve) =>
      socket.once(`company-${t.companyId}-appMessage`, resolve),
    );
    const s = await create(t.admin.token, { body: "{{ms}}, {{firstName}}! Sr(a) {{name}}, protocolo {{protocol}} às {{hora}} {{desconhecida}}", sendAt: inSeconds(1) });
    const row = await waitFor(() =>
      app.sql.maybe<{ status: string; sent_at: Date | null; ticket_id: number }>(
        "SELECT status, sent_at, ticket_id FROM schedules WHERE id = $1 AND status <> 'AGENDADA' AND status <> 'PENDENTE'",
        [s.id],
      ),
    );
    expect(row.status).toBe("ENVIADA");
    expect(row.sent_at).toBeInstanceOf(Date);
    const msgs = await app.sql.many<{ body: string; from_me: boolean; whatsapp_id: number; ticket_id: number }>(
      "SELECT body, from_me, whatsapp_id, ticket_id FROM messages WHERE company_id = $1 AND contact_id = $2 AND body LIKE '%Sr(a)%'",
      [t.companyId, contactId],
    );
    expect(msgs).toHaveLength(1);
    const m = msgs[0]!;
    expect(m.from_me).toBe(true);
    expect(m.whatsapp_id).toBe(whatsappId);
    expect(m.ticket_id).toBe(row.ticket_id);
    expect(m.body).toMatch(/^(Bom dia|Boa tarde|Boa noite|Boa madrugada), Maria! Sr\(a\) Maria Silva, protocolo \d+ às \d{2}:\d{2}:\d{2} \{\{desconhecida\}\}$/);
    const phone = await app.sql.many<{ body: string }>(
      "SELECT body FROM sandbox_messages WHERE company_id = $1 AND whatsapp_id = $2 AND direction = 'outbound' AND body = $3",
      [t.companyId, whatsappId, m.body],
    );
    expect(phone).toHaveLength(1);
    const ticket = await app.sql.one<{ status: string; last_message: string; user_id: number }>(
      "SELECT status, last_message, user_id FROM tickets WHERE id = $1",
      [row.ticket_id],
    );
    expect(ticket).toMatchObject({ status: "open", last_message: m.body, user_id: t.admin.id });
    const e = await sentEvent;
    expect(e.schedule).toMatchObject({ id: s.id, status: "ENVIADA" });
    expect(e.schedule.sentAt).toBeTruthy();
    await expect(messageEvent).resolves.toMatchObject({ action: "create", message: { body: m.body, fromMe: true } });
  });

  it("refuses to save, attach to or detach from a schedule already sent", async () => {
    const s = await create(t.admin.token, { sendAt: inSeconds(0.5) });
    await waitFor(() => app.sql.maybe("SELECT 1 FROM schedules WHERE id = $1 AND sent_at IS NOT NULL", [s.id]));
    const put = await app.api("PUT", `/api/schedules/${s.id}`, { token: t.admin.token, body: { body: "Tentando mudar", sendAt: inSeconds(3600) } });
    expect(put.statusCode).toBe(409);
    expect(put.json().error).toBe("ERR_SCHEDULE_ALREADY_SENT");
    expect((await upload(s.id, t.admin.token, "a.png", PNG)).json().error).toBe("ERR_SCHEDULE_ALREADY_SENT");
    expect((await app.api("DELETE", `/api/schedules/${s.id}/media-upload`, { token: t.admin.token })).json().error).toBe("ERR_SCHEDULE_ALREADY_SENT");
  });

  it("records ERRO with the reason when the company has no connection", async () => {
    const tenant = await buildTenant(app);
    const c = await insertContact(app.sql, tenant.companyId);
    const res = await app.api("POST", "/api/schedules", { token: tenant.admin.token, body: { body: "Sem conexão aqui", contactId: c, sendAt: inSeconds(0.5) } });
    const row = await waitFor(() => app.sql.maybe<{ status: string; error: string; sent_at: Date | null }>("SELECT status, error, sent_at FROM schedules WHERE id = $1 AND status = 'ERRO'", [res.json().id]));
    expect(row.sent_at).toBeNull();
    expect(row.error).toMatch(/conexão/i);
    const shown = (await app.api("GET", `/api/schedules/${res.json().id}`, { token: tenant.admin.token })).json();
    expect(shown).toMatchObject({ status: "ERRO", error: row.error });
    const n = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1", [tenant.companyId]);
    expect(n.n).toBe(0);
    // Once a connection exists, saving the failed schedule again sends it.
    await connectedSandbox(app, tenant.admin.token);
    const again = await app.api("PUT", `/api/schedules/${res.json().id}`, { token: tenant.admin.token, body: { body: "Agora com conexão" } });
    expect(again.statusCode).toBe(200);
    await waitFor(() => app.sql.maybe("SELECT 1 FROM schedules WHERE id = $1 AND status = 'ENVIADA'", [res.json().id]));
  });

  it("waits for a connection that is not connected, then records ERRO once it waited too long, without opening a ticket", async () => {
    const tenant = await buildTenant(app);
    const offline = await insertWhatsapp(app.sql, tenant.companyId, { isDefault: true });
    await app.sql.exec("UPDATE whatsapps SET status = 'DISCONNECTED' WHERE id = $1", [offline]);
    const c = await insertContact(app.sql, tenant.companyId);
    const res = await app.api("POST", "/api/schedules", { token: tenant.admin.token, body: { body: "Conexão caída", contactId: c, sendAt: inSeconds(0.3) } });
    const id = res.json().id as number;
    const firstJob = (await app.sql.one<{ job_id: string }>("SELECT job_id FROM schedules WHERE id = $1", [id])).job_id;
    // the due job found the connection down and queued its next try instead of failing
    const waiting = await waitFor(() =>
      app.sql.maybe<{ status: string; error: string | null; claimed_at: Date | null }>(
        "SELECT status, error, claimed_at FROM schedules WHERE id = $1 AND job_id <> $2",
        [id, firstJob],
      ),
    );
    expect(waiting).toEqual({ status: "AGENDADA", error: null, claimed_at: null });
    // ten minutes and more after its time, it gives up
    const row = await app.sql.one<{ send_at: Date }>("UPDATE schedules SET send_at = now() - interval '11 minutes' WHERE id = $1 RETURNING send_at", [id]);
    const outcome = await runScheduleSend(app.ctx, { send: sendScheduledMessage(app.ctx) }, { companyId: tenant.companyId, scheduleId: id, sendAt: row.send_at.toISOString() });
    expect(outcome).toBe("failed");
    const failed = await app.sql.one<{ status: string; error: string }>("SELECT status, error FROM schedules WHERE id = $1", [id]);
    expect(failed).toEqual({ status: "ERRO", error: "A conexão não está conectada" });
    const n = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE company_id = $1", [tenant.companyId]);
    expect(n.n).toBe(0);
  });

  it("never repeats a send interrupted by a crash: the claim left behind turns into ERRO", async () => {
    const s = await create(t.admin.token, { body: "Talvez já enviada" });
    const row = await app.sql.one<{ send_at: Date }>("UPDATE schedules SET claimed_at = now() WHERE id = $1 RETURNING send_at", [s.id]);
    let calls = 0;
    const sender = { send: async () => { calls++; return { ticketId: 0, messageId: 0 }; } };
    const outcome = await runScheduleSend(app.ctx, sender, { companyId: t.companyId, scheduleId: s.id, sendAt: row.send_at.toISOString() });
    expect(outcome).toBe("failed");
    expect(calls).toBe(0);
    const after = await app.sql.one<{ status: string; error: string; claimed_at: Date | null }>("SELECT status, error, claimed_at FROM schedules WHERE id = $1", [s.id]);
    expect(after).toMatchObject({
      status: "ERRO",
      error: "Envio interrompido (o servidor parou durante o envio). Verifique a conversa antes de salvar o agendamento novamente.",
      claimed_at: null,
    });
    // A stale job (queued for another time) does nothing.
    const stale = await runScheduleSend(app.ctx, sender, { companyId: t.companyId, scheduleId: s.id, sendAt: new Date(0).toISOString() });
    expect(stale).toBe("skipped");
  });

  it("re-schedules when sendAt changes: the old time does not fire", async () => {
    const s = await create(t.admin.token, { body: "Mudou de horário", sendAt: inSeconds(1.5) });
    const moved = await app.api("PUT", `/api/schedules/${s.id}`, { token: t.admin.token, body: { sendAt: inSeconds(3600) } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().status).toBe("AGENDADA");
    // the job of the old time has ended (cancelled, or run and found the time moved)
    await dueJobsSettled(app.sql, SEND_JOB, { scheduleId: s.id });
    const still = await app.sql.one<{ sent_at: Date | null }>("SELECT sent_at FROM schedules WHERE id = $1", [s.id]);
    expect(still.sent_at).toBeNull();
    await app.api("PUT", `/api/schedules/${s.id}`, { token: t.admin.token, body: { sendAt: inSeconds(0.5) } });
    await waitFor(() => app.sql.maybe("SELECT 1 FROM schedules WHERE id = $1 AND sent_at IS NOT NULL", [s.id]));
    await dueJobsSettled(app.sql, SEND_JOB, { scheduleId: s.id }, 2);
    const n = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND body = 'Mudou de horário'", [t.companyId]);
    expect(n.n).toBe(1);
  });

  it("a deleted schedule is not sent", async () => {
    const s = await create(t.admin.token, { body: "Apagado antes da hora", sendAt: inSeconds(1) });
    const socket = await socketFor(t.user.token);
    const event = new Promise((resolve) => socket.once(`company-${t.companyId}-schedule`, resolve));
    expect((await app.api("DELETE", `/api/schedules/${s.id}`, { token: t.admin.token })).statusCode).toBe(200);
    await expect(event).resolves.toEqual({ action: "delete", scheduleId: s.id });
    // its job has ended (cancelled, or run at its time and found the schedule gone)
    await dueJobsSettled(app.sql, SEND_JOB, { scheduleId: s.id });
    const n = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE body = 'Apagado antes da hora'");
    expect(n.n).toBe(0);
    expect((await app.api("GET", `/api/schedules/${s.id}`, { token: t.admin.token })).statusCode).toBe(404);
  });
});

describe("schedules: media", () => {
  it("accepts png, jpg and jpeg; refuses other types and disguised files", async () => {
    const s = await create(t.admin.token);
    const png = await upload(s.id, t.admin.token, "foto.png", PNG);
    expect(png.statusCode).toBe(200);
    expect(png.json()).toMatchObject({ mediaName: "foto.png", mediaPath: `/schedules/${s.id}/media` });
    const got = await app.api("GET", `/api/schedules/${s.id}/media`, { token: t.user.token });
    expect(got.statusCode).toBe(200);
    expect(got.headers["content-type"]).toBe("image/png");
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await upload(s.id, t.admin.token, "foto.jpg", JPG, "image/jpeg")).statusCode).toBe(200);
    expect((await upload(s.id, t.admin.token, "foto.JPEG", JPG, "image/jpeg")).statusCode).toBe(200);
    const gif = await upload(s.id, t.admin.token, "anim.gif", Buffer.from("GIF89a..."), "image/gif");
    expect(gif.statusCode).toBe(400);
    const fake = await upload(s.id, t.admin.token, "script.png", Buffer.from("<script>alert(1)</script>"), "image/png");
    expect(fake.statusCode).toBe(400);
    const keys = await app.sql.one<{ media_path: string; media_name: string }>("SELECT media_path, media_name FROM schedules WHERE id = $1", [s.id]);
    expect(keys.media_name).toBe("foto.JPEG");
    const del = await app.api("DELETE", `/api/schedules/${s.id}/media-upload`, { token: t.admin.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await app.api("GET", `/api/schedules/${s.id}/media`, { token: t.admin.token })).statusCode).toBe(404);
  });

  it("sends the attachment as an image message", async () => {
    const s = await create(t.admin.token, { body: "Segue a imagem", sendAt: inSeconds(2) });
    expect((await upload(s.id, t.admin.token, "promo.png", PNG)).statusCode).toBe(200);
    await waitFor(() => app.sql.maybe("SELECT 1 FROM schedules WHERE id = $1 AND sent_at IS NOT NULL", [s.id]));
    const m = await app.sql.one<{ media_type: string; media_name: string; media_path: string; mimetype: string }>(
      "SELECT media_type, media_name, media_path, mimetype FROM messages WHERE company_id = $1 AND body = 'Segue a imagem'",
      [t.companyId],
    );
    expect(m).toMatchObject({ media_type: "image", media_name: "promo.png", mimetype: "image/png" });
    expect(m.media_path).toMatch(new RegExp(`^${t.companyId}/`));
  });
});
