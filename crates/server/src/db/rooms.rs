//! The rooms' own rows: `rooms` (a room's settings, its state document, status and how often
//! it was rebuilt) and `room_games` (which games were played in it). The games themselves are
//! stored as any game ([`super::games`]).

use super::{Db, Pool, on_pool, on_write};
use crate::cluster::Fence;
use crate::error::ServerError;

/// A new room's row.
#[derive(Clone, Debug)]
pub struct NewRoom<'a> {
    /// Room code.
    pub code: &'a str,
    /// The host's player id.
    pub host: &'a str,
    /// Game name.
    pub game: &'a str,
    /// Rules (JSON text).
    pub rules: &'a str,
    /// Record's `players`.
    pub players: Option<i64>,
    /// Listed publicly.
    pub public: bool,
    /// Turn timer, seconds.
    pub turn_seconds: Option<i64>,
    /// Creation time (ms since the epoch).
    pub created: i64,
}

/// A stored room, as [`load_room`] reads it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RoomRow {
    /// Game name.
    pub game: String,
    /// Rules (JSON text).
    pub rules: String,
    /// Record's `players`.
    pub players: Option<i64>,
    /// Listed publicly (stored as 0 or 1).
    #[sqlx(try_from = "i64")]
    pub public: Flag,
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

/// A yes/no column stored as the integer 0 or 1 (the type both databases share).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<i64> for Flag {
    fn from(value: i64) -> Flag {
        Flag(value != 0)
    }
}

/// Records a new room (`rooms` table).
///
/// # Errors
/// A database error.
pub async fn insert_room(db: &Db, room: &NewRoom<'_>) -> Result<(), sqlx::Error> {
    let mut turn = db.write_turn().await;
    on_write!(db, turn, exec => {
        sqlx::query(
            "INSERT INTO rooms (code, host, game, rules, players, public, turn_seconds, created) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(room.code)
        .bind(room.host)
        .bind(room.game)
        .bind(room.rules)
        .bind(room.players)
        .bind(i64::from(room.public))
        .bind(room.turn_seconds)
        .bind(room.created)
        .execute(exec)
        .await?;
    });
    Ok(())
}

/// Records that the room's `idx`-th game (0-based) is `game_id`.
///
/// # Errors
/// A database error.
pub async fn insert_room_game(db: &Db, code: &str, idx: i64, game_id: &str) -> Result<(), sqlx::Error> {
    let mut turn = db.write_turn().await;
    on_write!(db, turn, exec => {
        sqlx::query("INSERT INTO room_games (code, idx, game_id) VALUES ($1, $2, $3)")
            .bind(code)
            .bind(idx)
            .bind(game_id)
            .execute(exec)
            .await?;
    });
    Ok(())
}

/// Writes a room's state document (before anyone hears of the change); on a cluster only while
/// `fence` holds (`cluster.rs`).
///
/// # Errors
/// A database error; [`ServerError::Fenced`] when the room's lease was taken over (nothing is
/// written then).
pub async fn save_room(
    db: &Db,
    code: &str,
    state: &str,
    status: &str,
    now: i64,
    fence: Option<&Fence>,
) -> Result<(), ServerError> {
    if let (Some(fence), Pool::Postgres(pool)) = (fence, &db.pool) {
        let query = sqlx::query(
            "WITH fence AS (SELECT 1 FROM leases WHERE key = $5 AND node = $6 AND epoch = $7 FOR SHARE) \
             UPDATE rooms SET state = $1, status = $2, updated = $3 WHERE code = $4 AND EXISTS (SELECT 1 FROM fence)",
        );
        return execute_fenced(pool, query.bind(state).bind(status).bind(now).bind(code), fence).await;
    }
    let mut turn = db.write_turn().await;
    on_write!(db, turn, exec => {
        sqlx::query("UPDATE rooms SET state = $1, status = $2, updated = $3 WHERE code = $4")
            .bind(state)
            .bind(status)
            .bind(now)
            .bind(code)
            .execute(exec)
            .await?;
    });
    Ok(())
}

/// Runs a fenced statement on PostgreSQL: `query` has its own parameters bound, and its last
/// three (`key`, `node`, `epoch`) are the fence's, checked under a share lock of the lease row
/// (`WITH fence AS (SELECT 1 FROM leases WHERE … FOR SHARE) UPDATE … AND EXISTS (SELECT 1 FROM
/// fence)`).
///
/// # Errors
/// A database error; [`ServerError::Fenced`] when the statement changed no row (the lease is
/// no longer held at that epoch).
pub(crate) async fn execute_fenced<'q>(
    pool: &sqlx::PgPool,
    query: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    fence: &'q Fence,
) -> Result<(), ServerError> {
    let done = query.bind(&fence.key).bind(&fence.node).bind(fence.epoch).execute(pool).await?;
    if done.rows_affected() == 0 { Err(ServerError::Fenced { key: fence.key.clone() }) } else { Ok(()) }
}

/// Marks a room closed for good: it is not rebuilt any more (on a cluster only while `fence`
/// holds).
///
/// # Errors
/// A database error; [`ServerError::Fenced`] when the room's lease was taken over.
pub async fn close_room(db: &Db, code: &str, now: i64, fence: Option<&Fence>) -> Result<(), ServerError> {
    if let (Some(fence), Pool::Postgres(pool)) = (fence, &db.pool) {
        let query = sqlx::query(
            "WITH fence AS (SELECT 1 FROM leases WHERE key = $3 AND node = $4 AND epoch = $5 FOR SHARE) \
             UPDATE rooms SET closed = $1, status = 'closed', updated = $1, listing = NULL \
             WHERE code = $2 AND EXISTS (SELECT 1 FROM fence)",
        );
        return execute_fenced(pool, query.bind(now).bind(code), fence).await;
    }
    let mut turn = db.write_turn().await;
    on_write!(db, turn, exec => {
        sqlx::query("UPDATE rooms SET closed = $1, status = 'closed', updated = $1 WHERE code = $2")
            .bind(now)
            .bind(code)
            .execute(exec)
            .await?;
    });
    Ok(())
}

/// An open stored room with a state, to rebuild; counts the rebuild (`generation` + 1, in the
/// answer too). `None` for an unknown, closed or pre-0003 room.
///
/// # Errors
/// A database error.
pub async fn load_room(db: &Db, code: &str) -> Result<Option<RoomRow>, sqlx::Error> {
    let found: Option<RoomRow> = on_pool!(db, pool => {
        sqlx::query_as(
            "SELECT game, rules, players, public, turn_seconds, created, state, generation FROM rooms \
             WHERE code = $1 AND closed IS NULL AND state IS NOT NULL",
        )
        .bind(code)
        .fetch_optional(pool)
        .await?
    });
    let Some(mut row) = found else { return Ok(None) };
    // Counted in the database (two nodes rebuilding at once get different generations).
    let mut turn = db.write_turn().await;
    row.generation = on_write!(db, turn, exec => {
        sqlx::query_scalar("UPDATE rooms SET generation = generation + 1 WHERE code = $1 RETURNING generation")
            .bind(code)
            .fetch_one(exec)
            .await?
    });
    Ok(Some(row))
}

/// The codes of open public rooms in their lobby (rebuilt at start so that `GET /api/rooms`
/// lists them).
///
/// # Errors
/// A database error.
pub async fn public_lobbies(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    on_pool!(db, pool => {
        sqlx::query_scalar(
            "SELECT code FROM rooms WHERE closed IS NULL AND state IS NOT NULL AND public = 1 AND status = 'lobby'",
        )
        .fetch_all(pool)
        .await
    })
}
