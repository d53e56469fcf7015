-- E-mail campaigns (spec 3 §2-§5, §7 "E-mail service"; issue 16; docs/architecture.md "E-mail campaigns"):
-- verified senders, campaigns with one row per CSV line, the sandbox mailbox and the dispatch lease.

-- A sender address of the company; usable in campaigns once the signed link e-mailed to it was confirmed.
CREATE TABLE email_senders (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  email_address text NOT NULL,
  verified_at timestamptz,
  verification_sent_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  UNIQUE (company_id, email_address)
);

-- status MISSING_FILE → (PUT file) ANALYZING → ACTIVE | ERROR; ACTIVE → (trigger) TRIGGERING → RUNNING → FINISHED.
-- subject, html and from_address are copied from the template and sender at creation (a later edit of the
-- template does not change a campaign already analysed against it).
CREATE TABLE email_campaigns (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  title text NOT NULL,
  status text NOT NULL DEFAULT 'MISSING_FILE',
  source smallint NOT NULL DEFAULT 2 CHECK (source IN (1, 2)),
  cost_center_id integer NOT NULL,
  -- a deleted sender leaves the campaign (its from_address was copied)
  sender_id integer,
  template_id integer NOT NULL,
  from_address text NOT NULL,
  subject text NOT NULL,
  html text NOT NULL,
  file_name text NOT NULL DEFAULT '',
  file_path text NOT NULL DEFAULT '',
  encoding text NOT NULL DEFAULT '',
  error_message text NOT NULL DEFAULT '',
  -- the CSV's variable column names (lower case), filling {{name}} in subject and HTML
  variables text[] NOT NULL DEFAULT '{}',
  count_total integer NOT NULL DEFAULT 0,
  count_invalid integer NOT NULL DEFAULT 0,
  analysed_rows integer NOT NULL DEFAULT 0,
  count_emails_sent integer NOT NULL DEFAULT 0,
  count_emails_delivered integer NOT NULL DEFAULT 0,
  count_emails_opened integer NOT NULL DEFAULT 0,
  count_emails_clicked integer NOT NULL DEFAULT 0,
  count_emails_not_delivered integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, cost_center_id) REFERENCES cost_centers (company_id, id),
  FOREIGN KEY (company_id, sender_id) REFERENCES email_senders (company_id, id) ON DELETE SET NULL (sender_id),
  FOREIGN KEY (company_id, template_id) REFERENCES email_templates (company_id, id)
);
CREATE INDEX email_campaigns_list ON email_campaigns (company_id, created_at DESC, id DESC);
CREATE INDEX email_campaigns_active ON email_campaigns (id) WHERE status IN ('TRIGGERING', 'RUNNING');

-- One row per CSV data line. state: invalid (with the reason) | pending | sending (claimed; never sent
-- again) | delivered (the SMTP server accepted it) | not_delivered (5xx, retries used up, or a bounce) |
-- unconfirmed (left sending by a crash; never re-sent).
CREATE TABLE email_campaign_recipients (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  campaign_id integer NOT NULL,
  row_number integer NOT NULL,
  email text NOT NULL,
  phone text NOT NULL DEFAULT '',
  cpf text NOT NULL DEFAULT '',
  variables text[] NOT NULL DEFAULT '{}',
  state text NOT NULL CHECK (state IN ('invalid', 'pending', 'sending', 'delivered', 'not_delivered', 'unconfirmed')),
  invalid_reason text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  claimed_at timestamptz,
  sent_at timestamptz,
  smtp_response text NOT NULL DEFAULT '',
  error_code integer,
  error_message text NOT NULL DEFAULT '',
  opened_at timestamptz,
  clicked_at timestamptz,
  unsubscribed_at timestamptz,
  bounced_at timestamptz,
  FOREIGN KEY (company_id, campaign_id) REFERENCES email_campaigns (company_id, id) ON DELETE CASCADE
);
CREATE INDEX email_recipients_campaign ON email_campaign_recipients (campaign_id, row_number);
CREATE INDEX email_recipients_pending ON email_campaign_recipients (campaign_id, id) WHERE state = 'pending';
CREATE INDEX email_recipients_sending ON email_campaign_recipients (claimed_at) WHERE state = 'sending';

-- The sandbox mailbox: what the sandbox driver "sent" (company_id NULL = the platform's own mail,
-- e.g. password reset, shown to super admins).
CREATE TABLE email_sandbox_messages (
  id bigserial PRIMARY KEY,
  company_id integer REFERENCES companies(id) ON DELETE CASCADE,
  from_address text NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  html text NOT NULL DEFAULT '',
  text text NOT NULL DEFAULT '',
  headers jsonb NOT NULL DEFAULT '{}',
  message_id text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_sandbox_recent ON email_sandbox_messages (company_id, id DESC);

-- One process at a time paces the platform's SMTP rate (EMAIL_RATE_PER_SECOND); others take over when
-- its lease expires.
CREATE TABLE email_dispatch_lease (
  name text PRIMARY KEY,
  owner_id text NOT NULL,
  expires_at timestamptz NOT NULL
);
