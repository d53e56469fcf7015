-- Step 5 of the Citus distribution plan (docs/deployment.md "Scaling out"): the platform's own rows of
-- audit_log (a failed sign-in with an e-mail no user has) and email_sandbox_messages (mail sent without
-- a company, such as a password reset code) belong to the platform company instead of to none, so
-- company_id is NOT NULL in every tenant table and their keys lead with it. Those rows were in no
-- company's audit log; now the platform's administrators see them in theirs.

DO $$
DECLARE
  platform integer := (SELECT id FROM companies WHERE is_platform);
BEGIN
  IF platform IS NULL AND (EXISTS (SELECT 1 FROM audit_log WHERE company_id IS NULL) OR EXISTS (SELECT 1 FROM email_sandbox_messages WHERE company_id IS NULL)) THEN
    RAISE EXCEPTION 'rows without a company and no platform company to give them to (companies.is_platform)';
  END IF;
  UPDATE audit_log SET company_id = platform WHERE company_id IS NULL;
  UPDATE email_sandbox_messages SET company_id = platform WHERE company_id IS NULL;
END $$;

ALTER TABLE audit_log
  ALTER COLUMN company_id SET NOT NULL,
  DROP CONSTRAINT audit_log_pkey,
  ADD CONSTRAINT audit_log_pkey PRIMARY KEY (company_id, id);
ALTER TABLE email_sandbox_messages
  ALTER COLUMN company_id SET NOT NULL,
  DROP CONSTRAINT email_sandbox_messages_pkey,
  ADD CONSTRAINT email_sandbox_messages_pkey PRIMARY KEY (company_id, id);
