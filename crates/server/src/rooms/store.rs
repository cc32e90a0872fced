//! Group commit for room games: one writer takes the changes of every room as they come, writes
//! all that are waiting in one transaction, then answers each room. A room's change is
//! acknowledged to its clients only after that commit. Under load many rooms share one
//! transaction, so the cost per action is a few rows, not a transaction; alone, a change is
//! written at once.
//!
//! On SQLite the writer is a thread of its own with its own connection (`rusqlite` over the
//! same SQLite library sqlx uses): a batch is one hand-over to it and one answer per room,
//! with cached prepared statements, and its page cache stays warm. On PostgreSQL it is a task
//! on the pool, feeding each batch to the server as JSON arrays.
//!
//! Every other write of the process waits for its turn too ([`Db::write_turn`]), so SQLite
//! never meets two writers at once.

use rusqlite::{TransactionBehavior, params};
use tokio::sync::{mpsc, oneshot};

use crate::db::{ActionRow, Db, GameUpdate, Synchronous};

/// The most changes written in one transaction.
const MAX_BATCH: usize = 512;

/// One room's change to store.
pub struct Commit {
    /// The game id.
    pub id: String,
    /// The version the change was computed from (the stored version must still be it).
    pub from: i64,
    /// The game row's new columns.
    pub update: GameUpdate,
    /// The new actions.
    pub actions: Vec<ActionRow>,
    /// The players' outcomes when the game ended.
    pub outcomes: Vec<(String, String)>,
}

type Job = (Commit, oneshot::Sender<Result<(), String>>);

/// The handle rooms send their changes to.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::UnboundedSender<Job>,
}

impl Writer {
    /// Starts the writer: a thread on SQLite, a task on PostgreSQL (call inside a tokio
    /// runtime). When the thread cannot be started every `store` answers that the writer has
    /// stopped.
    pub fn start(db: Db) -> Writer {
        let (tx, rx) = mpsc::unbounded_channel();
        match db.sqlite_file().cloned() {
            Some((path, synchronous)) => {
                let spawned = std::thread::Builder::new()
                    .name("madang-room-writer".into())
                    .spawn(move || run_sqlite(&db, &path, synchronous, rx));
                if let Err(error) = spawned {
                    tracing::error!(%error, "starting the room storage writer failed");
                }
            }
            None => {
                tokio::spawn(run_postgres(db, rx));
            }
        }
        Writer { tx }
    }

    /// Stores `commit`; resolves once it is committed.
    ///
    /// # Errors
    /// The database refused it (the text says why); nothing of it is stored then.
    pub async fn store(&self, commit: Commit) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.tx.send((commit, reply)).map_err(|_| "the storage writer has stopped".to_owned())?;
        answer.await.map_err(|_| "the storage writer has stopped".to_owned())?
    }
}

/// Answers a batch: all together when they went in together, else each alone (so one bad
/// change does not fail the others), each with its own result.
fn answer(batch: &mut Vec<Job>, together: Result<(), String>, mut alone: impl FnMut(&Commit) -> Result<(), String>) {
    match together {
        Ok(()) => {
            for (_, reply) in batch.drain(..) {
                let _ = reply.send(Ok(()));
            }
        }
        Err(_) => {
            for (commit, reply) in batch.drain(..) {
                let result = alone(&commit);
                if let Err(error) = &result {
                    tracing::error!(game = %commit.id, %error, "storing a room's change failed");
                }
                let _ = reply.send(result);
            }
        }
    }
}

/// Whether every change of the batch is for a different game (a room waits for its commit
/// before its next change, so this holds unless something is wrong; then they go one by one).
fn distinct(batch: &[Job]) -> bool {
    let mut seen = std::collections::HashSet::new();
    batch.iter().all(|(c, _)| seen.insert(c.id.as_str()))
}

fn stale(stored: usize, commits: usize) -> String {
    format!(
        "{} of {commits} room games were not at the expected version: another writer changed them",
        commits - stored
    )
}

// ------------------------------------------------------------------------------ SQLite

fn run_sqlite(db: &Db, path: &std::path::Path, synchronous: Synchronous, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut conn: Option<rusqlite::Connection> = None;
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while let Some(job) = rx.blocking_recv() {
        batch.push(job);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let _turn = db.write_turn_blocking();
        if db.wal_over_limit()
            && let Some(connection) = &conn
            && let Err(error) = connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        {
            // As `Db::write_turn` does for the pool's writers: the WAL stays bounded.
            tracing::warn!(%error, "truncating WAL checkpoint failed");
        }
        let mut write = |commits: &[&Commit]| -> Result<(), String> {
            let connection = match &mut conn {
                Some(c) => c,
                None => conn.insert(open_sqlite(path, synchronous)?),
            };
            let result = write_sqlite(connection, commits);
            if result.is_err() {
                // Start the next batch on a fresh connection.
                conn = None;
            }
            result
        };
        let together = if distinct(&batch) {
            write(&batch.iter().map(|(c, _)| c).collect::<Vec<_>>())
        } else {
            Err(String::new())
        };
        answer(&mut batch, together, |commit| write(&[commit]));
    }
}

fn open_sqlite(path: &std::path::Path, synchronous: Synchronous) -> Result<rusqlite::Connection, String> {
    let conn = open_sqlite_file(path, synchronous).map_err(|e| format!("opening {}: {e}", path.display()))?;
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |row| row.get(0)).map_err(|e| e.to_string())?;
    if mode.eq_ignore_ascii_case("wal") {
        Ok(conn)
    } else {
        Err(format!("the database is not in WAL mode (it is {mode})"))
    }
}

fn open_sqlite_file(path: &std::path::Path, synchronous: Synchronous) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    // A fallback only: every writer of this process takes its turn first.
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(
        None,
        "synchronous",
        match synchronous {
            Synchronous::Normal => "NORMAL",
            Synchronous::Full => "FULL",
        },
    )?;
    // As on the pool's connections: checkpoints run in the background (`Db::checkpoint`).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // Every room in play touches its own leaf of the actions index and of the games table: a
    // page cache of 64 MiB (SQLite's default is 2 MiB) keeps them all at 1,000 rooms and more,
    // instead of reading them again for every batch.
    conn.pragma_update(None, "cache_size", -65_536)?;
    Ok(conn)
}

fn write_sqlite(conn: &mut rusqlite::Connection, commits: &[&Commit]) -> Result<(), String> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(|e| e.to_string())?;
    let stored = sqlite_rows(&tx, commits).map_err(|e| e.to_string())?;
    if stored != commits.len() {
        // Dropping the transaction rolls it back.
        return Err(stale(stored, commits.len()));
    }
    tx.commit().map_err(|e| e.to_string())
}

/// Writes the rows of `commits`; returns how many game rows were at their expected version.
fn sqlite_rows(tx: &rusqlite::Transaction<'_>, commits: &[&Commit]) -> rusqlite::Result<usize> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO actions (game_id, idx, action, seat, actor, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut update = tx.prepare_cached(
        "UPDATE games SET status = ?1, result = ?2, end_reason = ?3, end_by = ?4, version = ?5, \
         chance_pos = ?6, bot_pos = ?7, play_ms = ?8, updated = ?9, finished = ?10 \
         WHERE id = ?11 AND version = ?12",
    )?;
    let mut outcome =
        tx.prepare_cached("UPDATE game_players SET outcome = ?1 WHERE game_id = ?2 AND player_id = ?3")?;
    let mut stored = 0;
    for c in commits {
        for a in &c.actions {
            insert.execute(params![c.id, a.idx, a.action, a.seat, a.actor, a.created])?;
        }
        let u = &c.update;
        stored += update.execute(params![
            u.status,
            u.result,
            u.end_reason,
            u.end_by,
            u.version,
            u.chance_pos,
            u.bot_pos,
            u.play_ms,
            u.updated,
            u.finished,
            c.id,
            c.from
        ])?;
        for (player, result) in &c.outcomes {
            outcome.execute(params![result, c.id, player])?;
        }
    }
    Ok(stored)
}

// ------------------------------------------------------------------------------ PostgreSQL

async fn run_postgres(db: Db, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let together = if distinct(&batch) {
            write_postgres(&db, &batch.iter().map(|(c, _)| c).collect::<Vec<_>>()).await
        } else {
            Err(String::new())
        };
        let mut alone = Vec::new();
        if together.is_err() {
            for (commit, _) in &batch {
                alone.push(write_postgres(&db, &[commit]).await);
            }
        }
        let mut results = alone.into_iter();
        answer(&mut batch, together, |_| results.next().unwrap_or_else(|| Err("not written".to_owned())));
    }
}

const POSTGRES_ACTIONS: &str = "INSERT INTO actions (game_id, idx, action, seat, actor, created) \
     SELECT e->>0, (e->>1)::bigint, e->>2, e->>3, e->>4, (e->>5)::bigint \
     FROM json_array_elements(CAST($1 AS TEXT)::json) AS e";
const POSTGRES_GAMES: &str = "UPDATE games AS g SET status = e->>1, result = e->>2, end_reason = e->>3, \
     end_by = e->>4, version = (e->>5)::bigint, chance_pos = (e->>6)::bigint, bot_pos = e->>7, \
     play_ms = (e->>8)::bigint, updated = (e->>9)::bigint, finished = (e->>10)::bigint \
     FROM json_array_elements(CAST($1 AS TEXT)::json) AS e WHERE g.id = e->>0 AND g.version = (e->>11)::bigint";

/// The batch as two JSON arrays: action rows and game rows.
fn arrays(commits: &[&Commit]) -> (serde_json::Value, serde_json::Value) {
    let actions = commits
        .iter()
        .flat_map(|c| c.actions.iter().map(|a| serde_json::json!([c.id, a.idx, a.action, a.seat, a.actor, a.created])))
        .collect();
    let games = commits
        .iter()
        .map(|c| {
            let u = &c.update;
            serde_json::json!([
                c.id,
                u.status,
                u.result,
                u.end_reason,
                u.end_by,
                u.version,
                u.chance_pos,
                u.bot_pos,
                u.play_ms,
                u.updated,
                u.finished,
                c.from
            ])
        })
        .collect();
    (serde_json::Value::Array(actions), serde_json::Value::Array(games))
}

async fn write_postgres(db: &Db, commits: &[&Commit]) -> Result<(), String> {
    let text = |e: sqlx::Error| e.to_string();
    let (actions, games) = arrays(commits);
    let mut tx = db.pool().begin().await.map_err(text)?;
    sqlx::query(POSTGRES_ACTIONS).bind(actions.to_string()).execute(&mut *tx).await.map_err(text)?;
    let done = sqlx::query(POSTGRES_GAMES).bind(games.to_string()).execute(&mut *tx).await.map_err(text)?;
    let stored = usize::try_from(done.rows_affected()).unwrap_or(usize::MAX);
    if stored != commits.len() {
        return Err(stale(stored, commits.len()));
    }
    for commit in commits {
        for (player, outcome) in &commit.outcomes {
            sqlx::query("UPDATE game_players SET outcome = $1 WHERE game_id = $2 AND player_id = $3")
                .bind(outcome.clone())
                .bind(commit.id.clone())
                .bind(player.clone())
                .execute(&mut *tx)
                .await
                .map_err(text)?;
        }
    }
    tx.commit().await.map_err(text)
}

/// Records a new room (`rooms` table).
///
/// # Errors
/// A database error.
#[allow(clippy::too_many_arguments)]
pub async fn insert_room(
    db: &Db,
    code: &str,
    host: &str,
    game: &str,
    rules: &str,
    players: Option<i64>,
    public: bool,
    turn_seconds: Option<i64>,
    created: i64,
) -> Result<(), sqlx::Error> {
    let _turn = db.write_turn().await;
    sqlx::query(
        "INSERT INTO rooms (code, host, game, rules, players, public, turn_seconds, created) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(code.to_owned())
    .bind(host.to_owned())
    .bind(game.to_owned())
    .bind(rules.to_owned())
    .bind(players)
    .bind(i64::from(public))
    .bind(turn_seconds)
    .bind(created)
    .execute(db.pool())
    .await?;
    Ok(())
}

/// Records that the room's `idx`-th game (0-based) is `game_id`.
///
/// # Errors
/// A database error.
pub async fn insert_room_game(db: &Db, code: &str, idx: i64, game_id: &str) -> Result<(), sqlx::Error> {
    let _turn = db.write_turn().await;
    sqlx::query("INSERT INTO room_games (code, idx, game_id) VALUES ($1, $2, $3)")
        .bind(code.to_owned())
        .bind(idx)
        .bind(game_id.to_owned())
        .execute(db.pool())
        .await?;
    Ok(())
}

/// A stored room, as [`load_room`] reads it.
pub struct RoomRow {
    /// Game name.
    pub game: String,
    /// Rules (JSON text).
    pub rules: String,
    /// Record's `players`.
    pub players: Option<i64>,
    /// Listed publicly.
    pub public: bool,
    /// Turn timer.
    pub turn_seconds: Option<i64>,
    /// Creation time.
    pub created: i64,
    /// The room's state document (`room::Saved`, JSON).
    pub state: String,
    /// Times the room has been rebuilt, this one included (its versions start at
    /// `generation << 32`).
    pub generation: i64,
}

/// Writes a room's state document (before anyone hears of the change).
///
/// # Errors
/// A database error.
pub async fn save_room(db: &Db, code: &str, state: &str, status: &str, now: i64) -> Result<(), sqlx::Error> {
    let _turn = db.write_turn().await;
    sqlx::query("UPDATE rooms SET state = $1, status = $2, updated = $3 WHERE code = $4")
        .bind(state.to_owned())
        .bind(status.to_owned())
        .bind(now)
        .bind(code.to_owned())
        .execute(db.pool())
        .await?;
    Ok(())
}

/// Marks a room closed for good: it is not rebuilt any more.
///
/// # Errors
/// A database error.
pub async fn close_room(db: &Db, code: &str, now: i64) -> Result<(), sqlx::Error> {
    let _turn = db.write_turn().await;
    sqlx::query("UPDATE rooms SET closed = $1, status = 'closed', updated = $1 WHERE code = $2")
        .bind(now)
        .bind(code.to_owned())
        .execute(db.pool())
        .await?;
    Ok(())
}

/// An open stored room with a state, to rebuild; counts the rebuild (`generation` + 1, in the
/// answer too). `None` for an unknown, closed or pre-0003 room.
///
/// # Errors
/// A database error.
pub async fn load_room(db: &Db, code: &str) -> Result<Option<RoomRow>, sqlx::Error> {
    use sqlx::Row;
    let row = sqlx::query(
        "SELECT game, rules, players, public, turn_seconds, created, state, generation FROM rooms \
         WHERE code = $1 AND closed IS NULL AND state IS NOT NULL",
    )
    .bind(code.to_owned())
    .fetch_optional(db.pool())
    .await?;
    let Some(row) = row else { return Ok(None) };
    let generation: i64 = row.try_get::<i64, _>("generation")? + 1;
    let _turn = db.write_turn().await;
    sqlx::query("UPDATE rooms SET generation = $1 WHERE code = $2")
        .bind(generation)
        .bind(code.to_owned())
        .execute(db.pool())
        .await?;
    Ok(Some(RoomRow {
        game: row.try_get("game")?,
        rules: row.try_get("rules")?,
        players: row.try_get("players")?,
        public: row.try_get::<i64, _>("public")? != 0,
        turn_seconds: row.try_get("turn_seconds")?,
        created: row.try_get("created")?,
        state: row.try_get("state")?,
        generation,
    }))
}

/// The codes of open public rooms in their lobby (rebuilt at start so that `GET /api/rooms`
/// lists them).
///
/// # Errors
/// A database error.
pub async fn public_lobbies(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT code FROM rooms WHERE closed IS NULL AND state IS NOT NULL AND public = 1 AND status = 'lobby'",
    )
    .fetch_all(db.pool())
    .await
}
