-- Game reviews (issue 16), PostgreSQL. Keep in step with ../sqlite/0004_reviews.sql.
-- A game's review at a version of the game, as answered by GET /api/games/{id}/review (JSON),
-- so that a second view is instant. One row per game: a review of a later version replaces it.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    body TEXT NOT NULL,
    created BIGINT NOT NULL
);
