-- A refresh token presented again after its reuse grace ends its session (docs/architecture.md
-- "Sessions"); the audit log of the user's company records it.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check
  CHECK (action IN ('login.succeeded', 'login.failed', 'user.profile_changed', 'contact.exported', 'contact.erased', 'opt_out.added', 'opt_out.removed',
                    'session.token_reused'));
