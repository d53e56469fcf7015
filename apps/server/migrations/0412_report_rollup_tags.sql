-- The daily roll-up per tag (issue 13 item 6): the dashboard's tag counts, the reports' breakdown by
-- tag and their tag filter, without joining 90 days of cycles to the tickets' tags per request
-- (0.8-3 s at 1M tickets with every third one tagged).
--
-- A cycle counts under each tag its ticket carries NOW (the live queries join ticket_tags as it is), so
-- the per-tag figures change when a cycle changes AND when a tag is put on or taken off a ticket:
--   * a row trigger on ticket_traking appends the changed cycle, old −1 and new +1, once per tag of its
--     ticket, to ticket_rollup_tag_delta;
--   * a row trigger on ticket_tags appends each cycle of the ticket, +1 with the tag put on, −1 with
--     the tag taken off.
-- The two must see each other's committed changes (a tag put on while a cycle is inserted, in two
-- transactions, must count that cycle once): both triggers first lock the ticket's row (FOR NO KEY
-- UPDATE, as an update of the ticket does; a row lock, so a statement tagging 300k tickets does not
-- fill the lock table as 300k advisory locks did), and each query after it sees what the other
-- committed. A deleted
-- ticket is taken off by a BEFORE DELETE trigger on tickets, while its cycles and tags still exist:
-- the cascades that then delete them run their AFTER triggers only at the end of the statement
-- (PostgreSQL defers the triggers of foreign-key actions), when neither side sees the other any more.
-- ticket_tag_rollup_compact folds the deltas in (every read, the minute sweep), as 0410 does;
-- ticket_tag_rollup_rebuild recomputes a company (time zone change, bulk loads).

CREATE TABLE ticket_rollup_tag (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  tag_id integer NOT NULL,
  created integer NOT NULL DEFAULT 0,
  finished integer NOT NULL DEFAULT 0,
  answered integer NOT NULL DEFAULT 0,
  rated integer NOT NULL DEFAULT 0,
  r1 integer NOT NULL DEFAULT 0, r2 integer NOT NULL DEFAULT 0, r3 integer NOT NULL DEFAULT 0,
  r4 integer NOT NULL DEFAULT 0, r5 integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, day, tag_id)
);

-- metric 1 first response, 2 resolution; buckets as in ticket_rollup_hist (0410)
CREATE TABLE ticket_rollup_tag_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  metric smallint NOT NULL,
  tag_id integer NOT NULL,
  bucket integer NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (company_id, day, metric, tag_id, bucket)
);
CREATE INDEX ticket_rollup_tag_hist_tag ON ticket_rollup_tag_hist (company_id, tag_id, day) INCLUDE (metric, bucket, n);

CREATE TABLE ticket_rollup_tag_delta (
  company_id integer NOT NULL,
  tag_id integer NOT NULL,
  sign smallint NOT NULL,
  queued_at timestamptz NOT NULL,
  finished_at timestamptz,
  first_response_at timestamptz,
  rated_at timestamptz,
  rating smallint
);
CREATE INDEX ticket_rollup_tag_delta_company ON ticket_rollup_tag_delta (company_id);

CREATE FUNCTION ticket_tag_rollup_cycle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tickets t WHERE t.id = COALESCE(NEW.ticket_id, OLD.ticket_id) FOR NO KEY UPDATE;
  IF TG_OP = 'UPDATE' AND OLD.ticket_id <> NEW.ticket_id THEN
    PERFORM 1 FROM tickets t WHERE t.id = OLD.ticket_id FOR NO KEY UPDATE;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_tag_delta
    SELECT OLD.company_id, g.tag_id, -1, OLD.queued_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating
      FROM ticket_tags g WHERE g.ticket_id = OLD.ticket_id AND g.company_id = OLD.company_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_tag_delta
    SELECT NEW.company_id, g.tag_id, 1, NEW.queued_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating
      FROM ticket_tags g WHERE g.ticket_id = NEW.ticket_id AND g.company_id = NEW.company_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ticket_traking_tag_rollup_insert_delete AFTER INSERT OR DELETE ON ticket_traking
  FOR EACH ROW EXECUTE FUNCTION ticket_tag_rollup_cycle();
CREATE TRIGGER ticket_traking_tag_rollup_update AFTER UPDATE ON ticket_traking
  FOR EACH ROW WHEN ((OLD.company_id, OLD.ticket_id, OLD.queued_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating)
                     IS DISTINCT FROM
                     (NEW.company_id, NEW.ticket_id, NEW.queued_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating))
  EXECUTE FUNCTION ticket_tag_rollup_cycle();

CREATE FUNCTION ticket_tag_rollup_tagging() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tickets t WHERE t.id = COALESCE(NEW.ticket_id, OLD.ticket_id) FOR NO KEY UPDATE;
  IF TG_OP = 'UPDATE' AND OLD.ticket_id <> NEW.ticket_id THEN
    PERFORM 1 FROM tickets t WHERE t.id = OLD.ticket_id FOR NO KEY UPDATE;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_tag_delta
    SELECT tt.company_id, OLD.tag_id, -1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating
      FROM ticket_traking tt WHERE tt.company_id = OLD.company_id AND tt.ticket_id = OLD.ticket_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_tag_delta
    SELECT tt.company_id, NEW.tag_id, 1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating
      FROM ticket_traking tt WHERE tt.company_id = NEW.company_id AND tt.ticket_id = NEW.ticket_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ticket_tags_rollup_insert_delete AFTER INSERT OR DELETE ON ticket_tags
  FOR EACH ROW EXECUTE FUNCTION ticket_tag_rollup_tagging();
CREATE TRIGGER ticket_tags_rollup_update AFTER UPDATE ON ticket_tags
  FOR EACH ROW WHEN ((OLD.company_id, OLD.ticket_id, OLD.tag_id) IS DISTINCT FROM (NEW.company_id, NEW.ticket_id, NEW.tag_id))
  EXECUTE FUNCTION ticket_tag_rollup_tagging();

CREATE FUNCTION ticket_tag_rollup_ticket_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- the row being deleted is locked already
  INSERT INTO ticket_rollup_tag_delta
  SELECT tt.company_id, g.tag_id, -1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating
    FROM ticket_traking tt JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id
   WHERE tt.company_id = OLD.company_id AND tt.ticket_id = OLD.id;
  RETURN OLD;
END $$;

CREATE TRIGGER tickets_tag_rollup_delete BEFORE DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_tag_rollup_ticket_deleted();

CREATE FUNCTION ticket_tag_rollup_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
BEGIN
  PERFORM pg_advisory_xact_lock(41004, p_company);
  SELECT time_zone INTO tz FROM companies WHERE id = p_company;
  IF tz IS NULL THEN
    RETURN;
  END IF;
  WITH moving AS (DELETE FROM ticket_rollup_tag_delta WHERE company_id = p_company RETURNING *),
  counts AS (
    INSERT INTO ticket_rollup_tag AS r (company_id, day, tag_id, created, finished, answered, rated, r1, r2, r3, r4, r5)
    SELECT p_company, e.day, e.tag_id, sum(e.created), sum(e.finished), sum(e.answered), sum(e.rated),
           sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
      FROM moving d
     CROSS JOIN LATERAL (
       SELECT (d.queued_at AT TIME ZONE tz)::date AS day, d.tag_id, d.sign AS created, 0 AS finished, 0 AS answered, 0 AS rated,
              0 AS r1, 0 AS r2, 0 AS r3, 0 AS r4, 0 AS r5
       UNION ALL
       SELECT (d.finished_at AT TIME ZONE tz)::date, d.tag_id, 0, d.sign, 0, 0, 0, 0, 0, 0, 0 WHERE d.finished_at IS NOT NULL
       UNION ALL
       SELECT (d.first_response_at AT TIME ZONE tz)::date, d.tag_id, 0, 0, d.sign, 0, 0, 0, 0, 0, 0 WHERE d.first_response_at IS NOT NULL
       UNION ALL
       SELECT (d.rated_at AT TIME ZONE tz)::date, d.tag_id, 0, 0, 0, d.sign,
              CASE WHEN d.rating = 1 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 2 THEN d.sign ELSE 0 END,
              CASE WHEN d.rating = 3 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 4 THEN d.sign ELSE 0 END,
              CASE WHEN d.rating = 5 THEN d.sign ELSE 0 END
        WHERE d.rated_at IS NOT NULL AND d.rating IS NOT NULL
     ) e
     GROUP BY e.day, e.tag_id
     ORDER BY e.day, e.tag_id
    ON CONFLICT (company_id, day, tag_id) DO UPDATE SET
      created = r.created + EXCLUDED.created, finished = r.finished + EXCLUDED.finished, answered = r.answered + EXCLUDED.answered,
      rated = r.rated + EXCLUDED.rated, r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3,
      r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  )
  INSERT INTO ticket_rollup_tag_hist AS h (company_id, day, metric, tag_id, bucket, n)
  SELECT p_company, v.day, v.metric, v.tag_id, v.bucket, sum(v.sign)
    FROM (
      SELECT (d.first_response_at AT TIME ZONE tz)::date AS day, 1::smallint AS metric, d.tag_id,
             ticket_rollup_bucket(extract(epoch FROM d.first_response_at - d.queued_at)) AS bucket, d.sign
        FROM moving d WHERE d.first_response_at IS NOT NULL
      UNION ALL
      SELECT (d.finished_at AT TIME ZONE tz)::date, 2::smallint, d.tag_id,
             ticket_rollup_bucket(extract(epoch FROM d.finished_at - d.queued_at)), d.sign
        FROM moving d WHERE d.finished_at IS NOT NULL
    ) v
   GROUP BY v.day, v.metric, v.tag_id, v.bucket
   ORDER BY v.day, v.metric, v.tag_id, v.bucket
  ON CONFLICT (company_id, day, metric, tag_id, bucket) DO UPDATE SET n = h.n + EXCLUDED.n;
END $$;

CREATE FUNCTION ticket_tag_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41004, p_company);
  DELETE FROM ticket_rollup_tag WHERE company_id = p_company;
  DELETE FROM ticket_rollup_tag_hist WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_rollup_tag_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_rollup_tag_delta
  SELECT tt.company_id, g.tag_id, 1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating
    FROM ticket_traking tt JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id
   WHERE tt.company_id = p_company;
  PERFORM ticket_tag_rollup_compact(p_company);
END $$;

CREATE FUNCTION ticket_tag_rollup_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_tag_rollup_rebuild(NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER companies_tag_rollup_time_zone AFTER UPDATE OF time_zone ON companies
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION ticket_tag_rollup_time_zone();

SELECT ticket_tag_rollup_rebuild(id) FROM companies ORDER BY id;
