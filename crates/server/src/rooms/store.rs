//! Group commit for room games: one writer task takes the changes of every room as they come,
//! and writes all that are waiting in one transaction (the actions of all of them in one
//! `INSERT`, their game rows in one `UPDATE`, both fed a JSON array), then answers each room.
//! A room's change is acknowledged to its clients only after that commit. Under load many rooms
//! share one transaction, so the cost per action is a few rows, not a transaction; alone, a
//! change is written at once.

use tokio::sync::{mpsc, oneshot};

use crate::db::{ActionRow, Backend, Db, GameUpdate};

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
    /// Starts the writer task (inside a tokio runtime).
    pub fn start(db: Db) -> Writer {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(db, rx));
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

async fn run(db: Db, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        // One change per game in a transaction (a room waits for its commit before the next).
        let mut seen = std::collections::HashSet::new();
        let all_distinct = batch.iter().all(|(c, _)| seen.insert(c.id.as_str()));
        let commits: Vec<&Commit> = batch.iter().map(|(c, _)| c).collect();
        let together = if all_distinct { write(&db, &commits).await } else { Err(sqlx::Error::RowNotFound) };
        match together {
            Ok(()) => {
                for (_, reply) in batch.drain(..) {
                    let _ = reply.send(Ok(()));
                }
            }
            Err(_) => {
                // Alone, so one bad change does not fail the others.
                for (commit, reply) in batch.drain(..) {
                    let result = write(&db, &[&commit]).await.map_err(|e| {
                        tracing::error!(game = %commit.id, error = %e, "storing a room's change failed");
                        e.to_string()
                    });
                    let _ = reply.send(result);
                }
            }
        }
    }
}

const SQLITE_ACTIONS: &str = "INSERT INTO actions (game_id, idx, action, seat, actor, created) \
     SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), \
     json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]') FROM json_each($1)";
const POSTGRES_ACTIONS: &str = "INSERT INTO actions (game_id, idx, action, seat, actor, created) \
     SELECT e->>0, (e->>1)::bigint, e->>2, e->>3, e->>4, (e->>5)::bigint \
     FROM json_array_elements(CAST($1 AS TEXT)::json) AS e";
const SQLITE_GAMES: &str = "UPDATE games SET status = json_extract(j.value, '$[1]'), \
     result = json_extract(j.value, '$[2]'), end_reason = json_extract(j.value, '$[3]'), \
     end_by = json_extract(j.value, '$[4]'), version = json_extract(j.value, '$[5]'), \
     chance_pos = json_extract(j.value, '$[6]'), bot_pos = json_extract(j.value, '$[7]'), \
     play_ms = json_extract(j.value, '$[8]'), updated = json_extract(j.value, '$[9]'), \
     finished = json_extract(j.value, '$[10]') FROM json_each($1) AS j \
     WHERE games.id = json_extract(j.value, '$[0]') AND games.version = json_extract(j.value, '$[11]')";
const POSTGRES_GAMES: &str = "UPDATE games AS g SET status = e->>1, result = e->>2, end_reason = e->>3, \
     end_by = e->>4, version = (e->>5)::bigint, chance_pos = (e->>6)::bigint, bot_pos = e->>7, \
     play_ms = (e->>8)::bigint, updated = (e->>9)::bigint, finished = (e->>10)::bigint \
     FROM json_array_elements(CAST($1 AS TEXT)::json) AS e WHERE g.id = e->>0 AND g.version = (e->>11)::bigint";

fn arrays(commits: &[&Commit]) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    let actions: Vec<serde_json::Value> = commits
        .iter()
        .flat_map(|c| c.actions.iter().map(|a| serde_json::json!([c.id, a.idx, a.action, a.seat, a.actor, a.created])))
        .collect();
    let games: Vec<serde_json::Value> = commits
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
    (actions, games)
}

async fn write(db: &Db, commits: &[&Commit]) -> Result<(), sqlx::Error> {
    let postgres = db.backend() == Backend::Postgres;
    let (actions, games) = arrays(commits);
    let mut tx = db.pool().begin().await?;
    if !actions.is_empty() {
        let sql = if postgres { POSTGRES_ACTIONS } else { SQLITE_ACTIONS };
        sqlx::query(sql).bind(serde_json::Value::Array(actions).to_string()).execute(&mut *tx).await?;
    }
    let sql = if postgres { POSTGRES_GAMES } else { SQLITE_GAMES };
    let done = sqlx::query(sql).bind(serde_json::Value::Array(games).to_string()).execute(&mut *tx).await?;
    if done.rows_affected() != commits.len() as u64 {
        return Err(sqlx::Error::Protocol(format!(
            "{} of {} room games were not at the expected version: another writer changed them",
            commits.len() as u64 - done.rows_affected(),
            commits.len()
        )));
    }
    for commit in commits {
        for (player, outcome) in &commit.outcomes {
            sqlx::query("UPDATE game_players SET outcome = $1 WHERE game_id = $2 AND player_id = $3")
                .bind(outcome.clone())
                .bind(commit.id.clone())
                .bind(player.clone())
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await
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
