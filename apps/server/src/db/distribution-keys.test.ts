import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The Citus distribution plan (docs/deployment.md, "Scaling out: the Citus distribution plan"), checked
 * against the migrated schema: every tenant table is distributed by company_id, so each of its primary
 * keys, unique constraints and unique indexes must lead with company_id (Citus only enforces uniqueness
 * that includes the distribution column; leading with it also keeps one company's rows together in
 * every index), and its foreign keys to other tenant tables must carry company_id too.
 *
 * When this test was written 56 of 72 tenant tables did not hold; migrations 0795 (foreign keys), 0796
 * (primary and composite keys) and 0797 (platform rows) fixed all but the globally unique lookups. What is left is listed
 * below, index by index, so that:
 * - a new table or index that breaks the rule fails here (no new violations);
 * - a violation that is fixed fails here too, until its entry is deleted (the list only shrinks).
 */

/** Tables without company_id, each with its role under Citus. A new one must be added here, with its reason. */
const NON_TENANT_TABLES: Record<string, string> = {
  companies: "distributed by its id (the colocation root: company_id of every tenant table is companies.id)",
  plans: "reference table: a few rows every company joins to",
  helps: "reference table: the platform's help videos, the same for every company",
  schema_migrations: "local to the coordinator: the migration runner's bookkeeping",
  email_dispatch_lease: "local to the coordinator: one platform-wide sending lease row",
  sms_dispatch_lease: "local to the coordinator: one platform-wide sending lease row",
  pix_webhook_secret: "local to the coordinator: one platform secret row",
  pix_sandbox_charges: "local to the coordinator: the built-in sandbox PSP's own state (not a tenant's data)",
};

/**
 * Unique indexes of tenant tables that do not lead with company_id today, by table: globally unique
 * lookup values (e-mail, API token hash, Pix txid, short-link code, public uuid, provider ids). Each
 * stays global through a small lookup table (value → company_id) kept as a reference table, or becomes
 * unique per company where the product allows it.
 */
const KNOWN_KEY_VIOLATIONS: Record<string, string[]> = {
  chats: ["chats_uuid_key"],
  pix_charges: ["pix_charges_txid_key"],
  refresh_tokens: ["refresh_tokens_token_hash_key"],
  sms_campaign_recipients: ["sms_recipients_provider"],
  sms_sandbox_messages: ["sms_sandbox_messages_sid_key"],
  sms_short_links: ["sms_short_links_pkey"],
  tickets: ["tickets_uuid_key"],
  users: ["users_email_key"],
  whatsapps: ["whatsapps_token_hash_key", "whatsapps_token_key"],
};

/** Foreign keys between tenant tables that do not carry company_id (Citus refuses them between distributed tables): none since migration 0795. */
const KNOWN_FK_VIOLATIONS: Record<string, string[]> = {};

/** Tenant tables whose company_id may be NULL; Citus cannot place a NULL distribution value: none since migration 0797 (platform rows belong to the platform company). */
const KNOWN_NULLABLE_COMPANY: string[] = [];

let admin: pg.Client;
let db: pg.Client;
let name: string;

beforeAll(async () => {
  // a clone of the migrated template (connecting to the template itself would block other files' clones)
  const serverUrl = inject("dbServerUrl");
  name = `atende_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject("dbTemplate")}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  db = new pg.Client({ connectionString: u.toString() });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
});

async function tables(): Promise<{ name: string; tenant: boolean; nullableCompany: boolean }[]> {
  const { rows } = await db.query<{ name: string; tenant: boolean; nullable: boolean }>(`
    SELECT c.relname AS name, a.attname IS NOT NULL AS tenant, coalesce(NOT a.attnotnull, false) AS nullable
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     ORDER BY 1`);
  return rows.map((r) => ({ name: r.name, tenant: r.tenant, nullableCompany: r.nullable }));
}

/** Sorted and grouped by table: the form the lists above are written in. */
function grouped(pairs: { table: string; item: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { table, item } of pairs) (out[table] ??= []).push(item);
  for (const items of Object.values(out)) items.sort();
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

describe("Citus distribution plan: keys lead with company_id", () => {
  it("classifies every table without company_id", async () => {
    const nonTenant = (await tables()).filter((t) => !t.tenant).map((t) => t.name);
    expect(nonTenant.sort()).toEqual(Object.keys(NON_TENANT_TABLES).sort());
  });

  it("has at least the tenant tables the plan distributes (the catalog query finds them)", async () => {
    const tenant = (await tables()).filter((t) => t.tenant).map((t) => t.name);
    // a sanity floor, so a broken catalog query cannot pass with an empty list
    expect(tenant.length).toBeGreaterThanOrEqual(72);
    for (const t of ["tickets", "messages", "contacts", "settings", "campaign_recipients", "ticket_rollup"]) expect(tenant).toContain(t);
  });

  it("every primary key, unique constraint and unique index of a tenant table leads with company_id, or is a listed violation", async () => {
    const { rows } = await db.query<{ table: string; item: string }>(`
      SELECT c.relname AS table, ic.relname AS item
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_class ic ON ic.oid = i.indexrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND i.indisunique
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
         AND (i.indkey[0] = 0 OR (SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attnum = i.indkey[0]) <> 'company_id')`);
    const found = grouped(rows);
    // new violations: keys that must lead with company_id (see the comment on KNOWN_KEY_VIOLATIONS)
    const added = rows.filter((r) => !KNOWN_KEY_VIOLATIONS[r.table]?.includes(r.item)).map((r) => `${r.table}.${r.item}`);
    expect(added, "unique keys of tenant tables must lead with company_id (docs/deployment.md)").toEqual([]);
    // fixed violations: delete them from KNOWN_KEY_VIOLATIONS
    expect(found).toEqual(KNOWN_KEY_VIOLATIONS);
  });

  it("every foreign key between tenant tables carries company_id first, or is a listed violation", async () => {
    const { rows } = await db.query<{ table: string; item: string }>(`
      SELECT c.relname AS table, r.relname AS item
        FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_class r ON r.oid = k.confrelid
       WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = r.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
         AND (SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attnum = k.conkey[1]) <> 'company_id'`);
    const added = rows.filter((r) => !KNOWN_FK_VIOLATIONS[r.table]?.includes(r.item)).map((r) => `${r.table} → ${r.item}`);
    expect(added, "foreign keys between tenant tables must be (company_id, ...) → (company_id, id)").toEqual([]);
    expect(grouped(rows)).toEqual(KNOWN_FK_VIOLATIONS);
  });

  it("company_id is NOT NULL in every tenant table, or is a listed exception", async () => {
    const nullable = (await tables()).filter((t) => t.tenant && t.nullableCompany).map((t) => t.name);
    expect(nullable.sort()).toEqual(KNOWN_NULLABLE_COMPANY);
  });
});
