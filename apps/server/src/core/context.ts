import type { Config } from "../config.js";
import type { Sql } from "../db/sql.js";
import type { Jobs } from "./jobs.js";
import type { Realtime } from "./realtime.js";
import type { TokenService } from "./tokens.js";

/** What every domain gets: configuration, the database, real-time, jobs and tokens. */
export interface AppContext {
  config: Config;
  sql: Sql;
  realtime: Realtime;
  jobs: Jobs;
  tokens: TokenService;
}
