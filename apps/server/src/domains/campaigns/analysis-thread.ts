import { CAMPAIGN_MESSAGES } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { runInWorkerThread, WorkerThreadDied } from "../../core/worker-thread.js";
import { workerMain, type WorkerTools } from "../../core/worker-main.js";
import { CampaignFileError } from "./encoding.js";
import type { RecipientsInput, RecipientsOutcome } from "./read-recipients.js";

/** What an analysis worker returns: its outcome, or the file's fault (a message for the list). */
export type AnalysisResult<T> = { outcome: T } | { fileError: string };

/**
 * Runs a campaign CSV analysis (WhatsApp, SMS, e-mail) in a worker thread whose heap is capped
 * (config.campaignAnalysisHeapMb), so a big file's garbage never grows the main thread's heap
 * (core/worker-thread.ts). Resolves to the outcome; rejects with CampaignFileError (the file),
 * WorkerThreadDied (out of memory or crashed), or an Error (the database or the disk failed, or the
 * server is closing; the job is retried).
 */
export async function analysisInWorker<T>(
  ctx: AppContext,
  o: { callerUrl: string; tsEntry: string; bundle: string; name: string; input: unknown; log: Record<string, unknown>; onProgress?: (data: unknown) => void | Promise<void> },
): Promise<T> {
  const result = await runInWorkerThread<AnalysisResult<T>>(ctx, { ...o, heapMb: ctx.config.campaignAnalysisHeapMb });
  if ("fileError" in result) throw new CampaignFileError(result.fileError);
  return result.outcome;
}

/**
 * The list's message for an analysis that cannot finish: the file's fault, or its thread ended without
 * an outcome (out of memory, crashed: not retried, the same file would do the same); null for anything
 * else (the database or the disk: thrown, pg-boss retries).
 */
export function analysisErrorMessage(err: unknown): string | null {
  if (err instanceof CampaignFileError) return err.message;
  if (err instanceof WorkerThreadDied) return err.reason === "memory" ? CAMPAIGN_MESSAGES.analysisOutOfMemory : CAMPAIGN_MESSAGES.analysisCrashed;
  return null;
}

/** The body of an analysis worker: its outcome, or a CampaignFileError's message as a value (classes do not cross threads). */
export function analysisWorkerMain<I, T>(work: (tools: WorkerTools<I>) => Promise<T>): Promise<void> {
  return workerMain<I>(async (tools): Promise<AnalysisResult<T>> => {
    try {
      return { outcome: await work(tools) };
    } catch (err) {
      if (err instanceof CampaignFileError) return { fileError: err.message };
      throw err;
    }
  });
}

/** The WhatsApp campaign's analysis (read-recipients.ts) in its worker; `afterBatch` runs here after each stored batch while the worker waits. */
export function analyseInWorker(
  ctx: AppContext,
  input: RecipientsInput,
  afterBatch: (batches: number, total: number) => void | Promise<void>,
): Promise<RecipientsOutcome> {
  return analysisInWorker<RecipientsOutcome>(ctx, {
    callerUrl: import.meta.url,
    tsEntry: "./analysis-worker.ts",
    bundle: "campaign-analysis-worker",
    name: "campaign analysis",
    input,
    log: { companyId: input.companyId, campaignId: input.campaignId },
    onProgress: (data) => {
      const { batches, total } = data as { batches: number; total: number };
      return afterBatch(batches, total);
    },
  });
}
