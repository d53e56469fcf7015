-- Scheduled messages (2-administration): sent once at send_at by a durable job, through the contact's connection.
CREATE TABLE schedules (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  body text NOT NULL,
  send_at timestamptz NOT NULL,
  sent_at timestamptz,
  contact_id integer NOT NULL,
  whatsapp_id integer,
  user_id integer,
  ticket_id integer,
  status text NOT NULL DEFAULT 'PENDENTE' CHECK (status IN ('PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO')),
  error text,
  media_path text,
  media_name text,
  -- the pg-boss job queued for send_at (cancelled when send_at changes)
  job_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE SET NULL (whatsapp_id),
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id),
  FOREIGN KEY (company_id, ticket_id) REFERENCES tickets (company_id, id) ON DELETE SET NULL (ticket_id)
);
CREATE INDEX schedules_list ON schedules (company_id, send_at DESC, id DESC);
CREATE INDEX schedules_contact ON schedules (company_id, contact_id);
-- Recovery sweep: schedules whose job was never queued.
CREATE INDEX schedules_unsent ON schedules (send_at) WHERE sent_at IS NULL AND status IN ('PENDENTE', 'AGENDADA');
