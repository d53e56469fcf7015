-- Set (and committed) just before a schedule is handed to the connection: a send interrupted by a crash
-- is then never repeated blindly (it becomes ERRO, to be checked and saved again).
ALTER TABLE schedules ADD COLUMN claimed_at timestamptz;
