-- The simple e-mail tool (spec 3 §2 'Simple e-mail tool', §3 'Sent e-mail'): one row per recipient.
-- `sender` holds the recipient, as the spec's field does. The row is written with its send job in one
-- transaction; the job claims it (claimed_at) before the SMTP call so a crash mid-send is reported as
-- failed rather than sent twice. The rows of the last hour are the company's sending budget.
CREATE TABLE sent_emails (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  sender text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  error text,
  claimed_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX sent_emails_recent ON sent_emails (company_id, created_at DESC, id DESC);
