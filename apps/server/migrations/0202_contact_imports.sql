-- Contact CSV imports: small files run during the request; large ones are stored here (decoded text)
-- and processed by a durable job that reports progress. The text is cleared when the import ends.
CREATE TABLE contact_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id integer,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  file_name text NOT NULL DEFAULT '',
  content text,
  total integer NOT NULL DEFAULT 0,
  processed integer NOT NULL DEFAULT 0,
  imported integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  rejected integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]'::jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id)
);
CREATE INDEX contact_imports_company ON contact_imports (company_id, created_at DESC);
