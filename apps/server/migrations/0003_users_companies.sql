-- A user's default connection must be a connection of the same company; deleting it clears the default.
UPDATE users u SET whatsapp_id = NULL
 WHERE whatsapp_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM whatsapps w WHERE w.company_id = u.company_id AND w.id = u.whatsapp_id);
ALTER TABLE users
  ADD CONSTRAINT users_default_whatsapp_fk FOREIGN KEY (company_id, whatsapp_id)
  REFERENCES whatsapps (company_id, id) ON DELETE SET NULL (whatsapp_id);

-- "Is this plan in use?" before deleting a plan.
CREATE INDEX companies_plan ON companies (plan_id);
