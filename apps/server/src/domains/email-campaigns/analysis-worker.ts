import { analysisWorkerMain } from "../campaigns/analysis-thread.js";
import { readEmailRecipients, type EmailAnalysisInput } from "./read-recipients.js";

/** The e-mail campaign analysis's worker thread (started by analysis.ts; bundled as dist/email-analysis-worker.js). */
await analysisWorkerMain<EmailAnalysisInput, unknown>(({ input, sql, warn }) => readEmailRecipients(sql, warn, input));
