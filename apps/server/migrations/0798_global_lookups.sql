-- Step 4 of the Citus distribution plan (docs/deployment.md "Scaling out"), the last one: the unique
-- keys that are not a company's.
--
-- Values that must stay unique platform-wide because they are looked up before the company is known
-- (a sign-in's e-mail, a refresh token, a connection's API token, a Pix txid from the PSP's webhook, a
-- short link's code) move their uniqueness to `global_keys` (kind, value) → company_id, a small table
-- that becomes a reference table under Citus. Triggers on the owning tables keep it, in the same
-- transaction as the row; a second row with a taken value fails with the same error the unique index
-- gave (SQLSTATE 23505 naming the same constraint), so the code sees no change. The owning table keeps
-- a plain index on the value for its lookups.
--
-- Values unique by construction and only read with their company (ticket and chat uuids, the sandbox
-- SMS ids) or unique per company by nature (an SMS provider's message id) become unique per company.

CREATE TABLE global_keys (
  kind text NOT NULL,
  value text NOT NULL,
  -- no foreign key: under Citus a reference table cannot reference a distributed one; the owning
  -- row's delete (also by a company's cascade) removes its key
  company_id integer NOT NULL,
  PRIMARY KEY (kind, value)
);

-- TG_ARGV: kind, column, the constraint a taken value is reported as, and 'lower' for a value
-- compared case-insensitively (citext). NULL and '' are no value (the old partial indexes).
CREATE FUNCTION global_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_value text;
  new_value text;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_value := nullif(to_jsonb(OLD) ->> TG_ARGV[1], ''); END IF;
  IF TG_OP <> 'DELETE' THEN new_value := nullif(to_jsonb(NEW) ->> TG_ARGV[1], ''); END IF;
  IF TG_ARGV[3] = 'lower' THEN
    old_value := lower(old_value);
    new_value := lower(new_value);
  END IF;
  IF old_value IS NOT DISTINCT FROM new_value THEN RETURN NULL; END IF;
  IF old_value IS NOT NULL THEN
    DELETE FROM global_keys WHERE kind = TG_ARGV[0] AND value = old_value;
  END IF;
  IF new_value IS NOT NULL THEN
    INSERT INTO global_keys (kind, value, company_id) VALUES (TG_ARGV[0], new_value, NEW.company_id) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'duplicate key value violates unique constraint "%"', TG_ARGV[2]
        USING ERRCODE = 'unique_violation', CONSTRAINT = TG_ARGV[2], TABLE = TG_TABLE_NAME,
              DETAIL = format('Key (%s)=(%s) already exists.', TG_ARGV[1], new_value);
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- existing values (unique already, so no conflict)
INSERT INTO global_keys (kind, value, company_id)
SELECT 'user_email', lower(email::text), company_id FROM users
UNION ALL SELECT 'refresh_token', token_hash, company_id FROM refresh_tokens
UNION ALL SELECT 'connection_token', token, company_id FROM whatsapps WHERE token <> ''
UNION ALL SELECT 'connection_token_hash', nullif(to_jsonb(w) ->> 'token_hash', ''), company_id FROM whatsapps w WHERE token_hash IS NOT NULL
UNION ALL SELECT 'pix_txid', txid, company_id FROM pix_charges
UNION ALL SELECT 'short_link', code, company_id FROM sms_short_links;

CREATE TRIGGER users_global_email AFTER INSERT OR DELETE OR UPDATE OF email ON users
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('user_email', 'email', 'users_email_key', 'lower');
CREATE TRIGGER refresh_tokens_global_hash AFTER INSERT OR DELETE OR UPDATE OF token_hash ON refresh_tokens
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('refresh_token', 'token_hash', 'refresh_tokens_token_hash_key', '');
CREATE TRIGGER whatsapps_global_token AFTER INSERT OR DELETE OR UPDATE OF token ON whatsapps
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('connection_token', 'token', 'whatsapps_token_key', '');
CREATE TRIGGER whatsapps_global_token_hash AFTER INSERT OR DELETE OR UPDATE OF token_hash ON whatsapps
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('connection_token_hash', 'token_hash', 'whatsapps_token_hash_key', '');
CREATE TRIGGER pix_charges_global_txid AFTER INSERT OR DELETE OR UPDATE OF txid ON pix_charges
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('pix_txid', 'txid', 'pix_charges_txid_key', '');
CREATE TRIGGER sms_short_links_global_code AFTER INSERT OR DELETE OR UPDATE OF code ON sms_short_links
  FOR EACH ROW EXECUTE FUNCTION global_key_sync('short_link', 'code', 'sms_short_links_pkey', '');

-- the owning tables: the value still indexed (plain) for its lookups; a short link's key leads with company_id
ALTER TABLE users DROP CONSTRAINT users_email_key;
CREATE INDEX users_email ON users (email);
ALTER TABLE refresh_tokens DROP CONSTRAINT refresh_tokens_token_hash_key;
CREATE INDEX refresh_tokens_token_hash ON refresh_tokens (token_hash);
DROP INDEX whatsapps_token_key;
CREATE INDEX whatsapps_token ON whatsapps (token) WHERE token <> '';
DROP INDEX whatsapps_token_hash_key;
CREATE INDEX whatsapps_token_hash ON whatsapps (token_hash) WHERE token_hash IS NOT NULL;
ALTER TABLE pix_charges DROP CONSTRAINT pix_charges_txid_key;
CREATE INDEX pix_charges_txid ON pix_charges (txid);
ALTER TABLE sms_short_links DROP CONSTRAINT sms_short_links_pkey, ADD CONSTRAINT sms_short_links_pkey PRIMARY KEY (company_id, code);
CREATE INDEX sms_short_links_code ON sms_short_links (code);

ALTER TABLE tickets DROP CONSTRAINT tickets_uuid_key, ADD UNIQUE (company_id, uuid);
ALTER TABLE chats DROP CONSTRAINT chats_uuid_key, ADD UNIQUE (company_id, uuid);
ALTER TABLE sms_sandbox_messages DROP CONSTRAINT sms_sandbox_messages_sid_key, ADD UNIQUE (company_id, sid);
DROP INDEX sms_recipients_provider;
CREATE UNIQUE INDEX sms_recipients_provider ON sms_campaign_recipients (company_id, provider_id) WHERE provider_id IS NOT NULL;
-- a provider's status callback names no company
CREATE INDEX sms_recipients_provider_lookup ON sms_campaign_recipients (provider_id) WHERE provider_id IS NOT NULL;
