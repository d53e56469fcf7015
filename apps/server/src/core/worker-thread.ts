import { Worker } from "node:worker_threads";
import type { AppContext } from "./context.js";

/**
 * Long background work over a whole file (a campaign's CSV analysis, a contacts import) in a worker
 * thread whose heap is capped and collected on its own: the file's garbage never grows the main
 * thread's heap, which serves HTTP (docs/architecture.md "Worker threads"). The worker's side is
 * `workerMain` (core/worker-main.ts); the two speak the messages below.
 */

type ErrorText = { message: string; stack?: string; code?: string };
export type FromWorker =
  /** Between two steps of the work: the worker waits for `continue` (the main thread's hook ran). */
  | { type: "progress"; data: unknown }
  | { type: "warn"; msg: string; err: ErrorText }
  | { type: "done"; value: unknown }
  | { type: "failed"; err: ErrorText };
export type ToWorker = { type: "continue" };

/** workerData's own fields: where the TypeScript entry is (tsx only) and the database to use. */
export interface WorkerEnvelope {
  tsEntry?: string;
  databaseUrl: string;
  input: unknown;
}

/**
 * The thread ended without an outcome: out of its heap (`memory`) or otherwise (`crash`). Not retried
 * by its callers: the same file would most likely do the same again.
 */
export class WorkerThreadDied extends Error {
  constructor(
    readonly reason: "memory" | "crash",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A failure the worker's code threw (the database, the disk), with its message, code and stack. */
export class WorkerThreadFailed extends Error {
  constructor(
    err: ErrorText,
    readonly code?: string,
  ) {
    super(err.message);
    if (err.stack) this.stack = err.stack;
  }
}

/** The young generation stays small: the work's garbage is collected while it is young and cheap. */
const YOUNG_GENERATION_MB = 8;

/**
 * The worker's script. In the server bundle every module's `import.meta.url` is dist/main.js and the
 * worker is `dist/<bundle>.js` beside it (scripts/build-server.mjs, WORKER_BUNDLES); under tsx or
 * vitest the caller is a .ts file and the worker is its TypeScript entry, loaded through tsx by
 * worker-tsx.mjs (a worker does not inherit the module hooks of its parent thread).
 */
function scriptOf(callerUrl: string, tsEntry: string, bundle: string): { script: URL; tsEntry?: string } {
  if (!callerUrl.endsWith(".ts")) return { script: new URL(`./${bundle}.js`, callerUrl) };
  return { script: new URL("./worker-tsx.mjs", import.meta.url), tsEntry: new URL(tsEntry, callerUrl).href };
}

/** The worker threads running in each server (app), stopped when it closes. */
const running = new WeakMap<AppContext, Set<Worker>>();
const closing = new WeakSet<Worker>();

/** Stops the server's worker threads (its shutdown): their jobs fail now and pg-boss retries them. */
export async function stopWorkerThreads(ctx: AppContext): Promise<void> {
  const workers = [...(running.get(ctx) ?? [])];
  for (const w of workers) closing.add(w);
  await Promise.all(workers.map((w) => w.terminate()));
}

export interface WorkerThreadOptions {
  /** The caller's `import.meta.url`, its worker's TypeScript entry relative to it, and the bundle's name. */
  callerUrl: string;
  tsEntry: string;
  bundle: string;
  /** What the work is, for log lines ("campaign analysis"). */
  name: string;
  heapMb: number;
  input: unknown;
  /** Fields for every log line (company, campaign, import). */
  log: Record<string, unknown>;
  /** Runs after each step while the worker waits; when it throws, the worker is stopped and the error rethrown. */
  onProgress?: (data: unknown) => void | Promise<void>;
}

/**
 * Runs a worker and resolves to the value it returned. Rejects with the onProgress hook's error,
 * WorkerThreadFailed (the worker's code threw), WorkerThreadDied (out of memory or crashed), or an
 * Error when the server is closing (the job is retried).
 */
export function runInWorkerThread<T>(ctx: AppContext, o: WorkerThreadOptions): Promise<T> {
  const { script, tsEntry } = scriptOf(o.callerUrl, o.tsEntry, o.bundle);
  const workerData: WorkerEnvelope = { tsEntry, databaseUrl: ctx.databaseUrl, input: o.input };
  const worker = new Worker(script, {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: o.heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const mine = running.get(ctx) ?? new Set<Worker>();
  running.set(ctx, mine);
  mine.add(worker);

  let last: FromWorker | null = null;
  let error: unknown = null;
  let hookError: { err: unknown } | null = null;
  return new Promise<T>((resolve, reject) => {
    worker.on("message", (m: FromWorker) => {
      if (m.type === "warn") ctx.log.warn({ err: m.err, ...o.log }, m.msg);
      else if (m.type === "progress") {
        Promise.resolve()
          .then(() => o.onProgress?.(m.data))
          .then(
            () => worker.postMessage({ type: "continue" } satisfies ToWorker),
            (err: unknown) => {
              hookError = { err };
              void worker.terminate();
            },
          );
      } else last = m;
    });
    // an uncaught failure in the thread, or its heap exhausted; 'exit' follows
    worker.on("error", (err) => {
      error = err;
    });
    worker.on("exit", (exitCode) => {
      mine.delete(worker);
      const outcome = last as FromWorker | null;
      if (hookError) return reject(hookError.err);
      if (outcome && error) ctx.log.error({ err: error, ...o.log }, `${o.name} worker failed after its outcome (kept)`);
      if (outcome?.type === "done") return resolve(outcome.value as T);
      if (outcome?.type === "failed") return reject(new WorkerThreadFailed(outcome.err, outcome.err.code));
      if (closing.has(worker)) return reject(new Error(`${o.name} stopped: the server is closing (the job is retried)`));
      if ((error as { code?: string } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
        ctx.log.warn({ err: error, ...o.log, heapMb: o.heapMb }, `${o.name} worker ran out of memory`);
        return reject(new WorkerThreadDied("memory", `${o.name} worker ran out of memory`, { cause: error }));
      }
      ctx.log.error({ err: error, exitCode, ...o.log }, `${o.name} worker ended without an outcome`);
      reject(new WorkerThreadDied("crash", `${o.name} worker ended without an outcome (exit code ${exitCode})`, { cause: error }));
    });
  });
}
