-- The Baileys (unofficial WhatsApp) driver: the paired device's credentials and signal keys, and the
-- recent messages the library asks for again when a recipient's phone requests a retry.

-- One row per credential blob or signal key of a connection: key 'creds' or '{type}-{id}'
-- (e.g. 'pre-key-17', 'session-5511...', 'lid-mapping-1234_reverse'); value is JSON written with
-- Baileys' BufferJSON (Buffers as base64). Deleted on logout; a restart resumes from these rows.
CREATE TABLE baileys_auth (
  company_id integer NOT NULL,
  whatsapp_id integer NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (whatsapp_id, key),
  FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE CASCADE
);

-- Messages of the last days by provider id (protobuf bytes of proto.Message), for getMessage
-- (retry requests) and for quoting a message in a reply.
CREATE TABLE baileys_messages (
  company_id integer NOT NULL,
  whatsapp_id integer NOT NULL,
  provider_id text NOT NULL,
  remote_jid text NOT NULL,
  from_me boolean NOT NULL,
  participant text,
  message bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (whatsapp_id, provider_id),
  FOREIGN KEY (company_id, whatsapp_id) REFERENCES whatsapps (company_id, id) ON DELETE CASCADE
);
CREATE INDEX baileys_messages_created ON baileys_messages (created_at);
