import { defineConfig } from "vitest/config";

/**
 * Tests whose assertions are about time (exact sending rates, per-minute limits) live in
 * `*.timing.test.ts` and run in a second pass, one file at a time, after the other files
 * (`TIMING_TESTS=1`, `scripts/test-all.mjs`): beside the rest of the suite on two cores their figures
 * would measure the other tests' load, not the code.
 */
const timing = process.env.TIMING_TESTS === "1";

export default defineConfig({
  test: {
    include: timing ? ["src/**/*.timing.test.ts", "test/**/*.timing.test.ts"] : ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: timing ? [] : ["**/*.timing.test.ts", "**/node_modules/**"],
    globalSetup: ["./test/global-setup.ts"],
    pool: "forks",
    poolOptions: { forks: timing ? { maxForks: 1, minForks: 1 } : { maxForks: 2, minForks: 1 } },
    fileParallelism: !timing,
    testTimeout: timing ? 90_000 : 30_000,
    hookTimeout: 60_000,
  },
});
