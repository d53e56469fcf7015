-- An edited message adds its new words to its ticket (0105), one UPDATE of the ticket per edited
-- message. An erasure empties thousands of messages in one statement, and each emptied message
-- updated its ticket once more: 2,000 updates of one ticket row in one transaction, each walking the
-- versions the previous ones left (an erasure of 10,000 messages took 19-27 s, almost all of it here).
-- An empty body has no words to add, so the trigger now skips it; the erasure rebuilds the tickets'
-- words itself (contact-data/repository.ts).
DROP TRIGGER messages_search_words_edit ON messages;
CREATE TRIGGER messages_search_words_edit AFTER UPDATE OF body ON messages
  FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body AND NEW.body <> '') EXECUTE FUNCTION tickets_add_edited_words();
