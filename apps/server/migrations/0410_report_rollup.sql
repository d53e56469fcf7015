-- Daily roll-up of the ticket cycles for the dashboard and the reports (issue 13 item 6): a 90-day
-- question reads ~90 × groups rows instead of every cycle of the range.
--
-- Days are the company's (companies.time_zone), so a range of whole local days (every dashboard and
-- report range is one) is exactly a range of roll-up days. Each figure is counted on the day its own
-- EVENT falls on, as the live queries count it: entered (queued_at), accepted (started_at), finished,
-- first answered, rated. A late event (a rating days after the cycle began) lands on its own day.
--
-- How it is kept exact:
--   * a row trigger on ticket_traking appends the change to ticket_rollup_delta: the old row with
--     sign −1, the new one with sign +1 (insert: +1 only, delete: −1 only). It takes no lock that
--     another writer waits for (an append), so the webhook pipeline never queues behind a hot day row;
--   * ticket_rollup_compact(company) moves a company's deltas into the roll-up (one statement:
--     delete the deltas, aggregate them per day and group, upsert the sums). The reads call it first,
--     so an answer always includes every committed change; the server also runs it every minute for
--     every company (domains/dashboard/rollup.ts) so the deltas never pile up;
--   * ticket_rollup_rebuild(company) recomputes a company from ticket_traking; it runs when the
--     company changes its time zone (the days move), at the end of this migration, and after a bulk
--     load that bypassed the triggers (the bench's seed).
--   The compaction and the rebuild of a company take the same advisory lock, so they never interleave.
--
-- Groups: the cycle's (last) agent, queue, connection and origin, the columns the report filters and
-- breakdowns use. The tag filter and the ticket's current status are not columns of the cycle: those
-- requests are answered by the live queries (see docs/architecture.md, "Reports").

-- counts and exact sums per company-local day and group
CREATE TABLE ticket_rollup (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL,
  created integer NOT NULL DEFAULT 0,      -- entered (queued_at)
  started integer NOT NULL DEFAULT 0,      -- accepted (started_at)
  waited integer NOT NULL DEFAULT 0,       -- accepted after waiting (started_at > queued_at)
  wait_sum numeric NOT NULL DEFAULT 0,     -- their seconds queued → accepted
  finished integer NOT NULL DEFAULT 0,     -- finished (finished_at)
  support_n integer NOT NULL DEFAULT 0,    -- finished and accepted at some point
  support_sum numeric NOT NULL DEFAULT 0,  -- their seconds accepted → finished
  answered integer NOT NULL DEFAULT 0,     -- first answered (first_response_at)
  rated integer NOT NULL DEFAULT 0,        -- rated (rated_at, a rating)
  r1 integer NOT NULL DEFAULT 0, r2 integer NOT NULL DEFAULT 0, r3 integer NOT NULL DEFAULT 0,
  r4 integer NOT NULL DEFAULT 0, r5 integer NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ticket_rollup_key ON ticket_rollup (company_id, day, user_id, queue_id, whatsapp_id, origin_from_me) NULLS NOT DISTINCT;

-- Histograms of the durations, for medians and p90: metric 1 = first response (first_response_at −
-- queued_at, on the first-answer day), 2 = resolution (finished_at − queued_at, on the finishing day).
-- Buckets follow the page's display precision (formatDuration: seconds under a minute, minutes under
-- a day, hours beyond): the bucket is the value rounded down to 1 s under 60 s, to 1 min under 24 h,
-- to 1 h beyond. Kept per dimension, not per full group (per full group a day's histogram holds about
-- as many entries as cycles): dim 0 = the whole company (key null), 1 = agent, 2 = queue,
-- 3 = connection (key the id, null for none), 4 = origin (key 1 ativo, 0 receptivo).
CREATE TABLE ticket_rollup_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  dim smallint NOT NULL,
  day date NOT NULL,
  metric smallint NOT NULL,
  key integer,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_hist_key ON ticket_rollup_hist (company_id, dim, day, metric, key, bucket) INCLUDE (n) NULLS NOT DISTINCT;

-- The same histograms per full group, for a summary with several filters or a breakdown with a
-- filter: those reads select a few groups (an agent in a queue), so they stay small, where reading a
-- whole company from here would not.
CREATE TABLE ticket_rollup_group_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  metric smallint NOT NULL,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_group_hist_key
  ON ticket_rollup_group_hist (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) INCLUDE (n) NULLS NOT DISTINCT;

-- new contacts (not groups) per company-local day: the dashboard's leads
CREATE TABLE contact_rollup (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (company_id, day)
);

-- changes not yet compacted (no key: appends only)
CREATE TABLE ticket_rollup_delta (
  company_id integer NOT NULL,
  sign smallint NOT NULL,
  queued_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  first_response_at timestamptz,
  rated_at timestamptz,
  rating smallint,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL
);
CREATE INDEX ticket_rollup_delta_company ON ticket_rollup_delta (company_id);
CREATE TABLE contact_rollup_delta (
  company_id integer NOT NULL,
  sign smallint NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX contact_rollup_delta_company ON contact_rollup_delta (company_id);

CREATE FUNCTION ticket_rollup_bucket(secs numeric) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN secs < 60 THEN floor(secs)
               WHEN secs < 86400 THEN floor(secs / 60) * 60
               ELSE floor(LEAST(secs, 2000000000) / 3600) * 3600 END)::integer
$$;

CREATE FUNCTION ticket_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_delta VALUES (OLD.company_id, -1, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at,
      OLD.rated_at, OLD.rating, OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_delta VALUES (NEW.company_id, 1, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at,
      NEW.rated_at, NEW.rating, NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ticket_traking_rollup_insert_delete AFTER INSERT OR DELETE ON ticket_traking
  FOR EACH ROW EXECUTE FUNCTION ticket_rollup_track();
CREATE TRIGGER ticket_traking_rollup_update AFTER UPDATE ON ticket_traking
  FOR EACH ROW WHEN ((OLD.company_id, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating,
                      OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me)
                     IS DISTINCT FROM
                     (NEW.company_id, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating,
                      NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me))
  EXECUTE FUNCTION ticket_rollup_track();

CREATE FUNCTION contact_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND NOT OLD.is_group THEN
    INSERT INTO contact_rollup_delta VALUES (OLD.company_id, -1, OLD.created_at);
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.is_group THEN
    INSERT INTO contact_rollup_delta VALUES (NEW.company_id, 1, NEW.created_at);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER contacts_rollup_insert_delete AFTER INSERT OR DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_rollup_track();
CREATE TRIGGER contacts_rollup_update AFTER UPDATE OF company_id, created_at, is_group ON contacts
  FOR EACH ROW WHEN ((OLD.company_id, OLD.created_at, OLD.is_group) IS DISTINCT FROM (NEW.company_id, NEW.created_at, NEW.is_group))
  EXECUTE FUNCTION contact_rollup_track();

-- Moves a company's deltas into the roll-up. Each statement deletes the deltas it sums (one snapshot:
-- a data-modifying WITH runs once and its rows feed both inserts),
-- so a change committed meanwhile stays for the next call; the lock keeps two compactions (and a
-- rebuild) of one company from interleaving.
CREATE FUNCTION ticket_rollup_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  SELECT time_zone INTO tz FROM companies WHERE id = p_company;
  IF tz IS NULL THEN
    RETURN;
  END IF;
  WITH moving AS (DELETE FROM ticket_rollup_delta WHERE company_id = p_company RETURNING *),
  counts AS (
  INSERT INTO ticket_rollup AS r (company_id, day, user_id, queue_id, whatsapp_id, origin_from_me, created, started, waited, wait_sum,
                                  finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
  SELECT p_company, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me,
         sum(e.created), sum(e.started), sum(e.waited), sum(e.wait_sum), sum(e.finished), sum(e.support_n), sum(e.support_sum),
         sum(e.answered), sum(e.rated), sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
    FROM moving d
   CROSS JOIN LATERAL (
     SELECT (d.queued_at AT TIME ZONE tz)::date AS day, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me,
            d.sign AS created, 0 AS started, 0 AS waited, 0::numeric AS wait_sum, 0 AS finished, 0 AS support_n, 0::numeric AS support_sum,
            0 AS answered, 0 AS rated, 0 AS r1, 0 AS r2, 0 AS r3, 0 AS r4, 0 AS r5
     UNION ALL
     SELECT (d.started_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me,
            0, d.sign, CASE WHEN d.started_at > d.queued_at THEN d.sign ELSE 0 END,
            CASE WHEN d.started_at > d.queued_at THEN d.sign * extract(epoch FROM d.started_at - d.queued_at) ELSE 0 END,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      WHERE d.started_at IS NOT NULL
     UNION ALL
     SELECT (d.finished_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me,
            0, 0, 0, 0, d.sign, CASE WHEN d.started_at IS NOT NULL THEN d.sign ELSE 0 END,
            CASE WHEN d.started_at IS NOT NULL THEN d.sign * extract(epoch FROM d.finished_at - d.started_at) ELSE 0 END,
            0, 0, 0, 0, 0, 0, 0
      WHERE d.finished_at IS NOT NULL
     UNION ALL
     SELECT (d.first_response_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me,
            0, 0, 0, 0, 0, 0, 0, d.sign, 0, 0, 0, 0, 0, 0
      WHERE d.first_response_at IS NOT NULL
     UNION ALL
     SELECT (d.rated_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me,
            0, 0, 0, 0, 0, 0, 0, 0, d.sign,
            CASE WHEN d.rating = 1 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 2 THEN d.sign ELSE 0 END,
            CASE WHEN d.rating = 3 THEN d.sign ELSE 0 END, CASE WHEN d.rating = 4 THEN d.sign ELSE 0 END,
            CASE WHEN d.rating = 5 THEN d.sign ELSE 0 END
      WHERE d.rated_at IS NOT NULL AND d.rating IS NOT NULL
   ) e
   GROUP BY e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
   ORDER BY e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
  ON CONFLICT (company_id, day, user_id, queue_id, whatsapp_id, origin_from_me) DO UPDATE SET
    created = r.created + EXCLUDED.created, started = r.started + EXCLUDED.started, waited = r.waited + EXCLUDED.waited,
    wait_sum = r.wait_sum + EXCLUDED.wait_sum, finished = r.finished + EXCLUDED.finished, support_n = r.support_n + EXCLUDED.support_n,
    support_sum = r.support_sum + EXCLUDED.support_sum, answered = r.answered + EXCLUDED.answered, rated = r.rated + EXCLUDED.rated,
    r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3, r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  ),
  durations AS (
      SELECT (d.first_response_at AT TIME ZONE tz)::date AS day, 1::smallint AS metric,
             ticket_rollup_bucket(extract(epoch FROM d.first_response_at - d.queued_at)) AS bucket, d.*
        FROM moving d WHERE d.first_response_at IS NOT NULL
      UNION ALL
      SELECT (d.finished_at AT TIME ZONE tz)::date, 2::smallint,
             ticket_rollup_bucket(extract(epoch FROM d.finished_at - d.queued_at)), d.*
        FROM moving d WHERE d.finished_at IS NOT NULL
  ),
  per_group AS (
    INSERT INTO ticket_rollup_group_hist AS g (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
    SELECT p_company, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
      FROM durations v
     GROUP BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
     ORDER BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
    ON CONFLICT (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
  )
  INSERT INTO ticket_rollup_hist AS h (company_id, dim, day, metric, key, bucket, n)
  SELECT p_company, k.dim, v.day, v.metric, k.key, v.bucket, sum(v.sign)
    FROM durations v
   CROSS JOIN LATERAL (VALUES (0::smallint, NULL::integer), (1::smallint, v.user_id), (2::smallint, v.queue_id),
                              (3::smallint, v.whatsapp_id), (4::smallint, v.origin_from_me::integer)) k(dim, key)
   GROUP BY k.dim, v.day, v.metric, k.key, v.bucket
   ORDER BY k.dim, v.day, v.metric, k.key, v.bucket
  ON CONFLICT (company_id, dim, day, metric, key, bucket) DO UPDATE SET n = h.n + EXCLUDED.n;

  WITH d AS (DELETE FROM contact_rollup_delta WHERE company_id = p_company RETURNING *)
  INSERT INTO contact_rollup AS c (company_id, day, n)
  SELECT p_company, (d.created_at AT TIME ZONE tz)::date, sum(d.sign) FROM d GROUP BY 2 ORDER BY 2
  ON CONFLICT (company_id, day) DO UPDATE SET n = c.n + EXCLUDED.n;

END $$;

-- Recomputes a company's roll-up from its cycles and contacts (after a time zone change moves its
-- days, or a bulk load without triggers). Deleting the pending deltas and reading the current rows
-- is one statement, one snapshot: a change committed after it keeps its delta and is added later.
CREATE FUNCTION ticket_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  DELETE FROM ticket_rollup WHERE company_id = p_company;
  DELETE FROM ticket_rollup_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_group_hist WHERE company_id = p_company;
  DELETE FROM contact_rollup WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_rollup_delta
  SELECT tt.company_id, 1, tt.queued_at, tt.started_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating,
         tt.user_id, tt.queue_id, tt.whatsapp_id, tt.origin_from_me
    FROM ticket_traking tt WHERE tt.company_id = p_company;
  WITH gone AS (DELETE FROM contact_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO contact_rollup_delta
  SELECT c.company_id, 1, c.created_at FROM contacts c
   WHERE c.company_id = p_company AND NOT c.is_group;
  PERFORM ticket_rollup_compact(p_company);
END $$;

CREATE FUNCTION ticket_rollup_time_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_rollup_rebuild(NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER companies_rollup_time_zone AFTER UPDATE OF time_zone ON companies
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION ticket_rollup_time_zone();

SELECT ticket_rollup_rebuild(id) FROM companies ORDER BY id;
