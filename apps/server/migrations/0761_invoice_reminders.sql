-- Reminder e-mails of an open invoice (5 days before, 1 day before, overdue): each kind once.
CREATE TABLE invoice_reminders (
  company_id integer NOT NULL,
  invoice_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('due5', 'due1', 'overdue')),
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (invoice_id, kind),
  FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id) ON DELETE CASCADE
);
