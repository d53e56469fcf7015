import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { freePort } from "../../apps/server/src/db/embedded.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processes whose command line names this data directory (the embedded PostgreSQL's postmaster). */
function processesUsing(dir: string): number[] {
  const r = spawnSync("pgrep", ["-f", dir], { encoding: "utf8" });
  return r.stdout.split(/\s+/).filter(Boolean).map(Number);
}

test.describe.configure({ mode: "serial" });

// What a newcomer does: `npm start` on the embedded database, the app in the browser, then Ctrl+C or
// a service manager's SIGTERM. The server must stop with its database, leaving nothing running.
test("npm start serves the app on the embedded database and stops cleanly on SIGTERM", async ({ page }) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atende-start-"));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", NODE_ENV: "development", LOG_LEVEL: "warn" };
  const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 150_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm start did not answer:\n${output}`);
      await sleep(500);
    }
    await page.goto(`${base}/login`);
    await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();

    child.kill("SIGTERM");
    const code = await Promise.race([exited, sleep(30_000).then(() => "timeout" as const)]);
    expect(code, output).not.toBe("timeout");
    // the embedded PostgreSQL stopped with it: nothing keeps the data directory open
    await expect.poll(() => processesUsing(dataDir).length, { timeout: 15_000 }).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
