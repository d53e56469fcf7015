-- SMS campaigns (spec 3 §2-§9, issue 16; docs/architecture.md "SMS campaigns"): the campaign, one row
-- per CSV recipient with its state, the lease of the one process that sends (the provider account's
-- rate is global), the sandbox provider's messages, and the short links of the URL shortener.

CREATE TABLE sms_campaigns (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer,
  title text NOT NULL,
  status text NOT NULL DEFAULT 'MISSING_FILE'
    CHECK (status IN ('MISSING_FILE', 'ANALYZING', 'READY', 'SCHEDULED', 'RUNNING', 'PAUSED', 'FINISHED', 'CANCELLED', 'ERROR')),
  source text NOT NULL DEFAULT 'WEB' CHECK (source IN ('WEB', 'API')),
  cost_center_id integer NOT NULL,
  template_id integer NOT NULL,
  -- the template's text when the campaign was created: a later template edit does not change a campaign
  template_content text NOT NULL,
  -- [{ template_variable, file_index }]: which CSV column fills each {{variable}}
  matrix_variables jsonb NOT NULL DEFAULT '[]',
  contact_variable_index smallint NOT NULL DEFAULT 0,
  cpf_variable_index smallint NOT NULL DEFAULT 1,
  use_file boolean NOT NULL DEFAULT true,
  use_whitelist boolean NOT NULL DEFAULT false,
  use_blacklist_nexus boolean NOT NULL DEFAULT false,
  use_shortener_url boolean NOT NULL DEFAULT false,
  tags text[] NOT NULL DEFAULT '{}',
  -- daily sending window in the company's time zone, minutes after midnight (both or neither)
  start_minute smallint CHECK (start_minute BETWEEN 0 AND 1439),
  end_minute smallint CHECK (end_minute BETWEEN 0 AND 1439),
  scheduled_at timestamptz,
  schedule_job_id text,
  file_name text NOT NULL DEFAULT '',
  file_path text NOT NULL DEFAULT '',
  file_size bigint NOT NULL DEFAULT 0,
  encoding text NOT NULL DEFAULT '',
  error_message text NOT NULL DEFAULT '',
  account_violation text NOT NULL DEFAULT '',
  -- counters set from the recipient rows (docs/architecture.md "SMS campaigns: counters")
  count_total integer NOT NULL DEFAULT 0,
  count_invalid integer NOT NULL DEFAULT 0,
  count_triggered integer NOT NULL DEFAULT 0,
  count_delivered integer NOT NULL DEFAULT 0,
  count_not_delivered integer NOT NULL DEFAULT 0,
  count_processed integer NOT NULL DEFAULT 0,
  count_clicks integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  CHECK ((start_minute IS NULL) = (end_minute IS NULL)),
  FOREIGN KEY (company_id, cost_center_id) REFERENCES cost_centers (company_id, id),
  FOREIGN KEY (company_id, template_id) REFERENCES sms_templates (company_id, id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id)
);
CREATE INDEX sms_campaigns_company ON sms_campaigns (company_id, created_at DESC, id DESC);
CREATE INDEX sms_campaigns_running ON sms_campaigns (status) WHERE status = 'RUNNING';

-- state: invalid (never sent; reason), pending, sending (claimed, answer not recorded), sent
-- (accepted by the provider: triggered), delivered, failed (not delivered; error), skipped (opted out
-- after the analysis, or cancelled before its turn: never sent).
CREATE TABLE sms_campaign_recipients (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL,
  campaign_id integer NOT NULL,
  row_number integer NOT NULL,
  phone text NOT NULL,
  cpf text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  variables text[] NOT NULL DEFAULT '{}',
  state text NOT NULL CHECK (state IN ('invalid', 'pending', 'sending', 'sent', 'delivered', 'failed', 'skipped')),
  invalid_reason text NOT NULL DEFAULT '',
  body text,
  segments smallint,
  provider_id text,
  attempts smallint NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  claimed_at timestamptz,
  sent_at timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  -- a provider error code (Twilio's) and whether it is permanent (the blacklist option reads it)
  error_code integer,
  error_permanent boolean NOT NULL DEFAULT false,
  error_message text NOT NULL DEFAULT '',
  FOREIGN KEY (company_id, campaign_id) REFERENCES sms_campaigns (company_id, id) ON DELETE CASCADE
);
CREATE INDEX sms_recipients_campaign ON sms_campaign_recipients (campaign_id, state, id);
CREATE UNIQUE INDEX sms_recipients_provider ON sms_campaign_recipients (provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX sms_recipients_sending ON sms_campaign_recipients (claimed_at) WHERE state = 'sending';
CREATE INDEX sms_recipients_phone ON sms_campaign_recipients (company_id, phone);

-- One lease: the process holding it sends every SMS campaign (the provider account's rate is global).
CREATE TABLE sms_dispatch_lease (
  name text PRIMARY KEY,
  owner_id text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The sandbox provider: what it "sent", and the delivery receipt it owes at receipt_due_at (durable: a
-- restart delivers what was due).
CREATE TABLE sms_sandbox_messages (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  sid text NOT NULL UNIQUE,
  recipient_id bigint,
  to_number text NOT NULL,
  body text NOT NULL,
  segments smallint NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'delivered', 'undelivered')),
  -- the outcome decided at send time, applied when the receipt is due
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'undelivered')),
  receipt_due_at timestamptz,
  reply text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_sandbox_company ON sms_sandbox_messages (company_id, id DESC);
CREATE INDEX sms_sandbox_due ON sms_sandbox_messages (receipt_due_at) WHERE receipt_due_at IS NOT NULL;

-- URL shortener: one code per recipient and URL; the first click is recorded.
CREATE TABLE sms_short_links (
  code text PRIMARY KEY,
  company_id integer NOT NULL,
  campaign_id integer NOT NULL,
  recipient_id bigint NOT NULL REFERENCES sms_campaign_recipients(id) ON DELETE CASCADE,
  url text NOT NULL,
  clicked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (company_id, campaign_id) REFERENCES sms_campaigns (company_id, id) ON DELETE CASCADE
);
CREATE INDEX sms_short_links_recipient ON sms_short_links (recipient_id);
