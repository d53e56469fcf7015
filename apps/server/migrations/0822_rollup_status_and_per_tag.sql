-- The ticket's present status without its tags (issue 30 item 5). A status filter (or a status with
-- the cycle's filters) read ticket_rollup_present (0790), whose groups also split by tag set: with the
-- tag diversity of a real company (300 ticket tag sets in use at 100k tickets) that table held as many
-- rows as there were cycles (98k of 100k) and its histograms more (445k), so "closed tickets over 90
-- days" summed every one of them (157 ms p50 at 100k). The same three tables without the set hold
-- 17k, 70k and 64k rows there and answer every read that has a status and no tag. They are folded from
-- the same delta rows by the same compaction, so nothing new is written per ticket change.

-- No compaction between the fill below and the new function: the fill sums the present tables as
-- they are, and the deltas still pending are folded into every table afterwards.
LOCK TABLE ticket_rollup_delta IN EXCLUSIVE MODE;

CREATE TABLE ticket_rollup_status (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  ticket_status text,
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
CREATE UNIQUE INDEX ticket_rollup_status_key
  ON ticket_rollup_status (company_id, ticket_status, day, user_id, queue_id, whatsapp_id, origin_from_me) NULLS NOT DISTINCT;

-- dim 0 whole (key null), 1 agent, 2 queue, 3 connection, 4 origin (1 ativo, 0 receptivo), as ticket_rollup_hist
CREATE TABLE ticket_rollup_status_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  ticket_status text,
  dim smallint NOT NULL,
  day date NOT NULL,
  metric smallint NOT NULL,
  key integer,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_status_hist_key
  ON ticket_rollup_status_hist (company_id, dim, ticket_status, day, metric, key, bucket) INCLUDE (n) NULLS NOT DISTINCT;

CREATE TABLE ticket_rollup_status_group_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  ticket_status text,
  day date NOT NULL,
  metric smallint NOT NULL,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_status_group_hist_key
  ON ticket_rollup_status_group_hist (company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket)
  INCLUDE (n) NULLS NOT DISTINCT;

INSERT INTO ticket_rollup_status (company_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me,
                                  created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
SELECT company_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me,
       sum(created), sum(started), sum(waited), sum(wait_sum), sum(finished), sum(support_n), sum(support_sum),
       sum(answered), sum(rated), sum(r1), sum(r2), sum(r3), sum(r4), sum(r5)
  FROM ticket_rollup_present
 GROUP BY company_id, ticket_status, day, user_id, queue_id, whatsapp_id, origin_from_me;

INSERT INTO ticket_rollup_status_hist (company_id, ticket_status, dim, day, metric, key, bucket, n)
SELECT company_id, ticket_status, dim, day, metric, key, bucket, sum(n)
  FROM ticket_rollup_present_hist
 GROUP BY company_id, dim, ticket_status, day, metric, key, bucket;

INSERT INTO ticket_rollup_status_group_hist (company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
SELECT company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, sum(n)
  FROM ticket_rollup_present_group_hist
 GROUP BY company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket;

-- And the ticket's present per tag (issue 30 item 5). The reports' tag filter with any other filter, and
-- the breakdown by tag with any filter, read ticket_rollup_present (0790) through the tag sets holding
-- the tag: at a real company's diversity (298 ticket tag sets at 1M tickets) those tables held 497k,
-- 2.07M and 812k rows, and such a report took 160-370 ms. The same groups per tag instead of per set
-- hold 203k, 771k and 615k rows there, and a tag filter reads one tag's rows (a twelfth with 12 tags).
-- A cycle counts under each tag its ticket carries, once: "tag X" is the rows of X, exact, and the
-- breakdown by tag groups by the tag as it did over the unnested sets. Folded from the same delta rows
-- by the same compaction (each delta's set unnested there); "any of these tags" (the dashboard) keeps
-- the sets, where a ticket with two of the tags must count once.


CREATE TABLE ticket_rollup_present_tag (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day date NOT NULL,
  ticket_status text,
  tag_id integer NOT NULL,
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
CREATE UNIQUE INDEX ticket_rollup_present_tag_key
  ON ticket_rollup_present_tag (company_id, tag_id, ticket_status, day, user_id, queue_id, whatsapp_id, origin_from_me) NULLS NOT DISTINCT;

-- dim 0 whole (key null), 1 agent, 2 queue, 3 connection, 4 origin (1 ativo, 0 receptivo), as ticket_rollup_hist
CREATE TABLE ticket_rollup_present_tag_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  dim smallint NOT NULL,
  tag_id integer NOT NULL,
  ticket_status text,
  day date NOT NULL,
  metric smallint NOT NULL,
  key integer,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_present_tag_hist_key
  ON ticket_rollup_present_tag_hist (company_id, dim, tag_id, ticket_status, day, metric, key, bucket) INCLUDE (n) NULLS NOT DISTINCT;

CREATE TABLE ticket_rollup_present_tag_group_hist (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  tag_id integer NOT NULL,
  ticket_status text,
  day date NOT NULL,
  metric smallint NOT NULL,
  user_id integer,
  queue_id integer,
  whatsapp_id integer,
  origin_from_me boolean NOT NULL,
  bucket integer NOT NULL,
  n integer NOT NULL
);
CREATE UNIQUE INDEX ticket_rollup_present_tag_group_hist_key
  ON ticket_rollup_present_tag_group_hist (company_id, tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket)
  INCLUDE (n) NULLS NOT DISTINCT;

INSERT INTO ticket_rollup_present_tag (company_id, day, ticket_status, tag_id, user_id, queue_id, whatsapp_id, origin_from_me,
                                       created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
SELECT p.company_id, p.day, p.ticket_status, x.tag_id, p.user_id, p.queue_id, p.whatsapp_id, p.origin_from_me,
       sum(p.created), sum(p.started), sum(p.waited), sum(p.wait_sum), sum(p.finished), sum(p.support_n), sum(p.support_sum),
       sum(p.answered), sum(p.rated), sum(p.r1), sum(p.r2), sum(p.r3), sum(p.r4), sum(p.r5)
  FROM ticket_rollup_present p JOIN ticket_tagsets s ON s.company_id = p.company_id AND s.id = p.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
 GROUP BY p.company_id, x.tag_id, p.ticket_status, p.day, p.user_id, p.queue_id, p.whatsapp_id, p.origin_from_me;

INSERT INTO ticket_rollup_present_tag_hist (company_id, dim, tag_id, ticket_status, day, metric, key, bucket, n)
SELECT p.company_id, p.dim, x.tag_id, p.ticket_status, p.day, p.metric, p.key, p.bucket, sum(p.n)
  FROM ticket_rollup_present_hist p JOIN ticket_tagsets s ON s.company_id = p.company_id AND s.id = p.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
 GROUP BY p.company_id, p.dim, x.tag_id, p.ticket_status, p.day, p.metric, p.key, p.bucket;

INSERT INTO ticket_rollup_present_tag_group_hist (company_id, tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
SELECT p.company_id, x.tag_id, p.ticket_status, p.day, p.metric, p.user_id, p.queue_id, p.whatsapp_id, p.origin_from_me, p.bucket, sum(p.n)
  FROM ticket_rollup_present_group_hist p JOIN ticket_tagsets s ON s.company_id = p.company_id AND s.id = p.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
 GROUP BY p.company_id, x.tag_id, p.ticket_status, p.day, p.metric, p.user_id, p.queue_id, p.whatsapp_id, p.origin_from_me, p.bucket;

-- As 0812's, with the three status tables and the three per-tag tables folded from the same events and
-- durations (each delta's tag set unnested for the per-tag ones): one function for both sets of tables.
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
              d.sign::int AS created, 0 AS started, 0 AS waited, 0::numeric AS wait_sum, 0 AS finished,
              0 AS support_n, 0::numeric AS support_sum, 0 AS answered, 0 AS rated, 0 AS r1, 0 AS r2, 0 AS r3, 0 AS r4, 0 AS r5
        WHERE d.opened = 0
       UNION ALL
       SELECT (d.started_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, d.sign, CASE WHEN d.started_at > d.queued_at THEN d.sign ELSE 0 END,
              CASE WHEN d.started_at > d.queued_at THEN d.sign * extract(epoch FROM d.started_at - d.queued_at) ELSE 0 END,
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        WHERE d.started_at IS NOT NULL
       UNION ALL
       SELECT (d.finished_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, 0, 0, 0, d.sign, 0, 0, 0, 0, 0, 0, 0, 0, 0
        WHERE d.finished_at IS NOT NULL
       UNION ALL
       SELECT (d.ended_at AT TIME ZONE tz)::date, d.user_id, d.queue_id, d.whatsapp_id, d.origin_from_me, d.ticket_status, d.tagset_id,
              0, 0, 0, 0, 0, d.sign, d.sign * extract(epoch FROM d.ended_at - d.started_at), 0, 0, 0, 0, 0, 0, 0
        WHERE d.ended_at IS NOT NULL AND d.started_at IS NOT NULL
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
  SELECT (d.finished_at AT TIME ZONE tz)::date, 2::smallint, ticket_rollup_bucket(extract(epoch FROM d.finished_at - COALESCE(d.cycle_queued_at, d.queued_at))),
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
  status_counts AS (
  INSERT INTO ticket_rollup_status AS r (company_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me,
                                         created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
  SELECT p_company, e.day, e.ticket_status, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me,
         sum(e.created), sum(e.started), sum(e.waited), sum(e.wait_sum), sum(e.finished), sum(e.support_n), sum(e.support_sum),
         sum(e.answered), sum(e.rated), sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
    FROM events e
   GROUP BY e.ticket_status, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
   ORDER BY e.ticket_status, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
  ON CONFLICT (company_id, ticket_status, day, user_id, queue_id, whatsapp_id, origin_from_me) DO UPDATE SET
    created = r.created + EXCLUDED.created, started = r.started + EXCLUDED.started, waited = r.waited + EXCLUDED.waited,
    wait_sum = r.wait_sum + EXCLUDED.wait_sum, finished = r.finished + EXCLUDED.finished, support_n = r.support_n + EXCLUDED.support_n,
    support_sum = r.support_sum + EXCLUDED.support_sum, answered = r.answered + EXCLUDED.answered, rated = r.rated + EXCLUDED.rated,
    r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3, r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  ),
  status_groups AS (
  INSERT INTO ticket_rollup_status_group_hist AS g (company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
  SELECT p_company, v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
    FROM durations v
   GROUP BY v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
   ORDER BY v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
  ON CONFLICT (company_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
  ),
  status_dims AS (
  INSERT INTO ticket_rollup_status_hist AS h (company_id, ticket_status, dim, day, metric, key, bucket, n)
  SELECT p_company, v.ticket_status, k.dim, v.day, v.metric, k.key, v.bucket, sum(v.sign)
    FROM durations v
   CROSS JOIN LATERAL (VALUES (0::smallint, NULL::integer), (1::smallint, v.user_id), (2::smallint, v.queue_id),
                              (3::smallint, v.whatsapp_id), (4::smallint, v.origin_from_me::integer)) k(dim, key)
   GROUP BY k.dim, v.ticket_status, v.day, v.metric, k.key, v.bucket
   ORDER BY k.dim, v.ticket_status, v.day, v.metric, k.key, v.bucket
  ON CONFLICT (company_id, dim, ticket_status, day, metric, key, bucket) DO UPDATE SET n = h.n + EXCLUDED.n
  ),
  tag_counts AS (
  INSERT INTO ticket_rollup_present_tag AS r (company_id, day, ticket_status, tag_id, user_id, queue_id, whatsapp_id, origin_from_me,
                                              created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5)
  SELECT p_company, e.day, e.ticket_status, x.tag_id, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me,
         sum(e.created), sum(e.started), sum(e.waited), sum(e.wait_sum), sum(e.finished), sum(e.support_n), sum(e.support_sum),
         sum(e.answered), sum(e.rated), sum(e.r1), sum(e.r2), sum(e.r3), sum(e.r4), sum(e.r5)
    FROM events e JOIN ticket_tagsets s ON s.company_id = p_company AND s.id = e.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
   GROUP BY x.tag_id, e.ticket_status, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
   ORDER BY x.tag_id, e.ticket_status, e.day, e.user_id, e.queue_id, e.whatsapp_id, e.origin_from_me
  ON CONFLICT (company_id, tag_id, ticket_status, day, user_id, queue_id, whatsapp_id, origin_from_me) DO UPDATE SET
    created = r.created + EXCLUDED.created, started = r.started + EXCLUDED.started, waited = r.waited + EXCLUDED.waited,
    wait_sum = r.wait_sum + EXCLUDED.wait_sum, finished = r.finished + EXCLUDED.finished, support_n = r.support_n + EXCLUDED.support_n,
    support_sum = r.support_sum + EXCLUDED.support_sum, answered = r.answered + EXCLUDED.answered, rated = r.rated + EXCLUDED.rated,
    r1 = r.r1 + EXCLUDED.r1, r2 = r.r2 + EXCLUDED.r2, r3 = r.r3 + EXCLUDED.r3, r4 = r.r4 + EXCLUDED.r4, r5 = r.r5 + EXCLUDED.r5
  ),
  tag_groups AS (
  INSERT INTO ticket_rollup_present_tag_group_hist AS g (company_id, tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
  SELECT p_company, x.tag_id, v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
    FROM durations v JOIN ticket_tagsets s ON s.company_id = p_company AND s.id = v.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
   GROUP BY x.tag_id, v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
   ORDER BY x.tag_id, v.ticket_status, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
  ON CONFLICT (company_id, tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
  ),
  tag_dims AS (
  INSERT INTO ticket_rollup_present_tag_hist AS h (company_id, dim, tag_id, ticket_status, day, metric, key, bucket, n)
  SELECT p_company, k.dim, x.tag_id, v.ticket_status, v.day, v.metric, k.key, v.bucket, sum(v.sign)
    FROM durations v JOIN ticket_tagsets s ON s.company_id = p_company AND s.id = v.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)
   CROSS JOIN LATERAL (VALUES (0::smallint, NULL::integer), (1::smallint, v.user_id), (2::smallint, v.queue_id),
                              (3::smallint, v.whatsapp_id), (4::smallint, v.origin_from_me::integer)) k(dim, key)
   GROUP BY k.dim, x.tag_id, v.ticket_status, v.day, v.metric, k.key, v.bucket
   ORDER BY k.dim, x.tag_id, v.ticket_status, v.day, v.metric, k.key, v.bucket
  ON CONFLICT (company_id, dim, tag_id, ticket_status, day, metric, key, bucket) DO UPDATE SET n = h.n + EXCLUDED.n
  ),
  per_group AS (
  INSERT INTO ticket_rollup_group_hist AS g (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n)
  SELECT p_company, v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
    FROM durations v
   GROUP BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
   ORDER BY v.day, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
  ON CONFLICT (company_id, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
  ),
  present_groups AS (
  INSERT INTO ticket_rollup_present_group_hist AS g (company_id, ticket_status, day, tagset_id, metric, user_id, queue_id, whatsapp_id,
                                                     origin_from_me, bucket, n)
  SELECT p_company, v.ticket_status, v.day, v.tagset_id, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket, sum(v.sign)
    FROM durations v
   GROUP BY v.ticket_status, v.day, v.tagset_id, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
   ORDER BY v.ticket_status, v.day, v.tagset_id, v.metric, v.user_id, v.queue_id, v.whatsapp_id, v.origin_from_me, v.bucket
  ON CONFLICT (company_id, ticket_status, day, tagset_id, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket) DO UPDATE SET n = g.n + EXCLUDED.n
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

-- As 0812's, with the status and per-tag tables emptied too.
CREATE OR REPLACE FUNCTION ticket_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  DELETE FROM ticket_rollup WHERE company_id = p_company;
  DELETE FROM ticket_rollup_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_group_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_group_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_status WHERE company_id = p_company;
  DELETE FROM ticket_rollup_status_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_status_group_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_tag WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_tag_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_tag_group_hist WHERE company_id = p_company;
  DELETE FROM contact_rollup WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                   user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id, opened, cycle_queued_at, ended_at)
  SELECT tt.company_id, 1, tt.queued_at, tt.started_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating,
         tt.user_id, tt.queue_id, tt.whatsapp_id, tt.origin_from_me, tt.ticket_status, tt.tagset_id, tt.opened, tt.cycle_queued_at, tt.ended_at
    FROM ticket_traking tt WHERE tt.company_id = p_company;
  WITH gone AS (DELETE FROM contact_rollup_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO contact_rollup_delta (company_id, sign, created_at, tagset_id)
  SELECT c.company_id, 1, c.created_at, c.tagset_id FROM contacts c
   WHERE c.company_id = p_company AND NOT c.is_group;
  PERFORM ticket_rollup_compact(p_company);
END $$;
