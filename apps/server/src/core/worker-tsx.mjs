// A worker thread under tsx or vitest (development and tests; core/worker-thread.ts starts it for the
// TypeScript sources): a worker does not inherit the module hooks its parent thread was given, so it
// loads its TypeScript entry (workerData.tsEntry) through tsx itself. The server bundle starts
// dist/<worker>.js instead, and tsx (a dev dependency) is never loaded in production.
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

await tsImport(workerData.tsEntry, import.meta.url);
