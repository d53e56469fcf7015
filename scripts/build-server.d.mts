export declare const SERVER_BUNDLE: string;
/** Builds apps/server/dist/main.js when it is missing or older than its sources; resolves to its path. */
export declare function ensureServerBuild(options?: { force?: boolean }): Promise<string>;
/** Builds the server bundle at `outfile` (with `outfile.map`); run it with `node --enable-source-maps`. */
export declare function buildServer(outfile: string): Promise<void>;
