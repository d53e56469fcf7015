-- Sign-up that can pay (billing): the trial a self-registered company gets and the plan the sign-up
-- form selects first, set by the super administrator; one row, the platform company's (rows of no
-- tenant belong to it, 0797). No row = the defaults (SIGNUP_TRIAL_DAYS_DEFAULT, no plan preselected).
CREATE TABLE signup_settings (
  company_id integer PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  trial_days integer NOT NULL CHECK (trial_days BETWEEN 0 AND 90),
  plan_id integer REFERENCES plans(id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The invoice e-mail: 'issued' is sent once per invoice when it is issued (by the hourly job or by
-- 'Assine Agora!'), with the signed link to its Pix page. Invoices issued before this migration count
-- as announced, so no old invoice is mailed now.
ALTER TABLE invoice_reminders DROP CONSTRAINT invoice_reminders_kind_check;
ALTER TABLE invoice_reminders ADD CONSTRAINT invoice_reminders_kind_check CHECK (kind IN ('issued', 'due5', 'due1', 'overdue'));
INSERT INTO invoice_reminders (company_id, invoice_id, kind) SELECT company_id, id, 'issued' FROM invoices ON CONFLICT DO NOTHING;
