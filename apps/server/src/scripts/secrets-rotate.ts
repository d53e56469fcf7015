import { pino } from "pino";
import { ConfigError, loadConfig } from "../config.js";
import { resealStoredSecrets } from "../core/secrets/reseal.js";
import { SecretSealer } from "../core/secrets/sealer.js";
import { openDatabase } from "../db/database.js";
import { createPool, Sql } from "../db/sql.js";

/**
 * `npm run secrets:rotate -w apps/server`: seals every stored credential under the first key of
 * SECRETS_KEYS (plaintext, v1 values and values under older keys), in batches, while the server keeps
 * running. With the embedded database (no DATABASE_URL) run it while the server is stopped, or leave
 * it to the nightly job secrets.reseal.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel === "silent" ? "info" : config.logLevel });
  const db = await openDatabase(config, log);
  const pool = createPool(db.url, 2, log);
  try {
    const sealer = new SecretSealer(config.secretsKeys, config.jwtSecret);
    const counts = await resealStoredSecrets(new Sql(pool), sealer, log, "rotate");
    console.log(`Secrets under key "${sealer.primaryKeyId}": ${counts.sealed} sealed from plaintext, ${counts.resealed} re-sealed, ${counts.unreadable} unreadable`);
    return counts.unreadable ? 2 : 0;
  } finally {
    await pool.end();
    await db.embedded?.stop();
  }
}

// an explicit exit: the embedded database's exit hook would otherwise end the process with 0
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? `Refusing to run: ${err.message}` : err);
    process.exit(1);
  },
);
