//! One room: its seats, its lobby, its game, its connections and its event log, owned by one
//! tokio task that applies messages in the order they arrive (an actor). Every change appends
//! versioned events; after each message the new events go to every connection in one `events`
//! message (serialised once), after the game's change is stored.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use madang_games::EndReason;
use madang_seed::Seed;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::protocol::{ClientMessage, Command};
use super::store::Commit;
use super::{RoomConfig, random_token};
use crate::app::{AppState, compute, now_ms, random_hex};
use crate::error::ApiError;
use crate::game::{ActionRequest, Change, EntryKind, LiveGame, NewGame, SeatKind, StateRef};
use crate::live::LiveMatch;

/// What a room's task is told.
pub enum Msg {
    /// `POST /api/rooms/{code}/join`.
    Join {
        /// The joining player (cookie identity).
        player: String,
        /// The nickname in this room.
        nickname: String,
        /// The seat asked for (default: the first open one).
        seat: Option<String>,
        /// The answer.
        reply: oneshot::Sender<Result<Joined, ApiError>>,
    },
    /// `GET /api/rooms/{code}`.
    Snapshot {
        /// The room's snapshot.
        reply: oneshot::Sender<Value>,
    },
    /// A WebSocket opened.
    Connect {
        /// Connection id.
        conn: u64,
        /// Where its messages go.
        out: mpsc::Sender<Out>,
    },
    /// A parsed message from a connection.
    Incoming {
        /// Connection id.
        conn: u64,
        /// The message.
        message: ClientMessage,
    },
    /// A WebSocket closed.
    Disconnect {
        /// Connection id.
        conn: u64,
    },
}

/// A message to a connection.
#[derive(Clone, Debug)]
pub enum Out {
    /// A JSON text frame.
    Text(Utf8Bytes),
    /// Close with this code and reason.
    Close(u16, String),
}

/// A seat taken by `join`.
#[derive(Clone, Debug)]
pub struct Joined {
    /// The seat's name.
    pub seat: String,
    /// Its secret token.
    pub token: String,
    /// The room's snapshot after the join.
    pub room: Value,
}

/// What the registry and the WebSocket sessions read without asking the task.
#[derive(Default)]
pub struct Shared {
    /// The room's current version.
    pub version: AtomicU64,
    /// The entry of `GET /api/rooms` while the room is public, in the lobby and has an open seat.
    pub listing: std::sync::Mutex<Option<Value>>,
    /// How often the room's timer has woken its task (each wake-up has something to do).
    pub wakes: AtomicU64,
    /// WebSockets open on the room.
    pub connections: AtomicUsize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Lobby,
    Playing,
    Finished,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Lobby => "lobby",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

struct Human {
    player: String,
    nickname: String,
    /// SHA-256 of the seat token: the token itself is never kept (nor stored).
    token_hash: [u8; 32],
    ready: bool,
    conns: usize,
    away_since: Option<i64>,
    /// `away_since` on the runtime's clock, for the timer (the host hand-over).
    away_at: Option<Instant>,
    /// The computer plays this seat for its absent player (level).
    cpu: Option<String>,
    rematch: bool,
    acked: u64,
    order: u64,
    ids: VecDeque<String>,
}

enum Occupant {
    Open,
    Cpu(String),
    Human(Box<Human>),
}

struct SeatState {
    name: String,
    side: String,
    occupant: Occupant,
}

struct Conn {
    out: mpsc::Sender<Out>,
    hello: bool,
    seat: Option<usize>,
    token: Option<String>,
}

/// The settings a room is created with.
pub struct Setup {
    /// Room code.
    pub code: String,
    /// Game name.
    pub game: String,
    /// Rules object.
    pub rules: Value,
    /// Record's `players`.
    pub players: Option<usize>,
    /// Listed in `GET /api/rooms`.
    pub public: bool,
    /// Turn timer.
    pub turn_seconds: Option<u64>,
    /// Seats given to the computer at creation.
    pub cpu: HashMap<String, String>,
    /// The host.
    pub host: String,
    /// The host's nickname.
    pub nickname: String,
    /// The host's seat.
    pub seat: usize,
    /// Creation time (as stored in `rooms.created`).
    pub created: i64,
}

/// A room.
pub struct Room {
    app: AppState,
    config: RoomConfig,
    shared: Arc<Shared>,
    code: String,
    game_name: String,
    rules: Value,
    players: Option<usize>,
    public: bool,
    turn_seconds: Option<u64>,
    created: i64,
    template: Box<dyn LiveMatch>,
    seats: Vec<SeatState>,
    host: Option<usize>,
    status: Status,
    version: u64,
    log: VecDeque<(u64, String)>,
    pending: Vec<String>,
    conns: HashMap<u64, Conn>,
    game: Option<LiveGame>,
    games: Vec<String>,
    draw_offer: Option<usize>,
    deadline: Option<i64>,
    joins: u64,
    closed: bool,
    /// The state document last written (`rooms.state`): written again when it changes.
    saved: String,
}

/// The SHA-256 of a seat token.
pub fn token_hash(token: &str) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes()).into()
}

fn unhex32(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    hex::decode_to_slice(text, &mut out).ok()?;
    Some(out)
}

/// What is stored of a room (`rooms.state`) to rebuild it after a restart: everything but
/// connections, presence, chat and the event log. The game itself is in `games`/`actions`.
#[derive(Serialize, Deserialize, Debug)]
pub struct Saved {
    /// `lobby`, `playing` or `finished` (when the game ended by a move, the stored game says
    /// so: a rebuilt room takes the status from it).
    pub status: String,
    /// The host's seat index.
    pub host: Option<usize>,
    /// People who joined so far (the host order).
    pub joins: u64,
    /// The seat with an open draw offer.
    pub draw_offer: Option<usize>,
    /// The room's games, oldest first.
    pub games: Vec<String>,
    /// Every seat, in the game's order.
    pub seats: Vec<SavedSeat>,
}

/// A stored seat.
#[derive(Serialize, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SavedSeat {
    /// Nobody.
    Open,
    /// The computer at a level.
    Cpu {
        /// Level or bot name.
        level: String,
    },
    /// A person.
    Human {
        /// Player id.
        player: String,
        /// Nickname in this room.
        nickname: String,
        /// SHA-256 of the seat token, hex.
        token_sha256: String,
        /// Ready (lobby).
        ready: bool,
        /// Asked for a rematch.
        rematch: bool,
        /// The computer plays for the absent player (level).
        cpu: Option<String>,
        /// Join order.
        order: u64,
    },
}

fn refuse(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

/// A message `id` is a string or a number of at most 64 characters (`docs/api.md`, "Rooms").
fn id_shape(id: Option<&Value>) -> Result<(), ApiError> {
    let text = match id {
        None => return Ok(()),
        Some(Value::String(s)) => s.chars().count(),
        Some(Value::Number(n)) => n.to_string().len(),
        Some(_) => return Err(ApiError::bad_request("bad_id", "a message id is a string or a number")),
    };
    if text > 64 {
        return Err(ApiError::bad_request("bad_id", "a message id has at most 64 characters"));
    }
    Ok(())
}

/// A message's `id` to echo: `None` (JSON `null`) when it is not a valid one.
pub(super) fn valid_id(id: Option<&Value>) -> Option<&Value> {
    id.filter(|id| id_shape(Some(id)).is_ok())
}

fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    refuse(StatusCode::CONFLICT, code, message)
}

/// The first character of `text` that would reorder or hide text around it: the bidi
/// embeddings, overrides, isolates and marks (U+202A-202E, U+2066-2069, U+200E, U+200F,
/// U+061C) and the invisible ones (zero-width space U+200B, word joiner U+2060, U+FEFF,
/// U+180E, U+2061-2064). The zero-width (non-)joiners U+200C and U+200D, which Persian,
/// Indic scripts and emoji sequences need, pass only between two visible characters.
fn invisible_format(text: &str) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().find_map(|(i, &c)| {
        let bad = match c {
            '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{200B}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
            | '\u{180E}' => true,
            '\u{200C}' | '\u{200D}' => {
                let visible =
                    |c: Option<&char>| c.is_some_and(|c| !c.is_whitespace() && !matches!(c, '\u{200C}' | '\u{200D}'));
                !(i > 0 && visible(chars.get(i - 1)) && visible(chars.get(i + 1)))
            }
            _ => false,
        };
        bad.then_some(c)
    })
}

/// Sleeps until `wake`, or for ever when there is none.
async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(wake) => tokio::time::sleep_until(wake).await,
        None => std::future::pending().await,
    }
}

impl Room {
    /// A new room with its host seated.
    ///
    /// # Errors
    /// Bad rules, seats or levels (checked by the caller already; repeated here).
    pub fn new(app: AppState, config: RoomConfig, setup: Setup) -> Result<(Room, String), ApiError> {
        let template = crate::live::open_live(&setup.game, &setup.rules, setup.players)
            .map_err(|e| ApiError::unprocessable("bad_rules", e.to_string()))?;
        let sides = template.side_names();
        let seats: Vec<SeatState> = template
            .seat_names()
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let occupant = setup.cpu.get(&name).map_or(Occupant::Open, |level| Occupant::Cpu(level.clone()));
                SeatState { side: sides.get(template.side_of_seat(i)).cloned().unwrap_or_default(), name, occupant }
            })
            .collect();
        let token = random_token()?;
        let mut room = Room {
            app,
            config,
            shared: Arc::new(Shared::default()),
            code: setup.code,
            game_name: setup.game,
            rules: setup.rules,
            players: setup.players,
            public: setup.public,
            turn_seconds: setup.turn_seconds,
            created: setup.created,
            template,
            seats,
            host: Some(setup.seat),
            status: Status::Lobby,
            version: 0,
            log: VecDeque::new(),
            pending: Vec::new(),
            conns: HashMap::new(),
            game: None,
            games: Vec::new(),
            draw_offer: None,
            deadline: None,
            joins: 1,
            closed: false,
            saved: String::new(),
        };
        room.seats[setup.seat].occupant = Occupant::Human(Box::new(Human {
            player: setup.host,
            nickname: setup.nickname.clone(),
            token_hash: token_hash(&token),
            ready: false,
            conns: 0,
            away_since: Some(room.created),
            away_at: Some(Instant::now()),
            cpu: None,
            rematch: false,
            acked: 0,
            order: 0,
            ids: VecDeque::new(),
        }));
        let seat = room.seats[setup.seat].name.clone();
        room.event("joined", json!({"seat": seat, "nickname": setup.nickname}));
        room.event("host", json!({"seat": seat}));
        room.commit_events();
        Ok((room, token))
    }

    /// Rebuilds a stored room after a restart (or after it was unloaded when idle): its seats,
    /// host, status and the last game (loaded from its actions). Nobody is connected; every
    /// seat's token still works. The version continues at `generation << 32`, above any
    /// version of an earlier life of the room, so a client's `hello` gets a snapshot.
    ///
    /// # Errors
    /// A stored room or game that cannot be read.
    pub async fn restore(
        app: AppState,
        config: RoomConfig,
        code: String,
        row: super::store::RoomRow,
    ) -> Result<Room, ApiError> {
        let corrupt = |what: String| ApiError::internal(format!("stored room {code} cannot be rebuilt: {what}"));
        let rules: Value = serde_json::from_str(&row.rules).map_err(|e| corrupt(format!("rules: {e}")))?;
        let players = row.players.map(|p| usize::try_from(p).unwrap_or(0));
        let saved: Saved = serde_json::from_str(&row.state).map_err(|e| corrupt(format!("state: {e}")))?;
        let template = crate::live::open_live(&row.game, &rules, players).map_err(|e| corrupt(e.to_string()))?;
        let sides = template.side_names();
        let names = template.seat_names();
        if names.len() != saved.seats.len() {
            return Err(corrupt(format!("{} seats stored, the game has {}", saved.seats.len(), names.len())));
        }
        let now = now_ms();
        let mut seats = Vec::with_capacity(names.len());
        for (i, (name, stored)) in names.into_iter().zip(saved.seats).enumerate() {
            let occupant = match stored {
                SavedSeat::Open => Occupant::Open,
                SavedSeat::Cpu { level } => Occupant::Cpu(level),
                SavedSeat::Human { player, nickname, token_sha256, ready, rematch, cpu, order } => {
                    Occupant::Human(Box::new(Human {
                        player,
                        nickname,
                        token_hash: unhex32(&token_sha256).ok_or_else(|| corrupt(format!("seat {name}'s token")))?,
                        ready,
                        conns: 0,
                        away_since: Some(now),
                        away_at: Some(Instant::now()),
                        cpu,
                        rematch,
                        acked: 0,
                        order,
                        ids: VecDeque::new(),
                    }))
                }
            };
            seats.push(SeatState {
                side: sides.get(template.side_of_seat(i)).cloned().unwrap_or_default(),
                name,
                occupant,
            });
        }
        let mut game = None;
        if saved.status != "lobby"
            && let Some(id) = saved.games.last()
        {
            let (game_row, actions) =
                app.db.load_game(id).await?.ok_or_else(|| corrupt(format!("its game {id} is not stored")))?;
            let mut live = compute(|| LiveGame::load(&game_row, &actions))?;
            for (i, seat) in seats.iter().enumerate() {
                if let Occupant::Human(h) = &seat.occupant
                    && let Some(level) = &h.cpu
                    && let Some(s) = live.seats.get_mut(i)
                {
                    s.kind = SeatKind::Cpu;
                    s.level = Some(level.clone());
                }
            }
            game = Some(live);
        }
        let status = match &game {
            None => Status::Lobby,
            Some(live) if live.core.ended() => Status::Finished,
            Some(_) => Status::Playing,
        };
        let version = u64::try_from(row.generation).unwrap_or(0) << 32;
        let mut room = Room {
            app,
            config,
            shared: Arc::new(Shared::default()),
            code,
            game_name: row.game,
            rules,
            players,
            public: row.public,
            turn_seconds: row.turn_seconds.and_then(|t| u64::try_from(t).ok()),
            created: row.created,
            template,
            seats,
            host: saved.host,
            status,
            version,
            log: VecDeque::new(),
            pending: Vec::new(),
            conns: HashMap::new(),
            game,
            games: saved.games,
            draw_offer: if status == Status::Playing { saved.draw_offer } else { None },
            deadline: None,
            joins: saved.joins,
            closed: false,
            saved: row.state,
        };
        room.rearm();
        room.commit_events();
        Ok(room)
    }

    /// The state document to store (`rooms.state`).
    fn saved(&self) -> Saved {
        let seats = self
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Open => SavedSeat::Open,
                Occupant::Cpu(level) => SavedSeat::Cpu { level: level.clone() },
                Occupant::Human(h) => SavedSeat::Human {
                    player: h.player.clone(),
                    nickname: h.nickname.clone(),
                    token_sha256: hex::encode(h.token_hash),
                    ready: h.ready,
                    rematch: h.rematch,
                    cpu: h.cpu.clone(),
                    order: h.order,
                },
            })
            .collect();
        Saved {
            status: self.status.as_str().to_owned(),
            host: self.host,
            joins: self.joins,
            draw_offer: self.draw_offer,
            games: self.games.clone(),
            seats,
        }
    }

    /// Writes the room's state document when it changed since the last write (call before
    /// the change is announced: nothing a client heard is lost on a restart).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save(&mut self) -> Result<(), ApiError> {
        // The state only changes with seats, lobby and game starts: a move (the common
        // message) leaves it alone unless it withdrew a draw offer.
        let text = serde_json::to_string(&self.saved()).map_err(|e| ApiError::internal(e.to_string()))?;
        if text == self.saved {
            return Ok(());
        }
        super::store::save_room(&self.app.db, &self.code, &text, self.status.as_str(), now_ms()).await?;
        self.saved = text;
        Ok(())
    }

    async fn save_logged(&mut self) {
        if let Err(error) = self.save().await {
            tracing::error!(room = %self.code, %error, "storing the room's state failed");
        }
    }

    /// What the registry keeps of the room.
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// The room's full snapshot (`docs/api.md`, "Room snapshot").
    pub fn snapshot(&self) -> Value {
        serde_json::to_value(self.snapshot_ref(&self.nicknames())).unwrap_or(Value::Null)
    }

    /// The snapshot as JSON text (the same document as [`Room::snapshot`], written directly:
    /// it goes out with every `events` message).
    fn snapshot_text(&self) -> String {
        serde_json::to_string(&self.snapshot_ref(&self.nicknames())).unwrap_or_else(|_| "null".to_owned())
    }

    fn snapshot_ref<'a>(&'a self, nicknames: &'a HashMap<String, String>) -> SnapshotRef<'a> {
        let state = match (&self.game, self.status) {
            (Some(live), Status::Playing | Status::Finished) => Some(Room::game_state(live, nicknames)),
            _ => None,
        };
        SnapshotRef {
            code: &self.code,
            game: &self.game_name,
            rules: &self.rules,
            players: self.players,
            public: self.public,
            status: self.status.as_str(),
            version: self.version,
            host: self.host.map(|h| self.seats[h].name.as_str()),
            turn_seconds: self.turn_seconds,
            grace_seconds: self.config.grace.as_secs(),
            deadline: self.deadline,
            draw_offer: self.draw_offer.map(|s| self.seats[s].name.as_str()),
            seats: &self.seats,
            games: &self.games,
            state,
            created: self.created,
        }
    }

    /// The players' nicknames by player id (the room's, for the game state's seats).
    fn nicknames(&self) -> HashMap<String, String> {
        self.humans().map(|(_, h)| (h.player.clone(), h.nickname.clone())).collect()
    }

    /// The game's state as `GET /api/games/{id}` shows it to the seat to move (so `moves` is
    /// annotated), without `my_seats`; nicknames are the room's.
    fn game_state<'a>(live: &'a LiveGame, nicknames: &'a HashMap<String, String>) -> StateRef<'a> {
        let to_move = LiveGame::acting(&live.core)
            .and_then(|s| live.seats.get(s))
            .and_then(|s| s.player.as_deref())
            .unwrap_or_default();
        live.state_ref(to_move, nicknames, false)
    }

    fn listing(&self) -> Option<Value> {
        let open = self.seats.iter().filter(|s| matches!(s.occupant, Occupant::Open)).count();
        (self.public && self.status == Status::Lobby && open > 0).then(|| {
            let seats: Vec<Value> = self
                .seats
                .iter()
                .map(|s| {
                    let kind = match s.occupant {
                        Occupant::Open => "open",
                        Occupant::Cpu(_) => "cpu",
                        Occupant::Human(_) => "human",
                    };
                    json!({"name": s.name, "side": s.side, "kind": kind})
                })
                .collect();
            let host = self.host.and_then(|h| match &self.seats[h].occupant {
                Occupant::Human(h) => Some(h.nickname.clone()),
                _ => None,
            });
            json!({"code": self.code, "game": self.game_name, "rules": self.rules, "players": self.players,
                   "seats": seats, "open": open, "host": host, "turn_seconds": self.turn_seconds,
                   "created": self.created})
        })
    }

    // ---------------------------------------------------------------- events and broadcast

    /// Appends an event (not yet sent).
    fn event(&mut self, kind: &str, mut body: Value) {
        self.version += 1;
        if let Value::Object(map) = &mut body {
            let mut event = Map::with_capacity(map.len() + 3);
            event.insert("version".into(), json!(self.version));
            event.insert("type".into(), json!(kind));
            event.append(map);
            event.insert("at".into(), json!(now_ms()));
            body = Value::Object(event);
        }
        let text = body.to_string();
        self.pending.push(text);
    }

    /// Moves pending events into the catch-up log; returns them.
    fn commit_events(&mut self) -> Vec<String> {
        let events = std::mem::take(&mut self.pending);
        let first = self.version + 1 - events.len() as u64;
        for (i, e) in events.iter().enumerate() {
            self.log.push_back((first + i as u64, e.clone()));
        }
        while self.log.len() > self.config.catch_up {
            self.log.pop_front();
        }
        self.shared.version.store(self.version, Ordering::Relaxed);
        if let Ok(mut listing) = self.shared.listing.lock() {
            *listing = self.listing();
        }
        events
    }

    fn events_message(&self, from: u64, events: &[&str]) -> String {
        let room = self.snapshot_text();
        let mut text = String::with_capacity(room.len() + events.iter().map(|e| e.len() + 1).sum::<usize>() + 64);
        text.push_str(&format!("{{\"type\":\"events\",\"from\":{from},\"to\":{},\"events\":[", self.version));
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(e);
        }
        text.push_str("],\"room\":");
        text.push_str(&room);
        text.push('}');
        text
    }

    /// Sends the pending events to every connection that said hello, in one message.
    fn flush(&mut self) {
        loop {
            if self.pending.is_empty() {
                return;
            }
            let from = self.version - self.pending.len() as u64;
            let events = self.commit_events();
            let refs: Vec<&str> = events.iter().map(String::as_str).collect();
            let message = Utf8Bytes::from(self.events_message(from, &refs));
            let mut dropped = Vec::new();
            for (id, conn) in &self.conns {
                if conn.hello && conn.out.try_send(Out::Text(message.clone())).is_err() {
                    dropped.push(*id);
                }
            }
            // A connection that cannot keep up is dropped (it reconnects and catches up).
            for id in dropped {
                if let Some(conn) = self.conns.get(&id) {
                    let _ = conn.out.try_send(Out::Close(1008, "too slow: reconnect and catch up".into()));
                }
                self.drop_conn(id);
            }
        }
    }

    fn send(&self, conn: u64, value: &Value) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.out.try_send(Out::Text(Utf8Bytes::from(value.to_string())));
        }
    }

    fn send_error(&self, conn: u64, error: &ApiError, message: &ClientMessage) {
        let game_version = self.game.as_ref().map(LiveGame::version);
        self.send(
            conn,
            &json!({"type": "error", "code": error.code, "message": error.message, "status": error.status.as_u16(),
                    "command": message.command.kind(), "id": valid_id(message.id.as_ref()), "version": self.version,
                    "game_version": game_version}),
        );
    }

    // ---------------------------------------------------------------- the task

    /// Runs the room until it closes.
    pub async fn run(mut self, mut rx: mpsc::Receiver<Msg>) {
        // Since when no person (a seat's connection) has been connected; spectators alone do
        // not keep a room open.
        let mut idle_since = Some(Instant::now());
        let mut idle = false;
        // The instant the timer last fired for, until a message changes something: a
        // deadline not later than it is not slept on again (never a wake-up loop).
        let mut fired: Option<Instant> = None;
        loop {
            let wake = self.next_wake(idle_since).filter(|w| fired.is_none_or(|f| *w > f));
            let message = tokio::select! {
                message = rx.recv() => message,
                () = sleep_until(wake) => {
                    self.shared.wakes.fetch_add(1, Ordering::Relaxed);
                    fired = wake;
                    if idle_since.is_some_and(|t| t.elapsed() >= self.config.idle_close) {
                        idle = true;
                        break;
                    }
                    self.on_timer().await;
                    self.save_logged().await;
                    self.flush();
                    continue;
                }
            };
            let Some(message) = message else { break };
            fired = None;
            match message {
                Msg::Join { player, nickname, seat, reply } => {
                    let mut result = self.join(player, nickname, seat);
                    // The seat is stored before its token is handed out.
                    if result.is_ok()
                        && let Err(error) = self.save().await
                    {
                        result = Err(error);
                    }
                    self.flush();
                    let _ = reply.send(result.map(|(seat, token)| Joined { seat, token, room: self.snapshot() }));
                }
                Msg::Snapshot { reply } => {
                    let _ = reply.send(self.snapshot());
                }
                Msg::Connect { conn, out } => {
                    self.conns.insert(conn, Conn { out, hello: false, seat: None, token: None });
                }
                Msg::Incoming { conn, message } => {
                    self.incoming(conn, message).await;
                    self.save_logged().await;
                    self.flush();
                }
                Msg::Disconnect { conn } => {
                    self.drop_conn(conn);
                    self.flush();
                }
            }
            self.shared.connections.store(self.conns.len(), Ordering::Relaxed);
            let people = self.conns.values().any(|c| c.seat.is_some());
            idle_since = if people { None } else { idle_since.or_else(|| Some(Instant::now())) };
            if self.closed {
                break;
            }
        }
        for conn in self.conns.values() {
            let _ = conn.out.try_send(Out::Close(1001, "the room has closed".into()));
        }
        // Closed for good: everyone left, or an idle lobby. An idle room with a game is only
        // unloaded from memory: its code rebuilds it (`Registry::open`).
        if self.closed || (idle && self.status == Status::Lobby) {
            tracing::info!(room = %self.code, idle, "room closed");
            if let Err(error) = super::store::close_room(&self.app.db, &self.code, now_ms()).await {
                tracing::error!(room = %self.code, %error, "recording the room's closing failed");
            }
        } else {
            tracing::info!(room = %self.code, "idle room unloaded (its code rebuilds it)");
        }
        self.app.rooms.remove(&self.code, &self.shared);
    }

    /// When the timer has something to do next: the idle close, the turn timer's deadline,
    /// or the lobby host's hand-over once a person is there to take the role; `None` when
    /// nothing is due.
    fn next_wake(&self, idle_since: Option<Instant>) -> Option<Instant> {
        let now_ms = now_ms();
        let at = |ms: i64| Instant::now() + Duration::from_millis(u64::try_from(ms - now_ms).unwrap_or(0));
        let idle = idle_since.map(|t| t + self.config.idle_close);
        let deadline = self.deadline.map(at);
        let hand_over = self.host_away_at().filter(|_| self.host_successor().is_some()).map(|t| t + self.config.grace);
        [idle, deadline, hand_over].into_iter().flatten().min()
    }

    fn grace_ms(&self) -> i64 {
        i64::try_from(self.config.grace.as_millis()).unwrap_or(i64::MAX)
    }

    /// In the lobby, since when the host has been away (the role passes after the grace period).
    fn host_away_at(&self) -> Option<Instant> {
        if self.status != Status::Lobby {
            return None;
        }
        match &self.seats[self.host?].occupant {
            Occupant::Human(h) if h.conns == 0 => h.away_at,
            _ => None,
        }
    }

    /// Who takes the host role from an away host: the earliest-joined connected player.
    fn host_successor(&self) -> Option<usize> {
        self.humans().filter(|(i, h)| Some(*i) != self.host && h.conns > 0).min_by_key(|(_, h)| h.order).map(|(i, _)| i)
    }

    async fn on_timer(&mut self) {
        let now = now_ms();
        if let Some(since) = self.host_away_at()
            && since.elapsed() >= self.config.grace
        {
            // The host is away in the lobby: the role passes to a connected player.
            if let Some(next) = self.host_successor() {
                self.host = Some(next);
                let name = self.seats[next].name.clone();
                self.event("host", json!({"seat": name}));
            }
        }
        if let Some(deadline) = self.deadline
            && now >= deadline
        {
            self.deadline = None;
            let Some(live) = &self.game else { return };
            if let Some(s) = LiveGame::acting(&live.core) {
                let change = compute(|| live.bot_turn("normal", now));
                let name = self.seats[s].name.clone();
                self.event("timeout", json!({"seat": name}));
                match change {
                    Ok(change) => {
                        if let Err(error) = self.apply_change(change).await {
                            tracing::error!(room = %self.code, %error, "the turn timer's move failed");
                        }
                    }
                    Err(error) => tracing::error!(room = %self.code, %error, "the turn timer's move failed"),
                }
            }
        }
    }

    fn humans(&self) -> impl Iterator<Item = (usize, &Human)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| match &s.occupant {
            Occupant::Human(h) => Some((i, h.as_ref())),
            _ => None,
        })
    }

    fn human_mut(&mut self, seat: usize) -> Option<&mut Human> {
        match &mut self.seats[seat].occupant {
            Occupant::Human(h) => Some(h),
            _ => None,
        }
    }

    fn drop_conn(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else { return };
        let Some(seat) = c.seat else { return };
        let now = now_ms();
        let name = self.seats[seat].name.clone();
        if let Some(h) = self.human_mut(seat) {
            h.conns = h.conns.saturating_sub(1);
            if h.conns == 0 {
                h.away_since = Some(now);
                h.away_at = Some(Instant::now());
                self.event("presence", json!({"seat": name, "connected": false}));
            }
        }
    }

    // ---------------------------------------------------------------- joining

    fn join(&mut self, player: String, nickname: String, seat: Option<String>) -> Result<(String, String), ApiError> {
        if self.status != Status::Lobby {
            return Err(conflict(
                "room_started",
                format!("room {}'s game has started: open its link to watch", self.code),
            ));
        }
        if let Some((i, _)) = self.humans().find(|(_, h)| h.player == player) {
            return Err(conflict(
                "already_seated",
                format!("you already hold seat {} in this room: one seat per player", self.seats[i].name),
            ));
        }
        let index = match seat {
            Some(name) => {
                let i = self.seat_index(&name)?;
                if !matches!(self.seats[i].occupant, Occupant::Open) {
                    return Err(conflict("seat_taken", format!("seat {name} is taken")));
                }
                i
            }
            None => self
                .seats
                .iter()
                .position(|s| matches!(s.occupant, Occupant::Open))
                .ok_or_else(|| conflict("room_full", format!("room {} has no open seat", self.code)))?,
        };
        let token = random_token()?;
        self.joins += 1;
        self.seats[index].occupant = Occupant::Human(Box::new(Human {
            player,
            nickname: nickname.clone(),
            token_hash: token_hash(&token),
            ready: false,
            conns: 0,
            away_since: Some(now_ms()),
            away_at: Some(Instant::now()),
            cpu: None,
            rematch: false,
            acked: 0,
            order: self.joins,
            ids: VecDeque::new(),
        }));
        let name = self.seats[index].name.clone();
        self.event("joined", json!({"seat": name, "nickname": nickname}));
        if self.host.is_none() {
            self.host = Some(index);
            self.event("host", json!({"seat": name}));
        }
        Ok((name, token))
    }

    fn seat_index(&self, name: &str) -> Result<usize, ApiError> {
        self.seats.iter().position(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
            ApiError::unprocessable(
                "bad_seat",
                format!("no seat {:?} in this room (seats: {})", madang_core::echo(name), names.join(", ")),
            )
        })
    }

    // ---------------------------------------------------------------- messages

    async fn incoming(&mut self, conn: u64, message: ClientMessage) {
        // Every message's `id`, whatever its type: a string or a number of at most 64 characters.
        if let Err(error) = id_shape(message.id.as_ref()) {
            self.send_error(conn, &error, &message);
            return;
        }
        let result = match &message.command {
            Command::Hello { version } => {
                let version = *version;
                self.hello(conn, message.token.clone(), version).await;
                return;
            }
            Command::Ping {} => {
                self.send(conn, &json!({"type": "pong", "id": valid_id(message.id.as_ref()), "version": self.version}));
                return;
            }
            Command::Ack { version } => self.ack(conn, *version),
            _ => match self.seat_of(conn, message.token.as_deref()) {
                Ok(seat) => match self.check_id(seat, message.id.as_ref()) {
                    Ok(()) => self.command(seat, &message.command).await,
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            },
        };
        if let Err(error) = result {
            self.send_error(conn, &error, &message);
        }
    }

    async fn hello(&mut self, conn: u64, token: Option<String>, version: Option<u64>) {
        let seat = match &token {
            None => None,
            Some(token) => {
                let hash = token_hash(token);
                let found = self.seats.iter().position(|s| match &s.occupant {
                    Occupant::Human(h) => constant_time_eq(&h.token_hash, &hash),
                    _ => false,
                });
                match found {
                    Some(seat) => Some(seat),
                    None => {
                        let error = refuse(
                            StatusCode::UNAUTHORIZED,
                            "bad_token",
                            "no seat of this room has this token (left, or another room's): join again or watch without a token",
                        );
                        let message = ClientMessage { command: Command::Hello { version }, token: None, id: None };
                        self.send_error(conn, &error, &message);
                        return;
                    }
                }
            }
        };
        let Some(c) = self.conns.get_mut(&conn) else { return };
        if c.hello {
            // A second hello re-binds the connection: undo the first's presence.
            let previous = c.seat.take();
            c.hello = false;
            if let Some(previous) = previous {
                let name = self.seats[previous].name.clone();
                if let Some(h) = self.human_mut(previous) {
                    h.conns = h.conns.saturating_sub(1);
                    if h.conns == 0 {
                        h.away_since = Some(now_ms());
                        h.away_at = Some(Instant::now());
                        self.event("presence", json!({"seat": name, "connected": false}));
                    }
                }
            }
        }
        let resume = version;
        if let Some(seat) = seat {
            let name = self.seats[seat].name.clone();
            let mut returned = None;
            if let Some(h) = self.human_mut(seat) {
                h.conns += 1;
                if h.conns == 1 {
                    h.away_since = None;
                    h.away_at = None;
                    returned = h.cpu.take();
                    self.event("presence", json!({"seat": name, "connected": true}));
                }
            }
            if returned.is_some() {
                if let Some(live) = &mut self.game {
                    live.seats[seat].kind = SeatKind::Human;
                    live.seats[seat].level = None;
                }
                self.event("returned", json!({"seat": name}));
                self.rearm();
            }
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = seat;
            c.token = token;
        }
        // Everyone else hears of the presence change first; then this connection catches up.
        self.save_logged().await;
        self.flush();
        let you = seat.map(|s| self.seats[s].name.clone());
        let host = seat.is_some() && seat == self.host;
        self.send(
            conn,
            &json!({"type": "welcome", "seat": you, "host": host, "spectator": seat.is_none(),
                    "version": self.version, "limits": self.config.limits()}),
        );
        let catch_up = match resume {
            Some(from) if from <= self.version && self.log.front().is_some_and(|(v, _)| *v <= from + 1) => {
                let events: Vec<&str> = self.log.iter().filter(|(v, _)| *v > from).map(|(_, e)| e.as_str()).collect();
                self.events_message(from, &events)
            }
            Some(from) if from == self.version => self.events_message(from, &[]),
            _ => json!({"type": "snapshot", "room": self.snapshot()}).to_string(),
        };
        if let Some(c) = self.conns.get_mut(&conn) {
            c.hello = true;
            let _ = c.out.try_send(Out::Text(Utf8Bytes::from(catch_up)));
        }
    }

    fn ack(&mut self, conn: u64, version: u64) -> Result<(), ApiError> {
        let current = self.version;
        let Some(c) = self.conns.get(&conn) else { return Ok(()) };
        if !c.hello {
            return Err(ApiError::bad_request("hello_first", "send {\"type\": \"hello\"} first"));
        }
        if version > current {
            return Err(conflict("stale_version", format!("the room is at version {current}, not {version}")));
        }
        if let Some(seat) = c.seat
            && let Some(h) = self.human_mut(seat)
        {
            h.acked = h.acked.max(version);
        }
        Ok(())
    }

    /// The seat a command acts for: the connection's, and the message's token must be its.
    fn seat_of(&self, conn: u64, token: Option<&str>) -> Result<usize, ApiError> {
        let c =
            self.conns.get(&conn).filter(|c| c.hello).ok_or_else(|| {
                ApiError::bad_request("hello_first", "send {\"type\": \"hello\", \"token\": …} first")
            })?;
        let Some(seat) = c.seat else {
            return Err(ApiError::forbidden(
                "spectator",
                "this connection watches without a seat: spectators cannot act (join the room for a seat)",
            ));
        };
        let Some(token) = token else {
            return Err(refuse(StatusCode::UNAUTHORIZED, "no_token", "every command carries its seat's \"token\""));
        };
        // The connection's token was checked against the seat's hash at `hello` (and a seat
        // that is left unbinds its connections): comparing with it is enough.
        let bound = c.token.as_deref().unwrap_or_default();
        match &self.seats[seat].occupant {
            Occupant::Human(_) if constant_time_eq(bound.as_bytes(), token.as_bytes()) => Ok(seat),
            Occupant::Human(_) => Err(ApiError::forbidden(
                "bad_token",
                format!("this token is not seat {}'s (the seat this connection said hello for)", self.seats[seat].name),
            )),
            _ => Err(ApiError::forbidden("bad_token", "this connection's seat has been left")),
        }
    }

    fn check_id(&mut self, seat: usize, id: Option<&Value>) -> Result<(), ApiError> {
        // Its shape (at most 64 characters) was checked with every message (`id_shape`).
        let Some(id) = id else { return Ok(()) };
        let key = id.to_string();
        let version = self.version;
        let Some(h) = self.human_mut(seat) else { return Ok(()) };
        if h.ids.contains(&key) {
            return Err(conflict(
                "duplicate",
                format!("message id {key} was already received from this seat (room version {version})"),
            ));
        }
        h.ids.push_back(key);
        if h.ids.len() > 64 {
            h.ids.pop_front();
        }
        Ok(())
    }

    fn require_host(&self, seat: usize) -> Result<(), ApiError> {
        if self.host == Some(seat) { Ok(()) } else { Err(ApiError::forbidden("not_host", "only the host may do this")) }
    }

    fn require(&self, status: Status, what: &str) -> Result<(), ApiError> {
        if self.status == status {
            Ok(())
        } else {
            Err(conflict(
                "wrong_phase",
                format!("{what} is possible while the room is {}, and it is {}", status.as_str(), self.status.as_str()),
            ))
        }
    }

    fn player_of(&self, seat: usize) -> String {
        match &self.seats[seat].occupant {
            Occupant::Human(h) => h.player.clone(),
            _ => String::new(),
        }
    }

    async fn command(&mut self, seat: usize, command: &Command) -> Result<(), ApiError> {
        let name = self.seats[seat].name.clone();
        match command {
            Command::Hello { .. } | Command::Ping {} | Command::Ack { .. } => Ok(()),
            Command::Seat { seat: to } => {
                self.require(Status::Lobby, "changing seats")?;
                let target = self.seat_index(to)?;
                if target == seat {
                    return Err(conflict("duplicate", format!("you are already in seat {to}")));
                }
                if !matches!(self.seats[target].occupant, Occupant::Open) {
                    return Err(conflict("seat_taken", format!("seat {to} is taken")));
                }
                let occupant = std::mem::replace(&mut self.seats[seat].occupant, Occupant::Open);
                self.seats[target].occupant = occupant;
                if self.host == Some(seat) {
                    self.host = Some(target);
                }
                for c in self.conns.values_mut() {
                    if c.seat == Some(seat) {
                        c.seat = Some(target);
                    }
                }
                self.event("seat", json!({"from": name, "to": to}));
                Ok(())
            }
            Command::Ready { ready } => {
                self.require(Status::Lobby, "getting ready")?;
                let ready = *ready;
                let h = self.human_mut(seat).ok_or_else(|| ApiError::internal("a token without a person"))?;
                if h.ready == ready {
                    return Err(conflict(
                        "duplicate",
                        format!("you are already {}", if ready { "ready" } else { "not ready" }),
                    ));
                }
                h.ready = ready;
                self.event("ready", json!({"seat": name, "ready": ready}));
                Ok(())
            }
            Command::Cpu { seat: target, level } => {
                self.require_host(seat)?;
                self.require(Status::Lobby, "giving a seat to the computer")?;
                let target_index = self.seat_index(target)?;
                match (level, &self.seats[target_index].occupant) {
                    (Some(level), Occupant::Open) => {
                        self.check_level(level)?;
                        self.seats[target_index].occupant = Occupant::Cpu(level.clone());
                        self.event("cpu", json!({"seat": target, "level": level}));
                        Ok(())
                    }
                    (Some(_), _) => Err(conflict("seat_taken", format!("seat {target} is not open"))),
                    (None, Occupant::Cpu(_)) => {
                        self.seats[target_index].occupant = Occupant::Open;
                        self.event("cpu", json!({"seat": target, "level": null}));
                        Ok(())
                    }
                    (None, _) => Err(conflict("not_cpu", format!("seat {target} is not a computer seat"))),
                }
            }
            Command::Start { fill_cpu } => {
                self.require_host(seat)?;
                self.require(Status::Lobby, "starting")?;
                if let Some(level) = fill_cpu {
                    self.check_level(level)?;
                }
                let open: Vec<&str> = self
                    .seats
                    .iter()
                    .filter(|s| matches!(s.occupant, Occupant::Open))
                    .map(|s| s.name.as_str())
                    .collect();
                if !open.is_empty() && fill_cpu.is_none() {
                    return Err(conflict(
                        "seats_open",
                        format!(
                            "seats {} are open: wait for players, or give them to the computer (\"fill_cpu\")",
                            open.join(", ")
                        ),
                    ));
                }
                let not_ready: Vec<String> = self
                    .humans()
                    .filter(|(i, h)| *i != seat && !h.ready)
                    .map(|(i, _)| self.seats[i].name.clone())
                    .collect();
                if !not_ready.is_empty() {
                    return Err(conflict("not_ready", format!("not ready yet: {}", not_ready.join(", "))));
                }
                if let Some(level) = fill_cpu {
                    for i in 0..self.seats.len() {
                        if matches!(self.seats[i].occupant, Occupant::Open) {
                            self.seats[i].occupant = Occupant::Cpu(level.clone());
                            let target = self.seats[i].name.clone();
                            self.event("cpu", json!({"seat": target, "level": level}));
                        }
                    }
                }
                self.start_game().await
            }
            Command::Leave {} => self.leave(seat),
            Command::Move { action, version, seat: named } => {
                self.require(Status::Playing, "moving")?;
                if let Some(named) = named
                    && *named != name
                {
                    return Err(ApiError::forbidden(
                        "not_your_seat",
                        format!("your token is seat {name}'s, not {named}'s"),
                    ));
                }
                let player = self.player_of(seat);
                let live = self.game.as_ref().ok_or_else(|| ApiError::internal("no game while playing"))?;
                let request = ActionRequest { action: action.clone(), version: *version, seat: Some(name) };
                let now = now_ms();
                // Only computer seats think: without them a move is microseconds, played here
                // rather than handing the worker thread over (`block_in_place`).
                let change = if live.seats.iter().any(|s| s.kind == SeatKind::Cpu) {
                    compute(|| live.play(&player, &request, now))?
                } else {
                    live.play(&player, &request, now)?
                };
                self.draw_offer = None;
                self.apply_change(change).await
            }
            Command::Resign {} => {
                self.require(Status::Playing, "resigning")?;
                let player = self.player_of(seat);
                let live = self.game.as_ref().ok_or_else(|| ApiError::internal("no game while playing"))?;
                let change = live.end_by_person(&player, EndReason::Resign, Some(&name), now_ms())?;
                self.apply_change(change).await
            }
            Command::DrawOffer {} | Command::DrawAccept {} | Command::DrawDecline {} => self.draw(seat, command).await,
            Command::Rematch {} => {
                self.require(Status::Finished, "a rematch")?;
                let h = self.human_mut(seat).ok_or_else(|| ApiError::internal("a token without a person"))?;
                if h.rematch {
                    return Err(conflict("duplicate", "you have already asked for a rematch"));
                }
                h.rematch = true;
                self.event("rematch", json!({"seat": name}));
                if self.humans().all(|(_, h)| h.rematch) {
                    self.start_game().await?;
                }
                Ok(())
            }
            Command::Chat { text } => {
                let text = text.trim();
                let chars = text.chars().count();
                if chars == 0 || chars > self.config.chat_chars {
                    return Err(ApiError::unprocessable(
                        "bad_chat",
                        format!("a chat line has 1 to {} characters, got {chars}", self.config.chat_chars),
                    ));
                }
                if text.chars().any(char::is_control) {
                    return Err(ApiError::unprocessable("bad_chat", "a chat line may not hold control characters"));
                }
                if let Some(c) = invisible_format(text) {
                    return Err(ApiError::unprocessable(
                        "bad_chat",
                        format!(
                            "a chat line may not hold direction overrides or invisible characters (U+{:04X})",
                            u32::from(c)
                        ),
                    ));
                }
                let nickname = match &self.seats[seat].occupant {
                    Occupant::Human(h) => h.nickname.clone(),
                    _ => String::new(),
                };
                self.event("chat", json!({"seat": name, "nickname": nickname, "text": text}));
                Ok(())
            }
            Command::HandToCpu { seat: target, level } => {
                self.require_host(seat)?;
                self.require(Status::Playing, "handing a seat to the computer")?;
                let level = level.clone().unwrap_or_else(|| "normal".to_owned());
                self.check_level(&level)?;
                let index = self.seat_index(target)?;
                let grace = self.grace_ms();
                let now = now_ms();
                let Occupant::Human(h) = &mut self.seats[index].occupant else {
                    return Err(conflict("not_away", format!("seat {target} is not a person's")));
                };
                if h.cpu.is_some() {
                    return Err(conflict("duplicate", format!("the computer already plays seat {target}")));
                }
                let away = match (h.conns, h.away_since) {
                    (0, Some(since)) => now - since,
                    _ => return Err(conflict("not_away", format!("seat {target}'s player is connected"))),
                };
                if away < grace {
                    return Err(conflict(
                        "grace_period",
                        format!(
                            "seat {target} has been away {} s; the host may hand it to the computer after {} s",
                            away / 1000,
                            grace / 1000
                        ),
                    ));
                }
                h.cpu = Some(level.clone());
                if let Some(live) = &mut self.game {
                    live.seats[index].kind = SeatKind::Cpu;
                    live.seats[index].level = Some(level.clone());
                }
                if self.draw_offer.is_some() {
                    self.draw_offer = None;
                }
                self.event("cpu_playing", json!({"seat": target, "level": level}));
                let live = self.game.as_ref().ok_or_else(|| ApiError::internal("no game while playing"))?;
                let change = compute(|| live.auto_play(now))?;
                if change.entries.is_empty() {
                    self.rearm();
                    Ok(())
                } else {
                    self.apply_change(change).await
                }
            }
        }
    }

    fn check_level(&self, level: &str) -> Result<(), ApiError> {
        self.template.check_bot(level).map_err(|e| ApiError::unprocessable("bad_level", e.to_string()))
    }

    fn leave(&mut self, seat: usize) -> Result<(), ApiError> {
        if self.status == Status::Playing {
            return Err(conflict(
                "wrong_phase",
                "you cannot leave a game in progress: resign, or close the page (your seat is kept)",
            ));
        }
        let name = self.seats[seat].name.clone();
        self.seats[seat].occupant = Occupant::Open;
        for c in self.conns.values_mut() {
            if c.seat == Some(seat) {
                c.seat = None;
                c.token = None;
            }
        }
        self.event("left", json!({"seat": name}));
        if self.status == Status::Finished {
            self.status = Status::Lobby;
            self.deadline = None;
            for s in &mut self.seats {
                if let Occupant::Human(h) = &mut s.occupant {
                    h.ready = false;
                    h.rematch = false;
                }
            }
            self.event("lobby", json!({}));
        }
        if self.host == Some(seat) {
            self.host = self.humans().min_by_key(|(_, h)| h.order).map(|(i, _)| i);
            match self.host {
                Some(host) => {
                    let host = self.seats[host].name.clone();
                    self.event("host", json!({"seat": host}));
                }
                None => {
                    self.event("closed", json!({"reason": "everyone left"}));
                    self.closed = true;
                }
            }
        }
        Ok(())
    }

    async fn draw(&mut self, seat: usize, command: &Command) -> Result<(), ApiError> {
        self.require(Status::Playing, "a draw")?;
        if !crate::catalogue::offers(&self.game_name, madang_games::Ending::DrawOffer) {
            return Err(conflict("not_allowed", format!("{} has no draw by agreement", self.game_name)));
        }
        let name = self.seats[seat].name.clone();
        let side = self.template.side_of_seat(seat);
        let offer = self.draw_offer;
        let from_other = offer.is_some_and(|o| self.template.side_of_seat(o) != side);
        match command {
            Command::DrawOffer {} if offer == Some(seat) => {
                Err(conflict("duplicate", "your draw offer is already open"))
            }
            Command::DrawOffer {} if !from_other => {
                self.draw_offer = Some(seat);
                self.event("draw_offer", json!({"seat": name}));
                Ok(())
            }
            Command::DrawOffer {} | Command::DrawAccept {} if from_other => {
                let by = offer.unwrap_or(seat);
                let player = self.player_of(by);
                let by_name = self.seats[by].name.clone();
                let live = self.game.as_ref().ok_or_else(|| ApiError::internal("no game while playing"))?;
                let change = live.end_by_person(&player, EndReason::DrawAgreed, Some(&by_name), now_ms())?;
                self.draw_offer = None;
                self.apply_change(change).await
            }
            Command::DrawDecline {} if from_other => {
                self.draw_offer = None;
                self.event("draw_declined", json!({"seat": name}));
                Ok(())
            }
            _ => Err(conflict("no_offer", "there is no draw offer from the other side to answer")),
        }
    }

    // ---------------------------------------------------------------- the game

    async fn start_game(&mut self) -> Result<(), ApiError> {
        let host = self.host.map(|h| self.player_of(h)).unwrap_or_default();
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| ApiError::internal(format!("operating system randomness failed: {e}")))?;
        let seats: Vec<Option<String>> = self
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Cpu(level) => Some(level.clone()),
                _ => None,
            })
            .collect();
        let new = NewGame {
            id: random_hex(8)?,
            owner: host,
            game: self.game_name.clone(),
            rules: self.rules.clone(),
            players: self.players,
            seats: Some(seats),
            seed: Seed(bytes),
            now: now_ms(),
        };
        // Only computer seats think (a CPU may move first); without them creating is
        // microseconds, done here rather than handing the worker thread over.
        let mut live = if new.seats.iter().flatten().any(Option::is_some) {
            compute(move || LiveGame::create(new))?
        } else {
            LiveGame::create(new)?
        };
        live.mode = "room".to_owned();
        for (i, s) in self.seats.iter().enumerate() {
            if let Occupant::Human(h) = &s.occupant {
                live.seats[i].player = Some(h.player.clone());
            }
        }
        let row = live.row();
        let actions = LiveGame::action_rows(&live.log);
        let outcomes = live.outcomes(&live.core);
        self.app.db.create_game(&row, &live.participants(), &actions, &outcomes).await?;
        let index = self.games.len() as i64;
        if let Err(error) = super::store::insert_room_game(&self.app.db, &self.code, index, &live.id).await {
            tracing::warn!(room = %self.code, %error, "recording the room's game failed");
        }
        tracing::info!(room = %self.code, game = %live.id, "room game started");
        self.event("started", json!({"game_id": live.id, "index": index}));
        for s in &mut self.seats {
            if let Occupant::Human(h) = &mut s.occupant {
                h.ready = false;
                h.rematch = false;
                h.cpu = None;
            }
        }
        let entries = live.log.clone();
        self.games.push(live.id.clone());
        let ended = live.core.ended();
        self.game = Some(live);
        self.status = if ended { Status::Finished } else { Status::Playing };
        self.draw_offer = None;
        for entry in &entries {
            self.game_event(entry);
        }
        self.rearm();
        Ok(())
    }

    /// Appends a game's log entry as a room event: `{version, type: "action" | "end", …the
    /// entry's fields…, game_version, at}` (`docs/api.md`, "Room events"), written directly.
    fn game_event(&mut self, entry: &crate::game::LogEntry) {
        self.version += 1;
        let (kind, body) = match &entry.kind {
            EntryKind::Action { index, action, seat, by, events } => {
                ("action", GameEventBody::Action { index: *index, action, seat: seat.as_deref(), by, events })
            }
            EntryKind::End { end } => ("end", GameEventBody::End { end }),
        };
        let event = GameEventRef { version: self.version, kind, body, game_version: entry.version, at: now_ms() };
        self.pending.push(serde_json::to_string(&event).unwrap_or_else(|_| "null".to_owned()));
    }

    /// Stores a change of the game (through the group-commit writer), then takes it and
    /// appends its events.
    async fn apply_change(&mut self, change: Change) -> Result<(), ApiError> {
        let live = self.game.as_mut().ok_or_else(|| ApiError::internal("no game"))?;
        let commit = Commit {
            id: live.id.clone(),
            from: live.version() as i64,
            update: live.update(&change.core),
            actions: LiveGame::action_rows(&change.entries),
            outcomes: live.outcomes(&change.core),
        };
        self.app.rooms.writer.store(commit).await.map_err(|e| ApiError::storage(&e))?;
        let entries = change.entries.clone();
        live.commit(change);
        let id = live.id.clone();
        let ended = live.core.ended();
        for entry in &entries {
            self.game_event(entry);
        }
        // A cached copy for `GET /api/games/{id}` reloads with the new actions.
        self.app.evict(&id);
        if ended {
            self.status = Status::Finished;
            self.draw_offer = None;
        }
        self.rearm();
        Ok(())
    }

    /// Sets the turn timer's deadline for the seat to move (a person's, timer on).
    fn rearm(&mut self) {
        self.deadline = None;
        let (Some(seconds), Some(live), Status::Playing) = (self.turn_seconds, &self.game, self.status) else {
            return;
        };
        if live.awaited_seat().is_some() {
            self.deadline = Some(now_ms() + i64::try_from(seconds * 1000).unwrap_or(i64::MAX));
        }
    }
}

/// A game's log entry as a room event ([`Room::game_event`]).
#[derive(Serialize)]
struct GameEventRef<'a> {
    version: u64,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    body: GameEventBody<'a>,
    game_version: u64,
    at: i64,
}

#[derive(Serialize)]
#[serde(untagged)]
enum GameEventBody<'a> {
    Action {
        index: usize,
        action: &'a str,
        seat: Option<&'a str>,
        by: &'a crate::game::Actor,
        events: &'a [madang_games::Event],
    },
    End {
        end: &'a madang_games::End,
    },
}

/// The room snapshot's fields in their documented order (`docs/api.md`, "Room snapshot").
#[derive(Serialize)]
struct SnapshotRef<'a> {
    code: &'a str,
    game: &'a str,
    rules: &'a Value,
    players: Option<usize>,
    public: bool,
    status: &'static str,
    version: u64,
    host: Option<&'a str>,
    turn_seconds: Option<u64>,
    grace_seconds: u64,
    deadline: Option<i64>,
    draw_offer: Option<&'a str>,
    seats: &'a [SeatState],
    games: &'a [String],
    state: Option<StateRef<'a>>,
    created: i64,
}

/// A seat in the snapshot: `name`, `side`, `kind`, then the level of a computer seat or the
/// person's nickname, ready, connected, away_since, cpu_playing and rematch.
impl Serialize for SeatState {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("side", &self.side)?;
        match &self.occupant {
            Occupant::Open => map.serialize_entry("kind", "open")?,
            Occupant::Cpu(level) => {
                map.serialize_entry("kind", "cpu")?;
                map.serialize_entry("level", level)?;
            }
            Occupant::Human(h) => {
                map.serialize_entry("kind", "human")?;
                map.serialize_entry("nickname", &h.nickname)?;
                map.serialize_entry("ready", &h.ready)?;
                map.serialize_entry("connected", &(h.conns > 0))?;
                map.serialize_entry("away_since", &h.away_since)?;
                map.serialize_entry("cpu_playing", &h.cpu)?;
                map.serialize_entry("rematch", &h.rematch)?;
            }
        }
        map.end()
    }
}

/// Compares two tokens without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
