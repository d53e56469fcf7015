import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaStorage } from "../../core/storage.js";
import type { PersonalDataDocument } from "./document.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "atende-lgpd-"));

beforeAll(async () => {
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  await app?.close();
});

/** A contact with a ticket (tagged), two messages (one with a stored image), a note, a schedule, a campaign row and an opt-out. */
async function person(companyId: number, userId: number, number: string) {
  const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
  const contact = await one<{ id: number }>(
    `INSERT INTO contacts (company_id, name, number, email, document, extra_info) VALUES ($1, 'Maria Souza', $2, 'maria@cliente.test', '12345678909',
     '[{"name": "Cidade", "value": "Recife"}]'::jsonb) RETURNING id`,
    [companyId, number],
  );
  const ticket = await one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status, last_message) VALUES ($1, $2, 'open', 'Meu CPF é 123') RETURNING id", [
    companyId,
    contact.id,
  ]);
  const tag = await one<{ id: number }>("INSERT INTO tags (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `VIP ${contact.id}`]);
  await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [companyId, ticket.id, tag.id]);
  const media = await mediaStorage(dataDir).put(companyId, Buffer.from("fake image bytes"), { fileName: "rg.jpg", mimetype: "image/jpeg" });
  await app.sql.exec(
    "INSERT INTO messages (company_id, ticket_id, contact_id, body, from_me, created_at) VALUES ($1, $2, $3, 'Meu CPF é 123', false, '2026-03-05T14:07:00Z')",
    [companyId, ticket.id, contact.id],
  );
  await app.sql.exec(
    "INSERT INTO messages (company_id, ticket_id, contact_id, body, from_me, media_type, media_path, media_name, mimetype) VALUES ($1, $2, $3, 'foto do RG', false, 'image', $4, 'rg.jpg', 'image/jpeg')",
    [companyId, ticket.id, contact.id, media],
  );
  await app.sql.exec("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, 'Cliente pediu desconto')", [
    companyId,
    ticket.id,
    contact.id,
    userId,
  ]);
  await app.sql.exec("INSERT INTO schedules (company_id, contact_id, body, send_at, status) VALUES ($1, $2, 'Lembrete da consulta', now() + interval '1 day', 'PENDENTE')", [
    companyId,
    contact.id,
  ]);
  const costCenter = await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Centro ${contact.id}`]);
  const business = await one<{ id: number }>("INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM', $2, '', '', '') RETURNING id", [
    companyId,
    `waba-${contact.id}`,
  ]);
  const campaign = await one<{ id: number }>(
    "INSERT INTO campaigns (company_id, name, status, cost_center_id, business_id) VALUES ($1, 'Promo', 'RUNNING', $2, $3) RETURNING id",
    [companyId, costCenter.id, business.id],
  );
  await app.sql.exec("INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, cpf, state) VALUES ($1, $2, 1, $3, '12345678909', 'pending')", [
    companyId,
    campaign.id,
    number,
  ]);
  await app.sql.exec("INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, state) VALUES ($1, $2, 2, '5511900000000', 'pending')", [
    companyId,
    campaign.id,
  ]);
  await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source) VALUES ($1, 'sms', $2, 'reply')", [companyId, number]);
  return { contactId: contact.id, ticketId: ticket.id, media, campaignId: campaign.id };
}

describe("LGPD: access", () => {
  it("refuses without a session, supervisors and users, and another company's contact", async () => {
    const p = await person(t.companyId, t.admin.id, "5511987650001");
    for (const [method, url] of [["GET", `/api/contacts/${p.contactId}/export`], ["POST", `/api/contacts/${p.contactId}/erase`]] as const) {
      expect((await app.api(method, url)).statusCode).toBe(401);
      expect((await app.api(method, url, { token: t.user.token })).json().error).toBe("ERR_NO_PERMISSION");
      expect((await app.api(method, url, { token: t.supervisor.token })).json().error).toBe("ERR_NO_PERMISSION");
      const foreign = await app.api(method, url, { token: other.admin.token });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toBe("ERR_NO_CONTACT_FOUND");
    }
    expect((await app.sql.one<{ name: string }>("SELECT name FROM contacts WHERE id = $1", [p.contactId])).name).toBe("Maria Souza");
    expect((await app.api("GET", "/api/audit-log", { token: t.supervisor.token })).json().error).toBe("ERR_NO_PERMISSION");
  });
});

/** The export's files: the ZIP read back with fflate's reader. */
function unzipped(body: Buffer): { html: string; json: PersonalDataDocument; names: string[] } {
  const files = unzipSync(new Uint8Array(body));
  const read = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  return { names: Object.keys(files), html: read("dados-pessoais.html"), json: JSON.parse(read("dados-pessoais.json")) as PersonalDataDocument };
}

describe("LGPD: export", () => {
  it("hands an admin a ZIP with a page the person can read and the same content as JSON, without internal ids, and audits it", async () => {
    const p = await person(t.companyId, t.admin.id, "5511987650002");
    const res = await app.api("GET", `/api/contacts/${p.contactId}/export`, { token: t.admin.token, headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="dados-pessoais-contato-${p.contactId}.zip"`);
    const { names, html, json } = unzipped(res.rawPayload);
    expect(names).toEqual(["dados-pessoais.html", "dados-pessoais.json"]);

    // the readable page: Portuguese labels, dates on the company's clock (São Paulo, UTC-3), no columns or ids
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("<h1>Dados pessoais de Maria Souza</h1>");
    expect(html).toContain("<dt>Número de WhatsApp</dt><dd>5511987650002</dd>");
    expect(html).toContain("<dt>CPF/CNPJ</dt><dd>12345678909</dd>");
    expect(html).toContain("<dt>Cidade</dt><dd>Recife</dd>");
    expect(html).toContain("<dt>Situação</dt><dd>Em atendimento</dd>");
    expect(html).toContain(`<dt>Etiquetas</dt><dd>VIP ${p.contactId}</dd>`);
    expect(html).toContain('<tr><td>05/03/2026 11:07</td><td>Você</td><td><span class="msg">Meu CPF é 123</span></td></tr>');
    expect(html).toContain('<span class="tag">Imagem: rg.jpg</span> <span class="msg">foto do RG</span>');
    expect(html).toContain("Cliente pediu desconto");
    expect(html).toContain("Lembrete da consulta");
    expect(html).toContain("<td>WhatsApp</td><td>Promo</td><td>5511987650002</td><td>Aguardando envio</td>");
    expect(html).toContain("<td>SMS</td><td>5511987650002</td><td>Resposta do titular</td>");
    for (const internal of ["company_id", "tagset_id", "ticket_id", "contact_id", "user_id", "media_path", p.media, `>${p.contactId}<`]) expect(html).not.toContain(internal);

    // the machine-readable part: the same content, camelCase, ISO instants, no ids
    expect(json.format).toBe("atende.dados-pessoais/1");
    expect(json.company).toEqual({ name: expect.any(String), timeZone: "America/Sao_Paulo" });
    expect(json.contact).toMatchObject({ name: "Maria Souza", number: "5511987650002", email: "maria@cliente.test", document: "12345678909", extraInfo: [{ name: "Cidade", value: "Recife" }] });
    expect(json.tickets).toHaveLength(1);
    expect(json.tickets[0]).toMatchObject({ status: "open", tags: [`VIP ${p.contactId}`], notes: [expect.objectContaining({ text: "Cliente pediu desconto" })] });
    expect(json.tickets[0]!.messages.map((m: { text: string }) => m.text)).toEqual(["Meu CPF é 123", "foto do RG"]);
    expect(json.tickets[0]!.messages[0]).toEqual({ at: "2026-03-05T14:07:00.000Z", from: "contact", agent: null, text: "Meu CPF é 123", attachment: null, deleted: false, edited: false, erased: false });
    expect(json.tickets[0]!.messages[1]!.attachment).toEqual({ type: "image", name: "rg.jpg" });
    expect(json.schedules.map((s: { text: string }) => s.text)).toEqual(["Lembrete da consulta"]);
    expect(json.campaigns).toEqual([expect.objectContaining({ channel: "whatsapp", campaign: "Promo", address: "5511987650002", state: "pending" })]);
    expect(json.optOuts).toEqual([expect.objectContaining({ channel: "sms", address: "5511987650002", source: "reply" })]);
    expect(JSON.stringify(json)).not.toMatch(/"id"|_id"|company_id|tagset/);
    expect(JSON.stringify(json)).not.toContain(p.media);

    const log = (await app.api("GET", "/api/audit-log?action=contact.exported", { token: t.admin.token })).json();
    expect(log.entries[0]).toMatchObject({
      action: "contact.exported",
      actor: { id: t.admin.id, name: "Admin" },
      ip: "203.0.113.7",
      target: { type: "contact", id: p.contactId, label: `#${p.contactId}` },
    });
  });
});

describe("LGPD: erase", () => {
  it("empties messages and media, tickets' personal fields, notes, schedules and campaign rows; keeps the counts; audits it", async () => {
    const p = await person(t.companyId, t.admin.id, "5511987650003");
    const untouched = await person(other.companyId, other.admin.id, "5511987650003");
    const before = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1", [t.companyId]);

    const res = await app.api("POST", `/api/contacts/${p.contactId}/erase`, { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ contactId: p.contactId, messages: 2, mediaFiles: 1, tickets: 1, notes: 1, schedules: 1, campaignRows: 1 });

    const contact = await app.sql.one<Record<string, unknown>>("SELECT name, number, email, document, extra_info, erased_at FROM contacts WHERE id = $1", [p.contactId]);
    expect(contact).toMatchObject({ name: "Contato apagado", number: `apagado-${p.contactId}`, email: "", document: "", extra_info: [] });
    expect(contact.erased_at).toBeInstanceOf(Date);
    const messages = await app.sql.many<{ body: string; media_path: string | null; media_name: string | null }>(
      "SELECT body, media_path, media_name FROM messages WHERE ticket_id = $1",
      [p.ticketId],
    );
    expect(messages).toEqual([
      { body: "", media_path: null, media_name: null },
      { body: "", media_path: null, media_name: null },
    ]);
    expect(await mediaStorage(dataDir).open(p.media)).toBeNull();
    const ticket = await app.sql.one<{ last_message: string; search: boolean }>(
      "SELECT last_message, search_words @@ plainto_tsquery('simple', 'maria') AS search FROM tickets WHERE id = $1",
      [p.ticketId],
    );
    expect(ticket).toEqual({ last_message: "", search: false });
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_notes WHERE ticket_id = $1", [p.ticketId])).n).toBe(0);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM schedules WHERE contact_id = $1", [p.contactId])).n).toBe(0);
    const rows = await app.sql.many<{ row_number: number; phone: string; cpf: string; state: string; invalid_reason: string }>(
      "SELECT row_number, phone, cpf, state, invalid_reason FROM campaign_recipients WHERE campaign_id = $1 ORDER BY row_number",
      [p.campaignId],
    );
    expect(rows).toEqual([
      { row_number: 1, phone: "", cpf: "", state: "invalid", invalid_reason: "erased" },
      { row_number: 2, phone: "5511900000000", cpf: "", state: "pending", invalid_reason: "" },
    ]);
    // the rows reports count are still there
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1", [t.companyId])).n).toBe(before.n);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE id = $1", [p.ticketId])).n).toBe(1);
    // the opt-out stays: it keeps the person from being messaged again
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM opt_outs WHERE company_id = $1 AND address = '5511987650003'", [t.companyId])).n).toBe(1);

    // the other company's contact with the same number is untouched
    const theirs = await app.sql.one<{ name: string; number: string }>("SELECT name, number FROM contacts WHERE id = $1", [untouched.contactId]);
    expect(theirs).toEqual({ name: "Maria Souza", number: "5511987650003" });
    expect((await app.sql.many<{ body: string }>("SELECT body FROM messages WHERE ticket_id = $1 ORDER BY id", [untouched.ticketId])).map((m) => m.body)).toEqual([
      "Meu CPF é 123",
      "foto do RG",
    ]);
    expect(await mediaStorage(dataDir).open(untouched.media)).not.toBeNull();
    expect((await app.sql.one<{ phone: string }>("SELECT phone FROM campaign_recipients WHERE campaign_id = $1 AND row_number = 1", [untouched.campaignId])).phone).toBe("5511987650003");

    // the audit line names the contact by id only, never by the erased name
    const log = (await app.api("GET", "/api/audit-log?action=contact.erased", { token: t.admin.token })).json();
    expect(log.entries[0]).toMatchObject({ action: "contact.erased", actor: { name: "Admin" }, target: { type: "contact", id: p.contactId, label: `#${p.contactId}` } });
    expect(JSON.stringify(log)).not.toContain("Maria");
    // the other company sees none of it
    const theirLog = (await app.api("GET", "/api/audit-log", { token: other.admin.token })).json();
    expect(theirLog.entries.filter((e: { action: string }) => e.action.startsWith("contact."))).toEqual([]);

    // the export now holds nothing personal
    const again = unzipped((await app.api("GET", `/api/contacts/${p.contactId}/export`, { token: t.admin.token })).rawPayload);
    expect(JSON.stringify(again.json)).not.toMatch(/Maria|Recife|CPF|12345678909|maria@cliente/);
    expect(again.html).not.toMatch(/Maria|Recife|CPF é|12345678909|maria@cliente/);
    expect(again.html).toContain("Mensagem apagada a pedido do titular");
  });
});

describe("LGPD: after an erasure", () => {
  it("the contacts CSV export leaves the erased contact out", async () => {
    const c = await buildTenant(app);
    const gone = await person(c.companyId, c.admin.id, "5511987650004");
    await person(c.companyId, c.admin.id, "5511987650005");
    expect((await app.api("POST", `/api/contacts/${gone.contactId}/erase`, { token: c.admin.token })).statusCode).toBe(200);
    const csv = await app.api("GET", "/api/contacts/export", { token: c.admin.token });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines).toEqual(["nome;telefone;cpf;email", "Maria Souza;5511987650005;12345678909;maria@cliente.test"]);
  });
});

describe("audit log", () => {
  it("records logins (succeeded and failed) and profile changes, with filters, for the company's admins only", async () => {
    const c = await buildTenant(app);
    const ok = await app.api("POST", "/api/auth/login", { body: { email: c.user.email, password: "wrong-password" }, headers: { "x-forwarded-for": "198.51.100.4" } });
    expect(ok.statusCode).toBe(401);
    const changed = await app.api("PUT", `/api/users/${c.user.id}`, { token: c.admin.token, body: { profile: "supervisor" } });
    expect(changed.statusCode).toBe(200);

    const all = (await app.api("GET", "/api/audit-log", { token: c.admin.token })).json();
    const actions = all.entries.map((e: { action: string }) => e.action);
    expect(actions).toContain("login.succeeded");
    expect(actions).toContain("login.failed");
    expect(actions[0]).toBe("user.profile_changed");
    expect(all.entries[0]).toMatchObject({ actor: { id: c.admin.id, name: "Admin" }, target: { type: "user", id: c.user.id, label: c.user.email }, details: { from: "user", to: "supervisor" } });
    const failed = (await app.api("GET", "/api/audit-log?action=login.failed", { token: c.admin.token })).json();
    expect(failed.entries).toEqual([
      expect.objectContaining({ action: "login.failed", ip: "198.51.100.4", actor: { id: null, name: "" }, target: { type: "user", id: c.user.id, label: c.user.email }, details: { reason: "wrong_password" } }),
    ]);
    expect(failed.count).toBe(1);
    const search = (await app.api("GET", `/api/audit-log?searchParam=${encodeURIComponent(c.user.email)}&action=user.profile_changed`, { token: c.admin.token })).json();
    expect(search.count).toBe(1);
    const future = (await app.api("GET", "/api/audit-log?from=2999-01-01", { token: c.admin.token })).json();
    expect(future).toEqual({ entries: [], count: 0, hasMore: false });
    expect((await app.api("GET", "/api/audit-log?from=yesterday", { token: c.admin.token })).json().error).toBe("ERR_VALIDATION");
    expect((await app.api("GET", "/api/audit-log?action=nope", { token: c.admin.token })).statusCode).toBe(400);
    // another company's admin never sees these lines
    const foreign = (await app.api("GET", "/api/audit-log", { token: other.admin.token })).json();
    expect(foreign.entries.some((e: { target: { label: string } }) => e.target.label === c.user.email)).toBe(false);
  });
});
