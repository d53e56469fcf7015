-- Steps 2 and 3 of the Citus distribution plan (docs/deployment.md "Scaling out"): the primary keys and
-- the composite unique keys of tenant tables lead with company_id, so a distributed PostgreSQL can
-- enforce them inside one company's shard (it only enforces uniqueness that includes the distribution
-- column). Ids come from sequences, so (company_id, id) is as unique as id was; a child row and its
-- parent are of the same company already, so the composite keys hold for existing rows.
--
-- Where queries still look a row up without company_id, the old key columns stay indexed as plain
-- (non-unique) indexes: (id) of every table keyed by id (jobs, webhooks and dispatchers read rows by
-- id), and the lease, campaign, chat, reminder and ticket-tag keys read by their parent alone. The
-- others (Baileys keys, provider ids, conversation windows, ratings, templates, webhook bodies, ...)
-- are only read with company_id, which the new keys serve. Dropping the rest is the later step where
-- every query carries company_id (Citus routes a query to one shard only then).
--
-- The new keys are built and the foreign keys revalidated while writes wait: 2.9 s (with 0797) on a
-- database of 1M messages and 100k tickets, contacts and cycles (docs/deployment.md "Upgrades with
-- migrations"); plan a large upgrade for a quiet hour.
--
-- Left for later steps: the globally unique lookups (users.email, token hashes, chats/tickets uuids,
-- Pix txid, short-link codes, provider ids of SMS) and the rows of audit_log and
-- email_sandbox_messages without a company (0797).

-- connection_owners gains company_id: a lease row is of its connection's company
ALTER TABLE connection_owners ADD COLUMN company_id integer;
UPDATE connection_owners o SET company_id = w.company_id FROM whatsapps w WHERE w.id = o.whatsapp_id;
DELETE FROM connection_owners WHERE company_id IS NULL;
ALTER TABLE connection_owners
  ALTER COLUMN company_id SET NOT NULL,
  ADD CONSTRAINT connection_owners_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies (id) ON DELETE CASCADE,
  DROP CONSTRAINT connection_owners_whatsapp_id_fkey,
  ADD CONSTRAINT connection_owners_whatsapp_id_fkey FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE CASCADE,
  DROP CONSTRAINT connection_owners_pkey,
  ADD CONSTRAINT connection_owners_pkey PRIMARY KEY (company_id, whatsapp_id);
CREATE INDEX connection_owners_whatsapp ON connection_owners (whatsapp_id);

-- Every tenant table keyed by (id) alone, with a NOT NULL company_id: primary key (company_id, id),
-- replacing the UNIQUE (company_id, id) that composite foreign keys referenced; (id) stays indexed.
-- The foreign keys that reference a table are dropped while its keys change and added back as they
-- were (they name (company_id, id), which the new primary key serves).
DO $$
DECLARE
  t text;
  pkey text;
  fk record;
  restore text[] := '{}';
  stmt text;
BEGIN
  FOR t, pkey IN
    SELECT c.relname, k.conname
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND a.attnotnull AND NOT a.attisdropped
     WHERE k.contype = 'p' AND c.relnamespace = 'public'::regnamespace
       AND k.conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = c.oid AND attname = 'id')]
     ORDER BY 1
  LOOP
    FOR fk IN SELECT conname, conrelid::regclass AS child, pg_get_constraintdef(oid) AS def
                FROM pg_constraint WHERE contype = 'f' AND confrelid = t::regclass
    LOOP
      restore := restore || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.child, fk.conname, fk.def);
      EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.child, fk.conname);
    END LOOP;
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT IF EXISTS %I', t, t || '_company_id_id_key');
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I, ADD CONSTRAINT %I PRIMARY KEY (company_id, id)', t, pkey, pkey);
    EXECUTE format('CREATE INDEX %I ON %I (id)', t || '_id', t);
  END LOOP;
  FOREACH stmt IN ARRAY restore LOOP
    EXECUTE stmt;
  END LOOP;
END $$;

-- Composite keys under a tenant parent: company_id first; a plain index on the old columns where a
-- query reads them without company_id.
ALTER TABLE baileys_auth DROP CONSTRAINT baileys_auth_pkey, ADD CONSTRAINT baileys_auth_pkey PRIMARY KEY (company_id, whatsapp_id, key);
ALTER TABLE baileys_messages DROP CONSTRAINT baileys_messages_pkey, ADD CONSTRAINT baileys_messages_pkey PRIMARY KEY (company_id, whatsapp_id, provider_id);
ALTER TABLE campaign_number_leases DROP CONSTRAINT campaign_number_leases_pkey, ADD CONSTRAINT campaign_number_leases_pkey PRIMARY KEY (company_id, official_number_id);
CREATE INDEX campaign_number_leases_number ON campaign_number_leases (official_number_id);
ALTER TABLE campaign_numbers DROP CONSTRAINT campaign_numbers_pkey, ADD CONSTRAINT campaign_numbers_pkey PRIMARY KEY (company_id, campaign_id, official_number_id);
CREATE INDEX campaign_numbers_campaign ON campaign_numbers (campaign_id, official_number_id);
ALTER TABLE campaign_templates DROP CONSTRAINT campaign_templates_pkey, ADD CONSTRAINT campaign_templates_pkey PRIMARY KEY (company_id, campaign_id, template_id);
CREATE INDEX campaign_templates_campaign ON campaign_templates (campaign_id, template_id);
ALTER TABLE chat_users DROP CONSTRAINT chat_users_pkey, ADD CONSTRAINT chat_users_pkey PRIMARY KEY (company_id, chat_id, user_id);
CREATE INDEX chat_users_chat ON chat_users (chat_id, user_id);
ALTER TABLE invoice_reminders DROP CONSTRAINT invoice_reminders_pkey, ADD CONSTRAINT invoice_reminders_pkey PRIMARY KEY (company_id, invoice_id, kind);
CREATE INDEX invoice_reminders_invoice ON invoice_reminders (invoice_id, kind);
ALTER TABLE official_conversations DROP CONSTRAINT official_conversations_pkey, ADD CONSTRAINT official_conversations_pkey PRIMARY KEY (company_id, whatsapp_id, contact_number);
ALTER TABLE official_message_statuses DROP CONSTRAINT official_message_statuses_pkey, ADD CONSTRAINT official_message_statuses_pkey PRIMARY KEY (company_id, whatsapp_id, provider_id);
ALTER TABLE queue_integration_sessions DROP CONSTRAINT queue_integration_sessions_pkey, ADD CONSTRAINT queue_integration_sessions_pkey PRIMARY KEY (company_id, ticket_id);
ALTER TABLE ticket_tags DROP CONSTRAINT ticket_tags_pkey, ADD CONSTRAINT ticket_tags_pkey PRIMARY KEY (company_id, ticket_id, tag_id);
CREATE INDEX ticket_tags_ticket ON ticket_tags (ticket_id, tag_id);
ALTER TABLE pix_payments DROP CONSTRAINT pix_payments_pkey, ADD CONSTRAINT pix_payments_pkey PRIMARY KEY (company_id, end_to_end_id);

ALTER TABLE campaign_recipients DROP CONSTRAINT campaign_recipients_campaign_id_row_number_key, ADD UNIQUE (company_id, campaign_id, row_number);
DROP INDEX messages_provider;
CREATE UNIQUE INDEX messages_provider ON messages (company_id, whatsapp_id, provider_id) WHERE provider_id IS NOT NULL;
ALTER TABLE official_numbers DROP CONSTRAINT official_numbers_whatsapp_id_key, ADD UNIQUE (company_id, whatsapp_id),
  DROP CONSTRAINT official_numbers_business_id_phone_number_id_key, ADD UNIQUE (company_id, business_id, phone_number_id);
ALTER TABLE sandbox_messages DROP CONSTRAINT sandbox_messages_whatsapp_id_provider_id_key, ADD UNIQUE (company_id, whatsapp_id, provider_id);
ALTER TABLE ticket_ratings DROP CONSTRAINT ticket_ratings_ticket_id_key, ADD UNIQUE (company_id, ticket_id);
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_business_id_body_sha256_key, ADD UNIQUE (company_id, business_id, body_sha256);
ALTER TABLE whatsapp_templates DROP CONSTRAINT whatsapp_templates_business_id_name_language_key, ADD UNIQUE (company_id, business_id, name, language);
