import { parentPort, workerData } from "node:worker_threads";
import { createPool, Sql } from "../../db/sql.js";
import type { FromWorker, ToWorker, WorkerInput } from "./analysis-thread.js";
import { CampaignFileError } from "./encoding.js";
import { readRecipients } from "./read-recipients.js";

/**
 * The campaign analysis's worker thread (started by analysis-thread.ts; bundled as
 * dist/campaign-analysis-worker.js). It reads the file and stores the recipients through one
 * connection of its own, and tells the main thread after each batch, waiting for its answer before the
 * next one: the main thread's hooks see the rows stored so far and nothing more, and it can stop the
 * thread there. Its one last message is the outcome, a file error or a failure; then it ends.
 */
const port = parentPort!;
const input = workerData as WorkerInput;
const post = (message: FromWorker) => port.postMessage(message);
const describe = (err: unknown) => ({
  message: err instanceof Error ? err.message : String(err),
  stack: err instanceof Error ? err.stack : undefined,
  code: (err as { code?: unknown } | null)?.code === undefined ? undefined : String((err as { code: unknown }).code),
});

let resume: (() => void) | null = null;
port.on("message", (message: ToWorker) => {
  if (message.type === "continue") resume?.();
});

const pool = createPool(input.databaseUrl, 1, { warn: (obj, msg) => post({ type: "warn", msg, err: describe((obj as { err?: unknown }).err) }) });
let last: FromWorker;
try {
  const outcome = await readRecipients(new Sql(pool), input, {
    afterBatch: (batches, total) =>
      new Promise<void>((r) => {
        resume = r;
        post({ type: "batch", batches, total });
      }),
    warn: (err, msg) => post({ type: "warn", msg, err: describe(err) }),
  });
  last = { type: "done", outcome };
} catch (err) {
  last = err instanceof CampaignFileError ? { type: "file-error", message: err.message } : { type: "failed", err: describe(err) };
}
await pool.end().catch((err: unknown) => post({ type: "warn", msg: "the analysis's database connection did not close cleanly", err: describe(err) }));
post(last);
// nothing else keeps the thread alive: it exits and the main thread settles on its exit
port.removeAllListeners("message");
port.unref();
