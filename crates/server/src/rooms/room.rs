//! One room's actor: the tokio task that owns a room and applies its messages in the order
//! they arrive. The room's rules are the pure [`RoomState`] (`state.rs`): this task only does
//! what they cannot — connections and their seats, the event log and catch-up, the timer, and
//! storage. A command is decided by [`RoomState::handle`], what must be stored is stored (a new
//! game, a game's change, the room's state document), then the events are applied, appended
//! with the room's next versions, and after each message sent to every connection in one
//! `events` message (serialised once).

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use madang_seed::Seed;
use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::RoomConfig;
use super::changes::Parts;
use super::protocol::{ClientMessage, Command};
use super::state::{Announce, Context, Fresh, RoomEvent, RoomState, Settings, Status, constant_time_eq};
pub use super::state::{Saved, SavedSeat, token_hash};
use crate::app::{AppState, compute, now_ms, random_hex};
use crate::error::ApiError;
use crate::game::{EntryKind, LiveGame};

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
    /// Another node of the cluster took the room over: stop without writing, close every
    /// connection (1012) so that its client reconnects to the new owner.
    Moved,
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
    /// The current game's version plus one; 0 while there is no game (the lobby).
    pub game_version: AtomicU64,
    /// The entry of `GET /api/rooms` while the room is public, in the lobby and has an open seat.
    pub listing: std::sync::Mutex<Option<Value>>,
    /// How often the room's timer has woken its task (each wake-up has something to do).
    pub wakes: AtomicU64,
    /// WebSockets open on the room.
    pub connections: AtomicUsize,
}

struct Conn {
    out: mpsc::Sender<Out>,
    hello: bool,
    seat: Option<usize>,
    token: Option<String>,
    /// Said `hello` with `changes`: its broadcasts carry what changed (`changes`), not `room`.
    changes: bool,
}

/// What a room is created with.
pub struct Setup {
    /// Its settings ([`Room::settings`] with what the creation request chose).
    pub settings: Settings,
    /// Seats given to the computer at creation.
    pub cpu: HashMap<String, String>,
    /// The host.
    pub host: String,
    /// The host's nickname.
    pub nickname: String,
    /// The host's seat.
    pub seat: usize,
}

/// A room: its state, and what only the task knows (connections, the event log).
pub struct Room {
    app: AppState,
    config: RoomConfig,
    shared: Arc<Shared>,
    state: RoomState,
    /// The room's version: the number of the last event.
    version: u64,
    log: VecDeque<(u64, String)>,
    pending: Vec<String>,
    conns: HashMap<u64, Conn>,
    /// Connections open per seat (a seat's first and last are its presence).
    seat_conns: Vec<usize>,
    /// The state document last written (`rooms.state`): written again when it changes.
    saved: String,
    /// The snapshot of the last broadcast, in parts, while a connection asks for changes: the
    /// next broadcast's `changes` are worked out from it (`None`: none kept, the next broadcast
    /// carries the whole snapshot to everyone).
    sent: Option<Parts>,
    /// On a cluster, the public listing last stored (`rooms.listing`): stored again when it
    /// changes. `None` until the first store (a rebuilt room's stored listing may be stale).
    published: Option<Option<Value>>,
    /// On a cluster, the lease the room was created or rebuilt under: its writes prove it.
    fence: Option<crate::cluster::Fence>,
}

/// An `events` message from version `from` to `to` carrying `events` (their JSON texts) and,
/// under `key`, `body`: the whole snapshot (`room`) or what changed in it (`changes`).
fn events_message(from: u64, to: u64, events: &[&str], key: &str, body: &str) -> String {
    let mut text = String::with_capacity(body.len() + events.iter().map(|e| e.len() + 1).sum::<usize>() + 64);
    let _ = write!(text, "{{\"type\":\"events\",\"from\":{from},\"to\":{to},\"events\":[");
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(e);
    }
    let _ = write!(text, "],\"{key}\":{body}}}");
    text
}

/// What a `hello` asks to catch up from: the version its client applied, and whether a client
/// without one wants the events still kept (`history`) rather than a bare snapshot.
#[derive(Clone, Copy)]
struct CatchUp {
    version: Option<u64>,
    history: bool,
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

/// Sleeps until `wake`, or for ever when there is none.
async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(wake) => tokio::time::sleep_until(wake).await,
        None => std::future::pending().await,
    }
}

/// A game's log entry as a room event: `{version, type: "action" | "end", …the entry's
/// fields…, game_version, at}` (`docs/api.md`, "Room events"), written directly.
fn game_event(version: u64, entry: &crate::game::LogEntry) -> String {
    let (kind, body) = match &entry.kind {
        EntryKind::Action { index, action, seat, by, events } => {
            ("action", GameEventBody::Action { index: *index, action, seat: seat.as_deref(), by, events })
        }
        EntryKind::End { end } => ("end", GameEventBody::End { end }),
    };
    let event = GameEventRef { version, kind, body, game_version: entry.version, at: now_ms() };
    serde_json::to_string(&event).unwrap_or_else(|_| "null".to_owned())
}

impl Room {
    fn with_state(app: AppState, config: RoomConfig, state: RoomState, version: u64, saved: String) -> Room {
        let seats = state.seats.len();
        let fence = app.cluster.as_ref().and_then(|c| c.fence(&crate::cluster::room_key(&state.settings.code)));
        let room = Room {
            app,
            config,
            shared: Arc::new(Shared::default()),
            state,
            version,
            log: VecDeque::new(),
            pending: Vec::new(),
            conns: HashMap::new(),
            seat_conns: vec![0; seats],
            saved,
            sent: None,
            published: None,
            fence,
        };
        // A room rebuilt after a restart starts at its stored versions.
        room.publish_versions();
        room
    }

    /// A room's settings from the server's room configuration: private, no turn timer, created
    /// at 0 (the caller sets what differs).
    pub fn settings(config: &RoomConfig, code: String, game: String, rules: Value, players: Option<usize>) -> Settings {
        Settings {
            code,
            game,
            rules,
            players,
            public: false,
            turn_seconds: None,
            created: 0,
            grace_ms: i64::try_from(config.grace.as_millis()).unwrap_or(i64::MAX),
            chat_chars: config.chat_chars,
        }
    }

    /// A new room with its host seated; returns the host's seat token.
    ///
    /// # Errors
    /// Bad rules, seats or levels (checked by the caller already; repeated here).
    pub fn new(app: AppState, config: RoomConfig, setup: Setup) -> Result<(Room, String), ApiError> {
        let token = super::random_token()?;
        let host = (setup.seat, setup.host, setup.nickname, token_hash(&token));
        let (state, events) = RoomState::new(setup.settings, &setup.cpu, host)?;
        let mut room = Room::with_state(app, config, state, 0, String::new());
        room.take(events, now_ms());
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
        row: crate::db::rooms::RoomRow,
    ) -> Result<Room, ApiError> {
        let corrupt = |what: String| ApiError::internal(format!("stored room {code} cannot be rebuilt: {what}"));
        let rules: Value = serde_json::from_str(&row.rules).map_err(|e| corrupt(format!("rules: {e}")))?;
        let players = row.players.map(|p| usize::try_from(p).unwrap_or(0));
        let saved: Saved = serde_json::from_str(&row.state).map_err(|e| corrupt(format!("state: {e}")))?;
        let mut game = None;
        if saved.status != Status::Lobby.as_str()
            && let Some(id) = saved.games.last()
        {
            let (game_row, actions) =
                app.db.load_game(id).await?.ok_or_else(|| corrupt(format!("its game {id} is not stored")))?;
            game = Some(compute(|| LiveGame::load(&game_row, &actions))?);
        }
        let settings = Settings {
            public: row.public.0,
            turn_seconds: row.turn_seconds.and_then(|t| u64::try_from(t).ok()),
            created: row.created,
            ..Room::settings(&config, code.clone(), row.game, rules, players)
        };
        let state = RoomState::restore(settings, saved, game, now_ms()).map_err(corrupt)?;
        let version = u64::try_from(row.generation).unwrap_or(0) << 32;
        let mut room = Room::with_state(app, config, state, version, row.state);
        // The chat lines kept are its first events, so a page opened now shows them (a `hello`
        // asking for the history).
        let chat: Vec<_> = room.state.chat.iter().map(|line| (line.event(), line.at)).collect();
        for (body, at) in chat {
            room.room_event_at(body, at);
        }
        room.commit_events();
        Ok(room)
    }

    /// Writes the room's state document when it changed since the last write (call before
    /// the change is announced: nothing a client heard is lost on a restart).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save(&mut self) -> Result<(), ApiError> {
        // The state only changes with seats, lobby and game starts: a move (the common
        // message) leaves it alone unless it withdrew a draw offer or ended the game.
        if !self.state.take_dirty() {
            return Ok(());
        }
        let text = serde_json::to_string(&self.state.saved()).map_err(|e| ApiError::internal(e.to_string()))?;
        if text == self.saved {
            return Ok(());
        }
        let code = &self.state.settings.code;
        let key = crate::cluster::room_key(code);
        let fence = self.app.fence(&key, self.fence.as_ref())?;
        if let Err(error) =
            crate::db::rooms::save_room(&self.app.db, code, &text, self.state.status.as_str(), now_ms(), fence.as_ref())
                .await
        {
            self.state.mark_dirty();
            if self.app.fenced(&key, &error) {
                return Err(ApiError::moved(&key));
            }
            return Err(ApiError::storage(&error));
        }
        self.saved = text;
        Ok(())
    }

    /// On a cluster, stores and announces the room's public listing when it changed (every
    /// node lists the public lobbies, `cluster.rs`).
    async fn publish(&mut self) {
        let Some(cluster) = self.app.cluster.clone() else { return };
        let listing = self.state.listing();
        if self.published.as_ref() == Some(&listing) {
            return;
        }
        let key = crate::cluster::room_key(&self.state.settings.code);
        let Ok(Some(fence)) = self.app.fence(&key, self.fence.as_ref()) else { return };
        match cluster.publish_listing(&self.state.settings.code, listing.as_ref(), &fence).await {
            Ok(()) => self.published = Some(listing),
            Err(error) => {
                if !self.app.fenced(&key, &error) {
                    tracing::error!(room = %self.state.settings.code, %error, "storing the room's listing failed");
                }
            }
        }
    }

    async fn save_logged(&mut self) {
        if let Err(error) = self.save().await {
            tracing::error!(room = %self.state.settings.code, %error, "storing the room's state failed");
        }
    }

    /// What the registry keeps of the room.
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// The room's full snapshot (`docs/api.md`, "Room snapshot").
    pub fn snapshot(&self) -> Value {
        serde_json::to_value(self.state.snapshot(self.version, &self.state.nicknames())).unwrap_or(Value::Null)
    }

    /// The snapshot as JSON text (the same document as [`Room::snapshot`], written directly:
    /// it goes out with every `events` message).
    fn snapshot_text(&self) -> String {
        serde_json::to_string(&self.state.snapshot(self.version, &self.state.nicknames()))
            .unwrap_or_else(|_| "null".to_owned())
    }

    // ---------------------------------------------------------------- events and broadcast

    /// Applies `events` (stored already where they must be) and appends what the clients hear,
    /// not yet sent. Connections follow their seat (a seat moved, a seat left).
    fn take(&mut self, events: Vec<RoomEvent>, now: i64) {
        let mut game_changed = false;
        for event in events {
            match &event {
                RoomEvent::Seat { from, to } => {
                    for c in self.conns.values_mut() {
                        if c.seat == Some(*from) {
                            c.seat = Some(*to);
                        }
                    }
                    self.seat_conns[*to] = std::mem::take(&mut self.seat_conns[*from]);
                }
                RoomEvent::Left { seat } => {
                    for c in self.conns.values_mut() {
                        if c.seat == Some(*seat) {
                            c.seat = None;
                            c.token = None;
                        }
                    }
                    self.seat_conns[*seat] = 0;
                }
                RoomEvent::Game { .. } => game_changed = true,
                _ => {}
            }
            for announce in self.state.apply(event, now) {
                match announce {
                    Announce::Room(body) => self.room_event(body),
                    Announce::Entries(from) => {
                        let Some(live) = &self.state.game else { continue };
                        for entry in live.log.get(from..).unwrap_or_default() {
                            self.version += 1;
                            self.pending.push(game_event(self.version, entry));
                        }
                    }
                }
            }
        }
        if game_changed && let Some(live) = &self.state.game {
            // A cached copy for `GET /api/games/{id}` reloads with the new actions.
            self.app.evict(&live.id);
        }
    }

    /// Appends a room event: `{version, type, …its fields…, at}`.
    fn room_event(&mut self, body: Value) {
        self.room_event_at(body, now_ms());
    }

    /// Appends a room event that happened at `at` (ms since the epoch).
    fn room_event_at(&mut self, body: Value, at: i64) {
        self.version += 1;
        let mut event = Map::new();
        event.insert("version".into(), json!(self.version));
        if let Value::Object(mut fields) = body {
            event.append(&mut fields);
        }
        event.insert("at".into(), json!(at));
        self.pending.push(Value::Object(event).to_string());
    }

    /// Stores what `events` need stored (a new game, a game's change), then takes them. When
    /// storing fails nothing is taken.
    async fn store_and_take(&mut self, events: Vec<RoomEvent>) -> Result<(), ApiError> {
        for event in &events {
            match event {
                RoomEvent::Started { game } => {
                    self.app.writer.create(game.new_rows()).await.map_err(|e| ApiError::storage(&e))?;
                    let code = &self.state.settings.code;
                    let index = self.state.games.len() as i64;
                    if let Err(error) = crate::db::rooms::insert_room_game(&self.app.db, code, index, &game.id).await {
                        tracing::warn!(room = %code, %error, "recording the room's game failed");
                    }
                    tracing::info!(room = %code, game = %game.id, "room game started");
                }
                RoomEvent::Game { change } => {
                    let live = self.state.game.as_ref().ok_or_else(|| ApiError::internal("no game"))?;
                    let key = crate::cluster::room_key(&self.state.settings.code);
                    let fence = self.app.fence(&key, self.fence.as_ref())?;
                    let commit = live.commit_of(change, fence);
                    if let Err(error) = self.app.writer.store(commit).await {
                        if self.app.fenced(&key, &error) {
                            return Err(ApiError::moved(&key));
                        }
                        return Err(ApiError::storage(&error));
                    }
                }
                _ => {}
            }
        }
        self.take(events, now_ms());
        Ok(())
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
        self.publish_versions();
        if let Ok(mut listing) = self.shared.listing.lock() {
            *listing = self.state.listing();
        }
        events
    }

    /// Lets the connections' tasks read the room's and the game's versions (they answer the
    /// messages they refuse themselves with both).
    fn publish_versions(&self) {
        self.shared.version.store(self.version, Ordering::Relaxed);
        let game = self.state.game.as_ref().map_or(0, |g| g.version() + 1);
        self.shared.game_version.store(game, Ordering::Relaxed);
    }

    /// An `events` message from version `from` to the current one with the whole snapshot.
    fn events_message(&self, from: u64, events: &[&str]) -> String {
        events_message(from, self.version, events, "room", &self.snapshot_text())
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
            // One message for the connections that asked for changes (when the last broadcast's
            // snapshot was kept to compare with) and one for the others, each serialised once.
            let listening = || self.conns.values().filter(|c| c.hello);
            let (changed, whole) = (listening().any(|c| c.changes), listening().any(|c| !c.changes));
            let parts = if changed {
                Parts::of(&self.state.snapshot(self.version, &self.state.nicknames())).ok()
            } else {
                None
            };
            let with_changes = match (&self.sent, &parts) {
                (Some(sent), Some(parts)) => {
                    let changes = parts.changes_from(sent);
                    Some(Utf8Bytes::from(events_message(from, self.version, &refs, "changes", &changes)))
                }
                _ => None,
            };
            let with_room = (whole || with_changes.is_none()).then(|| {
                Utf8Bytes::from(match &parts {
                    Some(parts) => events_message(from, self.version, &refs, "room", parts.text()),
                    None => events_message(from, self.version, &refs, "room", &self.snapshot_text()),
                })
            });
            self.sent = parts;
            let mut dropped = Vec::new();
            for (id, conn) in &self.conns {
                let message = match (&with_changes, &with_room) {
                    (Some(message), _) if conn.changes => message,
                    (_, Some(message)) => message,
                    (Some(message), None) => message,
                    (None, None) => continue,
                };
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
        let game_version = self.state.game.as_ref().map(LiveGame::version);
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
        // The due time (ms) the timer last fired for, until a message changes something: a due
        // time not later than it is not slept on again (never a wake-up loop).
        let mut fired: Option<i64> = None;
        let mut moved = false;
        // A new or rebuilt public lobby is listed on every node.
        self.publish().await;
        loop {
            let due = self.state.next_due().filter(|d| fired.is_none_or(|f| *d > f));
            let wake =
                [idle_since.map(|t| t + self.config.idle_close), due.map(at_instant)].into_iter().flatten().min();
            let message = tokio::select! {
                message = rx.recv() => message,
                () = sleep_until(wake) => {
                    self.shared.wakes.fetch_add(1, Ordering::Relaxed);
                    if idle_since.is_some_and(|t| t.elapsed() >= self.config.idle_close) {
                        idle = true;
                        break;
                    }
                    fired = due;
                    self.on_timer().await;
                    self.save_logged().await;
                    self.flush();
                    self.publish().await;
                    continue;
                }
            };
            let Some(message) = message else { break };
            fired = None;
            match message {
                Msg::Join { player, nickname, seat, reply } => {
                    let result = self.join(&player, &nickname, seat.as_deref()).await;
                    self.flush();
                    let _ = reply.send(result.map(|(seat, token)| Joined { seat, token, room: self.snapshot() }));
                }
                Msg::Snapshot { reply } => {
                    let _ = reply.send(self.snapshot());
                }
                Msg::Connect { conn, out } => {
                    self.conns.insert(conn, Conn { out, hello: false, seat: None, token: None, changes: false });
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
                Msg::Moved => {
                    moved = true;
                    break;
                }
            }
            self.publish().await;
            self.shared.connections.store(self.conns.len(), Ordering::Relaxed);
            let people = self.conns.values().any(|c| c.seat.is_some());
            idle_since = if people { None } else { idle_since.or_else(|| Some(Instant::now())) };
            if self.state.closed {
                break;
            }
        }
        let code = self.state.settings.code.clone();
        if moved {
            for conn in self.conns.values() {
                let _ = conn.out.try_send(Out::Close(1012, "the room moved to another server node: reconnect".into()));
            }
            tracing::info!(room = %code, "room left memory: another node took it over");
            self.app.rooms.remove(&code, &self.shared);
            return;
        }
        for conn in self.conns.values() {
            let _ = conn.out.try_send(Out::Close(1001, "the room has closed".into()));
        }
        // Closed for good: everyone left, or an idle lobby. An idle room with a game is only
        // unloaded from memory: its code rebuilds it (`Registry::open`).
        let key = crate::cluster::room_key(&code);
        if self.state.closed || (idle && self.state.status == Status::Lobby) {
            tracing::info!(room = %code, idle, "room closed");
            // On a cluster a room whose lease is gone is not this node's to close.
            let fence = self.app.fence(&key, self.fence.as_ref());
            let closed = match &fence {
                Ok(fence) => crate::db::rooms::close_room(&self.app.db, &code, now_ms(), fence.as_ref()).await,
                Err(_) => Err(crate::error::ServerError::Fenced { key: key.clone() }),
            };
            let fence = fence.ok().flatten();
            if let Err(error) = closed {
                tracing::error!(room = %code, %error, "recording the room's closing failed");
            } else if let (Some(cluster), Some(fence)) = (&self.app.cluster, &fence) {
                // Closing cleared the listing: every node hears of it.
                let _ = cluster.publish_listing(&code, None, fence).await;
            }
        } else {
            tracing::info!(room = %code, "idle room unloaded (its code rebuilds it)");
        }
        self.app.rooms.remove(&code, &self.shared);
        if let Some(cluster) = &self.app.cluster {
            cluster.release(&key).await;
        }
    }

    async fn on_timer(&mut self) {
        let events = if self.state.computer_thinks(None) {
            compute(|| self.state.tick(now_ms()))
        } else {
            self.state.tick(now_ms())
        };
        let result = match events {
            Ok(events) => self.store_and_take(events).await,
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            tracing::error!(room = %self.state.settings.code, %error, "the room's timer failed");
        }
    }

    fn drop_conn(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else { return };
        if let Some(seat) = c.seat {
            self.unbind(seat);
        }
    }

    /// A connection of `seat` goes: its last one makes the seat away.
    fn unbind(&mut self, seat: usize) {
        self.seat_conns[seat] = self.seat_conns[seat].saturating_sub(1);
        if self.seat_conns[seat] == 0 {
            let events = self.state.presence(seat, false, now_ms());
            self.take(events, now_ms());
        }
    }

    // ---------------------------------------------------------------- joining

    /// A person joins (`POST /api/rooms/{code}/join`): the seat is stored before its token is
    /// handed out.
    async fn join(&mut self, player: &str, nickname: &str, seat: Option<&str>) -> Result<(String, String), ApiError> {
        let token = super::random_token()?;
        let events = self.state.join(player, nickname, seat, token_hash(&token), now_ms())?;
        let index = match events.first() {
            Some(RoomEvent::Joined { seat, .. }) => *seat,
            _ => return Err(ApiError::internal("a join without a seat")),
        };
        self.take(events, now_ms());
        self.save().await?;
        Ok((self.state.seats[index].name.clone(), token))
    }

    // ---------------------------------------------------------------- messages

    async fn incoming(&mut self, conn: u64, message: ClientMessage) {
        // Every message's `id`, whatever its type: a string or a number of at most 64 characters.
        if let Err(error) = id_shape(message.id.as_ref()) {
            self.send_error(conn, &error, &message);
            return;
        }
        let result = match &message.command {
            Command::Hello { version, changes, history } => {
                let catch_up = CatchUp { version: *version, history: history.unwrap_or(false) };
                self.hello(conn, message.token.clone(), catch_up, changes.unwrap_or(false)).await;
                return;
            }
            Command::Ping {} => {
                self.send(conn, &json!({"type": "pong", "id": valid_id(message.id.as_ref()), "version": self.version}));
                return;
            }
            Command::Ack { version } => self.ack(conn, *version),
            command => match self.seat_of(conn, message.token.as_deref()) {
                Ok(seat) => self.command(seat, message.id.as_ref().map(Value::to_string), command).await,
                Err(e) => Err(e),
            },
        };
        if let Err(error) = result {
            self.send_error(conn, &error, &message);
        }
    }

    /// A seat's command: decided by the room's rules (off the async workers when the computer
    /// may think), stored, taken.
    async fn command(&mut self, seat: usize, id: Option<String>, command: &Command) -> Result<(), ApiError> {
        let fresh = match command {
            Command::Start { .. } | Command::Rematch {} => {
                let mut bytes = [0u8; 32];
                getrandom::fill(&mut bytes)
                    .map_err(|e| ApiError::internal(format!("operating system randomness failed: {e}")))?;
                Some(Fresh { game_id: random_hex(8)?, seed: Seed(bytes) })
            }
            _ => None,
        };
        let context = Context { now: now_ms(), fresh };
        let state = &self.state;
        let decide = || state.handle(seat, id.as_deref(), command, &context);
        // Only a computer that searches thinks: otherwise a command is microseconds, decided
        // here rather than handing the worker thread over (`block_in_place`).
        let events = if state.computer_thinks(Some(command)) { compute(decide) } else { decide() }?;
        self.store_and_take(events).await
    }

    async fn hello(&mut self, conn: u64, token: Option<String>, catch_up: CatchUp, changes: bool) {
        let CatchUp { version, history } = catch_up;
        let seat = match &token {
            None => None,
            Some(token) => match self.state.seat_of_token(&token_hash(token)) {
                Some(seat) => Some(seat),
                None => {
                    let error = refuse(
                        StatusCode::UNAUTHORIZED,
                        "bad_token",
                        "no seat of this room has this token (left, or another room's): join again or watch without a token",
                    );
                    let message = ClientMessage {
                        command: Command::Hello { version, changes: Some(changes), history: Some(history) },
                        token: None,
                        id: None,
                    };
                    self.send_error(conn, &error, &message);
                    return;
                }
            },
        };
        let Some(c) = self.conns.get_mut(&conn) else { return };
        // A second hello re-binds the connection: undo the first's presence.
        let previous = if c.hello { c.seat.take() } else { None };
        c.hello = false;
        if let Some(previous) = previous {
            self.unbind(previous);
        }
        if let Some(seat) = seat {
            self.seat_conns[seat] += 1;
            if self.seat_conns[seat] == 1 {
                let events = self.state.presence(seat, true, now_ms());
                self.take(events, now_ms());
            }
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = seat;
            c.token = token;
            // Only an accepted hello says how the broadcasts come (a refused one changes nothing).
            c.changes = changes;
        }
        // Everyone else hears of the presence change first; then this connection catches up.
        self.save_logged().await;
        self.flush();
        let you = seat.map(|s| self.state.seats[s].name.clone());
        let host = seat.is_some() && seat == self.state.host;
        self.send(
            conn,
            &json!({"type": "welcome", "seat": you, "host": host, "spectator": seat.is_none(),
                    "version": self.version, "limits": self.config.limits()}),
        );
        // The next broadcast's changes are worked out from the last broadcast's snapshot, which
        // this connection's catch-up must then be. It is while every change of the snapshot is
        // announced by an event (and so broadcast); should one ever not be, the next broadcast
        // carries the whole snapshot rather than changes from a stale one.
        if changes && self.sent.as_ref().is_some_and(|sent| sent.text() != self.snapshot_text()) {
            self.sent = None;
        }
        let catch_up = match version {
            Some(from) if from <= self.version && self.log.front().is_some_and(|(v, _)| *v <= from + 1) => {
                let events: Vec<&str> = self.log.iter().filter(|(v, _)| *v > from).map(|(_, e)| e.as_str()).collect();
                self.events_message(from, &events)
            }
            Some(from) if from == self.version => self.events_message(from, &[]),
            // A page just opened that asked for the history: every event still kept, from the
            // version before the oldest, with the whole room. (A client with a version it
            // cannot catch up from gets the snapshot: events from above its version would be
            // a gap to it.)
            None if history && !self.log.is_empty() => {
                let first = self.log.front().map_or(1, |(v, _)| *v);
                let events: Vec<&str> = self.log.iter().map(|(_, e)| e.as_str()).collect();
                self.events_message(first - 1, &events)
            }
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
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "stale_version",
                format!("the room is at version {current}, not {version}"),
            ));
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
        if !constant_time_eq(bound.as_bytes(), token.as_bytes()) {
            return Err(ApiError::forbidden(
                "bad_token",
                format!(
                    "this token is not seat {}'s (the seat this connection said hello for)",
                    self.state.seats[seat].name
                ),
            ));
        }
        Ok(seat)
    }
}

/// The runtime's instant of a wall-clock time (ms since the epoch): now, if it has passed.
fn at_instant(ms: i64) -> Instant {
    Instant::now() + Duration::from_millis(u64::try_from(ms - now_ms()).unwrap_or(0))
}

/// A game's log entry as a room event ([`game_event`]).
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
