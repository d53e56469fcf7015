import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildCompany } from "../../test/factories.js";
import { MIGRATIONS_DIR, migrate } from "./migrate.js";
import { createPool, Sql } from "./sql.js";

/**
 * Migrations 0796 (keys lead with company_id), 0797 (platform rows) and 0798 (global lookups) on a
 * database that holds rows written before them: the rows keep their links, the foreign keys come back
 * and still hold, the rows without a company become the platform company's, and the values unique
 * platform-wide are taken in global_keys.
 */

const created: { name: string; pool: pg.Pool }[] = [];
const admin = new pg.Client({ connectionString: inject("dbServerUrl") });
let adminReady: Promise<unknown> | undefined;

/** An empty database migrated up to (not including) `before`. */
async function databaseBefore(before: string): Promise<{ sql: Sql; pool: pg.Pool }> {
  adminReady ??= admin.connect();
  await adminReady;
  const name = `atende_t_mig_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(inject("dbServerUrl"));
  u.pathname = `/${name}`;
  const pool = createPool(u.toString(), 2);
  created.push({ name, pool });
  const dir = await mkdtemp(path.join(tmpdir(), "atende-migrations-"));
  for (const f of await readdir(MIGRATIONS_DIR)) if (f < before) await symlink(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  await migrate(pool, dir);
  await rm(dir, { recursive: true });
  return { sql: new Sql(pool), pool };
}

afterAll(async () => {
  for (const { name, pool } of created) {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  if (adminReady) await admin.end();
});

const code = (err: unknown) => (err as { code?: string }).code;

describe("migrations 0796 to 0798 on existing rows", () => {
  it("keys lead with company_id, links and foreign keys hold, the lease and the platform rows get their company", async () => {
    const { sql, pool } = await databaseBefore("0796");
    const platform = await buildCompany(sql, { name: "Plataforma" });
    await sql.exec("UPDATE companies SET is_platform = true WHERE id = $1", [platform]);
    const a = await buildCompany(sql);
    const b = await buildCompany(sql);
    const one = <T>(text: string, params: unknown[]) => sql.one<T>(text, params);
    const wa = (await one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'A') RETURNING id", [a])).id;
    const waB = (await one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'B') RETURNING id", [b])).id;
    const contact = (await one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Ana', '5511900000001') RETURNING id", [a])).id;
    const contactB = (await one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Bia', '5511900000002') RETURNING id", [b])).id;
    const ticket = (await one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, whatsapp_id, status) VALUES ($1, $2, $3, 'open') RETURNING id", [a, contact, wa])).id;
    const ticketB = (await one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, whatsapp_id, status) VALUES ($1, $2, $3, 'open') RETURNING id", [b, contactB, waB])).id;
    const first = (await one<{ id: number }>("INSERT INTO messages (company_id, ticket_id, contact_id, body) VALUES ($1, $2, $3, 'oi') RETURNING id", [a, ticket, contact])).id;
    const reply = (
      await one<{ id: number }>("INSERT INTO messages (company_id, ticket_id, contact_id, body, quoted_msg_id) VALUES ($1, $2, $3, 'olá', $4) RETURNING id", [a, ticket, contact, first])
    ).id;
    await sql.exec("UPDATE tickets SET last_message_id = $2 WHERE id = $1", [ticket, reply]);
    const tag = (await one<{ id: number }>("INSERT INTO tags (company_id, name) VALUES ($1, 'Vip') RETURNING id", [a])).id;
    await sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [a, ticket, tag]);
    await sql.exec("INSERT INTO connection_owners (whatsapp_id, owner_id) VALUES ($1, 'host:1:abc')", [wa]);
    await sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Ana', 'Ana@Antes.test', 'x')", [a]);
    await sql.exec("UPDATE whatsapps SET token = 'tok-antes' WHERE id = $1", [waB]);
    await sql.exec("INSERT INTO audit_log (company_id, action, target_label) VALUES (NULL, 'login.failed', 'ninguem@fora.test')", []);
    await sql.exec("INSERT INTO email_sandbox_messages (company_id, from_address, to_address, subject) VALUES (NULL, 'p@x.test', 'u@x.test', 'Código')", []);

    expect(await migrate(pool)).toEqual(expect.arrayContaining(["0796_tenant_primary_keys.sql", "0797_platform_rows.sql", "0798_global_lookups.sql"]));

    const keyOf = async (constraint: string) =>
      (await one<{ def: string }>("SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1", [constraint])).def;
    expect(await keyOf("tickets_pkey")).toBe("PRIMARY KEY (company_id, id)");
    expect(await keyOf("ticket_tags_pkey")).toBe("PRIMARY KEY (company_id, ticket_id, tag_id)");
    expect(await keyOf("connection_owners_pkey")).toBe("PRIMARY KEY (company_id, whatsapp_id)");
    expect(await keyOf("audit_log_pkey")).toBe("PRIMARY KEY (company_id, id)");
    // the rows and their links are as they were
    expect(await one("SELECT last_message_id FROM tickets WHERE id = $1", [ticket])).toEqual({ last_message_id: reply });
    expect(await one("SELECT quoted_msg_id FROM messages WHERE id = $1", [reply])).toEqual({ quoted_msg_id: first });
    expect(await one("SELECT company_id, owner_id FROM connection_owners WHERE whatsapp_id = $1", [wa])).toEqual({ company_id: a, owner_id: "host:1:abc" });
    expect(await one("SELECT company_id FROM audit_log WHERE target_label = 'ninguem@fora.test'", [])).toEqual({ company_id: platform });
    expect(await one("SELECT company_id FROM email_sandbox_messages WHERE to_address = 'u@x.test'", [])).toEqual({ company_id: platform });
    // 0798: the values written before it are taken platform-wide
    expect(await sql.many("SELECT kind, value, company_id FROM global_keys ORDER BY kind", [])).toEqual([
      { kind: "connection_token", value: "tok-antes", company_id: b },
      { kind: "user_email", value: "ana@antes.test", company_id: a },
    ]);
    await expect(sql.exec("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Outra', 'ANA@antes.test', 'x')", [b])).rejects.toSatisfy(
      (e) => code(e) === "23505",
    );

    // the foreign keys came back: another company's row cannot be linked, a deleted parent still cascades
    await expect(
      sql.exec("INSERT INTO messages (company_id, ticket_id, contact_id, body, quoted_msg_id) VALUES ($1, $2, $3, 'x', $4)", [b, ticketB, contactB, first]),
    ).rejects.toSatisfy((e) => code(e) === "23503");
    await expect(sql.exec("UPDATE tickets SET last_message_id = $2 WHERE id = $1", [ticketB, reply])).rejects.toSatisfy((e) => code(e) === "23503");
    await expect(sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [b, ticketB, tag])).rejects.toSatisfy(
      (e) => code(e) === "23503",
    );
    await expect(sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [a, ticket, tag])).rejects.toSatisfy((e) => code(e) === "23505");
    await sql.exec("DELETE FROM messages WHERE id = $1", [first]);
    expect(await one("SELECT quoted_msg_id, company_id FROM messages WHERE id = $1", [reply])).toEqual({ quoted_msg_id: null, company_id: a });
    await sql.exec("DELETE FROM whatsapps WHERE id = $1", [wa]);
    expect(await one("SELECT count(*)::int AS n FROM connection_owners", [])).toEqual({ n: 0 });
    await expect(sql.exec("INSERT INTO audit_log (company_id, action) VALUES (NULL, 'login.failed')", [])).rejects.toSatisfy((e) => code(e) === "23502");
  });

  it("0797 stops with its reason when rows without a company have no platform company to go to", async () => {
    const { sql, pool } = await databaseBefore("0797");
    await sql.exec("INSERT INTO audit_log (company_id, action) VALUES (NULL, 'login.failed')", []);
    await expect(migrate(pool)).rejects.toThrow(/0797_platform_rows\.sql failed: rows without a company and no platform company/);
    expect(await sql.one("SELECT count(*)::int AS n FROM audit_log WHERE company_id IS NULL", [])).toEqual({ n: 1 });
  });
});
