import type { Config } from "../config.js";
import type { StartupLog } from "./embedded-leftover.js";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded.js";

export interface DatabaseHandle {
  url: string;
  embedded?: EmbeddedDatabase;
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: Config, log: StartupLog): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres(config.dataDir, { log });
  await ensureDatabase(embedded.serverUrl("postgres"), "atende");
  return { url: embedded.serverUrl("atende"), embedded };
}
