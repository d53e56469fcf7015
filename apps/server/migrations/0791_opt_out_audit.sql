-- The opt-out list corrected by hand (docs/architecture.md "Opt-out list"): adding and removing an entry
-- are audited, since a removal lets campaigns write again to someone who asked to stop.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check
  CHECK (action IN ('login.succeeded', 'login.failed', 'user.profile_changed', 'contact.exported', 'contact.erased', 'opt_out.added', 'opt_out.removed'));
