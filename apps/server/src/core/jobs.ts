import type { FastifyBaseLogger } from "fastify";
import PgBoss from "pg-boss";
import pg from "pg";
import type { z } from "zod";
import { START_LOCKS, withSessionLock } from "../db/session-lock.js";
import { JOB_RUN_TIMES, JobRuns, type JobRunTimes, type StalledJob } from "./job-runs.js";
import type { Sql } from "../db/sql.js";
import { currentRequestId, runWithContext } from "./run-context.js";

/**
 * The payload field carrying the id of the request that queued a job: its handler's log lines show
 * it (run-context.ts), so an operator follows a request into its jobs. Removed before the payload
 * schema reads the data.
 */
export const REQUEST_ID_FIELD = "_requestId";

/** A durable job: its name, payload schema and handler (documenso's job definitions). */
export interface JobDefinition<S extends z.ZodType> {
  name: string;
  schema: S;
  handler: (payload: z.infer<S>) => Promise<void>;
  /** Workers per process (each takes a batch of up to batchSize jobs per poll). */
  concurrency?: number;
  /** Jobs fetched and run in parallel per poll (default 20). */
  batchSize?: number;
  retryLimit?: number;
  /**
   * Runs once when the job's last attempt fails (its retries are used up), so what the job was doing
   * ends visibly (e.g. a campaign analysis ends in ERROR) instead of waiting forever.
   */
  onGiveUp?: (payload: z.infer<S>, err: unknown) => Promise<void>;
  /**
   * A cron expression (UTC): pg-boss sends the job with an empty payload on this schedule, once for the
   * whole cluster whatever the number of processes (billing's invoice issuing and Pix reconciliation).
   */
  cron?: string;
}

export interface SendOptions {
  startAfter?: Date | number;
  singletonKey?: string;
  /** Stores the job within this transaction: it exists exactly when the transaction commits. */
  db?: Sql;
}

/**
 * The PostgreSQL-backed job queue (pg-boss): jobs survive crashes and restarts and several server
 * processes share the work. Domains define jobs; workers start only where config.runJobs is set.
 */
export class Jobs {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<z.ZodType>>();
  private started = false;
  /** A small pool of this class's own: the start lock and the running jobs' heartbeats. */
  private readonly pool: pg.Pool;
  private readonly runs: JobRuns | null;
  private stopping: Promise<void> | null = null;

  constructor(
    connectionString: string,
    private readonly runWorkers: boolean,
    private readonly log: FastifyBaseLogger,
    runTimes: JobRunTimes = JOB_RUN_TIMES,
  ) {
    this.pool = new pg.Pool({ connectionString, max: 2 });
    this.pool.on("error", (err) => this.log.warn({ err }, "a job bookkeeping connection failed; the pool opens another"));
    this.runs = runWorkers ? new JobRuns(this.pool, log, runTimes) : null;
    // a process without workers (ROLE=web, RUN_JOBS=false) only queues jobs: pg-boss's maintenance and its
    // cron clock run where the work runs
    this.boss = new PgBoss({
      connectionString,
      max: 4,
      schema: "pgboss",
      pollingIntervalSeconds: 1,
      supervise: runWorkers,
      schedule: runWorkers,
    } as PgBoss.ConstructorOptions);
    // pg-boss reports its own failures (maintenance, polling, a lost connection) here; it retries by itself.
    this.boss.on("error", (err) => this.log.error({ err }, "job queue error"));
  }

  define<S extends z.ZodType>(definition: JobDefinition<S>): void {
    this.definitions.set(definition.name, definition as unknown as JobDefinition<z.ZodType>);
  }

  /** The defined queues' names (the metrics show each one, at 0 when empty). */
  names(): string[] {
    return [...this.definitions.keys()];
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
    await this.createQueues();
    if (!this.runs) return;
    this.runs.start((stalled) => this.handBack(stalled));
    for (const def of this.definitions.values()) {
      for (let i = 0; i < (def.concurrency ?? 1); i++) {
        await this.boss.work(def.name, { batchSize: def.batchSize ?? 20, pollingIntervalSeconds: 1, includeMetadata: true }, (jobs) => this.runBatch(def, jobs));
      }
    }
  }

  /**
   * The missing queues and the schedules, one process at a time: pg-boss's create_queue attaches a
   * partition to its job table, and processes creating queues together on a fresh database deadlock
   * there (seen with two web processes and a worker started by one compose file). A running process's
   * maintenance of the job table can still meet a creation in a deadlock, which PostgreSQL ends by
   * failing one side: the creation is tried again.
   */
  private async createQueues(): Promise<void> {
    await withSessionLock(this.pool, START_LOCKS.jobQueues, async () => {
      const existing = new Set((await this.boss.getQueues()).map((q) => q.name));
      for (const def of this.definitions.values()) {
        if (!existing.has(def.name)) {
          await this.retryDeadlock(`create queue ${def.name}`, () =>
            this.boss.createQueue(def.name, { name: def.name, retryLimit: def.retryLimit ?? 3, retryBackoff: true }),
          );
        }
        if (def.cron) await this.retryDeadlock(`schedule ${def.name}`, () => this.boss.schedule(def.name, def.cron!, {}, { tz: "UTC" }));
      }
    });
  }

  /**
   * Jobs left running by a process that died: each one still active is failed, so pg-boss retries it
   * (with backoff, within its retry limit) on a living worker; on its last attempt its onGiveUp runs.
   */
  private async handBack(stalled: StalledJob[]): Promise<void> {
    for (const stalledJob of stalled) {
      await this.handBackOne(stalledJob).catch(async (err: unknown) => {
        // taken but not handed back (the database failed): put back for the next check, not left to the 15-minute expiry
        this.log.error({ err, job: stalledJob.queue, jobId: stalledJob.jobId, instance: stalledJob.instance }, "could not hand back a job left by a stopped process; tried again at the next check");
        await this.runs?.putBack(stalledJob);
      });
    }
  }

  private async handBackOne({ jobId, queue, instance }: StalledJob): Promise<void> {
    const job = await this.boss.getJobById(queue, jobId);
    if (!job || job.state !== "active") return;
    const message = `the process running it (${instance}) stopped`;
    this.log.warn({ job: queue, jobId, instance, retryCount: job.retryCount, retryLimit: job.retryLimit }, "job left by a stopped process; handed back to its queue");
    await this.boss.fail(queue, jobId, { message });
    const def = this.definitions.get(queue);
    if (def?.onGiveUp && job.retryCount >= job.retryLimit) {
      await def.onGiveUp(def.schema.parse(withoutRequestId(job.data)), new Error(message)).catch((err: unknown) => {
        this.log.error({ err, job: queue, jobId }, "a job's last failure could not be recorded on what it was doing");
      });
    }
  }

  /** `fn` again (up to 5 times, 100-500 ms apart) while PostgreSQL ends it as one side of a deadlock (40P01). */
  private async retryDeadlock(what: string, fn: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await fn();
        return;
      } catch (err) {
        if ((err as { code?: unknown }).code !== "40P01" || attempt >= 5) throw err;
        this.log.warn({ err, attempt }, `deadlock on ${what}; trying again`);
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  /**
   * pg-boss waits one polling interval after every fetch, so workers take a batch at a time and run
   * its jobs in parallel. A job that fails is failed on its own (retried with backoff); the rest of the
   * batch completes normally.
   */
  private async runBatch(def: JobDefinition<z.ZodType>, jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> {
    const ids = jobs.map((j) => j.id);
    // not recorded: the jobs run anyway and only a crash of this process would leave them to pg-boss's expiry
    await this.runs?.begin(def.name, ids).catch((err: unknown) => this.log.error({ err, job: def.name, jobIds: ids }, "could not record the jobs starting"));
    await Promise.all(
      jobs.map((job) => runWithContext({ reqId: requestIdOf(job.data), job: def.name, jobId: job.id }, () => this.runJob(def, job))),
    );
    await this.runs?.end(ids).catch((err: unknown) => this.log.error({ err, job: def.name, jobIds: ids }, "could not record the jobs ending; the stalled check finds them finished"));
  }

  /** One job, inside its run context (its lines carry the job and the request that queued it). */
  private async runJob(def: JobDefinition<z.ZodType>, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    // a job a request queued says so at info level (with the request's id); the others at debug
    const reqId = requestIdOf(job.data);
    if (reqId) this.log.info({ job: def.name, jobId: job.id, reqId }, "job started");
    else this.log.debug({ job: def.name, jobId: job.id }, "job started");
    try {
      await def.handler(def.schema.parse(withoutRequestId(job.data)));
    } catch (err) {
      this.log.error({ err, job: def.name, jobId: job.id, reqId, data: job.data }, "job failed; pg-boss retries it with backoff until its retry limit");
      const message = err instanceof Error ? err.message : String(err);
      await this.boss.fail(def.name, job.id, { message }).catch((failErr: unknown) => {
        // the job stays active and pg-boss expires and retries it; the operator must still see why
        this.log.error({ err: failErr, job: def.name, jobId: job.id }, "could not record a job failure");
      });
      if (def.onGiveUp && job.retryCount >= job.retryLimit) {
        await def.onGiveUp(def.schema.parse(withoutRequestId(job.data)), err).catch((giveUpErr: unknown) => {
          this.log.error({ err: giveUpErr, job: def.name, jobId: job.id }, "a job's last failure could not be recorded on what it was doing");
        });
      }
    }
  }

  async send<S extends z.ZodType>(name: string, payload: z.infer<S>, options: SendOptions = {}): Promise<string | null> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`Unknown job ${name}`);
    const parsed = def.schema.parse(payload) as object;
    const requestId = currentRequestId();
    const data = requestId && isPlainObject(parsed) ? { ...parsed, [REQUEST_ID_FIELD]: requestId } : parsed;
    return this.boss.send(name, data, {
      startAfter: typeof options.startAfter === "number" ? new Date(options.startAfter) : options.startAfter,
      singletonKey: options.singletonKey,
      ...(options.db ? { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await options.db!.many(text, values) }) } } : {}),
    });
  }

  /**
   * Queues many jobs of one kind in one statement (pg-boss insert): a sweep that finds thousands of
   * pending items queues them in a few round trips instead of one per item.
   */
  async sendMany<S extends z.ZodType>(name: string, items: { payload: z.infer<S>; singletonKey?: string }[]): Promise<void> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`Unknown job ${name}`);
    if (items.length === 0) return;
    await this.boss.insert(items.map((i) => ({ name, data: def.schema.parse(i.payload) as object, singletonKey: i.singletonKey })));
  }

  async cancel(name: string, id: string): Promise<void> {
    await this.boss.cancel(name, id);
  }

  /** Stops the workers and the bookkeeping; a second call waits for the first. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // pg-boss waits for the running jobs, then hands back those still running; the heartbeat goes on meanwhile
      if (this.started) await this.boss.stop({ graceful: true, timeout: 5000 });
      await this.runs?.stop();
      await this.pool.end();
    })();
    return this.stopping;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function requestIdOf(data: unknown): string | undefined {
  const id = isPlainObject(data) ? data[REQUEST_ID_FIELD] : undefined;
  return typeof id === "string" ? id : undefined;
}

function withoutRequestId(data: unknown): unknown {
  if (!isPlainObject(data) || !(REQUEST_ID_FIELD in data)) return data;
  const { [REQUEST_ID_FIELD]: _requestId, ...rest } = data;
  return rest;
}
