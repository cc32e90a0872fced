-- Rooms survive a restart, SQLite. Keep in step with ../postgres/0003_room_state.sql.
-- `state` is the room's own state as JSON (seats with player ids, nicknames, the SHA-256 of each
-- seat token, ready and rematch flags, host, status, games), written before anyone hears of a
-- change; `status` its status for the start-up query; `generation` counts the times the room
-- was rebuilt (its versions continue above `generation * 2^32`); `closed` is set when the room
-- closes for good.
ALTER TABLE rooms ADD COLUMN state TEXT;
ALTER TABLE rooms ADD COLUMN status TEXT;
ALTER TABLE rooms ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN updated INTEGER;
ALTER TABLE rooms ADD COLUMN closed INTEGER;
