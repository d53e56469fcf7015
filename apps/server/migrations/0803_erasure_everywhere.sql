-- A message whose text and media were erased at its contact's request (LGPD): the row stays for the
-- reports' counts; the web app shows a placeholder instead of asking for the file.
ALTER TABLE messages ADD COLUMN erased_at timestamptz;

-- Raw Cloud API deliveries are kept only for the company's webhookRetentionDays (docs/settings.md):
-- the nightly purge deletes by reception time.
CREATE INDEX webhook_events_received ON webhook_events (company_id, received_at);
