import { mkdtempSync } from "node:fs";
import { access, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaStorage } from "../src/core/storage.js";
import { buildTenant, createTestApp, type TestApp } from "./helper.js";

/**
 * Deletes and erasures at size, through the real routes: an erasure of a contact with 10,000
 * messages, a ticket with 2,000 messages deleted, a contact with 2,000 messages deleted and a
 * connection deleted, each beside 50,000 other messages of the company. Every deleted message makes
 * PostgreSQL look for the rows that point at it (a message quoting it, a ticket whose last message it
 * was); without an index on those foreign keys each look was a scan of the whole table (2,000 messages
 * took 11 minutes on a large database, 13-14 s here before migration 0816, 31-36 ms after). The
 * erasure empties messages, and each emptied message updated its ticket's search words once more
 * (19 s here before migration 0817, 313 ms after). The limit is far above the fixed times and far
 * below the broken ones.
 */
let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "atende-deletes-"));

/** Room for a loaded machine: each takes well under a second now, and took 13-19 s before. */
const LIMIT_MS = 5_000;

beforeAll(async () => {
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);

async function contact(name: string, number: string): Promise<number> {
  return (await one<{ id: number }>("INSERT INTO contacts (company_id, name, number, email) VALUES ($1, $2, $3, 'pessoa@cliente.test') RETURNING id", [t.companyId, name, number])).id;
}

async function ticket(contactId: number, o: { whatsappId?: number | null; status?: string } = {}): Promise<number> {
  return (
    await one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id) VALUES ($1, $2, $3, $4, $5) RETURNING id", [
      t.companyId,
      contactId,
      o.whatsappId ?? null,
      o.status ?? "closed",
      t.admin.id,
    ])
  ).id;
}

/**
 * `n` messages on a ticket in one set-based INSERT: ids reserved from the identity's sequence so that
 * every tenth message quotes the one before it in the same statement; every other one is the agent's;
 * `media` keys go on the first messages (an image each). The ticket's last message is the newest.
 */
async function messages(ticketId: number, contactId: number, n: number, o: { whatsappId?: number | null; media?: string[] } = {}): Promise<void> {
  const media = o.media ?? [];
  await app.sql.exec(
    `WITH r AS (SELECT nextval(pg_get_serial_sequence('messages', 'id')) AS base),
          reserved AS (SELECT base, setval(pg_get_serial_sequence('messages', 'id'), base + $4) FROM r)
     INSERT INTO messages (id, company_id, ticket_id, contact_id, whatsapp_id, body, from_me, user_id, quoted_msg_id, media_type, media_path, media_name,
                           created_at)
     SELECT base + g, $1, $2, $3, $5, 'Mensagem número ' || g || ' sobre o pedido', g % 2 = 0, CASE WHEN g % 2 = 0 THEN $6::int END,
            CASE WHEN g % 10 = 0 THEN base + g - 1 END,
            CASE WHEN g <= cardinality($7::text[]) THEN 'image' ELSE 'chat' END, ($7::text[])[g], CASE WHEN g <= cardinality($7::text[]) THEN 'foto.jpg' END,
            now() - interval '1 day' + g * interval '1 second'
       FROM reserved, generate_series(1, $4::int) AS g`,
    [t.companyId, ticketId, contactId, n, o.whatsappId ?? null, t.admin.id, media],
  );
  await app.sql.exec(
    "UPDATE tickets SET last_message_id = (SELECT max(id) FROM messages WHERE company_id = $1 AND ticket_id = $2) WHERE company_id = $1 AND id = $2",
    [t.companyId, ticketId],
  );
}

const count = async (where: string, params: unknown[]) => (await one<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE ${where}`, params)).n;

async function timed<T>(what: string, run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  const ms = Math.round(performance.now() - started);
  console.log(`${what}: ${ms} ms`);
  return { ms, value };
}

describe("deletes and erasures at size", () => {
  let otherTicket: number;

  beforeAll(async () => {
    // the company's other conversations: 50,000 messages a scan per deleted row would walk each time
    const other = await contact("Outra Pessoa", "5511955550000");
    otherTicket = await ticket(other);
    await messages(otherTicket, other, 50_000);
    await app.sql.exec("ANALYZE messages; ANALYZE tickets");
  }, 120_000);

  it("erases a contact with 10,000 messages (some quoting others, 100 with media) through POST /contacts/:id/erase in seconds", async () => {
    const person = await contact("Quitéria Bernardes", "5511977731234");
    const storage = mediaStorage(dataDir);
    const media: string[] = [];
    for (let i = 0; i < 100; i++) media.push(await storage.put(t.companyId, Buffer.from(`imagem ${i}`), { fileName: "foto.jpg", mimetype: "image/jpeg" }));
    // four closed conversations and an open one, 2,000 messages each
    for (let i = 0; i < 5; i++) {
      const id = await ticket(person, { status: i === 4 ? "open" : "closed" });
      await messages(id, person, 2_000, { media: i === 0 ? media : [] });
      await app.sql.exec("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, 'Nota')", [t.companyId, id, person, t.admin.id]);
    }
    expect(await count("company_id = $1 AND contact_id = $2", [t.companyId, person])).toBe(10_000);

    const { ms, value: res } = await timed("erase of a contact with 10,000 messages", () =>
      app.api("POST", `/api/contacts/${person}/erase`, { token: t.admin.token }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ contactId: person, messages: 10_000, mediaFiles: 100, tickets: 5, notes: 5 });
    expect(await count("company_id = $1 AND contact_id = $2 AND (body <> '' OR media_path IS NOT NULL OR erased_at IS NULL)", [t.companyId, person])).toBe(0);
    await expect(access(path.join(dataDir, "media", media[0]!))).rejects.toThrow(/ENOENT/);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("deletes a ticket with 2,000 messages through DELETE /tickets/:id in seconds, and nothing quotes a deleted message", async () => {
    const person = await contact("Bruna Dias", "5511977732000");
    const id = await ticket(person);
    await messages(id, person, 2_000);
    // a message of another conversation quoting one of this ticket's: it stays, its quote is cleared
    const quoted = await one<{ id: string }>("SELECT min(id)::text AS id FROM messages WHERE company_id = $1 AND ticket_id = $2", [t.companyId, id]);
    await app.sql.exec("UPDATE messages SET quoted_msg_id = $3 WHERE company_id = $1 AND id = (SELECT max(id) FROM messages WHERE company_id = $1 AND ticket_id = $2)", [
      t.companyId,
      otherTicket,
      quoted.id,
    ]);

    const { ms, value: res } = await timed("delete of a ticket with 2,000 messages", () => app.api("DELETE", `/api/tickets/${id}`, { token: t.admin.token }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await count("company_id = $1 AND ticket_id = $2", [t.companyId, id])).toBe(0);
    expect(await count("company_id = $1 AND quoted_msg_id = $2", [t.companyId, quoted.id])).toBe(0);
    expect(await count("company_id = $1 AND ticket_id = $2", [t.companyId, otherTicket])).toBe(50_000);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("deletes a contact with two tickets of 1,000 messages each through DELETE /contacts/:id in seconds", async () => {
    const person = await contact("Carlos Lima", "5511977733000");
    for (const status of ["closed", "open"]) await messages(await ticket(person, { status }), person, 1_000);

    const { ms, value: res } = await timed("delete of a contact with 2,000 messages", () => app.api("DELETE", `/api/contacts/${person}`, { token: t.admin.token }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await count("company_id = $1 AND contact_id = $2", [t.companyId, person])).toBe(0);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("deletes a connection whose 2,000 messages and ticket keep their rows (the connection cleared) through DELETE /whatsapp/:id in seconds", async () => {
    const whatsappId = (await one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Loja Centro') RETURNING id", [t.companyId])).id;
    const person = await contact("Dora Reis", "5511977734000");
    const id = await ticket(person, { whatsappId });
    await messages(id, person, 2_000, { whatsappId });

    const { ms, value: res } = await timed("delete of a connection with 2,000 messages", () => app.api("DELETE", `/api/whatsapp/${whatsappId}`, { token: t.admin.token }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await count("company_id = $1 AND ticket_id = $2 AND whatsapp_id IS NULL", [t.companyId, id])).toBe(2_000);
    expect(ms).toBeLessThan(LIMIT_MS);
  });
});
