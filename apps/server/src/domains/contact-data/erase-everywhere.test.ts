import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, officialTenant, waitFor, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { mediaStorage } from "../../core/storage.js";

/**
 * The erasure leaves nothing behind: a contact known through a real Cloud API conversation (webhook
 * deliveries in Meta's shape, a received image, an agent's reply and its status), plus every other
 * place the product keeps a person (notes, schedules with a file, WhatsApp/SMS/e-mail campaign rows,
 * sandbox copies, the Baileys cache, driver calls, the e-mail tool, import errors), is erased; then
 * every text, json, array, tsvector and bytea column of every table of the database (information_schema,
 * pg-boss's schema included) and every file under the data directory is searched for the number (both
 * forms), the name, the e-mail, the CPF, the business-scoped user id and the message text.
 */
let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
let dataDir: string;

const NUMBER = "5511977731234";
const NUMBER_8 = "551177731234"; // how WhatsApp knows this older account (wa_id)
const BSUID = "BR.1502576394655843";
const NAME = "Quitéria Bernardes";
const EMAIL = "quiteria.bernardes@cliente.test";
const CPF = "39053344705";
const TEXT = "Quero cancelar o plano Zimbraozinho";
const NEEDLES = [NUMBER, NUMBER_8, BSUID, "Bernardes", EMAIL, CPF, "Zimbraozinho"];

beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
  dataDir = app.ctx.config.dataDir;
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511911130009"]);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

interface Hit {
  where: string;
  needle: string;
}

/** Every (schema.table.column, needle) of the database holding a needle. */
async function scanDatabase(needles: string[]): Promise<Hit[]> {
  const cols = await app.sql.many<{ s: string; t: string; c: string; type: string }>(
    `SELECT c.table_schema AS s, c.table_name AS t, c.column_name AS c, c.data_type AS type
       FROM information_schema.columns c
       JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
      WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema')
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'tsvector', 'bytea', 'USER-DEFINED')
      ORDER BY 1, 2, 3`,
  );
  const hits: Hit[] = [];
  for (const col of cols) {
    const ident = `"${col.s}"."${col.t}"`;
    const test =
      col.type === "bytea"
        ? `position(convert_to(needle.v, 'UTF8') IN t."${col.c}") > 0`
        : `strpos(lower(t."${col.c}"::text), lower(needle.v)) > 0`;
    const found = await app.sql.many<{ n: string }>(`SELECT needle.v AS n FROM unnest($1::text[]) AS needle(v) WHERE EXISTS (SELECT 1 FROM ${ident} t WHERE ${test})`, [needles]);
    for (const f of found) hits.push({ where: `${col.s}.${col.t}.${col.c}`, needle: f.n });
  }
  return hits;
}

/** Every file under the data directory holding a needle. */
async function scanFiles(needles: string[]): Promise<Hit[]> {
  const hits: Hit[] = [];
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const text = (await readFile(file)).toString("latin1").toLowerCase();
    for (const n of needles) if (text.includes(Buffer.from(n.toLowerCase(), "utf8").toString("latin1"))) hits.push({ where: path.relative(dataDir, file), needle: n });
  }
  return hits;
}

const phone = () => ({ id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber });
async function deliver(change: Parameters<typeof P.messagesChange>[1]) {
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone(), change)]]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, a.businessId);
}

/** The person, as the product meets them: a conversation on the official API and everything around it. */
async function seed() {
  const c = a.companyId;
  const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
  const who = [{ wa_id: NUMBER_8, name: NAME, user_id: BSUID }];
  await deliver({ contacts: who, messages: [{ ...P.text(NUMBER_8, TEXT), from_user_id: BSUID }] });
  const mediaId = fake.addMedia(Buffer.from(`\xff\xd8\xff fake jpeg of ${NAME} ${NUMBER} Zimbraozinho`), "image/jpeg");
  await deliver({ contacts: who, messages: [{ ...P.media(NUMBER_8, "image", mediaId, { mimeType: "image/jpeg", caption: "RG Zimbraozinho" }), from_user_id: BSUID }] });
  const contact = await one<{ id: number; number: string; wa_id: string | null; wa_user_id: string | null }>(
    "SELECT id, number, wa_id, wa_user_id FROM contacts WHERE company_id = $1 AND number = $2",
    [c, NUMBER],
  );
  expect(contact).toMatchObject({ number: NUMBER, wa_id: NUMBER_8, wa_user_id: BSUID });
  await app.sql.exec("UPDATE contacts SET email = $3, document = $4, extra_info = $5 WHERE company_id = $1 AND id = $2", [
    c,
    contact.id,
    EMAIL,
    CPF,
    JSON.stringify([{ name: "Apelido", value: "Quita Bernardes" }]),
  ]);
  const ticket = await one<{ id: number }>("SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2", [c, contact.id]);
  const image = await waitFor(
    () => app.sql.maybe<{ media_path: string }>("SELECT media_path FROM messages WHERE ticket_id = $1 AND media_path IS NOT NULL", [ticket.id]),
    10_000,
    "the image",
  );
  expect((await app.api("PUT", `/api/tickets/${ticket.id}`, { token: a.admin.token, body: { status: "open", userId: a.admin.id } })).statusCode).toBe(200);
  // the agent answers by name; Meta reports the reply delivered (a status delivery naming the number)
  const reply = await app.api("POST", `/api/messages/${ticket.id}`, { token: a.admin.token, body: { body: "Olá Quitéria Bernardes, vou cancelar", sign: false } });
  expect(reply.statusCode, reply.body).toBe(200);
  const sent = await waitFor(() => app.sql.maybe<{ provider_id: string }>("SELECT provider_id FROM messages WHERE ticket_id = $1 AND from_me AND provider_id IS NOT NULL", [ticket.id]));
  await deliver({ statuses: [P.status(sent.provider_id, "failed", NUMBER_8, [{ code: 131026, title: "Message undeliverable", details: `Número ${NUMBER_8} indisponível` }])] });

  await app.sql.exec("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, 'Bernardes ligou, Zimbraozinho')", [
    c,
    ticket.id,
    contact.id,
    a.admin.id,
  ]);
  const scheduleFile = await mediaStorage(dataDir).put(c, Buffer.from(`boleto de ${NAME}`), { fileName: "boleto.pdf", mimetype: "application/pdf" });
  await app.sql.exec(
    "INSERT INTO schedules (company_id, contact_id, body, send_at, status, media_path, media_name) VALUES ($1, $2, 'Lembrete Zimbraozinho', now() + interval '1 day', 'PENDENTE', $3, 'boleto-bernardes.pdf')",
    [c, contact.id, scheduleFile],
  );
  const costCenter = await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Centro') RETURNING id", [c]);
  const campaign = await one<{ id: number }>("INSERT INTO campaigns (company_id, name, status, cost_center_id, business_id) VALUES ($1, 'Promo', 'RUNNING', $2, $3) RETURNING id", [
    c,
    costCenter.id,
    a.businessId,
  ]);
  await app.sql.exec(
    `INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, cpf, email, variables, state, provider_id, error_message)
     VALUES ($1, $2, 1, $3, $4, $5, ARRAY['Bernardes'], 'failed', 'wamid.x', $6)`,
    [c, campaign.id, NUMBER, CPF, EMAIL, `131026: ${NUMBER} indisponível`],
  );
  const smsTemplate = await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Aviso', 'Olá {{nome}}') RETURNING id", [c]);
  const sms = await one<{ id: number }>(
    "INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, file_name) VALUES ($1, 'SMS', 'READY', $2, $3, 'Olá', 'a.csv') RETURNING id",
    [c, costCenter.id, smsTemplate.id],
  );
  await app.sql.exec(
    `INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, cpf, variables, state, body, error_message)
     VALUES ($1, $2, 1, $3, $4, ARRAY['Bernardes'], 'failed', 'Olá Quitéria Bernardes', $5)`,
    [c, sms.id, NUMBER, CPF, `21211: ${NUMBER} inválido`],
  );
  const sender = await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address) VALUES ($1, 'loja@loja.test') RETURNING id", [c]);
  const emailTemplate = await one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'T', 'S', '<p>x</p>') RETURNING id", [c]);
  const mail = await one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html)
     VALUES ($1, 'E-mail', 'ACTIVE', $2, $3, 'loja@loja.test', $4, 'S', '<p>x</p>') RETURNING id`,
    [c, costCenter.id, sender.id, emailTemplate.id],
  );
  await app.sql.exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, variables, state, smtp_response)
     VALUES ($1, $2, 1, $3, ARRAY['Bernardes'], 'delivered', $4)`,
    [c, mail.id, EMAIL, `250 2.0.0 OK <${EMAIL}>`],
  );
  await app.sql.exec("INSERT INTO sent_emails (company_id, user_id, sender, subject, message, status) VALUES ($1, $2, $3, 'Seu plano Zimbraozinho', 'Olá Bernardes', 'sent')", [
    c,
    a.admin.id,
    EMAIL,
  ]);
  await app.sql.exec(
    "INSERT INTO sms_sandbox_messages (company_id, sid, to_number, body, segments, status, outcome) VALUES ($1, 'SMx', $2, 'Olá Bernardes', 1, 'delivered', 'delivered')",
    [c, NUMBER],
  );
  await app.sql.exec("INSERT INTO email_sandbox_messages (company_id, from_address, to_address, subject) VALUES ($1, 'loja@loja.test', $2, 'Olá Bernardes')", [c, EMAIL]);
  await app.sql.exec("INSERT INTO business_initiated_sends (company_id, business_id, phone) VALUES ($1, $2, $3)", [c, a.businessId, NUMBER]);
  await app.sql.exec(
    "INSERT INTO baileys_messages (company_id, whatsapp_id, provider_id, remote_jid, from_me, message) VALUES ($1, $2, 'BAE5X', $3, false, convert_to($4, 'UTF8'))",
    [c, a.numbers[0]!.whatsappId, `${NUMBER}@s.whatsapp.net`, `conversation: ${TEXT}`],
  );
  await app.sql.exec("INSERT INTO driver_calls (company_id, whatsapp_id, action, args, state, result) VALUES ($1, $2, 'checkNumber', $3, 'done', $4)", [
    c,
    a.numbers[0]!.whatsappId,
    JSON.stringify({ number: NUMBER }),
    JSON.stringify({ jid: `${NUMBER}@s.whatsapp.net` }),
  ]);
  await app.sql.exec("INSERT INTO contact_imports (company_id, user_id, status, errors) VALUES ($1, $2, 'done', $3)", [
    c,
    a.admin.id,
    JSON.stringify([{ line: 2, reason: `E-mail inválido: ${EMAIL}x` }, { line: 3, reason: "Telefone vazio" }]),
  ]);
  // the opt-out stays (docs/architecture.md "Data protection (LGPD)"): the one copy the erasure keeps
  await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source) VALUES ($1, 'sms', $2, 'reply')", [c, NUMBER]);
  return { contact, ticket, image: image.media_path, scheduleFile };
}

describe("LGPD: an erasure leaves no copy behind", () => {
  it("finds the person in the database and on disk before the erase, and nowhere after", async () => {
    const p = await seed();
    const before = await scanDatabase(NEEDLES);
    const places = new Set(before.map((h) => h.where));
    for (const where of [
      "public.contacts.number",
      "public.contacts.wa_id",
      "public.contacts.wa_user_id",
      "public.webhook_events.payload",
      "public.messages.body",
      "public.tickets.search_words",
      "public.official_message_statuses.error_detail",
      "public.driver_calls.args",
      "public.baileys_messages.message",
      "public.contact_imports.errors",
      "public.sent_emails.sender",
    ]) {
      expect(places, where).toContain(where);
    }
    for (const n of NEEDLES) expect(before.some((h) => h.needle === n), n).toBe(true);
    const filesBefore = await scanFiles(NEEDLES);
    expect(filesBefore.map((h) => h.needle)).toEqual(expect.arrayContaining([NUMBER, "Bernardes", "Zimbraozinho"]));

    const emitted: { action: string; message: { id: number; body: string; mediaUrl: string | null; erased?: boolean } }[] = [];
    const spy = vi.spyOn(app.ctx.realtime, "emit").mockImplementation((_room, event, payload) => {
      if (String(event).endsWith("appMessage")) emitted.push(payload as (typeof emitted)[number]);
    });
    const res = await app.api("POST", `/api/contacts/${p.contact.id}/erase`, { token: a.admin.token });
    spy.mockRestore();
    // open screens and offline caches are told: every message of the conversation, erased
    expect(emitted.map((e) => ({ action: e.action, body: e.message.body, mediaUrl: e.message.mediaUrl, erased: e.message.erased }))).toEqual([
      { action: "update", body: "", mediaUrl: null, erased: true },
      { action: "update", body: "", mediaUrl: null, erased: true },
      { action: "update", body: "", mediaUrl: null, erased: true },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ contactId: p.contact.id, mediaFiles: 2, webhookDeliveries: 3 });

    // only the opt-out's address is kept, on purpose: it is what keeps the person from being written to again
    expect(await scanDatabase(NEEDLES)).toEqual([{ where: "public.opt_outs.address", needle: NUMBER }]);
    expect(await scanFiles(NEEDLES)).toEqual([]);
    expect(await mediaStorage(dataDir).open(p.image)).toBeNull();
    expect(await mediaStorage(dataDir).open(p.scheduleFile)).toBeNull();
    // the rows reports count are still there, and say they were erased
    const msgs = await app.sql.many<{ body: string; erased: boolean }>("SELECT body, erased_at IS NOT NULL AS erased FROM messages WHERE ticket_id = $1 ORDER BY id", [p.ticket.id]);
    expect(msgs).toEqual([
      { body: "", erased: true },
      { body: "", erased: true },
      { body: "", erased: true },
    ]);
    // the ticket view is told so, and is given no file to ask for
    const listed = await app.api("GET", `/api/messages/${p.ticket.id}`, { token: a.admin.token });
    expect(listed.statusCode, listed.body).toBe(200);
    const image = (listed.json().messages as { mediaType: string; mediaUrl: string | null; erased?: boolean }[]).find((m) => m.mediaType === "image");
    expect(image).toMatchObject({ mediaUrl: null, erased: true });
  });
});
