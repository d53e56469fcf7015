import { analysisWorkerMain } from "./analysis-thread.js";
import { readRecipients, type RecipientsInput } from "./read-recipients.js";

/**
 * The WhatsApp campaign analysis's worker thread (started by analysis-thread.ts; bundled as
 * dist/campaign-analysis-worker.js). It reads the file and stores the recipients through one
 * connection of its own, and tells the main thread after each batch, waiting for its answer before the
 * next one: the main thread's hooks see the rows stored so far and nothing more, and it can stop the
 * thread there.
 */
await analysisWorkerMain<RecipientsInput, unknown>(({ input, sql, progress, warn }) =>
  readRecipients(sql, input, { afterBatch: (batches, total) => progress({ batches, total }), warn }),
);
