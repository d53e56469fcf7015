-- Foundation: plans, companies, users, settings, helps, queues, refresh tokens.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE plans (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  users integer NOT NULL DEFAULT 0 CHECK (users >= 0),
  connections integer NOT NULL DEFAULT 0 CHECK (connections >= 0),
  queues integer NOT NULL DEFAULT 0 CHECK (queues >= 0),
  value numeric(12,2) NOT NULL DEFAULT 0 CHECK (value >= 0),
  use_campaigns boolean NOT NULL DEFAULT true,
  use_schedules boolean NOT NULL DEFAULT true,
  use_internal_chat boolean NOT NULL DEFAULT true,
  use_external_api boolean NOT NULL DEFAULT true,
  use_kanban boolean NOT NULL DEFAULT true,
  use_open_ai boolean NOT NULL DEFAULT true,
  use_integrations boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE companies (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  email citext NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  plan_id integer NOT NULL REFERENCES plans(id),
  status boolean NOT NULL DEFAULT true,
  campaigns_enabled boolean NOT NULL DEFAULT true,
  due_date date,
  recurrence text NOT NULL DEFAULT 'MENSAL',
  bi_url text NOT NULL DEFAULT '',
  billing_name text NOT NULL DEFAULT '',
  document text NOT NULL DEFAULT '',
  schedules jsonb NOT NULL DEFAULT '[]'::jsonb,
  is_platform boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX companies_one_platform ON companies (is_platform) WHERE is_platform;

CREATE TABLE queues (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  color text NOT NULL,
  greeting_message text NOT NULL DEFAULT '',
  out_of_hours_message text NOT NULL DEFAULT '',
  order_queue integer,
  schedules jsonb NOT NULL DEFAULT '[]'::jsonb,
  integration_id integer,
  prompt_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, name),
  UNIQUE (company_id, color),
  UNIQUE (company_id, id)
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  email citext NOT NULL UNIQUE,
  password_hash text NOT NULL,
  profile text NOT NULL DEFAULT 'user' CHECK (profile IN ('admin', 'supervisor', 'user')),
  super boolean NOT NULL DEFAULT false,
  all_ticket text NOT NULL DEFAULT 'disable' CHECK (all_ticket IN ('enable', 'disable')),
  whatsapp_id integer,
  online boolean NOT NULL DEFAULT false,
  token_version integer NOT NULL DEFAULT 0,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX users_company_name ON users (company_id, name);

CREATE TABLE user_queues (
  company_id integer NOT NULL,
  user_id integer NOT NULL,
  queue_id integer NOT NULL,
  PRIMARY KEY (company_id, user_id, queue_id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, queue_id) REFERENCES queues (company_id, id) ON DELETE CASCADE
);
CREATE INDEX user_queues_queue ON user_queues (company_id, queue_id);

CREATE TABLE settings (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, key)
);

-- Help videos are platform-wide (managed by super administrators).
CREATE TABLE helps (
  id serial PRIMARY KEY,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  video text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE CASCADE
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (company_id, user_id);
