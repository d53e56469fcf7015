import { analysisWorkerMain } from "../campaigns/analysis-thread.js";
import { readSmsRows, type SmsAnalysisInput } from "./read-rows.js";

/** The SMS campaign analysis's worker thread (started by analysis.ts; bundled as dist/sms-analysis-worker.js). */
await analysisWorkerMain<SmsAnalysisInput, unknown>(({ input, sql, warn }) => readSmsRows(sql, warn, input));
