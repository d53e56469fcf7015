-- The dashboard's leads under a tag filter sum contact_rollup over the contact tag sets holding one of
-- the tags. Its only index led with the day, so each set walked the whole range of days: at a real
-- company's diversity (784 contact tag sets at 100k contacts, 317 holding the most used tag) that was
-- 18k index pages and 112 ms. By set first, each set reads its own days: 4.8 ms.
CREATE INDEX contact_rollup_tagset ON contact_rollup (company_id, tagset_id, day) INCLUDE (n);
