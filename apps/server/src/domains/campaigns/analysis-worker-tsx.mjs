// The analysis's worker thread under tsx or vitest (development and tests; analysis-thread.ts starts
// it for the TypeScript sources): a worker does not inherit the module hooks its parent thread was
// given, so it loads the TypeScript entry through tsx itself. The server bundle starts
// dist/campaign-analysis-worker.js instead, and tsx (a dev dependency) is never loaded in production.
import { tsImport } from "tsx/esm/api";

await tsImport("./analysis-worker.ts", import.meta.url);
