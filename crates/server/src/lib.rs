//! The madang game server (`madang serve`): authoritative play against the computer and on one
//! screen over HTTP and WebSocket, with SQLite or PostgreSQL storage, guest identities, stats,
//! history and replays. The protocol is `docs/api.md`; operations are `docs/server.md`.
//!
//! - [`Server::bind`] opens the database (applying migrations), loads or creates the cookie
//!   key, and binds the listener; [`Server::run`] serves until the shutdown future resolves.
//! - Each game in memory has one owner (a mutex commands take in turn). A command is computed
//!   on a copy, stored in one transaction (actions, stream positions, status), and only then
//!   applied in memory and announced: nothing is acknowledged before it is stored.
//! - Games are loaded lazily: the first request for a game replays its stored actions and
//!   restores its stream positions, so an unfinished game continues exactly where it was.

mod app;
mod body;
pub mod catalogue;
pub mod cluster;
pub mod db;
mod error;
pub mod game;
mod http;
mod identity;
pub mod lab;
pub mod limits;
pub mod live;
mod origin;
pub mod progress;
mod review;
pub mod rooms;
pub mod serve;
pub mod solved;
pub mod stats;
pub mod web;
mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use db::{Backend, Db, Synchronous};
pub use error::{ApiError, ServerError};
pub use lab::LabLimits;
pub use limits::{Limits, Quotas};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:8080` by default in `madang serve`; port 0 picks one).
    pub bind: SocketAddr,
    /// Where the SQLite database and the cookie key live (created if missing).
    pub data_dir: PathBuf,
    /// `sqlite://PATH` or `postgres://…`; `None` means `sqlite://<data_dir>/madang.db`.
    pub database: Option<String>,
    /// Let clients fix a game's seed (tests only).
    pub allow_fixed_seed: bool,
    /// SQLite durability.
    pub synchronous: Synchronous,
    /// `--public-url`: the address people reach the server at (invite links, allowed origins).
    pub public_url: Option<String>,
    /// Online rooms' limits and timings.
    pub rooms: rooms::RoomConfig,
    /// Timeouts, connection limit, quotas, eviction of idle games, WAL size.
    pub limits: Limits,
    /// The browser client's files, served at `/` (`madang serve` hands over `madang-web`'s);
    /// `None` serves the API alone.
    pub files: Option<web::Files>,
    /// `--node-url`: run as one node of a cluster on a PostgreSQL `database`
    /// (`docs/server.md`, "Running several nodes"); `None` for a single node.
    pub cluster: Option<cluster::ClusterConfig>,
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    state: app::AppState,
    shutdown: watch::Sender<bool>,
}

/// The refusal of `--node-url` over SQLite.
fn cluster_needs_postgres() -> ServerError {
    ServerError::Config(
        "--node-url needs --database postgres://…: the nodes of a cluster share one PostgreSQL".to_owned(),
    )
}

impl Server {
    /// Checks the settings, binds the listener, then opens storage (creating the data
    /// directory, the database and the cookie key as needed, and applying migrations): a
    /// setting refused or an address that cannot be bound writes nothing.
    ///
    /// # Errors
    /// A data directory or key file that cannot be used, a database that cannot be opened or
    /// migrated, an address that cannot be bound.
    pub async fn bind(config: Config) -> Result<Server, ServerError> {
        // What can be refused without a side effect is checked first, and the address bound
        // before anything is written: a bad setting or a taken port leaves no key file, data
        // directory or database behind.
        let public_url = config.public_url.as_deref().map(origin::PublicUrl::parse).transpose()?;
        let url = match &config.database {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", config.data_dir.join("madang.db").display()),
        };
        if db::backend_of(&url)? == db::Backend::Sqlite && config.cluster.is_some() {
            return Err(cluster_needs_postgres());
        }
        let listener =
            TcpListener::bind(config.bind).await.map_err(|e| ServerError::io(format!("binding {}", config.bind), e))?;
        std::fs::create_dir_all(&config.data_dir)
            .map_err(|e| ServerError::io(format!("creating the data directory {}", config.data_dir.display()), e))?;
        let mut key = identity::load_or_create_key(&config.data_dir.join("cookie.key"))?;
        let data_dir = config.data_dir.clone();
        let solved = tokio::task::spawn_blocking(move || solved::load_tables(&data_dir))
            .await
            .map_err(|e| ServerError::Config(format!("loading the solved Ur tables: {e}")))??;
        if !solved.is_empty() {
            tracing::info!(tables = solved.len(), "the perfect Ur player is available");
        }
        let mut db = Db::connect(&url, config.synchronous).await?;
        db.set_wal_max_bytes(config.limits.wal_max_bytes);
        let cluster = match (&config.cluster, &db.pool) {
            (None, _) => None,
            (Some(settings), db::Pool::Postgres(pool)) => {
                let mut settings = settings.clone();
                // Port 0 in the node URL is the port bound (tests start nodes on free ports).
                if let Ok(mut url) = url::Url::parse(&settings.node_url)
                    && url.port() == Some(0)
                {
                    let port =
                        listener.local_addr().map_err(|e| ServerError::io("reading the bound address", e))?.port();
                    let _ = url.set_port(Some(port));
                    settings.node_url = url.to_string();
                }
                let (cluster, shared_key) = cluster::Cluster::join(pool.clone(), settings, key.master()).await?;
                key = axum_extra::extract::cookie::Key::try_from(shared_key.as_slice())
                    .map_err(|e| ServerError::Config(format!("the cluster's stored cookie key: {e}")))?;
                Some(Arc::new(cluster))
            }
            (Some(_), db::Pool::Sqlite(_)) => return Err(cluster_needs_postgres()),
        };
        tracing::info!(backend = ?db.backend(), synchronous = ?config.synchronous, "database ready");
        let (shutdown, receiver) = watch::channel(false);
        let local = listener.local_addr().map_err(|e| ServerError::io("reading the bound address", e))?;
        let origins = origin::Origins::new(public_url, local.port());
        let rooms = rooms::Registry::new(config.rooms.clone());
        let state = app::AppState(Arc::new(app::App::new(db, key, receiver, rooms, origins, &config, cluster)));
        Ok(Server { listener, state, shutdown })
    }

    /// A view of what the server holds once running (for tests and monitoring).
    pub fn probe(&self) -> Probe {
        Probe(self.state.clone())
    }

    /// On a cluster, the address the other nodes reach this node at (`--node-url`, port 0
    /// replaced by the port bound) and the node's id.
    pub fn node(&self) -> Option<(String, String)> {
        self.state.cluster.as_ref().map(|c| (c.url.clone(), c.node.clone()))
    }

    /// The address actually bound.
    ///
    /// # Errors
    /// The socket's address cannot be read.
    pub fn local_addr(&self) -> Result<SocketAddr, ServerError> {
        self.listener.local_addr().map_err(|e| ServerError::io("reading the bound address", e))
    }

    /// Serves until `shutdown` resolves, then stops accepting, closes WebSockets, lets running
    /// requests finish and closes the database.
    ///
    /// # Errors
    /// The listener fails.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), ServerError> {
        let Server { listener, state, shutdown: stop } = self;
        let router = http::router(state.clone());
        {
            // Public lobbies are listed again after a restart; other rooms come back on use.
            let state = state.clone();
            tokio::spawn(async move { state.rooms.restore_public(&state).await });
        }
        let checkpointer = {
            let db = state.db.clone();
            let stop = state.shutdown.clone();
            tokio::spawn(async move { db.checkpoint(stop).await })
        };
        {
            // Idle games leave memory; quota counters of clients gone quiet are forgotten.
            let state = state.clone();
            tokio::spawn(async move { state.sweep().await });
        }
        if let Some(cluster) = state.cluster.clone() {
            // Renewal, lost leases, and the public lobbies of every node.
            let (beat, follow) = (state.clone(), state.clone());
            let listings = cluster.clone();
            tokio::spawn(async move { cluster.keep_alive(beat).await });
            tokio::spawn(async move { listings.follow_listings(follow).await });
        }
        tokio::spawn(async move {
            shutdown.await;
            tracing::info!("shutting down");
            let _ = stop.send(true);
        });
        serve::serve(listener, router, state.limits.connections.clone(), state.shutdown.clone()).await;
        // Lab runs stop within a few games, so their threads do not hold the exit up.
        state.lab.cancel_all();
        let _ = checkpointer.await;
        state.writer.stop().await;
        // Every game and room is stored: hand them over (the other nodes take them at once).
        if let Some(cluster) = &state.cluster {
            cluster.leave().await;
        }
        state.db.close().await;
        tracing::info!("stopped");
        Ok(())
    }
}

/// What a server holds in memory, read while it runs.
#[derive(Clone)]
pub struct Probe(app::AppState);

impl Probe {
    /// Games held in memory (loaded or created, not yet dropped as idle).
    pub fn games_in_memory(&self) -> usize {
        self.0.games_in_memory()
    }

    /// Rooms held in memory.
    pub fn rooms_in_memory(&self) -> usize {
        self.0.rooms.len()
    }

    /// How often the timer of the room with this code has woken its task, if it is in memory.
    pub fn room_timer_wakes(&self, code: &str) -> Option<u64> {
        self.0.rooms.timer_wakes(code)
    }
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
