// The slowest test files of the last `npm test`, read from its reports in .tmp/test-reports (Vitest's
// and Playwright's JSON): where CI's time goes. `node scripts/test-times.mjs [count]` (default 8).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, ".tmp/test-reports");
const count = Number(process.argv[2] ?? 8);

/** Vitest: one entry per file, from its start and end times. */
function vitestFiles(report) {
  return (report.testResults ?? []).map((f) => ({ file: path.relative(root, f.name), ms: (f.endTime ?? 0) - (f.startTime ?? 0) }));
}

/** Playwright: the time of every attempt of every test, summed per file. */
function playwrightFiles(report) {
  const perFile = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + ms);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return [...perFile].map(([file, ms]) => ({ file: path.join("e2e", file), ms }));
}

if (!existsSync(dir)) {
  console.log("test times: no reports (run npm test first)");
  process.exit(0);
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
for (const name of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const report = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
  const files = (name === "e2e.json" ? playwrightFiles(report) : vitestFiles(report)).sort((a, b) => b.ms - a.ms);
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  console.log(`== ${name.replace(/\.json$/, "")}: ${files.length} files, ${seconds(total)} summed over files; slowest:`);
  for (const f of files.slice(0, count)) console.log(`   ${seconds(f.ms).padStart(8)}  ${f.file}`);
}
