-- Progression (issue 18), SQLite. Keep in step with ../postgres/0005_progression.sql.
-- What one finished game gave one player: experience, coins, and the award as JSON (the
-- experience by reason and the ids of the achievements whose condition the game met), computed
-- by the server from the stored record in the same transaction as the game's last change
-- (`madang_games::progression::award`, docs/progression.md). A player's totals are the sums of
-- their rows; recomputing every row from the records gives the same rows.
CREATE TABLE awards (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    xp INTEGER NOT NULL,
    coins INTEGER NOT NULL,
    body TEXT NOT NULL,
    finished INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX awards_by_player ON awards (player_id, finished);
