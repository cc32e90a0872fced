-- Online rooms (issue 9), SQLite. Keep in step with ../postgres/0002_rooms.sql.
-- A room lives in memory (one task owns it); these rows keep which rooms existed and which
-- games were played in each, for history and for a later multi-node setup (code -> node).

CREATE TABLE rooms (
    code TEXT PRIMARY KEY NOT NULL,
    host TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    players INTEGER,
    public INTEGER NOT NULL,
    turn_seconds INTEGER,
    created INTEGER NOT NULL
);

CREATE TABLE room_games (
    code TEXT NOT NULL REFERENCES rooms (code),
    idx INTEGER NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    PRIMARY KEY (code, idx)
);
