-- WhatsApp template campaigns (spec 3 §2-§9): cost centers (shared by the three channels), campaigns,
-- one row per CSV recipient with its state, the numbers a campaign sends through, and the
-- business-initiated conversations that count against a portfolio's 24-hour messaging limit.
-- Design: docs/architecture.md "Campaigns".

CREATE TABLE cost_centers (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX cost_centers_company ON cost_centers (company_id, lower(name));

-- The built-in sandbox business: numbers are sandbox connections, templates are seeded approved ones,
-- and sends arrive on the sandbox phone with simulated statuses (docs/architecture.md "Campaigns").
ALTER TABLE businesses ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
-- Messages per second this number may send in campaigns (Meta: 80 by default, up to 1,000).
ALTER TABLE official_numbers ADD COLUMN throughput_per_second integer NOT NULL DEFAULT 80
  CHECK (throughput_per_second BETWEEN 1 AND 1000);

CREATE TABLE campaigns (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'ANALYZING'
    CHECK (status IN ('ANALYZING', 'READY', 'ERROR', 'RUNNING', 'WAITING', 'PAUSED', 'FINISHED', 'CANCELLED')),
  source text NOT NULL DEFAULT 'WEB' CHECK (source IN ('WEB', 'API')),
  cost_center_id integer NOT NULL,
  business_id integer NOT NULL,
  queue_id integer,
  integration_id integer,
  user_id integer,
  error_message text NOT NULL DEFAULT '',
  -- the number's or the account's violation text while it blocks sending (shown as a badge)
  account_violation text NOT NULL DEFAULT '',
  -- the uploaded CSV under DATA_DIR (removed once analysed); its name and size as uploaded
  file_path text NOT NULL DEFAULT '',
  file_name text NOT NULL DEFAULT '',
  file_size bigint NOT NULL DEFAULT 0,
  encoding text NOT NULL DEFAULT '',
  -- counters kept from the recipient rows (see docs/architecture.md "Campaigns: counters")
  count_total integer NOT NULL DEFAULT 0,
  count_invalid integer NOT NULL DEFAULT 0,
  count_processed integer NOT NULL DEFAULT 0,
  count_sent integer NOT NULL DEFAULT 0,
  count_delivered integer NOT NULL DEFAULT 0,
  count_read integer NOT NULL DEFAULT 0,
  count_failed integer NOT NULL DEFAULT 0,
  count_expired integer NOT NULL DEFAULT 0,
  count_replied integer NOT NULL DEFAULT 0,
  -- analysis progress (rows read so far) while ANALYZING
  analysed_rows integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, cost_center_id) REFERENCES cost_centers (company_id, id),
  FOREIGN KEY (company_id, business_id) REFERENCES businesses (company_id, id),
  FOREIGN KEY (company_id, queue_id) REFERENCES queues (company_id, id) ON DELETE SET NULL (queue_id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id)
);
CREATE INDEX campaigns_company ON campaigns (company_id, created_at DESC, id DESC);
CREATE INDEX campaigns_active ON campaigns (status) WHERE status IN ('RUNNING', 'WAITING', 'ANALYZING');

-- The templates a campaign rotates through (recipient n gets template n mod count, in position order).
CREATE TABLE campaign_templates (
  company_id integer NOT NULL,
  campaign_id integer NOT NULL,
  template_id integer NOT NULL,
  position smallint NOT NULL,
  PRIMARY KEY (campaign_id, template_id),
  FOREIGN KEY (company_id, campaign_id) REFERENCES campaigns (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, template_id) REFERENCES whatsapp_templates (company_id, id)
);

-- The numbers a campaign sends through (all active numbers of its business unless chosen).
CREATE TABLE campaign_numbers (
  company_id integer NOT NULL,
  campaign_id integer NOT NULL,
  official_number_id integer NOT NULL,
  PRIMARY KEY (campaign_id, official_number_id),
  FOREIGN KEY (company_id, campaign_id) REFERENCES campaigns (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, official_number_id) REFERENCES official_numbers (company_id, id) ON DELETE CASCADE
);

-- One row per CSV data line. state:
--   invalid   refused by the analysis (invalid_reason says why: number, duplicate, columns, ...)
--   pending   waiting to be sent
--   sending   claimed by a dispatcher; its send request may or may not have reached Meta
--   sent / delivered / read   Meta accepted it, then the status webhooks
--   failed    Meta refused it or reported failure (error_code, error_message), or the outcome was never confirmed
--   expired   not delivered within its time-to-live
-- replied_at is set by the recipient's first reply, independently of state.
CREATE TABLE campaign_recipients (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL,
  campaign_id integer NOT NULL,
  row_number integer NOT NULL,
  -- digits as normalised (E.164 without +); the raw cell when invalid
  phone text NOT NULL,
  cpf text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  variables text[] NOT NULL DEFAULT '{}',
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('invalid', 'pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'expired')),
  invalid_reason text NOT NULL DEFAULT '',
  template_id integer,
  official_number_id integer,
  -- Meta's message id (wamid) once accepted
  provider_id text,
  attempts smallint NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  error_code integer,
  error_message text NOT NULL DEFAULT '',
  claimed_at timestamptz,
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  replied_at timestamptz,
  UNIQUE (campaign_id, row_number),
  FOREIGN KEY (company_id, campaign_id) REFERENCES campaigns (company_id, id) ON DELETE CASCADE
);
CREATE INDEX campaign_recipients_todo ON campaign_recipients (campaign_id, id) WHERE state IN ('pending', 'sending');
CREATE INDEX campaign_recipients_provider ON campaign_recipients (provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX campaign_recipients_reply ON campaign_recipients (official_number_id, phone, sent_at DESC) WHERE sent_at IS NOT NULL;

-- Business-initiated conversations opened (a template sent outside the customer-service window): the
-- portfolio may open at most its tier's count of unique users in any moving 24 hours.
CREATE TABLE business_initiated_sends (
  company_id integer NOT NULL,
  business_id integer NOT NULL,
  phone text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (company_id, business_id) REFERENCES businesses (company_id, id) ON DELETE CASCADE
);
CREATE INDEX business_initiated_sends_window ON business_initiated_sends (business_id, sent_at, phone);
