-- Step 1 of the Citus distribution plan (docs/deployment.md "Scaling out"): every foreign key between
-- tenant tables carries company_id, (company_id, x) REFERENCES parent (company_id, id), so that a
-- distributed PostgreSQL can enforce it inside one company's shard. Nine keys were single-column; a
-- row and its parent are of the same company already (every write is scoped by the token's company),
-- so the composite keys hold for existing rows. ON DELETE SET NULL names its column: the child's
-- company_id (NOT NULL) stays.
--
-- Four parents gain UNIQUE (company_id, id), which a composite key references. On a large `messages`
-- table this builds an index while writes wait (about a minute per 10M rows): plan the upgrade for a
-- quiet hour (docs/deployment.md "Upgrades with migrations").

ALTER TABLE sessions ADD CONSTRAINT sessions_company_id_id_key UNIQUE (company_id, id);
ALTER TABLE messages ADD CONSTRAINT messages_company_id_id_key UNIQUE (company_id, id);
ALTER TABLE queue_integrations ADD CONSTRAINT queue_integrations_company_id_id_key UNIQUE (company_id, id);
ALTER TABLE sms_campaign_recipients ADD CONSTRAINT sms_campaign_recipients_company_id_id_key UNIQUE (company_id, id);

ALTER TABLE refresh_tokens
  DROP CONSTRAINT refresh_tokens_session_id_fkey,
  ADD CONSTRAINT refresh_tokens_session_id_fkey FOREIGN KEY (company_id, session_id) REFERENCES sessions (company_id, id) ON DELETE CASCADE;

ALTER TABLE messages
  DROP CONSTRAINT messages_quoted_msg_id_fkey,
  ADD CONSTRAINT messages_quoted_msg_id_fkey FOREIGN KEY (company_id, quoted_msg_id) REFERENCES messages (company_id, id) ON DELETE SET NULL (quoted_msg_id);

ALTER TABLE tickets
  DROP CONSTRAINT tickets_last_message_id_fkey,
  ADD CONSTRAINT tickets_last_message_id_fkey FOREIGN KEY (company_id, last_message_id) REFERENCES messages (company_id, id) ON DELETE SET NULL (last_message_id);

ALTER TABLE campaign_number_leases
  DROP CONSTRAINT campaign_number_leases_official_number_id_fkey,
  ADD CONSTRAINT campaign_number_leases_official_number_id_fkey FOREIGN KEY (company_id, official_number_id) REFERENCES official_numbers (company_id, id) ON DELETE CASCADE;

ALTER TABLE queue_integration_sessions
  DROP CONSTRAINT queue_integration_sessions_ticket_id_fkey,
  ADD CONSTRAINT queue_integration_sessions_ticket_id_fkey FOREIGN KEY (company_id, ticket_id) REFERENCES tickets (company_id, id) ON DELETE CASCADE,
  DROP CONSTRAINT queue_integration_sessions_integration_id_fkey,
  ADD CONSTRAINT queue_integration_sessions_integration_id_fkey FOREIGN KEY (company_id, integration_id) REFERENCES queue_integrations (company_id, id) ON DELETE CASCADE;

ALTER TABLE sent_emails
  DROP CONSTRAINT sent_emails_user_id_fkey,
  ADD CONSTRAINT sent_emails_user_id_fkey FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id);

ALTER TABLE email_campaigns
  DROP CONSTRAINT email_campaigns_user_id_fkey,
  ADD CONSTRAINT email_campaigns_user_id_fkey FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id);

ALTER TABLE sms_short_links
  DROP CONSTRAINT sms_short_links_recipient_id_fkey,
  ADD CONSTRAINT sms_short_links_recipient_id_fkey FOREIGN KEY (company_id, recipient_id) REFERENCES sms_campaign_recipients (company_id, id) ON DELETE CASCADE;
