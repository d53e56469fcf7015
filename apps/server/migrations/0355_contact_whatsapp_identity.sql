-- How WhatsApp knows a contact, beside the stored phone number:
--   wa_id        the id WhatsApp itself uses for the number (Meta's `wa_id`, the JID's user part); for an
--                older Brazilian mobile it is the 8-digit form while `number` holds the current 9-digit one
--   wa_user_id   the business-scoped user id (BSUID, "BR.1502576394655843") of the official API; a contact
--                known only by it (a username user) keeps it in `number` too until a phone number arrives
ALTER TABLE contacts
  ADD COLUMN wa_id text,
  ADD COLUMN wa_user_id text;
CREATE UNIQUE INDEX contacts_wa_user_id ON contacts (company_id, wa_user_id) WHERE wa_user_id IS NOT NULL;

-- Brazilian mobiles stored in the 8-digit form move to the current form (the 8-digit one stays as
-- wa_id, so replies keep going where WhatsApp delivers them), unless the company already has the
-- 9-digit twin (then lookups find the twin first and the older row keeps its history as it is).
UPDATE contacts c
   SET wa_id = c.number,
       number = '55' || substr(c.number, 3, 2) || '9' || substr(c.number, 5)
 WHERE NOT c.is_group
   AND c.number ~ '^55[1-9][0-9][6-9][0-9]{7}$'
   AND NOT EXISTS (SELECT 1 FROM contacts t WHERE t.company_id = c.company_id
                      AND t.number = '55' || substr(c.number, 3, 2) || '9' || substr(c.number, 5));

UPDATE official_conversations o
   SET contact_number = '55' || substr(o.contact_number, 3, 2) || '9' || substr(o.contact_number, 5)
 WHERE o.contact_number ~ '^55[1-9][0-9][6-9][0-9]{7}$'
   AND NOT EXISTS (SELECT 1 FROM official_conversations t WHERE t.whatsapp_id = o.whatsapp_id
                      AND t.contact_number = '55' || substr(o.contact_number, 3, 2) || '9' || substr(o.contact_number, 5));
