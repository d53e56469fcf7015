import { randomUUID } from "node:crypto";
import os from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";

export interface JobRunTimes {
  /** How often a process refreshes the heartbeat of the jobs it runs and looks for stalled ones. */
  heartbeatMs: number;
  /** A job whose heartbeat is older than this was left by a process that died. */
  staleMs: number;
}

export const JOB_RUN_TIMES: JobRunTimes = { heartbeatMs: 5_000, staleMs: 20_000 };

export interface StalledJob {
  jobId: string;
  queue: string;
  instance: string;
}

/**
 * The jobs this process runs, in `job_runs` with a heartbeat (BullMQ's stalled-job check, on
 * PostgreSQL): a process killed mid-job stops refreshing its rows, and any other worker process takes
 * them (`DELETE ... RETURNING`, so exactly one does) and hands the jobs back to their queue, within
 * staleMs + heartbeatMs of the last heartbeat instead of pg-boss's 15-minute expiry.
 */
export class JobRuns {
  readonly instance = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
    private readonly times: JobRunTimes,
  ) {}

  /** Starts the heartbeat and the stalled-job check (at once: a restarted worker frees what its predecessor left). */
  start(onStalled: (jobs: StalledJob[]) => Promise<void>): void {
    const tick = () => {
      if (this.ticking) return;
      this.ticking = this.beat(onStalled)
        .catch((err: unknown) => this.log.error({ err }, "job heartbeat failed; tried again at the next beat"))
        .finally(() => {
          this.ticking = null;
        });
    };
    tick();
    this.timer = setInterval(tick, this.times.heartbeatMs);
    this.timer.unref();
  }

  private async beat(onStalled: (jobs: StalledJob[]) => Promise<void>): Promise<void> {
    await this.pool.query("UPDATE job_runs SET heartbeat_at = now() WHERE instance = $1", [this.instance]);
    const { rows } = await this.pool.query<StalledJob>(
      `DELETE FROM job_runs WHERE heartbeat_at < now() - make_interval(secs => $1::float8 / 1000)
       RETURNING job_id::text AS "jobId", queue, instance`,
      [this.times.staleMs],
    );
    if (rows.length) await onStalled(rows);
  }

  /** Records jobs this process starts (one statement for a fetched batch). */
  async begin(queue: string, jobIds: string[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO job_runs (job_id, queue, instance) SELECT id, $1, $2 FROM unnest($3::uuid[]) id
       ON CONFLICT (job_id) DO UPDATE SET queue = EXCLUDED.queue, instance = EXCLUDED.instance, started_at = now(), heartbeat_at = now()`,
      [queue, this.instance, jobIds],
    );
  }

  /** Puts back a stalled job another process took but could not hand back: the next check takes it again. */
  async putBack(job: StalledJob): Promise<void> {
    await this.pool.query(
      "INSERT INTO job_runs (job_id, queue, instance, heartbeat_at) VALUES ($1, $2, $3, 'epoch') ON CONFLICT (job_id) DO NOTHING",
      [job.jobId, job.queue, job.instance],
    );
  }

  /** Forgets jobs this process has finished (completed or failed: pg-boss holds their state). */
  async end(jobIds: string[]): Promise<void> {
    await this.pool.query("DELETE FROM job_runs WHERE job_id = ANY($1::uuid[]) AND instance = $2", [jobIds, this.instance]);
  }

  /** Stops the heartbeat; the rows of jobs still running go with the process (graceful stop waits for them first). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await this.pool.query("DELETE FROM job_runs WHERE instance = $1", [this.instance]);
  }
}
