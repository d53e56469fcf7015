-- Reports and the dashboard credit each interval of work to who held it (issue: a transferred ticket
-- was credited wholly to its last agent and queue, a reopen counted as a new ticket).
--
-- ticket_traking keeps one row per HOLDING: an interval of a handling cycle during which one agent and
-- one queue held the ticket. A cycle (created or reopened → closed) is one holding or more: a
-- transfer (another queue, or another agent than the one the holding credits) ends the current
-- holding (`ended_at`) and begins a new one (`opened` = 2) for the new queue and agent. So:
--   opened          0 the ticket's creation, 1 a reopening, 2 a transfer. Only 0 counts as a created
--                   ticket (each ticket once); a reopening starts a new cycle but is not a new ticket.
--   queued_at       when this holding began (creation, reopening, transfer; moved by the queue menu as
--                   before): first response and wait are measured from here, each holder from when
--                   the ticket reached them
--   cycle_queued_at when the cycle began (= queued_at for opened 0 and 1): resolution is measured
--                   from here, so the queue that closes a transferred ticket is credited with the
--                   ticket's whole resolution time, not only its own part
--   started_at      this holding's agent took it (accept; a transfer to a user: the transfer)
--   ended_at        this holding ended: the transfer that moved it on, or the close (= finished_at)
--   finished_at     the cycle closed in this holding (only the last holding of a cycle has one);
--                   rated_at/rating go to that holding (the agent and queue that closed it)
--   first_response_at  the first agent message of this holding (trigger of 0401: the ticket's last row)
--   messages        the agents' messages sent during this holding
-- The roll-up (0410, 0412, 0790, 0792) counts `created` on queued_at for opened = 0 only, the handling
-- time (support) of every holding on its ended_at (started → ended), and resolution from
-- cycle_queued_at.

ALTER TABLE ticket_traking
  ADD COLUMN opened smallint NOT NULL DEFAULT 0 CHECK (opened IN (0, 1, 2)),
  ADD COLUMN cycle_queued_at timestamptz,
  ADD COLUMN ended_at timestamptz,
  ADD COLUMN messages integer NOT NULL DEFAULT 0;

-- existing rows are whole cycles: the first of each ticket is its creation, later ones reopenings
UPDATE ticket_traking tt SET opened = CASE WHEN f.first_id = tt.id THEN 0 ELSE 1 END,
       cycle_queued_at = tt.queued_at, ended_at = tt.finished_at
  FROM (SELECT company_id, ticket_id, min(id) AS first_id FROM ticket_traking GROUP BY company_id, ticket_id) f
 WHERE f.company_id = tt.company_id AND f.ticket_id = tt.ticket_id;
ALTER TABLE ticket_traking ALTER COLUMN cycle_queued_at SET NOT NULL;
-- the agents' messages of each existing cycle (between its start and its close), as the trigger below counts them
UPDATE ticket_traking tt SET messages = m.n
  FROM (SELECT x.id, count(*)::int AS n
          FROM ticket_traking x
          JOIN messages msg ON msg.company_id = x.company_id AND msg.ticket_id = x.ticket_id
         WHERE msg.from_me AND msg.user_id IS NOT NULL AND msg.created_at >= x.queued_at
           AND (x.finished_at IS NULL OR msg.created_at <= x.finished_at)
         GROUP BY x.id) m
 WHERE m.id = tt.id;

-- messages: the agents' messages (from the app, with a user_id: not greetings, menus, bots) sent while
-- this holding was the ticket's current one, so the interval's work stays with its holder. Counted by
-- the trigger of 0401 that records the first answer; no roll-up reads it (its update changes no column
-- the roll-up triggers watch), the drill-down shows it per holding.
CREATE OR REPLACE FUNCTION ticket_tracking_first_response() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_traking SET messages = messages + 1,
         first_response_at = CASE WHEN first_response_at IS NULL AND NEW.created_at >= queued_at THEN NEW.created_at ELSE first_response_at END
   WHERE company_id = NEW.company_id AND finished_at IS NULL
     AND id = (SELECT max(id) FROM ticket_traking WHERE company_id = NEW.company_id AND ticket_id = NEW.ticket_id);
  RETURN NULL;
END $$;

-- Two invariants held on every write, whoever writes the row (the tracking triggers, a bulk load, a
-- test): a holding that begins a cycle starts the cycle, and a finished holding ends at its finish.
CREATE FUNCTION ticket_traking_holding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.opened <> 2 OR NEW.cycle_queued_at IS NULL THEN
    NEW.cycle_queued_at := NEW.queued_at;
  END IF;
  IF NEW.finished_at IS NOT NULL THEN
    NEW.ended_at := NEW.finished_at;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ticket_traking_holding BEFORE INSERT OR UPDATE ON ticket_traking
  FOR EACH ROW EXECUTE FUNCTION ticket_traking_holding();

CREATE OR REPLACE FUNCTION ticket_tracking_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cur ticket_traking%ROWTYPE;
  opens_now boolean := NEW.status IN ('open', 'paused') AND NEW.user_id IS NOT NULL;
BEGIN
  IF OLD.status = 'closed' AND NEW.status <> 'closed' THEN
    -- reopened: a new cycle (not a new ticket)
    INSERT INTO ticket_traking (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, started_at, origin_from_me, opened)
    VALUES (NEW.company_id, NEW.id, NEW.whatsapp_id, NEW.user_id, NEW.queue_id, now(),
            CASE WHEN NEW.status IN ('open', 'paused') THEN now() END, NEW.origin_from_me, 1);
    RETURN NULL;
  END IF;
  SELECT * INTO cur FROM ticket_traking WHERE company_id = NEW.company_id AND ticket_id = NEW.id ORDER BY id DESC LIMIT 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- A new holder: the ticket leaves its queue for another, or an agent other than the one this holding
  -- credits takes it (a transfer, an accept after a return to pending, a close by someone else). The
  -- queue menu placing a queue-less ticket, an accept of a ticket nobody held and a return to pending
  -- stay in the holding.
  IF cur.finished_at IS NULL
     AND ((OLD.queue_id IS NOT NULL AND NEW.queue_id IS DISTINCT FROM OLD.queue_id)
          OR (NEW.user_id IS NOT NULL AND cur.user_id IS NOT NULL AND NEW.user_id <> cur.user_id)) THEN
    UPDATE ticket_traking SET ended_at = now() WHERE id = cur.id;
    INSERT INTO ticket_traking (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, cycle_queued_at, started_at,
                                finished_at, origin_from_me, opened, transfers)
    VALUES (NEW.company_id, NEW.id, NEW.whatsapp_id, NEW.user_id, NEW.queue_id, now(), cur.cycle_queued_at,
            CASE WHEN opens_now THEN now() END, CASE WHEN NEW.status = 'closed' THEN now() END, NEW.origin_from_me, 2, cur.transfers + 1);
    RETURN NULL;
  END IF;
  UPDATE ticket_traking tt SET
    whatsapp_id = NEW.whatsapp_id,
    queue_id = NEW.queue_id,
    user_id = COALESCE(NEW.user_id, tt.user_id),
    queued_at = CASE WHEN OLD.queue_id IS NULL AND NEW.queue_id IS NOT NULL AND tt.started_at IS NULL AND tt.finished_at IS NULL
                     THEN now() ELSE tt.queued_at END,
    started_at = COALESCE(tt.started_at, CASE WHEN opens_now THEN now() END),
    finished_at = CASE WHEN NEW.status = 'closed' AND OLD.status <> 'closed' THEN now() ELSE tt.finished_at END
  WHERE tt.id = cur.id;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------------------------------
-- The roll-up's deltas carry the holding's kind, its cycle's start and its end.

ALTER TABLE ticket_rollup_delta
  ADD COLUMN opened smallint NOT NULL DEFAULT 0, ADD COLUMN cycle_queued_at timestamptz, ADD COLUMN ended_at timestamptz;
ALTER TABLE ticket_rollup_tag_delta
  ADD COLUMN opened smallint NOT NULL DEFAULT 0, ADD COLUMN cycle_queued_at timestamptz;

CREATE OR REPLACE FUNCTION ticket_rollup_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                     user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id, opened, cycle_queued_at, ended_at)
    VALUES (OLD.company_id, -1, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at,
      OLD.rated_at, OLD.rating, OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me, OLD.ticket_status, OLD.tagset_id,
      OLD.opened, OLD.cycle_queued_at, OLD.ended_at);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_delta (company_id, sign, queued_at, started_at, finished_at, first_response_at, rated_at, rating,
                                     user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id, opened, cycle_queued_at, ended_at)
    VALUES (NEW.company_id, 1, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at,
      NEW.rated_at, NEW.rating, NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me, NEW.ticket_status, NEW.tagset_id,
      NEW.opened, NEW.cycle_queued_at, NEW.ended_at);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER ticket_traking_rollup_update ON ticket_traking;
CREATE TRIGGER ticket_traking_rollup_update AFTER UPDATE ON ticket_traking
  FOR EACH ROW WHEN ((OLD.company_id, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating,
                      OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.origin_from_me, OLD.ticket_status, OLD.tagset_id,
                      OLD.opened, OLD.cycle_queued_at, OLD.ended_at)
                     IS DISTINCT FROM
                     (NEW.company_id, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating,
                      NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.origin_from_me, NEW.ticket_status, NEW.tagset_id,
                      NEW.opened, NEW.cycle_queued_at, NEW.ended_at))
  EXECUTE FUNCTION ticket_rollup_track();

-- As 0792's, with three changes: `created` only for a ticket's creation (opened = 0), the handling time
-- (support_n, support_sum: started → ended) of every holding on the day it ended, and resolution from
-- the cycle's start.
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

CREATE OR REPLACE FUNCTION ticket_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41001, p_company);
  DELETE FROM ticket_rollup WHERE company_id = p_company;
  DELETE FROM ticket_rollup_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_group_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_hist WHERE company_id = p_company;
  DELETE FROM ticket_rollup_present_group_hist WHERE company_id = p_company;
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

-- ---------------------------------------------------------------------------------------------------
-- The per-tag roll-up (0412): created for opened = 0 only, resolution from the cycle's start.

CREATE OR REPLACE FUNCTION ticket_tag_rollup_cycle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tickets t WHERE t.id = COALESCE(NEW.ticket_id, OLD.ticket_id) FOR NO KEY UPDATE;
  IF TG_OP = 'UPDATE' AND OLD.ticket_id <> NEW.ticket_id THEN
    PERFORM 1 FROM tickets t WHERE t.id = OLD.ticket_id FOR NO KEY UPDATE;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
    SELECT OLD.company_id, g.tag_id, -1, OLD.queued_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating, OLD.opened, OLD.cycle_queued_at
      FROM ticket_tags g WHERE g.ticket_id = OLD.ticket_id AND g.company_id = OLD.company_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
    SELECT NEW.company_id, g.tag_id, 1, NEW.queued_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating, NEW.opened, NEW.cycle_queued_at
      FROM ticket_tags g WHERE g.ticket_id = NEW.ticket_id AND g.company_id = NEW.company_id;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER ticket_traking_tag_rollup_update ON ticket_traking;
CREATE TRIGGER ticket_traking_tag_rollup_update AFTER UPDATE ON ticket_traking
  FOR EACH ROW WHEN ((OLD.company_id, OLD.ticket_id, OLD.queued_at, OLD.finished_at, OLD.first_response_at, OLD.rated_at, OLD.rating,
                      OLD.opened, OLD.cycle_queued_at)
                     IS DISTINCT FROM
                     (NEW.company_id, NEW.ticket_id, NEW.queued_at, NEW.finished_at, NEW.first_response_at, NEW.rated_at, NEW.rating,
                      NEW.opened, NEW.cycle_queued_at))
  EXECUTE FUNCTION ticket_tag_rollup_cycle();

CREATE OR REPLACE FUNCTION ticket_tag_rollup_tagging() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tickets t WHERE t.id = COALESCE(NEW.ticket_id, OLD.ticket_id) FOR NO KEY UPDATE;
  IF TG_OP = 'UPDATE' AND OLD.ticket_id <> NEW.ticket_id THEN
    PERFORM 1 FROM tickets t WHERE t.id = OLD.ticket_id FOR NO KEY UPDATE;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
    SELECT tt.company_id, OLD.tag_id, -1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating, tt.opened, tt.cycle_queued_at
      FROM ticket_traking tt WHERE tt.company_id = OLD.company_id AND tt.ticket_id = OLD.ticket_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
    SELECT tt.company_id, NEW.tag_id, 1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating, tt.opened, tt.cycle_queued_at
      FROM ticket_traking tt WHERE tt.company_id = NEW.company_id AND tt.ticket_id = NEW.ticket_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ticket_tag_rollup_ticket_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- the row being deleted is locked already
  INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
  SELECT tt.company_id, g.tag_id, -1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating, tt.opened, tt.cycle_queued_at
    FROM ticket_traking tt JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id
   WHERE tt.company_id = OLD.company_id AND tt.ticket_id = OLD.id;
  RETURN OLD;
END $$;

CREATE OR REPLACE FUNCTION ticket_tag_rollup_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
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
        WHERE d.opened = 0
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
             ticket_rollup_bucket(extract(epoch FROM d.finished_at - COALESCE(d.cycle_queued_at, d.queued_at))), d.sign
        FROM moving d WHERE d.finished_at IS NOT NULL
    ) v
   GROUP BY v.day, v.metric, v.tag_id, v.bucket
   ORDER BY v.day, v.metric, v.tag_id, v.bucket
  ON CONFLICT (company_id, day, metric, tag_id, bucket) DO UPDATE SET n = h.n + EXCLUDED.n;
END $$;

CREATE OR REPLACE FUNCTION ticket_tag_rollup_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41004, p_company);
  DELETE FROM ticket_rollup_tag WHERE company_id = p_company;
  DELETE FROM ticket_rollup_tag_hist WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_rollup_tag_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_rollup_tag_delta (company_id, tag_id, sign, queued_at, finished_at, first_response_at, rated_at, rating, opened, cycle_queued_at)
  SELECT tt.company_id, g.tag_id, 1, tt.queued_at, tt.finished_at, tt.first_response_at, tt.rated_at, tt.rating, tt.opened, tt.cycle_queued_at
    FROM ticket_traking tt JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id
   WHERE tt.company_id = p_company;
  PERFORM ticket_tag_rollup_compact(p_company);
END $$;

-- The created event (a ticket's creation: queued_at of its opened = 0 holding) read on its own partial
-- index, with the columns the filters use, so "created" stays an index-only range scan: the holdings
-- begun by reopenings and transfers are not in it.
DROP INDEX ticket_traking_queued;
CREATE INDEX ticket_traking_queued ON ticket_traking (company_id, queued_at)
  INCLUDE (id, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
  WHERE opened = 0;

LOCK TABLE ticket_rollup_delta IN EXCLUSIVE MODE;
LOCK TABLE ticket_rollup_tag_delta IN EXCLUSIVE MODE;
LOCK TABLE contact_rollup_delta IN EXCLUSIVE MODE;
SELECT ticket_rollup_rebuild(id), ticket_tag_rollup_rebuild(id) FROM companies ORDER BY id;
