import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseIsoTimestamptz } from "./timestamp-parser.js";

// pg's own parser, taken before sql.js (the last test) installs ours
const parseDate = pg.types.getTypeParser(1184) as (text: string) => Date;
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client(inject("dbServerUrl")); // the tests' PostgreSQL (test/global-setup.ts)
  await client.connect();
});
afterAll(() => client.end());

describe("timestamptz text from PostgreSQL", () => {
  it("reads every instant as pg's own parser does, in zones with whole, half-hour and historical offsets", async () => {
    let checked = 0;
    for (const zone of ["UTC", "America/Sao_Paulo", "Asia/Kolkata", "America/Noronha", "Australia/Eucla", "Africa/Monrovia"]) {
      await client.query(`SET TimeZone = '${zone}'`);
      // raw text: random instants from 1901 to 2099 with microseconds, plus whole seconds and the epoch
      const { rows } = await client.query<{ t: string }>({
        text: `SELECT (timestamptz '1901-01-01' + random() * interval '198 years')::text AS t FROM generate_series(1, 400)
               UNION ALL SELECT date_trunc('second', now())::text UNION ALL SELECT timestamptz 'epoch'::text
               UNION ALL SELECT '1908-04-30 23:59:59.999999+00'::timestamptz::text`,
      });
      for (const { t } of rows) {
        expect(parseIsoTimestamptz(t)?.getTime(), t).toBe(parseDate(t).getTime());
        checked++;
      }
    }
    expect(checked).toBe(6 * 403);
  });

  it("leaves other forms to the fallback", () => {
    for (const t of ["infinity", "-infinity", "0099-01-01 00:00:00+00", "2020-01-01 00:00:00+00 BC", "2020-01-01", "12020-01-01 00:00:00+00", "2020-01-01T00:00:00Z"]) {
      expect(parseIsoTimestamptz(t), t).toBeNull();
    }
  });

  it("is what pg hands the server", async () => {
    await client.query("SET TimeZone = 'America/Sao_Paulo'");
    await import("./sql.js"); // installs the parser
    const { rows } = await client.query<{ t: Date; inf: unknown }>("SELECT timestamptz '2026-11-26 06:20:11.0775-03' AS t, 'infinity'::timestamptz AS inf");
    expect(rows[0]!.t.toISOString()).toBe("2026-11-26T09:20:11.077Z");
    expect(rows[0]!.inf).toBe(Infinity);
  });
});
