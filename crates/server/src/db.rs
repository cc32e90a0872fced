//! Storage: one query set over sqlx's `Any` driver for SQLite and PostgreSQL.
//!
//! Both backends accept `$1, $2, …` placeholders, so every query is written once. Values are
//! the types both share: `BIGINT` (`i64`) and `TEXT` (`String`, JSON documents included).
//! Migrations live in `migrations/sqlite` and `migrations/postgres` (embedded in the binary)
//! and are applied on start.

use std::borrow::Cow;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, AssertSqlSafe, Executor, Row, SqlSafeStr};

use crate::error::ServerError;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// Random 128-bit id, 32 hex digits.
    pub id: String,
    /// Display name.
    pub nickname: String,
    /// Creation time (ms since the epoch).
    pub created: i64,
}

/// A game row: everything but the actions.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// `computer` or `same_screen`.
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// The changing part of a game row, written with each batch of actions.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    /// The game.
    pub game: GameRow,
    /// The player's outcome once finished.
    pub outcome: Option<String>,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// SQLite: one writer at a time inside this process ([`Db::write_turn`]).
    write_turn: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// SQLite: the database file and its durability setting, for a connection of one's own
    /// (`rooms/store.rs`); `None` on PostgreSQL.
    sqlite_file: Option<(std::path::PathBuf, Synchronous)>,
    /// SQLite: the WAL's size above which a writer first runs a truncating checkpoint.
    wal_max_bytes: u64,
    /// SQLite: the WAL file (`<database>-wal`).
    wal_file: Option<std::path::PathBuf>,
}

const SQLITE_MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/sqlite/0001_init.sql")),
    (2, "rooms", include_str!("../migrations/sqlite/0002_rooms.sql")),
    (3, "room state", include_str!("../migrations/sqlite/0003_room_state.sql")),
];
const POSTGRES_MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/postgres/0001_init.sql")),
    (2, "rooms", include_str!("../migrations/postgres/0002_rooms.sql")),
    (3, "room state", include_str!("../migrations/postgres/0003_room_state.sql")),
];

const GAME_COLUMNS: &str = "id, owner, game, rules, players, seats, mode, cpu, seed, commitment, status, result, \
     end_reason, end_by, version, chance_pos, bot_pos, play_ms, created, updated, finished";

/// How long the first connection to PostgreSQL may take.
const FIRST_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

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
    match tokio::time::timeout(FIRST_CONNECT_TIMEOUT, sqlx::AnyConnection::connect(url)).await {
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

/// How often SQLite's WAL is checkpointed in the background.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Rows per multi-row `INSERT` (6 values each, well under both backends' parameter limits).
const INSERT_CHUNK: usize = 200;

impl Db {
    /// Opens the database named by `url` (`sqlite://PATH` or `postgres://…`) and applies the
    /// migrations. A SQLite file is created if missing and put in WAL mode.
    ///
    /// # Errors
    /// A bad URL, an unreachable server, or a failed migration.
    pub async fn connect(url: &str, synchronous: Synchronous) -> Result<Db, ServerError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(ServerError::Config(format!("--database must be sqlite://PATH or postgres://…, got {url:?}")));
        };
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => {
                format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
            }
            _ => url.to_owned(),
        };
        // Checked before connecting: an in-memory database is refused without being opened.
        let sqlite_file = match backend {
            Backend::Sqlite => Some((sqlite_path(&url)?, synchronous)),
            Backend::Postgres => None,
        };
        let options = AnyPoolOptions::new().acquire_timeout(Duration::from_secs(10));
        let pool = match backend {
            Backend::Sqlite => {
                let pragma = match synchronous {
                    Synchronous::Normal => "PRAGMA synchronous = NORMAL",
                    Synchronous::Full => "PRAGMA synchronous = FULL",
                };
                options
                    .max_connections(4)
                    .after_connect(move |conn, _meta| {
                        Box::pin(async move {
                            conn.execute(pragma).await?;
                            // Checkpoints run in the background (`Db::checkpoint`), not inside
                            // a command's commit, where their fsyncs would stall the answer.
                            conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                            Ok(())
                        })
                    })
                    .connect(&url)
                    .await?
            }
            Backend::Postgres => {
                connect_once(&url).await?;
                options.max_connections(16).connect(&url).await?
            }
        };
        if backend == Backend::Sqlite {
            // Persistent in the file; set once here rather than on every connection (changing
            // the journal mode needs a lock that cannot wait).
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode = WAL").fetch_one(&pool).await?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(ServerError::Config(format!("SQLite refused WAL mode (journal mode is {mode})")));
            }
        }
        let wal_file = sqlite_file.as_ref().map(|(path, _)| {
            let mut wal = path.clone().into_os_string();
            wal.push("-wal");
            std::path::PathBuf::from(wal)
        });
        let db =
            Db { pool, backend, write_turn: std::sync::Arc::default(), sqlite_file, wal_max_bytes: u64::MAX, wal_file };
        db.migrate().await?;
        Ok(db)
    }

    /// SQLite: keeps the WAL file under about `bytes` ([`Db::wal_over_limit`]).
    pub fn set_wal_max_bytes(&mut self, bytes: u64) {
        self.wal_max_bytes = bytes;
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// SQLite: waits for this process's turn to write, first come first served; `None` on
    /// PostgreSQL, which runs writers side by side. Every write transaction holds the turn:
    /// two SQLite connections that want to write at once would otherwise meet SQLite's busy
    /// handler, which sleeps (up to 100 ms a try) instead of queueing, and under load a
    /// writer that commits back to back starves the others for seconds.
    ///
    /// When the WAL is over its limit ([`Db::wal_over_limit`]), the turn first runs a truncating
    /// checkpoint: no other writer of ours can be writing, so it copies the rest of the WAL and
    /// empties the file.
    pub(crate) async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => {
                let turn = self.write_turn.lock().await;
                if self.wal_over_limit() {
                    self.truncate_wal().await;
                }
                Some(turn)
            }
            Backend::Postgres => None,
        }
    }

    /// A truncating checkpoint, tried again while it cannot finish: while the background
    /// passive checkpoint runs (only one checkpoint runs at a time) or a reader still reads the
    /// WAL's end, SQLite answers busy. The writer waits for it (at most about 0.2 s, then writes
    /// anyway and the next writer tries again), so the WAL stays near its limit however busy the
    /// machine is.
    async fn truncate_wal(&self) {
        for _ in 0..100 {
            match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(TRUNCATE)").fetch_one(&self.pool).await {
                Ok((0, _, _)) => return,
                Ok(_) => {}
                Err(error) if error.to_string().contains("locked") || error.to_string().contains("busy") => {}
                Err(error) => {
                    tracing::warn!(%error, "truncating WAL checkpoint failed");
                    return;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        tracing::warn!("truncating WAL checkpoint still busy after 100 tries");
    }

    /// [`Db::write_turn`] for a thread outside the async runtime (it blocks the thread).
    pub(crate) fn write_turn_blocking(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.write_turn.blocking_lock()),
            Backend::Postgres => None,
        }
    }

    /// SQLite: the database file and its `synchronous` setting (`None` on PostgreSQL).
    pub(crate) fn sqlite_file(&self) -> Option<&(std::path::PathBuf, Synchronous)> {
        self.sqlite_file.as_ref()
    }

    /// The connection pool (the rooms' storage writer, `rooms/store.rs`, batches its own queries).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes the pool, waiting for connections to finish (SQLite: after a last checkpoint).
    pub async fn close(&self) {
        if self.backend == Backend::Sqlite
            && let Err(error) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&self.pool).await
        {
            tracing::warn!(%error, "final WAL checkpoint failed");
        }
        self.pool.close().await;
    }

    /// SQLite: copies the WAL into the database file (a passive checkpoint: writers go on),
    /// every `CHECKPOINT_EVERY` until `stop` turns true. Commands never checkpoint themselves,
    /// except to keep the WAL bounded ([`Db::write_turn`]).
    pub async fn checkpoint(&self, mut stop: tokio::sync::watch::Receiver<bool>) {
        if self.backend != Backend::Sqlite {
            return;
        }
        let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&self.pool).await {
                        tracing::warn!(%error, "WAL checkpoint failed");
                    }
                }
                _ = stop.changed() => break,
            }
        }
    }

    /// SQLite: whether the WAL file has grown over its limit (`Limits::wal_max_bytes`). Under
    /// a steady load a passive checkpoint never catches up with the writers, so SQLite never
    /// starts the WAL over and the file grows without bound; the writer whose turn finds it
    /// over the limit runs a truncating checkpoint first ([`Db::write_turn`], and the rooms'
    /// writer thread on its own connection).
    pub(crate) fn wal_over_limit(&self) -> bool {
        self.wal_max_bytes != u64::MAX
            && self
                .wal_file
                .as_ref()
                .is_some_and(|wal| std::fs::metadata(wal).is_ok_and(|m| m.len() > self.wal_max_bytes))
    }

    async fn migrate(&self) -> Result<(), ServerError> {
        let list = match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS,
            Backend::Postgres => POSTGRES_MIGRATIONS,
        };
        let migrations = list
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, sql.into_sql_str(), false)
            })
            .collect();
        Migrator::with_migrations(migrations).run(&self.pool).await?;
        Ok(())
    }

    /// Creates a player (nothing when one with this id exists already).
    ///
    /// # Errors
    /// A database error.
    pub async fn create_player(&self, player: &PlayerRow) -> Result<(), sqlx::Error> {
        let _turn = self.write_turn().await;
        sqlx::query("INSERT INTO players (id, nickname, created) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING")
            .bind(player.id.clone())
            .bind(player.nickname.clone())
            .bind(player.created)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The player with this id.
    ///
    /// # Errors
    /// A database error.
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, sqlx::Error> {
        let row = sqlx::query("SELECT id, nickname, created FROM players WHERE id = $1")
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(PlayerRow {
                id: row.try_get("id")?,
                nickname: row.try_get("nickname")?,
                created: row.try_get("created")?,
            })
        })
        .transpose()
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
        let _turn = self.write_turn().await;
        sqlx::query("UPDATE players SET nickname = $1 WHERE id = $2")
            .bind(nickname.to_owned())
            .bind(id.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a new game, its participants and its first actions in one transaction.
    ///
    /// # Errors
    /// A database error; nothing is stored then.
    pub async fn create_game(
        &self,
        game: &GameRow,
        participants: &[String],
        actions: &[ActionRow],
        outcomes: &[(String, String)],
    ) -> Result<(), sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let sql = format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)"
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(game.id.clone())
            .bind(game.owner.clone())
            .bind(game.game.clone())
            .bind(game.rules.clone())
            .bind(game.players)
            .bind(game.seats.clone())
            .bind(game.mode.clone())
            .bind(game.cpu.clone())
            .bind(game.seed.clone())
            .bind(game.commitment.clone())
            .bind(game.status.clone())
            .bind(game.result.clone())
            .bind(game.end_reason.clone())
            .bind(game.end_by.clone())
            .bind(game.version)
            .bind(game.chance_pos)
            .bind(game.bot_pos.clone())
            .bind(game.play_ms)
            .bind(game.created)
            .bind(game.updated)
            .bind(game.finished)
            .execute(&mut *tx)
            .await?;
        for player in participants {
            sqlx::query("INSERT INTO game_players (game_id, player_id, outcome) VALUES ($1, $2, NULL)")
                .bind(game.id.clone())
                .bind(player.clone())
                .execute(&mut *tx)
                .await?;
        }
        insert_actions(&mut tx, &game.id, actions).await?;
        set_outcomes(&mut tx, &game.id, outcomes).await?;
        tx.commit().await
    }

    /// Stores a batch of new actions and the game's new stream positions, status and version in
    /// one transaction. Checks that the stored version is `from_version`, so two writers can
    /// never interleave.
    ///
    /// # Errors
    /// A database error, or a version that moved (nothing is stored then).
    pub async fn store_batch(
        &self,
        id: &str,
        from_version: i64,
        update: &GameUpdate,
        actions: &[ActionRow],
        outcomes: &[(String, String)],
    ) -> Result<(), sqlx::Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET status = $1, result = $2, end_reason = $3, end_by = $4, version = $5, \
             chance_pos = $6, bot_pos = $7, play_ms = $8, updated = $9, finished = $10 \
             WHERE id = $11 AND version = $12",
        )
        .bind(update.status.clone())
        .bind(update.result.clone())
        .bind(update.end_reason.clone())
        .bind(update.end_by.clone())
        .bind(update.version)
        .bind(update.chance_pos)
        .bind(update.bot_pos.clone())
        .bind(update.play_ms)
        .bind(update.updated)
        .bind(update.finished)
        .bind(id.to_owned())
        .bind(from_version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(sqlx::Error::Protocol(format!(
                "game {id} is no longer at version {from_version}: another writer changed it"
            )));
        }
        insert_actions(&mut tx, id, actions).await?;
        set_outcomes(&mut tx, id, outcomes).await?;
        tx.commit().await
    }

    /// A game and its actions in order.
    ///
    /// # Errors
    /// A database error.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<ActionRow>)>, sqlx::Error> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let Some(row) = sqlx::query(AssertSqlSafe(sql)).bind(id.to_owned()).fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let rows = sqlx::query("SELECT idx, action, seat, actor, created FROM actions WHERE game_id = $1 ORDER BY idx")
            .bind(id.to_owned())
            .fetch_all(&self.pool)
            .await?;
        let actions = rows
            .iter()
            .map(|row| {
                Ok(ActionRow {
                    idx: row.try_get("idx")?,
                    action: row.try_get("action")?,
                    seat: row.try_get("seat")?,
                    actor: row.try_get("actor")?,
                    created: row.try_get("created")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(Some((game, actions)))
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
        let rows = sqlx::query(AssertSqlSafe(sql))
            .bind(player.to_owned())
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| Ok(HistoryRow { game: game_row(row)?, outcome: row.try_get("outcome")? })).collect()
    }

    /// Every game of a player (for stats): game, mode, cpu, status, outcome, time played.
    ///
    /// # Errors
    /// A database error.
    pub async fn stats_rows(&self, player: &str) -> Result<Vec<crate::stats::StatsRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT g.game AS game, g.mode AS mode, g.cpu AS cpu, g.status AS status, gp.outcome AS outcome, \
             g.play_ms AS play_ms FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE gp.player_id = $1",
        )
        .bind(player.to_owned())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(crate::stats::StatsRow {
                    game: row.try_get("game")?,
                    mode: row.try_get("mode")?,
                    cpu: row.try_get("cpu")?,
                    status: row.try_get("status")?,
                    outcome: row.try_get("outcome")?,
                    play_ms: row.try_get("play_ms")?,
                })
            })
            .collect()
    }
}

fn game_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        owner: row.try_get("owner")?,
        game: row.try_get("game")?,
        rules: row.try_get("rules")?,
        players: row.try_get("players")?,
        seats: row.try_get("seats")?,
        mode: row.try_get("mode")?,
        cpu: row.try_get("cpu")?,
        seed: row.try_get("seed")?,
        commitment: row.try_get("commitment")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        end_reason: row.try_get("end_reason")?,
        end_by: row.try_get("end_by")?,
        version: row.try_get("version")?,
        chance_pos: row.try_get("chance_pos")?,
        bot_pos: row.try_get("bot_pos")?,
        play_ms: row.try_get("play_ms")?,
        created: row.try_get("created")?,
        updated: row.try_get("updated")?,
        finished: row.try_get("finished")?,
    })
}

/// The file of a `sqlite:` URL (`sqlite://PATH?options` or `sqlite:PATH`).
///
/// # Errors
/// No path, or an in-memory database: the server's connections (a pool and the rooms' writer)
/// must all open the same file.
fn sqlite_path(url: &str) -> Result<std::path::PathBuf, ServerError> {
    use std::str::FromStr;
    // sqlx's own reading of the URL (percent-decoding included), so both open the same file.
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).map_err(|e| ServerError::Config(e.to_string()))?;
    let path = options.get_filename();
    if path.as_os_str().is_empty()
        || path.to_string_lossy().starts_with("file:sqlx-in-memory")
        || url.contains("mode=memory")
    {
        return Err(ServerError::Config(format!(
            "--database {url:?}: give SQLite a file (an in-memory database is not shared between the server's connections)"
        )));
    }
    Ok(path.to_path_buf())
}

async fn insert_actions(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    actions: &[ActionRow],
) -> Result<(), sqlx::Error> {
    for chunk in actions.chunks(INSERT_CHUNK) {
        let mut sql = String::from("INSERT INTO actions (game_id, idx, action, seat, actor, created) VALUES ");
        for i in 0..chunk.len() {
            let b = i * 6;
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("(${}, ${}, ${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5, b + 6));
        }
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for action in chunk {
            query = query
                .bind(id.to_owned())
                .bind(action.idx)
                .bind(action.action.clone())
                .bind(action.seat.clone())
                .bind(action.actor.clone())
                .bind(action.created);
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

async fn set_outcomes(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    outcomes: &[(String, String)],
) -> Result<(), sqlx::Error> {
    for (player, outcome) in outcomes {
        sqlx::query("UPDATE game_players SET outcome = $1 WHERE game_id = $2 AND player_id = $3")
            .bind(outcome.clone())
            .bind(id.to_owned())
            .bind(player.clone())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
