-- Announcements (spec 3 §2-§3, 1-core §2): notices the platform's super administrators write for every
-- user of every company, shown in the app bar. company_id is the author's company (the platform's);
-- who reads them is not scoped by it (like helps).
CREATE TABLE announcements (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  title text NOT NULL,
  text text NOT NULL,
  -- 1 high (red), 2 medium (orange), 3 low (grey)
  priority smallint NOT NULL DEFAULT 3 CHECK (priority IN (1, 2, 3)),
  status boolean NOT NULL DEFAULT true,
  media_path text,
  media_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX announcements_active ON announcements (priority, created_at DESC) WHERE status;

-- When the user last opened the app bar's announcements: the dot shows while an active announcement
-- was created or changed after it.
ALTER TABLE users ADD COLUMN announcements_seen_at timestamptz;
