//! The shared server state: the database, the cookie key, and the registry of games held in
//! memory, each with one owner (a mutex that commands take in turn) and a version channel that
//! WebSocket connections watch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::FromRef;
use axum_extra::extract::cookie::Key;
use serde_json::Value;
use tokio::sync::{OnceCell, watch};

use crate::db::{Db, PlayerRow};
use crate::error::ApiError;
use crate::game::{Change, LiveGame};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `bytes` random bytes from the operating system, as lowercase hex.
///
/// # Errors
/// The operating system's generator failed.
pub fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal(format!("operating system randomness failed: {e}")))?;
    Ok(hex::encode(buf))
}

/// Whether `text` is `len` lowercase hex digits (ids of players and games).
pub fn is_hex_id(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Runs CPU-bound game code (a bot that searches, a review) without stalling the other tasks of
/// this worker: on the multi-threaded runtime the worker hands its other tasks over first
/// (`block_in_place`); elsewhere it runs inline. Each call may start a thread of tokio's
/// blocking pool, so commands whose computer does not search
/// ([`crate::game::LiveGame::computer_searches`]) do not come here.
pub fn compute<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// One game in memory: its single owner and the channel announcing each new version.
pub struct Slot {
    /// The game; commands lock it and apply one at a time.
    pub game: Arc<tokio::sync::Mutex<LiveGame>>,
    /// The latest stored version, announced after each commit.
    pub changes: watch::Sender<u64>,
    /// When a request last asked for the game (idle games leave memory, [`App::sweep`]).
    used: Mutex<tokio::time::Instant>,
    /// Becomes `true` when another node of a cluster took the game over: its WebSockets close
    /// (1012) and their clients reconnect to the new owner.
    pub gone: watch::Sender<bool>,
    /// On a cluster, the lease this copy was loaded under: its writes prove it, so a copy from
    /// before a takeover cannot write even if this node took the game back since.
    fence: Option<crate::cluster::Fence>,
}

impl Slot {
    fn new(live: LiveGame, fence: Option<crate::cluster::Fence>) -> Slot {
        Slot {
            fence,
            changes: watch::Sender::new(live.version()),
            game: Arc::new(tokio::sync::Mutex::new(live)),
            used: Mutex::new(tokio::time::Instant::now()),
            gone: watch::Sender::new(false),
        }
    }

    fn touch(&self) {
        *self.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = tokio::time::Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner).elapsed()
    }
}

/// Everything the handlers share.
pub struct App {
    /// Storage.
    pub db: Db,
    /// The group-commit writer every game's changes are stored through.
    pub writer: crate::db::Writer,
    /// Signs the player cookie.
    pub key: Key,
    /// `--allow-fixed-seed`.
    pub allow_fixed_seed: bool,
    /// Games loaded so far, by id.
    games: Mutex<HashMap<String, Arc<OnceCell<Arc<Slot>>>>>,
    /// Known players and their nicknames.
    nicknames: RwLock<HashMap<String, String>>,
    /// Becomes `true` when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    /// Online rooms.
    pub rooms: crate::rooms::Registry,
    /// This server's own host names and origins.
    pub origins: crate::origin::Origins,
    /// Timeouts, quotas, eviction, WAL size.
    pub limits: crate::limits::Limits,
    /// The quotas' counters.
    pub quotas: crate::limits::QuotaState,
    /// The browser client's files.
    pub files: Option<crate::web::Files>,
    /// Game reviews running, and records' finished ones.
    pub reviews: crate::review::Reviews,
    /// The designer's lab: runs going and the last finished ones.
    pub lab: crate::lab::Lab,
    /// This node's membership of a cluster (`--node-url`); `None` on a single node.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
}

/// The axum state: a cheap handle on [`App`].
#[derive(Clone)]
pub struct AppState(pub Arc<App>);

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.0.key.clone()
    }
}

impl std::ops::Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

impl App {
    /// A new state (starts the games' storage writer: call inside the runtime).
    pub fn new(
        db: Db,
        key: Key,
        shutdown: watch::Receiver<bool>,
        rooms: crate::rooms::Registry,
        origins: crate::origin::Origins,
        config: &crate::Config,
        cluster: Option<Arc<crate::cluster::Cluster>>,
    ) -> App {
        let limits = config.limits.clone();
        App {
            rooms,
            origins,
            quotas: crate::limits::QuotaState::new(&limits.quotas),
            limits,
            files: config.files,
            reviews: crate::review::Reviews::default(),
            lab: crate::lab::Lab::default(),
            cluster,
            writer: crate::db::Writer::start(db.clone()),
            db,
            key,
            allow_fixed_seed: config.allow_fixed_seed,
            games: Mutex::new(HashMap::new()),
            nicknames: RwLock::new(HashMap::new()),
            shutdown,
        }
    }

    /// A copy of the nickname table.
    pub fn nicknames(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, String>> {
        self.nicknames.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn remember(&self, id: &str, nickname: &str) {
        self.nicknames
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.to_owned(), nickname.to_owned());
    }

    /// The stored player with this id (cached after the first look-up), or `None` for a guest
    /// whose cookie was issued but who has stored nothing yet.
    ///
    /// # Errors
    /// A database error.
    pub async fn stored_player(&self, id: &str) -> Result<Option<PlayerRow>, ApiError> {
        Ok(self.db.player(id).await?.inspect(|player| self.remember(&player.id, &player.nickname)))
    }

    /// Stores the guest player of this cookie id if it is not stored yet (the first time it
    /// creates something: a game, a room, a seat, a nickname), counted against the quota of
    /// new players of `address`.
    ///
    /// # Errors
    /// `quota`, or a database error.
    pub async fn ensure_player(&self, id: &str, address: &str) -> Result<(), ApiError> {
        if self.nicknames().contains_key(id) || self.stored_player(id).await?.is_some() {
            return Ok(());
        }
        self.quotas.new_player(address)?;
        let player = PlayerRow { nickname: guest_nickname(id), id: id.to_owned(), created: now_ms() };
        self.db.create_player(&player).await?;
        // Another request of the same guest may have stored it first: read back what is stored.
        let stored = self.stored_player(id).await?.ok_or_else(|| ApiError::internal("the new player vanished"))?;
        tracing::info!(player = %stored.id, "guest player stored");
        Ok(())
    }

    /// Changes a nickname.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_nickname(&self, id: &str, nickname: &str) -> Result<(), ApiError> {
        self.db.set_nickname(id, nickname).await?;
        self.remember(id, nickname);
        Ok(())
    }

    /// The game with this id, loaded from storage on first use (replaying its actions and
    /// restoring its stream positions).
    ///
    /// # Errors
    /// `unknown_game_id`, or a storage or load failure.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if !is_hex_id(id, 16) {
            return Err(ApiError::unknown_game_id(id));
        }
        let cell = {
            let mut games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            games.entry(id.to_owned()).or_default().clone()
        };
        let result = cell
            .get_or_try_init(|| async {
                // On a cluster the request was routed here; the lease is taken (or known to be
                // another node's, when it moved on the way).
                if let Some(cluster) = &self.cluster {
                    let key = crate::cluster::game_key(id);
                    if cluster.route(&key).await? != crate::cluster::Route::Local {
                        return Err(ApiError::moved(&key));
                    }
                }
                let Some((row, actions)) = self.db.load_game(id).await? else {
                    return Err(ApiError::unknown_game_id(id));
                };
                let live = tokio::task::spawn_blocking(move || LiveGame::load(&row, &actions))
                    .await
                    .map_err(|e| ApiError::internal(format!("loading game {id}: {e}")))??;
                for player in live.participants() {
                    if !self.nicknames().contains_key(&player)
                        && let Some(row) = self.db.player(&player).await?
                    {
                        self.remember(&row.id, &row.nickname);
                    }
                }
                tracing::info!(game = %id, version = live.version(), "game loaded from storage");
                let fence = self.cluster.as_ref().and_then(|c| c.fence(&crate::cluster::game_key(id)));
                Ok(Arc::new(Slot::new(live, fence)))
            })
            .await
            .cloned();
        if let Ok(slot) = &result {
            slot.touch();
        }
        if result.is_err() {
            let mut games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if games.get(id).is_some_and(|c| c.get().is_none()) {
                games.remove(id);
            }
        }
        result
    }

    /// Whether a request was forwarded by another node of this cluster (it carries the
    /// cluster's secret).
    pub fn forwarded(&self, headers: &axum::http::HeaderMap) -> bool {
        self.cluster.as_ref().is_some_and(|c| c.forwarded(headers))
    }

    /// The fence of a write for lease `key` by a game or room loaded under `loaded`: `None` on
    /// a single node.
    ///
    /// # Errors
    /// `moved` on a cluster when the copy was loaded under no lease, or this node no longer
    /// holds it at that epoch (another node took it over, maybe and back since).
    pub fn fence(
        &self,
        key: &str,
        loaded: Option<&crate::cluster::Fence>,
    ) -> Result<Option<crate::cluster::Fence>, ApiError> {
        match (&self.cluster, loaded) {
            (None, _) => Ok(None),
            (Some(cluster), Some(loaded)) if cluster.fence(key).as_ref() == Some(loaded) => Ok(Some(loaded.clone())),
            (Some(_), _) => Err(ApiError::moved(key)),
        }
    }

    /// Drops what another node took over (leases `keys`, [`crate::cluster::Cluster::keep_alive`]
    /// or a fenced write): games leave memory and their WebSockets close; rooms' tasks stop
    /// without writing and close their connections. Their clients reconnect to the new owner.
    pub fn lose(&self, keys: &[String]) {
        for key in keys {
            if let Some(id) = key.strip_prefix("game:") {
                let cell = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(id);
                if let Some(slot) = cell.as_ref().and_then(|c| c.get()) {
                    slot.gone.send_replace(true);
                }
                tracing::info!(game = %id, "game left memory: another node took it over");
            } else if let Some(code) = key.strip_prefix("room:") {
                self.rooms.moved(code);
            }
        }
    }

    /// A write for lease `key` was refused: whether it is because the lease is gone (another
    /// node took over), in which case everything of it leaves memory ([`App::lose`]).
    pub(crate) fn fenced(&self, key: &str, error: &crate::error::ServerError) -> bool {
        if !matches!(error, crate::error::ServerError::Fenced { .. }) {
            return false;
        }
        if let Some(cluster) = &self.cluster {
            cluster.forget(key);
        }
        self.lose(&[key.to_owned()]);
        true
    }

    /// Registers a newly created (and stored) game.
    pub fn insert(&self, live: LiveGame) -> Arc<Slot> {
        let id = live.id.clone();
        let fence = self.cluster.as_ref().and_then(|c| c.fence(&crate::cluster::game_key(&id)));
        let slot = Arc::new(Slot::new(live, fence));
        let cell = OnceCell::new_with(Some(slot.clone()));
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id, Arc::new(cell));
        slot
    }

    /// Runs a command on a game: `command` computes the change on a copy (off the async
    /// threads: CPU seats may think), the change is stored in one transaction, and only then
    /// applied in memory, answered, and announced. Returns the `events` message for `player`.
    ///
    /// The work runs in its own task, so a client that goes away (or a request timeout) cannot
    /// interrupt it between the commit and the update in memory.
    ///
    /// # Errors
    /// The command's refusal, or a storage failure (nothing changes then).
    pub async fn command<F>(state: &AppState, slot: Arc<Slot>, player: String, command: F) -> Result<Value, ApiError>
    where
        F: FnOnce(&LiveGame) -> Result<Change, ApiError> + Send + 'static,
    {
        let app = state.0.clone();
        tokio::spawn(async move { app.run_command(&slot, &player, command).await })
            .await
            .map_err(|e| ApiError::internal(format!("a command failed: {e}")))?
    }

    async fn run_command<F>(&self, slot: &Slot, player: &str, command: F) -> Result<Value, ApiError>
    where
        F: FnOnce(&LiveGame) -> Result<Change, ApiError> + Send + 'static,
    {
        let mut guard = slot.game.lock().await;
        if guard.mode == "room" {
            return Err(ApiError::conflict(
                "room_game",
                format!("game {} is played in an online room: act through the room's WebSocket", guard.id),
            ));
        }
        let from = guard.version();
        // Only a searching computer player needs the worker thread handed over: everything else
        // is microseconds, and handing it over on every command grew tokio's blocking pool to
        // 130 threads and the server to 900 MB under 100 games against `easy`.
        let change = if guard.computer_searches() { compute(|| command(&guard)) } else { command(&guard) }?;
        let key = crate::cluster::game_key(&guard.id);
        let fence = match self.fence(&key, slot.fence.as_ref()) {
            Ok(fence) => fence,
            Err(error) => {
                self.lose(std::slice::from_ref(&key));
                return Err(error);
            }
        };
        let commit = guard.commit_of(&change, fence);
        if let Err(error) = self.writer.store(commit).await {
            if self.fenced(&key, &error) {
                return Err(ApiError::moved(&key));
            }
            // Whether the commit happened is unknown: reload from storage on next use.
            self.evict(&guard.id);
            return Err(ApiError::storage(&error));
        }
        guard.commit(change);
        let message = guard.events_message(from, player, &self.nicknames());
        slot.changes.send_replace(guard.version());
        Ok(message)
    }

    pub(crate) fn evict(&self, id: &str) {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(id);
    }

    /// Drops from memory every game nobody has asked for within `limits.game_idle` and that
    /// nothing holds (no WebSocket, no request or command in progress): its next use loads
    /// it from storage, where everything of it is. Returns how many were dropped.
    pub fn evict_idle(&self) -> usize {
        let idle = self.limits.game_idle;
        let mut games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = games.len();
        // A clone of the cell (a request between looking it up and taking the slot) or of the
        // slot (a request, a command, a WebSocket) keeps the game.
        let mut dropped = Vec::new();
        games.retain(|id, cell| {
            let keep = Arc::strong_count(cell) > 1
                || cell.get().is_none_or(|slot| Arc::strong_count(slot) > 1 || slot.idle_for() < idle);
            if !keep {
                dropped.push(crate::cluster::game_key(id));
            }
            keep
        });
        let after = games.len();
        drop(games);
        // On a cluster the games' leases go with them: any node may load them next.
        if let Some(cluster) = &self.cluster
            && !dropped.is_empty()
        {
            let cluster = cluster.clone();
            tokio::spawn(async move {
                for key in dropped {
                    cluster.release(&key).await;
                }
            });
        }
        before - after
    }

    /// Games in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// Runs until shutdown: every `game_idle / 4` (at most a minute) drops idle games from
    /// memory ([`App::evict_idle`]) and forgets quota counters that are full again.
    pub async fn sweep(&self) {
        let every = (self.limits.game_idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(60));
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stop = self.shutdown.clone();
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let dropped = self.evict_idle();
                    if dropped > 0 {
                        tracing::debug!(dropped, "idle games left memory");
                    }
                    self.quotas.prune();
                }
                () = crate::serve::until_stopped(&mut stop) => break,
            }
        }
    }
}

/// A guest's nickname before they choose one: `Guest` and the id's first four digits.
pub fn guest_nickname(id: &str) -> String {
    format!("Guest {}", id.get(..4).unwrap_or(id))
}
