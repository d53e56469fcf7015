import { buildApp } from "./app.js";
import { assertDatabaseChoice, ConfigError, loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import { seedFirstStart } from "./db/seed.js";
import { createPool, Sql } from "./db/sql.js";

async function main() {
  let config;
  try {
    config = loadConfig();
    assertDatabaseChoice(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Refusing to start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const db = await openDatabase(config);
  const pool = createPool(db.url, 20);
  const applied = await migrate(pool);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  if (await seedFirstStart(new Sql(pool), config)) {
    console.log(`Created the platform company and super administrator ${config.adminEmail}`);
  }
  const built = await buildApp(config, pool, db.url);
  await built.start();
  await built.app.listen({ port: config.port, host: config.host });
  console.log(`Atende listening on http://${config.host}:${config.port}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await built.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await db.embedded?.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
