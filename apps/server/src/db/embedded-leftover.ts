import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";

/** Where start-up notices go (the server passes its logger; scripts may pass console). */
export interface StartupLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** How long an earlier server on the same data directory gets to shut down (fast, then immediate). */
const FAST_SHUTDOWN_MS = 30_000;
const IMMEDIATE_SHUTDOWN_MS = 10_000;

/** A failure to start the embedded database, with the words an operator needs to act on it. */
export class EmbeddedStartError extends Error {}

/** Linux's view of a process: gone, running, or alive under another user (EPERM). */
function processState(pid: number): "running" | "gone" | "no-permission" {
  try {
    process.kill(pid, 0);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return "gone";
    if (code === "EPERM") return "no-permission";
    throw err;
  }
  return "running";
}

/** A /proc file of `pid`, or null when the process has ended (or /proc hides it) meanwhile. */
async function readProc(pid: number, file: "stat" | "status" | "cmdline"): Promise<string | null> {
  try {
    return await readFile(`/proc/${pid}/${file}`, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH" || code === "EACCES") return null;
    throw err;
  }
}

/** A zombie has exited but was not reaped yet (a container's pid 1 may never reap it). */
async function isZombie(pid: number): Promise<boolean> {
  // "pid (comm) S ...": comm may hold spaces and parentheses, so read the state after the last ")"
  const stat = await readProc(pid, "stat");
  return stat !== null && stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
}

/** Whether `pid` is a postgres server started on `databaseDir` (our orphan); null when /proc cannot tell. */
async function isPostgresOn(pid: number, databaseDir: string): Promise<boolean | null> {
  const raw = await readProc(pid, "cmdline");
  if (raw === null) return null;
  const argv = raw.split("\0");
  const dataArg = argv.indexOf("-D");
  return path.basename(argv[0] ?? "") === "postgres" && dataArg >= 0 && path.resolve(argv[dataArg + 1] ?? "") === path.resolve(databaseDir);
}

/**
 * The node process that still runs the postgres, if any: the server that started it is alive, so it is
 * not an orphan. An orphan was re-parented to init (or a subreaper), which is not a node process.
 */
async function liveOwner(pid: number): Promise<{ pid: number; command: string } | null> {
  const status = await readProc(pid, "status");
  const ppid = Number.parseInt(/^PPid:\s*(\d+)/m.exec(status ?? "")?.[1] ?? "", 10);
  if (!(ppid > 1)) return null;
  const argv = ((await readProc(ppid, "cmdline")) ?? "").split("\0").filter(Boolean);
  if (!argv.length || !/node|tsx/.test(path.basename(argv[0]!))) return null;
  return { pid: ppid, command: argv.join(" ") };
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (processState(pid) === "gone" || (await isZombie(pid))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * After `kill -9` of the server, the PostgreSQL it started keeps running on its data directory
 * (nothing tells it its parent died) and a new one cannot start there. This finds it by the
 * `postmaster.pid` lock file and `/proc/<pid>/cmdline` and stops it (fast shutdown: open
 * transactions roll back, nothing committed is lost), so the new start owns the cluster again. A
 * postgres whose parent, a node process, still runs belongs to a live server: that is refused.
 * A lock file whose pid is gone or now belongs to another program is stale and removed.
 * Returns what it did, for the start-up log.
 */
export async function clearLeftoverServer(databaseDir: string, log: StartupLog): Promise<"none" | "stale-lock-removed" | "stopped"> {
  const lockFile = path.join(databaseDir, "postmaster.pid");
  if (!existsSync(lockFile)) return "none";
  const pid = Number.parseInt((await readFile(lockFile, "utf8")).split("\n")[0] ?? "", 10);
  const state = Number.isInteger(pid) && pid > 0 ? processState(pid) : "gone";
  if (state === "gone" || (state === "running" && (await isZombie(pid)))) {
    await rm(lockFile, { force: true });
    log.warn({ lockFile, postgresPid: pid }, "removed a stale PostgreSQL lock file (its process is gone)");
    return "stale-lock-removed";
  }
  const ours = await isPostgresOn(pid, databaseDir);
  if (ours === null && state === "no-permission") {
    throw new EmbeddedStartError(
      `Cannot tell whether process ${pid} named in ${lockFile} is a PostgreSQL server on this directory. ` +
        `Stop it if it is one, otherwise delete ${lockFile}; then start again.`,
    );
  }
  if (!ours) {
    await rm(lockFile, { force: true });
    log.warn({ lockFile, postgresPid: pid }, "removed a stale PostgreSQL lock file (its pid now belongs to another program)");
    return "stale-lock-removed";
  }
  const owner = await liveOwner(pid);
  if (owner) {
    throw new EmbeddedStartError(
      `Another server (pid ${owner.pid}: ${owner.command.slice(0, 120)}) is running with the data directory ${path.dirname(databaseDir)}. ` +
        `Stop it (kill ${owner.pid}) or give this one another DATA_DIR, then start again.`,
    );
  }
  if (state === "no-permission") {
    throw new EmbeddedStartError(
      `An earlier PostgreSQL (pid ${pid}) still runs on ${databaseDir} and this user may not stop it. ` +
        `Stop it as its owner (kill -INT ${pid}, or pg_ctl stop -D ${databaseDir}), then start again.`,
    );
  }
  log.warn({ postgresPid: pid, databaseDir }, "an earlier embedded PostgreSQL still runs on the data directory (the server was killed); stopping it");
  process.kill(pid, "SIGINT");
  if (!(await waitGone(pid, FAST_SHUTDOWN_MS))) {
    log.warn({ postgresPid: pid }, "the earlier PostgreSQL did not finish a fast shutdown; asking for an immediate one");
    process.kill(pid, "SIGQUIT");
    if (!(await waitGone(pid, IMMEDIATE_SHUTDOWN_MS))) {
      throw new EmbeddedStartError(`An earlier PostgreSQL (pid ${pid}) on ${databaseDir} does not stop. Stop it (kill -KILL ${pid}), then start again.`);
    }
  }
  log.info({ postgresPid: pid }, "the earlier embedded PostgreSQL stopped");
  return "stopped";
}
