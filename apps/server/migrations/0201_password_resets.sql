-- Password reset codes (3-bulk §4): 6 digits, stored as an HMAC-SHA-256, valid 15 minutes, single use,
-- burnt after 5 wrong attempts. A new request supersedes the user's earlier codes.
CREATE TABLE password_resets (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE CASCADE
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at DESC);
