//! A room's rules as a pure state machine: its seats and who holds them, the host, ready flags,
//! the lobby, the game and its endings, draw offers, rematches, chat, presence, the turn timer
//! and the host's hand-over. No I/O, no clock and no randomness of its own: the time and any
//! fresh randomness (a new seat's token hash, a new game's seed and id) come in as arguments.
//!
//! [`RoomState::handle`] decides what a seat's command does and returns it as [`RoomEvent`]s
//! without changing anything (a refusal changes nothing); the actor around it
//! ([`super::room::Room`]) stores what must be stored (a new game, a game's change), then
//! [`RoomState::apply`]s the events, which say what the clients hear ([`Announce`]). Joins,
//! presence and the timer work the same way ([`RoomState::join`], [`RoomState::presence`],
//! [`RoomState::tick`]).

use std::collections::{HashMap, VecDeque};

use axum::http::StatusCode;
use madang_games::{EndReason, Ending, SkinChange, SkinChoice, SkinError};
use madang_seed::Seed;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::protocol::Command;
use crate::error::ApiError;
use crate::game::{ActionRequest, Change, LiveGame, NewGame, SeatKind, StateRef};
use crate::live::LiveMatch;

/// Why a command or join is refused: what a client is told (`docs/api.md`, "Room errors").
pub type RoomError = ApiError;

/// The room's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Seats are taken and readied.
    Lobby,
    /// A game is being played.
    Playing,
    /// The last game has ended (rematch or leave).
    Finished,
}

impl Status {
    /// `lobby`, `playing` or `finished`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Lobby => "lobby",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }

    /// The status as a person says it: `in its lobby`, `playing a game`, `done with its game`.
    fn phase(self) -> &'static str {
        match self {
            Status::Lobby => "in its lobby",
            Status::Playing => "playing a game",
            Status::Finished => "done with its game",
        }
    }
}

/// A person in a seat.
#[derive(Clone, Debug)]
pub struct Human {
    /// Player id.
    pub player: String,
    /// Nickname in this room.
    pub nickname: String,
    /// SHA-256 of the seat token: the token itself is never kept (nor stored).
    pub token_hash: [u8; 32],
    /// Ready (lobby).
    pub ready: bool,
    /// A connection of this seat is open.
    pub connected: bool,
    /// Since when the seat has had no connection (ms since the epoch).
    pub away_since: Option<i64>,
    /// The computer plays this seat for its absent player (level).
    pub cpu: Option<String>,
    /// Asked for a rematch.
    pub rematch: bool,
    /// Join order (the host role passes to the earliest).
    pub order: u64,
    /// The last message ids received from this seat (a repeated id is a `duplicate`).
    pub ids: VecDeque<String>,
}

/// Who holds a seat.
#[derive(Clone, Debug)]
pub enum Occupant {
    /// Nobody.
    Open,
    /// The computer, at a level.
    Cpu(String),
    /// A person.
    Human(Box<Human>),
}

/// One seat of the room's game.
#[derive(Clone, Debug)]
pub struct SeatState {
    /// The game's seat name.
    pub name: String,
    /// The seat's side (team) name.
    pub side: String,
    /// Who holds it.
    pub occupant: Occupant,
}

/// A new game's randomness, drawn by the actor (`getrandom`) when a command may start one.
#[derive(Clone, Debug)]
pub struct Fresh {
    /// The new game's id (16 hex digits).
    pub game_id: String,
    /// The new game's seed.
    pub seed: Seed,
}

/// What a command is handled with besides the room: the time, and fresh randomness for a
/// command that may start a game (`start`, `rematch`).
#[derive(Clone, Debug)]
pub struct Context {
    /// Now, ms since the epoch.
    pub now: i64,
    /// For `start` and `rematch`.
    pub fresh: Option<Fresh>,
}

/// Something that happens in a room, decided by [`RoomState::handle`] (and the other deciding
/// methods) and taken by [`RoomState::apply`]. Seats are indices into the room's seats.
pub enum RoomEvent {
    /// A message id was received from a seat (recorded with the command it came with).
    Heard {
        /// The seat.
        seat: usize,
        /// The id, as JSON text.
        id: String,
    },
    /// A person took an open seat.
    Joined {
        /// The seat.
        seat: usize,
        /// The person.
        player: String,
        /// Their nickname.
        nickname: String,
        /// SHA-256 of the seat's new token.
        token_hash: [u8; 32],
        /// When.
        at: i64,
    },
    /// The host role passed to a seat.
    Host {
        /// The new host's seat.
        seat: usize,
    },
    /// A person moved to another open seat.
    Seat {
        /// From this seat.
        from: usize,
        /// To this one.
        to: usize,
    },
    /// A person is ready or not.
    Ready {
        /// The seat.
        seat: usize,
        /// Ready.
        ready: bool,
    },
    /// The host gave an open seat to the computer, or opened a computer's seat again.
    Cpu {
        /// The seat.
        seat: usize,
        /// The level, or `None` for open again.
        level: Option<String>,
    },
    /// A person left their seat.
    Left {
        /// The seat.
        seat: usize,
    },
    /// After a game, the room is back in its lobby.
    Lobby,
    /// A player's side (or, from the host, the board) looks different now: the whole new
    /// choice.
    Skins {
        /// The seat that chose.
        seat: usize,
        /// Every side's look and the board.
        skins: SkinChoice,
    },
    /// After a game, a player took the room back to its lobby for the next round.
    NextRound {
        /// The seat.
        seat: usize,
    },
    /// The room has closed for good.
    Closed {
        /// Why.
        reason: &'static str,
    },
    /// A chat line.
    Chat {
        /// The seat.
        seat: usize,
        /// The line, trimmed.
        text: String,
    },
    /// A seat's first connection opened, or its last one closed.
    Presence {
        /// The seat.
        seat: usize,
        /// Connected now.
        connected: bool,
        /// When.
        at: i64,
    },
    /// The player is back: the computer stops playing the seat.
    Returned {
        /// The seat.
        seat: usize,
    },
    /// The host handed an absent player's seat to the computer.
    CpuPlaying {
        /// The seat.
        seat: usize,
        /// The computer's level.
        level: String,
    },
    /// A draw offered.
    DrawOffer {
        /// By this seat.
        seat: usize,
    },
    /// A draw offer declined.
    DrawDeclined {
        /// By this seat.
        seat: usize,
    },
    /// A person asked for a rematch.
    Rematch {
        /// The seat.
        seat: usize,
    },
    /// A seat's turn timer ran out (the computer plays that turn: a `Game` event follows).
    Timeout {
        /// The seat.
        seat: usize,
    },
    /// A new game started (stored by the actor first).
    Started {
        /// The game, seated and created.
        game: Box<LiveGame>,
    },
    /// A change to the game (stored by the actor first).
    Game {
        /// The new core and log entries.
        change: Box<Change>,
    },
}

/// What the clients hear of an applied event: a room event's body (`docs/api.md`, "Room
/// events"), or the game's new log entries (`action` and `end` events).
#[derive(Debug, PartialEq)]
pub enum Announce {
    /// A room event: `type` and its fields (`version` and `at` are added by the actor).
    Room(Value),
    /// The game's log entries from this index on (to the end of its log).
    Entries(usize),
}

/// What is stored of a room (`rooms.state`) to rebuild it after a restart: everything but
/// connections, presence and the event log; of the chat, its last [`KEPT_CHAT`] lines. The game
/// itself is in `games`/`actions`.
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
    /// The sides' looks and the board, for a game with skins (absent in documents stored
    /// before skins: the defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skins: Option<SkinChoice>,
    /// The last chat lines, oldest first (absent in documents stored before chat was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
}

/// How many of a room's last chat lines it keeps across a restart.
pub const KEPT_CHAT: usize = 50;

/// A chat line as a room keeps it: the `chat` event's fields and its time.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// The seat's name when it was said.
    pub seat: String,
    /// The speaker's nickname then.
    pub nickname: String,
    /// The line.
    pub text: String,
    /// When it was said, ms since the epoch.
    pub at: i64,
}

impl ChatLine {
    /// The `chat` event's fields (`docs/api.md`, "Room events"), without its version and time.
    pub fn event(&self) -> Value {
        json!({"type": "chat", "seat": self.seat, "nickname": self.nickname, "text": self.text})
    }
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

/// A room's settings, fixed when it is created.
pub struct Settings {
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
    /// Turn timer, seconds.
    pub turn_seconds: Option<u64>,
    /// Creation time (ms since the epoch, as stored in `rooms.created`).
    pub created: i64,
    /// How long a player must be away before the host may hand the seat over (and, in the
    /// lobby, before the host role passes on), ms.
    pub grace_ms: i64,
    /// Longest chat line, characters.
    pub chat_chars: usize,
}

/// The room.
pub struct RoomState {
    /// Its settings.
    pub settings: Settings,
    /// The game with these rules, unstarted (seat and side names, bot names).
    template: Box<dyn LiveMatch>,
    /// The seats, in the game's order.
    pub seats: Vec<SeatState>,
    /// The host's seat.
    pub host: Option<usize>,
    /// The phase.
    pub status: Status,
    /// The current (last) game.
    pub game: Option<LiveGame>,
    /// The room's games, oldest first.
    pub games: Vec<String>,
    /// The seat with an open draw offer.
    pub draw_offer: Option<usize>,
    /// The sides' looks and the board (`None` for a game without skins).
    pub skins: Option<SkinChoice>,
    /// When the turn timer runs out (ms since the epoch).
    pub deadline: Option<i64>,
    /// People who joined so far.
    pub joins: u64,
    /// The last [`KEPT_CHAT`] chat lines, oldest first (stored with the state).
    pub chat: VecDeque<ChatLine>,
    /// Closed for good (everyone left).
    pub closed: bool,
    /// The state document ([`RoomState::saved`]) may have changed since [`RoomState::take_dirty`].
    dirty: bool,
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

/// Compares two byte strings without stopping at the first difference.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn conflict(code: &'static str, message: impl Into<String>) -> RoomError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

/// A refused skin choice: `skin_taken` (409) when another side has it, else `bad_skin` (422).
fn skin_error(error: &SkinError) -> RoomError {
    match error {
        SkinError::Taken { .. } => conflict("skin_taken", error.to_string()),
        _ => ApiError::unprocessable("bad_skin", error.to_string()),
    }
}

/// The default looks of a new room's sides (`side_names` in seat order, repeated in team
/// games), when its game has skins.
fn default_skins(game: &str, side_names: &[String]) -> Option<SkinChoice> {
    let mut sides: Vec<String> = Vec::new();
    for side in side_names {
        if !sides.contains(side) {
            sides.push(side.clone());
        }
    }
    crate::catalogue::skins(game).and_then(|skins| skins.defaults(&sides).ok())
}

/// The first character of `text` that would reorder or hide text around it: the bidi
/// embeddings, overrides, isolates and marks (U+202A-202E, U+2066-2069, U+200E, U+200F,
/// U+061C) and the invisible ones (zero-width space U+200B, word joiner U+2060, U+FEFF,
/// U+180E, U+2061-2064, the Hangul fillers `identity::HANGUL_FILLERS`). The zero-width (non-)joiners U+200C and U+200D, which Persian,
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
            c if crate::identity::HANGUL_FILLERS.contains(&c) => true,
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

impl RoomState {
    /// A new room with its host seated in `seat` (a token with hash `token_hash`), and the
    /// seats `cpu` names given to the computer.
    ///
    /// # Errors
    /// Bad rules (`bad_rules`), an unknown seat or level.
    pub fn new(
        settings: Settings,
        cpu: &HashMap<String, String>,
        host: (usize, String, String, [u8; 32]),
    ) -> Result<(RoomState, Vec<RoomEvent>), RoomError> {
        let template = crate::live::open_live(&settings.game, &settings.rules, settings.players)
            .map_err(|e| ApiError::unprocessable("bad_rules", e.to_string()))?;
        let sides = template.side_names();
        let seats: Vec<SeatState> = template
            .seat_names()
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let occupant = cpu.get(&name).map_or(Occupant::Open, |level| Occupant::Cpu(level.clone()));
                SeatState { side: sides.get(template.side_of_seat(i)).cloned().unwrap_or_default(), name, occupant }
            })
            .collect();
        let (seat, player, nickname, token_hash) = host;
        if seat >= seats.len() {
            return Err(ApiError::unprocessable("bad_seat", format!("no seat {seat} in this room")));
        }
        let at = settings.created;
        let skins = default_skins(&settings.game, &sides);
        let state = RoomState {
            settings,
            template,
            seats,
            host: None,
            status: Status::Lobby,
            game: None,
            games: Vec::new(),
            draw_offer: None,
            skins,
            deadline: None,
            joins: 0,
            chat: VecDeque::new(),
            closed: false,
            dirty: true,
        };
        let events = vec![RoomEvent::Joined { seat, player, nickname, token_hash, at }, RoomEvent::Host { seat }];
        Ok((state, events))
    }

    /// A room rebuilt from its stored state document and its last game (after a restart, or
    /// after it was unloaded when idle). Nobody is connected (every person away since `now`);
    /// every seat's token still works.
    ///
    /// # Errors
    /// A stored state that does not fit the game.
    pub fn restore(settings: Settings, saved: Saved, game: Option<LiveGame>, now: i64) -> Result<RoomState, String> {
        let template =
            crate::live::open_live(&settings.game, &settings.rules, settings.players).map_err(|e| e.to_string())?;
        let sides = template.side_names();
        let names = template.seat_names();
        if names.len() != saved.seats.len() {
            return Err(format!("{} seats stored, the game has {}", saved.seats.len(), names.len()));
        }
        let mut seats = Vec::with_capacity(names.len());
        for (i, (name, stored)) in names.into_iter().zip(saved.seats).enumerate() {
            let occupant = match stored {
                SavedSeat::Open => Occupant::Open,
                SavedSeat::Cpu { level } => Occupant::Cpu(level),
                SavedSeat::Human { player, nickname, token_sha256, ready, rematch, cpu, order } => {
                    Occupant::Human(Box::new(Human {
                        player,
                        nickname,
                        token_hash: unhex32(&token_sha256).ok_or_else(|| format!("seat {name}'s token"))?,
                        ready,
                        connected: false,
                        away_since: Some(now),
                        cpu,
                        rematch,
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
        let mut game = game;
        if let Some(live) = &mut game {
            // The computer keeps playing the seats it played for their absent players.
            for (i, seat) in seats.iter().enumerate() {
                if let Occupant::Human(h) = &seat.occupant
                    && let Some(level) = &h.cpu
                    && let Some(s) = live.seats.get_mut(i)
                {
                    s.kind = SeatKind::Cpu;
                    s.level = Some(level.clone());
                }
            }
        }
        let status = match &game {
            None => Status::Lobby,
            Some(live) if live.core.ended() => Status::Finished,
            Some(_) => Status::Playing,
        };
        // Stored looks that the game's skins no longer allow fall back to the defaults.
        let skins = match (crate::catalogue::skins(&settings.game), saved.skins) {
            (Some(offered), Some(stored)) if offered.check(&stored).is_ok() => Some(stored),
            _ => default_skins(&settings.game, &sides),
        };
        let mut state = RoomState {
            settings,
            template,
            seats,
            host: saved.host,
            status,
            game,
            games: saved.games,
            draw_offer: if status == Status::Playing { saved.draw_offer } else { None },
            skins,
            deadline: None,
            joins: saved.joins,
            chat: saved.chat.into_iter().rev().take(KEPT_CHAT).rev().collect(),
            closed: false,
            dirty: false,
        };
        state.resume_timer(now);
        Ok(state)
    }

    /// Whether the state document may have changed since the last call (most events — a move,
    /// presence, chat — leave it alone, and it need not be written again).
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// The state document is to be written again (its last write failed).
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// The state document to store (`rooms.state`).
    pub fn saved(&self) -> Saved {
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
            skins: self.skins.clone(),
            chat: self.chat.iter().cloned().collect(),
        }
    }

    // ---------------------------------------------------------------- reading

    /// The people seated, with their seat indices.
    pub fn humans(&self) -> impl Iterator<Item = (usize, &Human)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| match &s.occupant {
            Occupant::Human(h) => Some((i, h.as_ref())),
            _ => None,
        })
    }

    fn human(&self, seat: usize) -> Option<&Human> {
        match &self.seats.get(seat)?.occupant {
            Occupant::Human(h) => Some(h),
            _ => None,
        }
    }

    fn human_mut(&mut self, seat: usize) -> Option<&mut Human> {
        match &mut self.seats.get_mut(seat)?.occupant {
            Occupant::Human(h) => Some(h),
            _ => None,
        }
    }

    /// The seat named `name`.
    ///
    /// # Errors
    /// `bad_seat` naming the room's seats.
    pub fn seat_index(&self, name: &str) -> Result<usize, RoomError> {
        self.seats.iter().position(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
            ApiError::unprocessable(
                "bad_seat",
                format!("no seat {:?} in this room (seats: {})", madang_core::echo(name), names.join(", ")),
            )
        })
    }

    /// The seat whose token hashes to `hash`, compared in constant time.
    pub fn seat_of_token(&self, hash: &[u8; 32]) -> Option<usize> {
        self.seats.iter().position(|s| match &s.occupant {
            Occupant::Human(h) => constant_time_eq(&h.token_hash, hash),
            _ => false,
        })
    }

    /// The seat's player id (`""` for a seat without a person).
    pub fn player_of(&self, seat: usize) -> String {
        self.human(seat).map(|h| h.player.clone()).unwrap_or_default()
    }

    /// The players' nicknames by player id (the room's, for the game state's seats).
    pub fn nicknames(&self) -> HashMap<String, String> {
        self.humans().map(|(_, h)| (h.player.clone(), h.nickname.clone())).collect()
    }

    /// Whether the computer may search while handling `command` (or the turn timer, `None`):
    /// a seat of the current game, a room seat for the next one, or the level the command
    /// itself gives the computer (`start` with `fill_cpu`, `hand_to_cpu`: it plays at once) is a
    /// bot that searches ([`madang_bots::Bot::searches`]). The actor then runs the command off
    /// the async workers (`app::compute`); otherwise it is microseconds, decided in
    /// place.
    pub fn computer_thinks(&self, command: Option<&Command>) -> bool {
        let searches = |level: &str| self.template.bot_searches(level);
        let given = match command {
            Some(Command::Start { fill_cpu: Some(level) }) => searches(level),
            Some(Command::HandToCpu { level, .. }) => searches(level.as_deref().unwrap_or("normal")),
            _ => false,
        };
        given
            || self.game.as_ref().is_some_and(LiveGame::computer_searches)
            || self.seats.iter().any(|s| matches!(&s.occupant, Occupant::Cpu(level) if searches(level)))
    }

    fn require_host(&self, seat: usize) -> Result<(), RoomError> {
        if self.host == Some(seat) { Ok(()) } else { Err(ApiError::forbidden("not_host", "only the host may do this")) }
    }

    fn require(&self, status: Status, what: &str) -> Result<(), RoomError> {
        if self.status == status {
            Ok(())
        } else {
            Err(conflict(
                "wrong_phase",
                format!(
                    "{what} is possible only while the room is {}; it is {} now",
                    status.phase(),
                    self.status.phase()
                ),
            ))
        }
    }

    fn check_level(&self, level: &str) -> Result<(), RoomError> {
        self.template.check_bot(level).map_err(|e| ApiError::unprocessable("bad_level", e.to_string()))
    }

    fn live(&self) -> Result<&LiveGame, RoomError> {
        self.game.as_ref().ok_or_else(|| ApiError::internal("no game while playing"))
    }

    /// The entry of `GET /api/rooms` while the room is public, in the lobby and has an open seat.
    pub fn listing(&self) -> Option<Value> {
        let open = self.seats.iter().filter(|s| matches!(s.occupant, Occupant::Open)).count();
        (self.settings.public && self.status == Status::Lobby && open > 0).then(|| {
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
            let host = self.host.and_then(|h| self.human(h)).map(|h| h.nickname.clone());
            let s = &self.settings;
            json!({"code": s.code, "game": s.game, "rules": s.rules, "players": s.players,
                   "seats": seats, "open": open, "host": host, "turn_seconds": s.turn_seconds,
                   "created": s.created})
        })
    }

    /// The room's snapshot (`docs/api.md`, "Room snapshot"), at room version `version`,
    /// borrowing from the room.
    pub fn snapshot<'a>(&'a self, version: u64, nicknames: &'a HashMap<String, String>) -> SnapshotRef<'a> {
        let state = match (&self.game, self.status) {
            (Some(live), Status::Playing | Status::Finished) => {
                // As `GET /api/games/{id}` shows it to the seat to act (so `moves` is
                // annotated), without `my_seats`; nicknames are the room's.
                let to_act = LiveGame::acting(&live.core)
                    .and_then(|s| live.seats.get(s))
                    .and_then(|s| s.player.as_deref())
                    .unwrap_or_default();
                Some(live.state_ref(to_act, nicknames, false))
            }
            _ => None,
        };
        let s = &self.settings;
        SnapshotRef {
            code: &s.code,
            game: &s.game,
            rules: &s.rules,
            players: s.players,
            public: s.public,
            status: self.status.as_str(),
            version,
            host: self.host.map(|h| self.seats[h].name.as_str()),
            turn_seconds: s.turn_seconds,
            grace_seconds: u64::try_from(s.grace_ms / 1000).unwrap_or(0),
            deadline: self.deadline,
            draw_offer: self.draw_offer.map(|s| self.seats[s].name.as_str()),
            seats: &self.seats,
            skins: self.skins.as_ref(),
            games: &self.games,
            state,
            created: s.created,
        }
    }

    // ---------------------------------------------------------------- deciding

    /// A person joins: `seat` by name, or the first open one; their new token hashes to
    /// `token_hash`.
    ///
    /// # Errors
    /// The game has started, the player already holds a seat, the seat is unknown or taken, the
    /// room is full.
    pub fn join(
        &self,
        player: &str,
        nickname: &str,
        seat: Option<&str>,
        token_hash: [u8; 32],
        now: i64,
    ) -> Result<Vec<RoomEvent>, RoomError> {
        if self.status != Status::Lobby {
            return Err(conflict(
                "room_started",
                format!("room {}'s game has started: open its link to watch", self.settings.code),
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
                let i = self.seat_index(name)?;
                if !matches!(self.seats[i].occupant, Occupant::Open) {
                    return Err(conflict("seat_taken", format!("seat {name} is taken")));
                }
                i
            }
            None => self
                .seats
                .iter()
                .position(|s| matches!(s.occupant, Occupant::Open))
                .ok_or_else(|| conflict("room_full", format!("room {} has no open seat", self.settings.code)))?,
        };
        let mut events = vec![RoomEvent::Joined {
            seat: index,
            player: player.to_owned(),
            nickname: nickname.to_owned(),
            token_hash,
            at: now,
        }];
        if self.host.is_none() {
            events.push(RoomEvent::Host { seat: index });
        }
        Ok(events)
    }

    /// A seat's first connection opened (`connected`), or its last one closed: presence, and a
    /// returning player takes the seat back from the computer.
    pub fn presence(&self, seat: usize, connected: bool, now: i64) -> Vec<RoomEvent> {
        let Some(h) = self.human(seat) else { return Vec::new() };
        if h.connected == connected {
            return Vec::new();
        }
        let mut events = vec![RoomEvent::Presence { seat, connected, at: now }];
        if connected && h.cpu.is_some() {
            events.push(RoomEvent::Returned { seat });
        }
        events
    }

    /// What seat `seat`'s command does. `id` is the message's id (JSON text), if any: a seat's
    /// repeated id is refused as a `duplicate`.
    ///
    /// # Errors
    /// The command's refusal, naming what is wrong; nothing changes then.
    pub fn handle(
        &self,
        seat: usize,
        id: Option<&str>,
        command: &Command,
        context: &Context,
    ) -> Result<Vec<RoomEvent>, RoomError> {
        let mut events = Vec::new();
        if let Some(id) = id {
            if self.human(seat).is_some_and(|h| h.ids.iter().any(|i| i == id)) {
                return Err(conflict("duplicate", format!("message id {id} was already received from this seat")));
            }
            events.push(RoomEvent::Heard { seat, id: id.to_owned() });
        }
        self.decide(seat, command, context, &mut events)?;
        Ok(events)
    }

    fn decide(
        &self,
        seat: usize,
        command: &Command,
        context: &Context,
        events: &mut Vec<RoomEvent>,
    ) -> Result<(), RoomError> {
        let name = &self.seats[seat].name;
        let now = context.now;
        match command {
            Command::Hello { .. } | Command::Ping {} | Command::Ack { .. } => {}
            Command::Seat { seat: to } => {
                self.require(Status::Lobby, "changing seats")?;
                let target = self.seat_index(to)?;
                if target == seat {
                    return Err(conflict("duplicate", format!("you are already in seat {to}")));
                }
                if !matches!(self.seats[target].occupant, Occupant::Open) {
                    return Err(conflict("seat_taken", format!("seat {to} is taken")));
                }
                events.push(RoomEvent::Seat { from: seat, to: target });
            }
            Command::Ready { ready } => {
                self.require(Status::Lobby, "getting ready")?;
                let h = self.human(seat).ok_or_else(|| ApiError::internal("a token without a person"))?;
                if h.ready == *ready {
                    return Err(conflict(
                        "duplicate",
                        format!("you are already {}", if *ready { "ready" } else { "not ready" }),
                    ));
                }
                events.push(RoomEvent::Ready { seat, ready: *ready });
            }
            Command::Cpu { seat: target, level } => {
                self.require_host(seat)?;
                self.require(Status::Lobby, "giving a seat to the computer")?;
                let index = self.seat_index(target)?;
                match (level, &self.seats[index].occupant) {
                    (Some(level), Occupant::Open) => {
                        self.check_level(level)?;
                        events.push(RoomEvent::Cpu { seat: index, level: Some(level.clone()) });
                    }
                    (Some(_), _) => return Err(conflict("seat_taken", format!("seat {target} is not open"))),
                    (None, Occupant::Cpu(_)) => events.push(RoomEvent::Cpu { seat: index, level: None }),
                    (None, _) => return Err(conflict("not_cpu", format!("seat {target} is not a computer seat"))),
                }
            }
            Command::Skin { colour, pieces, board } => {
                self.require(Status::Lobby, "choosing skins")?;
                if board.is_some() {
                    self.require_host(seat)?;
                }
                let (Some(offered), Some(current)) = (crate::catalogue::skins(&self.settings.game), &self.skins) else {
                    return Err(skin_error(&SkinError::NoSkins));
                };
                let change = SkinChange { colour: colour.clone(), pieces: pieces.clone(), board: board.clone() };
                let skins = offered.change(current, &self.seats[seat].side, &change).map_err(|e| skin_error(&e))?;
                if &skins == current {
                    return Err(conflict("duplicate", "your side already looks like this"));
                }
                events.push(RoomEvent::Skins { seat, skins });
            }
            Command::NextRound {} => {
                self.require(Status::Finished, "the next round")?;
                events.push(RoomEvent::NextRound { seat });
            }
            Command::Start { fill_cpu } => {
                self.require_host(seat)?;
                self.require(Status::Lobby, "starting")?;
                if let Some(level) = fill_cpu {
                    self.check_level(level)?;
                }
                let open: Vec<usize> =
                    (0..self.seats.len()).filter(|&i| matches!(self.seats[i].occupant, Occupant::Open)).collect();
                if !open.is_empty() && fill_cpu.is_none() {
                    let names: Vec<&str> = open.iter().map(|&i| self.seats[i].name.as_str()).collect();
                    return Err(conflict(
                        "seats_open",
                        format!(
                            "seats {} are open: wait for players, or give them to the computer (\"fill_cpu\")",
                            names.join(", ")
                        ),
                    ));
                }
                let not_ready: Vec<&str> = self
                    .humans()
                    .filter(|(i, h)| *i != seat && !h.ready)
                    .map(|(i, _)| self.seats[i].name.as_str())
                    .collect();
                if !not_ready.is_empty() {
                    return Err(conflict("not_ready", format!("not ready yet: {}", not_ready.join(", "))));
                }
                if let Some(level) = fill_cpu {
                    events.extend(open.iter().map(|&i| RoomEvent::Cpu { seat: i, level: Some(level.clone()) }));
                }
                let game = self.new_game(fill_cpu.as_deref(), context)?;
                events.push(RoomEvent::Started { game: Box::new(game) });
            }
            Command::Leave {} => self.leave(seat, events)?,
            Command::Move { action, version, seat: named } => {
                self.require(Status::Playing, "moving")?;
                if let Some(named) = named
                    && named != name
                {
                    return Err(ApiError::forbidden(
                        "not_your_seat",
                        format!("your token is seat {name}'s, not {named}'s"),
                    ));
                }
                let request = ActionRequest { action: action.clone(), version: *version, seat: Some(name.clone()) };
                let change = self.live()?.play(&self.player_of(seat), &request, now)?;
                events.push(RoomEvent::Game { change: Box::new(change) });
            }
            Command::Resign {} => {
                self.require(Status::Playing, "resigning")?;
                let change = self.live()?.end_by_person(&self.player_of(seat), EndReason::Resign, Some(name), now)?;
                events.push(RoomEvent::Game { change: Box::new(change) });
            }
            Command::DrawOffer {} | Command::DrawAccept {} | Command::DrawDecline {} => {
                self.draw(seat, command, now, events)?;
            }
            Command::Rematch {} => {
                self.require(Status::Finished, "a rematch")?;
                let h = self.human(seat).ok_or_else(|| ApiError::internal("a token without a person"))?;
                if h.rematch {
                    return Err(conflict("duplicate", "you have already asked for a rematch"));
                }
                events.push(RoomEvent::Rematch { seat });
                if self.humans().all(|(i, h)| h.rematch || i == seat) {
                    let game = self.new_game(None, context)?;
                    events.push(RoomEvent::Started { game: Box::new(game) });
                }
            }
            Command::Chat { text } => {
                let text = text.trim();
                let chars = text.chars().count();
                let most = self.settings.chat_chars;
                if chars == 0 || chars > most {
                    return Err(ApiError::unprocessable(
                        "bad_chat",
                        format!("a chat line has 1 to {most} characters, got {chars}"),
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
                events.push(RoomEvent::Chat { seat, text: text.to_owned() });
            }
            Command::HandToCpu { seat: target, level } => {
                self.require_host(seat)?;
                self.require(Status::Playing, "handing a seat to the computer")?;
                let level = level.clone().unwrap_or_else(|| "normal".to_owned());
                self.check_level(&level)?;
                let index = self.seat_index(target)?;
                let Some(h) = self.human(index) else {
                    return Err(conflict("not_away", format!("seat {target} is not a person's")));
                };
                if h.cpu.is_some() {
                    return Err(conflict("duplicate", format!("the computer already plays seat {target}")));
                }
                let away = match (h.connected, h.away_since) {
                    (false, Some(since)) => now - since,
                    _ => return Err(conflict("not_away", format!("seat {target}'s player is connected"))),
                };
                let grace = self.settings.grace_ms;
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
                let change = self.live()?.auto_play_as(index, &level, now)?;
                events.push(RoomEvent::CpuPlaying { seat: index, level });
                if !change.entries.is_empty() {
                    events.push(RoomEvent::Game { change: Box::new(change) });
                }
            }
        }
        Ok(())
    }

    /// A new game for the room's seats (the computer's, and `fill` for the open ones),
    /// created from the context's fresh seed and id.
    fn new_game(&self, fill: Option<&str>, context: &Context) -> Result<LiveGame, RoomError> {
        let fresh = context.fresh.clone().ok_or_else(|| ApiError::internal("a new game needs a seed"))?;
        let host = self.host.map(|h| self.player_of(h)).unwrap_or_default();
        let seats: Vec<Option<String>> = self
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Cpu(level) => Some(level.clone()),
                Occupant::Open => fill.map(str::to_owned),
                Occupant::Human(_) => None,
            })
            .collect();
        let mut live = LiveGame::create(NewGame {
            id: fresh.game_id,
            owner: host,
            game: self.settings.game.clone(),
            rules: self.settings.rules.clone(),
            players: self.settings.players,
            seats: Some(seats),
            seed: fresh.seed,
            now: context.now,
        })?;
        live.mode = "room".to_owned();
        for (i, s) in self.seats.iter().enumerate() {
            if let Occupant::Human(h) = &s.occupant {
                live.seats[i].player = Some(h.player.clone());
            }
        }
        Ok(live)
    }

    fn leave(&self, seat: usize, events: &mut Vec<RoomEvent>) -> Result<(), RoomError> {
        if self.status == Status::Playing {
            return Err(conflict(
                "wrong_phase",
                "you cannot leave a game in progress: resign, or close the page (your seat is kept)",
            ));
        }
        events.push(RoomEvent::Left { seat });
        if self.status == Status::Finished {
            events.push(RoomEvent::Lobby);
        }
        if self.host == Some(seat) {
            match self.humans().filter(|(i, _)| *i != seat).min_by_key(|(_, h)| h.order) {
                Some((next, _)) => events.push(RoomEvent::Host { seat: next }),
                None => events.push(RoomEvent::Closed { reason: "everyone left" }),
            }
        }
        Ok(())
    }

    fn draw(&self, seat: usize, command: &Command, now: i64, events: &mut Vec<RoomEvent>) -> Result<(), RoomError> {
        self.require(Status::Playing, "a draw")?;
        if !crate::catalogue::offers(&self.settings.game, Ending::DrawOffer) {
            return Err(conflict("not_allowed", format!("{} has no draw by agreement", self.settings.game)));
        }
        let side = self.template.side_of_seat(seat);
        let offer = self.draw_offer;
        let from_other = offer.is_some_and(|o| self.template.side_of_seat(o) != side);
        match command {
            Command::DrawOffer {} if offer == Some(seat) => {
                return Err(conflict("duplicate", "your draw offer is already open"));
            }
            Command::DrawOffer {} if !from_other => events.push(RoomEvent::DrawOffer { seat }),
            Command::DrawOffer {} | Command::DrawAccept {} if from_other => {
                let by = offer.unwrap_or(seat);
                let change = self.live()?.end_by_person(
                    &self.player_of(by),
                    EndReason::DrawAgreed,
                    Some(&self.seats[by].name),
                    now,
                )?;
                events.push(RoomEvent::Game { change: Box::new(change) });
            }
            Command::DrawDecline {} if from_other => events.push(RoomEvent::DrawDeclined { seat }),
            _ => return Err(conflict("no_offer", "there is no draw offer from the other side to answer")),
        }
        Ok(())
    }

    /// What the timer does at `now`: in the lobby, the host role passes from an away host to the
    /// earliest-joined connected player after the grace period; in a game, a seat whose turn
    /// timer ran out has its turn played by the computer.
    ///
    /// # Errors
    /// The computer's turn could not be played (an engine or bot failure).
    pub fn tick(&self, now: i64) -> Result<Vec<RoomEvent>, RoomError> {
        let mut events = Vec::new();
        if let Some(since) = self.host_away_since()
            && now - since >= self.settings.grace_ms
            && let Some(next) = self.host_successor()
        {
            events.push(RoomEvent::Host { seat: next });
        }
        if let Some(deadline) = self.deadline
            && now >= deadline
            && let Some(live) = &self.game
            && let Some(seat) = LiveGame::acting(&live.core)
        {
            let change = live.bot_turn("normal", now)?;
            events.push(RoomEvent::Timeout { seat });
            events.push(RoomEvent::Game { change: Box::new(change) });
        }
        Ok(events)
    }

    /// When the timer has something to do next (ms since the epoch): the turn timer's deadline,
    /// or the lobby host's hand-over once a person is there to take the role; `None` when
    /// nothing is due.
    pub fn next_due(&self) -> Option<i64> {
        let hand_over =
            self.host_away_since().filter(|_| self.host_successor().is_some()).map(|t| t + self.settings.grace_ms);
        [self.deadline, hand_over].into_iter().flatten().min()
    }

    /// In the lobby, since when the host has been away.
    fn host_away_since(&self) -> Option<i64> {
        if self.status != Status::Lobby {
            return None;
        }
        self.host.and_then(|h| self.human(h)).filter(|h| !h.connected).and_then(|h| h.away_since)
    }

    /// Who takes the host role from an away host: the earliest-joined connected player.
    fn host_successor(&self) -> Option<usize> {
        self.humans().filter(|(i, h)| Some(*i) != self.host && h.connected).min_by_key(|(_, h)| h.order).map(|(i, _)| i)
    }

    // ---------------------------------------------------------------- applying

    /// Takes an event (stored first where it must be); returns what the clients hear of it, in
    /// order.
    pub fn apply(&mut self, event: RoomEvent, now: i64) -> Vec<Announce> {
        let name = |state: &RoomState, seat: usize| state.seats[seat].name.clone();
        // What the stored document holds besides seats, host and games, which the other
        // events change.
        let kept = (self.status, self.draw_offer);
        self.dirty |= !matches!(
            event,
            RoomEvent::Heard { .. } | RoomEvent::Presence { .. } | RoomEvent::Timeout { .. } | RoomEvent::Game { .. }
        );
        let announce = match event {
            RoomEvent::Heard { seat, id } => {
                if let Some(h) = self.human_mut(seat) {
                    h.ids.push_back(id);
                    if h.ids.len() > 64 {
                        h.ids.pop_front();
                    }
                }
                return Vec::new();
            }
            RoomEvent::Joined { seat, player, nickname, token_hash, at } => {
                // The host is 0, then 2, 3, … (the stored `joins` counts the host as 1).
                self.joins += 1;
                let order = if self.joins == 1 { 0 } else { self.joins };
                self.seats[seat].occupant = Occupant::Human(Box::new(Human {
                    player,
                    nickname: nickname.clone(),
                    token_hash,
                    ready: false,
                    connected: false,
                    away_since: Some(at),
                    cpu: None,
                    rematch: false,
                    order,
                    ids: VecDeque::new(),
                }));
                json!({"type": "joined", "seat": name(self, seat), "nickname": nickname})
            }
            RoomEvent::Host { seat } => {
                self.host = Some(seat);
                json!({"type": "host", "seat": name(self, seat)})
            }
            RoomEvent::Seat { from, to } => {
                let occupant = std::mem::replace(&mut self.seats[from].occupant, Occupant::Open);
                self.seats[to].occupant = occupant;
                if self.host == Some(from) {
                    self.host = Some(to);
                }
                json!({"type": "seat", "from": name(self, from), "to": name(self, to)})
            }
            RoomEvent::Ready { seat, ready } => {
                if let Some(h) = self.human_mut(seat) {
                    h.ready = ready;
                }
                json!({"type": "ready", "seat": name(self, seat), "ready": ready})
            }
            RoomEvent::Cpu { seat, level } => {
                self.seats[seat].occupant = level.clone().map_or(Occupant::Open, Occupant::Cpu);
                json!({"type": "cpu", "seat": name(self, seat), "level": level})
            }
            RoomEvent::Left { seat } => {
                self.seats[seat].occupant = Occupant::Open;
                json!({"type": "left", "seat": name(self, seat)})
            }
            RoomEvent::Lobby => {
                self.back_to_lobby();
                json!({"type": "lobby"})
            }
            RoomEvent::NextRound { seat } => {
                self.back_to_lobby();
                json!({"type": "next_round", "seat": name(self, seat)})
            }
            RoomEvent::Skins { seat, skins } => {
                let body = json!({"type": "skin", "seat": name(self, seat), "skins": skins});
                self.skins = Some(skins);
                body
            }
            RoomEvent::Closed { reason } => {
                self.closed = true;
                json!({"type": "closed", "reason": reason})
            }
            RoomEvent::Chat { seat, text } => {
                let nickname = self.human(seat).map(|h| h.nickname.clone()).unwrap_or_default();
                let line = ChatLine { seat: name(self, seat), nickname, text, at: now };
                let event = line.event();
                // Kept, and stored before anyone hears it, so a restart does not lose it.
                self.chat.push_back(line);
                while self.chat.len() > KEPT_CHAT {
                    self.chat.pop_front();
                }
                event
            }
            RoomEvent::Presence { seat, connected, at } => {
                if let Some(h) = self.human_mut(seat) {
                    h.connected = connected;
                    h.away_since = if connected { None } else { Some(at) };
                }
                json!({"type": "presence", "seat": name(self, seat), "connected": connected})
            }
            RoomEvent::Returned { seat } => {
                if let Some(h) = self.human_mut(seat) {
                    h.cpu = None;
                }
                if let Some(live) = &mut self.game
                    && let Some(s) = live.seats.get_mut(seat)
                {
                    s.kind = SeatKind::Human;
                    s.level = None;
                }
                self.rearm(now);
                json!({"type": "returned", "seat": name(self, seat)})
            }
            RoomEvent::CpuPlaying { seat, level } => {
                if let Some(h) = self.human_mut(seat) {
                    h.cpu = Some(level.clone());
                }
                if let Some(live) = &mut self.game
                    && let Some(s) = live.seats.get_mut(seat)
                {
                    s.kind = SeatKind::Cpu;
                    s.level = Some(level.clone());
                }
                self.draw_offer = None;
                self.rearm(now);
                json!({"type": "cpu_playing", "seat": name(self, seat), "level": level})
            }
            RoomEvent::DrawOffer { seat } => {
                self.draw_offer = Some(seat);
                json!({"type": "draw_offer", "seat": name(self, seat)})
            }
            RoomEvent::DrawDeclined { seat } => {
                self.draw_offer = None;
                json!({"type": "draw_declined", "seat": name(self, seat)})
            }
            RoomEvent::Rematch { seat } => {
                if let Some(h) = self.human_mut(seat) {
                    h.rematch = true;
                }
                json!({"type": "rematch", "seat": name(self, seat)})
            }
            RoomEvent::Timeout { seat } => {
                self.deadline = None;
                json!({"type": "timeout", "seat": name(self, seat)})
            }
            RoomEvent::Started { game } => {
                let index = self.games.len();
                let game_id = game.id.clone();
                self.games.push(game_id.clone());
                for s in &mut self.seats {
                    if let Occupant::Human(h) = &mut s.occupant {
                        h.ready = false;
                        h.rematch = false;
                        h.cpu = None;
                    }
                }
                self.status = if game.core.ended() { Status::Finished } else { Status::Playing };
                self.draw_offer = None;
                self.game = Some(*game);
                self.rearm(now);
                // The room event, then the game's first entries (what the computer and the dice
                // did before a person must act) as `action` events.
                return vec![
                    Announce::Room(json!({"type": "started", "game_id": game_id, "index": index})),
                    Announce::Entries(0),
                ];
            }
            RoomEvent::Game { change } => {
                let Some(live) = self.game.as_mut() else { return Vec::new() };
                let from = live.log.len();
                live.commit(*change);
                if live.core.ended() {
                    self.status = Status::Finished;
                }
                self.draw_offer = None;
                self.rearm(now);
                self.dirty |= (self.status, self.draw_offer) != kept;
                return vec![Announce::Entries(from)];
            }
        };
        vec![Announce::Room(announce)]
    }

    /// Back in the lobby after a game: seats, teams and skins stay, everyone readies again.
    fn back_to_lobby(&mut self) {
        self.status = Status::Lobby;
        self.deadline = None;
        for s in &mut self.seats {
            if let Occupant::Human(h) = &mut s.occupant {
                h.ready = false;
                h.rematch = false;
            }
        }
    }

    /// The turn timer of a rebuilt room (after a restart, or on the node that took the room
    /// over): the turn keeps the time it started with, counted from the game's last change,
    /// so a node's death neither lengthens nor resets it — but a person who was waiting is
    /// given at least [`RESUME_FLOOR_MS`] (the minimum turn) to act once they are back.
    fn resume_timer(&mut self, now: i64) {
        // The turn began with the game's last change (its creation when nothing happened yet).
        let started = self.game.as_ref().map_or(now, |g| g.log.last().map_or(g.created, |e| e.at).min(now));
        self.rearm(started);
        if let Some(deadline) = self.deadline {
            self.deadline = Some(deadline.max(now + RESUME_FLOOR_MS));
        }
    }

    /// Sets the turn timer's deadline for the seat to act (a person's, with the timer on).
    fn rearm(&mut self, now: i64) {
        self.deadline = None;
        let (Some(seconds), Some(live), Status::Playing) = (self.settings.turn_seconds, &self.game, self.status) else {
            return;
        };
        if live.awaited_seat().is_some() {
            self.deadline = Some(now + i64::try_from(seconds * 1000).unwrap_or(i64::MAX));
        }
    }
}

/// The least time a rebuilt room's turn timer leaves the person to act (5 s, the shortest
/// turn a room may set).
pub const RESUME_FLOOR_MS: i64 = 5_000;

/// The room snapshot's fields in their documented order (`docs/api.md`, "Room snapshot").
#[derive(Serialize)]
pub struct SnapshotRef<'a> {
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
    skins: Option<&'a SkinChoice>,
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
                map.serialize_entry("connected", &h.connected)?;
                map.serialize_entry("away_since", &h.away_since)?;
                map.serialize_entry("cpu_playing", &h.cpu)?;
                map.serialize_entry("rematch", &h.rematch)?;
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    //! The room's rules, decided and applied without a socket, a clock or a database: the
    //! expected answers are those of `docs/api.md` ("Rooms": lobby, commands, errors, timer).

    use super::*;

    const NOW: i64 = 1_000_000;
    const GRACE: i64 = 30_000;

    fn settings(turn_seconds: Option<u64>) -> Settings {
        Settings {
            code: "ABCDEF".into(),
            game: "ur".into(),
            rules: json!({"pieces": 2}),
            players: None,
            public: true,
            turn_seconds,
            created: NOW,
            grace_ms: GRACE,
            chat_chars: 200,
        }
    }

    fn fresh() -> Context {
        Context { now: NOW, fresh: Some(Fresh { game_id: "00000000000000aa".into(), seed: Seed([7; 32]) }) }
    }

    fn at(now: i64) -> Context {
        Context { now, fresh: None }
    }

    /// Applies `events`, returning the room events' types (and `entries` for game entries).
    fn take(room: &mut RoomState, events: Vec<RoomEvent>) -> Vec<String> {
        events
            .into_iter()
            .flat_map(|e| room.apply(e, NOW))
            .map(|a| match a {
                Announce::Room(body) => body["type"].as_str().unwrap_or_default().to_owned(),
                Announce::Entries(from) => format!("entries from {from}"),
            })
            .collect()
    }

    /// A room of Ur whose host (player `h`) holds light; with `guest`, player `g` holds dark.
    fn room(turn_seconds: Option<u64>, guest: bool) -> RoomState {
        let (mut room, events) =
            RoomState::new(settings(turn_seconds), &HashMap::new(), (0, "h".into(), "Host".into(), token_hash("th")))
                .expect("a room");
        assert_eq!(take(&mut room, events), ["joined", "host"]);
        if guest {
            let events = room.join("g", "Guest", None, token_hash("tg"), NOW).expect("the guest joins");
            assert_eq!(take(&mut room, events), ["joined"]);
        }
        room
    }

    fn code(result: Result<Vec<RoomEvent>, RoomError>) -> &'static str {
        match result {
            Ok(_) => "ok",
            Err(e) => e.code,
        }
    }

    /// Host and guest connected, the guest ready, the game started.
    fn playing(turn_seconds: Option<u64>) -> RoomState {
        let mut room = room(turn_seconds, true);
        for seat in [0, 1] {
            let events = room.presence(seat, true, NOW);
            take(&mut room, events);
        }
        let events = room.handle(1, None, &Command::Ready { ready: true }, &at(NOW)).expect("ready");
        take(&mut room, events);
        let events = room.handle(0, None, &Command::Start { fill_cpu: None }, &fresh()).expect("start");
        assert_eq!(take(&mut room, events), ["started", "entries from 0"]);
        room
    }

    #[test]
    fn joining_takes_the_first_open_seat_once_per_player() {
        let room = room(None, true);
        assert_eq!(room.seats[1].name, "dark");
        assert!(matches!(&room.seats[1].occupant, Occupant::Human(h) if h.player == "g" && h.nickname == "Guest"));
        assert_eq!(room.seat_of_token(&token_hash("tg")), Some(1));
        assert_eq!(room.seat_of_token(&token_hash("other")), None);
        assert_eq!(code(room.join("g", "Again", None, token_hash("x"), NOW)), "already_seated");
        assert_eq!(code(room.join("z", "Z", Some("dark"), token_hash("x"), NOW)), "seat_taken");
        assert_eq!(code(room.join("z", "Z", Some("north"), token_hash("x"), NOW)), "bad_seat");
        assert_eq!(code(room.join("z", "Z", None, token_hash("x"), NOW)), "room_full");
        // The public listing is gone once no seat is open.
        assert!(room.listing().is_none());
    }

    #[test]
    fn only_the_host_starts_with_every_seat_filled_and_everyone_ready() {
        let mut room = room(None, false);
        let start = Command::Start { fill_cpu: None };
        assert_eq!(code(room.handle(0, None, &start, &fresh())), "seats_open");
        let events = room.join("g", "Guest", None, token_hash("tg"), NOW).expect("joins");
        take(&mut room, events);
        assert_eq!(code(room.handle(1, None, &start, &fresh())), "not_host");
        assert_eq!(code(room.handle(0, None, &start, &fresh())), "not_ready");
        let ready = Command::Ready { ready: true };
        let events = room.handle(1, None, &ready, &at(NOW)).expect("ready");
        assert_eq!(take(&mut room, events), ["ready"]);
        assert_eq!(code(room.handle(1, None, &ready, &at(NOW))), "duplicate");
        // A refusal changes nothing: the room is still in its lobby.
        assert_eq!(room.status, Status::Lobby);
        let events = room.handle(0, None, &start, &fresh()).expect("start");
        assert_eq!(take(&mut room, events), ["started", "entries from 0"]);
        assert_eq!(room.status, Status::Playing);
        let live = room.game.as_ref().expect("a game");
        assert_eq!(live.mode, "room");
        assert_eq!(live.seats.iter().map(|s| s.player.as_deref()).collect::<Vec<_>>(), [Some("h"), Some("g")]);
        // Ur: light's first roll waits for light's player (docs/api.md, "State").
        assert_eq!(live.awaited_seat(), Some(0));
        assert_eq!(room.games, ["00000000000000aa"]);
        // Ready flags are reset for the next lobby.
        assert!(room.humans().all(|(_, h)| !h.ready));
    }

    #[test]
    fn fill_cpu_gives_open_seats_to_the_computer_before_the_game() {
        let mut room = room(None, false);
        let events = room.handle(0, None, &Command::Start { fill_cpu: Some("easy".into()) }, &fresh()).expect("start");
        let types = take(&mut room, events);
        assert_eq!(types[..2], ["cpu", "started"]);
        assert!(matches!(&room.seats[1].occupant, Occupant::Cpu(level) if level == "easy"));
        assert_eq!(room.game.as_ref().expect("a game").seats[1].level.as_deref(), Some("easy"));
        let bad = room.handle(0, None, &Command::Start { fill_cpu: Some("genius".into()) }, &fresh());
        assert_eq!(code(bad), "wrong_phase");
    }

    /// A room's commands run in place unless the computer may search (`docs/bots.md`: Ur's
    /// `hard` takes milliseconds a decision, `easy` microseconds).
    #[test]
    fn a_room_hands_the_worker_over_only_for_a_searching_computer() {
        let people = playing(None);
        assert!(!people.computer_thinks(None), "two people");
        let hand = |level: &str| Command::HandToCpu { seat: "dark".into(), level: Some(level.into()) };
        assert!(!people.computer_thinks(Some(&hand("easy"))));
        assert!(!people.computer_thinks(Some(&Command::HandToCpu { seat: "dark".into(), level: None })), "normal");
        assert!(people.computer_thinks(Some(&hand("hard"))), "the computer plays the handed seat at once");
        let mut lobby = room(None, false);
        assert!(!lobby.computer_thinks(None), "nobody at the computer");
        let fill = |level: &str| Command::Start { fill_cpu: Some(level.into()) };
        assert!(!lobby.computer_thinks(Some(&fill("normal"))));
        assert!(lobby.computer_thinks(Some(&fill("hard"))), "the computer may open the game");
        let cpu = |level: &str| Command::Cpu { seat: "dark".into(), level: Some(level.into()) };
        let events = lobby.handle(0, None, &cpu("easy"), &at(NOW)).expect("a computer seat");
        take(&mut lobby, events);
        assert!(!lobby.computer_thinks(None), "easy does not search");
        let events = lobby.handle(0, None, &Command::Start { fill_cpu: None }, &fresh()).expect("start");
        take(&mut lobby, events);
        assert!(!lobby.computer_thinks(None), "easy does not search");
        let mut lobby = room(None, false);
        let events = lobby.handle(0, None, &cpu("hard"), &at(NOW)).expect("a computer seat");
        take(&mut lobby, events);
        assert!(lobby.computer_thinks(None), "a hard seat for the next game");
        let events = lobby.handle(0, None, &Command::Start { fill_cpu: None }, &fresh()).expect("start");
        take(&mut lobby, events);
        assert!(lobby.computer_thinks(None), "hard searches");
    }

    #[test]
    fn a_repeated_message_id_is_a_duplicate_but_a_refused_one_is_not_remembered() {
        let mut room = room(None, true);
        let ready = Command::Ready { ready: true };
        // Refused (the guest is not ready yet): the id is not recorded.
        let not_ready = Command::Ready { ready: false };
        assert_eq!(code(room.handle(1, Some("\"a\""), &not_ready, &at(NOW))), "duplicate");
        let events = room.handle(1, Some("\"a\""), &ready, &at(NOW)).expect("the id is new");
        take(&mut room, events);
        assert_eq!(code(room.handle(1, Some("\"a\""), &not_ready, &at(NOW))), "duplicate");
        assert_eq!(code(room.handle(1, Some("\"b\""), &not_ready, &at(NOW))), "ok");
    }

    #[test]
    fn a_draw_is_offered_declined_and_accepted_between_the_sides() {
        let mut room = playing(None);
        let offer = Command::DrawOffer {};
        let events = room.handle(0, None, &offer, &at(NOW)).expect("offer");
        assert_eq!(take(&mut room, events), ["draw_offer"]);
        assert_eq!(code(room.handle(0, None, &offer, &at(NOW))), "duplicate");
        assert_eq!(code(room.handle(0, None, &Command::DrawAccept {}, &at(NOW))), "no_offer");
        let events = room.handle(1, None, &Command::DrawDecline {}, &at(NOW)).expect("decline");
        assert_eq!(take(&mut room, events), ["draw_declined"]);
        assert_eq!(room.draw_offer, None);
        let events = room.handle(1, None, &offer, &at(NOW)).expect("offer");
        take(&mut room, events);
        // An offer from the other side is accepted by offering too: the game's log (empty:
        // light's first roll waits for light) gets its end.
        let events = room.handle(0, None, &offer, &at(NOW)).expect("accept");
        assert_eq!(take(&mut room, events), ["entries from 0"]);
        assert_eq!(room.status, Status::Finished);
        let live = room.game.as_ref().expect("the game");
        assert_eq!(
            live.outcomes(&live.core),
            [("h".to_owned(), "drawn".to_owned()), ("g".to_owned(), "drawn".to_owned())]
        );
    }

    #[test]
    fn leaving_after_a_game_returns_to_the_lobby_and_the_last_to_leave_closes_the_room() {
        let mut room = playing(None);
        assert_eq!(code(room.handle(1, None, &Command::Leave {}, &at(NOW))), "wrong_phase");
        let events = room.handle(1, None, &Command::Resign {}, &at(NOW)).expect("resign");
        take(&mut room, events);
        assert_eq!(room.status, Status::Finished);
        // The host leaves: back to the lobby, the guest is host.
        let events = room.handle(0, None, &Command::Leave {}, &at(NOW)).expect("leave");
        assert_eq!(take(&mut room, events), ["left", "lobby", "host"]);
        assert_eq!((room.status, room.host), (Status::Lobby, Some(1)));
        assert!(matches!(room.seats[0].occupant, Occupant::Open));
        let events = room.handle(1, None, &Command::Leave {}, &at(NOW)).expect("leave");
        assert_eq!(take(&mut room, events), ["left", "closed"]);
        assert!(room.closed);
    }

    #[test]
    fn a_rematch_starts_when_every_person_has_asked() {
        let mut room = playing(None);
        let events = room.handle(0, None, &Command::Resign {}, &at(NOW)).expect("resign");
        take(&mut room, events);
        let events = room.handle(0, None, &Command::Rematch {}, &fresh()).expect("rematch");
        assert_eq!(take(&mut room, events), ["rematch"]);
        assert_eq!(code(room.handle(0, None, &Command::Rematch {}, &fresh())), "duplicate");
        let mut second = fresh();
        second.fresh = Some(Fresh { game_id: "00000000000000bb".into(), seed: Seed([8; 32]) });
        let events = room.handle(1, None, &Command::Rematch {}, &second).expect("rematch");
        assert_eq!(take(&mut room, events), ["rematch", "started", "entries from 0"]);
        assert_eq!(room.games, ["00000000000000aa", "00000000000000bb"]);
        assert_eq!(room.status, Status::Playing);
    }

    #[test]
    fn the_turn_timer_hands_a_slow_turn_to_the_computer() {
        let mut room = playing(Some(5));
        // The deadline is 5 s after the start, for light's roll.
        assert_eq!(room.deadline, Some(NOW + 5_000));
        assert_eq!(room.next_due(), Some(NOW + 5_000));
        assert!(room.tick(NOW + 4_999).expect("tick").is_empty());
        let events = room.tick(NOW + 5_000).expect("tick");
        let types = take(&mut room, events);
        assert_eq!(types[0], "timeout");
        assert!(types[1].starts_with("entries"), "{types:?}");
        // The computer played light's roll at least.
        assert!(room.game.as_ref().expect("game").version() >= 1);
    }

    #[test]
    fn an_away_host_in_the_lobby_hands_the_role_on_after_the_grace_period() {
        let mut room = room(None, true);
        // Nobody else connected: nothing is due, whatever the time.
        assert_eq!(room.next_due(), None);
        let events = room.presence(1, true, NOW);
        assert_eq!(take(&mut room, events), ["presence"]);
        // The host has been away since the room was made.
        assert_eq!(room.next_due(), Some(NOW + GRACE));
        assert!(room.tick(NOW + GRACE - 1).expect("tick").is_empty());
        let events = room.tick(NOW + GRACE).expect("tick");
        assert_eq!(take(&mut room, events), ["host"]);
        assert_eq!(room.host, Some(1));
    }

    #[test]
    fn the_host_hands_an_away_seat_to_the_computer_after_the_grace_period_and_it_returns() {
        let mut room = playing(None);
        let hand = Command::HandToCpu { seat: "dark".into(), level: Some("easy".into()) };
        assert_eq!(code(room.handle(0, None, &hand, &at(NOW))), "not_away");
        let events = room.presence(1, false, NOW);
        take(&mut room, events);
        assert_eq!(code(room.handle(1, None, &hand, &at(NOW))), "not_host");
        assert_eq!(code(room.handle(0, None, &hand, &at(NOW + GRACE - 1))), "grace_period");
        let events = room.handle(0, None, &hand, &at(NOW + GRACE)).expect("hand over");
        assert_eq!(take(&mut room, events)[0], "cpu_playing");
        assert_eq!(room.game.as_ref().expect("game").seats[1].kind, SeatKind::Cpu);
        assert_eq!(code(room.handle(0, None, &hand, &at(NOW + GRACE))), "duplicate");
        // The player comes back: the seat is theirs again.
        let events = room.presence(1, true, NOW + GRACE + 1);
        assert_eq!(take(&mut room, events), ["presence", "returned"]);
        assert_eq!(room.game.as_ref().expect("game").seats[1].kind, SeatKind::Human);
    }

    #[test]
    fn chat_lines_are_refused_empty_too_long_or_with_hidden_characters() {
        let room = room(None, false);
        let chat = |text: &str| code(room.handle(0, None, &Command::Chat { text: text.into() }, &at(NOW)));
        assert_eq!(chat("  hello  "), "ok");
        assert_eq!(chat("   "), "bad_chat");
        assert_eq!(chat(&"가".repeat(201)), "bad_chat");
        assert_eq!(chat(&"가".repeat(200)), "ok");
        assert_eq!(chat("a\u{7}b"), "bad_chat");
        assert_eq!(chat("abc\u{202E}def"), "bad_chat");
        // A zero-width joiner between two visible characters (an emoji sequence) passes.
        assert_eq!(chat("👩\u{200D}💻"), "ok");
        assert_eq!(chat("\u{200D}x"), "bad_chat");
    }

    /// A room of Yut Nori for two sides: the host (player `h`) holds A, player `g` holds B.
    fn yut_room() -> RoomState {
        let mut settings = settings(None);
        settings.game = "yut".into();
        settings.rules = json!({"pieces": 1});
        let (mut room, events) =
            RoomState::new(settings, &HashMap::new(), (0, "h".into(), "Host".into(), token_hash("th")))
                .expect("a room");
        take(&mut room, events);
        let events = room.join("g", "Guest", None, token_hash("tg"), NOW).expect("the guest joins");
        take(&mut room, events);
        room
    }

    fn skin(colour: Option<&str>, pieces: Option<&str>, board: Option<&str>) -> Command {
        Command::Skin { colour: colour.map(Into::into), pieces: pieces.map(Into::into), board: board.map(Into::into) }
    }

    fn look(room: &RoomState, side: &str) -> (String, String) {
        let s = &room.skins.as_ref().expect("skins").sides[side];
        (s.colour.clone(), s.pieces.clone())
    }

    #[test]
    fn each_side_chooses_its_look_no_two_alike_and_the_host_the_board() {
        let mut room = yut_room();
        // Issue 18 / docs/api.md "Skins": side i starts with the i-th colour and piece set.
        assert_eq!(look(&room, "A"), ("red".into(), "disc".into()));
        assert_eq!(look(&room, "B"), ("blue".into(), "horse".into()));
        assert_eq!(room.skins.as_ref().expect("skins").board, "wood");
        // B may not take A's colour or pieces: refused, nothing changes.
        let before = room.skins.clone();
        let refused = room.handle(1, None, &skin(Some("red"), None, None), &at(NOW));
        assert_eq!(refused.as_ref().err().map(|e| (e.code, e.status)), Some(("skin_taken", StatusCode::CONFLICT)));
        assert_eq!(
            refused.err().map(|e| e.message),
            Some("side A already has the colour red: no two sides alike".into())
        );
        assert_eq!(code(room.handle(1, None, &skin(None, Some("disc"), None), &at(NOW))), "skin_taken");
        assert_eq!(code(room.handle(1, None, &skin(Some("pink"), None, None), &at(NOW))), "bad_skin");
        assert_eq!(code(room.handle(1, None, &skin(None, None, None), &at(NOW))), "bad_skin");
        // Only the host chooses the board.
        assert_eq!(code(room.handle(1, None, &skin(None, None, Some("mat")), &at(NOW))), "not_host");
        assert_eq!(room.skins, before);
        let events = room.handle(1, None, &skin(Some("green"), Some("flower"), None), &at(NOW)).expect("free");
        assert_eq!(take(&mut room, events), ["skin"]);
        assert_eq!(look(&room, "B"), ("green".into(), "flower".into()));
        assert_eq!(code(room.handle(1, None, &skin(Some("green"), None, None), &at(NOW))), "duplicate");
        // Blue is free again: A takes it, and the host sets the board.
        let events = room.handle(0, None, &skin(Some("blue"), None, Some("hanji")), &at(NOW)).expect("host");
        take(&mut room, events);
        assert_eq!(look(&room, "A"), ("blue".into(), "disc".into()));
        assert_eq!(room.skins.as_ref().expect("skins").board, "hanji");
        // Everyone sees the choices in the snapshot; the stored document keeps them.
        let nicknames = room.nicknames();
        let snapshot = serde_json::to_value(room.snapshot(3, &nicknames)).expect("json");
        assert_eq!(snapshot["skins"]["sides"]["B"], json!({"colour": "green", "pieces": "flower"}));
        let saved: Saved = serde_json::from_str(&serde_json::to_string(&room.saved()).expect("json")).expect("back");
        assert_eq!(saved.skins, room.skins);
        // Skins are chosen in the lobby only.
        let events = room.handle(1, None, &Command::Ready { ready: true }, &at(NOW)).expect("ready");
        take(&mut room, events);
        let events = room.handle(0, None, &Command::Start { fill_cpu: None }, &fresh()).expect("start");
        take(&mut room, events);
        assert_eq!(code(room.handle(1, None, &skin(Some("purple"), None, None), &at(NOW))), "wrong_phase");
    }

    #[test]
    fn a_game_without_skins_refuses_a_skin_choice() {
        let room = room(None, true);
        assert!(room.skins.is_none());
        assert_eq!(code(room.handle(1, None, &skin(Some("red"), None, None), &at(NOW))), "bad_skin");
        let nicknames = room.nicknames();
        assert_eq!(serde_json::to_value(room.snapshot(1, &nicknames)).expect("json")["skins"], Value::Null);
    }

    #[test]
    fn the_next_round_keeps_seats_and_skins_and_everyone_readies_again() {
        let mut room = yut_room();
        let events = room.handle(1, None, &skin(Some("black"), Some("tile"), None), &at(NOW)).expect("look");
        take(&mut room, events);
        assert_eq!(code(room.handle(0, None, &Command::NextRound {}, &at(NOW))), "wrong_phase");
        let events = room.handle(1, None, &Command::Ready { ready: true }, &at(NOW)).expect("ready");
        take(&mut room, events);
        let events = room.handle(0, None, &Command::Start { fill_cpu: None }, &fresh()).expect("start");
        take(&mut room, events);
        assert_eq!(code(room.handle(0, None, &Command::NextRound {}, &at(NOW))), "wrong_phase");
        let events = room.handle(1, None, &Command::Resign {}, &at(NOW)).expect("resign");
        take(&mut room, events);
        assert_eq!(room.status, Status::Finished);
        // The guest asks for the next round: the room is back in its lobby, seats and looks kept.
        let events = room.handle(1, None, &Command::NextRound {}, &at(NOW)).expect("next round");
        assert_eq!(take(&mut room, events), ["next_round"]);
        assert_eq!(room.status, Status::Lobby);
        assert!(matches!(&room.seats[1].occupant, Occupant::Human(h) if h.player == "g" && !h.ready));
        assert_eq!(room.host, Some(0));
        assert_eq!(look(&room, "B"), ("black".into(), "tile".into()));
        // The host cannot start before the guest is ready again.
        let mut second = fresh();
        second.fresh = Some(Fresh { game_id: "00000000000000bb".into(), seed: Seed([8; 32]) });
        assert_eq!(code(room.handle(0, None, &Command::Start { fill_cpu: None }, &second)), "not_ready");
        let events = room.handle(1, None, &Command::Ready { ready: true }, &at(NOW)).expect("ready");
        take(&mut room, events);
        let events = room.handle(0, None, &Command::Start { fill_cpu: None }, &second).expect("start");
        assert_eq!(take(&mut room, events), ["started", "entries from 0"]);
        assert_eq!(room.games, ["00000000000000aa", "00000000000000bb"]);
    }

    #[test]
    fn the_state_document_round_trips() {
        let room = playing(None);
        let text = serde_json::to_string(&room.saved()).expect("json");
        let saved: Saved = serde_json::from_str(&text).expect("back");
        let game = room.game.as_ref().map(|g| {
            let actions = LiveGame::action_rows(&g.log);
            LiveGame::load(&g.row(), &actions).expect("reloads")
        });
        let back = RoomState::restore(settings(None), saved, game, NOW).expect("restores");
        assert_eq!(back.status, Status::Playing);
        assert_eq!(back.host, Some(0));
        assert_eq!(back.seat_of_token(&token_hash("tg")), Some(1));
        // Nobody is connected after a restore.
        assert!(back.humans().all(|(_, h)| !h.connected && h.away_since == Some(NOW)));
        assert_eq!(serde_json::to_string(&back.saved()).expect("json"), text);
    }

    #[test]
    fn a_rebuilt_rooms_turn_timer_keeps_the_time_the_turn_started_with() {
        // A 30 s turn timer; light's roll awaited since the start at NOW. Rebuilt 10 s later (a
        // node died and another took the room over), 20 s are left: the deadline stays at
        // NOW + 30 s. Rebuilt 28 s later, the 5 s floor gives NOW + 33 s; 100 s later, NOW + 105 s.
        for (rebuilt, deadline) in [(10_000, NOW + 30_000), (28_000, NOW + 33_000), (100_000, NOW + 105_000)] {
            let room = playing(Some(30));
            assert_eq!(room.deadline, Some(NOW + 30_000), "the timer of the live room");
            let saved: Saved =
                serde_json::from_str(&serde_json::to_string(&room.saved()).expect("json")).expect("back");
            let game =
                room.game.as_ref().map(|g| LiveGame::load(&g.row(), &LiveGame::action_rows(&g.log)).expect("reloads"));
            let back = RoomState::restore(settings(Some(30)), saved, game, NOW + rebuilt).expect("restores");
            assert_eq!(back.deadline, Some(deadline), "rebuilt {rebuilt} ms after the turn began");
        }
    }

    #[test]
    fn a_room_keeps_its_last_chat_lines_across_a_rebuild() {
        let mut room = room(None, true);
        for i in 0..KEPT_CHAT + 10 {
            let events =
                room.handle(0, None, &Command::Chat { text: format!("line {i}") }, &at(NOW + i as i64)).expect("chat");
            take(&mut room, events);
        }
        let saved: Saved = serde_json::from_str(&serde_json::to_string(&room.saved()).expect("json")).expect("back");
        let texts: Vec<String> = saved.chat.iter().map(|l| l.text.clone()).collect();
        assert_eq!(texts, (10..KEPT_CHAT + 10).map(|i| format!("line {i}")).collect::<Vec<_>>());
        let back = RoomState::restore(settings(None), saved, None, NOW + 1_000).expect("restores");
        assert_eq!(back.chat, room.chat);
        // A document stored before chat was kept reads with none.
        let old: Saved =
            serde_json::from_str(r#"{"status":"lobby","host":0,"joins":1,"draw_offer":null,"games":[],"seats":[]}"#)
                .expect("an older document");
        assert!(old.chat.is_empty());
    }

    #[test]
    fn the_stored_document_is_written_again_only_when_it_changes() {
        let mut room = playing(None);
        assert!(room.take_dirty(), "the start changed it");
        assert!(!room.take_dirty());
        let saved = serde_json::to_string(&room.saved()).expect("json");
        // Light's roll: a move changes nothing of the document.
        let roll = Command::Move { action: "roll".into(), version: 0, seat: None };
        let events = room.handle(0, None, &roll, &at(NOW)).expect("the roll");
        take(&mut room, events);
        assert!(!room.take_dirty());
        assert_eq!(serde_json::to_string(&room.saved()).expect("json"), saved);
        // A chat line is kept, stored before anyone hears it.
        let events = room.handle(0, None, &Command::Chat { text: "hi".into() }, &at(NOW)).expect("chat");
        take(&mut room, events);
        assert!(room.take_dirty());
        let saved = serde_json::to_string(&room.saved()).expect("json");
        assert!(
            saved.ends_with(&format!(r#""chat":[{{"seat":"light","nickname":"Host","text":"hi","at":{NOW}}}]}}"#)),
            "{saved}"
        );
        // A draw offer is in the document; resigning ends the game (the status).
        let events = room.handle(1, None, &Command::DrawOffer {}, &at(NOW)).expect("offer");
        take(&mut room, events);
        assert!(room.take_dirty());
        let events = room.handle(1, None, &Command::Resign {}, &at(NOW)).expect("resign");
        take(&mut room, events);
        assert!(room.take_dirty());
        assert_ne!(serde_json::to_string(&room.saved()).expect("json"), saved);
    }
}
