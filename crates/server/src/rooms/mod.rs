//! Online rooms (`docs/api.md`, "Rooms"; design in `docs/server.md`): a room is created for a
//! game and its rules, people join it by its code and get a secret seat token, get ready, and
//! the host starts; the game is then played over the room's WebSocket.
//!
//! - One tokio task owns each room ([`room::Room::run`]) and applies its messages one at a time:
//!   joins, connections, every client message. Every change appends events with the room's
//!   next version; after each message the new events go to every connection in one `events`
//!   message, serialised once.
//! - A game change is stored (through the games' group-commit writer, [`crate::db::Writer`]) before
//!   anyone hears of it. Room games are ordinary games with mode `room`: every seated player
//!   is in `game_players` with their outcome.
//! - A room's own state (seats, token hashes, host, status, games) is stored in `rooms.state`
//!   before anyone hears of a change; after a restart (or when unloaded while idle) a room is
//!   rebuilt on first use of its code (`Registry::open`), and public lobbies at start.

mod changes;
pub mod protocol;
pub mod room;
pub mod state;
mod ws;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

pub use ws::upgrade;

use crate::app::{AppState, now_ms};
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::identity::{ClientAddress, PlayerId, check_nickname};
use room::{Msg, Room, Setup, Shared};
use state::Settings;

/// Letters of room codes: no `0`/`O`, no `1`/`I`.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Characters in a room code.
pub const CODE_LENGTH: usize = 6;

/// The rooms' limits and timings (`docs/api.md`, "Limits").
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// A text message longer than this is refused (`message_too_large`) and the connection
    /// kept.
    pub max_message_bytes: usize,
    /// A frame or message longer than this closes the connection (1009).
    pub hard_message_bytes: usize,
    /// Messages a connection may send per second, sustained (a token bucket)…
    pub rate_per_second: u32,
    /// …and in a burst.
    pub burst: u32,
    /// Refused messages (over the rate or size) within `strike_window` that close the
    /// connection (1008).
    pub strikes_to_close: u32,
    /// See `strikes_to_close`.
    pub strike_window: Duration,
    /// How long a player must have been away before the host may hand the seat to the
    /// computer (and, in the lobby, before the host role passes on).
    pub grace: Duration,
    /// Events kept for catching up; a client further behind gets a snapshot.
    pub catch_up: usize,
    /// Longest chat line, in characters.
    pub chat_chars: usize,
    /// A room without connections closes after this.
    pub idle_close: Duration,
    /// Messages queued for a connection before it is dropped as too slow.
    pub outbox: usize,
    /// Most rooms at once.
    pub max_rooms: usize,
    /// WebSockets one room holds at most (people and spectators together); the next upgrade
    /// is refused with `room_crowded`.
    pub max_connections: usize,
}

impl Default for RoomConfig {
    fn default() -> Self {
        RoomConfig {
            max_message_bytes: 4 * 1024,
            hard_message_bytes: 64 * 1024,
            rate_per_second: 20,
            burst: 40,
            strikes_to_close: 20,
            strike_window: Duration::from_secs(10),
            grace: Duration::from_secs(30),
            catch_up: 256,
            chat_chars: 200,
            idle_close: Duration::from_secs(30 * 60),
            outbox: 256,
            max_rooms: 20_000,
            max_connections: 64,
        }
    }
}

impl RoomConfig {
    /// The per-connection message rate limit (rooms' and games' WebSockets alike).
    pub(crate) fn rate_limit(&self) -> crate::ws::RateLimit {
        crate::ws::RateLimit {
            rate_per_second: self.rate_per_second,
            burst: self.burst,
            strikes_to_close: self.strikes_to_close,
            strike_window: self.strike_window,
        }
    }

    /// The limits as the `welcome` message tells them.
    pub fn limits(&self) -> Value {
        json!({"max_message_bytes": self.max_message_bytes, "rate_per_second": self.rate_per_second,
               "burst": self.burst, "chat_chars": self.chat_chars, "grace_seconds": self.grace.as_secs(),
               "catch_up": self.catch_up})
    }
}

struct Entry {
    tx: mpsc::Sender<Msg>,
    shared: Arc<Shared>,
}

/// Every room in memory, by code.
pub struct Registry {
    rooms: Mutex<HashMap<String, Entry>>,
    /// Limits and timings.
    pub config: RoomConfig,
    connections: AtomicU64,
    /// Held while a stored room is rebuilt (one rebuild per code at a time).
    loading: tokio::sync::Mutex<()>,
}

impl Registry {
    /// A registry.
    pub fn new(config: RoomConfig) -> Registry {
        Registry {
            rooms: Mutex::new(HashMap::new()),
            config,
            connections: AtomicU64::new(0),
            loading: tokio::sync::Mutex::new(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A room in memory, or else a stored open room rebuilt (after a restart, or unloaded
    /// while idle).
    ///
    /// # Errors
    /// `unknown_room`, or a stored room that cannot be rebuilt.
    pub(crate) async fn open(
        &self,
        state: &AppState,
        code: &str,
    ) -> Result<(mpsc::Sender<Msg>, Arc<Shared>), ApiError> {
        let code = normalise(code);
        let live = |rooms: &HashMap<String, Entry>| {
            rooms.get(&code).filter(|e| !e.tx.is_closed()).map(|e| (e.tx.clone(), e.shared.clone()))
        };
        if let Some(found) = live(&self.lock()) {
            return Ok(found);
        }
        let unknown = || {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_room",
                format!("no open room has the code {:?}", madang_core::echo(&code)),
            )
        };
        if code.len() != CODE_LENGTH || !code.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
            return Err(unknown());
        }
        let _loading = self.loading.lock().await;
        if let Some(found) = live(&self.lock()) {
            return Ok(found);
        }
        // On a cluster the request was routed here; the lease is taken (or known to be another
        // node's, when it moved on the way).
        if let Some(cluster) = &state.cluster {
            let key = crate::cluster::room_key(&code);
            if cluster.route(&key).await? != crate::cluster::Route::Local {
                return Err(ApiError::moved(&key));
            }
        }
        let Some(row) = crate::db::rooms::load_room(&state.db, &code).await? else { return Err(unknown()) };
        let room = Room::restore(state.clone(), self.config.clone(), code.clone(), row).await?;
        tracing::info!(room = %code, "room rebuilt from storage");
        Ok(self.spawn(code, room))
    }

    fn spawn(&self, code: String, room: Room) -> (mpsc::Sender<Msg>, Arc<Shared>) {
        let (tx, rx) = mpsc::channel(1024);
        let shared = room.shared();
        self.lock().insert(code, Entry { tx: tx.clone(), shared: shared.clone() });
        tokio::spawn(room.run(rx));
        (tx, shared)
    }

    /// Another node took the room with this code over: its task stops without writing.
    pub(crate) fn moved(&self, code: &str) {
        if let Some(entry) = self.lock().remove(code) {
            let _ = entry.tx.try_send(Msg::Moved);
        }
    }

    /// Rebuilds the stored public rooms in their lobby, so that `GET /api/rooms` lists them
    /// after a restart (the others are rebuilt on first use of their code). On a cluster the
    /// listings come from the database instead, and a room is rebuilt by the node its first
    /// request reaches.
    pub async fn restore_public(&self, state: &AppState) {
        if state.cluster.is_some() {
            return;
        }
        let codes = match crate::db::rooms::public_lobbies(&state.db).await {
            Ok(codes) => codes,
            Err(error) => {
                tracing::error!(%error, "reading the stored public rooms failed");
                return;
            }
        };
        for code in codes {
            if let Err(error) = self.open(state, &code).await {
                tracing::error!(room = %code, %error, "rebuilding a stored room failed");
            }
        }
    }

    /// Forgets a room whose task has ended (unless the code already holds a newer one).
    pub(crate) fn remove(&self, code: &str, shared: &Arc<Shared>) {
        let mut rooms = self.lock();
        if rooms.get(code).is_some_and(|e| Arc::ptr_eq(&e.shared, shared)) {
            rooms.remove(code);
        }
    }

    fn next_connection(&self) -> u64 {
        self.connections.fetch_add(1, Ordering::Relaxed)
    }

    /// Rooms in memory.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The timer wake-ups of the room with this code so far, if it is in memory.
    pub fn timer_wakes(&self, code: &str) -> Option<u64> {
        self.lock().get(&normalise(code)).map(|e| e.shared.wakes.load(Ordering::Relaxed))
    }
}

/// A room's invite link: `<base>/#/room/<code>` (`Origins::base`: `--public-url`, else the
/// request's `Host` when it is one of ours).
fn link(state: &AppState, headers: &HeaderMap, code: &str) -> String {
    format!("{}/#/room/{code}", state.origins.base(headers))
}

fn normalise(code: &str) -> String {
    code.trim().to_ascii_uppercase()
}

/// A new room code: [`CODE_LENGTH`] letters of [`CODE_ALPHABET`] from the operating system's
/// randomness.
///
/// # Errors
/// The operating system's generator failed.
pub fn new_code() -> Result<String, ApiError> {
    let mut bytes = [0u8; CODE_LENGTH];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("operating system randomness failed: {e}")))?;
    // 256 is a multiple of the alphabet's 32 letters: no bias.
    Ok(bytes.iter().map(|b| CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()] as char).collect())
}

/// A seat token: 128 random bits as 32 hex digits.
///
/// # Errors
/// The operating system's generator failed.
pub fn random_token() -> Result<String, ApiError> {
    crate::app::random_hex(16)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateRoom {
    game: String,
    #[serde(default)]
    rules: Option<Value>,
    #[serde(default)]
    players: Option<usize>,
    #[serde(default)]
    public: bool,
    #[serde(default)]
    nickname: Option<String>,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    cpu: HashMap<String, String>,
    #[serde(default)]
    turn_seconds: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRoom {
    #[serde(default)]
    nickname: Option<String>,
    #[serde(default)]
    seat: Option<String>,
}

/// The nickname shown in a room: the one asked for (already checked), else the player's.
async fn nickname_for(state: &AppState, player: &str, requested: Option<String>) -> Result<String, ApiError> {
    match requested {
        Some(n) => Ok(n),
        None => {
            if let Some(n) = state.nicknames().get(player) {
                return Ok(n.clone());
            }
            Ok(state.db.player(player).await?.map_or_else(|| "Guest".to_owned(), |p| p.nickname))
        }
    }
}

/// `POST /api/rooms`: creates a room with the requester as host in a seat.
///
/// # Errors
/// A game not offered in rooms, bad rules, seats, levels, nickname or timer.
pub(crate) async fn create(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<CreateRoom>,
) -> Result<Response, ApiError> {
    let offered = crate::catalogue::games_in(madang_games::PlayMode::Room);
    if madang_games::GAMES.contains(&body.game.as_str()) && !offered.contains(&body.game.as_str()) {
        return Err(ApiError::unprocessable(
            "not_offered",
            format!(
                "{} is not played in rooms, only against the computer; rooms offer {}",
                body.game,
                offered.join(", ")
            ),
        ));
    }
    if !offered.contains(&body.game.as_str()) {
        return Err(ApiError::unprocessable(
            "unknown_game",
            format!("rooms offer {}, not {:?}", offered.join(", "), madang_core::echo(&body.game)),
        ));
    }
    if let Some(t) = body.turn_seconds
        && !(5..=600).contains(&t)
    {
        return Err(ApiError::unprocessable("bad_timer", format!("turn_seconds is 5 to 600 (or null: off), got {t}")));
    }
    let rules = body.rules.unwrap_or_else(|| json!({}));
    let template = crate::live::open_live(&body.game, &rules, body.players).map_err(|e| match e {
        madang_games::RecordError::UnknownGame(_) => ApiError::unprocessable("unknown_game", e.to_string()),
        other => ApiError::unprocessable("bad_rules", other.to_string()),
    })?;
    let names = template.seat_names();
    for (seat, level) in &body.cpu {
        if !names.contains(seat) {
            return Err(ApiError::unprocessable(
                "bad_seat",
                format!("no seat {:?} in this game (seats: {})", madang_core::echo(seat), names.join(", ")),
            ));
        }
        template.check_bot(level).map_err(|e| ApiError::unprocessable("bad_level", format!("seat {seat}: {e}")))?;
    }
    let seat = match &body.seat {
        Some(seat) => names.iter().position(|n| n == seat).ok_or_else(|| {
            ApiError::unprocessable(
                "bad_seat",
                format!("no seat {:?} in this game (seats: {})", madang_core::echo(seat), names.join(", ")),
            )
        })?,
        None => names.iter().position(|n| !body.cpu.contains_key(n)).ok_or_else(|| {
            ApiError::unprocessable("bad_seat", "every seat is the computer's: keep one for yourself")
        })?,
    };
    if body.cpu.contains_key(&names[seat]) {
        return Err(ApiError::unprocessable("bad_seat", format!("seat {} is given to the computer", names[seat])));
    }
    let rooms = &state.rooms;
    if rooms.len() >= rooms.config.max_rooms {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_rooms",
            format!("the server holds {} rooms, its limit: try later", rooms.config.max_rooms),
        ));
    }
    let nickname = body.nickname.map(|n| check_nickname(&n)).transpose()?;
    state.quotas.new_room(&player, &address)?;
    state.ensure_player(&player, &address).await?;
    let nickname = nickname_for(&state, &player, nickname).await?;
    let rules_text = rules.to_string();
    let created = now_ms();
    let mut code = new_code()?;
    for attempt in 0.. {
        let taken = rooms.lock().contains_key(&code);
        if !taken {
            let room = crate::db::rooms::NewRoom {
                code: &code,
                host: &player,
                game: &body.game,
                rules: &rules_text,
                players: body.players.map(|p| p as i64),
                public: body.public,
                turn_seconds: body.turn_seconds.map(|t| t as i64),
                created,
            };
            let stored = crate::db::rooms::insert_room(&state.db, &room).await;
            match stored {
                Ok(()) => break,
                Err(error) if attempt >= 5 => return Err(ApiError::from(error)),
                Err(_) => {}
            }
        }
        code = new_code()?;
    }
    let setup = Setup {
        settings: Settings {
            public: body.public,
            turn_seconds: body.turn_seconds,
            created,
            ..Room::settings(&rooms.config, code.clone(), body.game, rules, body.players)
        },
        cpu: body.cpu,
        host: player,
        nickname,
        seat,
    };
    if let Some(cluster) = &state.cluster {
        cluster.claim_new(&crate::cluster::room_key(&code)).await?;
    }
    let (mut room, token) = Room::new(state.clone(), rooms.config.clone(), setup)?;
    // Stored before the token is handed out: the room survives a restart.
    room.save().await?;
    let snapshot = room.snapshot();
    let seat_name = names[seat].clone();
    rooms.spawn(code.clone(), room);
    tracing::info!(room = %code, "room created");
    let body = json!({"code": code, "link": link(&state, &headers, &code), "seat": seat_name, "token": token,
                      "room": snapshot});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/rooms`: the public rooms in their lobby with an open seat.
pub(crate) async fn list(State(state): State<AppState>) -> Json<Value> {
    let mut rooms: Vec<Value> = match &state.cluster {
        // Every node's public lobbies (`rooms.listing`, followed over LISTEN/NOTIFY).
        Some(cluster) => cluster.listed(),
        None => {
            state.rooms.lock().values().filter_map(|e| e.shared.listing.lock().ok().and_then(|l| l.clone())).collect()
        }
    };
    rooms.sort_by_key(|r| std::cmp::Reverse(r["created"].as_i64().unwrap_or_default()));
    rooms.truncate(200);
    Json(json!({ "rooms": rooms }))
}

/// `GET /api/rooms/{code}`: the room's snapshot and invite link.
///
/// # Errors
/// `unknown_room`.
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (tx, _) = state.rooms.open(&state, &code).await?;
    let (reply, answer) = oneshot::channel();
    tx.send(Msg::Snapshot { reply }).await.map_err(|_| closed(&code))?;
    let room = answer.await.map_err(|_| closed(&code))?;
    let code = normalise(&code);
    Ok(Json(json!({"code": code, "link": link(&state, &headers, &code), "room": room})))
}

fn closed(code: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "unknown_room", format!("room {} has closed", madang_core::echo(code)))
}

/// `POST /api/rooms/{code}/join`: a seat and its token.
///
/// # Errors
/// `unknown_room`, `room_full`, `seat_taken`, `room_started`, `bad_seat`, `bad_nickname`.
pub(crate) async fn join(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
    Path(code): Path<String>,
    headers: HeaderMap,
    crate::body::OptionalJsonBody(body): crate::body::OptionalJsonBody<JoinRoom>,
) -> Result<Json<Value>, ApiError> {
    let (tx, _) = state.rooms.open(&state, &code).await?;
    let nickname = body.nickname.map(|n| check_nickname(&n)).transpose()?;
    state.ensure_player(&player, &address).await?;
    let nickname = nickname_for(&state, &player, nickname).await?;
    let (reply, answer) = oneshot::channel();
    tx.send(Msg::Join { player, nickname, seat: body.seat, reply }).await.map_err(|_| closed(&code))?;
    let joined = answer.await.map_err(|_| closed(&code))??;
    let code = normalise(&code);
    Ok(Json(json!({"code": code, "link": link(&state, &headers, &code), "seat": joined.seat,
                   "token": joined.token, "room": joined.room})))
}
