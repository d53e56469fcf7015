import { parentPort, workerData } from "node:worker_threads";
import { createPool, Sql } from "../db/sql.js";
import type { FromWorker, ToWorker, WorkerEnvelope } from "./worker-thread.js";

export interface WorkerTools<I> {
  input: I;
  /** One connection of the worker's own. */
  sql: Sql;
  /** Tells the main thread a step is done and waits until its hook ran (it may stop the thread there). */
  progress: (data: unknown) => Promise<void>;
  warn: (err: unknown, msg: string) => void;
}

const describe = (err: unknown) => ({
  message: err instanceof Error ? err.message : String((err as { message?: unknown } | null)?.message ?? err),
  stack: err instanceof Error ? err.stack : undefined,
  code: (err as { code?: unknown } | null)?.code === undefined ? undefined : String((err as { code: unknown }).code),
});

/**
 * The body of a worker thread started by `runInWorkerThread` (core/worker-thread.ts): runs `work`
 * with the input and a connection of its own, posts its value (or its failure) as the one last
 * message, closes the connection and lets the thread end. A failure the caller must tell apart (a bad
 * file) is best returned as a value: only messages and codes cross the thread boundary, not classes.
 */
export async function workerMain<I>(work: (tools: WorkerTools<I>) => Promise<unknown>): Promise<void> {
  const port = parentPort!;
  const envelope = workerData as WorkerEnvelope;
  const post = (message: FromWorker) => port.postMessage(message);
  const warn = (err: unknown, msg: string) => post({ type: "warn", msg, err: describe(err) });
  let resume: (() => void) | null = null;
  port.on("message", (message: ToWorker) => {
    if (message.type === "continue") resume?.();
  });
  const pool = createPool(envelope.databaseUrl, 1, { warn: (obj, msg) => warn((obj as { err?: unknown }).err, msg) });
  let last: FromWorker;
  try {
    const value = await work({
      input: envelope.input as I,
      sql: new Sql(pool),
      progress: (data) =>
        new Promise<void>((r) => {
          resume = r;
          post({ type: "progress", data });
        }),
      warn,
    });
    last = { type: "done", value };
  } catch (err) {
    last = { type: "failed", err: describe(err) };
  }
  await pool.end().catch((err: unknown) => warn(err, "a worker thread's database connection did not close cleanly"));
  post(last);
  // nothing else keeps the thread alive: it exits and the main thread settles on its exit
  port.removeAllListeners("message");
  port.unref();
}
