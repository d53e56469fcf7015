-- Ticket search: one tsvector per ticket with the words of all its messages and of its contact's name
-- and number (accents removed, lower case, each word once: positions stripped), GIN-indexed. A search
-- finds the matching tickets through it in one index probe whatever the number of messages, ordered
-- by ticket recency, instead of finding every matching message (the trigram index on message bodies,
-- dropped below) and every matching contact.
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent is STABLE (its dictionary could change); with the dictionary named it is safe to treat as
-- IMMUTABLE, which an expression used for stored search words needs
CREATE FUNCTION message_search_words(body text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT strip(to_tsvector('simple', public.unaccent('public.unaccent'::regdictionary, coalesce(body, '')))) $$;

-- a contact's words: its name, and its number as typed in full, without the country code and without
-- the area code too ("5511987654321", "11987654321", "987654321"), so the start of any of them finds it
CREATE FUNCTION contact_search_words(name text, number text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT message_search_words(concat_ws(' ', name, number, substr(number, 3), substr(number, 5))) $$;

ALTER TABLE tickets ADD COLUMN search_words tsvector NOT NULL DEFAULT ''::tsvector;

UPDATE tickets t
   SET search_words = contact_search_words(c.name, c.number)
                      || COALESCE((SELECT message_search_words(string_agg(m.body, ' ')) FROM messages m WHERE m.ticket_id = t.id), ''::tsvector)
  FROM contacts c
 WHERE c.id = t.contact_id;

CREATE INDEX tickets_search_words ON tickets USING gin (search_words);

-- New messages add their words to their ticket: once per INSERT statement (a webhook batch of many
-- messages is one UPDATE per ticket), whichever code path stored them.
CREATE FUNCTION tickets_add_message_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET search_words = t.search_words || w.words
    FROM (SELECT ticket_id, message_search_words(string_agg(body, ' ')) AS words FROM new_messages GROUP BY ticket_id) w
   WHERE t.id = w.ticket_id AND w.words <> ''::tsvector;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_search_words_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_messages FOR EACH STATEMENT EXECUTE FUNCTION tickets_add_message_words();

-- An edited message adds its new words (the old ones stay findable, as the edit history is)
CREATE FUNCTION tickets_add_edited_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET search_words = search_words || message_search_words(NEW.body) WHERE id = NEW.ticket_id;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_search_words_edit AFTER UPDATE OF body ON messages
  FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION tickets_add_edited_words();

-- A new ticket starts with its contact's words; a renamed (or renumbered) contact's tickets get the
-- new words (the old ones stay findable)
CREATE FUNCTION tickets_contact_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_words := NEW.search_words || (SELECT contact_search_words(c.name, c.number) FROM contacts c WHERE c.id = NEW.contact_id);
  RETURN NEW;
END $$;
CREATE TRIGGER tickets_search_words_contact BEFORE INSERT ON tickets FOR EACH ROW EXECUTE FUNCTION tickets_contact_words();

CREATE FUNCTION contacts_renamed_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET search_words = search_words || contact_search_words(NEW.name, NEW.number)
   WHERE company_id = NEW.company_id AND contact_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_search_words AFTER UPDATE OF name, number ON contacts
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.number IS DISTINCT FROM NEW.number) EXECUTE FUNCTION contacts_renamed_words();

DROP INDEX IF EXISTS messages_body_trgm;
