-- Campaign dispatch (issue 14, docs/architecture.md "Dispatch: exact rate, exactly once"): the lease
-- that lets one process drive a number's sends, the sandbox's simulated failure rate, and the index
-- behind the 6-second rule (never two messages to one phone from one number within 6 s).

CREATE TABLE campaign_number_leases (
  official_number_id integer PRIMARY KEY REFERENCES official_numbers(id) ON DELETE CASCADE,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- "<hostname>:<pid>:<random>" of the holding process
  owner_id text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The share of simulated sandbox sends that end failed (0 to 1).
ALTER TABLE businesses ADD COLUMN sandbox_failure_rate numeric(4, 3) NOT NULL DEFAULT 0.05
  CHECK (sandbox_failure_rate BETWEEN 0 AND 1);

CREATE INDEX campaign_recipients_pair ON campaign_recipients (official_number_id, phone, claimed_at DESC) WHERE claimed_at IS NOT NULL;
-- rows left `sending` (the reconciliation sweep) and rows waiting for a retry
CREATE INDEX campaign_recipients_sending ON campaign_recipients (claimed_at) WHERE state = 'sending';
