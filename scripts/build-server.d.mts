export declare const SERVER_BUNDLE: string;
/** The worker threads' bundles built beside SERVER_BUNDLE: output name (without .js) → entry under apps/server. */
export declare const WORKER_BUNDLES: Record<string, string>;
/** Builds apps/server/dist/main.js when it is missing or older than its sources; resolves to its path. */
export declare function ensureServerBuild(options?: { force?: boolean }): Promise<string>;
/** Builds the server bundle at `outfile` (with `outfile.map`) and the worker bundles beside it; run it with `node --enable-source-maps`. */
export declare function buildServer(outfile: string): Promise<void>;
