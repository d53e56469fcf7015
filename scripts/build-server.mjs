// The server for `npm start`, the browser tests and the benchmarks: one ES module bundle
// (apps/server/dist/main.js, with a source map) of the server and packages/shared, its npm
// dependencies left as imports. Plain `node` then runs it: no TypeScript compiler in the running
// process (tsx costs ~50 MiB of resident memory and a second process).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const server = path.join(root, "apps/server");
export const SERVER_BUNDLE = path.join(server, "dist/main.js");
/**
 * The worker threads' entries (core/worker-thread.ts starts each from the file beside the running
 * bundle): the campaign CSV analyses (WhatsApp, SMS, e-mail) and the contacts import.
 */
export const WORKER_BUNDLES = {
  "campaign-analysis-worker": "src/domains/campaigns/analysis-worker.ts",
  "sms-analysis-worker": "src/domains/sms-campaigns/analysis-worker.ts",
  "email-analysis-worker": "src/domains/email-campaigns/analysis-worker.ts",
  "contacts-import-worker": "src/domains/contacts-import/import-worker.ts",
};

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds the bundle when it is missing or older than the server's or the shared package's sources. */
export async function ensureServerBuild({ force = false } = {}) {
  const sources = Math.max(newest(path.join(server, "src")), newest(path.join(root, "packages/shared/src")), statSync(path.join(server, "package.json")).mtimeMs);
  const built = [SERVER_BUNDLE, ...Object.keys(WORKER_BUNDLES).map((name) => path.join(path.dirname(SERVER_BUNDLE), `${name}.js`))];
  if (!force && built.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources)) return SERVER_BUNDLE;
  await buildServer(SERVER_BUNDLE);
  return SERVER_BUNDLE;
}

/**
 * Builds the bundle at `outfile` (and `outfile.map`), and the worker threads' bundles beside it
 * (WORKER_BUNDLES: `campaign-analysis-worker.js`, ...). Run it with `node --enable-source-maps` so that a
 * stack trace names the TypeScript files and lines (`src/db/migrate.ts:36:15`), not the bundle's.
 * The bundle must stay under apps/server (its imports resolve from node_modules above it; it reads
 * ../package.json and ../migrations beside its folder).
 */
export async function buildServer(outfile) {
  const deps = Object.keys(JSON.parse(readFileSync(path.join(server, "package.json"), "utf8")).dependencies ?? {});
  await build({
    // each entry is a bundle of its own (no shared chunks): a worker loads only what it imports
    entryPoints: [
      { in: path.join(server, "src/main.ts"), out: path.basename(outfile, ".js") },
      ...Object.entries(WORKER_BUNDLES).map(([out, file]) => ({ in: path.join(server, file), out })),
    ],
    outdir: path.dirname(outfile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // npm packages stay imports (resolved from node_modules at run time); the shared package's
    // TypeScript sources are compiled into the bundle
    external: deps.filter((d) => d !== "@atende/shared").flatMap((d) => [d, `${d}/*`]),
    logLevel: "warning",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await ensureServerBuild({ force: true });
  console.log(`built ${path.relative(root, SERVER_BUNDLE)}`);
}
