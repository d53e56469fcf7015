// `npm start`: builds the web app and the server when their builds are missing or older than their
// sources, then starts one server process that serves the app and the API on PORT (default 8080).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServerBuild } from "./build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.join(root, "apps/web");
const built = path.join(web, "dist/index.html");

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sourcesTime = Math.max(newest(path.join(web, "src")), newest(path.join(root, "packages/shared/src")));
if (!existsSync(built) || statSync(built).mtimeMs < sourcesTime) {
  console.log("Building the web app...");
  const r = spawnSync("npm", ["run", "build", "-w", "apps/web"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// the server runs as plain JavaScript: one bundle, rebuilt when its sources changed (scripts/build-server.mjs)
const bundle = await ensureServerBuild();
const child = spawn(process.execPath, ["--enable-source-maps", bundle], { cwd: root, stdio: "inherit", env: process.env });
// Ctrl+C reaches the whole process group; a SIGTERM sent to `npm start` reaches only npm, which exits
// without passing it on. So a signal here is relayed to the server (which stops the embedded database
// before exiting), and so is the end of the parent that started this script.
let stopping = false;
function stop(sig) {
  if (stopping) return;
  stopping = true;
  child.kill(sig);
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => stop(sig));
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 500);
watch.unref();
child.on("exit", (code) => process.exit(code ?? 0));
