-- AI prompts (spec 3 §2-§3, §7, §9): an OpenAI-compatible model answers a queue's or a connection's
-- customers until a human is needed. `api_key` and `voice_key` are sealed at rest (core/secret-box.ts);
-- the API shows them masked. queues.prompt_id / whatsapps.prompt_id point here (no foreign key there:
-- those tables belong to other domains; deleting a prompt clears them, and the runtime reads a prompt
-- only within the ticket's company).
CREATE TABLE prompts (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  prompt text NOT NULL,
  api_key text NOT NULL,
  base_url text NOT NULL DEFAULT 'https://api.openai.com/v1',
  model text NOT NULL DEFAULT 'gpt-4o-mini',
  voice text NOT NULL DEFAULT 'texto',
  voice_key text NOT NULL DEFAULT '',
  voice_region text NOT NULL DEFAULT '',
  max_tokens integer NOT NULL DEFAULT 100,
  temperature numeric(3, 2) NOT NULL DEFAULT 1,
  max_messages integer NOT NULL DEFAULT 10,
  queue_id integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, queue_id) REFERENCES queues (company_id, id) ON DELETE CASCADE
);
CREATE INDEX prompts_company ON prompts (company_id, name);

-- true once the prompt handed the ticket to a human (asked for, or a provider error): the prompt
-- stays silent for the rest of this ticket.
ALTER TABLE tickets ADD COLUMN prompt_handoff boolean NOT NULL DEFAULT false;
