-- madang server schema, SQLite. Keep in step with ../postgres/0001_init.sql (same tables,
-- columns and meanings; only the types' spelling differs).

CREATE TABLE players (
    id TEXT PRIMARY KEY NOT NULL,
    nickname TEXT NOT NULL,
    created INTEGER NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    players INTEGER,
    seats TEXT NOT NULL,
    mode TEXT NOT NULL,
    cpu TEXT,
    seed TEXT NOT NULL,
    commitment TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    end_reason TEXT,
    end_by TEXT,
    version INTEGER NOT NULL,
    chance_pos INTEGER NOT NULL,
    bot_pos TEXT NOT NULL,
    play_ms INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    finished INTEGER
);

CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    outcome TEXT,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX game_players_by_player ON game_players (player_id);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat TEXT,
    actor TEXT NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);
