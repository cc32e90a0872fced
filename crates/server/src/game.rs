//! One game as the server holds it: the match, its streams, its seats and its event log, and
//! the commands that change it. Pure code: no I/O, no clock (times are passed in); the caller
//! stores what a command produced before anyone hears of it.

use std::collections::HashMap;

use axum::http::StatusCode;
use madang_core::{Outcome, Turn};
use madang_games::{End, EndReason, Record};
use madang_seed::{CHANCE, Seed, Stream, bot_stream_name};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::catalogue;
use crate::db::{ActionRow, GameRow, GameUpdate};
use crate::error::ApiError;
use crate::live::{LiveMatch, open_live};

/// A gap between two changes longer than this counts as this much time played.
pub const PLAY_GAP_CAP_MS: i64 = 5 * 60 * 1000;

/// The most actions the server plays by itself in one command (a guard; no game comes near).
const MAX_AUTO_ACTIONS: usize = 100_000;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The game's seat name.
    pub name: String,
    /// `human` or `cpu`.
    pub kind: SeatKind,
    /// The CPU level or bot name.
    #[serde(default)]
    pub level: Option<String>,
    /// The player owning a human seat.
    #[serde(default)]
    pub player: Option<String>,
}

/// Human or computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person on the owner's screen.
    Human,
    /// The computer.
    Cpu,
}

/// Who made an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A person.
    Human,
    /// A computer seat.
    Cpu,
    /// The dice (the chance stream).
    Chance,
}

impl Actor {
    fn as_str(self) -> &'static str {
        match self {
            Actor::Human => "human",
            Actor::Cpu => "cpu",
            Actor::Chance => "chance",
        }
    }

    fn parse(text: &str) -> Actor {
        match text {
            "human" => Actor::Human,
            "cpu" => Actor::Cpu,
            _ => Actor::Chance,
        }
    }
}

/// One entry of a game's event log; the game's version is the number of entries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntry {
    /// The version after this entry (1-based).
    pub version: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EntryKind,
    /// When (ms since the epoch).
    pub at: i64,
}

/// An action or an ending.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EntryKind {
    /// An action of the record.
    Action {
        /// 0-based index in the record's `actions`.
        index: usize,
        /// Notation.
        action: String,
        /// The seat that acted: for a roll or throw the seat whose it was (its thrower,
        /// [`madang_core::Game::thrower`]); null for a chance nobody throws.
        seat: Option<String>,
        /// Who.
        by: Actor,
        /// The engine's events.
        events: Vec<madang_games::Event>,
    },
    /// A person ended the game.
    End {
        /// How.
        end: End,
    },
}

/// The part of a game a command changes: applied to a copy and swapped in once stored.
#[derive(Clone)]
pub struct Core {
    /// The match.
    pub game: Box<dyn LiveMatch>,
    /// The `chance` stream.
    pub chance: Stream,
    /// The `bot:SEAT` streams, in seat order.
    pub bots: Vec<Stream>,
    /// An ending by a person.
    pub end: Option<End>,
    /// Number of log entries.
    pub version: u64,
    /// Number of actions applied.
    pub actions: usize,
    /// Time played.
    pub play_ms: i64,
    /// Last change.
    pub updated: i64,
    /// End time.
    pub finished: Option<i64>,
}

impl Core {
    /// Whether the game has ended (by its rules or by a person).
    pub fn ended(&self) -> bool {
        self.end.is_some() || self.game.turn() == Turn::Terminal
    }
}

/// What a person asks to do.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The action in notation.
    pub action: String,
    /// The version the client saw.
    pub version: u64,
    /// The seat that acts (default: the seat to move).
    #[serde(default)]
    pub seat: Option<String>,
}

/// The result of a command: the new core and the new log entries (not yet stored).
pub struct Change {
    /// The core after the command.
    pub core: Core,
    /// The entries it added.
    pub entries: Vec<LogEntry>,
}

/// A game's state (`docs/api.md`, "State"), in the documented order: the engine's view
/// (`madang replay`'s object), then the server's fields.
#[derive(Serialize)]
pub struct StateRef<'a> {
    #[serde(flatten)]
    view: madang_games::View,
    id: &'a str,
    version: u64,
    rules: &'a Value,
    players: Option<usize>,
    mode: &'a str,
    seats: Vec<StateSeat<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    my_seats: Option<Vec<String>>,
    moves: Vec<Value>,
    to_act: Option<&'a str>,
    commitment: &'a str,
    seed: Option<String>,
    end: Option<&'a End>,
    created: i64,
    updated: i64,
    finished: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win_chance: Option<f64>,
    last_chance: Option<&'a str>,
}

/// A seat in [`StateRef`]: name, kind, level, the player's nickname and the side it plays for.
struct StateSeat<'a> {
    seat: &'a Seat,
    nicknames: &'a HashMap<String, String>,
    side: String,
}

impl Serialize for StateSeat<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let s = self.seat;
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("name", &s.name)?;
        map.serialize_entry("kind", &s.kind)?;
        map.serialize_entry("level", &s.level)?;
        map.serialize_entry("nickname", &s.player.as_ref().and_then(|p| self.nicknames.get(p)))?;
        map.serialize_entry("side", &self.side)?;
        map.end()
    }
}

/// Whether the chance node `game` is at is a person's own roll or throw (its thrower is a
/// human seat of `seats`), which waits for their `roll`/`throw` request.
fn person_throws(seats: &[Seat], game: &dyn LiveMatch) -> bool {
    game.thrower().is_some_and(|s| seats.get(s).is_some_and(|seat| seat.kind == SeatKind::Human))
}

/// A game held in memory.
pub struct LiveGame {
    /// Game id.
    pub id: String,
    /// The creating player.
    pub owner: String,
    /// The game's name.
    pub game: String,
    /// Its rules object.
    pub rules: Value,
    /// Its `players`.
    pub players: Option<usize>,
    /// Seats in seat order.
    pub seats: Vec<Seat>,
    /// `computer` or `same_screen`.
    pub mode: String,
    /// CPU level(s).
    pub cpu: Option<String>,
    /// The seed.
    pub seed: Seed,
    /// The seed's commitment (its SHA-256 in hex), worked out once: every state shows it.
    pub commitment: String,
    /// Creation time.
    pub created: i64,
    /// What commands change.
    pub core: Core,
    /// The event log.
    pub log: Vec<LogEntry>,
}

/// A validated creation request.
pub struct NewGame {
    /// Game id.
    pub id: String,
    /// Creator.
    pub owner: String,
    /// Game name.
    pub game: String,
    /// Rules object.
    pub rules: Value,
    /// Players.
    pub players: Option<usize>,
    /// Seats as requested, `None` for human and `Some(level)` for CPU; `None` for the default
    /// (a human seat, then CPU seats at `normal`). An empty list is refused.
    pub seats: Option<Vec<Option<String>>>,
    /// Seed.
    pub seed: Seed,
    /// Now.
    pub now: i64,
}

fn stream_pos(stream: &Stream) -> i64 {
    i64::try_from(stream.get_word_pos()).unwrap_or(i64::MAX)
}

/// The `bot:SEAT` streams' word positions of `core`, in seat order, as a JSON list.
fn bot_positions(core: &Core) -> String {
    let positions: Vec<i64> = core.bots.iter().map(stream_pos).collect();
    serde_json::to_string(&positions).unwrap_or_default()
}

fn rules_error(error: madang_games::RecordError) -> ApiError {
    match error {
        madang_games::RecordError::UnknownGame(_) => ApiError::unprocessable("unknown_game", error.to_string()),
        other => ApiError::unprocessable("bad_rules", other.to_string()),
    }
}

impl NewGame {
    /// Whether a computer seat asked for is played by a bot that searches
    /// ([`madang_bots::Bot::searches`]), so that creating the game (the computer may open it)
    /// goes through `app::compute`. Rules or seats that [`LiveGame::create`] will
    /// refuse say `false`: the refusal is immediate.
    pub fn computer_searches(&self) -> bool {
        let Ok(match_) = open_live(&self.game, &self.rules, self.players) else { return false };
        // Without a seat list the other seats play at `normal` (as `create` fills them).
        self.seats.as_ref().map_or_else(
            || match_.bot_searches("normal"),
            |seats| seats.iter().flatten().any(|level| match_.bot_searches(level)),
        )
    }
}

impl LiveGame {
    /// Builds a new game from a creation request and plays up to the first human decision.
    ///
    /// # Errors
    /// An unknown game, bad rules, bad seats or an unknown CPU level, each named.
    pub fn create(new: NewGame) -> Result<LiveGame, ApiError> {
        let match_ = open_live(&new.game, &new.rules, new.players).map_err(rules_error)?;
        let names = match_.seat_names();
        let seats_requested = new.seats.unwrap_or_else(|| {
            let mut seats = vec![None];
            seats.extend(std::iter::repeat_n(Some("normal".to_owned()), names.len().saturating_sub(1)));
            seats
        });
        if seats_requested.len() != names.len() {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!(
                    "{} with these rules has {} seats ({}), but {} given",
                    new.game,
                    names.len(),
                    names.join(", "),
                    if seats_requested.len() == 1 {
                        "1 was".to_owned()
                    } else {
                        format!("{} were", seats_requested.len())
                    }
                ),
            ));
        }
        if seats_requested.iter().all(Option::is_some) {
            return Err(ApiError::unprocessable("bad_seats", "at least one seat must be {\"kind\": \"human\"}"));
        }
        // What the game offers decides who may sit (its catalogue entry's `modes`): several
        // people at one screen only where it is played on one screen (Ludo's seed seats one
        // person against three computers), computer seats only where it is played against
        // the computer.
        let humans = seats_requested.iter().filter(|s| s.is_none()).count();
        if humans > 1 && !catalogue::playable(&new.game, madang_games::PlayMode::SameScreen) {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!(
                    "{} is not played by several people on one screen: exactly one \
                     seat is {{\"kind\": \"human\"}}, but {humans} were given",
                    new.game
                ),
            ));
        }
        if humans < seats_requested.len() && !catalogue::playable(&new.game, madang_games::PlayMode::Computer) {
            return Err(ApiError::unprocessable(
                "bad_seats",
                format!(
                    "{} is not played against the computer: every seat is \
                     {{\"kind\": \"human\"}}",
                    new.game
                ),
            ));
        }
        let mut seats = Vec::with_capacity(names.len());
        for (name, level) in names.iter().zip(seats_requested) {
            if let Some(level) = &level {
                match_.check_bot(level).map_err(|e| {
                    ApiError::unprocessable("bad_level", format!("seat {name}: {e} (levels: easy, normal, hard)"))
                })?;
            }
            let kind = if level.is_some() { SeatKind::Cpu } else { SeatKind::Human };
            let player = level.is_none().then(|| new.owner.clone());
            seats.push(Seat { name: name.clone(), kind, level, player });
        }
        let mut levels: Vec<String> = seats.iter().filter_map(|s| s.level.clone()).collect();
        levels.sort();
        levels.dedup();
        let (mode, cpu) = if levels.is_empty() { ("same_screen", None) } else { ("computer", Some(levels.join("+"))) };
        let core = Core {
            chance: new.seed.stream(CHANCE),
            bots: names.iter().map(|s| new.seed.stream(&bot_stream_name(s))).collect(),
            game: match_,
            end: None,
            version: 0,
            actions: 0,
            play_ms: 0,
            updated: new.now,
            finished: None,
        };
        let mut live = LiveGame {
            id: new.id,
            owner: new.owner,
            game: new.game,
            rules: new.rules,
            players: new.players,
            seats,
            mode: mode.to_owned(),
            cpu,
            commitment: new.seed.commitment(),
            seed: new.seed,
            created: new.now,
            core,
            log: Vec::new(),
        };
        let mut core = live.core.clone();
        let entries = live.advance(&mut core, new.now)?;
        live.core = core;
        live.log = entries;
        Ok(live)
    }

    /// Rebuilds a stored game: replays its actions and restores its stream positions.
    ///
    /// # Errors
    /// A stored game the engine no longer accepts (an internal error naming it).
    pub fn load(row: &GameRow, actions: &[ActionRow]) -> Result<LiveGame, ApiError> {
        let corrupt = |what: String| ApiError::internal(format!("stored game {} cannot be loaded: {what}", row.id));
        let mut rules: Value = serde_json::from_str(&row.rules).map_err(|e| corrupt(format!("rules: {e}")))?;
        // Stored before a null option was refused (2026-12-07), when it had the option's default.
        if let Value::Object(options) = &mut rules {
            options.retain(|_, value| !value.is_null());
        }
        let players = row.players.map(|p| usize::try_from(p).unwrap_or(0));
        let seats: Vec<Seat> = serde_json::from_str(&row.seats).map_err(|e| corrupt(format!("seats: {e}")))?;
        let seed: Seed = row.seed.parse().map_err(|e| corrupt(format!("seed: {e}")))?;
        let bot_pos: Vec<i64> = serde_json::from_str(&row.bot_pos).map_err(|e| corrupt(format!("bot_pos: {e}")))?;
        let mut game = open_live(&row.game, &rules, players).map_err(|e| corrupt(e.to_string()))?;
        let mut log = Vec::with_capacity(actions.len() + 1);
        for (i, stored) in actions.iter().enumerate() {
            if stored.idx != i as i64 {
                return Err(corrupt(format!("action {i} is missing")));
            }
            let events = game.apply(&stored.action).map_err(|e| corrupt(e.to_string()))?;
            log.push(LogEntry {
                version: i as u64 + 1,
                kind: EntryKind::Action {
                    index: i,
                    action: stored.action.clone(),
                    seat: stored.seat.clone(),
                    by: Actor::parse(&stored.actor),
                    events,
                },
                at: stored.created,
            });
        }
        let end = match (&row.end_reason, &row.end_by) {
            (Some(reason), Some(by)) => {
                let reason: EndReason =
                    serde_json::from_value(json!(reason)).map_err(|e| corrupt(format!("end_reason: {e}")))?;
                let end = End { reason, by: by.clone() };
                log.push(LogEntry {
                    version: log.len() as u64 + 1,
                    kind: EntryKind::End { end: end.clone() },
                    at: row.finished.unwrap_or(row.updated),
                });
                Some(end)
            }
            _ => None,
        };
        if log.len() as i64 != row.version {
            return Err(corrupt(format!("{} log entries stored but version {}", log.len(), row.version)));
        }
        let names = game.seat_names();
        let mut chance = seed.stream(CHANCE);
        chance.set_word_pos(u128::try_from(row.chance_pos).unwrap_or(0));
        let bots = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut stream = seed.stream(&bot_stream_name(name));
                stream.set_word_pos(u128::try_from(bot_pos.get(i).copied().unwrap_or(0)).unwrap_or(0));
                stream
            })
            .collect();
        let version = log.len() as u64;
        Ok(LiveGame {
            id: row.id.clone(),
            owner: row.owner.clone(),
            game: row.game.clone(),
            rules,
            players,
            seats,
            mode: row.mode.clone(),
            cpu: row.cpu.clone(),
            commitment: seed.commitment(),
            seed,
            created: row.created,
            core: Core {
                game,
                chance,
                bots,
                end,
                version,
                actions: actions.len(),
                play_ms: row.play_ms,
                updated: row.updated,
                finished: row.finished,
            },
            log,
        })
    }

    /// The current version.
    pub fn version(&self) -> u64 {
        self.core.version
    }

    /// Plays chance and CPU seats on `core` until a human must act or the game ends.
    fn advance(&self, core: &mut Core, now: i64) -> Result<Vec<LogEntry>, ApiError> {
        self.advance_while(&self.seats, core, now, |_| true)
    }

    /// [`LiveGame::advance`] with `seats` as the game's seats, stopping early before an action
    /// when `keep` says no.
    fn advance_while(
        &self,
        seats: &[Seat],
        core: &mut Core,
        now: i64,
        keep: impl Fn(&dyn LiveMatch) -> bool,
    ) -> Result<Vec<LogEntry>, ApiError> {
        let mut entries = Vec::new();
        for _ in 0..MAX_AUTO_ACTIONS {
            if core.end.is_some() || !keep(core.game.as_ref()) {
                break;
            }
            let (action, seat, by) = match core.game.turn() {
                Turn::Terminal => break,
                // A person's own roll or throw waits for them (seeds 000, 001, 003: the player
                // presses the throw button); the computer's and nobody's are drawn at once.
                Turn::Chance if person_throws(seats, core.game.as_ref()) => break,
                Turn::Chance => {
                    let roller = core.game.thrower().and_then(|s| seats.get(s)).map(|s| s.name.clone());
                    (core.game.draw_chance(&mut core.chance), roller, Actor::Chance)
                }
                Turn::Seat(s) => match seats.get(s) {
                    Some(Seat { kind: SeatKind::Cpu, level: Some(level), name, .. }) => {
                        let action = core
                            .game
                            .bot_action(level, &mut core.bots[s])
                            .map_err(|e| ApiError::internal(format!("game {}: {e}", self.id)))?;
                        (action, Some(name.clone()), Actor::Cpu)
                    }
                    _ => break,
                },
            };
            let Some(action) = action else {
                return Err(ApiError::internal(format!("game {}: nothing to play at {:?}", self.id, core.game.turn())));
            };
            let events = core
                .game
                .apply(&action)
                .map_err(|e| ApiError::internal(format!("game {}: the server's own action failed: {e}", self.id)))?;
            core.version += 1;
            core.actions += 1;
            entries.push(LogEntry {
                version: core.version,
                kind: EntryKind::Action { index: core.actions - 1, action, seat, by, events },
                at: now,
            });
        }
        if core.ended() && core.finished.is_none() {
            core.finished = Some(now);
        }
        Ok(entries)
    }

    /// The seat that acts next in `core`: the seat to move at a decision, the seat that throws
    /// at a chance node (`None` for a chance nobody throws, and once the game has ended).
    pub fn acting(core: &Core) -> Option<usize> {
        if core.ended() {
            return None;
        }
        match core.game.turn() {
            Turn::Seat(s) => Some(s),
            Turn::Chance => core.game.thrower(),
            Turn::Terminal => None,
        }
    }

    /// The seat a person must act for now — their decision, or their own roll or throw that the
    /// server waits for — or `None` when the computer or nobody is to act.
    pub fn awaited_seat(&self) -> Option<usize> {
        Self::acting(&self.core).filter(|&s| self.seats.get(s).is_some_and(|seat| seat.kind == SeatKind::Human))
    }

    fn touch(&self, core: &mut Core, now: i64) {
        core.play_ms += (now - core.updated).clamp(0, PLAY_GAP_CAP_MS);
        core.updated = now;
    }

    fn seat_index(&self, name: &str) -> Result<usize, ApiError> {
        self.seats.iter().position(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
            ApiError::unprocessable(
                "bad_seats",
                format!("no seat {:?} in this game (seats: {})", madang_core::echo(name), names.join(", ")),
            )
        })
    }

    fn check_owner(&self, seat: usize, player: &str) -> Result<(), ApiError> {
        let s = &self.seats[seat];
        match (&s.kind, &s.player) {
            (SeatKind::Cpu, _) => Err(ApiError::forbidden(
                "cpu_seat",
                format!("seat {} is played by the computer ({})", s.name, s.level.as_deref().unwrap_or("cpu")),
            )),
            (SeatKind::Human, Some(owner)) if owner == player => Ok(()),
            _ => Err(ApiError::forbidden("not_your_seat", format!("seat {} belongs to another player", s.name))),
        }
    }

    /// Applies a person's action and everything the computer and the dice do after it.
    ///
    /// # Errors
    /// A stale version, a finished game, a seat the player may not play, an illegal action.
    pub fn play(&self, player: &str, request: &ActionRequest, now: i64) -> Result<Change, ApiError> {
        let version = self.version();
        if request.version != version {
            return Err(ApiError::conflict(
                "stale_version",
                format!("the game is at version {version}, not {}: resynchronise and try again", request.version),
            )
            .with_version(version));
        }
        if self.core.ended() {
            return Err(ApiError::conflict("game_over", "the game has ended").with_version(version));
        }
        let Some(to_move) = self.awaited_seat() else {
            return Err(ApiError::internal(format!(
                "game {} waits for nobody at {:?}",
                self.id,
                self.core.game.turn()
            )));
        };
        let seat = match &request.seat {
            Some(name) => {
                let seat = self.seat_index(name)?;
                self.check_owner(seat, player)?;
                if seat != to_move {
                    return Err(ApiError::conflict(
                        "not_your_turn",
                        format!("it is {}'s turn, not {name}'s", self.seats[to_move].name),
                    )
                    .with_version(version));
                }
                seat
            }
            None => {
                self.check_owner(to_move, player).map_err(|e| match e.code {
                    "not_your_seat" => ApiError::forbidden(
                        "not_your_seat",
                        format!("it is {}'s turn and that seat is not yours", self.seats[to_move].name),
                    ),
                    _ => e,
                })?;
                to_move
            }
        };
        let mut core = self.core.clone();
        self.touch(&mut core, now);
        let entry = if core.game.turn() == Turn::Chance {
            // The person's own roll or throw: they ask for it by the awaited kind's word
            // (`roll`, `throw`), and the server draws the outcome from the committed stream.
            let word = core.game.awaiting().unwrap_or("roll");
            if request.action != word {
                return Err(ApiError::unprocessable(
                    "illegal_action",
                    format!(
                        "it is {}'s {word}: send the action {word:?} and the server draws it (a client never chooses a chance outcome); {:?} is not accepted",
                        self.seats[seat].name,
                        madang_core::echo(&request.action)
                    ),
                )
                .with_version(version));
            }
            let action = core
                .game
                .draw_chance(&mut core.chance)
                .ok_or_else(|| ApiError::internal(format!("game {}: no chance outcome to draw", self.id)))?;
            let events = core
                .game
                .apply(&action)
                .map_err(|e| ApiError::internal(format!("game {}: the server's own draw failed: {e}", self.id)))?;
            EntryKind::Action {
                index: core.actions,
                action,
                seat: Some(self.seats[seat].name.clone()),
                by: Actor::Chance,
                events,
            }
        } else {
            let events = core.game.apply(&request.action).map_err(|e| {
                let legal = self.core.game.legal();
                ApiError::unprocessable("illegal_action", format!("{e} (legal now: {})", legal.join(", ")))
                    .with_version(version)
            })?;
            EntryKind::Action {
                index: core.actions,
                action: request.action.clone(),
                seat: Some(self.seats[seat].name.clone()),
                by: Actor::Human,
                events,
            }
        };
        core.version += 1;
        core.actions += 1;
        let mut entries = vec![LogEntry { version: core.version, kind: entry, at: now }];
        entries.extend(self.advance(&mut core, now)?);
        Ok(Change { core, entries })
    }

    /// Ends the game by a person: `resign` (a loss) or `abandoned` (leaving).
    ///
    /// # Errors
    /// A finished game, an ending the game does not offer, a seat that is not the player's.
    pub fn end_by_person(
        &self,
        player: &str,
        reason: EndReason,
        seat: Option<&str>,
        now: i64,
    ) -> Result<Change, ApiError> {
        let version = self.version();
        if self.core.ended() {
            return Err(ApiError::conflict("game_over", "the game has ended").with_version(version));
        }
        if !catalogue::offers(&self.game, reason.ending()) {
            let message = if reason == EndReason::Resign {
                format!("{} has no resignation: leave instead (counts as played, neither won nor lost)", self.game)
            } else {
                format!("{} cannot end by {}", self.game, reason.as_str())
            };
            return Err(ApiError::conflict("not_allowed", message).with_version(version));
        }
        let seat = match seat {
            Some(name) => {
                let seat = self.seat_index(name)?;
                self.check_owner(seat, player)?;
                seat
            }
            None => {
                let mine = |s: &Seat| s.kind == SeatKind::Human && s.player.as_deref() == Some(player);
                let to_move = match self.core.game.turn() {
                    Turn::Seat(s) if mine(&self.seats[s]) => Some(s),
                    _ => None,
                };
                to_move
                    .or_else(|| self.seats.iter().position(mine))
                    .ok_or_else(|| ApiError::forbidden("not_your_seat", "you hold no seat in this game"))?
            }
        };
        let mut core = self.core.clone();
        self.touch(&mut core, now);
        let end = End { reason, by: self.seats[seat].name.clone() };
        core.end = Some(end.clone());
        core.version += 1;
        core.finished = Some(now);
        Ok(Change { entries: vec![LogEntry { version: core.version, kind: EntryKind::End { end }, at: now }], core })
    }

    /// Plays chance and the computer's seats from the current position until a person must act
    /// (after a seat was handed to the computer in an online room).
    ///
    /// # Errors
    /// A bot or engine failure (internal).
    pub fn auto_play(&self, now: i64) -> Result<Change, ApiError> {
        let mut core = self.core.clone();
        self.touch(&mut core, now);
        let entries = self.advance(&mut core, now)?;
        Ok(Change { core, entries })
    }

    /// [`LiveGame::auto_play`] as it will be once `seat` is the computer's at `level` (an
    /// online room hands an absent player's seat over: the change is worked out before the
    /// hand-over is taken, and both are taken together once stored).
    ///
    /// # Errors
    /// A bot or engine failure (internal).
    pub fn auto_play_as(&self, seat: usize, level: &str, now: i64) -> Result<Change, ApiError> {
        let mut seats = self.seats.clone();
        if let Some(s) = seats.get_mut(seat) {
            s.kind = SeatKind::Cpu;
            s.level = Some(level.to_owned());
        }
        let mut core = self.core.clone();
        self.touch(&mut core, now);
        let entries = self.advance_while(&seats, &mut core, now, |_| true)?;
        Ok(Change { core, entries })
    }

    /// Whether a computer seat is played by a bot that searches ([`madang_bots::Bot::searches`]:
    /// its replies may take milliseconds), so commands go through `app::compute`.
    pub fn computer_searches(&self) -> bool {
        self.seats.iter().any(|s| {
            s.kind == SeatKind::Cpu && s.level.as_deref().is_some_and(|level| self.core.game.bot_searches(level))
        })
    }

    /// The computer (bot `level`) plays the turn of the seat to move — an online room's turn
    /// timer ran out: its decisions and its own rolls (an extra roll after a rosette or a yut is
    /// still this turn) until the turn is another seat's ([`madang_games::Match::mover`]; even
    /// a roll of theirs that passes at once ends it), or the game ends. Chance and CPU seats
    /// then play on as usual; when the turn comes back to this seat, that is a new turn.
    ///
    /// # Errors
    /// No seat to move, or a bot or engine failure.
    pub fn bot_turn(&self, level: &str, now: i64) -> Result<Change, ApiError> {
        let Some(seat) = Self::acting(&self.core) else {
            return Err(ApiError::conflict("game_over", "no seat is to move").with_version(self.version()));
        };
        let mut core = self.core.clone();
        self.touch(&mut core, now);
        let mut entries = Vec::new();
        for _ in 0..MAX_AUTO_ACTIONS {
            if Self::acting(&core) != Some(seat) {
                break;
            }
            let (action, by) = if core.game.turn() == Turn::Chance {
                // The person's own roll, which the timer throws for them.
                (core.game.draw_chance(&mut core.chance), Actor::Chance)
            } else {
                let action = core
                    .game
                    .bot_action(level, &mut core.bots[seat])
                    .map_err(|e| ApiError::internal(format!("game {}: {e}", self.id)))?;
                (action, Actor::Cpu)
            };
            let action =
                action.ok_or_else(|| ApiError::internal(format!("game {}: the bot found nothing to play", self.id)))?;
            let events = core
                .game
                .apply(&action)
                .map_err(|e| ApiError::internal(format!("game {}: the bot's action failed: {e}", self.id)))?;
            core.version += 1;
            core.actions += 1;
            entries.push(LogEntry {
                version: core.version,
                kind: EntryKind::Action {
                    index: core.actions - 1,
                    action,
                    seat: Some(self.seats[seat].name.clone()),
                    by,
                    events,
                },
                at: now,
            });
            // Chance plays on while the turn is this seat's (an extra roll); once it is another
            // seat's (even a roll of theirs that passes at once), the turn was passed on and a
            // return to this seat is a new turn, with a new deadline.
            entries.extend(self.advance_while(&self.seats, &mut core, now, |game| game.mover() == Some(seat))?);
            if core.game.mover() != Some(seat) {
                entries.extend(self.advance(&mut core, now)?);
                break;
            }
        }
        Ok(Change { core, entries })
    }

    /// Takes a stored change.
    pub fn commit(&mut self, change: Change) {
        self.core = change.core;
        self.log.extend(change.entries);
    }

    /// The view's `result` of `core` when ended.
    fn result(&self, core: &Core) -> Option<Value> {
        core.ended().then(|| core.game.view(Vec::new(), core.end.as_ref()).result).flatten()
    }

    /// The player's outcome in `core` once ended: `won`, `lost`, `drawn`, `no_result` or
    /// `played` (the player held every side).
    pub fn outcome_for(&self, core: &Core, player: &str) -> Option<&'static str> {
        if !core.ended() {
            return None;
        }
        let sides = core.game.side_names().len();
        let mut mine: Vec<usize> = self
            .seats
            .iter()
            .enumerate()
            // A seat a person owns, even while the computer plays it for them (online rooms).
            .filter(|(_, s)| s.player.as_deref() == Some(player))
            .map(|(i, _)| core.game.side_of_seat(i))
            .collect();
        mine.sort_unstable();
        mine.dedup();
        let all_sides = mine.len() >= sides;
        let decided = |won: bool| {
            if all_sides {
                "played"
            } else if won {
                "won"
            } else {
                "lost"
            }
        };
        if let Some(end) = &core.end {
            return Some(match end.reason {
                // The resigning seat's side loses; with two sides the other one wins.
                EndReason::Resign => {
                    let by = self.seats.iter().position(|s| s.name == end.by).map(|i| core.game.side_of_seat(i));
                    if all_sides || by.is_none_or(|side| mine.contains(&side)) {
                        decided(false)
                    } else if sides == 2 {
                        "won"
                    } else {
                        "no_result"
                    }
                }
                EndReason::DrawAgreed => "drawn",
                EndReason::Abandoned => "no_result",
            });
        }
        Some(match core.game.outcome()? {
            Outcome::Winner(side) => decided(mine.contains(&side)),
            Outcome::Ranking(order) => decided(order.first().is_some_and(|s| mine.contains(s))),
            Outcome::Draw => "drawn",
            Outcome::NoResult(_) => "no_result",
        })
    }

    /// The participants' outcomes to store once `core` has ended.
    pub fn outcomes(&self, core: &Core) -> Vec<(String, String)> {
        if !core.ended() {
            return Vec::new();
        }
        self.participants().into_iter().filter_map(|p| self.outcome_for(core, &p).map(|o| (p, o.to_owned()))).collect()
    }

    /// What the game gave each participant once `core` has ended, computed from its record:
    /// the log so far and the change's `entries` (progression, `docs/progression.md`). Empty
    /// before the end and for a game that offers no progression.
    pub fn awards(&self, core: &Core, entries: &[LogEntry]) -> Vec<crate::db::games::AwardRow> {
        use madang_games::progression::{Opponent, Play, Step, award};
        if !core.ended() || !crate::catalogue::progression(&self.game) {
            return Vec::new();
        }
        let sides = core.game.side_names();
        let side_of = |i: usize| core.game.side_of_seat(i);
        // Only the kinds an award reads are turned into values (a game's end otherwise parsed
        // every event of the game).
        let kinds = madang_games::progression::read_kinds(&self.game);
        let steps: Vec<Step> = self
            .log
            .iter()
            .chain(entries)
            .filter_map(|entry| match &entry.kind {
                EntryKind::Action { action, seat, events, .. } => Some(Step {
                    seat: seat.clone(),
                    action: action.clone(),
                    events: events.iter().filter(|e| e.has_kind(&kinds)).map(madang_games::Event::value).collect(),
                }),
                EntryKind::End { .. } => None,
            })
            .collect();
        let finished = core.finished.unwrap_or(core.updated);
        let mut rows = Vec::new();
        // One play, its steps shared by every player: only whose view it is changes.
        let mut play = Play {
            game: self.game.clone(),
            rules: self.rules.clone(),
            seats: self.seats.len(),
            mine: Vec::new(),
            opponents: Vec::new(),
            outcome: String::new(),
            resigned: false,
            steps,
        };
        for player in self.participants() {
            let Some(outcome) = self.outcome_for(core, &player) else { continue };
            let held: Vec<usize> =
                (0..self.seats.len()).filter(|&i| self.seats[i].player.as_deref() == Some(player.as_str())).collect();
            let my_sides: Vec<usize> = held.iter().map(|&i| side_of(i)).collect();
            let mut mine: Vec<String> = held.iter().map(|&i| self.seats[i].name.clone()).collect();
            mine.extend(my_sides.iter().filter_map(|&side| sides.get(side).cloned()));
            mine.sort_unstable();
            mine.dedup();
            let opponents = (0..self.seats.len())
                .filter(|&i| !my_sides.contains(&side_of(i)))
                .map(|i| match (&self.seats[i].kind, &self.seats[i].level, &self.seats[i].player) {
                    (_, _, Some(_)) => Opponent::Person,
                    (SeatKind::Cpu, Some(level), None) => Opponent::Computer(level.clone()),
                    _ => Opponent::Person,
                })
                .collect();
            let resigned = core.end.as_ref().is_some_and(|end| {
                end.reason == EndReason::Resign
                    && self.seats.iter().position(|s| s.name == end.by).is_some_and(|i| my_sides.contains(&side_of(i)))
            });
            play.mine = mine;
            play.opponents = opponents;
            outcome.clone_into(&mut play.outcome);
            play.resigned = resigned;
            let award = award(&play);
            if award.xp == 0 {
                continue;
            }
            rows.push(crate::db::games::AwardRow {
                game_id: self.id.clone(),
                player_id: player,
                xp: i64::try_from(award.xp).unwrap_or(i64::MAX),
                coins: i64::try_from(award.coins).unwrap_or(i64::MAX),
                body: serde_json::to_string(&award).unwrap_or_default(),
                finished,
            });
        }
        rows
    }

    /// Every player holding a seat, the owner first.
    pub fn participants(&self) -> Vec<String> {
        let mut players = vec![self.owner.clone()];
        for seat in &self.seats {
            if let Some(p) = &seat.player
                && !players.contains(p)
            {
                players.push(p.clone());
            }
        }
        players
    }

    fn status(core: &Core) -> &'static str {
        if core.ended() { "finished" } else { "ongoing" }
    }

    /// Everything stored of the game as it is created ([`crate::db::Writer::create`]): its row,
    /// players, first actions and, when it ended already, the outcomes.
    pub fn new_rows(&self) -> crate::db::games::NewGameRows {
        crate::db::games::NewGameRows {
            game: self.row(),
            participants: self.participants(),
            actions: Self::action_rows(&self.log),
            outcomes: self.outcomes(&self.core),
            awards: self.awards(&self.core, &[]),
        }
    }

    /// The game row for storage.
    pub fn row(&self) -> GameRow {
        let update = self.update(&self.core);
        GameRow {
            id: self.id.clone(),
            owner: self.owner.clone(),
            game: self.game.clone(),
            rules: self.rules.to_string(),
            players: self.players.map(|p| p as i64),
            seats: serde_json::to_string(&self.seats).unwrap_or_default(),
            mode: self.mode.clone(),
            cpu: self.cpu.clone(),
            seed: self.seed.to_string(),
            commitment: self.commitment.clone(),
            status: update.status,
            result: update.result,
            end_reason: update.end_reason,
            end_by: update.end_by,
            version: update.version,
            chance_pos: update.chance_pos,
            bot_pos: update.bot_pos,
            play_ms: update.play_ms,
            created: self.created,
            updated: update.updated,
            finished: update.finished,
        }
    }

    /// The changing columns for `core`.
    pub fn update(&self, core: &Core) -> GameUpdate {
        GameUpdate {
            status: Self::status(core).to_owned(),
            result: self.result(core).map(|r| r.to_string()),
            end_reason: core
                .end
                .as_ref()
                .and_then(|e| serde_json::to_value(e.reason).ok()?.as_str().map(str::to_owned)),
            end_by: core.end.as_ref().map(|e| e.by.clone()),
            version: core.version as i64,
            chance_pos: stream_pos(&core.chance),
            bot_pos: bot_positions(core),
            play_ms: core.play_ms,
            updated: core.updated,
            finished: core.finished,
        }
    }

    /// What storing `change` (computed on this game) writes: its action rows, the last carrying
    /// the game's stream positions and time played after it ([`LiveGame::change_rows`]), the
    /// game row's columns, and at the end the players' outcomes and awards.
    pub fn commit_of(&self, change: &Change, fence: Option<crate::cluster::Fence>) -> crate::db::Commit {
        crate::db::Commit {
            id: self.id.clone(),
            stored_actions: change.core.actions as i64,
            update: self.update(&change.core),
            actions: Self::change_rows(&change.core, &change.entries),
            outcomes: self.outcomes(&change.core),
            awards: self.awards(&change.core, &change.entries),
            fence,
        }
    }

    /// The action rows of a change's `entries`, the last carrying the stream positions and time
    /// played of `core`, the game after the change (a move stores its action rows only).
    pub fn change_rows(core: &Core, entries: &[LogEntry]) -> Vec<ActionRow> {
        let mut rows = Self::action_rows(entries);
        if let Some(last) = rows.last_mut() {
            last.chance_pos = Some(stream_pos(&core.chance));
            last.bot_pos = Some(bot_positions(core));
            last.play_ms = Some(core.play_ms);
        }
        rows
    }

    /// The action rows of `entries` (without stream positions).
    pub fn action_rows(entries: &[LogEntry]) -> Vec<ActionRow> {
        entries
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::Action { index, action, seat, by, .. } => {
                    Some(ActionRow::new(*index as i64, action.clone(), seat.clone(), by.as_str().to_owned(), e.at))
                }
                EntryKind::End { .. } => None,
            })
            .collect()
    }

    /// The seats this player plays.
    pub fn my_seats(&self, player: &str) -> Vec<String> {
        self.seats
            .iter()
            .filter(|s| s.kind == SeatKind::Human && s.player.as_deref() == Some(player))
            .map(|s| s.name.clone())
            .collect()
    }

    /// The state for `player` (`docs/api.md`, "State"); `nicknames` maps player ids to names.
    pub fn state(&self, player: &str, nicknames: &HashMap<String, String>) -> Value {
        serde_json::to_value(self.state_ref(player, nicknames, true)).unwrap_or(Value::Null)
    }

    /// [`LiveGame::state`] as a value to serialize directly (rooms write it into every
    /// `events` message); without `my_seats` when `with_my_seats` is false. `moves` are the
    /// legal moves annotated when `player` has the seat to move.
    pub fn state_ref<'a>(
        &'a self,
        player: &str,
        nicknames: &'a HashMap<String, String>,
        with_my_seats: bool,
    ) -> StateRef<'a> {
        let core = &self.core;
        // The engine's events of the latest turn: from the last human action on.
        let start =
            self.log.iter().rposition(|e| matches!(e.kind, EntryKind::Action { by: Actor::Human, .. })).unwrap_or(0);
        let events: Vec<madang_games::Event> = self.log[start..]
            .iter()
            .flat_map(|e| match &e.kind {
                EntryKind::Action { events, .. } => events.clone(),
                EntryKind::End { .. } => Vec::new(),
            })
            .collect();
        let view = core.game.view(events, core.end.as_ref());
        let my_seats = self.my_seats(player);
        let acting = self.awaited_seat();
        let moves: Vec<Value> = match (core.game.turn(), acting) {
            // The person's own roll or throw: one move, the awaited kind's word.
            (Turn::Chance, Some(s)) if my_seats.contains(&self.seats[s].name) => {
                let word = core.game.awaiting().unwrap_or("roll");
                vec![json!({"action": word, "seat": self.seats[s].name, "kind": word})]
            }
            (Turn::Seat(s), _) if !core.ended() && my_seats.contains(&self.seats[s].name) => {
                let by_id = catalogue::pieces_by_id(&self.game);
                let mut notes = core.game.annotate(&core.game.legal(), by_id);
                for note in &mut notes {
                    note["seat"] = json!(self.seats[s].name);
                }
                notes
            }
            _ => Vec::new(),
        };
        let ended = core.ended();
        StateRef {
            view,
            id: &self.id,
            version: core.version,
            rules: &self.rules,
            players: self.players,
            mode: &self.mode,
            seats: {
                let sides = core.game.side_names();
                self.seats
                    .iter()
                    .enumerate()
                    .map(|(i, seat)| {
                        let side = sides.get(core.game.side_of_seat(i)).cloned().unwrap_or_else(|| seat.name.clone());
                        StateSeat { seat, nicknames, side }
                    })
                    .collect()
            },
            my_seats: with_my_seats.then_some(my_seats),
            moves,
            to_act: Self::acting(core).map(|s| self.seats[s].name.as_str()),
            commitment: &self.commitment,
            seed: ended.then(|| self.seed.to_string()),
            end: core.end.as_ref(),
            created: self.created,
            updated: core.updated,
            finished: core.finished,
            // Light's (the first seat's) winning chance under perfect play, with a solved table.
            win_chance: core.game.win_chance(),
            last_chance: self.last_chance(usize::MAX),
        }
    }

    /// The log entries after version `from`.
    pub fn entries_since(&self, from: u64) -> &[LogEntry] {
        let from = usize::try_from(from).unwrap_or(usize::MAX).min(self.log.len());
        &self.log[from..]
    }

    /// An `events` message from version `from` to the current one, for `player`.
    pub fn events_message(&self, from: u64, player: &str, nicknames: &HashMap<String, String>) -> Value {
        json!({
            "type": "events",
            "from": from,
            "to": self.version(),
            "events": self.entries_since(from),
            "state": self.state(player, nicknames),
        })
    }

    /// The game record (`docs/api.md`, "Record and replay steps").
    pub fn record(&self, nicknames: &HashMap<String, String>) -> Value {
        let ended = self.core.ended();
        let record = Record {
            game: self.game.clone(),
            rules: self.rules.clone(),
            players: self.players,
            actions: self.core.game.history(),
            seed: ended.then_some(self.seed),
            end: self.core.end.clone(),
        };
        let mut value = serde_json::to_value(&record).unwrap_or(Value::Null);
        let seats: Vec<Value> = self
            .seats
            .iter()
            .map(|s| {
                json!({"name": s.name, "kind": s.kind, "level": s.level,
                       "nickname": s.player.as_ref().and_then(|p| nicknames.get(p))})
            })
            .collect();
        value["id"] = json!(self.id);
        value["commitment"] = json!(self.commitment);
        value["result"] = json!(self.result(&self.core));
        value["seats"] = Value::Array(seats);
        value["created_at"] = json!(self.created);
        value["finished_at"] = json!(self.core.finished);
        value
    }

    /// The replay view after the first `n` actions, with `step`, `steps` and `action`.
    ///
    /// # Errors
    /// `n` beyond the game's actions.
    pub fn step(&self, n: usize) -> Result<Value, ApiError> {
        let history = self.core.game.history();
        if n > history.len() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_step",
                format!("step {n} is beyond this game's {} actions", history.len()),
            ));
        }
        let end = if n == history.len() { self.core.end.clone() } else { None };
        let record = Record {
            game: self.game.clone(),
            rules: self.rules.clone(),
            players: self.players,
            actions: history[..n].to_vec(),
            seed: None,
            end,
        };
        let view = madang_games::replay(&record).map_err(|e| ApiError::internal(e.to_string()))?;
        let mut value = serde_json::to_value(&view).unwrap_or(Value::Null);
        value["step"] = json!(n);
        value["steps"] = json!(history.len());
        value["action"] = json!(n.checked_sub(1).map(|i| history[i].clone()));
        value["last_chance"] = json!(self.last_chance(n));
        value["action_events"] = json!(self.log.iter().find_map(|e| match &e.kind {
            EntryKind::Action { index, events, .. } if n > 0 && *index == n - 1 => Some(events.clone()),
            _ => None,
        }));
        Ok(value)
    }

    /// The latest chance action among the first `n` actions (`roll 3`: the roll a board shows
    /// next to the decision it is for), or `None` when there is none.
    fn last_chance(&self, n: usize) -> Option<&str> {
        self.log.iter().rev().find_map(|e| match &e.kind {
            EntryKind::Action { index, action, by: Actor::Chance, .. } if *index < n => Some(action.as_str()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An Ur game (default rules; light a person, dark the computer) at light's decision after
    /// light rolled `roll`, all pieces in hand, with `seed`'s chance stream.
    fn ur_after_lights_roll(seed: u8, roll: u8) -> LiveGame {
        let mut live = LiveGame::create(NewGame {
            id: "test".to_owned(),
            owner: "p".to_owned(),
            game: "ur".to_owned(),
            rules: json!({}),
            players: None,
            seats: Some(vec![None, Some("easy".to_owned())]),
            seed: Seed([seed; 32]),
            now: 0,
        })
        .expect("an Ur game");
        let mut game = open_live("ur", &json!({}), None).expect("ur opens");
        game.apply(&format!("roll {roll}")).expect("a roll");
        live.core.game = game;
        live
    }

    /// A game stored with a rule option set to null, as the server took them before
    /// 2026-12-07 (the option's default), still loads, with the option left out.
    #[test]
    fn a_stored_null_rule_option_loads_as_its_default() {
        let mut row = ur_after_lights_roll(1, 2).row();
        row.rules = r#"{"preset": null}"#.to_owned();
        let live = LiveGame::load(&row, &[]).expect("it loads");
        assert_eq!(live.row().rules, "{}");
    }

    /// A seed whose next chance draw is `want` (every Ur roll node draws alike).
    fn with_next_roll(roll: u8, want: &str) -> LiveGame {
        let any_roll_node = open_live("ur", &json!({}), None).expect("ur opens");
        (0..=255)
            .map(|seed| ur_after_lights_roll(seed, roll))
            .find(|live| any_roll_node.draw_chance(&mut live.core.chance.clone()).as_deref() == Some(want))
            .expect("a seed among 256 draws it")
    }

    fn actions(change: &Change) -> Vec<(&str, Option<&str>)> {
        change
            .entries
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::Action { action, seat, .. } => Some((action.as_str(), seat.as_deref())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_timers_turn_ends_when_the_other_side_passes_on_a_roll_of_0() {
        // Spec ur.md: with a 1 and every piece in hand light can only enter (`move 0`, to
        // square 1, no rosette); then dark rolls 0, which passes; light's next roll starts the
        // person's next turn: the computer must stop there, and the roll waits for the person.
        let live = with_next_roll(1, "roll 0");
        let change = live.bot_turn("easy", 0).expect("the computer plays");
        let played = actions(&change);
        assert_eq!(played, [("move 0", Some("light")), ("roll 0", Some("dark"))]);
        assert_eq!(change.core.game.turn(), Turn::Chance);
        assert_eq!(LiveGame::acting(&change.core), Some(0), "light's own roll is next");
    }

    fn new_game(game: &str, seats: Vec<Option<String>>, seed: Seed) -> LiveGame {
        LiveGame::create(NewGame {
            id: "test".to_owned(),
            owner: "p".to_owned(),
            game: game.to_owned(),
            rules: json!({}),
            players: None,
            seats: Some(seats),
            seed,
            now: 0,
        })
        .expect("a game")
    }

    /// `docs/bots.md`'s decision times: `hard` in Ur, Yut and Seven Dice Poker takes
    /// milliseconds; `easy` and `normal` (and Ludo's every level) microseconds. Only the former
    /// hand the worker thread over.
    #[test]
    fn only_games_with_a_searching_computer_hand_the_worker_over() {
        let request = |game: &str, seats: Option<Vec<Option<&str>>>| NewGame {
            id: "test".to_owned(),
            owner: "p".to_owned(),
            game: game.to_owned(),
            rules: json!({}),
            players: None,
            seats: seats.map(|seats| seats.into_iter().map(|s| s.map(str::to_owned)).collect()),
            seed: Seed([3; 32]),
            now: 0,
        };
        for (game, level, searches) in [
            ("ur", "easy", false),
            ("ur", "normal", false),
            ("ur", "hard", true),
            ("ur", "expectimax:2", false),
            ("yut", "normal", false),
            ("yut", "expectimax:2", true),
            ("yut", "hard", true),
            ("ludo", "hard", false),
            ("dice-poker", "normal", false),
            ("dice-poker", "hard", true),
        ] {
            let seats = open_live(game, &json!({}), None).expect("opens").seat_names().len();
            let mut levels = vec![None];
            levels.extend(std::iter::repeat_n(Some(level), seats - 1));
            let new = request(game, Some(levels));
            assert_eq!(new.computer_searches(), searches, "{game} {level}: creating");
            let live = LiveGame::create(new).expect("a game");
            assert_eq!(live.computer_searches(), searches, "{game} {level}: playing");
        }
        // Without seats, the computer plays at `normal`; a person alone never searches; bad
        // rules are refused at once.
        assert!(!request("yut", None).computer_searches());
        assert!(!request("ur", Some(vec![None, None])).computer_searches());
        let mut bad = request("ur", Some(vec![None, Some("hard")]));
        bad.rules = json!({"preset": "nonsense"});
        assert!(!bad.computer_searches());
    }

    fn roll(action: &str, version: u64) -> ActionRequest {
        ActionRequest { action: action.to_owned(), version, seat: None }
    }

    #[test]
    fn a_persons_roll_waits_for_their_tap_and_is_drawn_from_the_committed_stream() {
        // Seeds 003 and 004: the person rolls (taps) for themselves; the server draws the
        // outcome from the game's chance stream when asked (spec README, "Seeds and random
        // streams"), and a client can never name it.
        let seed = Seed([7; 32]);
        let live = new_game("ur", vec![None, Some("easy".to_owned())], seed);
        assert_eq!((live.version(), live.core.game.turn()), (0, Turn::Chance), "nothing drawn before the tap");
        assert_eq!(live.awaited_seat(), Some(0));
        let state = live.state("p", &HashMap::new());
        assert_eq!(state["moves"], json!([{"action": "roll", "seat": "light", "kind": "roll"}]));
        assert_eq!((state["to_move"].clone(), state["to_act"].clone()), (json!("chance"), json!("light")));
        assert_eq!(live.play("p", &roll("roll 4", 0), 0).err().map(|e| e.code), Some("illegal_action"));
        assert_eq!(live.play("p", &roll("move 0", 0), 0).err().map(|e| e.code), Some("illegal_action"));
        assert_eq!(live.play("q", &roll("roll", 0), 0).err().map(|e| e.code), Some("not_your_seat"));
        let change = live.play("p", &roll("roll", 0), 0).expect("the person's roll");
        // Ur's four binary dice: 0-4 with weights 1, 4, 6, 4, 1 (spec ur.md).
        let drawn =
            madang_seed::draw_weighted(&mut seed.stream(CHANCE), [1u64, 4, 6, 4, 1].into_iter()).expect("a draw");
        let first = &change.entries[0];
        assert!(
            matches!(&first.kind, EntryKind::Action { action, seat: Some(seat), by: Actor::Chance, .. }
                if *action == format!("roll {drawn}") && seat == "light"),
            "{first:?}"
        );
    }

    #[test]
    fn the_person_throws_their_own_ceremony_throw_and_the_computer_its_own() {
        // Seed 000: each side presses the throw button in the turn-order ceremony; side A (the
        // person) throws first, then the computer's side B at once.
        let live = new_game("yut", vec![None, Some("easy".to_owned())], Seed([3; 32]));
        assert_eq!((live.version(), live.awaited_seat()), (0, Some(0)));
        assert_eq!(live.state("p", &HashMap::new())["moves"][0]["action"], "throw");
        let change = live.play("p", &roll("throw", 0), 0).expect("A's ceremony throw");
        let texts: Vec<String> = change
            .entries
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::Action { events, by: Actor::Chance, .. } => events.first().map(madang_games::Event::text),
                _ => None,
            })
            .collect();
        assert!(texts[0].starts_with("A throws ") && texts[0].contains("in the ceremony"), "{texts:?}");
        // A's nak is thrown again by A, so B's throw comes once A has a result.
        let b = texts.iter().position(|t| t.starts_with("B throws ")).expect("B throws by itself");
        assert!(b >= 1 && texts[..b - 1].iter().all(|t| t.starts_with("A throws nak")), "{texts:?}");
        assert!(texts[b - 1].starts_with("A throws ") && !texts[b - 1].starts_with("A throws nak"), "{texts:?}");
    }

    #[test]
    fn the_timers_turn_includes_a_rosettes_extra_roll() {
        // A 4 enters on square 4, a rosette: light rolls again (a 2 here) and the computer plays
        // that move too, as part of the same turn.
        let live = with_next_roll(4, "roll 2");
        let change = live.bot_turn("easy", 0).expect("the computer plays");
        let played = actions(&change);
        assert_eq!(played[..2], [("move 0", Some("light")), ("roll 2", Some("light"))]);
        assert_eq!(played[2].1, Some("light"), "{played:?}");
        assert!(played[3..].iter().all(|(_, seat)| *seat != Some("light")), "{played:?}");
    }
}
