import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import { GRAPH_ERRORS, type GraphErrorAnswer } from "../../../test/fake-graph/errors.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, waitFor, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { expectEvery } from "../../../test/expect-every.js";
import { countJobs } from "../../../test/wait.js";
import { SEND_RETRY_JOB } from "../../domains/messages/send-retry.js";

/** Short waits between attempts (the product waits 2 s, 4 s, 8 s ...). */
const BASE_MS = 50;

let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
let tplId: number;
beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [fakeTemplate("pedido_enviado")];
  app = await createOfficialTestApp(fake, { sendRetryBaseMs: BASE_MS });
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511922230001"]);
  tplId = (await app.sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1 AND name = 'pedido_enviado'", [a.businessId])).id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** A customer's message through the signed webhook; returns the open ticket's id. */
async function customerWrites(from: string, body: string): Promise<number> {
  const phone = { id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber };
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone, { contacts: [{ wa_id: from, name: "Cliente" }], messages: [P.text(from, body)] })]]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, a.businessId);
  const ticket = await app.sql.one<{ id: number; status: string }>(
    `SELECT t.id, t.status FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
      WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed'`,
    [a.companyId, from],
  );
  if (ticket.status !== "open") {
    expect((await app.api("PUT", `/api/tickets/${ticket.id}`, { token: a.admin.token, body: { status: "open", userId: a.admin.id } })).statusCode).toBe(200);
  }
  return ticket.id;
}

interface Row {
  send_status: string;
  send_attempts: number;
  send_error: string | null;
  provider_id: string | null;
  ack: number;
}
const row = (id: number) => app.sql.one<Row>("SELECT send_status, send_attempts, send_error, provider_id, ack FROM messages WHERE id = $1", [id]);
const settled = (id: number) =>
  waitFor(
    async () => {
      const r = await row(id);
      return r.send_status === "sent" || r.send_status === "failed" ? r : null;
    },
    20_000,
    `message ${id} sent or failed`,
  );
const say = (ticketId: number, body: string) => app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body, sign: false } });

/** Sends a text after the fake was told to refuse it `times` times with `error`; returns the API's answer and the message id. */
async function sendRefused(number: string, error: GraphErrorAnswer, times: number, body = "Seu pedido saiu") {
  const ticketId = await customerWrites(number, "Oi");
  fake.failNext(number, times, error);
  const res = await say(ticketId, body);
  return { res, ticketId, id: res.statusCode === 200 ? (res.json().messages[0].id as number) : null };
}

describe("Cloud API sends: errors Meta may lift are retried", () => {
  it("130429 twice, then accepted: one message, sent with its wamid, never shown as failed, 3 attempts recorded", async () => {
    const c = "5511944440001";
    const socket: Socket = connect(base, { auth: { token: a.admin.token }, transports: ["websocket"] });
    const events: { channel: string; payload: { action?: string; message?: { id: number; ack: number; sendError?: string | null; retry?: unknown } } }[] = [];
    socket.onAny((channel: string, payload: (typeof events)[number]["payload"]) => events.push({ channel, payload }));
    await waitFor(async () => socket.connected, 5000, "socket");
    try {
      const { res, id } = await sendRefused(c, GRAPH_ERRORS.rateLimit, 2);
      expect(res.statusCode, res.body).toBe(200);
      const answered = res.json().messages[0];
      expect(answered).toMatchObject({ body: "Seu pedido saiu", fromMe: true, ack: 0, sendError: null, retry: { attempts: 1 } });
      expect(Date.parse(answered.retry.nextAttemptAt)).toBeGreaterThan(Date.parse(answered.createdAt) - 1);
      expect(await countJobs(app.sql, SEND_RETRY_JOB, { messageId: id })).toBeGreaterThan(0); // the retry is a durable job

      const done = await settled(id!);
      const sent = fake.messagesTo(c);
      expect(sent).toHaveLength(1);
      expect(done).toEqual({ send_status: "sent", send_attempts: 3, send_error: null, provider_id: sent[0]!.messageId, ack: 1 });
      expect(fake.refusals.filter((r) => r.to === c).map((r) => r.code)).toEqual([130429, 130429]);
      expect(sent[0]!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: c, type: "text", text: { body: "Seu pedido saiu", preview_url: false } });
      expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE body = 'Seu pedido saiu' AND contact_id = (SELECT id FROM contacts WHERE number = $1)", [c])).n).toBe(1);

      const channel = `company-${a.companyId}-appMessage`;
      const mine = await waitFor(async () => {
        const list = events.filter((e) => e.channel === channel && e.payload.message?.id === id);
        return list.some((e) => e.payload.action === "update" && e.payload.message?.ack === 1) ? list : null;
      }, 10_000, "appMessage update");
      expectEvery(mine, (e) => !e.payload.message?.sendError);
      expect(mine.at(-1)!.payload).toMatchObject({ action: "update", message: { id, ack: 1, sendError: null, retry: null } });
    } finally {
      socket.disconnect();
    }
  });

  it("131056 (pair rate limit) waits longer, then sends", async () => {
    const { res, id } = await sendRefused("5511944440002", GRAPH_ERRORS.pairRateLimit, 1);
    expect(res.statusCode).toBe(200);
    const { retry, createdAt } = res.json().messages[0];
    // at least three base delays (Meta allows about one message every 6 s to the same number)
    expect(Date.parse(retry.nextAttemptAt) - Date.parse(createdAt)).toBeGreaterThanOrEqual(3 * BASE_MS);
    expect(await settled(id!)).toMatchObject({ send_status: "sent", send_attempts: 2 });
    expect(fake.messagesTo("5511944440002")).toHaveLength(1);
  });

  it.each([
    ["HTTP 500", GRAPH_ERRORS.http500, "5511944440003"],
    ["is_transient: true", GRAPH_ERRORS.transient, "5511944440004"],
    ["131000 something went wrong", GRAPH_ERRORS.somethingWentWrong, "5511944440005"],
    ["131016 service unavailable", GRAPH_ERRORS.serviceUnavailable, "5511944440006"],
    ["133004 server temporarily unavailable", GRAPH_ERRORS.serverUnavailable, "5511944440007"],
  ])("%s is retried", async (_name, error, number) => {
    const { res, id } = await sendRefused(number, error, 1);
    expect(res.statusCode).toBe(200);
    expect(res.json().messages[0].sendError).toBeNull();
    expect(await settled(id!)).toMatchObject({ send_status: "sent", send_attempts: 2, ack: 1 });
    expect(fake.messagesTo(number)).toHaveLength(1);
  });

  it("a refused file is uploaded again and sent by its new media id", async () => {
    const c = "5511944440008";
    const ticketId = await customerWrites(c, "Manda a foto");
    fake.failNext(c, 1, GRAPH_ERRORS.serviceUnavailable);
    const boundary = "----retryBoundary";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="sign"\r\n\r\nfalse\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from("png-bytes"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = fake.uploads.length;
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await settled(res.json().messages[0].id)).toMatchObject({ send_status: "sent", send_attempts: 2 });
    const uploads = fake.uploads.slice(before);
    expect(uploads).toHaveLength(2);
    expect(fake.messagesTo(c)).toHaveLength(1);
    expect(fake.messagesTo(c)[0]!.body).toMatchObject({ type: "image", image: { id: uploads[1]!.id } });
  });

  it("a template from the ticket goes through the same rule", async () => {
    const c = "5511944440009";
    const ticketId = await customerWrites(c, "Oi");
    fake.failNext(c, 1, GRAPH_ERRORS.rateLimit);
    const res = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: tplId, variables: ["Ana", "4512"] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ body: "Olá Ana, seu pedido 4512 saiu para entrega.", ack: 0, sendError: null, retry: { attempts: 1 } });
    expect(await settled(res.json().id)).toMatchObject({ send_status: "sent", send_attempts: 2, ack: 1 });
    expect(fake.messagesTo(c).map((s) => s.body)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: c,
        type: "template",
        template: { name: "pedido_enviado", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "4512" }] }] },
      },
    ]);
  });
});

describe("Cloud API sends: other errors fail at once", () => {
  it("131026 (undeliverable) fails the message at once with Meta's text", async () => {
    const c = "5511944440010";
    const { res, ticketId } = await sendRefused(c, GRAPH_ERRORS.undeliverable, 1, "Não entregável");
    expect(res.statusCode).toBe(502);
    const meta = "(#131026) Message Undeliverable — Message failed to send because the recipient is unable to receive it.";
    expect(res.json()).toMatchObject({ error: "ERR_SENDING_WAPP_MSG", message: `Não foi possível enviar a mensagem: ${meta}` });
    const stored = await app.sql.one<{ id: number }>("SELECT id FROM messages WHERE ticket_id = $1 AND body = 'Não entregável'", [ticketId]);
    expect(await row(stored.id)).toMatchObject({ send_status: "failed", send_attempts: 1, send_error: `ERR_SENDING_WAPP_MSG: Não foi possível enviar a mensagem: ${meta}` });
    const page = await app.api("GET", `/api/messages/${ticketId}`, { token: a.admin.token });
    expect(page.json().messages.find((m: { id: number }) => m.id === stored.id)).toMatchObject({ sendError: `Não foi possível enviar a mensagem: ${meta}`, retry: null });
    // no retry was queued (it would have been, in the send's transaction, before the answer)
    expect(await countJobs(app.sql, SEND_RETRY_JOB, { messageId: stored.id })).toBe(0);
    expect(fake.refusals.filter((r) => r.to === c)).toHaveLength(1);
  });

  it("131048 (spam rate limit) is not retried", async () => {
    const { res } = await sendRefused("5511944440011", GRAPH_ERRORS.spamRateLimit, 1);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain("(#131048) Spam rate limit hit");
  });

  it("after the last attempt the message fails with Meta's text", async () => {
    const c = "5511944440012";
    const { res, id, ticketId } = await sendRefused(c, GRAPH_ERRORS.serviceUnavailable, 6);
    expect(res.statusCode).toBe(200);
    const done = await settled(id!);
    const meta = "(#131016) Service unavailable — A service is temporarily unavailable.";
    expect(done).toEqual({ send_status: "failed", send_attempts: 6, send_error: `ERR_SENDING_WAPP_MSG: Não foi possível enviar a mensagem: ${meta}`, provider_id: null, ack: 0 });
    expect(fake.refusals.filter((r) => r.to === c)).toHaveLength(6);
    expect(fake.messagesTo(c)).toHaveLength(0);
    const page = await app.api("GET", `/api/messages/${ticketId}`, { token: a.admin.token });
    expect(page.json().messages.find((m: { id: number }) => m.id === id)).toMatchObject({ sendError: `Não foi possível enviar a mensagem: ${meta}`, retry: null });
  });
});
