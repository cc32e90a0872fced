-- Issue 20, SQLite. Keep in step with ../postgres/0007_action_progress.sql.
-- A move of a game in play writes its action rows only: the last action row of each stored
-- change carries the game's stream positions and time played after the change (null on the
-- other rows), and the `games` row is updated only when a change ends the game or stores no
-- action. A game in play is restored from its newest action row that carries them when that
-- row is newer than the `games` row's `version` (docs/server.md, "Storage").
ALTER TABLE actions ADD COLUMN chance_pos INTEGER;
ALTER TABLE actions ADD COLUMN bot_pos TEXT;
ALTER TABLE actions ADD COLUMN play_ms INTEGER;
