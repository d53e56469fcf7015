-- Billing (issue #17): one invoice per company and period, Pix charges for them, and the payments
-- the PSP reported (each end-to-end id applied once).

CREATE TABLE invoices (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- the company's due date this invoice pays: the period key, one invoice per company and period
  due_date date NOT NULL,
  recurrence text NOT NULL,
  detail text NOT NULL,
  value numeric(12,2) NOT NULL CHECK (value > 0),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, due_date),
  UNIQUE (company_id, id)
);
CREATE INDEX invoices_company_due ON invoices (company_id, due_date DESC);

CREATE TABLE pix_charges (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  invoice_id integer NOT NULL,
  txid text NOT NULL UNIQUE CHECK (txid ~ '^[a-zA-Z0-9]{26,35}$'),
  amount numeric(12,2) NOT NULL CHECK (amount > 0),
  brcode text NOT NULL,
  status text NOT NULL DEFAULT 'ATIVA',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id) ON DELETE CASCADE
);
CREATE INDEX pix_charges_invoice ON pix_charges (company_id, invoice_id, created_at DESC);
CREATE INDEX pix_charges_active ON pix_charges (expires_at) WHERE status = 'ATIVA';

CREATE TABLE pix_payments (
  end_to_end_id text PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  invoice_id integer NOT NULL,
  txid text NOT NULL,
  amount numeric(12,2) NOT NULL,
  -- false when the amount did not cover the invoice (kept for the record, the invoice stays open)
  applied boolean NOT NULL,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The built-in sandbox PSP's own charges (development and tests), as a real PSP would hold them.
CREATE TABLE pix_sandbox_charges (
  txid text PRIMARY KEY,
  amount numeric(12,2) NOT NULL,
  chave text NOT NULL,
  status text NOT NULL DEFAULT 'ATIVA',
  end_to_end_id text,
  paid_amount numeric(12,2),
  paid_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The secret path segment of the PSP webhook URL, generated once per installation.
CREATE TABLE pix_webhook_secret (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  secret text NOT NULL
);
INSERT INTO pix_webhook_secret (secret) VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
