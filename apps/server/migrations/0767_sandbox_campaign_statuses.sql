-- The sandbox business's simulated template statuses (sent → delivered → read, or sent → failed) are
-- owed by rows, not by timers of the process that sent them: a restart, or another process, gives
-- each step when it falls due, as the SMS sandbox does with its receipts (0720, receipt_due_at).
ALTER TABLE sandbox_messages
  ADD COLUMN simulated_steps text[],
  ADD COLUMN simulated_next smallint NOT NULL DEFAULT 0,
  ADD COLUMN simulated_due_at timestamptz,
  ADD COLUMN simulated_row_id bigint;
CREATE INDEX sandbox_messages_simulated_due ON sandbox_messages (simulated_due_at) WHERE simulated_due_at IS NOT NULL;
