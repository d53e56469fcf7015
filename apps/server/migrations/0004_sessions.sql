-- Server-side sessions (issue #9): every access token names its session (`sid`), checked on each
-- request and socket, so logout, a login elsewhere, a password change or reset, a demotion, the
-- user's deletion or the company's deactivation end it at once. A refresh token belongs to one session.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  -- logout, login_elsewhere, password_reset, password_changed, demoted, company_inactive, company_expired
  revoked_reason text,
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE CASCADE
);
CREATE INDEX sessions_live_user ON sessions (company_id, user_id) WHERE revoked_at IS NULL;

-- Tokens issued before sessions existed belong to none and are spent: their users log in again.
UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL;
ALTER TABLE refresh_tokens ADD COLUMN session_id uuid REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
