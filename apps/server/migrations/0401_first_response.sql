-- Reports (issue 13): the first agent answer of each ticket cycle, so first-response times are read
-- from ticket_traking alone and no report scans a company's messages.
--
-- first_response_at: the first message an agent sent from the app (messages.from_me with a user_id;
-- greetings, queue menus, bots, completion and rating messages are written without one) at or after the
-- cycle's queued_at. Set once, by a trigger on messages insert, on the ticket's current (last) cycle.

ALTER TABLE ticket_traking ADD COLUMN first_response_at timestamptz;

-- backfill: each cycle's first agent message between its queued_at and its end (finished, or open)
UPDATE ticket_traking tt SET first_response_at = m.first_at
  FROM (
    SELECT x.id, (SELECT min(msg.created_at) FROM messages msg
                   WHERE msg.ticket_id = x.ticket_id AND msg.company_id = x.company_id
                     AND msg.from_me AND msg.user_id IS NOT NULL
                     AND msg.created_at >= x.queued_at
                     AND (x.finished_at IS NULL OR msg.created_at <= x.finished_at)) AS first_at
      FROM ticket_traking x
  ) m
 WHERE m.id = tt.id AND m.first_at IS NOT NULL;

CREATE FUNCTION ticket_tracking_first_response() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_traking SET first_response_at = NEW.created_at
   WHERE id = (SELECT max(id) FROM ticket_traking WHERE company_id = NEW.company_id AND ticket_id = NEW.ticket_id)
     AND first_response_at IS NULL AND finished_at IS NULL AND NEW.created_at >= queued_at;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_first_response AFTER INSERT ON messages
  FOR EACH ROW WHEN (NEW.from_me AND NEW.user_id IS NOT NULL)
  EXECUTE FUNCTION ticket_tracking_first_response();

-- Each report figure is read on its own event: entered (queued_at, index of 0400), finished (0400),
-- first answered and rated (below), each a range scan of one company.
CREATE INDEX ticket_traking_first_response ON ticket_traking (company_id, first_response_at)
  INCLUDE (queued_at, user_id, queue_id, whatsapp_id, ticket_id) WHERE first_response_at IS NOT NULL;
CREATE INDEX ticket_traking_rated ON ticket_traking (company_id, rated_at)
  INCLUDE (rating, user_id, queue_id, whatsapp_id, ticket_id) WHERE rated_at IS NOT NULL;
