-- The jobs running now, one row each, kept by the process running them (core/jobs.ts): a process that
-- died (kill -9, a lost host) stops refreshing heartbeat_at, and another process hands its jobs back to
-- the queue within seconds instead of waiting for pg-boss's 15-minute expiry.
CREATE TABLE job_runs (
  job_id uuid PRIMARY KEY,
  queue text NOT NULL,
  instance text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_runs_instance ON job_runs (instance);
CREATE INDEX job_runs_heartbeat ON job_runs (heartbeat_at);
