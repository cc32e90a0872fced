//! Several `madang serve` nodes on one PostgreSQL (`docs/server.md`, "Running several nodes").
//!
//! - **Nodes.** Each node process registers a row in `cluster_nodes` with the address other
//!   nodes reach it at (`--node-url`), holds a session-level advisory lock on its own
//!   connection while it lives, and renews `expires` every [`ClusterConfig::heartbeat`]. A node
//!   is alive while both hold (`madang_node_alive`, migration 0006): a killed process's session
//!   ends and frees its lock at once; a paused or cut-off node stops renewing and is dead after
//!   [`ClusterConfig::lease`].
//! - **Ownership.** Every game and room held in memory has a lease row (`game:<id>`,
//!   `room:<code>`) naming its owner and an epoch. [`Cluster::route`] answers whether this
//!   node owns a key — taking the lease when it is free or its owner is dead (a takeover bumps
//!   the epoch) — or which node does.
//! - **Fencing.** Every write for a game or room carries a [`Fence`] (key, node, epoch), checked
//!   by the write's own transaction under a share lock of the lease row: a node whose lease was
//!   taken over cannot write again, and a takeover waits for a write in progress.
//! - **Routing.** [`route_requests`] (a middleware) sends a request for a game, a room or a lab
//!   run that another node owns to that node and streams the answer back, WebSocket upgrades
//!   included: the client never sees which node serves it. A forwarded request carries the
//!   cluster's shared secret and the client's address.
//! - **Rooms' listings** live in `rooms.listing`; a change is announced on the channel
//!   `madang_rooms` (LISTEN/NOTIFY) and every node keeps the public lobby list in memory.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use sqlx::postgres::{PgConnection, PgListener, PgPool};
use sqlx::{Connection, Row};

use crate::app::{AppState, random_hex};
use crate::error::{ApiError, ServerError};

/// The advisory-lock class of node locks (`pg_advisory_lock(28001, lock_key)`).
const LOCK_CLASS: i32 = 28001;

/// The header a forwarded request carries: the cluster's shared secret.
pub(crate) const FORWARDED: HeaderName = HeaderName::from_static("x-madang-forwarded");

/// The header a forwarded request carries: the client's address as the first node saw it.
pub(crate) const CLIENT: HeaderName = HeaderName::from_static("x-madang-client");

/// The header of a `503 moved` answer: the owner changed while the request was on its way.
pub(crate) const MOVED: HeaderName = HeaderName::from_static("x-madang-moved");

/// The notification channel of public room listings.
const ROOMS_CHANNEL: &str = "madang_rooms";

/// How long a request waits for a game's or room's new owner (the old one dying or handing
/// over) before it is answered `503 moved`.
const ROUTE_PATIENCE: Duration = Duration::from_secs(8);

/// The largest request body forwarded (the largest a game's, room's or lab run's route takes).
const FORWARD_BODY_LIMIT: usize = crate::http::BODY_LIMIT;

/// How a node joins a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// `--node-url`: how other nodes reach this one (`http://host:port`).
    pub node_url: String,
    /// A node that has not renewed for this long is dead and its leases can be taken over
    /// (a node whose process died is dead at once: its advisory lock is gone).
    pub lease: Duration,
    /// How often a node renews, and checks which of its leases it still holds.
    pub heartbeat: Duration,
}

impl ClusterConfig {
    /// The defaults: a 10 s lease renewed every 2 s.
    pub fn new(node_url: impl Into<String>) -> ClusterConfig {
        ClusterConfig { node_url: node_url.into(), lease: Duration::from_secs(10), heartbeat: Duration::from_secs(2) }
    }
}

/// What a write must prove: that `node` still holds `key` at `epoch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The lease's key (`game:<id>`, `room:<code>`).
    pub key: String,
    /// The writing node's id.
    pub node: String,
    /// The epoch the node took the lease at.
    pub epoch: i64,
}

/// The lease key of a game.
pub fn game_key(id: &str) -> String {
    format!("game:{id}")
}

/// The lease key of a room (its code, upper case).
pub fn room_key(code: &str) -> String {
    format!("room:{code}")
}

/// Where a request goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// This node serves it (it owns the key, or nothing does and nothing exists to own).
    Local,
    /// The node at this `host:port` owns it.
    Forward(String),
}

/// This node's membership of the cluster.
pub struct Cluster {
    /// This node's id (16 hex digits, new for each process).
    pub node: String,
    /// `--node-url`, without a trailing slash.
    pub url: String,
    /// The node's advisory lock key (also the first 8 hex digits of its lab runs' ids).
    pub lock_key: i32,
    secret: String,
    pool: PgPool,
    config: ClusterConfig,
    /// The leases this node holds: key → epoch.
    held: Mutex<HashMap<String, i64>>,
    /// Public lobbies of every node: code → listing.
    listings: Mutex<HashMap<String, Value>>,
    /// The connection whose session holds the node's advisory lock.
    lock: tokio::sync::Mutex<Option<PgConnection>>,
}

/// `host:port` of an `http://` URL (port 80 when none is given).
///
/// # Errors
/// Not an `http://host[:port]` URL.
pub fn authority(url: &str) -> Result<String, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    if parsed.scheme() != "http" {
        return Err(format!("{url:?}: a node URL is http://host:port (nodes talk over a private network)"));
    }
    let host = parsed.host_str().ok_or_else(|| format!("{url:?} names no host"))?;
    if parsed.path() != "/" || parsed.query().is_some() {
        return Err(format!("{url:?}: a node URL has no path"));
    }
    Ok(format!("{host}:{}", parsed.port_or_known_default().unwrap_or(80)))
}

async fn setting(pool: &PgPool, name: &str, proposed: &str) -> Result<String, sqlx::Error> {
    sqlx::query("INSERT INTO cluster_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(proposed)
        .execute(pool)
        .await?;
    sqlx::query_scalar("SELECT value FROM cluster_settings WHERE name = $1").bind(name).fetch_one(pool).await
}

/// A session holding the node's advisory lock. `try`, not wait: after a network cut the old
/// session may hold the lock until the server notices; the heartbeat then tries again.
async fn lock_session(pool: &PgPool, lock_key: i32) -> Result<PgConnection, sqlx::Error> {
    let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
    let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1, $2)")
        .bind(LOCK_CLASS)
        .bind(lock_key)
        .fetch_one(&mut conn)
        .await?;
    if !locked {
        return Err(sqlx::Error::Protocol(format!("the node lock {lock_key} is still held by an earlier session")));
    }
    Ok(conn)
}

impl Cluster {
    /// Registers this node: its lock, its row, the shared secret. Returns the node and the
    /// cookie signing key every node shares (the first node's `cookie.key` becomes everyone's).
    ///
    /// # Errors
    /// A bad node URL, or a database error.
    pub async fn join(
        pool: PgPool,
        config: ClusterConfig,
        local_key: &[u8],
    ) -> Result<(Cluster, Vec<u8>), ServerError> {
        let url = config.node_url.trim_end_matches('/').to_owned();
        authority(&url).map_err(|e| ServerError::Config(format!("--node-url: {e}")))?;
        let node = random_hex(8).map_err(|e| ServerError::Config(e.message))?;
        let lock_key: i32 = sqlx::query_scalar("SELECT nextval('cluster_lock_keys')::INTEGER").fetch_one(&pool).await?;
        let lock = lock_session(&pool, lock_key).await?;
        let lease = i64::try_from(config.lease.as_millis()).unwrap_or(i64::MAX);
        sqlx::query(
            "INSERT INTO cluster_nodes (id, url, lock_key, started, expires) \
             VALUES ($1, $2, $3, madang_now_ms(), madang_now_ms() + $4)",
        )
        .bind(&node)
        .bind(&url)
        .bind(lock_key)
        .bind(lease)
        .execute(&pool)
        .await?;
        let secret =
            setting(&pool, "forward_secret", &random_hex(32).map_err(|e| ServerError::Config(e.message))?).await?;
        let key_hex = setting(&pool, "cookie_key", &hex::encode(local_key)).await?;
        let key =
            hex::decode(&key_hex).map_err(|e| ServerError::Config(format!("the stored cookie key is not hex: {e}")))?;
        tracing::info!(%node, %url, lock_key, "joined the cluster");
        let cluster = Cluster {
            node,
            url,
            lock_key,
            secret,
            pool,
            config,
            held: Mutex::new(HashMap::new()),
            listings: Mutex::new(HashMap::new()),
            lock: tokio::sync::Mutex::new(Some(lock)),
        };
        Ok((cluster, key))
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this node holds `key` (as far as it knows: a write proves it).
    pub fn holds(&self, key: &str) -> bool {
        self.held().contains_key(key)
    }

    /// The fence of a write for `key`, or `None` when this node does not hold it.
    pub fn fence(&self, key: &str) -> Option<Fence> {
        self.held().get(key).map(|&epoch| Fence { key: key.to_owned(), node: self.node.clone(), epoch })
    }

    /// Takes the lease of `key` if it is free, ours, or its owner is dead, and the game or
    /// room exists; returns the epoch taken.
    async fn claim(&self, key: &str) -> Result<Option<i64>, sqlx::Error> {
        /// The claim of a lease whose object exists (`$3` is the id or code).
        macro_rules! claim {
            ($exists:literal) => {
                concat!(
                    "INSERT INTO leases (key, node, epoch, since) SELECT $1, $2, 1, madang_now_ms() WHERE ",
                    $exists,
                    " ON CONFLICT (key) DO UPDATE SET node = EXCLUDED.node, since = EXCLUDED.since, \
                     epoch = CASE WHEN leases.node = EXCLUDED.node THEN leases.epoch ELSE leases.epoch + 1 END \
                     WHERE leases.node = EXCLUDED.node OR NOT madang_node_alive(leases.node) RETURNING epoch"
                )
            };
        }
        let (sql, object) = match key.split_once(':') {
            Some(("game", id)) => (claim!("EXISTS (SELECT 1 FROM games WHERE id = $3)"), id),
            Some(("room", code)) => (claim!("EXISTS (SELECT 1 FROM rooms WHERE code = $3 AND closed IS NULL)"), code),
            _ => return Ok(None),
        };
        let epoch: Option<i64> =
            sqlx::query_scalar(sql).bind(key).bind(&self.node).bind(object).fetch_optional(&self.pool).await?;
        if let Some(epoch) = epoch {
            self.held().insert(key.to_owned(), epoch);
            if epoch > 1 {
                tracing::info!(%key, epoch, "took over a lease");
            }
        }
        Ok(epoch)
    }

    /// Takes the lease of a game or room this node has just created.
    ///
    /// # Errors
    /// A database error, or the lease is someone else's (it cannot be, for a new id).
    pub async fn claim_new(&self, key: &str) -> Result<(), ApiError> {
        match self.claim(key).await? {
            Some(_) => Ok(()),
            None => Err(ApiError::internal(format!("the new {key} is leased to another node"))),
        }
    }

    /// Where a request for `key` goes: here when this node holds it or could take it (then
    /// it holds it), else the owner's `host:port`.
    ///
    /// # Errors
    /// A database error.
    pub async fn route(&self, key: &str) -> Result<Route, sqlx::Error> {
        if self.holds(key) {
            return Ok(Route::Local);
        }
        if let Some(tag) = key.strip_prefix("lab:") {
            return self.lab_route(tag).await;
        }
        for attempt in 0..3 {
            // Who owns it, read first: a live owner's row is not locked by a claim that must
            // fail (its fenced writes would wait behind every other node's look-up).
            if attempt > 0 && self.claim(key).await?.is_some() {
                return Ok(Route::Local);
            }
            let owner = sqlx::query(
                "SELECT l.node, n.url FROM leases l JOIN cluster_nodes n ON n.id = l.node \
                 WHERE l.key = $1 AND madang_node_alive(l.node)",
            )
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
            match owner {
                // No live owner: take it (or, when nothing exists to own, the handler answers 404).
                None if attempt == 0 => {
                    self.claim(key).await?;
                    return Ok(Route::Local);
                }
                None => return Ok(Route::Local),
                Some(row) => {
                    let node: String = row.get(0);
                    let url: String = row.get(1);
                    if node != self.node {
                        return Ok(Route::Forward(authority(&url).unwrap_or(url)));
                    }
                    // Ours, yet not claimed: released or taken between the two statements.
                }
            }
        }
        Ok(Route::Local)
    }

    /// A lab run lives on the node whose lock key starts its id.
    async fn lab_route(&self, id: &str) -> Result<Route, sqlx::Error> {
        let Some(lock_key) = id.get(..8).and_then(|t| i32::from_str_radix(t, 16).ok()) else {
            return Ok(Route::Local);
        };
        if lock_key == self.lock_key {
            return Ok(Route::Local);
        }
        let url: Option<String> = sqlx::query_scalar(
            "SELECT url FROM cluster_nodes WHERE lock_key = $1 AND madang_node_alive(id) ORDER BY started DESC LIMIT 1",
        )
        .bind(lock_key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(url.map_or(Route::Local, |url| Route::Forward(authority(&url).unwrap_or(url))))
    }

    /// Forgets `key` without touching the database (a write found it taken over).
    pub fn forget(&self, key: &str) {
        self.held().remove(key);
    }

    /// Gives `key` up (a game left memory, a room closed): any node may take it at once.
    pub async fn release(&self, key: &str) {
        let Some(epoch) = self.held().remove(key) else { return };
        let result = sqlx::query("DELETE FROM leases WHERE key = $1 AND node = $2 AND epoch = $3")
            .bind(key)
            .bind(&self.node)
            .bind(epoch)
            .execute(&self.pool)
            .await;
        if let Err(error) = result {
            tracing::warn!(%key, %error, "releasing a lease failed (it expires with the node)");
        }
    }

    /// Gives every lease up and leaves (a clean shutdown: the other nodes take over at once).
    pub async fn leave(&self) {
        self.held().clear();
        let released = sqlx::query("DELETE FROM leases WHERE node = $1").bind(&self.node).execute(&self.pool).await;
        let left = sqlx::query("DELETE FROM cluster_nodes WHERE id = $1").bind(&self.node).execute(&self.pool).await;
        match (released, left) {
            (Ok(done), Ok(_)) => tracing::info!(leases = done.rows_affected(), "handed every game and room over"),
            (Err(error), _) | (_, Err(error)) => tracing::error!(%error, "leaving the cluster failed"),
        }
        if let Some(conn) = self.lock.lock().await.take() {
            let _ = conn.close().await;
        }
    }

    /// Renews the node (reconnecting its lock session when it dropped) and returns the keys
    /// this node believed it held but no longer does (taken over while it was away).
    async fn heartbeat(&self) -> Result<Vec<String>, sqlx::Error> {
        let lease = i64::try_from(self.config.lease.as_millis()).unwrap_or(i64::MAX);
        {
            let mut lock = self.lock.lock().await;
            if lock.is_none() {
                *lock = Some(lock_session(&self.pool, self.lock_key).await?);
                tracing::warn!("the node's lock session was re-opened");
            }
            let Some(conn) = lock.as_mut() else { return Ok(Vec::new()) };
            // An upsert: a node paused for so long that the others forgot it comes back.
            let renewed = sqlx::query(
                "INSERT INTO cluster_nodes (id, url, lock_key, started, expires) \
                 VALUES ($1, $3, $4, madang_now_ms(), madang_now_ms() + $2) \
                 ON CONFLICT (id) DO UPDATE SET expires = EXCLUDED.expires",
            )
            .bind(&self.node)
            .bind(lease)
            .bind(&self.url)
            .bind(self.lock_key)
            .execute(&mut *conn)
            .await;
            if let Err(error) = renewed {
                *lock = None;
                return Err(error);
            }
        }
        // Only what was held before the read can be found missing from it: a lease taken while
        // the read was on its way is not lost.
        let before: HashMap<String, i64> = self.held().clone();
        let rows: Vec<(String, i64)> = sqlx::query_as("SELECT key, epoch FROM leases WHERE node = $1")
            .bind(&self.node)
            .fetch_all(&self.pool)
            .await?;
        let stored: HashMap<String, i64> = rows.into_iter().collect();
        let mut held = self.held();
        let lost: Vec<String> = before
            .iter()
            .filter(|(k, e)| stored.get(*k) != Some(e) && held.get(*k) == Some(e))
            .map(|(k, _)| k.clone())
            .collect();
        for key in &lost {
            held.remove(key);
        }
        Ok(lost)
    }

    /// Runs until shutdown: renews the node every heartbeat and drops from memory what it no
    /// longer owns (`App::lose`).
    pub async fn keep_alive(&self, state: AppState) {
        let mut tick = tokio::time::interval(self.config.heartbeat.max(Duration::from_millis(100)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stop = state.shutdown.clone();
        let mut beats: u64 = 0;
        loop {
            beats += 1;
            // Now and then: forget nodes dead for an hour, and the leases they left (any node
            // may take those anyway; this only keeps the tables small).
            if beats % 100 == 1 {
                self.sweep_dead().await;
            }
            tokio::select! {
                _ = tick.tick() => match self.heartbeat().await {
                    Ok(lost) if lost.is_empty() => {}
                    Ok(lost) => {
                        tracing::warn!(count = lost.len(), "leases were taken over: leaving those games and rooms");
                        state.lose(&lost);
                    }
                    Err(error) => tracing::error!(%error, "the node's heartbeat failed"),
                },
                () = crate::serve::until_stopped(&mut stop) => break,
            }
        }
    }

    async fn sweep_dead(&self) {
        let nodes = sqlx::query("DELETE FROM cluster_nodes WHERE expires < madang_now_ms() - 3600000")
            .execute(&self.pool)
            .await;
        let leases =
            sqlx::query("DELETE FROM leases l WHERE NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.id = l.node)")
                .execute(&self.pool)
                .await;
        if let (Err(error), _) | (_, Err(error)) = (nodes, leases) {
            tracing::warn!(%error, "forgetting dead nodes failed");
        }
    }

    // ------------------------------------------------------------------ room listings

    /// Stores a room's public listing (`None`: not listed) and announces it to every node.
    ///
    /// # Errors
    /// A database error, or the fence no longer holds (nothing is written then).
    pub async fn publish_listing(&self, code: &str, listing: Option<&Value>, fence: &Fence) -> Result<(), ServerError> {
        let text = listing.map(Value::to_string);
        let query = sqlx::query(
            "WITH fence AS (SELECT 1 FROM leases WHERE key = $3 AND node = $4 AND epoch = $5 FOR SHARE) \
             UPDATE rooms SET listing = $2 WHERE code = $1 AND EXISTS (SELECT 1 FROM fence)",
        );
        crate::db::rooms::execute_fenced(&self.pool, query.bind(code).bind(text), fence).await?;
        sqlx::query("SELECT pg_notify($1, $2)").bind(ROOMS_CHANNEL).bind(code).execute(&self.pool).await?;
        Ok(())
    }

    fn listings(&self) -> std::sync::MutexGuard<'_, HashMap<String, Value>> {
        self.listings.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The public lobbies of every node (`GET /api/rooms`).
    pub fn listed(&self) -> Vec<Value> {
        self.listings().values().cloned().collect()
    }

    async fn reload_listings(&self, code: Option<&str>) -> Result<(), sqlx::Error> {
        let rows: Vec<(String, Option<String>)> = match code {
            Some(code) => {
                sqlx::query_as("SELECT code, listing FROM rooms WHERE code = $1 AND closed IS NULL")
                    .bind(code)
                    .fetch_all(&self.pool)
                    .await?
            }
            None => {
                sqlx::query_as("SELECT code, listing FROM rooms WHERE listing IS NOT NULL AND closed IS NULL")
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        let mut listings = self.listings();
        match code {
            Some(code) => {
                listings.remove(code);
            }
            None => listings.clear(),
        }
        for (code, listing) in rows {
            if let Some(value) = listing.and_then(|t| serde_json::from_str(&t).ok()) {
                listings.insert(code, value);
            }
        }
        Ok(())
    }

    /// Runs until shutdown: keeps the public lobby list in step with every node's rooms
    /// (LISTEN `madang_rooms`; after a lost connection the whole list is read again).
    pub async fn follow_listings(&self, state: AppState) {
        let mut stop = state.shutdown.clone();
        loop {
            let mut listener = match PgListener::connect_with(&self.pool).await {
                Ok(listener) => listener,
                Err(error) => {
                    tracing::error!(%error, "listening for room listings failed; retrying");
                    tokio::select! {
                        () = tokio::time::sleep(Duration::from_secs(1)) => continue,
                        () = crate::serve::until_stopped(&mut stop) => return,
                    }
                }
            };
            if let Err(error) = listener.listen(ROOMS_CHANNEL).await {
                tracing::error!(%error, "listening for room listings failed; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            if let Err(error) = self.reload_listings(None).await {
                tracing::error!(%error, "reading the room listings failed");
            }
            loop {
                tokio::select! {
                    received = listener.try_recv() => match received {
                        Ok(Some(note)) => {
                            if let Err(error) = self.reload_listings(Some(note.payload())).await {
                                tracing::error!(%error, "reading a room listing failed");
                            }
                        }
                        // The connection dropped (and is re-opened): notifications may be lost.
                        Ok(None) => {
                            if let Err(error) = self.reload_listings(None).await {
                                tracing::error!(%error, "reading the room listings failed");
                            }
                        }
                        Err(error) => {
                            tracing::error!(%error, "listening for room listings failed; reconnecting");
                            break;
                        }
                    },
                    () = crate::serve::until_stopped(&mut stop) => return,
                }
            }
        }
    }

    // ------------------------------------------------------------------ forwarding

    /// Whether `headers` carry this cluster's forwarding secret (compared in constant time).
    pub fn forwarded(&self, headers: &axum::http::HeaderMap) -> bool {
        headers
            .get(&FORWARDED)
            .is_some_and(|v| crate::rooms::state::constant_time_eq(v.as_bytes(), self.secret.as_bytes()))
    }
}

/// The lease key a request's path names: a game (`/api/games/{id}…`), a room
/// (`/api/rooms/{code}…`) or a lab run (`/api/lab/runs/{id}…`, keyed by its node).
pub fn route_key(path: &str) -> Option<String> {
    let mut parts = path.trim_start_matches('/').split('/');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("api"), Some("games"), Some(id), _) if crate::app::is_hex_id(id, 16) => Some(game_key(id)),
        (Some("api"), Some("rooms"), Some(code), _) => {
            let code = code.trim().to_ascii_uppercase();
            (code.len() == crate::rooms::CODE_LENGTH && code.bytes().all(|b| crate::rooms::CODE_ALPHABET.contains(&b)))
                .then(|| room_key(&code))
        }
        (Some("api"), Some("lab"), Some("runs"), Some(id)) if crate::app::is_hex_id(id, 16) => {
            Some(format!("lab:{id}"))
        }
        _ => None,
    }
}

/// The client's address a forwarded request names (the first node's peer).
pub(crate) fn forwarded_client(headers: &axum::http::HeaderMap) -> Option<SocketAddr> {
    headers.get(&CLIENT).and_then(|v| v.to_str().ok()).and_then(|t| t.parse().ok())
}

fn moved(key: &str) -> Response {
    // `ApiError::moved` answers carry the `x-madang-moved` header the first node looks for.
    ApiError::moved(key).into_response()
}

/// Why a forward failed.
enum ForwardError {
    /// The owner could not be reached (dead, or stopping): ask again who owns it.
    Unreachable(String),
    /// It answered `503 moved`: ask again.
    Moved,
    /// The connection failed after the request was sent (the owner died while answering):
    /// whether it was applied is unknown, so only a `GET` or `HEAD` is asked again.
    Cut(String),
}

/// Sends the request to `authority` and returns its answer, joining the two connections when
/// it upgrades (a WebSocket).
async fn forward(
    cluster: &Cluster,
    authority: &str,
    parts: &axum::http::request::Parts,
    body: axum::body::Bytes,
    client: Option<SocketAddr>,
    upgrade: &mut Option<hyper::upgrade::OnUpgrade>,
) -> Result<Response, ForwardError> {
    let unreachable = |e: &dyn std::fmt::Display| ForwardError::Unreachable(format!("{authority}: {e}"));
    let stream = tokio::time::timeout(Duration::from_secs(2), tokio::net::TcpStream::connect(authority))
        .await
        .map_err(|e| unreachable(&e))?
        .map_err(|e| unreachable(&e))?;
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| unreachable(&e))?;
    tokio::spawn(async move {
        if let Err(error) = connection.with_upgrades().await {
            tracing::debug!(%error, "a forwarded connection ended");
        }
    });
    let mut request = hyper::Request::builder()
        .method(parts.method.clone())
        .uri(parts.uri.path_and_query().map_or_else(|| parts.uri.path().to_owned(), |p| p.as_str().to_owned()));
    for (name, value) in &parts.headers {
        if name != FORWARDED && name != CLIENT {
            request = request.header(name, value);
        }
    }
    request = request.header(FORWARDED, cluster.secret.as_str());
    if let Some(client) = client {
        request = request.header(CLIENT, client.to_string());
    }
    let request = request.body(Body::from(body)).map_err(|e| unreachable(&e))?;
    let idempotent = parts.method == axum::http::Method::GET || parts.method == axum::http::Method::HEAD;
    // A paused or cut-off owner accepts the connection and never answers: give up after the
    // request timeout every route has.
    let mut response = match tokio::time::timeout(crate::http::REQUEST_TIMEOUT, sender.send_request(request)).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) if e.is_canceled() || idempotent => return Err(unreachable(&e)),
        Ok(Err(e)) => return Err(ForwardError::Cut(format!("{authority}: {e}"))),
        Err(_) if idempotent => return Err(unreachable(&"no answer within the request timeout")),
        Err(_) => return Err(ForwardError::Cut(format!("{authority}: no answer within the request timeout"))),
    };
    if response.status() == StatusCode::SERVICE_UNAVAILABLE && response.headers().contains_key(&MOVED) {
        return Err(ForwardError::Moved);
    }
    if response.status() == StatusCode::SWITCHING_PROTOCOLS
        && let Some(client_side) = upgrade.take()
    {
        let owner_side = hyper::upgrade::on(&mut response);
        tokio::spawn(async move {
            match tokio::try_join!(client_side, owner_side) {
                Ok((client, owner)) => {
                    let (mut client, mut owner) = (TokioIo::new(client), TokioIo::new(owner));
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut owner).await;
                }
                Err(error) => tracing::debug!(%error, "a forwarded WebSocket did not upgrade"),
            }
        });
    }
    Ok(response.map(Body::new))
}

/// Middleware: a request for a game, room or lab run that another node owns goes to that node
/// (see the module documentation); a request forwarded to this node that it no longer owns is
/// answered `503 moved`, which the first node retries.
pub async fn route_requests(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(cluster) = state.cluster.as_ref() else { return next.run(request).await };
    let Some(key) = route_key(request.uri().path()) else { return next.run(request).await };
    let forwarded = request.extensions().get::<Forwarded>().is_some();
    // A WebSocket's Origin is checked by its handler, which a forwarded one reaches only on the
    // owner (which trusts the first node): check it here, before it leaves.
    if !forwarded
        && request.headers().contains_key(axum::http::header::UPGRADE)
        && let Err(error) = state.origins.check_origin(request.headers())
    {
        return error.into_response();
    }
    let client = crate::serve::peer(&request);
    let (mut parts, body) = request.into_parts();
    let read = tokio::time::timeout(crate::http::REQUEST_TIMEOUT, axum::body::to_bytes(body, FORWARD_BODY_LIMIT));
    let body = match read.await {
        Ok(Ok(body)) => body,
        Err(_) => {
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, "timeout", "the request body did not arrive in time")
                .into_response();
        }
        Ok(Err(_)) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                format!("the request body is over {} KiB", FORWARD_BODY_LIMIT / 1024),
            )
            .into_response();
        }
    };
    let mut upgrade = parts.extensions.remove::<hyper::upgrade::OnUpgrade>();
    let deadline = tokio::time::Instant::now() + ROUTE_PATIENCE;
    loop {
        let route = match cluster.route(&key).await {
            Ok(route) => route,
            Err(error) => return ApiError::storage(&error).into_response(),
        };
        match route {
            Route::Local => {
                if let Some(upgrade) = upgrade {
                    parts.extensions.insert(upgrade);
                }
                return next.run(Request::from_parts(parts, Body::from(body))).await;
            }
            // One hop only: the first node asks again.
            Route::Forward(_) if forwarded => return moved(&key),
            Route::Forward(owner) => {
                match forward(cluster, &owner, &parts, body.clone(), client, &mut upgrade).await {
                    Ok(response) => return response,
                    Err(ForwardError::Unreachable(why)) => {
                        tracing::debug!(%key, %why, "the owner is unreachable; asking again");
                    }
                    Err(ForwardError::Moved) => {}
                    Err(ForwardError::Cut(why)) => {
                        tracing::warn!(%key, %why, "the owner failed while answering");
                        return ApiError::new(
                            StatusCode::BAD_GATEWAY,
                            "node_failed",
                            "the server node holding this game or room failed while answering: the request may or may \
                             not have been applied; look at the current state before trying again",
                        )
                        .into_response();
                    }
                }
                if tokio::time::Instant::now() >= deadline {
                    return moved(&key);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Marks a request another node forwarded (set by the origin guard once the secret checks).
#[derive(Clone, Copy, Debug)]
pub struct Forwarded;
