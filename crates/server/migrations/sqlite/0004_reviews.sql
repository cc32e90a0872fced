-- Game reviews (issue 16), SQLite. Keep in step with ../postgres/0004_reviews.sql.
-- A game's review at a version of the game, as answered by GET /api/games/{id}/review (JSON),
-- so that a second view is instant. One row per game: a review of a later version replaces it.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    created INTEGER NOT NULL
);
