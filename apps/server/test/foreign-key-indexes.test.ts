import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dropTestDatabase } from "./helper.js";

/**
 * Every foreign key of the migrated schema has an index PostgreSQL can use to find the rows that point
 * at a parent (migration 0816 says why: without one, each deleted or cleared parent row scans the child
 * table). Supporting: a valid btree index whose leading columns are the key's columns in any order; or,
 * for a key (company_id, x_id), x_id alone leading (a parent's id is unique across companies); a
 * partial index only when its predicate is `x_id IS NOT NULL`, which the lookup `x_id = $2` implies.
 * A new foreign key without such an index fails here, naming it.
 */
const UNSUPPORTED = `
  WITH fk AS (
    SELECT c.conname, c.conrelid, c.conkey,
           CASE WHEN cardinality(c.conkey) > 1
                THEN array(SELECT k FROM unnest(c.conkey) AS k
                            WHERE k <> (SELECT attnum FROM pg_attribute WHERE attrelid = c.conrelid AND attname = 'company_id')) END AS idkey
      FROM pg_constraint c
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
  )
  SELECT fk.conrelid::regclass::text || '.' || fk.conname || ' (' ||
         (SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(fk.conkey) WITH ORDINALITY AS k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = fk.conrelid AND a.attnum = k.attnum) || ')' AS key
    FROM fk
   WHERE NOT EXISTS (
     SELECT 1 FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_am am ON am.oid = ic.relam
      WHERE i.indrelid = fk.conrelid AND i.indisvalid AND am.amname = 'btree'
        AND (   ((i.indkey::int2[])[0:cardinality(fk.conkey) - 1] @> fk.conkey AND (i.indkey::int2[])[0:cardinality(fk.conkey) - 1] <@ fk.conkey)
             OR ((i.indkey::int2[])[0:cardinality(fk.idkey) - 1] @> fk.idkey AND (i.indkey::int2[])[0:cardinality(fk.idkey) - 1] <@ fk.idkey))
        AND (i.indpred IS NULL OR EXISTS (
               SELECT 1 FROM unnest(fk.conkey) AS k JOIN pg_attribute a ON a.attrelid = fk.conrelid AND a.attnum = k
                WHERE pg_get_expr(i.indpred, i.indrelid) = '(' || quote_ident(a.attname) || ' IS NOT NULL)')))
   ORDER BY 1`;

let url: string;
let client: pg.Client;

beforeAll(async () => {
  url = await createTestDatabase();
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  if (url) await dropTestDatabase(url);
});

describe("foreign keys and their indexes", () => {
  it("the schema has foreign keys to check (the query reads the right catalog)", async () => {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace");
    expect(rows[0]!.n).toBeGreaterThan(100);
  });

  it("every foreign key has an index that finds the rows pointing at a parent", async () => {
    const { rows } = await client.query<{ key: string }>(UNSUPPORTED);
    expect(rows.map((r) => r.key)).toEqual([]);
  });

  it("a key without an index is caught, one with only a partial index on something else too", async () => {
    const probe = async () => (await client.query<{ key: string }>(UNSUPPORTED)).rows.map((r) => r.key).filter((k) => k.startsWith("fk_probe."));
    await client.query("BEGIN");
    try {
      await client.query("CREATE TABLE fk_probe (company_id integer NOT NULL, id integer, ticket_id integer, note text)");
      await client.query("ALTER TABLE fk_probe ADD CONSTRAINT fk_probe_ticket FOREIGN KEY (company_id, ticket_id) REFERENCES tickets (company_id, id) ON DELETE CASCADE");
      await client.query("CREATE INDEX fk_probe_company ON fk_probe (company_id, id)");
      await client.query("CREATE INDEX fk_probe_partial ON fk_probe (company_id, ticket_id) WHERE note IS NOT NULL");
      expect(await probe()).toEqual(["fk_probe.fk_probe_ticket (company_id, ticket_id)"]);
      await client.query("CREATE INDEX fk_probe_ticket_only ON fk_probe (ticket_id) WHERE ticket_id IS NOT NULL");
      expect(await probe()).toEqual([]);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
