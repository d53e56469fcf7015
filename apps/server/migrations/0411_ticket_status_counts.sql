-- The dashboard's current load (tickets pending, open or paused now) as counters per company and
-- status, so GET /dashboard does not count a company's open tickets on each request (300k of them
-- in the 1M-ticket bench: 40 ms). Kept like the roll-up of 0410: a row trigger on tickets appends
-- (company, status, ±1) to ticket_status_delta (no lock another writer waits for), and
-- ticket_status_compact(company), called by every dashboard read and the server's minute sweep
-- with ticket_rollup_compact, folds them into ticket_status_count.

CREATE TABLE ticket_status_count (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  status text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (company_id, status)
);

CREATE TABLE ticket_status_delta (
  company_id integer NOT NULL,
  status text NOT NULL,
  sign smallint NOT NULL
);
CREATE INDEX ticket_status_delta_company ON ticket_status_delta (company_id);

CREATE FUNCTION ticket_status_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_status_delta VALUES (OLD.company_id, OLD.status, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_status_delta VALUES (NEW.company_id, NEW.status, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER tickets_status_count_insert_delete AFTER INSERT OR DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_status_track();
CREATE TRIGGER tickets_status_count_update AFTER UPDATE OF status, company_id ON tickets
  FOR EACH ROW WHEN ((OLD.company_id, OLD.status) IS DISTINCT FROM (NEW.company_id, NEW.status))
  EXECUTE FUNCTION ticket_status_track();

CREATE FUNCTION ticket_status_compact(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41002, p_company);
  WITH d AS (DELETE FROM ticket_status_delta WHERE company_id = p_company RETURNING *)
  INSERT INTO ticket_status_count AS c (company_id, status, n)
  SELECT p_company, d.status, sum(d.sign) FROM d GROUP BY d.status ORDER BY d.status
  ON CONFLICT (company_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

-- Recounts a company (after a bulk load without triggers). Deleting the pending deltas and counting
-- the tickets is one statement, one snapshot: a change committed after it keeps its delta.
CREATE FUNCTION ticket_status_rebuild(p_company integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(41002, p_company);
  DELETE FROM ticket_status_count WHERE company_id = p_company;
  WITH gone AS (DELETE FROM ticket_status_delta WHERE company_id = p_company RETURNING 1)
  INSERT INTO ticket_status_count (company_id, status, n)
  SELECT p_company, t.status, count(*) FROM tickets t WHERE t.company_id = p_company GROUP BY t.status;
END $$;

SELECT ticket_status_rebuild(id) FROM companies ORDER BY id;
