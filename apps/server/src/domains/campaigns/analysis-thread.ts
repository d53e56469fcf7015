import type { AppContext } from "../../core/context.js";
import { runInWorkerThread, WorkerThreadDied } from "../../core/worker-thread.js";
import { CampaignFileError } from "./encoding.js";
import type { RecipientsInput, RecipientsOutcome } from "./read-recipients.js";

/** What analysis-worker.ts returns: the outcome, or the file's fault (a message for the list). */
export type AnalysisResult = { outcome: RecipientsOutcome } | { fileError: string };

export { WorkerThreadDied as AnalysisWorkerDied };

/**
 * Runs readRecipients in a worker thread whose heap is capped (config.campaignAnalysisHeapMb), so a
 * big file's garbage never grows the main thread's heap (core/worker-thread.ts). `afterBatch` runs
 * here after each stored batch while the worker waits. Resolves to the outcome; rejects with
 * CampaignFileError (the file), AnalysisWorkerDied (out of memory or crashed), or an Error (the
 * database or the disk failed, or the server is closing; the job is retried).
 */
export async function analyseInWorker(
  ctx: AppContext,
  input: RecipientsInput,
  afterBatch: (batches: number, total: number) => void | Promise<void>,
): Promise<RecipientsOutcome> {
  const result = await runInWorkerThread<AnalysisResult>(ctx, {
    callerUrl: import.meta.url,
    tsEntry: "./analysis-worker.ts",
    bundle: "campaign-analysis-worker",
    name: "campaign analysis",
    heapMb: ctx.config.campaignAnalysisHeapMb,
    input,
    log: { companyId: input.companyId, campaignId: input.campaignId },
    onProgress: (data) => {
      const { batches, total } = data as { batches: number; total: number };
      return afterBatch(batches, total);
    },
  });
  if ("fileError" in result) throw new CampaignFileError(result.fileError);
  return result.outcome;
}
