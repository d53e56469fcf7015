-- Outgoing messages the provider refused for now (rate limits, Meta's temporary errors, network
-- failures) wait for another attempt instead of failing.
--   send_status 'retrying'  shown as pending; a durable job sends it again at next_attempt_at
--   send_attempts           attempts made so far (0 before the first one)
--   next_attempt_at         when the next attempt is due (send_status 'retrying' only)
--   send_template           a template message (name, language, components) as sent to the Cloud API,
--                           so an attempt after the first sends the same template
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_send_status_check;
ALTER TABLE messages
  ADD CONSTRAINT messages_send_status_check CHECK (send_status IN ('pending', 'queued', 'sending', 'retrying', 'sent', 'failed')),
  ADD COLUMN send_attempts smallint NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN send_template jsonb;
