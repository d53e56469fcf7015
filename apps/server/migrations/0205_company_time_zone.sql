-- The IANA time zone a company works in: its opening hours are read in it, and the dates and times
-- its users enter (a schedule's send time) are wall-clock times in it. Validated by the API against
-- the runtime's list of IANA names.
ALTER TABLE companies ADD COLUMN IF NOT EXISTS time_zone text NOT NULL DEFAULT 'America/Sao_Paulo';
