-- Fencing of connection leases (docs/architecture.md "Process roles and fencing"): every lease carries
-- an epoch, taken from one sequence (so it only grows) when a process takes the lease over or an
-- administrator restarts the session. The owner's writes on the connection's state check, in the same
-- statement or transaction, that the row still carries its epoch: a paused or partitioned former owner
-- can no longer write once another process has the lease.
CREATE SEQUENCE connection_lease_epochs;
ALTER TABLE connection_owners ADD COLUMN epoch bigint NOT NULL DEFAULT nextval('connection_lease_epochs');

-- Driver-direct actions (delete a sent message, read receipts, a number check, the sandbox phone, a
-- session start) asked of a process that does not run the connection: the request is stored here and
-- announced (NOTIFY driver_calls); the process holding the connection's lease (or, for a start, any
-- process that runs sessions) claims it, runs it and stores the answer (NOTIFY driver_call_answers).
CREATE TABLE driver_calls (
  id bigserial,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  whatsapp_id integer NOT NULL,
  action text NOT NULL,
  args jsonb NOT NULL DEFAULT '{}',
  -- waiting → running → done | failed; abandoned: the caller stopped waiting before anyone claimed it
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'running', 'done', 'failed', 'abandoned')),
  -- true: only the lease holder may run it; false (a session start): any process that runs sessions
  needs_owner boolean NOT NULL DEFAULT true,
  claimed_by text,
  result jsonb,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  -- a call names a connection of its own company only
  FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE CASCADE
);
-- keys lead with company_id (the Citus plan, docs/deployment.md); the answer paths look a call up by id
ALTER TABLE driver_calls ADD PRIMARY KEY (company_id, id);
CREATE INDEX driver_calls_id ON driver_calls (id);
CREATE INDEX driver_calls_waiting ON driver_calls (whatsapp_id, id) WHERE state = 'waiting';
CREATE INDEX driver_calls_company ON driver_calls (company_id, whatsapp_id);
