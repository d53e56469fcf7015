-- Tables several domains share: connections, contacts, tags, quick messages.
CREATE TABLE whatsapps (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  provider text NOT NULL DEFAULT 'sandbox' CHECK (provider IN ('sandbox', 'baileys', 'official')),
  status text NOT NULL DEFAULT 'DISCONNECTED',
  qrcode text NOT NULL DEFAULT '',
  retries integer NOT NULL DEFAULT 0,
  number text NOT NULL DEFAULT '',
  is_default boolean NOT NULL DEFAULT false,
  is_official boolean NOT NULL DEFAULT false,
  greeting_message text NOT NULL DEFAULT '',
  complation_message text NOT NULL DEFAULT '',
  out_of_hours_message text NOT NULL DEFAULT '',
  rating_message text NOT NULL DEFAULT '',
  transfer_queue_id integer,
  expires_ticket integer NOT NULL DEFAULT 0,
  expires_inactive_message text NOT NULL DEFAULT '',
  time_use_bot_queues integer NOT NULL DEFAULT 0,
  max_use_bot_queues integer NOT NULL DEFAULT 3,
  prompt_id integer,
  integration_id integer,
  token text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE UNIQUE INDEX whatsapps_one_default ON whatsapps (company_id) WHERE is_default;

CREATE TABLE whatsapp_queues (
  company_id integer NOT NULL,
  whatsapp_id integer NOT NULL,
  queue_id integer NOT NULL,
  PRIMARY KEY (company_id, whatsapp_id, queue_id),
  FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, queue_id) REFERENCES queues (company_id, id) ON DELETE CASCADE
);

CREATE TABLE contacts (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  number text NOT NULL,
  email text NOT NULL DEFAULT '',
  document text NOT NULL DEFAULT '',
  profile_pic_url text NOT NULL DEFAULT '',
  is_group boolean NOT NULL DEFAULT false,
  extra_info jsonb NOT NULL DEFAULT '[]'::jsonb,
  whatsapp_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, number),
  UNIQUE (company_id, id)
);
CREATE INDEX contacts_company_name ON contacts (company_id, lower(name), id);
CREATE INDEX contacts_name_trgm ON contacts USING gin (lower(name) gin_trgm_ops);
CREATE INDEX contacts_number_trgm ON contacts USING gin (number gin_trgm_ops);

CREATE TABLE tags (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  color text NOT NULL DEFAULT '#5C59A0',
  kanban integer NOT NULL DEFAULT 0 CHECK (kanban IN (0, 1)),
  user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, name),
  UNIQUE (company_id, id)
);

CREATE TABLE quick_messages (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer,
  shortcode text NOT NULL,
  message text NOT NULL DEFAULT '',
  geral boolean NOT NULL DEFAULT true,
  media_path text,
  media_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id)
);
CREATE INDEX quick_messages_company_shortcode ON quick_messages (company_id, shortcode);
