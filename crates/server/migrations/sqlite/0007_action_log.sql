-- Issue 20, SQLite only (PostgreSQL keeps every action as a row of `actions`).
-- A move of a game in play appends its action rows to `action_log`, a table without a key but
-- its sequence number, so a commit writes the log's last pages instead of a leaf of the
-- actions' key for every game in it. When a game ends, or has been in the log too long, its
-- actions so far are written as one row of `game_records` (a JSON list), and the log's head
-- below every game's first row not yet in a record is deleted. A server keeps an index of the
-- log in memory and rebuilds it from the table at start (docs/server.md, "Storage").
CREATE TABLE action_log (
    seq INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat TEXT,
    actor TEXT NOT NULL,
    created INTEGER NOT NULL,
    chance_pos INTEGER,
    bot_pos TEXT,
    play_ms INTEGER
);

-- A game's actions from the first: `actions` is how many, `body` a JSON list of
-- `[idx, action, seat, actor, created, chance_pos, bot_pos, play_ms]`, one per action.
CREATE TABLE game_records (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    actions INTEGER NOT NULL,
    body TEXT NOT NULL
);
