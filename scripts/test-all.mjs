// `npm test`: every suite (shared, server and web unit/API tests with Vitest; browser tests with
// Playwright), then one closing line "N passed, N failed" summing them all.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, ".tmp/test-reports");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
/** Each suite's wall time, printed before the closing line. */
const suiteTimes = [];
const timed = (name, run) => {
  const started = Date.now();
  const result = run();
  suiteTimes.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
  return result;
};

function vitest(name, dir, env = {}) {
  if (only.length && !only.includes(name) && !only.includes(name.split("-")[0])) return;
  const report = path.join(out, `${name}.json`);
  console.log(`\n=== ${name} (vitest) ===`);
  const r = timed(name, () =>
    spawnSync(path.join(root, "node_modules/.bin/vitest"), ["run", "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
      cwd: path.join(root, dir),
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "test", ...env },
    }),
  );
  if (!existsSync(report)) {
    console.error(`${name}: no report (exit ${r.status})`);
    broken = true;
    return;
  }
  const j = JSON.parse(readFileSync(report, "utf8"));
  passed += j.numPassedTests;
  // a file whose hooks failed reports its tests as skipped, not failed: it counts as one failure
  const failedFilesWithoutFailedTests = (j.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  failed += j.numFailedTests + failedFilesWithoutFailedTests;
  skipped += j.numPendingTests + (j.numTodoTests ?? 0);
  if ((r.status !== 0 || !j.success) && j.numFailedTests + failedFilesWithoutFailedTests === 0) {
    // every test passed yet the run failed: an unhandled error outside the tests (printed above by Vitest)
    console.error(`${name}: exit ${r.status}, success ${j.success}, with no failed test: counted as one failure`);
    broken = true;
  }
}

function playwright() {
  if (only.length && !only.includes("e2e")) return;
  console.log("\n=== e2e (playwright) ===");
  const report = path.join(out, "e2e.json");
  const r = timed("e2e", () =>
    spawnSync(path.join(root, "node_modules/.bin/playwright"), ["test", "-c", "e2e/playwright.config.ts"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    }),
  );
  if (!existsSync(report)) {
    console.error(`e2e: no report (exit ${r.status})`);
    broken = true;
    return;
  }
  const j = JSON.parse(readFileSync(report, "utf8"));
  const s = j.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  if (r.status !== 0 && !s.unexpected) {
    // a worker or global setup/teardown error, printed above by Playwright
    const errors = (j.errors ?? []).map((e) => e.message ?? String(e)).join("; ");
    console.error(`e2e: exit ${r.status} with no failed test${errors ? ` (${errors})` : ""}: counted as one failure`);
    broken = true;
  }
}

vitest("shared", "packages/shared");
vitest("server", "apps/server");
// the tests about time (rates, per-minute limits), one file at a time with nothing else running
vitest("server-timing", "apps/server", { TIMING_TESTS: "1" });
vitest("web", "apps/web");
if (existsSync(path.join(root, "e2e/playwright.config.ts"))) playwright();

if (broken) failed += 1;
if (suiteTimes.length) console.log(`\n== suites: ${suiteTimes.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
