-- POST /upload (spec 2-administration §7): files a company's administrators upload from the queue
-- dialog. The bytes live in core/storage under the company's own key prefix; this row says whose the
-- file is, so GET /upload/{id} serves it to that company only (another company's id is "not found").
CREATE TABLE uploads (
  company_id integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  id bigint GENERATED ALWAYS AS IDENTITY,
  storage_key text NOT NULL,
  file_name text NOT NULL,
  mimetype text NOT NULL,
  size integer NOT NULL CHECK (size > 0),
  user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX uploads_id ON uploads (id);
