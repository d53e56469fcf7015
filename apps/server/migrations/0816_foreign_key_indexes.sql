-- An index for every foreign key that had none. Deleting (or clearing) a parent row makes PostgreSQL
-- look for the rows that point at it: `... WHERE company_id = $1 AND quoted_msg_id = $2` for each
-- deleted message. Without an index on the referencing columns each look is a scan of the whole child
-- table, once per deleted row: deleting a ticket of 2,000 messages scanned `messages` 2,000 times for
-- quotes and `tickets` 2,000 times for last messages (over 11 minutes on a large database; 13 s beside
-- 50,000 messages in test/deletes-at-size.timing.test.ts). Deleting a user, a connection, a queue or a
-- campaign's cost center, template or sender scanned each table that names it.
--
-- The rule (test/foreign-key-indexes.test.ts holds every key of the schema to it): some btree index
-- has the key's columns as its leading columns, in any order; or, for a key (company_id, x_id), x_id
-- alone leads (the parent's id is unique across companies: one identity sequence per table, so
-- company_id adds nothing to the lookup; messages_ticket (ticket_id, id) and the recipients' campaign
-- indexes already serve that way, and a second copy leading with company_id would only cost writes on
-- the busiest tables). A partial index counts when its predicate is `x_id IS NOT NULL`: the lookup's
-- `x_id = $2` implies it.
--
-- The new indexes lead with company_id (every tenant table's indexes do, and the queries that filter by
-- these columns carry it). Three are partial, on nullable keys of large tables that are NULL on most
-- rows: a quote (few messages quote), a message's agent (the customer's messages have none) and a
-- ticket's transfer queue.
--
-- IF NOT EXISTS: on a large database the operator may build the `messages` and `tickets` ones ahead of
-- the upgrade with CREATE INDEX CONCURRENTLY under these names (writes go on meanwhile; here, inside
-- the migration's transaction, writes to each table wait while its index is built: docs/deployment.md
-- "Upgrades with migrations"); the migration then skips them.

-- messages: quotes, agents and connections
CREATE INDEX IF NOT EXISTS messages_quoted_msg ON messages (company_id, quoted_msg_id) WHERE quoted_msg_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS messages_user ON messages (company_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS messages_whatsapp ON messages (company_id, whatsapp_id);

-- tickets: the last message (checked for every deleted message), the connection, the transfer queue
CREATE INDEX IF NOT EXISTS tickets_last_message ON tickets (company_id, last_message_id);
CREATE INDEX IF NOT EXISTS tickets_whatsapp ON tickets (company_id, whatsapp_id);
CREATE INDEX IF NOT EXISTS tickets_transfer_queue ON tickets (company_id, transfer_queue_id) WHERE transfer_queue_id IS NOT NULL;

-- a user's rows (deleting a user clears or deletes them)
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (company_id, user_id);
CREATE INDEX IF NOT EXISTS ticket_notes_user ON ticket_notes (company_id, user_id);
CREATE INDEX IF NOT EXISTS schedules_user ON schedules (company_id, user_id);
CREATE INDEX IF NOT EXISTS contact_imports_user ON contact_imports (company_id, user_id);
CREATE INDEX IF NOT EXISTS campaigns_user ON campaigns (company_id, user_id);
CREATE INDEX IF NOT EXISTS chats_owner ON chats (company_id, owner_id);
CREATE INDEX IF NOT EXISTS chat_messages_sender ON chat_messages (company_id, sender_id);
CREATE INDEX IF NOT EXISTS sent_emails_user ON sent_emails (company_id, user_id);
CREATE INDEX IF NOT EXISTS sms_campaigns_user ON sms_campaigns (company_id, user_id);
CREATE INDEX IF NOT EXISTS email_campaigns_user ON email_campaigns (company_id, user_id);

-- a connection's rows
CREATE INDEX IF NOT EXISTS users_default_whatsapp ON users (company_id, whatsapp_id);
CREATE INDEX IF NOT EXISTS schedules_whatsapp ON schedules (company_id, whatsapp_id);

-- a ticket's schedules
CREATE INDEX IF NOT EXISTS schedules_ticket ON schedules (company_id, ticket_id);

-- a queue's rows
CREATE INDEX IF NOT EXISTS whatsapp_queues_queue ON whatsapp_queues (company_id, queue_id);
CREATE INDEX IF NOT EXISTS official_numbers_transfer_queue ON official_numbers (company_id, transfer_queue_id);
CREATE INDEX IF NOT EXISTS campaigns_queue ON campaigns (company_id, queue_id);
CREATE INDEX IF NOT EXISTS prompts_queue ON prompts (company_id, queue_id);

-- campaigns' parents: business, cost centers, templates, senders, numbers, integrations
CREATE INDEX IF NOT EXISTS campaigns_business ON campaigns (company_id, business_id);
CREATE INDEX IF NOT EXISTS campaigns_cost_center ON campaigns (company_id, cost_center_id);
CREATE INDEX IF NOT EXISTS campaign_templates_template ON campaign_templates (company_id, template_id);
CREATE INDEX IF NOT EXISTS campaign_numbers_official_number ON campaign_numbers (company_id, official_number_id);
CREATE INDEX IF NOT EXISTS sms_campaigns_cost_center ON sms_campaigns (company_id, cost_center_id);
CREATE INDEX IF NOT EXISTS sms_campaigns_template ON sms_campaigns (company_id, template_id);
CREATE INDEX IF NOT EXISTS sms_short_links_campaign ON sms_short_links (company_id, campaign_id);
CREATE INDEX IF NOT EXISTS email_campaigns_cost_center ON email_campaigns (company_id, cost_center_id);
CREATE INDEX IF NOT EXISTS email_campaigns_sender ON email_campaigns (company_id, sender_id);
CREATE INDEX IF NOT EXISTS email_campaigns_template ON email_campaigns (company_id, template_id);
CREATE INDEX IF NOT EXISTS queue_integration_sessions_integration ON queue_integration_sessions (company_id, integration_id);

-- the sign-up settings' plan (a platform table: plans have no company)
CREATE INDEX IF NOT EXISTS signup_settings_plan ON signup_settings (plan_id);
