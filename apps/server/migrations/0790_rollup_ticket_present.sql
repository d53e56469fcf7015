-- The ticket's present (its status now, the tags it carries now) as roll-up dimensions, so the two
-- questions the daily roll-up (0410-0412) could not answer leave the cycles: the dashboard under a
-- tag filter ("any of these tags": a ticket with two of them counts once, which per-tag sums cannot
-- give) and the reports' status filter (the ticket's current status). Both were read live: 1.3-1.9 s
-- and ~1 s for 90 days at 1M tickets.
--
-- * Tag sets: every ticket carries one set of tags (`ticket_tagsets`: a company's distinct sorted
--   arrays of tag ids; `tickets.tagset_id`, null for none), kept by statement triggers on
--   ticket_tags after locking the tickets' rows. "Any of tags X" = the sets whose tag_ids overlap X:
--   each ticket is in exactly one set, so nothing counts twice.
-- * A contact carries the union of its tickets' tags the same way (`contacts.tagset_id`): the
--   dashboard's leads under a tag filter are the new contacts with a ticket carrying one of the tags.
-- * Each cycle keeps a copy of its ticket's present (`ticket_traking.ticket_status`, `.tagset_id`):
--   written when the cycle is inserted, and on every cycle of the ticket when the ticket's status or
--   set changes. A cycle row then changes like a transfer changes it, and the roll-up trigger of
--   0410 appends its old row −1 and new row +1: the figures move between groups exactly.
-- * `ticket_rollup_present`: the counts of ticket_rollup per (day, status, tag set, agent, queue,
--   connection, origin); `ticket_rollup_present_hist`: duration histograms per (day, status, tag set)
--   and one dimension (whole, agent, queue, connection, origin). ticket_rollup keeps its smaller
--   groups for every read without these filters, so those reads cost what they did.
-- * `ticket_status_count` and `contact_rollup` gain the tag set: the current load and the leads
--   under a tag filter.
--
-- Concurrency. A cycle inserted outside its ticket's row lock does not happen: cycles are inserted
-- by the ticket's own triggers. A cycle updated by another path (a rating, a first response) while
-- the ticket's present changes: if the ticket's change commits first, the cycle's BEFORE trigger
-- (run after the cycle row is locked) reads it; otherwise the ticket's trigger waits for the cycle's
-- row and then rewrites the committed version.

CREATE TABLE ticket_tagsets (
  id serial,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  tag_ids integer[] NOT NULL,
  PRIMARY KEY (company_id, id),
  UNIQUE (company_id, tag_ids)
);

-- The id of a company's set of tags (sorted, distinct), created on first use; null for no tag.
CREATE FUNCTION ticket_tagset_id(p_company integer, p_tags integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  found integer;
BEGIN
  IF p_tags IS NULL OR cardinality(p_tags) = 0 THEN
    RETURN NULL;
  END IF;
  SELECT s.id INTO found FROM ticket_tagsets s WHERE s.company_id = p_company AND s.tag_ids = p_tags;
  IF found IS NULL THEN
    INSERT INTO ticket_tagsets (company_id, tag_ids) VALUES (p_company, p_tags)
      ON CONFLICT (company_id, tag_ids) DO NOTHING RETURNING id INTO found;
    IF found IS NULL THEN -- created meanwhile by another transaction (ON CONFLICT waited for it)
      SELECT s.id INTO found FROM ticket_tagsets s WHERE s.company_id = p_company AND s.tag_ids = p_tags;
    END IF;
  END IF;
  RETURN found;
END $$;

ALTER TABLE tickets ADD COLUMN tagset_id integer;
ALTER TABLE contacts ADD COLUMN tagset_id integer;
ALTER TABLE ticket_traking ADD COLUMN ticket_status text, ADD COLUMN tagset_id integer;

-- Sets the tag set of these tickets from their tags. The rows are locked first (in id order), so the
-- tags read below include a concurrent tagging of the same ticket that committed meanwhile.
CREATE FUNCTION ticket_tagset_refresh(p_tickets integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tickets t WHERE t.id = ANY (p_tickets) ORDER BY t.id FOR NO KEY UPDATE;
  UPDATE tickets t SET tagset_id = s.set_id
    FROM (SELECT t2.id,
                 -- by the primary key alone (ticket_id, tag_id): with company_id too, a table without statistics
                 -- yet (a first bulk tagging) got a BitmapAnd with the company's whole tag index per ticket
                 ticket_tagset_id(t2.company_id, ARRAY(SELECT g.tag_id FROM ticket_tags g WHERE g.ticket_id = t2.id ORDER BY g.tag_id)) AS set_id
            FROM tickets t2 WHERE t2.id = ANY (p_tickets)) s
   WHERE t.id = s.id AND t.tagset_id IS DISTINCT FROM s.set_id;
END $$;

-- Existing rows: sets of the tagged tickets and their contacts, the cycles' copies. Written before the
-- roll-up triggers below know the new columns; the roll-ups are rebuilt at the end.
UPDATE tickets t SET tagset_id = ticket_tagset_id(t.company_id, g.tags)
  FROM (SELECT ticket_id, array_agg(DISTINCT tag_id ORDER BY tag_id) AS tags FROM ticket_tags GROUP BY ticket_id) g
 WHERE t.id = g.ticket_id;
UPDATE contacts c SET tagset_id = ticket_tagset_id(c.company_id, u.tags)
  FROM (SELECT t.company_id, t.contact_id, array_agg(DISTINCT x.tag_id ORDER BY x.tag_id) AS tags
          FROM tickets t JOIN ticket_tagsets s ON s.company_id = t.company_id AND s.id = t.tagset_id
         CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
         GROUP BY t.company_id, t.contact_id) u
 WHERE c.company_id = u.company_id AND c.id = u.contact_id;
UPDATE ticket_traking tt SET ticket_status = t.status, tagset_id = t.tagset_id
  FROM tickets t WHERE t.id = tt.ticket_id AND (tt.ticket_status, tt.tagset_id) IS DISTINCT FROM (t.status, t.tagset_id);

-- The triggers that keep the sets and the cycles' copies from now on.
CREATE FUNCTION ticket_tags_set_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_tagset_refresh(ARRAY(SELECT DISTINCT n.ticket_id FROM added n));
  RETURN NULL;
END $$;
CREATE FUNCTION ticket_tags_set_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_tagset_refresh(ARRAY(SELECT DISTINCT o.ticket_id FROM removed o));
  RETURN NULL;
END $$;
CREATE FUNCTION ticket_tags_set_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_tagset_refresh(ARRAY(SELECT n.ticket_id FROM added n UNION SELECT o.ticket_id FROM removed o));
  RETURN NULL;
END $$;
CREATE TRIGGER ticket_tags_set_insert AFTER INSERT ON ticket_tags REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_set_inserted();
CREATE TRIGGER ticket_tags_set_delete AFTER DELETE ON ticket_tags REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_set_deleted();
CREATE TRIGGER ticket_tags_set_update AFTER UPDATE ON ticket_tags REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_set_updated();

-- A contact's set: the union of its tickets' tags (the contact's row locked first, as above).
CREATE FUNCTION contact_tagset_refresh(p_company integer, p_contact integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM contacts c WHERE c.company_id = p_company AND c.id = p_contact FOR NO KEY UPDATE;
  UPDATE contacts c SET tagset_id = x.set_id
    FROM (SELECT ticket_tagset_id(p_company, ARRAY(
            SELECT DISTINCT u.tag_id
              FROM tickets t JOIN ticket_tagsets s ON s.company_id = t.company_id AND s.id = t.tagset_id
             CROSS JOIN LATERAL unnest(s.tag_ids) AS u(tag_id)
             WHERE t.company_id = p_company AND t.contact_id = p_contact
             ORDER BY u.tag_id)) AS set_id) x
   WHERE c.company_id = p_company AND c.id = p_contact AND c.tagset_id IS DISTINCT FROM x.set_id;
END $$;

-- The ticket's present copied to its cycles, and its contact's set kept.
CREATE FUNCTION ticket_present_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.status, OLD.tagset_id) IS DISTINCT FROM (NEW.status, NEW.tagset_id) THEN
    UPDATE ticket_traking tt SET ticket_status = NEW.status, tagset_id = NEW.tagset_id
     WHERE tt.company_id = NEW.company_id AND tt.ticket_id = NEW.id
       AND (tt.ticket_status, tt.tagset_id) IS DISTINCT FROM (NEW.status, NEW.tagset_id);
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.tagset_id IS NOT NULL THEN
      PERFORM contact_tagset_refresh(OLD.company_id, OLD.contact_id);
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    IF NEW.tagset_id IS NOT NULL THEN
      PERFORM contact_tagset_refresh(NEW.company_id, NEW.contact_id);
    END IF;
  ELSIF OLD.tagset_id IS DISTINCT FROM NEW.tagset_id OR OLD.contact_id IS DISTINCT FROM NEW.contact_id THEN
    PERFORM contact_tagset_refresh(NEW.company_id, NEW.contact_id);
    IF OLD.contact_id IS DISTINCT FROM NEW.contact_id AND OLD.tagset_id IS NOT NULL THEN
      PERFORM contact_tagset_refresh(OLD.company_id, OLD.contact_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER tickets_present_insert_delete AFTER INSERT OR DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_present_changed();
CREATE TRIGGER tickets_present_update AFTER UPDATE OF status, tagset_id, contact_id ON tickets
  FOR EACH ROW WHEN ((OLD.status, OLD.tagset_id, OLD.contact_id) IS DISTINCT FROM (NEW.status, NEW.tagset_id, NEW.contact_id))
  EXECUTE FUNCTION ticket_present_changed();

CREATE FUNCTION ticket_traking_present() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t.status, t.tagset_id INTO NEW.ticket_status, NEW.tagset_id FROM tickets t WHERE t.id = NEW.ticket_id;
  RETURN NEW;
END $$;
CREATE TRIGGER ticket_traking_present BEFORE INSERT OR UPDATE OF ticket_id ON ticket_traking
  FOR EACH ROW EXECUTE FUNCTION ticket_traking_present();

-- ---------------------------------------------------------------------------------------------------
-- The roll-up tables of the present.

CREATE TABLE ticket_rollup_present (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  ticket_status text,
  tagset_id integer,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL,
  created integer NOT NULL DEFAULT 0,
  started integer NOT NULL DEFAULT 0,
  waited integer NOT NULL DEFAULT 0,
  wait_sum numeric NOT NULL DEFAULT 0,
  finished integer NOT NULL DEFAULT 0,
  support_n integer NOT NULL DEFAULT 0,
  support_sum numeric NOT NULL DEFAULT 0,
  answered integer NOT NULL DEFAULT 0,
  rated integer NOT NULL DEFAULT 0,
  r1 integer NOT NULL DEFAULT 0, r2 integer NOT NULL DEFAULT 0, r3 integer NOT NULL DEFAULT 0,
  r4 integer NOT NULL DEFAULT 0, r5 integer NOT NULL DEFAULT 0
);
-- the status filter reads by status, the tag filter by set: each a range scan of its own index
CREATE UNIQUE INDEX ticket_rollup_present_key
  ON ticket_rollup_present (company_id, ticket_status, day, tagset_id, user_id, queue_id, whatsapp_id, origin_from_me) NULLS NOT DISTINCT;
CREATE INDEX ticket_rollup_present_tagset ON ticket_rollup_present (company_id, tagset_id, day);

-- dim 0 whole (key null), 1 agent, 2 queue, 3 connection, 4 origin (1 ativo, 0 receptivo), as ticket_rollup_hist
CREATE TABLE ticket_rollup_present_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  ticket_status text,
  tagset_id integer,
  dim smallint NOT NULL,
  day date NOT NULL,
  metric smallint NOT NULL,
  key integer,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_present_hist_key
  ON ticket_rollup_present_hist (company_id, dim, ticket_status, day, tagset_id, metric, key, bucket) INCLUDE (n) NULLS NOT DISTINCT;
CREATE INDEX ticket_rollup_present_hist_tagset ON ticket_rollup_present_hist (company_id, dim, tagset_id, day) INCLUDE (ticket_status, metric, key, bucket, n);

ALTER TABLE ticket_rollup_delta ADD COLUMN ticket_status text, ADD COLUMN tagset_id integer;

CREATE OR REPLACE FUNCTION ticket_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                     user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
    VALUES (OLD.company_id, -1, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at,
      OLD.rated_at, OLD.rating, OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me, OLD.ticket_status, OLD.tagset_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                     user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
    VALUES (NEW.company_id, 1, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at,
      NEW.rated_at, NEW.rating, NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me, NEW.ticket_status, NEW.tagset_id);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER ticket_traking_rollup_update ON ticket_traking;
CREATE TRIGGER ticket_traking_rollup_update AFTER UPDATE ON ticket_traking
  FOR EACH ROW WHEN ((OLD.company_id, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating,
                      OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me, OLD.ticket_status, OLD.tagset_id)
                     IS DISTINCT FROM
                     (NEW.company_id, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating,
                      NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me, NEW.ticket_status, NEW.tagset_id))
  EXECUTE FUNCTION ticket_rollup_track();

-- contacts: the leads per day and set
ALTER TABLE contact_rollup DROP CONSTRAINT contact_rollup_pkey, ADD COLUMN tagset_id integer;
CREATE UNIQUE INDEX contact_rollup_key ON contact_rollup (company_id, day, tagset_id) NULLS NOT DISTINCT;
ALTER TABLE contact_rollup_delta ADD COLUMN tagset_id integer;

CREATE OR REPLACE FUNCTION contact_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND NOT OLD.is_group THEN
    INSERT INTO contact_rollup_delta (company_id, sign, created_at, tagset_id) VALUES (OLD.company_id, -1, OLD.created_at, OLD.tagset_id);
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.is_group THEN
    INSERT INTO contact_rollup_delta (company_id, sign, created_at, tagset_id) VALUES (NEW.company_id, 1, NEW.created_at, NEW.tagset_id);
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER contacts_rollup_update ON contacts;
CREATE TRIGGER contacts_rollup_update AFTER UPDATE OF company_id, created_at, is_group, tagset_id ON contacts
  FOR EACH ROW WHEN ((OLD.company_id, OLD.created_at, OLD.is_group, OLD.tagset_id) IS DISTINCT FROM (NEW.company_id, NEW.created_at, NEW.is_group, NEW.tagset_id))
  EXECUTE FUNCTION contact_rollup_track();

-- the current load per status and set
ALTER TABLE ticket_status_count DROP CONSTRAINT ticket_status_count_pkey, ADD COLUMN tagset_id integer;
CREATE UNIQUE INDEX ticket_status_count_key ON ticket_status_count (company_id, status, tagset_id) NULLS NOT DISTINCT;
ALTER TABLE ticket_status_delta ADD COLUMN tagset_id integer;

CREATE OR REPLACE FUNCTION ticket_status_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_status_delta (company_id, status, sign, tagset_id) VALUES (OLD.company_id, OLD.status, -1, OLD.tagset_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_status_delta (company_id, status, sign, tagset_id) VALUES (NEW.company_id, NEW.status, 1, NEW.tagset_id);
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER tickets_status_count_update ON tickets;
CREATE TRIGGER tickets_status_count_update AFTER UPDATE OF status, company_id, tagset_id ON tickets
  FOR EACH ROW WHEN ((OLD.company_id, OLD.status, OLD.tagset_id) IS DISTINCT FROM (NEW.company_id, NEW.status, NEW.tagset_id))
  EXECUTE FUNCTION ticket_status_track();

CREATE OR REPLACE FUNCTION ticket_status_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41002, p_company);
  WITH d AS (DELETE FROM ticket_status_delta WHERE company_id = p_company RETURNING *)
  INSERT INTO ticket_status_count AS c (company_id, status, tagset_id, n)
  SELECT p_company, d.status, d.tagset_id, sum(d.sign) FROM d GROUP BY d.status, d.tagset_id ORDER BY d.status, d.tagset_id
  ON CONFLICT (company_id, status, tagset_id) DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

CREATE OR REPLACE FUNCTION ticket_status_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41002, p_company);
  DELETE FROM ticket_status_count WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_status_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_status_count (company_id, status, tagset_id, n)
  SELECT p_company, t.status, t.tagset_id, count(*) FROM tickets t WHERE t.company_id = p_company GROUP BY t.status, t.tagset_id;
END $$;

-- ---------------------------------------------------------------------------------------------------
-- Compaction and rebuild, now filling the present tables too (the rest as 0410 wrote them).

CREATE OR REPLACE FUNCTION ticket_rollup_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  SELECT time_zone INTO tz FROM companies WHERE id = p_company;
  IF tz IS NULL THEN
    RETURN;
  END IF;
  WITH moving AS (DELETE FROM ticket_rollup_delta WHERE company_id = p_company RETURNING *),
  events AS (
    SELECT e.* FROM moving d
     CROSS JOIN LATERAL (
       SELECT (d.queued_at AT TIME ZONE tz)::date AS day, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              d.sign::int AS created, 0 AS started, 0 AS waited, 0::numeric AS wait_sum, 0 AS finished, 0 AS support_n, 0::numeric AS support_sum,
              0 AS answered, 0 AS rated, 0 AS r1, 0 AS r2, 0 AS r3, 0 AS r4, 0 AS r5
       UNION ALL
       SELECT (d.started_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, d.sign, CASE WHEN d.started_at > d.queued_at THEN d.sign ELSE 0 END,
              CASE WHEN d.started_at > d.queued_at THEN d.sign * extract(epoch FROM d.started_at - d.queued_at) ELSE 0 END,
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        WHERE d.started_at IS NOT NULL
       UNION ALL
       SELECT (d.finished_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, 0, 0, 0, d.sign, CASE WHEN d.started_at IS NOT NULL THEN d.sign ELSE 0 END,
              CASE WHEN d.started_at IS NOT NULL THEN d.sign * extract(epoch FROM d.finished_at - d.started_at) ELSE 0 END,
              0, 0, 0, 0, 0, 0, 0
        WHERE d.finished_at IS NOT NULL
       UNION ALL
       SELECT (d.first_response_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, 0, 0, 0, 0, 0, 0, d.sign, 0, 0, 0, 0, 0, 0
        WHERE d.first_response_at IS NOT NULL
       UNION ALL
       SELECT (d.rated_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, 0, 0, 0, 0, 0, 0, 0, d.sign,
              CASE WHEN d.rating = 1 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 2 THEN d.sign ELSE 0 END,
              CASE WHEN d.rating = 3 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 4 THEN d.sign ELSE 0 END,
              CASE WHEN d.rating = 5 THEN d.sign ELSE 0 END
        WHERE d.rated_at IS NOT NULL AND d.rating IS NOT NULL
     ) e
  ),
  durations AS (
  SELECT (d.first_response_at AT TIME ZONE tz)::date AS day, 1::smallint AS metric,
         ticket_rollup_bucket(extract(epoch FROM d.first_response_at - d.queued_at)) AS bucket, d.sign, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id
    FROM moving d WHERE d.first_response_at IS NOT NULL
  UNION ALL
  SELECT (d.finished_at AT TIME ZONE tz)::date, 2::smallint, ticket_rollup_bucket(extract(epoch FROM d.finished_at - d.queued_at)),
         d.sign, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id
    FROM moving d WHERE d.finished_at IS NOT NULL
  ),
  counts AS (
  INSERT INTO ticket_rollup AS r (company_id, day, user_id, queue_id, whatsapp_id, origin_from_me, created, started, waited, wait_sum,
                                  finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
  SELECT p_company, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me,
         sum(e.created), sum(e.started), sum(e.waited), sum(e.wait_sum), sum(e.finished), sum(e.support_n), sum(e.support_sum),
         sum(e.answered), sum(e.rated), sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
    FROM events e
   GROUP BY e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
   ORDER BY e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
  ON CONFLICT (company_id, day, user_id, queue_id, whatsapp_id, origin_from_me) DO UPDATE SET
    created = r.created + EXCLUDED.created, started = r.started + EXCLUDED.started, waited = r.waited + EXCLUDED.waited,
    wait_sum = r.wait_sum + EXCLUDED.wait_sum, finished = r.finished + EXCLUDED.finished, support_n = r.support_n + EXCLUDED.support_n,
    support_sum = r.support_sum + EXCLUDED.support_sum, answered = r.answered + EXCLUDED.answered, rated = r.rated + EXCLUDED.rated,
    r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3, r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  ),
  present_counts AS (
  INSERT INTO ticket_rollup_present AS r (company_id, day, ticket_status, tagset_id, user_id, queue_id, whatsapp_id, origin_from_me,
                                          created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
  SELECT p_company, e.day, e.ticket_status, e.tagset_id, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me,
         sum(e.created), sum(e.started), sum(e.waited), sum(e.wait_sum), sum(e.finished), sum(e.support_n), sum(e.support_sum),
         sum(e.answered), sum(e.rated), sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
    FROM events e
   GROUP BY e.ticket_status, e.day, e.tagset_id, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
   ORDER BY e.ticket_status, e.day, e.tagset_id, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
  ON CONFLICT (company_id, ticket_status, day, tagset_id, user_id, queue_id, whatsapp_id, origin_from_me) DO UPDATE SET
    created = r.created + EXCLUDED.created, started = r.started + EXCLUDED.started, waited = r.waited + EXCLUDED.waited,
    wait_sum = r.wait_sum + EXCLUDED.wait_sum, finished = r.finished + EXCLUDED.finished, support_n = r.support_n + EXCLUDED.support_n,
    support_sum = r.support_sum + EXCLUDED.support_sum, answered = r.answered + EXCLUDED.answered, rated = r.rated + EXCLUDED.rated,
    r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3, r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  ),
  per_group AS (
  INSERT INTO ticket_rollup_group_hist AS g (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
  SELECT p_company, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
    FROM durations v
   GROUP BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
   ORDER BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
  ON CONFLICT (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
  ),
  per_dim AS (
  INSERT INTO ticket_rollup_hist AS h (company_id, dim, day, metric, key, bucket, n)
  SELECT p_company, k.dim, v.day, v.metric, k.key, v.bucket, sum(v.sign)
    FROM durations v
   CROSS JOIN LATERAL (VALUES (0::smallint, NULL::integer), (1::smallint, v.user_id), (2::smallint, v.queue_id),
                              (3::smallint, v.whatsapp_id), (4::smallint, v.origin_from_me::integer)) k(dim, key)
   GROUP BY k.dim, v.day, v.metric, k.key, v.bucket
   ORDER BY k.dim, v.day, v.metric, k.key, v.bucket
  ON CONFLICT (company_id, dim, day, metric, key, bucket) DO UPDATE SET n = h.n + EXCLUDED.n
  )
  INSERT INTO ticket_rollup_present_hist AS h (company_id, ticket_status, tagset_id, dim, day, metric, key, bucket, n)
  SELECT p_company, v.ticket_status, v.tagset_id, k.dim, v.day, v.metric, k.key, v.bucket, sum(v.sign)
    FROM durations v
   CROSS JOIN LATERAL (VALUES (0::smallint, NULL::integer), (1::smallint, v.user_id), (2::smallint, v.queue_id),
                              (3::smallint, v.whatsapp_id), (4::smallint, v.origin_from_me::integer)) k(dim, key)
   GROUP BY k.dim, v.ticket_status, v.day, v.tagset_id, v.metric, k.key, v.bucket
   ORDER BY k.dim, v.ticket_status, v.day, v.tagset_id, v.metric, k.key, v.bucket
  ON CONFLICT (company_id, dim, ticket_status, day, tagset_id, metric, key, bucket) DO UPDATE SET n = h.n + EXCLUDED.n;

  WITH d AS (DELETE FROM contact_rollup_delta WHERE company_id = p_company RETURNING *)
  INSERT INTO contact_rollup AS c (company_id, day, tagset_id, n)
  SELECT p_company, (d.created_at AT TIME ZONE tz)::date, d.tagset_id, sum(d.sign) FROM d GROUP BY 2, 3 ORDER BY 2, 3
  ON CONFLICT (company_id, day, tagset_id) DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

CREATE OR REPLACE FUNCTION ticket_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  DELETE FROM ticket_rollup WHERE company_id = p_company;
  DELETE FROM ticket_rollup_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_group_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_hist WHERE company_id = p_company;
  DELETE FROM contact_rollup WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                   user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
  SELECT tt.company_id, 1, tt.queued_at, tt.started_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating,
         tt.user_id, tt.queue_id, tt.whatsapp_id, tt.origin_from_me, tt.ticket_status, tt.tagset_id
    FROM ticket_traking tt WHERE tt.company_id = p_company;
  WITH gone AS (DELETE FROM contact_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO contact_rollup_delta (company_id, sign, created_at, tagset_id)
  SELECT c.company_id, 1, c.created_at, c.tagset_id FROM contacts c
   WHERE c.company_id = p_company AND NOT c.is_group;
  PERFORM ticket_rollup_compact(p_company);
END $$;

SELECT ticket_rollup_rebuild(id), ticket_status_rebuild(id) FROM companies ORDER BY id;
