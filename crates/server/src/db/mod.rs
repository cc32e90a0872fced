//! Storage on SQLite or PostgreSQL, through sqlx's own driver for each (no other SQLite
//! driver): the connection pool, migrations (`sqlx::migrate!` over `migrations/sqlite` and
//! `migrations/postgres`, applied on start), SQLite's WAL upkeep, and the players. The SQL of
//! games and their actions is in [`games`] (one module for games against the computer, on one
//! screen and in rooms), the rooms' own rows in [`rooms`].
//!
//! Every statement is written once for both databases: both accept `$1, $2, …` placeholders,
//! and `on_pool!` runs the same code on whichever pool is open. Values are the types both
//! share: `BIGINT` (`i64`) and `TEXT` (`String`, JSON documents included).

pub mod games;
mod log;
pub mod reviews;
pub mod rooms;

use std::str::FromStr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{ConnectOptions as _, Connection as _};

use crate::error::ServerError;

pub use games::{ActionRow, Commit, GameRow, GameUpdate, HistoryRow, NewGameRows, Writer};

/// The SQLite durability setting (`PRAGMA synchronous`); PostgreSQL has its own
/// (`synchronous_commit`, on by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// WAL with `synchronous = NORMAL` (default): a commit survives a crash of the server
    /// process (SIGKILL included); the last commits may be lost on power loss or an OS crash.
    #[default]
    Normal,
    /// WAL with `synchronous = FULL`: every commit is fsynced, so it also survives power loss,
    /// at the cost of one fsync per command.
    Full,
}

impl FromStr for Synchronous {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "normal" => Ok(Synchronous::Normal),
            "full" => Ok(Synchronous::Full),
            other => Err(format!("expected `normal` or `full`, got {other:?}")),
        }
    }
}

/// Which database the URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `sqlite://…`
    Sqlite,
    /// `postgres://…` or `postgresql://…`
    Postgres,
}

/// A player row.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerRow {
    /// Random 128-bit id, 32 hex digits.
    pub id: String,
    /// Display name.
    pub nickname: String,
    /// Creation time (ms since the epoch).
    pub created: i64,
}

/// The open pool, one per backend.
#[derive(Clone, Debug)]
pub(crate) enum Pool {
    /// SQLite.
    Sqlite(SqlitePool),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to the open pool (`SqlitePool` or `PgPool`): the same
/// statements for both, type-checked for each.
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match &$db.pool {
            $crate::db::Pool::Sqlite($pool) => $body,
            $crate::db::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_pool;

/// Runs a write's `$body` with `$exec` bound to where writes go: on SQLite the one write
/// connection of the held turn `$turn` ([`Db::write_turn`]), on PostgreSQL the pool. The same
/// statements for both, type-checked for each; `$body` uses `$exec` once.
macro_rules! on_write {
    ($db:expr, $turn:expr, $exec:ident => $body:expr) => {
        match (&$db.pool, &mut $turn) {
            (_, Some(turn)) => {
                let $exec = turn.conn().await?;
                $body
            }
            ($crate::db::Pool::Postgres($exec), None) => $body,
            ($crate::db::Pool::Sqlite($exec), None) => $body,
        }
    };
}
pub(crate) use on_write;

/// The database.
#[derive(Clone, Debug)]
pub struct Db {
    pub(crate) pool: Pool,
    /// SQLite: the one connection every write goes through, one writer at a time inside this
    /// process ([`Db::write_turn`]); opened on first use, again after a failed write.
    write_turn: std::sync::Arc<tokio::sync::Mutex<WriteConn>>,
    /// SQLite: how the write connection is opened (the pool's options).
    write_options: Option<SqliteConnectOptions>,
    /// SQLite: how many complete checkpoints ran, by kind.
    completed: std::sync::Arc<Completed>,
    /// SQLite: the WAL's size above which the background checkpoint starts it over (and twice
    /// which a writer first runs a truncating checkpoint).
    wal_max_bytes: u64,
    /// SQLite: the bytes of a WAL frame, a page and its 24-byte header (read at connect).
    frame_bytes: u64,
    /// SQLite: the WAL file (`<database>-wal`).
    wal_file: Option<std::path::PathBuf>,
    /// SQLite: the index of the log of actions of games in play ([`log`]), changed by the
    /// holder of the write turn after each commit, read by the readers of games in play.
    pub(crate) log: std::sync::Arc<std::sync::Mutex<log::ActionLog>>,
}

/// How long the first connection to PostgreSQL may take.
const FIRST_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The complete checkpoints that have finished ([`complete_checkpoint`]).
#[derive(Debug, Default)]
struct Completed {
    /// Restarting ones, by the background checkpoint ([`Db::checkpoint_once`]).
    restarts: std::sync::atomic::AtomicU64,
    /// The frames in the WAL as the last restart found them (all copied): while a passive
    /// checkpoint still finds exactly these, nothing was written since and no restart is due.
    restarted_at: std::sync::atomic::AtomicI64,
    /// Truncating ones, by a writer that found the WAL over twice its limit ([`Db::write_turn`]).
    truncations: std::sync::atomic::AtomicU64,
}

/// How often SQLite's WAL is checkpointed in the background (`Db::checkpoint_once`). A restart
/// copies what was written since its passive checkpoint began: that checkpoint's own time and
/// the wait for the write turn, a few tens of milliseconds under load.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// `url` without its password (`postgres://user@host:port/db`), for messages; a URL that does
/// not parse is not repeated at all (it may hold a password).
fn without_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            let _ = parsed.set_password(None);
            parsed.to_string()
        }
        Err(_) => "named by --database".to_owned(),
    }
}

/// Connects to PostgreSQL once, with a short timeout, and reports why it failed: the pool
/// retries a refused connection until its acquire timeout and then says only "pool timed out".
async fn connect_once(url: &str) -> Result<(), ServerError> {
    use sqlx::Connection;
    let shown = without_password(url);
    match tokio::time::timeout(FIRST_CONNECT_TIMEOUT, sqlx::PgConnection::connect(url)).await {
        Ok(Ok(connection)) => {
            let _ = connection.close().await;
            Ok(())
        }
        Ok(Err(error)) => Err(ServerError::Config(format!("cannot connect to the database {shown}: {error}"))),
        Err(_) => Err(ServerError::Config(format!(
            "cannot connect to the database {shown}: no answer within {} s",
            FIRST_CONNECT_TIMEOUT.as_secs()
        ))),
    }
}

/// The backend of a database URL [`Db::connect`] can open (`sqlite://PATH` or `postgres://…`),
/// checked without opening it, so a server refuses a bad `--database` before it writes anything.
///
/// # Errors
/// [`ServerError::Config`] naming the URL.
pub fn backend_of(url: &str) -> Result<Backend, ServerError> {
    if url.starts_with("sqlite:") {
        sqlite_options(url).map(|_| Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        Err(ServerError::Config(format!("--database must be sqlite://PATH or postgres://…, got {url:?}")))
    }
}

impl Db {
    /// Opens the database named by `url` (`sqlite://PATH` or `postgres://…`) and applies the
    /// migrations. A SQLite file is created if missing and put in WAL mode.
    ///
    /// # Errors
    /// A bad URL, an unreachable server, or a failed migration.
    pub async fn connect(url: &str, synchronous: Synchronous) -> Result<Db, ServerError> {
        let acquire = Duration::from_secs(10);
        let mut write_options = None;
        let (pool, wal_file) = if backend_of(url)? == Backend::Sqlite {
            let options = sqlite_options(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(match synchronous {
                    Synchronous::Normal => SqliteSynchronous::Normal,
                    Synchronous::Full => SqliteSynchronous::Full,
                })
                // Checkpoints run in the background (`Db::checkpoint`), not inside a command's
                // commit, where their fsyncs would stall the answer.
                .pragma("wal_autocheckpoint", "0");
            write_options = Some(options.clone());
            let file = options.get_filename().to_owned();
            let mut wal = file.as_os_str().to_owned();
            wal.push("-wal");
            // Five connections for reads; every write goes through one more, the write
            // connection (`Db::write_turn`).
            let pool = SqlitePoolOptions::new()
                .acquire_timeout(acquire)
                .max_connections(5)
                .connect_with(options)
                .await
                .map_err(|e| ServerError::Config(format!("opening the SQLite database {}: {e}", file.display())))?;
            (Pool::Sqlite(pool), Some(std::path::PathBuf::from(wal)))
        } else {
            connect_once(url).await?;
            let pool = PgPoolOptions::new().acquire_timeout(acquire).max_connections(16).connect(url).await?;
            (Pool::Postgres(pool), None)
        };
        let mut db = Db {
            pool,
            write_turn: std::sync::Arc::default(),
            write_options,
            completed: std::sync::Arc::default(),
            wal_max_bytes: u64::MAX,
            frame_bytes: 4096 + 24,
            wal_file,
            log: std::sync::Arc::default(),
        };
        match &db.pool {
            Pool::Sqlite(pool) => {
                sqlx::migrate!("migrations/sqlite").run(pool).await?;
                let (page,): (i64,) = sqlx::query_as("PRAGMA page_size").fetch_one(pool).await?;
                db.frame_bytes = u64::try_from(page).unwrap_or(4096) + 24;
                let mut conn = pool.acquire().await?;
                let mut index = log::ActionLog::default();
                log::rebuild(&mut conn, &mut index).await?;
                *db.log() = index;
            }
            Pool::Postgres(pool) => sqlx::migrate!("migrations/postgres").run(pool).await?,
        }
        Ok(db)
    }

    /// SQLite: starts the WAL over once it holds more than `bytes` (`Db::checkpoint_once`);
    /// a writer truncates it past twice that (`Db::wal_past_twice_limit`).
    pub fn set_wal_max_bytes(&mut self, bytes: u64) {
        self.wal_max_bytes = bytes;
    }

    /// The log's index ([`log::ActionLog`]); a panic of another holder leaves it as it was.
    pub(crate) fn log(&self) -> std::sync::MutexGuard<'_, log::ActionLog> {
        self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// SQLite: waits for this process's turn to write, first come first served; `None` on
    /// PostgreSQL, which runs writers side by side. Every write transaction holds the turn:
    /// two SQLite connections that want to write at once would otherwise meet SQLite's busy
    /// handler, which sleeps (up to 100 ms a try) instead of queueing, and under load a
    /// writer that commits back to back starves the others for seconds.
    ///
    /// When the WAL file has grown past twice its limit ([`Db::wal_past_twice_limit`]: the background
    /// checkpoint could not keep it under), the turn first runs a truncating checkpoint: no other
    /// writer of ours can be writing, so it copies the rest of the WAL and empties the file.
    pub(crate) async fn write_turn(&self) -> Option<WriteTurn<'_>> {
        match (&self.pool, &self.write_options) {
            (Pool::Sqlite(pool), Some(options)) => {
                let turn = self.write_turn.lock().await;
                if self.wal_past_twice_limit() && complete_checkpoint(pool, Complete::Truncate).await.is_some() {
                    self.completed.truncations.fetch_add(1, Ordering::Relaxed);
                }
                Some(WriteTurn { conn: turn, options })
            }
            _ => None,
        }
    }

    /// Closes the pool, waiting for connections to finish (SQLite: after a last checkpoint).
    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(pool) => {
                let last = std::mem::replace(&mut *self.write_turn.lock().await, WriteConn::Closed);
                if let WriteConn::Open(conn) = last
                    && let Err(error) = conn.close().await
                {
                    tracing::warn!(%error, "closing the write connection failed");
                }
                if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(pool).await {
                    tracing::warn!(%error, "final WAL checkpoint failed");
                }
                pool.close().await;
            }
            Pool::Postgres(pool) => pool.close().await,
        }
    }

    /// SQLite: the background checkpoint, every `CHECKPOINT_EVERY` until `stop` turns true
    /// (`Db::checkpoint_once`). Commands never checkpoint themselves, except to keep the WAL
    /// bounded when this task falls behind (`Db::write_turn`).
    pub async fn checkpoint(&self, mut stop: tokio::sync::watch::Receiver<bool>) {
        if !matches!(self.pool, Pool::Sqlite(_)) {
            return;
        }
        let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => self.checkpoint_once().await,
                _ = stop.changed() => break,
            }
        }
    }

    /// SQLite: one background checkpoint. First a passive one, which copies the WAL into the
    /// database file while writers go on (the bulk of the copying and its fsyncs, stalling
    /// nobody). Under a steady load it never catches up with the writers, so SQLite never starts
    /// the WAL over and the file would grow without bound: when the WAL holds more than its
    /// limit (`Limits::wal_max_bytes`), a restarting checkpoint follows under the write turn —
    /// it copies only what was written since the passive one began, and the next write starts
    /// the WAL over from its beginning. The file is not truncated (its blocks are written again
    /// in place, and on ext4 mounted with `discard` a truncation alone costs ~20 ms), so it keeps
    /// the largest size it reached, the limit and what was written until the restart. Nothing
    /// on PostgreSQL.
    ///
    /// Measured with `rooms_load --rooms 1000 --think-ms 50` (`docs/server.md`, "Storage"): a
    /// restart holds the turn for 6-30 ms about twice a second, where the truncating checkpoint
    /// that the writers ran instead (at the limit) held it for 50-130 ms as often.
    pub(crate) async fn checkpoint_once(&self) {
        let Pool::Sqlite(pool) = &self.pool else { return };
        // `frames` is what the WAL held when the checkpoint started, whatever it copied: writers
        // append meanwhile, so even one that copied every frame it found may not end the WAL.
        let (busy, frames, copied) =
            match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(pool).await {
                Ok(row) => row,
                Err(error) => {
                    tracing::warn!(%error, "WAL checkpoint failed");
                    return;
                }
            };
        // Busy: another checkpoint runs (a writer's truncation, the shutdown's); -1: no WAL.
        if busy != 0 || frames < 0 {
            return;
        }
        // Nothing written since the last restart (an idle server): the next write starts it over.
        let idle = copied == frames && frames == self.completed.restarted_at.load(Ordering::Relaxed);
        let held = u64::try_from(frames).unwrap_or(0).saturating_mul(self.frame_bytes);
        if held > self.wal_max_bytes && !idle {
            let _turn = self.write_turn.lock().await;
            if let Some(frames) = complete_checkpoint(pool, Complete::Restart).await {
                self.completed.restarts.fetch_add(1, Ordering::Relaxed);
                self.completed.restarted_at.store(frames, Ordering::Relaxed);
            }
        }
    }

    /// SQLite: whether the WAL file has grown over twice its limit (`Limits::wal_max_bytes`):
    /// the background checkpoint ([`Db::checkpoint_once`]) keeps it nearer the limit unless it
    /// falls behind; then the writer whose turn finds it over runs a truncating checkpoint first
    /// ([`Db::write_turn`]).
    pub(crate) fn wal_past_twice_limit(&self) -> bool {
        self.wal_max_bytes != u64::MAX
            && self
                .wal_file
                .as_ref()
                .is_some_and(|wal| std::fs::metadata(wal).is_ok_and(|m| m.len() / 2 > self.wal_max_bytes))
    }

    /// Creates a player (nothing when one with this id exists already).
    ///
    /// # Errors
    /// A database error.
    pub async fn create_player(&self, player: &PlayerRow) -> Result<(), sqlx::Error> {
        let mut turn = self.write_turn().await;
        on_write!(self, turn, exec => {
            sqlx::query("INSERT INTO players (id, nickname, created) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING")
                .bind(&player.id)
                .bind(&player.nickname)
                .bind(player.created)
                .execute(exec)
                .await?;
        });
        Ok(())
    }

    /// The player with this id.
    ///
    /// # Errors
    /// A database error.
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, sqlx::Error> {
        on_pool!(self, pool => {
            sqlx::query_as("SELECT id, nickname, created FROM players WHERE id = $1").bind(id).fetch_optional(pool).await
        })
    }

    /// Nicknames of these players (missing ids are left out).
    ///
    /// # Errors
    /// A database error.
    pub async fn nicknames(&self, ids: &[String]) -> Result<Vec<(String, String)>, sqlx::Error> {
        let mut out = Vec::new();
        for id in ids {
            if let Some(player) = self.player(id).await? {
                out.push((player.id, player.nickname));
            }
        }
        Ok(out)
    }

    /// Changes a player's nickname.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_nickname(&self, id: &str, nickname: &str) -> Result<(), sqlx::Error> {
        let mut turn = self.write_turn().await;
        on_write!(self, turn, exec => {
            sqlx::query("UPDATE players SET nickname = $1 WHERE id = $2").bind(nickname).bind(id).execute(exec).await?;
        });
        Ok(())
    }
}

/// SQLite settings of the write connection: a page cache of 64 MiB (SQLite's default is 2 MiB),
/// which holds the leaf pages of a thousand games in play and more; and temporary files in
/// memory — a multi-row statement inside a transaction keeps a statement journal (to undo that
/// statement alone), which on a file cost a write and a truncation every batch.
const WRITE_SETTINGS: &str = "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY";

/// SQLite: the one write connection ([`Db::write_turn`]).
#[derive(Debug, Default)]
enum WriteConn {
    /// Not opened yet, or closed after a failed write: the next write opens it.
    #[default]
    Unopened,
    /// Open.
    Open(SqliteConnection),
    /// The database is closed ([`Db::close`]): writes are refused.
    Closed,
}

/// SQLite: the write turn ([`Db::write_turn`]), holding the one write connection.
///
/// Every write goes through this one connection so that its page cache lasts: SQLite empties
/// a connection's whole cache when it begins a transaction after another connection's commit.
/// With the rooms' saves on connections of their own, the games' writer read nearly every
/// game's index leaf back from the file at each batch (`docs/server.md`, "One write
/// connection").
pub(crate) struct WriteTurn<'a> {
    conn: tokio::sync::MutexGuard<'a, WriteConn>,
    options: &'a SqliteConnectOptions,
}

impl WriteTurn<'_> {
    /// The write connection, opened (with [`WRITE_SETTINGS`]) when there is none.
    ///
    /// # Errors
    /// The database cannot be opened, or it is closed ([`sqlx::Error::PoolClosed`], as the
    /// pool answers after [`Db::close`]).
    pub(crate) async fn conn(&mut self) -> Result<&mut SqliteConnection, sqlx::Error> {
        if matches!(*self.conn, WriteConn::Unopened) {
            let mut conn = self.options.connect().await?;
            sqlx::raw_sql(WRITE_SETTINGS).execute(&mut conn).await?;
            *self.conn = WriteConn::Open(conn);
        }
        match &mut *self.conn {
            WriteConn::Open(conn) => Ok(conn),
            WriteConn::Unopened | WriteConn::Closed => Err(sqlx::Error::PoolClosed),
        }
    }

    /// Closes the write connection after a failed write (it may be left inside a
    /// transaction); the next write opens a fresh one.
    pub(crate) fn discard(&mut self) {
        if matches!(*self.conn, WriteConn::Open(_)) {
            *self.conn = WriteConn::Unopened;
        }
    }
}

/// How a complete checkpoint ends ([`complete_checkpoint`]).
#[derive(Clone, Copy, Debug)]
enum Complete {
    /// `RESTART`: the next write starts the WAL over from its beginning.
    Restart,
    /// `TRUNCATE`: the file is also emptied.
    Truncate,
}

/// How long SQLite itself waits, on the connection of a complete checkpoint, for a reader or
/// another checkpoint before it answers busy (the pool's connections wait 5 s; the write turn
/// is held meanwhile, so the checkpoint tries again itself instead).
const CHECKPOINT_BUSY_MS: i64 = 10;

/// A checkpoint that copies the whole WAL (`mode`), run by the holder of the write turn (so no
/// writer of the process appends meanwhile) and tried again while it cannot finish: while
/// another checkpoint runs (only one runs at a time) or a reader still reads the WAL's end,
/// SQLite answers busy. It waits at most about 1.2 s (100 tries of up to
/// [`CHECKPOINT_BUSY_MS`] and a 2 ms pause), then gives up until the next time, so the WAL
/// stays near its limit however busy the machine is. Returns the frames the WAL held when it
/// finished (all copied), `None` when it did not.
async fn complete_checkpoint(pool: &SqlitePool, mode: Complete) -> Option<i64> {
    let statement = match mode {
        Complete::Restart => "PRAGMA wal_checkpoint(RESTART)",
        Complete::Truncate => "PRAGMA wal_checkpoint(TRUNCATE)",
    };
    let failed = |error: sqlx::Error| tracing::warn!(%error, ?mode, "WAL checkpoint failed");
    let mut conn = pool.acquire().await.map_err(failed).ok()?;
    let (waits,): (i64,) = sqlx::query_as("PRAGMA busy_timeout").fetch_one(&mut *conn).await.map_err(failed).ok()?;
    // `PRAGMA busy_timeout = N` returns the new value as a row.
    let set = |ms: i64| format!("PRAGMA busy_timeout = {ms}");
    let mut done = None;
    if sqlx::raw_sql(sqlx::AssertSqlSafe(set(CHECKPOINT_BUSY_MS))).execute(&mut *conn).await.is_ok() {
        for _ in 0..100 {
            match sqlx::query_as::<_, (i64, i64, i64)>(statement).fetch_one(&mut *conn).await {
                Ok((0, frames, _)) => {
                    done = Some(frames);
                    break;
                }
                Ok(_) => {}
                Err(error) if error.to_string().contains("locked") || error.to_string().contains("busy") => {}
                Err(error) => {
                    failed(error);
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        if done.is_none() {
            tracing::warn!(?mode, "WAL checkpoint not finished after 100 tries");
        }
    }
    if sqlx::raw_sql(sqlx::AssertSqlSafe(set(waits))).execute(&mut *conn).await.is_err() {
        // Not given back to the pool with the short wait.
        drop(conn.detach());
    }
    done
}

/// The connect options of a `sqlite:` URL (`sqlite://PATH?options` or `sqlite:PATH`), as sqlx
/// reads it (percent-decoding included).
///
/// # Errors
/// No path, or an in-memory database: the server's connections (readers and the games' writer)
/// must all open the same file.
fn sqlite_options(url: &str) -> Result<SqliteConnectOptions, ServerError> {
    let options = SqliteConnectOptions::from_str(url).map_err(|e| ServerError::Config(e.to_string()))?;
    let path = options.get_filename();
    if path.as_os_str().is_empty()
        || path.to_string_lossy().starts_with("file:sqlx-in-memory")
        || url.contains("mode=memory")
    {
        return Err(ServerError::Config(format!(
            "--database {url:?}: give SQLite a file (an in-memory database is not shared between the server's connections)"
        )));
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    use super::{Db, PlayerRow, Synchronous};

    /// A folder removed when the test ends, passed or not.
    struct Folder(std::path::PathBuf);

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// `PRAGMA data_version` on the write connection: it changes when another connection has
    /// committed since the last time it was read on this one (SQLite's documentation), which is
    /// when SQLite empties this connection's page cache.
    async fn data_version(db: &Db) -> i64 {
        let mut turn = db.write_turn().await.expect("SQLite has a write turn");
        let conn = turn.conn().await.expect("the write connection");
        sqlx::query_scalar("PRAGMA data_version").fetch_one(conn).await.expect("data_version")
    }

    /// Every kind of write goes through the one write connection, so none of them makes SQLite
    /// empty its page cache (the games' writer would read every game's pages back from the
    /// file). A write on another connection does: the check can tell.
    #[tokio::test]
    async fn every_write_goes_through_the_write_connection() {
        use super::{games, reviews, rooms};
        let dir = Folder(std::env::temp_dir().join(format!("madang-one-writer-{}", std::process::id())));
        std::fs::create_dir_all(&dir.0).expect("a folder");
        let url = format!("sqlite://{}", dir.0.join("madang.db").display());
        let db = Db::connect(&url, Synchronous::Normal).await.expect("a database");
        let writer = games::Writer::start(db.clone());
        let version = data_version(&db).await;
        db.create_player(&PlayerRow { id: "p".into(), nickname: "P".into(), created: 1 }).await.expect("a player");
        db.set_nickname("p", "Q").await.expect("a nickname");
        let room = rooms::NewRoom {
            code: "ABCDEF",
            host: "p",
            game: "ur",
            rules: "{}",
            players: None,
            public: false,
            turn_seconds: None,
            created: 1,
        };
        rooms::insert_room(&db, &room).await.expect("a room");
        rooms::save_room(&db, "ABCDEF", "{}", "lobby", 2, None).await.expect("its state");
        assert!(rooms::load_room(&db, "ABCDEF").await.expect("read").is_some(), "the room is open");
        let game = games::tests::game("g");
        writer.create(game).await.expect("a game");
        writer.store(games::tests::change("g", 0)).await.expect("a change");
        rooms::insert_room_game(&db, "ABCDEF", 0, "g").await.expect("the room's game");
        reviews::store(&db, "g", 1, &serde_json::json!({}), 3).await.expect("a review");
        rooms::close_room(&db, "ABCDEF", 4, None).await.expect("closed");
        assert_eq!(data_version(&db).await, version, "a write went through another connection");
        // The check can fail: a write on one of the pool's connections.
        let super::Pool::Sqlite(pool) = &db.pool else { unreachable!("a SQLite database") };
        sqlx::query("UPDATE players SET nickname = 'R' WHERE id = 'p'").execute(pool).await.expect("a write");
        assert_ne!(data_version(&db).await, version, "another connection's commit went unseen");
        writer.stop().await;
        db.close().await;
        // Closed, the database refuses a write as its pool does (not a connection opened again).
        let after = db.set_nickname("p", "S").await;
        assert!(matches!(after, Err(sqlx::Error::PoolClosed)), "a write after close: {after:?}");
    }

    /// Under writes that never pause (which a passive checkpoint alone never catches up with),
    /// the background checkpoint's step starts the WAL over each time it holds more than the
    /// limit, and the file stays bounded. (Whether a writer still has to truncate it depends on
    /// how fast the disk syncs against how fast the writes come, so it is not asserted.) Once
    /// the writes stop, a step after the last restart changes nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_background_checkpoint_starts_the_wal_over_under_writes_that_never_pause() {
        const LIMIT: u64 = 16 << 20;
        let dir = Folder(std::env::temp_dir().join(format!("madang-wal-restart-{}", std::process::id())));
        std::fs::create_dir_all(&dir.0).expect("a folder");
        let url = format!("sqlite://{}", dir.0.join("madang.db").display());
        let mut db = Db::connect(&url, Synchronous::Normal).await.expect("a database");
        db.set_wal_max_bytes(LIMIT);
        let stop = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicU64::new(0));
        let writer = {
            let (db, stop, written) = (db.clone(), stop.clone(), written.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let i = written.fetch_add(1, Ordering::Relaxed);
                    let player = PlayerRow { id: format!("{i:032x}"), nickname: "n".repeat(200), created: 1 };
                    db.create_player(&player).await.expect("a player");
                }
            })
        };
        let wal = dir.0.join("madang.db-wal");
        let started = std::time::Instant::now();
        let mut largest = 0;
        // Each commit adds at least one 4 KiB page to the WAL: until 4 limits went through it.
        let enough = || written.load(Ordering::Relaxed) * 4096 >= 4 * LIMIT;
        let restarts = || db.completed.restarts.load(Ordering::Relaxed);
        while !(enough() && restarts() >= 4) && started.elapsed().as_secs() < 60 {
            db.checkpoint_once().await;
            largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
        }
        stop.store(true, Ordering::Relaxed);
        writer.await.expect("the writer");
        assert!(enough(), "too few writes in 60 s to test anything");
        assert!(restarts() >= 4, "{} restarts in 60 s; the WAL reached {largest} bytes", restarts());
        // The writers' truncation at two limits, and a margin of one for the writes meanwhile.
        assert!(largest <= 3 * LIMIT, "the WAL file reached {largest} bytes, limit {LIMIT}");
        // Idle: one step may still restart what the last writes left; after it, none does.
        db.checkpoint_once().await;
        let before = restarts();
        for _ in 0..3 {
            db.checkpoint_once().await;
        }
        assert_eq!(restarts(), before, "an idle WAL was started over again");
        db.close().await;
    }
}
