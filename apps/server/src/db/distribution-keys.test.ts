import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The Citus distribution plan (docs/deployment.md, "Scaling out: the Citus distribution plan"), checked
 * against the migrated schema: every tenant table is distributed by company_id, so each of its primary
 * keys, unique constraints and unique indexes must lead with company_id (Citus only enforces uniqueness
 * that includes the distribution column; leading with it also keeps one company's rows together in
 * every index), its foreign keys to other tenant tables must carry company_id too, and company_id is
 * never NULL. When this test was written 56 of 72 tenant tables did not hold; migrations 0795 to 0798
 * brought them all in, and a new table, key or index that breaks the rule fails here.
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
  job_runs: "local to the coordinator: the running jobs' heartbeats, beside the job queue's pgboss schema",
};

/** Tables with a company_id column that are not distributed by it, each with its reason. */
const REFERENCE_TABLES_WITH_COMPANY: Record<string, string> = {
  global_keys: "reference table: values unique platform-wide (sign-in e-mail, tokens, Pix txid, short-link codes) → their company, kept by triggers (migration 0798)",
};

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

async function tables(): Promise<{ name: string; hasCompany: boolean; nullableCompany: boolean }[]> {
  const { rows } = await db.query<{ name: string; has_company: boolean; nullable: boolean }>(`
    SELECT c.relname AS name, a.attname IS NOT NULL AS has_company, coalesce(NOT a.attnotnull, false) AS nullable
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     ORDER BY 1`);
  return rows.map((r) => ({ name: r.name, hasCompany: r.has_company, nullableCompany: r.nullable }));
}

const tenantTables = async () => (await tables()).filter((t) => t.hasCompany && !(t.name in REFERENCE_TABLES_WITH_COMPANY));
const references = Object.keys(REFERENCE_TABLES_WITH_COMPANY);

describe("Citus distribution plan: keys lead with company_id", () => {
  it("classifies every table without company_id, and the reference tables that have one", async () => {
    const all = await tables();
    expect(all.filter((t) => !t.hasCompany).map((t) => t.name).sort()).toEqual(Object.keys(NON_TENANT_TABLES).sort());
    for (const name of references) expect(all.find((t) => t.name === name)?.hasCompany, name).toBe(true);
  });

  it("has at least the tenant tables the plan distributes (the catalog query finds them)", async () => {
    const tenant = (await tenantTables()).map((t) => t.name);
    // a sanity floor, so a broken catalog query cannot pass with an empty list
    expect(tenant.length).toBeGreaterThanOrEqual(72);
    for (const t of ["tickets", "messages", "contacts", "settings", "campaign_recipients", "ticket_rollup", "users"]) expect(tenant).toContain(t);
  });

  it("every primary key, unique constraint and unique index of a tenant table leads with company_id", async () => {
    const { rows } = await db.query<{ table: string; item: string }>(
      `SELECT c.relname AS table, ic.relname AS item
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_class ic ON ic.oid = i.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND i.indisunique AND c.relname <> ALL($1::text[])
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
          AND (i.indkey[0] = 0 OR (SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attnum = i.indkey[0]) <> 'company_id')
        ORDER BY 1, 2`,
      [references],
    );
    expect(rows.map((r) => `${r.table}.${r.item}`), "unique keys of tenant tables must lead with company_id (docs/deployment.md)").toEqual([]);
  });

  it("every foreign key between tenant tables carries company_id first", async () => {
    const { rows } = await db.query<{ table: string; item: string }>(
      `SELECT c.relname AS table, r.relname AS item
         FROM pg_constraint k
         JOIN pg_class c ON c.oid = k.conrelid
         JOIN pg_class r ON r.oid = k.confrelid
        WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = r.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
          AND (SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attnum = k.conkey[1]) <> 'company_id'
        ORDER BY 1, 2`,
    );
    expect(rows.map((r) => `${r.table} → ${r.item}`), "foreign keys between tenant tables must be (company_id, ...) → (company_id, id)").toEqual([]);
  });

  it("a reference table has no foreign key to a tenant table (Citus refuses them)", async () => {
    const { rows } = await db.query<{ item: string }>(
      "SELECT conname AS item FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1::text[])",
      [references],
    );
    expect(rows).toEqual([]);
  });

  it("company_id is NOT NULL in every tenant table", async () => {
    expect((await tenantTables()).filter((t) => t.nullableCompany).map((t) => t.name)).toEqual([]);
  });
});
