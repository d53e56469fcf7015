-- Queue integrations (spec 3 §3, domains/queue-integrations): bots (Typebot, n8n, webhook, Dialogflow)
-- that drive a ticket of a queue or connection until an agent takes it.
CREATE TABLE queue_integrations (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('dialogflow', 'n8n', 'webhook', 'typebot')),
  name text NOT NULL,
  project_name text NOT NULL DEFAULT '',
  -- Dialogflow's service-account key sealed with core/secret-box.ts ('' when none); never returned whole
  json_content_sealed text NOT NULL DEFAULT '',
  json_content_mask text NOT NULL DEFAULT '',
  language text NOT NULL DEFAULT 'pt-BR',
  url_n8n text NOT NULL DEFAULT '',
  typebot_slug text NOT NULL DEFAULT '',
  typebot_expires integer NOT NULL DEFAULT 1,
  typebot_delay_message integer NOT NULL DEFAULT 1000,
  typebot_keyword_finish text NOT NULL DEFAULT '',
  typebot_keyword_restart text NOT NULL DEFAULT '',
  typebot_unknown_message text NOT NULL DEFAULT '',
  typebot_restart_message text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_integrations_company ON queue_integrations (company_id, lower(name));

-- One bot conversation per ticket: the provider's session (Typebot sessionId, Dialogflow session
-- path), when it was last used (Typebot's typebotExpires counts from it) and the messages waiting to be
-- handed to the bot in arrival order (run by the durable job queue-integration.turn).
CREATE TABLE queue_integration_sessions (
  ticket_id integer PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  integration_id integer NOT NULL REFERENCES queue_integrations(id) ON DELETE CASCADE,
  session_id text,
  last_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_integration_sessions_company ON queue_integration_sessions (company_id);
