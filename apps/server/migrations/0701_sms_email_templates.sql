-- SMS and e-mail templates (spec 3 §2-§3, §5; issue 16). SMS content carries {{variable}} placeholders
-- filled per recipient from the campaign file; e-mail content is HTML, only ever shown in sandboxed
-- iframes or sent as e-mail.
CREATE TABLE sms_templates (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  title text NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  modified_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX sms_templates_recent ON sms_templates (company_id, modified_at DESC, id DESC);

CREATE TABLE email_templates (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  title text NOT NULL,
  subject text NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX email_templates_recent ON email_templates (company_id, updated_at DESC, id DESC);
