-- Inbound routing and channel durability: the queue menu's state and the inactivity timer per ticket,
-- ratings, the send state of outgoing messages, and which server process runs each connection.

ALTER TABLE tickets
  -- when the queue menu was last sent (timeUseBotQueues restarts it after that many minutes)
  ADD COLUMN bot_menu_at timestamptz,
  -- the connection's expiresTicket: the ticket closes at this time unless a message moves it
  ADD COLUMN expires_at timestamptz,
  -- when the one queued expiry job of this ticket runs (null: none queued); a job that finds
  -- expires_at later than now queues the next one, so each ticket has at most one outstanding job
  ADD COLUMN expire_job_at timestamptz,
  -- a closed ticket whose rating message was sent: a 1-5 reply until then is its rating
  ADD COLUMN rating_until timestamptz;
CREATE INDEX tickets_awaiting_rating ON tickets (company_id, contact_id, whatsapp_id, id DESC) WHERE rating_until IS NOT NULL;

CREATE TABLE ticket_ratings (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  ticket_id integer NOT NULL,
  -- the agent who handled the ticket when it was closed
  user_id integer,
  rate smallint NOT NULL CHECK (rate BETWEEN 1 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (ticket_id),
  FOREIGN KEY (company_id, ticket_id) REFERENCES tickets (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE SET NULL (user_id)
);
CREATE INDEX ticket_ratings_company ON ticket_ratings (company_id, created_at);
CREATE INDEX ticket_ratings_user ON ticket_ratings (company_id, user_id, created_at);

-- Outgoing messages are stored before the driver is called:
--   pending  being sent by this process;  queued  waiting for the process that runs the connection;
--   sending  taken by that process;       sent    the driver accepted it (provider_id set);
--   failed   the driver refused it (send_error), or the process stopped while sending.
-- NULL for incoming messages and rows written before this migration.
ALTER TABLE messages
  ADD COLUMN send_status text CHECK (send_status IN ('pending', 'queued', 'sending', 'sent', 'failed')),
  ADD COLUMN send_error text;
CREATE INDEX messages_outbox ON messages (whatsapp_id, id) WHERE send_status = 'queued';
CREATE INDEX messages_in_flight ON messages (whatsapp_id, id) WHERE send_status IN ('pending', 'sending');

-- A connection's driver runs in exactly one server process: the holder of this lease, renewed every
-- 30 s; a lease not renewed for 90 s may be claimed by another process.
CREATE TABLE connection_owners (
  whatsapp_id integer PRIMARY KEY REFERENCES whatsapps(id) ON DELETE CASCADE,
  owner_id text NOT NULL,
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX connection_owners_owner ON connection_owners (owner_id);
