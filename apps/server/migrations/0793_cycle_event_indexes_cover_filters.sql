-- The reads still made on the cycles themselves (one day's hourly volume, the drill-down lists, their
-- CSV) filter on the cycle's agent, queue, connection, origin and its copy of the ticket's present
-- (status, tag set: 0790), and the lists page by (event time, id). The event indexes carried only some
-- of those columns, so each filtered read fetched every cycle of its range from the table: 40-110 ms
-- for one day of a company with 1M cycles (11k cycles a day) under a status and tag filter. With the
-- columns included, these reads are index-only scans of the range (the rows autovacuum has marked
-- all-visible; the day's freshest rows are still fetched).
--
-- Cost: the four indexes grow by ~20 bytes an entry. The included columns change with the cycle's
-- events and its ticket's present, and every such update already writes new entries in these indexes
-- (their keys are the events' times), so no update that was HOT becomes non-HOT. Rebuilding them takes
-- a few seconds at 1M cycles, during which the migration holds writes to ticket_traking.

DROP INDEX ticket_traking_queued;
CREATE INDEX ticket_traking_queued ON ticket_traking (company_id, queued_at)
  INCLUDE (id, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id);

DROP INDEX ticket_traking_finished;
CREATE INDEX ticket_traking_finished ON ticket_traking (company_id, finished_at)
  INCLUDE (id, started_at, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
  WHERE finished_at IS NOT NULL;

DROP INDEX ticket_traking_first_response;
CREATE INDEX ticket_traking_first_response ON ticket_traking (company_id, first_response_at)
  INCLUDE (id, queued_at, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
  WHERE first_response_at IS NOT NULL;

DROP INDEX ticket_traking_rated;
CREATE INDEX ticket_traking_rated ON ticket_traking (company_id, rated_at)
  INCLUDE (id, rating, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, ticket_status, tagset_id)
  WHERE rated_at IS NOT NULL;
