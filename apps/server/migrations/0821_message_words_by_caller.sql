-- A caller that stores many messages and then updates their tickets anyway (the inbound batch,
-- channels/inbound-batch.ts: last message, unread count) adds the messages' words in that same UPDATE:
-- it sets `atende.words_by_caller` for its transaction and this trigger leaves the words to it. One
-- new row version per ticket and delivery instead of two (the inbound path's dead tuples halved).
CREATE OR REPLACE FUNCTION tickets_add_message_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('atende.words_by_caller', true) = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE tickets t SET search_words = t.search_words || w.words
    FROM (SELECT ticket_id, message_search_words(string_agg(body, ' ')) AS words FROM new_messages GROUP BY ticket_id) w
   WHERE t.id = w.ticket_id AND w.words <> ''::tsvector;
  RETURN NULL;
END $$;
