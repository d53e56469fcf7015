-- Scheduled start of a WhatsApp campaign (spec 3 §2 calendar): the instant it starts by itself and the
-- pg-boss job that fires then (cancelled or ignored when the schedule is edited or removed).
ALTER TABLE campaigns
  ADD COLUMN scheduled_at timestamptz,
  ADD COLUMN schedule_job_id text;
CREATE INDEX campaigns_scheduled ON campaigns (company_id, scheduled_at) WHERE scheduled_at IS NOT NULL;
