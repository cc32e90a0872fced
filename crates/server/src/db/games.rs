//! The SQL of games and their actions, for every way a game is played (against the computer,
//! on one screen, in a room) and both databases: one statement for each change.
//!
//! - A new game: [`Writer::create`] (the `games` row, its players and first actions), through the
//!   same writer as the changes.
//! - A change to a game in play: a [`Commit`] (new actions, the game row's new columns guarded
//!   by the version it was computed from, the players' outcomes at the end), stored through the
//!   one group-commit [`Writer`]: it takes every change waiting, of every game, writes them in
//!   one transaction (one multi-row `INSERT INTO actions`, one `UPDATE games … FROM (VALUES …)`,
//!   one `UPDATE game_players … FROM (VALUES …)`, built with sqlx's `QueryBuilder`), then
//!   answers each. A change is acknowledged only after that commit, so nobody hears of an
//!   action before it is stored; under load many games share a commit, alone a change is
//!   written at once.
//! - Reading: [`Db::load_game`], [`Db::history`], [`Db::stats_rows`].

use std::collections::HashSet;

use sqlx::pool::PoolConnection;
use sqlx::{Connection, Postgres, QueryBuilder, Sqlite};
use tokio::sync::{mpsc, oneshot};

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
    /// Number of events in the game's log.
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
    /// The version the change was computed from (the stored version must still be it).
    pub from: i64,
    /// The game row's new columns.
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

/// Pushes the statement adding `rows` (game id, action) to `query`.
fn push_actions<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, rows: &[(&str, &ActionRow)])
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    query.push("INSERT INTO actions (game_id, idx, action, seat, actor, created) ");
    query.push_values(rows, |mut row, (id, a)| {
        row.push_bind((*id).to_owned())
            .push_bind(a.idx)
            .push_bind(a.action.clone())
            .push_bind(a.seat.clone())
            .push_bind(a.actor.clone())
            .push_bind(a.created);
    });
}

/// Pushes the statement moving each game of `commits` to its new columns, where its stored
/// version is still the one the change was computed from (the rows it changes are the changes
/// stored). `VALUES` columns are `column1, column2, …` in both databases.
fn push_update_games<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, commits: &[&Commit])
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
            .push_bind(c.from);
    });
    query.push(") AS v WHERE games.id = v.column1 AND games.version = v.column12");
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

/// Which statements of a batch update games: `skip` statements come first (the actions'
/// inserts), then `take` updates.
struct Updates {
    skip: usize,
    take: usize,
}

/// Where [`push_batch`] is in a batch, for the caller to join its statements.
enum Step {
    /// A statement comes next.
    Statement,
    /// A statement updating this many game rows has just been pushed.
    Updated(usize),
}

/// Pushes every statement of a batch of `commits` to `query`, calling `next` before each and
/// after each update of games: the actions' inserts, the games' updates, the outcomes'
/// updates, in chunks of [`CHUNK`] rows.
fn push_batch<DB: sqlx::Database>(
    query: &mut QueryBuilder<DB>,
    commits: &[&Commit],
    mut next: impl FnMut(&mut QueryBuilder<DB>, Step),
) -> Updates
where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let actions: Vec<(&str, &ActionRow)> =
        commits.iter().flat_map(|c| c.actions.iter().map(|a| (c.id.as_str(), a))).collect();
    let outcomes: Vec<(&str, &str, &str)> =
        commits.iter().flat_map(|c| c.outcomes.iter().map(|(p, o)| (c.id.as_str(), p.as_str(), o.as_str()))).collect();
    let updates = Updates { skip: actions.chunks(CHUNK).len(), take: commits.chunks(CHUNK).len() };
    for chunk in actions.chunks(CHUNK) {
        next(query, Step::Statement);
        push_actions(query, chunk);
    }
    for chunk in commits.chunks(CHUNK) {
        next(query, Step::Statement);
        push_update_games(query, chunk);
        next(query, Step::Updated(chunk.len()));
    }
    for chunk in outcomes.chunks(CHUNK) {
        next(query, Step::Statement);
        push_outcomes(query, chunk);
    }
    let awards: Vec<&AwardRow> = commits.iter().flat_map(|c| c.awards.iter()).collect();
    for chunk in awards.chunks(CHUNK) {
        next(query, Step::Statement);
        push_awards(query, chunk);
    }
    updates
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
    mut next: impl FnMut(&mut QueryBuilder<DB>, Step),
) where
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let game = &rows.game;
    next(query, Step::Statement);
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
        next(query, Step::Statement);
        query.push("INSERT INTO game_players (game_id, player_id, outcome) ");
        query.push_values(&rows.participants, |mut row, player| {
            row.push_bind(game.id.clone()).push_bind(player.clone()).push_bind(outcome(player));
        });
    }
    let actions: Vec<(&str, &ActionRow)> = rows.actions.iter().map(|a| (game.id.as_str(), a)).collect();
    for chunk in actions.chunks(CHUNK) {
        next(query, Step::Statement);
        push_actions(query, chunk);
    }
    let awards: Vec<&AwardRow> = rows.awards.iter().collect();
    for chunk in awards.chunks(CHUNK) {
        next(query, Step::Statement);
        push_awards(query, chunk);
    }
}

impl Db {
    /// A game and its actions in order.
    ///
    /// # Errors
    /// A database error.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<ActionRow>)>, sqlx::Error> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        on_pool!(self, pool => {
            let Some(game) = sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await? else {
                return Ok(None);
            };
            let actions =
                sqlx::query_as("SELECT idx, action, seat, actor, created FROM actions WHERE game_id = $1 ORDER BY idx")
                    .bind(id)
                    .fetch_all(pool)
                    .await?;
            Ok(Some((game, actions)))
        })
    }

    /// A player's games, newest first, with the player's outcome.
    ///
    /// # Errors
    /// A database error.
    pub async fn history(&self, player: &str, limit: i64, offset: i64) -> Result<Vec<HistoryRow>, sqlx::Error> {
        let columns = GAME_COLUMNS.split(", ").map(|c| format!("g.{c}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT {columns}, gp.outcome AS outcome FROM game_players gp JOIN games g ON g.id = gp.game_id \
             WHERE gp.player_id = $1 ORDER BY g.created DESC, g.id DESC LIMIT $2 OFFSET $3"
        );
        on_pool!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(player).bind(limit).bind(offset).fetch_all(pool).await
        })
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
        on_pool!(self, pool => {
            sqlx::query_as(
                "SELECT g.game AS game, g.mode AS mode, g.cpu AS cpu, g.status AS status, gp.outcome AS outcome, \
                 g.play_ms AS play_ms FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE gp.player_id = $1",
            )
            .bind(player)
            .fetch_all(pool)
            .await
        })
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

/// The writer's own connection, kept from batch to batch (on SQLite its page cache stays warm:
/// every game in play touches its own leaf of the actions index and of the games table).
enum Held {
    Sqlite(PoolConnection<Sqlite>),
    Postgres(PoolConnection<Postgres>),
}

/// SQLite settings of the writer's connection: a page cache of 64 MiB (SQLite's default is
/// 2 MiB), which holds the leaf pages of a thousand games in play and more; and temporary files
/// in memory — a multi-row statement inside a transaction keeps a statement journal (to undo
/// that statement alone), which on a file cost a write and a truncation every batch.
const WRITER_SETTINGS: &str = "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY";

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
    /// The database refused it, or the stored game is no longer at `commit.from`
    /// ([`ServerError::Stale`]); nothing of it is stored then.
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
            let _turn = db.write_turn().await;
            let _ = reply.send(write(&db, &mut held, Work::Create(&rows)).await);
        }
        write_batch(&db, &mut held, &mut batch).await;
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
    let _turn = db.write_turn().await;
    // Changes for different games go in together (a game waits for its commit before its
    // next change, so this holds unless something is wrong; then they go one by one).
    let mut seen = HashSet::new();
    let together = if batch.iter().all(|(c, _)| seen.insert(c.id.as_str())) {
        let commits: Vec<&Commit> = batch.iter().map(|(c, _)| c).collect();
        write(db, held, Work::Batch(&commits)).await
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
        let result = write(db, held, Work::Alone(&commit)).await;
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

/// Writes `work` in one transaction on the writer's connection (opened when there is none;
/// closed after an error, so the next transaction starts on a fresh one).
async fn write(db: &Db, held: &mut Option<Held>, work: Work<'_>) -> Result<(), ServerError> {
    if held.is_none() {
        *held = Some(match &db.pool {
            Pool::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                sqlx::raw_sql(WRITER_SETTINGS).execute(&mut *conn).await?;
                Held::Sqlite(conn)
            }
            Pool::Postgres(pool) => Held::Postgres(pool.acquire().await?),
        });
    }
    let result = match held.as_mut() {
        Some(Held::Sqlite(conn)) => write_sqlite(conn, work).await,
        Some(Held::Postgres(conn)) => write_postgres(conn, work).await,
        None => Ok(()),
    };
    if result.is_err()
        && let Some(conn) = held.take()
    {
        // Closed, not given back: a failed batch may have left the connection in a transaction.
        match conn {
            Held::Sqlite(conn) => drop(conn.detach()),
            Held::Postgres(conn) => drop(conn.detach()),
        }
    }
    result
}

/// The stale-version refusal unless every game row of the batch was at its version.
fn check_stored(stored: u64, commits: &[&Commit]) -> Result<(), ServerError> {
    if stored == commits.len() as u64 {
        Ok(())
    } else {
        Err(ServerError::Stale { stored: usize::try_from(stored).unwrap_or(0), changes: commits.len() })
    }
}

/// SQLite: the whole transaction is one string of statements (`BEGIN IMMEDIATE; INSERT …;
/// UPDATE …; COMMIT`), one hand-over to sqlx's SQLite thread. Anonymous parameters (`?`, as
/// `QueryBuilder` writes them for SQLite) are bound in order across the statements.
///
/// A batch checks the versions in the same round trip: after each update of games a guard
/// statement fails (SQLite's `json()` refuses a text that is not JSON) unless every row was at
/// its version (`changes()`), which stops the statements before the `COMMIT`; the batch is then
/// rolled back and its changes written alone. A change alone counts the rows its update changed
/// and then commits or rolls back: a second round trip, which names a stale version.
async fn write_sqlite(conn: &mut PoolConnection<Sqlite>, work: Work<'_>) -> Result<(), ServerError> {
    use futures_util::TryStreamExt;
    let mut query = QueryBuilder::<Sqlite>::new("BEGIN IMMEDIATE");
    let guarded = matches!(work, Work::Batch(_));
    let mut join = |q: &mut QueryBuilder<Sqlite>, step| match step {
        Step::Statement => {
            q.push("; ");
        }
        Step::Updated(rows) if guarded => {
            q.push("; SELECT json('a game is not at the version its change was computed from') WHERE changes() <> ");
            q.push_bind(rows as i64);
        }
        Step::Updated(_) => {}
    };
    let alone = match work {
        Work::Batch(commits) => {
            push_batch(&mut query, commits, &mut join);
            None
        }
        Work::Alone(commit) => Some((commit, push_batch(&mut query, &[commit], &mut join))),
        Work::Create(rows) => {
            push_new_game(&mut query, rows, &mut join);
            None
        }
    };
    if alone.is_none() {
        query.push("; COMMIT");
    }
    let results: Result<Vec<_>, sqlx::Error> =
        sqlx::Executor::execute_many(&mut **conn, query.build()).try_collect().await;
    let done = match (results, alone) {
        (Ok(_), None) => return Ok(()),
        // The first result is `BEGIN`'s.
        (Ok(results), Some((commit, updates))) => check_stored(
            results.iter().skip(1 + updates.skip).take(updates.take).map(|r| r.rows_affected()).sum(),
            &[commit],
        ),
        (Err(error), _) => Err(ServerError::from(error)),
    };
    let end = if done.is_ok() { "COMMIT" } else { "ROLLBACK" };
    let ended = sqlx::raw_sql(end).execute(&mut **conn).await;
    done?;
    ended?;
    Ok(())
}

/// PostgreSQL: the statements one by one in a transaction (the extended protocol takes one
/// statement per query), the versions counted from the updates' results.
async fn write_postgres(conn: &mut PoolConnection<Postgres>, work: Work<'_>) -> Result<(), ServerError> {
    let mut statements = Vec::new();
    let mut query = QueryBuilder::<Postgres>::new("");
    let mut join = |q: &mut QueryBuilder<Postgres>, step| {
        if matches!(step, Step::Statement) && !q.sql().as_str().is_empty() {
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
    let mut stored = 0;
    for (i, statement) in statements.iter_mut().enumerate() {
        let done = statement.build().execute(&mut *tx).await?;
        if checked.as_ref().is_some_and(|(updates, _)| (updates.skip..updates.skip + updates.take).contains(&i)) {
            stored += done.rows_affected();
        }
    }
    if let Some((_, changes)) = checked
        && stored != changes as u64
    {
        // Dropping the transaction rolls it back.
        return Err(ServerError::Stale { stored: usize::try_from(stored).unwrap_or(0), changes });
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
mod tests {
    use super::*;

    #[test]
    fn the_statements_are_one_per_change_with_a_row_per_value() {
        let action = |idx| ActionRow { idx, action: "roll 3".into(), seat: None, actor: "chance".into(), created: 1 };
        let (a, b) = (action(0), action(1));
        let mut insert = QueryBuilder::<Postgres>::new("");
        push_actions(&mut insert, &[("g", &a), ("g", &b)]);
        let sql = insert.into_sql();
        assert_eq!(
            sql.as_str(),
            "INSERT INTO actions (game_id, idx, action, seat, actor, created) VALUES ($1, $2, $3, $4, $5, $6), \
             ($7, $8, $9, $10, $11, $12)"
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
        let commit =
            Commit { id: "g".into(), from: 1, update, actions: vec![], outcomes: vec![], awards: vec![], fence: None };
        let mut update = QueryBuilder::<Sqlite>::new("");
        push_update_games(&mut update, &[&commit, &commit]);
        let sql = update.into_sql().as_str().to_owned();
        assert!(sql.starts_with("UPDATE games SET status = v.column2"), "{sql}");
        // Two rows of twelve values; SQLite's placeholders are `?`.
        assert_eq!(sql.matches('?').count(), 24, "{sql}");
        assert!(sql.ends_with(") AS v WHERE games.id = v.column1 AND games.version = v.column12"), "{sql}");
    }

    fn game(id: &str) -> NewGameRows {
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

    fn change(id: &str, from: i64) -> Commit {
        let action = ActionRow { idx: from, action: "roll 2".into(), seat: None, actor: "chance".into(), created: 2 };
        let update = GameUpdate {
            status: "ongoing".into(),
            result: None,
            end_reason: None,
            end_by: None,
            version: from + 1,
            chance_pos: 1,
            bot_pos: "[]".into(),
            play_ms: 0,
            updated: 2,
            finished: None,
        };
        Commit { id: id.into(), from, update, actions: vec![action], outcomes: vec![], awards: vec![], fence: None }
    }

    /// On SQLite a batch is one round trip with its version guard: a batch holding one stale
    /// change stores nothing (so its changes are then written alone, and only the stale one is
    /// refused, as [`ServerError::Stale`]).
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
        for id in ["a", "b"] {
            write(&db, &mut held, Work::Create(&game(id))).await.expect("created");
        }
        let (fresh, stale) = (change("a", 0), change("b", 5));
        let batch = write(&db, &mut held, Work::Batch(&[&fresh, &stale])).await;
        assert!(batch.is_err(), "{batch:?}");
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, actions.len()), (0, 0), "nothing of the batch is stored");
        let alone = write(&db, &mut held, Work::Alone(&stale)).await;
        assert!(matches!(alone, Err(ServerError::Stale { stored: 0, changes: 1 })), "{alone:?}");
        write(&db, &mut held, Work::Batch(&[&fresh])).await.expect("the fresh change alone is stored");
        let (a, actions) = db.load_game("a").await.expect("read").expect("stored");
        assert_eq!((a.version, a.chance_pos, actions.len()), (1, 1, 1));
        drop(held);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
