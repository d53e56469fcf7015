import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let noApi: Awaited<ReturnType<typeof buildTenant>>;
let wa: number;
let otherWa: number;
const TOKEN = "tok-company-a-0123456789abcdef";
const OTHER_TOKEN = "tok-company-b-0123456789abcdef";

async function withToken(tenant: typeof t, token: string, o: { queueIds?: number[] } = {}): Promise<number> {
  const id = await connectedSandbox(app, tenant.admin.token, { name: `API ${token.slice(4, 13)}`, queueIds: o.queueIds });
  const res = await app.api("PUT", `/api/whatsapp/${id}`, { token: tenant.admin.token, body: { token } });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const send = (token: string | undefined, body: unknown) =>
  app.api("POST", "/api/messages/send", { body, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

function multipart(fields: Record<string, string>, files: { name: string; type: string; data: Buffer }[]) {
  const boundary = "----atende-test-boundary";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    parts.push(f.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const outbox = (whatsappId: number) =>
  app.sql.many<{ number: string; body: string; media_type: string; media_name: string | null }>(
    "SELECT number, body, media_type, media_name FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' ORDER BY id",
    [whatsappId],
  );

beforeAll(async () => {
  app = await createTestApp({ dataDir: await mkdtemp(path.join(os.tmpdir(), "atende-extapi-")) });
  t = await buildTenant(app);
  other = await buildTenant(app);
  noApi = await buildTenant(app, { plan: { flags: { useExternalApi: false } } });
  wa = await withToken(t, TOKEN, { queueIds: [await buildQueue(app.sql, t.companyId, { name: "Única" })] });
  otherWa = await withToken(other, OTHER_TOKEN);
});
afterAll(async () => {
  await app.close();
});

describe("POST /api/messages/send", () => {
  it("refuses a missing, unknown or user token with 401 ERR_SESSION_EXPIRED and sends nothing", async () => {
    for (const token of [undefined, "nope", TOKEN.slice(0, -1), t.admin.token]) {
      const res = await send(token, { number: "5511999990001", body: "oi" });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
    expect(await outbox(wa)).toEqual([]);
  });

  it("sends a text: contact and pending ticket created, message stored without signature, outbox has it", async () => {
    const res = await send(TOKEN, { number: "+55 (11) 99999-0001", body: "Seu pedido saiu para entrega" });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out.message).toBe("Mensagem enviada");
    expect(out.messages).toHaveLength(1);
    expect(out.messages[0]).toMatchObject({ body: "Seu pedido saiu para entrega", fromMe: true, userId: null });
    expect(await outbox(wa)).toEqual([{ number: "5511999990001", body: "Seu pedido saiu para entrega", media_type: "chat", media_name: null }]);
    const ticket = await app.sql.one<{ company_id: number; status: string; origin_from_me: boolean; queue_id: number | null; contact_number: string }>(
      "SELECT t.company_id, t.status, t.origin_from_me, t.queue_id, c.number AS contact_number FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.id = $1",
      [out.ticketId],
    );
    expect(ticket).toMatchObject({ company_id: t.companyId, status: "pending", origin_from_me: true, contact_number: "5511999990001" });
    expect(ticket.queue_id).not.toBeNull();

    // A second message goes to the same ticket.
    const again = await send(TOKEN, { number: "5511999990001", body: "Chega hoje" });
    expect(again.json().ticketId).toBe(out.ticketId);
    expect(again.json().contactId).toBe(out.contactId);
  });

  it("sends files from multipart (text as the first file's caption)", async () => {
    const form = multipart({ number: "5511999990002", body: "Segue o boleto" }, [
      { name: "boleto.pdf", type: "application/pdf", data: Buffer.from("%PDF-1.4 boleto") },
      { name: "foto.png", type: "image/png", data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    const res = await app.app.inject({
      method: "POST",
      url: "/api/messages/send",
      payload: form.payload,
      headers: { "content-type": form.contentType, authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages.map((m: { mediaType: string; body: string }) => [m.mediaType, m.body])).toEqual([
      ["application", "Segue o boleto"],
      ["image", ""],
    ]);
    const sent = (await outbox(wa)).filter((m) => m.number === "5511999990002");
    expect(sent.map((m) => m.media_name)).toEqual(["boleto.pdf", "foto.png"]);
  });

  it("a bad number is ERR_WAPP_INVALID_CONTACT and creates nothing", async () => {
    const before = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1", [t.companyId]);
    for (const number of ["abc", "123", "55119999900011234"]) {
      const res = await send(TOKEN, { number, body: "oi" });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
    }
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1", [t.companyId])).n).toBe(before.n);
  });

  it("validates the body and refuses the connection's own number", async () => {
    const empty = await send(TOKEN, { number: "5511999990003", body: "  " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("ERR_VALIDATION");
    const own = await app.sql.one<{ number: string }>("SELECT number FROM whatsapps WHERE id = $1", [wa]);
    const res = await send(TOKEN, { number: own.number, body: "oi" });
    expect(res.json().error).toBe("ERR_CONTACT_IS_WHATSAPP");
  });

  it("403 ERR_PLAN_FEATURE_DISABLED when the company's plan has no external API", async () => {
    const id = await withToken(noApi, "tok-no-api-0123456789abcdef");
    const res = await send("tok-no-api-0123456789abcdef", { number: "5511999990004", body: "oi" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    expect(await outbox(id)).toEqual([]);
  });

  it("a token acts only for its own company: same number, separate contacts and tickets", async () => {
    const a = (await send(TOKEN, { number: "5511999990005", body: "de A" })).json();
    const b = (await send(OTHER_TOKEN, { number: "5511999990005", body: "de B" })).json();
    expect(a.contactId).not.toBe(b.contactId);
    const owners = await app.sql.many<{ id: number; company_id: number; whatsapp_id: number }>(
      "SELECT id, company_id, whatsapp_id FROM tickets WHERE id = ANY($1::int[]) ORDER BY id",
      [[a.ticketId, b.ticketId]],
    );
    expect(owners).toEqual([
      { id: a.ticketId, company_id: t.companyId, whatsapp_id: wa },
      { id: b.ticketId, company_id: other.companyId, whatsapp_id: otherWa },
    ]);
    expect((await outbox(otherWa)).map((m) => m.body)).toEqual(["de B"]);
  });

  it("409 ERR_WAPP_NOT_INITIALIZED when the connection is not connected", async () => {
    const id = await withToken(t, "tok-offline-0123456789abcdef");
    await app.api("DELETE", `/api/whatsappsession/${id}`, { token: t.admin.token });
    const res = await send("tok-offline-0123456789abcdef", { number: "5511999990006", body: "oi" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
  });

  it("rate-limits per token", async () => {
    let limited = 0;
    for (let i = 0; i < 125; i++) {
      const res = await send("tok-flood-000000000000", { number: "5511999990007", body: "x" });
      if (res.statusCode === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    // Another token is not affected.
    expect((await send(TOKEN, { number: "5511999990007", body: "ok" })).statusCode).toBe(200);
  });
});
