import { ensureDatabase, startEmbeddedPostgres, tmpDataDir } from "../apps/server/src/db/embedded.js";

/**
 * The benchmarks' database: BENCH_DATABASE_URL (an empty database of your own), else a throw-away
 * embedded PostgreSQL under the temp folder. `stop` ends the embedded one (nothing for your own).
 */
export async function benchDatabase(name: string, dataDir = tmpDataDir(name)): Promise<{ url: string; stop: () => Promise<void> }> {
  const own = process.env.BENCH_DATABASE_URL;
  if (own) return { url: own, stop: async () => undefined };
  const embedded = await startEmbeddedPostgres(dataDir, { persistent: false });
  await ensureDatabase(embedded.serverUrl("postgres"), "bench");
  return { url: embedded.serverUrl("bench"), stop: () => embedded.stop() };
}
