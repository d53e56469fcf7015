-- An SMS campaign's counters kept by statement triggers on its rows, as each statement changes them
-- (claim, answers, receipts, reconciliation, cancel, analysis), instead of a count over the campaign's
-- rows once a second per process: at 100k rows that count took 40-90 ms, twice a second, the largest
-- cost of a 500/s campaign (docs/performance.md "SMS campaigns: the receipts in groups").
-- What each counts (spec 3 §3 'SMS campaign'): total; invalid (refused by the analysis or skipped at
-- send time: opted out, cancelled); triggered (accepted by the provider); delivered; not delivered
-- (refused, undelivered or unconfirmed); processed (sent to the provider, whatever came of it).
-- count_clicks stays counted from the short links, on a recipient's first click (short-links.ts).

-- Moves the counters by rows given as (campaign, state, sent, sign): +1 for a row as it is now, -1 as it
-- was. A statement whose rows changed no counter (pending -> sending) leaves the campaign row unlocked.
CREATE FUNCTION sms_counts_move(campaign_ids int[], states text[], sent boolean[], signs int[]) RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT campaign_id,
           sum(s)::int AS total,
           coalesce(sum(s) FILTER (WHERE state IN ('invalid', 'skipped')), 0)::int AS invalid,
           coalesce(sum(s) FILTER (WHERE state IN ('sent', 'delivered') OR (state = 'failed' AND was_sent)), 0)::int AS triggered,
           coalesce(sum(s) FILTER (WHERE state = 'delivered'), 0)::int AS delivered,
           coalesce(sum(s) FILTER (WHERE state = 'failed'), 0)::int AS not_delivered,
           coalesce(sum(s) FILTER (WHERE state IN ('sent', 'delivered', 'failed')), 0)::int AS processed
      FROM unnest(campaign_ids, states, sent, signs) AS x(campaign_id, state, was_sent, s)
     GROUP BY campaign_id
  )
  UPDATE sms_campaigns c
     SET count_total = c.count_total + d.total,
         count_invalid = c.count_invalid + d.invalid,
         count_triggered = c.count_triggered + d.triggered,
         count_delivered = c.count_delivered + d.delivered,
         count_not_delivered = c.count_not_delivered + d.not_delivered,
         count_processed = c.count_processed + d.processed
    FROM d
   WHERE c.id = d.campaign_id
     AND (d.total, d.invalid, d.triggered, d.delivered, d.not_delivered, d.processed) <> (0, 0, 0, 0, 0, 0)
$$;

-- The three triggers name their transition tables; each branch reads only the ones its event has.
CREATE FUNCTION sms_recipients_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM sms_counts_move(array_agg(campaign_id), array_agg(state), array_agg(sent_at IS NOT NULL), array_agg(1)) FROM sms_counts_new;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM sms_counts_move(array_agg(campaign_id), array_agg(state), array_agg(sent_at IS NOT NULL), array_agg(-1)) FROM sms_counts_old;
  ELSE
    PERFORM sms_counts_move(array_agg(campaign_id), array_agg(state), array_agg(was_sent), array_agg(s))
       FROM (SELECT campaign_id, state, sent_at IS NOT NULL AS was_sent, 1 AS s FROM sms_counts_new
             UNION ALL SELECT campaign_id, state, sent_at IS NOT NULL, -1 FROM sms_counts_old) x;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER sms_recipients_counts_insert AFTER INSERT ON sms_campaign_recipients
  REFERENCING NEW TABLE AS sms_counts_new FOR EACH STATEMENT EXECUTE FUNCTION sms_recipients_counts();
CREATE TRIGGER sms_recipients_counts_update AFTER UPDATE ON sms_campaign_recipients
  REFERENCING OLD TABLE AS sms_counts_old NEW TABLE AS sms_counts_new FOR EACH STATEMENT EXECUTE FUNCTION sms_recipients_counts();
CREATE TRIGGER sms_recipients_counts_delete AFTER DELETE ON sms_campaign_recipients
  REFERENCING OLD TABLE AS sms_counts_old FOR EACH STATEMENT EXECUTE FUNCTION sms_recipients_counts();

-- the counters from the rows once, as the triggers will keep them from here
UPDATE sms_campaigns c
   SET count_total = x.total, count_invalid = x.invalid, count_triggered = x.triggered,
       count_delivered = x.delivered, count_not_delivered = x.not_delivered, count_processed = x.processed
  FROM (SELECT campaign_id,
               count(*)::int AS total,
               count(*) FILTER (WHERE state IN ('invalid', 'skipped'))::int AS invalid,
               count(*) FILTER (WHERE state IN ('sent', 'delivered') OR (state = 'failed' AND sent_at IS NOT NULL))::int AS triggered,
               count(*) FILTER (WHERE state = 'delivered')::int AS delivered,
               count(*) FILTER (WHERE state = 'failed')::int AS not_delivered,
               count(*) FILTER (WHERE state IN ('sent', 'delivered', 'failed'))::int AS processed
          FROM sms_campaign_recipients GROUP BY campaign_id) x
 WHERE c.id = x.campaign_id;
