//! The SQL of games and their actions, for every way a game is played (against the computer,
//! on one screen, in a room) and both databases: one statement for each change.
//!
//! - A new game: [`Writer::create`] (the `games` row, its players and first actions), through the
//!   same writer as the changes.
//! - A change to a game in play: a [`Commit`] (new actions, the last carrying the game's stream
//!   positions and time played; the game row's new columns when the change ends the game or
//!   stores no action; the players' outcomes at the end), stored through the one group-commit
//!   [`Writer`]: it takes every change waiting, of every game, writes them in one transaction
//!   (one multi-row insert of the actions, one `UPDATE games … FROM (VALUES …)`, one
//!   `UPDATE game_players … FROM (VALUES …)`, built with sqlx's `QueryBuilder`), then answers
//!   each. A change is acknowledged only after that commit, so nobody hears of an action before
//!   it is stored; under load many games share a commit, alone a change is written at once.
//!   On SQLite the actions are appended to the log and a game that ends is written as a record
//!   (`db/log.rs`); on PostgreSQL they are rows of `actions`.
//! - The guard against a change computed on an old version (another writer changed the game):
//!   on SQLite the writer's memory of each game's stored actions; on PostgreSQL its actions go
//!   in only while the game is in play and where no action has its index (the actions' key),
//!   and its game row update only while no action is past the change's. A batch with a stale
//!   change is not committed.
//! - Reading: [`Db::load_game`], [`Db::history`], [`Db::stats_rows`], each seeing a game in
//!   play as of its newest action (`CURRENT_GAME_COLUMNS`, and on SQLite the log's memory).

use std::collections::HashSet;

use sqlx::pool::PoolConnection;
use sqlx::query_builder::Separated;
use sqlx::{Connection, Postgres, QueryBuilder, Sqlite};
use tokio::sync::{mpsc, oneshot};

use std::time::Instant;

use super::log::{ActionLog, LogGame, LogLimits};
use super::{Db, Pool, on_pool};
use crate::error::ServerError;

/// A game row: everything but the actions.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    /// Random 64-bit id, 16 hex digits.
    pub id: String,
    /// The creating player.
    pub owner: String,
    /// The game's record name (one of `madang_games::GAMES`).
    pub game: String,
    /// The record's `rules` object (JSON text).
    pub rules: String,
    /// The record's `players`.
    pub players: Option<i64>,
    /// JSON list of seats: `{"name", "kind", "level", "player"}`.
    pub seats: String,
    /// `computer`, `same_screen` or `room`.
    pub mode: String,
    /// The CPU level(s), or null without CPU seats.
    pub cpu: Option<String>,
    /// The seed, 64 hex digits (revealed only when finished).
    pub seed: String,
    /// SHA-256 of the seed.
    pub commitment: String,
    /// `ongoing` or `finished`.
    pub status: String,
    /// The final view's `result` (JSON text) once finished.
    pub result: Option<String>,
    /// `resign` or `abandoned` for a game ended by a person.
    pub end_reason: Option<String>,
    /// The seat that resigned or left.
    pub end_by: Option<String>,
    /// Number of events in the game's log. This and the fields to `play_ms` and `updated` are
    /// read as of the game's newest action row when that is newer than the row's own update
    /// (a move of a game in play writes its action rows only).
    pub version: i64,
    /// Word position of the `chance` stream.
    pub chance_pos: i64,
    /// JSON list of the word positions of the `bot:SEAT` streams, in seat order.
    pub bot_pos: String,
    /// Time played (capped gaps), ms.
    pub play_ms: i64,
    /// Timestamps, ms since the epoch.
    pub created: i64,
    /// Last change.
    pub updated: i64,
    /// End of the game.
    pub finished: Option<i64>,
}

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ActionRow {
    /// 0-based index in the record's `actions`.
    pub idx: i64,
    /// Notation.
    pub action: String,
    /// The seat that acted (null for chance).
    pub seat: Option<String>,
    /// `human`, `cpu` or `chance`.
    pub actor: String,
    /// When it was applied.
    pub created: i64,
    /// On the last action of a stored change, the `chance` stream's word position after it
    /// (null on the others, and on the actions stored with a new game or before 2026-12-04).
    pub chance_pos: Option<i64>,
    /// Likewise, the JSON list of the `bot:SEAT` streams' word positions, in seat order.
    pub bot_pos: Option<String>,
    /// Likewise, the time played (ms).
    pub play_ms: Option<i64>,
}

impl ActionRow {
    /// An action row without stream positions (all but the last of a change's, and a new
    /// game's).
    pub fn new(idx: i64, action: String, seat: Option<String>, actor: String, created: i64) -> ActionRow {
        ActionRow { idx, action, seat, actor, created, chance_pos: None, bot_pos: None, play_ms: None }
    }
}

/// The changing part of a game row, written with each change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameUpdate {
    /// `ongoing` or `finished`.
    pub status: String,
    /// JSON text of the result.
    pub result: Option<String>,
    /// Ending by a person.
    pub end_reason: Option<String>,
    /// Who.
    pub end_by: Option<String>,
    /// New version.
    pub version: i64,
    /// Stream positions.
    pub chance_pos: i64,
    /// JSON list.
    pub bot_pos: String,
    /// Time played.
    pub play_ms: i64,
    /// Now.
    pub updated: i64,
    /// Set when the game ends.
    pub finished: Option<i64>,
}

/// A game of a player's history with the player's outcome.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct HistoryRow {
    /// The game.
    #[sqlx(flatten)]
    pub game: GameRow,
    /// The player's outcome once finished.
    pub outcome: Option<String>,
}

/// One game's change to store ([`Writer::store`]).
#[derive(Clone, Debug)]
pub struct Commit {
    /// The game id.
    pub id: String,
    /// How many actions the game has once the change is stored: none may be stored at this
    /// index or past it when the change's game row update is written.
    pub stored_actions: i64,
    /// The game row's new columns, written when the change ends the game or stores no action
    /// ([`Commit::updates_row`]).
    pub update: GameUpdate,
    /// The new actions.
    pub actions: Vec<ActionRow>,
    /// The players' outcomes (player id, outcome) when the game ended.
    pub outcomes: Vec<(String, String)>,
    /// What the game gave each player when it ended (progression; empty before).
    pub awards: Vec<AwardRow>,
    /// On a cluster of nodes, the lease the writer must still hold (`cluster.rs`): the change
    /// is refused ([`ServerError::Fenced`]) when another node took the game or room over.
    /// `None` on a single node.
    pub fence: Option<crate::cluster::Fence>,
}

impl Commit {
    /// Whether the change writes the game row: when it ends the game or stores no action. A move
    /// of a game in play stores its action rows only, the last carrying what the row would.
    pub fn updates_row(&self) -> bool {
        self.actions.is_empty() || self.update.status != "ongoing"
    }
}

/// What a finished game gave one player (`awards`, docs/progression.md).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AwardRow {
    /// The game.
    pub game_id: String,
    /// The player.
    pub player_id: String,
    /// Experience points.
    pub xp: i64,
    /// Coins.
    pub coins: i64,
    /// The award as JSON (`madang_games::progression::Award`).
    pub body: String,
    /// When the game ended (ms since the epoch).
    pub finished: i64,
}

const GAME_COLUMNS: &str = "id, owner, game, rules, players, seats, mode, cpu, seed, commitment, status, result, \
     end_reason, end_by, version, chance_pos, bot_pos, play_ms, created, updated, finished";

/// Rows per multi-row statement: 6 values an action, 12 a game (well under both databases'
/// parameter limits: 32,766 on SQLite, 65,535 on PostgreSQL).
const CHUNK: usize = 200;

/// The most changes written in one transaction.
const MAX_BATCH: usize = 512;

/// A game's columns as they stand: a game in play whose newest action row is newer than the
/// row's own update (`g`) is read as of that action row (`p`, joined by [`CURRENT_GAME_JOIN`]).
const CURRENT_GAME_COLUMNS: &str = "g.id, g.owner, g.game, g.rules, g.players, g.seats, g.mode, g.cpu, g.seed, \
     g.commitment, g.status, g.result, g.end_reason, g.end_by, COALESCE(p.idx + 1, g.version) AS version, \
     COALESCE(p.chance_pos, g.chance_pos) AS chance_pos, COALESCE(p.bot_pos, g.bot_pos) AS bot_pos, \
     COALESCE(p.play_ms, g.play_ms) AS play_ms, g.created, COALESCE(p.created, g.updated) AS updated, g.finished";

/// The join of [`CURRENT_GAME_COLUMNS`]: the game's newest action row, when it carries the
/// positions and is past the row's version (found through the actions' key).
const CURRENT_GAME_JOIN: &str = "LEFT JOIN actions p ON p.game_id = g.id \
     AND p.idx = (SELECT MAX(a.idx) FROM actions a WHERE a.game_id = g.id) \
     AND p.chance_pos IS NOT NULL AND p.idx + 1 > g.version";

/// Binds an action's columns, its game id first, in the order of `actions`' columns.
fn bind_action<DB: sqlx::Database>(row: &mut Separated<'_, DB, &'static str>, id: &str, a: &ActionRow)
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    row.push_bind(id.to_owned())
        .push_bind(a.idx)
        .push_bind(a.action.clone())
        .push_bind(a.seat.clone())
        .push_bind(a.actor.clone())
        .push_bind(a.created)
        .push_bind(a.chance_pos)
        .push_bind(a.bot_pos.clone())
        .push_bind(a.play_ms);
}

/// Pushes the statement adding `rows` (game id, the index of its change's first action, action)
/// to `query`. `guarded`: each row goes in only while its game is in play, no action has its
/// index and the action before its change's first is stored (the rows it adds are the rows
/// stored); otherwise every row goes in (a new game's).
fn push_actions<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, rows: &[(&str, i64, &ActionRow)], guarded: bool)
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query.push("INSERT INTO actions (game_id, idx, action, seat, actor, created, chance_pos, bot_pos, play_ms) ");
    if guarded {
        query.push(
            "SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, \
             v.column9 FROM (",
        );
    }
    query.push_values(rows, |mut row, (id, first, a)| {
        bind_action(&mut row, id, a);
        if guarded {
            row.push_bind(*first);
        }
    });
    if guarded {
        // The action before the change's first was stored by an earlier change, so every row
        // of this statement sees it, whatever order the rows go in.
        query.push(
            ") AS v WHERE EXISTS (SELECT 1 FROM games WHERE games.id = v.column1 AND games.status = 'ongoing') \
             AND (v.column10 = 0 OR EXISTS (SELECT 1 FROM actions WHERE actions.game_id = v.column1 \
             AND actions.idx = v.column10 - 1)) ON CONFLICT DO NOTHING",
        );
    }
}

/// Pushes the statement moving each game of `commits` to its new columns, where the game is
/// still in play and its stored actions end with the change's (none at or past the change's
/// count, the one before it stored; the rows it changes are the changes stored). `VALUES`
/// columns are `column1, column2, …` in both databases.
fn push_update_games<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, commits: &[&Commit], guarded: bool)
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query.push(
        "UPDATE games SET status = v.column2, result = v.column3, end_reason = v.column4, end_by = v.column5, \
         version = v.column6, chance_pos = v.column7, bot_pos = v.column8, play_ms = v.column9, \
         updated = v.column10, finished = v.column11 FROM (",
    );
    query.push_values(commits, |mut row, c| {
        let u = &c.update;
        row.push_bind(c.id.clone())
            .push_bind(u.status.clone())
            .push_bind(u.result.clone())
            .push_bind(u.end_reason.clone())
            .push_bind(u.end_by.clone())
            .push_bind(u.version)
            .push_bind(u.chance_pos)
            .push_bind(u.bot_pos.clone())
            .push_bind(u.play_ms)
            .push_bind(u.updated)
            .push_bind(u.finished)
            .push_bind(c.stored_actions);
    });
    query.push(") AS v WHERE games.id = v.column1 AND games.status = 'ongoing'");
    if guarded {
        query.push(
            " AND NOT EXISTS (SELECT 1 FROM actions WHERE actions.game_id = v.column1 AND actions.idx >= v.column12) \
             AND (v.column12 = 0 OR EXISTS (SELECT 1 FROM actions WHERE actions.game_id = v.column1 \
             AND actions.idx = v.column12 - 1))",
        );
    }
}

/// Pushes the statement setting the players' outcomes: `(game id, player id, outcome)`.
fn push_outcomes<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, rows: &[(&str, &str, &str)])
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query.push("UPDATE game_players SET outcome = v.column3 FROM (");
    query.push_values(rows, |mut row, (game, player, outcome)| {
        row.push_bind((*game).to_owned()).push_bind((*player).to_owned()).push_bind((*outcome).to_owned());
    });
    query.push(") AS v WHERE game_players.game_id = v.column1 AND game_players.player_id = v.column2");
}

/// Pushes the statement adding awards; a game's award for a player is written once (a second
/// write of the same row changes nothing).
fn push_awards<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, rows: &[&AwardRow])
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query.push("INSERT INTO awards (game_id, player_id, xp, coins, body, finished) ");
    query.push_values(rows, |mut row, a| {
        row.push_bind(a.game_id.clone())
            .push_bind(a.player_id.clone())
            .push_bind(a.xp)
            .push_bind(a.coins)
            .push_bind(a.body.clone())
            .push_bind(a.finished);
    });
    query.push(" ON CONFLICT (game_id, player_id) DO NOTHING");
}

/// PostgreSQL: pushes every statement of a batch of `commits` to `query`, calling `next` before
/// each: the actions' inserts, the games' updates (of the changes that write
/// their row), the outcomes' updates, the awards, in chunks of [`CHUNK`] rows. Returns the rows
/// each guarded statement must store; the guarded statements are the first ones.
fn push_batch<DB: sqlx::Database>(
    query: &mut QueryBuilder<DB>,
    commits: &[&Commit],
    mut next: impl FnMut(&mut QueryBuilder<DB>),
) -> Vec<u64>
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let actions: Vec<(&str, i64, &ActionRow)> = commits
        .iter()
        .flat_map(|c| {
            let first = c.stored_actions - c.actions.len() as i64;
            c.actions.iter().map(move |a| (c.id.as_str(), first, a))
        })
        .collect();
    let outcomes: Vec<(&str, &str, &str)> =
        commits.iter().flat_map(|c| c.outcomes.iter().map(|(p, o)| (c.id.as_str(), p.as_str(), o.as_str()))).collect();
    let rows: Vec<&Commit> = commits.iter().copied().filter(|c| c.updates_row()).collect();
    let mut checked = Vec::new();
    for chunk in actions.chunks(CHUNK) {
        next(query);
        push_actions(query, chunk, true);
        checked.push(chunk.len() as u64);
    }
    for chunk in rows.chunks(CHUNK) {
        next(query);
        push_update_games(query, chunk, true);
        checked.push(chunk.len() as u64);
    }
    for chunk in outcomes.chunks(CHUNK) {
        next(query);
        push_outcomes(query, chunk);
    }
    let awards: Vec<&AwardRow> = commits.iter().flat_map(|c| c.awards.iter()).collect();
    for chunk in awards.chunks(CHUNK) {
        next(query);
        push_awards(query, chunk);
    }
    checked
}

/// A new game's rows ([`Writer::create`]).
#[derive(Clone, Debug)]
pub struct NewGameRows {
    /// The `games` row.
    pub game: GameRow,
    /// The players in its seats (`game_players`).
    pub participants: Vec<String>,
    /// What the computer and the dice did before a person must act.
    pub actions: Vec<ActionRow>,
    /// The players' outcomes when it ended already.
    pub outcomes: Vec<(String, String)>,
    /// What it gave each player when it ended already.
    pub awards: Vec<AwardRow>,
}

/// Pushes the statements creating a game to `query`, calling `next` before each: its row, its
/// players (with their outcomes when it ended already), its first actions.
fn push_new_game<DB: sqlx::Database>(
    query: &mut QueryBuilder<DB>,
    rows: &NewGameRows,
    mut next: impl FnMut(&mut QueryBuilder<DB>),
) where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let game = &rows.game;
    next(query);
    query.push(format!("INSERT INTO games ({GAME_COLUMNS}) "));
    query.push_values([game], |mut row, g| {
        row.push_bind(g.id.clone())
            .push_bind(g.owner.clone())
            .push_bind(g.game.clone())
            .push_bind(g.rules.clone())
            .push_bind(g.players)
            .push_bind(g.seats.clone())
            .push_bind(g.mode.clone())
            .push_bind(g.cpu.clone())
            .push_bind(g.seed.clone())
            .push_bind(g.commitment.clone())
            .push_bind(g.status.clone())
            .push_bind(g.result.clone())
            .push_bind(g.end_reason.clone())
            .push_bind(g.end_by.clone())
            .push_bind(g.version)
            .push_bind(g.chance_pos)
            .push_bind(g.bot_pos.clone())
            .push_bind(g.play_ms)
            .push_bind(g.created)
            .push_bind(g.updated)
            .push_bind(g.finished);
    });
    if !rows.participants.is_empty() {
        let outcome = |player: &str| rows.outcomes.iter().find(|(p, _)| p == player).map(|(_, o)| o.clone());
        next(query);
        query.push("INSERT INTO game_players (game_id, player_id, outcome) ");
        query.push_values(&rows.participants, |mut row, player| {
            row.push_bind(game.id.clone()).push_bind(player.clone()).push_bind(outcome(player));
        });
    }
    let actions: Vec<(&str, i64, &ActionRow)> = rows.actions.iter().map(|a| (game.id.as_str(), 0, a)).collect();
    for chunk in actions.chunks(CHUNK) {
        next(query);
        push_actions(query, chunk, false);
    }
    let awards: Vec<&AwardRow> = rows.awards.iter().collect();
    for chunk in awards.chunks(CHUNK) {
        next(query);
        push_awards(query, chunk);
    }
}

impl Db {
    /// A game and its actions in order.
    ///
    /// # Errors
    /// A database error.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<ActionRow>)>, sqlx::Error> {
        let sql = format!("SELECT {CURRENT_GAME_COLUMNS} FROM games g {CURRENT_GAME_JOIN} WHERE g.id = $1");
        match &self.pool {
            Pool::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                let Some(mut game) =
                    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&mut *conn).await?
                else {
                    return Ok(None);
                };
                // A game with actions in the log is in memory with all its actions.
                let (valid, in_play) = {
                    let log = self.log();
                    (log.valid, log.games.get(id).cloned())
                };
                let actions = match in_play {
                    Some(in_play) => in_play.rows(id)?,
                    None if valid => super::log::stored_rows(&mut conn, id).await?,
                    // After a failed write the memory may lag: the log itself is read.
                    None => super::log::rows_with_log(&mut conn, id).await?,
                };
                super::log::overlay(&mut game, actions.last());
                Ok(Some((game, actions)))
            }
            Pool::Postgres(pool) => {
                let Some(game) =
                    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await?
                else {
                    return Ok(None);
                };
                let actions = sqlx::query_as(
                    "SELECT idx, action, seat, actor, created, chance_pos, bot_pos, play_ms FROM actions \
                     WHERE game_id = $1 ORDER BY idx",
                )
                .bind(id)
                .fetch_all(pool)
                .await?;
                Ok(Some((game, actions)))
            }
        }
    }

    /// SQLite: `rows` as of the games in play in memory (their newest actions are in the log).
    fn overlay_in_play<'a>(&self, rows: impl Iterator<Item = &'a mut GameRow>) {
        if matches!(self.pool, Pool::Sqlite(_)) {
            let log = self.log();
            for game in rows {
                if let Some(in_play) = log.games.get(&game.id) {
                    super::log::overlay(game, in_play.last.as_ref());
                }
            }
        }
    }

    /// A player's games, newest first, with the player's outcome.
    ///
    /// # Errors
    /// A database error.
    pub async fn history(&self, player: &str, limit: i64, offset: i64) -> Result<Vec<HistoryRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {CURRENT_GAME_COLUMNS}, gp.outcome AS outcome FROM game_players gp JOIN games g ON g.id = gp.game_id \
             {CURRENT_GAME_JOIN} WHERE gp.player_id = $1 ORDER BY g.created DESC, g.id DESC LIMIT $2 OFFSET $3"
        );
        let mut rows: Vec<HistoryRow> = on_pool!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(player).bind(limit).bind(offset).fetch_all(pool).await
        })?;
        self.overlay_in_play(rows.iter_mut().map(|r| &mut r.game));
        Ok(rows)
    }

    /// A player's awards, in the order their games ended (progression).
    ///
    /// # Errors
    /// A database error.
    pub async fn awards(&self, player: &str) -> Result<Vec<AwardRow>, sqlx::Error> {
        on_pool!(self, pool => {
            sqlx::query_as(
                "SELECT game_id, player_id, xp, coins, body, finished FROM awards WHERE player_id = $1 \
                 ORDER BY finished, game_id",
            )
            .bind(player)
            .fetch_all(pool)
            .await
        })
    }

    /// Every stored award, by game and player (for recomputing progression).
    ///
    /// # Errors
    /// A database error.
    pub async fn all_awards(&self) -> Result<Vec<AwardRow>, sqlx::Error> {
        on_pool!(self, pool => {
            sqlx::query_as(
                "SELECT game_id, player_id, xp, coins, body, finished FROM awards ORDER BY game_id, player_id",
            )
            .fetch_all(pool)
            .await
        })
    }

    /// The ids of every finished game, oldest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn finished_games(&self) -> Result<Vec<String>, sqlx::Error> {
        on_pool!(self, pool => {
            sqlx::query_scalar("SELECT id FROM games WHERE status = 'finished' ORDER BY finished, id")
                .fetch_all(pool)
                .await
        })
    }

    /// Every game of a player (for stats): game, mode, cpu, status, outcome, time played.
    ///
    /// # Errors
    /// A database error.
    pub async fn stats_rows(&self, player: &str) -> Result<Vec<crate::stats::StatsRow>, sqlx::Error> {
        let mut rows: Vec<crate::stats::StatsRow> = on_pool!(self, pool => {
            sqlx::query_as(
                sqlx::AssertSqlSafe(format!(
                    "SELECT g.id AS id, g.game AS game, g.mode AS mode, g.cpu AS cpu, g.status AS status, gp.outcome AS outcome, \
                     COALESCE(p.play_ms, g.play_ms) AS play_ms FROM game_players gp JOIN games g ON g.id = gp.game_id \
                     {CURRENT_GAME_JOIN} WHERE gp.player_id = $1"
                )),
            )
            .bind(player)
            .fetch_all(pool)
            .await
        })?;
        if matches!(self.pool, Pool::Sqlite(_)) {
            let log = self.log();
            for row in &mut rows {
                if let Some(last) = log.games.get(&row.id).and_then(|g| g.last.as_ref())
                    && let Some(play_ms) = last.play_ms
                {
                    row.play_ms = row.play_ms.max(play_ms);
                }
            }
        }
        Ok(rows)
    }
}

// ------------------------------------------------------------------------------ the writer

type Job = (Commit, oneshot::Sender<Result<(), ServerError>>);

/// What the writer's task is sent.
enum Message {
    /// A change to store, and where to answer.
    Store(Box<Job>),
    /// A new game to store, and where to answer.
    Create(Box<(NewGameRows, oneshot::Sender<Result<(), ServerError>>)>),
    /// Stop after the changes sent before, releasing the connection.
    Stop(oneshot::Sender<()>),
}

/// The group-commit writer: the handle every game's changes are sent to.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::UnboundedSender<Message>,
}

/// The writer's own PostgreSQL connection, kept from batch to batch (on SQLite every write
/// goes through the one write connection, [`Db::write_turn`]).
type Held = PoolConnection<Postgres>;

impl Writer {
    /// Starts the writer, a task on the runtime (call inside a tokio runtime).
    pub fn start(db: Db) -> Writer {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(db, rx));
        Writer { tx }
    }

    /// Stores `commit`; resolves once it is committed.
    ///
    /// # Errors
    /// The database refused it, or the stored game is not where the change was computed
    /// ([`ServerError::Stale`]: another writer's action, the game ended, or a gap); nothing of
    /// it is stored then.
    pub async fn store(&self, commit: Commit) -> Result<(), ServerError> {
        let stopped = || ServerError::Config("the storage writer has stopped".to_owned());
        let (reply, answer) = oneshot::channel();
        self.tx.send(Message::Store(Box::new((commit, reply)))).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Stores a new game (its row, players and first actions) in one transaction; resolves once
    /// it is committed.
    ///
    /// # Errors
    /// The database refused it; nothing of it is stored then.
    pub async fn create(&self, rows: NewGameRows) -> Result<(), ServerError> {
        let stopped = || ServerError::Config("the storage writer has stopped".to_owned());
        let (reply, answer) = oneshot::channel();
        self.tx.send(Message::Create(Box::new((rows, reply)))).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Stores what was sent before, then stops and gives its connection back to the pool (a
    /// pool waits for its connections when it closes: call this before [`Db::close`]). Later
    /// changes are refused.
    pub async fn stop(&self) {
        let (done, stopped) = oneshot::channel();
        if self.tx.send(Message::Stop(done)).is_ok() {
            let _ = stopped.await;
        }
    }
}

async fn run(db: Db, mut rx: mpsc::UnboundedReceiver<Message>) {
    let mut held: Option<Held> = None;
    let mut messages: Vec<Message> = Vec::with_capacity(MAX_BATCH);
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut messages, MAX_BATCH).await > 0 {
        let mut stop = None;
        let mut creates = Vec::new();
        for message in messages.drain(..) {
            match message {
                Message::Store(job) => batch.push(*job),
                Message::Create(job) => creates.push(*job),
                Message::Stop(done) => stop = Some(done),
            }
        }
        // A game's changes come after its creation was answered: the new games go first.
        for (rows, reply) in creates {
            let mut turn = db.write_turn().await;
            let _ = reply.send(write(&db, &mut held, &mut turn, Work::Create(&rows)).await);
        }
        write_batch(&db, &mut held, &mut batch).await;
        if let Err(error) = upkeep(&db).await {
            tracing::error!(%error, "the action log's upkeep failed");
        }
        if let Some(done) = stop {
            // Dropped, the connection goes back to the pool.
            drop(held.take());
            let _ = done.send(());
            return;
        }
    }
}

/// Writes and answers `batch`, leaving it empty.
async fn write_batch(db: &Db, held: &mut Option<Held>, batch: &mut Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    let mut turn = db.write_turn().await;
    // Changes for different games go in together (a game waits for its commit before its
    // next change, so this holds unless something is wrong; then they go one by one).
    let mut seen = HashSet::new();
    let together = if batch.iter().all(|(c, _)| seen.insert(c.id.as_str())) {
        let commits: Vec<&Commit> = batch.iter().map(|(c, _)| c).collect();
        write(db, held, &mut turn, Work::Batch(&commits)).await
    } else {
        Err(ServerError::Config("two changes of one game in a batch".to_owned()))
    };
    if together.is_ok() {
        for (_, reply) in batch.drain(..) {
            let _ = reply.send(Ok(()));
        }
        return;
    }
    // One bad change must not fail the others: each alone, with its own answer.
    for (commit, reply) in batch.drain(..) {
        let result = write(db, held, &mut turn, Work::Alone(&commit)).await;
        if let Err(error) = &result {
            tracing::error!(game = %commit.id, %error, "storing a game's change failed");
        }
        let _ = reply.send(result);
    }
}

/// What the writer writes in one transaction.
#[derive(Clone, Copy)]
enum Work<'a> {
    /// A batch of changes of different games, in one round trip on SQLite; any failure fails
    /// them all (each is then written alone).
    Batch(&'a [&'a Commit]),
    /// One change, its failure named ([`ServerError::Stale`] for a stale version).
    Alone(&'a Commit),
    /// A new game.
    Create(&'a NewGameRows),
}

/// Writes `work` in one transaction: on SQLite on the write connection of `turn`, on PostgreSQL
/// on the writer's own connection `held` (opened when there is none). After an error the
/// connection is closed, so the next transaction starts on a fresh one.
async fn write(
    db: &Db,
    held: &mut Option<Held>,
    turn: &mut Option<super::WriteTurn<'_>>,
    work: Work<'_>,
) -> Result<(), ServerError> {
    if let Some(turn) = turn {
        let result = match work {
            Work::Create(rows) => write_sqlite_create(turn.conn().await?, rows).await.map(|()| created(db, rows)),
            Work::Batch(commits) => write_sqlite_log(db, turn.conn().await?, commits).await,
            Work::Alone(commit) => write_sqlite_log(db, turn.conn().await?, &[commit]).await,
        };
        match &result {
            // Refused by the guard before anything was written.
            Err(ServerError::Stale { .. }) | Ok(()) => {}
            Err(_) => {
                // It may be left inside a transaction, and the log's memory may not match.
                turn.discard();
                db.log().valid = false;
            }
        }
        return result;
    }
    let Pool::Postgres(pool) = &db.pool else {
        return Err(ServerError::Config("SQLite without its write turn".into()));
    };
    if held.is_none() {
        *held = Some(pool.acquire().await?);
    }
    let result = match held.as_mut() {
        Some(conn) => write_postgres(conn, work).await,
        None => Ok(()),
    };
    if result.is_err()
        && let Some(conn) = held.take()
    {
        // Closed, not given back: a failed batch may have left the connection in a transaction.
        drop(conn.detach());
    }
    result
}

/// The stale-version refusal unless every guarded statement stored its rows (`stored`: the
/// rows each stored, `checked`: the rows each was given, both in statement order).
fn check_stored(stored: &[u64], checked: &[u64], changes: usize) -> Result<(), ServerError> {
    if stored == checked { Ok(()) } else { Err(ServerError::Stale { changes }) }
}

/// SQLite: a new game's statements as one string (`BEGIN IMMEDIATE; INSERT …; COMMIT`), one
/// hand-over to sqlx's SQLite thread. Anonymous parameters (`?`, as `QueryBuilder` writes them
/// for SQLite) are bound in order across the statements. (Changes go through the log,
/// [`write_sqlite_log`].)
async fn write_sqlite_create(conn: &mut sqlx::SqliteConnection, rows: &NewGameRows) -> Result<(), ServerError> {
    use futures_util::TryStreamExt;
    let mut query = QueryBuilder::<Sqlite>::new("BEGIN IMMEDIATE");
    push_new_game(&mut query, rows, |q| {
        q.push("; ");
    });
    query.push("; COMMIT");
    let _: Vec<_> = sqlx::Executor::execute_many(&mut *conn, query.build()).try_collect().await?;
    Ok(())
}

/// SQLite: a new game stored, it is in memory with its first actions while in play.
fn created(db: &Db, rows: &NewGameRows) {
    if rows.game.status == "ongoing" {
        let game = LogGame::new(&rows.actions, None);
        db.log().games.insert(rows.game.id.clone(), game);
    }
}

/// SQLite: reads the log's memory again when a failed write left it unsure, and reads into it
/// each game of `ids` in play that it lacks (a game not seen since the server started, or that
/// left memory idle).
async fn load_into_log(db: &Db, conn: &mut sqlx::SqliteConnection, ids: &[&str]) -> Result<(), sqlx::Error> {
    if !db.log().valid {
        let mut fresh = ActionLog { limits: db.log().limits, ..ActionLog::default() };
        super::log::rebuild(conn, &mut fresh).await?;
        *db.log() = fresh;
    }
    let missing: Vec<&str> = {
        let log = db.log();
        ids.iter().copied().filter(|id| !log.games.contains_key(*id)).collect()
    };
    for id in missing {
        if let Some((status, rows)) = super::log::durable_rows(conn, id).await?
            && status == "ongoing"
        {
            let game = LogGame::new(&rows, None);
            db.log().games.entry(id.to_owned()).or_insert(game);
        }
    }
    Ok(())
}

/// Log rows per multi-row statement (10 values each).
const LOG_CHUNK: usize = 200;

/// SQLite: stores `commits` through the log ([`super::log`]) in one transaction, one round
/// trip: their actions appended to `action_log`, the games they end written as records, the
/// rows, outcomes and awards as on PostgreSQL. The guard is the writer's memory: each change
/// must follow its game's stored actions, the game in play.
///
/// # Errors
/// [`ServerError::Stale`] before anything is written when a change does not follow its game's
/// stored actions; a database error.
async fn write_sqlite_log(db: &Db, conn: &mut sqlx::SqliteConnection, commits: &[&Commit]) -> Result<(), ServerError> {
    use futures_util::TryStreamExt;
    let ids: Vec<&str> = commits.iter().map(|c| c.id.as_str()).collect();
    load_into_log(db, conn, &ids).await?;
    let (mut query, first_seq) = {
        let log = db.log();
        for c in commits {
            let first = c.stored_actions - c.actions.len() as i64;
            let follows = log
                .games
                .get(&c.id)
                .is_some_and(|g| g.len == first && c.actions.iter().zip(first..).all(|(a, idx)| a.idx == idx));
            if !follows {
                return Err(ServerError::Stale { changes: commits.len() });
            }
        }
        let mut query = QueryBuilder::<Sqlite>::new("BEGIN IMMEDIATE");
        let mut seq = log.next_seq;
        let rows: Vec<(i64, &str, &ActionRow)> = commits
            .iter()
            .flat_map(|c| c.actions.iter().map(move |a| (c.id.as_str(), a)))
            .map(|(id, a)| {
                seq += 1;
                (seq - 1, id, a)
            })
            .collect();
        for chunk in rows.chunks(LOG_CHUNK) {
            query.push(
                "; INSERT INTO action_log (seq, game_id, idx, action, seat, actor, created, chance_pos, bot_pos, \
                 play_ms) ",
            );
            query.push_values(chunk, |mut row, (seq, id, a)| {
                row.push_bind(*seq);
                bind_action(&mut row, id, a);
            });
        }
        let records: Vec<(String, i64, String)> = commits
            .iter()
            .filter(|c| c.update.status != "ongoing")
            .filter_map(|c| {
                let game = log.games.get(&c.id)?;
                let (count, body) = game.record(&c.actions);
                Some((c.id.clone(), count, body))
            })
            .collect();
        push_records(&mut query, records);
        let updates: Vec<&Commit> = commits.iter().copied().filter(|c| c.updates_row()).collect();
        for chunk in updates.chunks(CHUNK) {
            query.push("; ");
            push_update_games(&mut query, chunk, false);
        }
        let outcomes: Vec<(&str, &str, &str)> = commits
            .iter()
            .flat_map(|c| c.outcomes.iter().map(|(p, o)| (c.id.as_str(), p.as_str(), o.as_str())))
            .collect();
        for chunk in outcomes.chunks(CHUNK) {
            query.push("; ");
            push_outcomes(&mut query, chunk);
        }
        let awards: Vec<&AwardRow> = commits.iter().flat_map(|c| c.awards.iter()).collect();
        for chunk in awards.chunks(CHUNK) {
            query.push("; ");
            push_awards(&mut query, chunk);
        }
        query.push("; COMMIT");
        (query, log.next_seq)
    };
    let _: Vec<_> = sqlx::Executor::execute_many(&mut *conn, query.build()).try_collect().await?;
    // Committed: the memory follows.
    let mut log = db.log();
    let now = Instant::now();
    let mut seq = first_seq;
    for c in commits {
        let added = c.actions.len() as i64;
        if c.update.status != "ongoing" {
            log.games.remove(&c.id);
        } else if let Some(game) = log.games.get_mut(&c.id) {
            if added > 0 {
                game.first_seq.get_or_insert(seq);
            }
            game.extend(&c.actions);
            game.changed = now;
        }
        seq += added;
    }
    log.next_seq = seq;
    Ok(())
}

/// Pushes the statement writing each game's record (`game_id`, how many actions, the body),
/// over the one it had.
fn push_records(query: &mut QueryBuilder<Sqlite>, records: Vec<(String, i64, String)>) {
    for chunk in records.chunks(CHUNK) {
        query.push("; INSERT INTO game_records (game_id, actions, body) ");
        query.push_values(chunk, |mut row, (id, count, body)| {
            row.push_bind(id.clone()).push_bind(*count).push_bind(body.clone());
        });
        query.push(" ON CONFLICT (game_id) DO UPDATE SET actions = excluded.actions, body = excluded.body");
    }
}

/// SQLite: the writer's upkeep, at most every [`LogLimits::every`]: the games whose rows have
/// stayed in the log [`LogLimits::idle`] since their last change, or that are more than
/// [`LogLimits::max_behind`] rows behind its end, are written as records (their rows brought
/// to their newest action); games in memory without log rows that long leave it; the log's
/// head is deleted.
async fn upkeep(db: &Db) -> Result<(), ServerError> {
    use futures_util::TryStreamExt;
    let limits = {
        let mut log = db.log();
        if log.last_upkeep.elapsed() < log.limits.every {
            return Ok(());
        }
        log.last_upkeep = Instant::now();
        log.limits
    };
    let LogLimits { idle, max_behind, archive_batch, delete_at_least, .. } = limits;
    let Some(mut turn) = db.write_turn().await else { return Ok(()) };
    let conn = turn.conn().await?;
    load_into_log(db, conn, &[]).await?;
    let (mut query, archived, head) = {
        let mut log = db.log();
        // Games in memory without log rows, idle, leave it.
        log.games.retain(|_, g| g.first_seq.is_some() || g.changed.elapsed() < idle);
        let behind = log.next_seq - max_behind;
        let mut due: Vec<(&String, &LogGame)> = log
            .games
            .iter()
            .filter(|(_, g)| g.first_seq.is_some_and(|s| s < behind || g.changed.elapsed() >= idle))
            .collect();
        due.sort_by_key(|(_, g)| g.first_seq);
        due.truncate(archive_batch);
        let archived: Vec<String> = due.iter().map(|(id, _)| (*id).clone()).collect();
        let records: Vec<(String, i64, String)> = due
            .iter()
            .map(|(id, g)| {
                let (count, body) = g.record(&[]);
                ((*id).clone(), count, body)
            })
            .collect();
        let positions: Vec<(String, &ActionRow)> = due
            .iter()
            .filter_map(|(id, g)| g.last.as_ref().filter(|a| a.chance_pos.is_some()).map(|a| ((*id).clone(), a)))
            .collect();
        let head = log
            .games
            .iter()
            .filter(|(id, _)| !archived.contains(id))
            .filter_map(|(_, g)| g.first_seq)
            .min()
            .unwrap_or(log.next_seq);
        if records.is_empty() && head - log.deleted_below < delete_at_least {
            return Ok(());
        }
        let mut query = QueryBuilder::<Sqlite>::new("BEGIN IMMEDIATE");
        push_records(&mut query, records);
        for chunk in positions.chunks(CHUNK) {
            query.push(
                "; UPDATE games SET version = v.column2, chance_pos = v.column3, bot_pos = v.column4, \
                 play_ms = v.column5, updated = v.column6 FROM (",
            );
            query.push_values(chunk, |mut row, (id, a)| {
                row.push_bind(id.clone())
                    .push_bind(a.idx + 1)
                    .push_bind(a.chance_pos)
                    .push_bind(a.bot_pos.clone())
                    .push_bind(a.play_ms)
                    .push_bind(a.created);
            });
            query.push(") AS v WHERE games.id = v.column1 AND games.status = 'ongoing' AND games.version < v.column2");
        }
        let head = if head - log.deleted_below >= delete_at_least {
            query.push("; DELETE FROM action_log WHERE seq < ");
            query.push_bind(head);
            Some(head)
        } else {
            None
        };
        query.push("; COMMIT");
        (query, archived, head)
    };
    let written: Result<Vec<_>, sqlx::Error> =
        sqlx::Executor::execute_many(&mut *conn, query.build()).try_collect().await;
    if let Err(error) = written {
        turn.discard();
        db.log().valid = false;
        return Err(error.into());
    }
    let mut log = db.log();
    for id in archived {
        if let Some(game) = log.games.get_mut(&id) {
            game.first_seq = None;
        }
    }
    if let Some(head) = head {
        log.deleted_below = head;
    }
    Ok(())
}

/// PostgreSQL: the statements one by one in a transaction (the extended protocol takes one
/// statement per query), the guarded statements' rows counted from their results.
async fn write_postgres(conn: &mut PoolConnection<Postgres>, work: Work<'_>) -> Result<(), ServerError> {
    let mut statements = Vec::new();
    let mut query = QueryBuilder::<Postgres>::new("");
    let mut join = |q: &mut QueryBuilder<Postgres>| {
        if !q.sql().as_str().is_empty() {
            statements.push(std::mem::replace(q, QueryBuilder::new("")));
        }
    };
    let checked = match work {
        Work::Batch(commits) => Some((push_batch(&mut query, commits, &mut join), commits.len())),
        Work::Alone(commit) => Some((push_batch(&mut query, &[commit], &mut join), 1)),
        Work::Create(rows) => {
            push_new_game(&mut query, rows, &mut join);
            None
        }
    };
    statements.push(query);
    let fences: Vec<&crate::cluster::Fence> = match work {
        Work::Batch(commits) => commits.iter().filter_map(|c| c.fence.as_ref()).collect(),
        Work::Alone(commit) => commit.fence.iter().collect(),
        Work::Create(_) => Vec::new(),
    };
    let mut tx = Connection::begin(&mut **conn).await?;
    check_fences(&mut tx, &fences).await?;
    let mut stored = Vec::new();
    for (i, statement) in statements.iter_mut().enumerate() {
        let done = statement.build().execute(&mut *tx).await?;
        if checked.as_ref().is_some_and(|(guarded, _)| i < guarded.len()) {
            stored.push(done.rows_affected());
        }
    }
    if let Some((guarded, changes)) = checked {
        // Dropping the transaction rolls it back.
        check_stored(&stored, &guarded, changes)?;
    }
    tx.commit().await?;
    Ok(())
}

/// Checks, inside the write's transaction, that every lease of `fences` is still held at its
/// epoch, and holds a share lock on each until the commit: a takeover (which updates the lease
/// row) waits for this write, and a write after a takeover finds the new epoch.
///
/// # Errors
/// [`ServerError::Fenced`] naming a lease no longer held; a database error.
pub(crate) async fn check_fences(
    conn: &mut sqlx::PgConnection,
    fences: &[&crate::cluster::Fence],
) -> Result<(), ServerError> {
    if fences.is_empty() {
        return Ok(());
    }
    let keys: Vec<String> = fences.iter().map(|f| f.key.clone()).collect();
    let held: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT key, node, epoch FROM leases WHERE key = ANY($1) ORDER BY key FOR SHARE")
            .bind(&keys)
            .fetch_all(&mut *conn)
            .await?;
    for fence in fences {
        if !held.iter().any(|(k, n, e)| *k == fence.key && *n == fence.node && *e == fence.epoch) {
            return Err(ServerError::Fenced { key: fence.key.clone() });
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_statements_are_one_per_change_with_a_row_per_value() {
        let action = |idx| ActionRow::new(idx, "roll 3".into(), None, "chance".into(), 1);
        let (a, b) = (action(0), action(1));
        let mut insert = QueryBuilder::<Postgres>::new("");
        push_actions(&mut insert, &[("g", 0, &a), ("g", 0, &b)], false);
        let sql = insert.into_sql();
        assert_eq!(
            sql.as_str(),
            "INSERT INTO actions (game_id, idx, action, seat, actor, created, chance_pos, bot_pos, play_ms) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($10, $11, $12, $13, $14, $15, $16, $17, $18)"
        );
        // A change's actions go in only while the game is in play, and not over stored ones.
        let mut insert = QueryBuilder::<Sqlite>::new("");
        push_actions(&mut insert, &[("g", 0, &a)], true);
        let sql = insert.into_sql().as_str().to_owned();
        assert!(sql.contains(" SELECT v.column1, v.column2, "), "{sql}");
        assert!(
            sql.ends_with(
                "WHERE EXISTS (SELECT 1 FROM games WHERE games.id = v.column1 AND games.status = 'ongoing') \
                 AND (v.column10 = 0 OR EXISTS (SELECT 1 FROM actions WHERE actions.game_id = v.column1 \
                 AND actions.idx = v.column10 - 1)) ON CONFLICT DO NOTHING"
            ),
            "{sql}"
        );
        let update = GameUpdate {
            status: "ongoing".into(),
            result: None,
            end_reason: None,
            end_by: None,
            version: 3,
            chance_pos: 0,
            bot_pos: "[]".into(),
            play_ms: 0,
            updated: 0,
            finished: None,
        };
        let commit = Commit {
            id: "g".into(),
            stored_actions: 1,
            update,
            actions: vec![],
            outcomes: vec![],
            awards: vec![],
            fence: None,
        };
        let mut update = QueryBuilder::<Sqlite>::new("");
        push_update_games(&mut update, &[&commit, &commit], true);
        let sql = update.into_sql().as_str().to_owned();
        assert!(sql.starts_with("UPDATE games SET status = v.column2"), "{sql}");
        // Two rows of twelve values; SQLite's placeholders are `?`.
        assert_eq!(sql.matches('?').count(), 24, "{sql}");
        assert!(
            sql.ends_with(
                ") AS v WHERE games.id = v.column1 AND games.status = 'ongoing' AND NOT EXISTS \
                 (SELECT 1 FROM actions WHERE actions.game_id = v.column1 AND actions.idx >= v.column12) AND \
                 (v.column12 = 0 OR EXISTS (SELECT 1 FROM actions WHERE actions.game_id = v.column1 \
                 AND actions.idx = v.column12 - 1))"
            ),
            "{sql}"
        );
    }

    pub(crate) fn game(id: &str) -> NewGameRows {
        let row = GameRow {
            id: id.into(),
            owner: "p".into(),
            game: "ur".into(),
            rules: "{}".into(),
            players: None,
            seats: "[]".into(),
            mode: "computer".into(),
            cpu: None,
            seed: "00".repeat(32),
            commitment: String::new(),
            status: "ongoing".into(),
            result: None,
            end_reason: None,
            end_by: None,
            version: 0,
            chance_pos: 0,
            bot_pos: "[]".into(),
            play_ms: 0,
            created: 1,
            updated: 1,
            finished: None,
        };
        NewGameRows { game: row, participants: vec!["p".into()], actions: vec![], outcomes: vec![], awards: vec![] }
    }

    /// A change of game `id` with `stored` actions: a roll, the game in play after it (its
    /// chance stream at word `stored + 1`).
    pub(crate) fn change(id: &str, stored: i64) -> Commit {
        let action = ActionRow {
            chance_pos: Some(stored + 1),
            bot_pos: Some("[]".into()),
            play_ms: Some(10 * (stored + 1)),
            ..ActionRow::new(stored, "roll 2".into(), None, "chance".into(), 2 + stored)
        };
        let update = GameUpdate {
            status: "ongoing".into(),
            result: None,
            end_reason: None,
            end_by: None,
            version: stored + 1,
            chance_pos: stored + 1,
            bot_pos: "[]".into(),
            play_ms: 10 * (stored + 1),
            updated: 2 + stored,
            finished: None,
        };
        Commit {
            id: id.into(),
            stored_actions: stored + 1,
            update,
            actions: vec![action],
            outcomes: vec![],
            awards: vec![],
            fence: None,
        }
    }

    /// A resignation of game `id` with `stored` actions (no action; the row is written).
    fn resign(id: &str, stored: i64) -> Commit {
        let mut commit = change(id, stored);
        commit.actions.clear();
        commit.stored_actions = stored;
        commit.update.status = "finished".into();
        commit.update.end_reason = Some("resign".into());
        commit.update.version = stored + 1;
        commit.update.chance_pos = stored;
        commit.update.finished = Some(100);
        commit
    }

    /// On SQLite a batch is one round trip with its guards: a batch holding one stale change
    /// stores nothing (so its changes are then written alone, and only the stale one is
    /// refused, as [`ServerError::Stale`]). Stale: a change whose action is stored already
    /// (another writer moved first), an action after the game ended, an ending after another
    /// writer's action.
    #[tokio::test]
    async fn a_stale_change_fails_its_whole_batch_and_alone_is_named() {
        let dir = std::env::temp_dir().join(format!("madang-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let url = format!("sqlite://{}", dir.join("games.db").display());
        let db = Db::connect(&url, super::super::Synchronous::Normal).await.expect("a database");
        db.create_player(&super::super::PlayerRow { id: "p".into(), nickname: "P".into(), created: 1 })
            .await
            .expect("a player");
        let mut held = None;
        for id in ["a", "b", "c"] {
            write(&db, &mut held, &mut db.write_turn().await, Work::Create(&game(id))).await.expect("created");
        }
        write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("b", 0))).await.expect("b's first roll");
        // Another writer's roll of b computed on the same version.
        let (fresh, stale) = (change("a", 0), change("b", 0));
        let batch = write(&db, &mut held, &mut db.write_turn().await, Work::Batch(&[&fresh, &stale])).await;
        assert!(batch.is_err(), "{batch:?}");
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, actions.len()), (0, 0), "nothing of the batch is stored");
        let alone = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&stale)).await;
        assert!(matches!(alone, Err(ServerError::Stale { changes: 1 })), "{alone:?}");
        write(&db, &mut held, &mut db.write_turn().await, Work::Batch(&[&fresh]))
            .await
            .expect("the fresh change alone is stored");
        // Read as of its action row: the row itself was not written by the move.
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, a.chance_pos, a.play_ms, a.updated, actions.len()), (1, 1, 10, 2, 1));
        assert_eq!((actions[0].chance_pos, actions[0].play_ms), (Some(1), Some(10)));
        // A change computed past what is stored (a gap) is refused too.
        let ahead = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("c", 3))).await;
        assert!(matches!(ahead, Err(ServerError::Stale { changes: 1 })), "{ahead:?}");
        let ahead = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&resign("c", 3))).await;
        assert!(matches!(ahead, Err(ServerError::Stale { changes: 1 })), "{ahead:?}");
        // b: a resignation computed before b's stored roll is stale; one after it ends the game,
        // and no action goes in after the end.
        let late = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&resign("b", 0))).await;
        assert!(matches!(late, Err(ServerError::Stale { changes: 1 })), "{late:?}");
        write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&resign("b", 1))).await.expect("b resigned");
        let after = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("b", 1))).await;
        assert!(matches!(after, Err(ServerError::Stale { changes: 1 })), "{after:?}");
        let (b, actions) = db.load_game("b").await.expect("read").expect("stored");
        assert_eq!((b.status.as_str(), b.version, b.chance_pos, actions.len()), ("finished", 2, 1, 1));
        // c: a move ending the game writes its action and the row together.
        let mut last = change("c", 0);
        last.update.status = "finished".into();
        last.update.finished = Some(5);
        write(&db, &mut held, &mut db.write_turn().await, Work::Batch(&[&last])).await.expect("c ended by its roll");
        let (c, actions) = db.load_game("c").await.expect("read").expect("stored");
        assert_eq!((c.status.as_str(), c.version, c.finished, actions.len()), ("finished", 1, Some(5), 1));
        // d: stored before 2026-12-04 (an action row without positions, the row updated with
        // it) by an older server, then moved on by this one: read from the row, then from the
        // new action.
        write(&db, &mut held, &mut db.write_turn().await, Work::Create(&game("d"))).await.expect("created");
        db.close().await;
        let db = Db::connect(&url, super::super::Synchronous::Normal).await.expect("the database again");
        let Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        sqlx::raw_sql(
            "INSERT INTO actions (game_id, idx, action, seat, actor, created) VALUES ('d', 0, 'roll 2', NULL, 'chance', 3); \
             UPDATE games SET version = 1, chance_pos = 9, play_ms = 4, updated = 3 WHERE id = 'd'",
        )
        .execute(pool)
        .await
        .expect("an older writer's move");
        let (d, actions) = db.load_game("d").await.expect("read").expect("stored");
        assert_eq!(actions.len(), 1);
        assert_eq!((d.version, d.chance_pos, d.play_ms, d.updated), (1, 9, 4, 3));
        write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("d", 1))).await.expect("d's next roll");
        let (d, actions) = db.load_game("d").await.expect("read").expect("stored");
        assert_eq!((d.version, d.chance_pos, d.play_ms, d.updated, actions.len()), (2, 2, 20, 3, 2));
        let history = db.history("p", 10, 0).await.expect("history");
        let d = history.iter().find(|h| h.game.id == "d").expect("d in the history");
        assert_eq!((d.game.version, d.game.updated), (2, 3));
        let stats = db.stats_rows("p").await.expect("stats");
        assert_eq!(stats.iter().map(|r| r.play_ms).sum::<i64>(), 10 + 20 + 10 + 20, "a, b (its resignation), c, d");
        drop(held);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The number of rows of `table`.
    async fn count(db: &Db, table: &str) -> i64 {
        let Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(pool)
            .await
            .expect("a count")
    }

    /// On SQLite a move of a game in play is appended to the log, not keyed in `actions`; a game
    /// that ends is written as one record; a server started again reads the log back; the
    /// upkeep writes an idle game as a record, brings its row to its newest action, lets it
    /// leave memory and deletes the log's head; a log with a gap is refused at start.
    #[tokio::test]
    async fn moves_go_to_the_log_and_games_to_records() {
        use std::time::Duration;
        let dir = std::env::temp_dir().join(format!("madang-log-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let url = format!("sqlite://{}", dir.join("games.db").display());
        let connect = || Db::connect(&url, super::super::Synchronous::Normal);
        let db = connect().await.expect("a database");
        db.create_player(&super::super::PlayerRow { id: "p".into(), nickname: "P".into(), created: 1 })
            .await
            .expect("a player");
        let mut held = None;
        for id in ["a", "b"] {
            write(&db, &mut held, &mut db.write_turn().await, Work::Create(&game(id))).await.expect("created");
        }
        for i in 0..3 {
            let (a, b) = (change("a", i), change("b", i));
            let batch: Vec<&Commit> = if i < 2 { vec![&a, &b] } else { vec![&a] };
            write(&db, &mut held, &mut db.write_turn().await, Work::Batch(&batch)).await.expect("stored");
        }
        // Five moves: five log rows, none keyed, no record.
        assert_eq!(
            (count(&db, "actions").await, count(&db, "action_log").await, count(&db, "game_records").await),
            (0, 5, 0)
        );
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, a.chance_pos, a.play_ms, a.updated), (3, 3, 30, 4), "as of its third roll");
        assert_eq!(actions, (0..3).map(|i| change("a", i).actions[0].clone()).collect::<Vec<_>>());
        // b's third roll ends it: its record holds its three actions.
        let mut last = change("b", 2);
        last.update.status = "finished".into();
        last.update.finished = Some(9);
        write(&db, &mut held, &mut db.write_turn().await, Work::Batch(&[&last])).await.expect("b ended");
        let Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        let (n, body): (i64, String) = sqlx::query_as("SELECT actions, body FROM game_records WHERE game_id = 'b'")
            .fetch_one(pool)
            .await
            .expect("b's record");
        let b_actions: Vec<ActionRow> = (0..3).map(|i| change("b", i).actions[0].clone()).collect();
        assert_eq!((n, super::super::log::parse_record("b", &body).expect("a record")), (3, b_actions.clone()));
        assert!(!db.log().games.contains_key("b"), "an ended game leaves memory");
        // Started again, the server reads the log back: a is in play with its three actions.
        db.close().await;
        let db = connect().await.expect("the database again");
        {
            let log = db.log();
            let a = log.games.get("a").expect("a in memory");
            assert_eq!((a.len, a.first_seq, log.games.len(), log.next_seq), (3, Some(1), 1, 7));
        }
        let (b, actions) = db.load_game("b").await.expect("read").expect("stored");
        assert_eq!((b.status.as_str(), b.version, b.finished, actions), ("finished", 3, Some(9), b_actions));
        let mut held = None;
        let stale = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("a", 2))).await;
        assert!(matches!(stale, Err(ServerError::Stale { changes: 1 })), "{stale:?}");
        write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("a", 3))).await.expect("a's fourth roll");
        // The upkeep: a, idle, is written as a record and its row brought to its fourth roll;
        // every log row goes; at the next upkeep a leaves memory.
        db.log().limits = LogLimits {
            idle: Duration::ZERO,
            max_behind: 200_000,
            archive_batch: 64,
            delete_at_least: 1,
            every: Duration::ZERO,
        };
        upkeep(&db).await.expect("an upkeep");
        assert_eq!((count(&db, "action_log").await, count(&db, "game_records").await), (0, 2));
        let Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        let row: (i64, i64, i64, i64, String) =
            sqlx::query_as("SELECT version, chance_pos, play_ms, updated, status FROM games WHERE id = 'a'")
                .fetch_one(pool)
                .await
                .expect("a's row");
        assert_eq!(row, (4, 4, 40, 5, "ongoing".to_owned()));
        upkeep(&db).await.expect("an upkeep");
        assert!(db.log().games.is_empty(), "idle games without log rows leave memory");
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, a.chance_pos, actions.len()), (4, 4, 4));
        // Out of memory, a moves on from its record; a stale change is still refused.
        let stale = write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("a", 3))).await;
        assert!(matches!(stale, Err(ServerError::Stale { changes: 1 })), "{stale:?}");
        write(&db, &mut held, &mut db.write_turn().await, Work::Alone(&change("a", 4))).await.expect("a's fifth roll");
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, a.play_ms, actions.len(), count(&db, "action_log").await), (5, 50, 5, 1));
        // A log row that does not follow its game's actions: the server does not start.
        let Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        sqlx::query(
            "INSERT INTO action_log (seq, game_id, idx, action, seat, actor, created) \
             VALUES (100, 'a', 9, 'roll 2', NULL, 'chance', 9)",
        )
        .execute(pool)
        .await
        .expect("a damaged log");
        db.close().await;
        let refused = connect().await;
        assert!(
            refused.as_ref().is_err_and(|e| e.to_string().contains("action 9 of game a after its action 4")),
            "{:?}",
            refused.err()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
