import { rm } from "node:fs/promises";
import type { TestProject } from "vitest/node";
import { migrate } from "../src/db/migrate.js";
import { ensureDatabase, startEmbeddedPostgres, tmpDataDir, type EmbeddedDatabase } from "../src/db/embedded.js";
import { createPool } from "../src/db/sql.js";
import pg from "pg";

/** Teardown is best effort: what it could not clean is reported, never fatal. */
const teardownFailed = (what: string) => (err: unknown) => console.warn(`test teardown: could not ${what}`, err);

/**
 * One PostgreSQL for the run: TEST_DATABASE_SERVER_URL (a server URL whose user may create databases)
 * when set, otherwise a throw-away embedded server. A migrated template database is made once; each
 * test file clones it into a fresh database of its own.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let serverUrl: (db: string) => string;
  const external = process.env.TEST_DATABASE_SERVER_URL;
  if (external) {
    serverUrl = (db) => {
      const u = new URL(external);
      u.pathname = `/${db}`;
      return u.toString();
    };
  } else {
    dataDir = tmpDataDir("test");
    embedded = await startEmbeddedPostgres(dataDir, { persistent: false });
    serverUrl = embedded.serverUrl;
  }
  const template = `atende_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl("postgres") });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.end();
  await ensureDatabase(serverUrl("postgres"), template);
  const pool = createPool(serverUrl(template), 2);
  await migrate(pool);
  await pool.end();
  project.provide("dbServerUrl", serverUrl("postgres"));
  project.provide("dbTemplate", template);

  return async () => {
    if (external) {
      const c = new pg.Client({ connectionString: serverUrl("postgres") });
      await c.connect();
      const dbs = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`atende_t_${process.pid}_%`]);
      // teardown is best effort: a database left behind is litter on a test server, not a wrong result
      for (const { datname } of dbs.rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(teardownFailed(`drop ${datname}`));
      await c.query(`DROP DATABASE IF EXISTS ${template}`).catch(teardownFailed(`drop ${template}`));
      await c.end();
    }
    await embedded?.stop().catch(teardownFailed("stop the embedded PostgreSQL"));
    if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(teardownFailed(`remove ${dataDir}`));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dbServerUrl: string;
    dbTemplate: string;
  }
}
