import { Worker } from "node:worker_threads";
import type { AppContext } from "../../core/context.js";
import { CampaignFileError } from "./encoding.js";
import type { RecipientsInput, RecipientsOutcome } from "./read-recipients.js";

/** workerData of analysis-worker.ts. */
export interface WorkerInput extends RecipientsInput {
  databaseUrl: string;
}

type ErrorText = { message: string; stack?: string; code?: string };
export type FromWorker =
  | { type: "batch"; batches: number; total: number }
  | { type: "warn"; msg: string; err: ErrorText }
  | { type: "done"; outcome: RecipientsOutcome }
  | { type: "file-error"; message: string }
  | { type: "failed"; err: ErrorText };
export type ToWorker = { type: "continue" };

/**
 * The worker thread ended without an outcome: out of its heap (`memory`: the analysis holds little,
 * lines are capped and batches too, so a cap set too low or a defect) or otherwise (`crash`). Not
 * retried: the same file would most likely do the same again.
 */
export class AnalysisWorkerDied extends Error {
  constructor(
    readonly reason: "memory" | "crash",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The young generation stays small: the analysis's garbage is collected while it is young and cheap. */
const YOUNG_GENERATION_MB = 8;

/**
 * The worker's script beside the running module: in the server bundle this code is inside
 * dist/main.js and the worker is dist/campaign-analysis-worker.js (scripts/build-server.mjs builds
 * both); under tsx or vitest this file is src/domains/campaigns/analysis-thread.ts and the worker is
 * analysis-worker-tsx.mjs beside it, which loads analysis-worker.ts through tsx.
 */
function workerScript(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith(".ts") ? "./analysis-worker-tsx.mjs" : "./campaign-analysis-worker.js", here);
}

/** The analyses running in each server (app), stopped when it closes. */
const running = new WeakMap<AppContext, Set<Worker>>();
const closing = new WeakSet<Worker>();

/** Stops the server's running analyses (its shutdown): their jobs fail now and pg-boss retries them from the file. */
export async function stopAnalysisWorkers(ctx: AppContext): Promise<void> {
  const workers = [...(running.get(ctx) ?? [])];
  for (const w of workers) closing.add(w);
  await Promise.all(workers.map((w) => w.terminate()));
}

/**
 * Runs readRecipients in a worker thread whose heap is capped (config.campaignAnalysisHeapMb) and
 * collected on its own, so a big file's garbage never grows the main thread's heap, which serves
 * HTTP. `afterBatch` runs here after each stored batch while the worker waits; when it throws, the
 * worker is stopped and the error rethrown. Resolves to the outcome; rejects with CampaignFileError
 * (the file), AnalysisWorkerDied (the thread ran out of memory or crashed), or an Error (the database
 * or the disk failed; the job is retried).
 */
export function analyseInWorker(
  ctx: AppContext,
  input: RecipientsInput,
  afterBatch: (batches: number, total: number) => void | Promise<void>,
): Promise<RecipientsOutcome> {
  const log = { companyId: input.companyId, campaignId: input.campaignId };
  const workerData: WorkerInput = { ...input, databaseUrl: ctx.databaseUrl };
  const worker = new Worker(workerScript(), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: ctx.config.campaignAnalysisHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const mine = running.get(ctx) ?? new Set<Worker>();
  running.set(ctx, mine);
  mine.add(worker);

  let last: FromWorker | null = null;
  let error: unknown = null;
  let hookError: { err: unknown } | null = null;
  return new Promise<RecipientsOutcome>((resolve, reject) => {
    worker.on("message", (m: FromWorker) => {
      if (m.type === "warn") ctx.log.warn({ err: m.err, ...log }, m.msg);
      else if (m.type === "batch") {
        Promise.resolve()
          .then(() => afterBatch(m.batches, m.total))
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
      if (outcome && error) ctx.log.error({ err: error, ...log }, "campaign analysis worker failed after its outcome (kept)");
      if (outcome?.type === "done") return resolve(outcome.outcome);
      if (outcome?.type === "file-error") return reject(new CampaignFileError(outcome.message));
      if (outcome?.type === "failed") {
        // the thread's error as it was (message, code, stack), for the job's log line and pg-boss's retry
        const failure = Object.assign(new Error(outcome.err.message), { code: outcome.err.code });
        if (outcome.err.stack) failure.stack = outcome.err.stack;
        return reject(failure);
      }
      if (closing.has(worker)) return reject(new Error("campaign analysis stopped: the server is closing (the job is retried from the file)"));
      if ((error as { code?: string } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
        ctx.log.warn({ err: error, ...log, heapMb: ctx.config.campaignAnalysisHeapMb }, "campaign analysis worker ran out of memory");
        return reject(new AnalysisWorkerDied("memory", "campaign analysis worker ran out of memory", { cause: error }));
      }
      ctx.log.error({ err: error, exitCode, ...log }, "campaign analysis worker ended without an outcome");
      reject(new AnalysisWorkerDied("crash", `campaign analysis worker ended without an outcome (exit code ${exitCode})`, { cause: error }));
    });
  });
}
