//! The Royal Game of Ur, as reconstructed by Irving Finkel (the archaeological rules are not
//! known), with the Blitz and Masters presets, as a madang rules engine (spec `ur.md`).
//!
//! Positions are [`UrState`] values; the rules in force are a [`Ur`] value built from
//! [`UrOptions`] (the record's `rules` object). Notation: `roll N` (chance) and `move K`, where
//! `K` is the mover's own path square of the piece to move and `move 0` enters a piece.
//!
//! This crate does no I/O and holds no random generator.

mod board;

use std::fmt;
use std::str::FromStr;

use madang_core::{ChanceTable, EventKind, EventSink, Game, NotationError, Outcome, RulesError, Turn};
use serde::{Deserialize, Serialize};

pub use board::{BoardData, Geometry, MAX_PATH_LEN, PathKind, ROSETTES, Tile, TileData, all_tiles, path_tiles};

/// Seat names in turn order: light always moves first.
pub const SEATS: [&str; 2] = ["light", "dark"];

/// A named set of rule values (spec `ur.md`, "Presets").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 7 pieces, four binary dice, Bell path, no roll for a capture, rosettes safe.
    #[default]
    Finkel,
    /// 5 pieces, four binary dice, Masters path, a capture gives a roll, rosettes not safe.
    Blitz,
    /// 7 pieces, three binary dice with 0 counting as 4, Masters path, rosettes not safe.
    Masters,
}

/// The dice thrown each turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dice {
    /// Four binary (tetrahedral) dice: 0-4 with weights 1, 4, 6, 4, 1 out of 16.
    FourBinary,
    /// Three binary dice where 0 marked tips counts as 4: 1-4 with weights 3, 3, 1, 1 out of 8.
    ThreeBinaryZeroIsFour,
}

impl Dice {
    /// `(roll, weight)` for every possible roll, roll ascending.
    pub fn outcomes(self) -> &'static [(u8, u64)] {
        match self {
            Dice::FourBinary => &[(0, 1), (1, 4), (2, 6), (3, 4), (4, 1)],
            Dice::ThreeBinaryZeroIsFour => &[(1, 3), (2, 3), (3, 1), (4, 1)],
        }
    }

    /// The weight of `roll`, 0 when the dice cannot show it.
    pub fn weight(self, roll: u8) -> u64 {
        // Statics, so the lookup reads them where they are instead of writing them out first.
        static FOUR_BINARY: [u64; 5] = [1, 4, 6, 4, 1];
        static THREE_BINARY: [u64; 4] = [3, 3, 1, 1];
        match (self, roll) {
            (Dice::FourBinary, 0..=4) => FOUR_BINARY[usize::from(roll)],
            (Dice::ThreeBinaryZeroIsFour, 1..=4) => THREE_BINARY[usize::from(roll - 1)],
            _ => 0,
        }
    }
}

/// The `rules` object of an Ur record. Every key is optional; individual keys override the
/// preset's values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UrOptions {
    /// `finkel` (default), `blitz` or `masters`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Pieces per player, 1-7.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<i64>,
    /// A capture earns another roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_extra_roll: Option<bool>,
    /// Rosettes are safe squares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_rosettes: Option<bool>,
    /// `four_binary` or `three_binary_zero_is_four`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Dice>,
    /// `bell` or `masters`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathKind>,
}

/// The rule values in force, after the preset and the individual options are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UrSettings {
    /// Pieces per player, 1-7.
    pub pieces: u8,
    /// A capture earns another roll (one roll even when it lands on a rosette).
    pub capture_extra_roll: bool,
    /// A piece on a rosette cannot be captured. On the Bell path only B4 is shared, so this is
    /// the central rosette's safety.
    pub safe_rosettes: bool,
    /// The dice.
    pub dice: Dice,
    /// The path.
    pub path: PathKind,
}

impl Preset {
    /// The preset's rule values.
    pub fn settings(self) -> UrSettings {
        match self {
            Preset::Finkel => UrSettings {
                pieces: 7,
                capture_extra_roll: false,
                safe_rosettes: true,
                dice: Dice::FourBinary,
                path: PathKind::Bell,
            },
            Preset::Blitz => UrSettings {
                pieces: 5,
                capture_extra_roll: true,
                safe_rosettes: false,
                dice: Dice::FourBinary,
                path: PathKind::Masters,
            },
            Preset::Masters => UrSettings {
                pieces: 7,
                capture_extra_roll: false,
                safe_rosettes: false,
                dice: Dice::ThreeBinaryZeroIsFour,
                path: PathKind::Masters,
            },
        }
    }
}

impl UrOptions {
    /// Combines the preset with the individual options.
    ///
    /// # Errors
    /// `pieces` outside 1-7.
    pub fn settings(&self) -> Result<UrSettings, RulesError> {
        let mut settings = self.preset.unwrap_or_default().settings();
        if let Some(pieces) = self.pieces {
            if !(1..=7).contains(&pieces) {
                return Err(RulesError::new("pieces", format!("must be an integer from 1 to 7, got {pieces}")));
            }
            settings.pieces = pieces as u8;
        }
        if let Some(v) = self.capture_extra_roll {
            settings.capture_extra_roll = v;
        }
        if let Some(v) = self.safe_rosettes {
            settings.safe_rosettes = v;
        }
        if let Some(v) = self.dice {
            settings.dice = v;
        }
        if let Some(v) = self.path {
            settings.path = v;
        }
        Ok(settings)
    }
}

/// A move or a chance outcome. Legal moves are ordered by path square, ascending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UrAction {
    /// `roll N`: the dice show N.
    Roll(u8),
    /// `move K`: move the mover's piece on own path square K (0 = enter a piece from hand).
    Move(u8),
}

impl fmt::Display for UrAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrAction::Roll(n) => write!(f, "roll {n}"),
            UrAction::Move(k) => write!(f, "move {k}"),
        }
    }
}

impl FromStr for UrAction {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match madang_core::word_and_number(text, &["roll", "move"], "`roll N` or `move K`")? {
            (0, n) => UrAction::Roll(n),
            (_, n) => UrAction::Move(n),
        })
    }
}

/// One player's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Side {
    /// Pieces not yet entered (path square 0).
    pub in_hand: u8,
    /// Bit `k` set when a piece stands on own path square `k` (1 ≤ k ≤ path length).
    pub board: u32,
    /// Pieces borne off (scored).
    pub borne_off: u8,
}

/// What the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to move is about to roll (a chance node).
    Roll,
    /// The seat to move rolled this and must move a piece.
    Move {
        /// The roll, 1-4.
        roll: u8,
    },
    /// The game is over.
    Won {
        /// 0 = light, 1 = dark.
        winner: u8,
    },
}

/// A position: both sides' pieces, whose turn it is and what is awaited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrState {
    /// `[light, dark]`.
    pub sides: [Side; 2],
    /// 0 = light, 1 = dark.
    pub to_move: u8,
    /// Roll, move or finished.
    pub phase: Phase,
}

/// Every field packed into two words, so that a search's transposition table hashes a position
/// in two writes (lossless: different positions write different words).
impl std::hash::Hash for UrState {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        let [light, dark] = self.sides;
        let phase: u64 = match self.phase {
            Phase::Roll => 0,
            Phase::Move { roll } => 1 | u64::from(roll) << 2,
            Phase::Won { winner } => 2 | u64::from(winner) << 2,
        };
        hasher.write_u64(u64::from(light.board) | u64::from(dark.board) << 32);
        hasher.write_u64(
            u64::from(light.in_hand)
                | u64::from(dark.in_hand) << 8
                | u64::from(light.borne_off) << 16
                | u64::from(dark.borne_off) << 24
                | u64::from(self.to_move) << 32
                | phase << 40,
        );
    }
}

/// Something an action caused, for `madang replay`'s `events`: one variant per thing that can
/// happen, serialized with its `kind` and its fields (seats by name, squares as numbers on the
/// mover's own path, tiles by name; `docs/ur.md`, "Events").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UrEvent {
    /// A seat rolled.
    Roll {
        /// Seat index (serialized as its name).
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// The roll.
        roll: u8,
    },
    /// A roll of 0 passed the turn.
    PassZero {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
    },
    /// No piece could move the rolled number of squares: the turn passed.
    NoMove {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// The roll.
        roll: u8,
    },
    /// A piece entered the board from the hand.
    Enter {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// Own path square entered on.
        to: u8,
        /// Its tile (serialized by name, `A4`).
        #[serde(serialize_with = "tile_name")]
        tile: Tile,
    },
    /// A piece on the board moved.
    Move {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// Own path square moved from.
        from: u8,
        /// Own path square moved to.
        to: u8,
        /// The destination tile (by name).
        #[serde(serialize_with = "tile_name")]
        tile: Tile,
    },
    /// A piece was borne off the board.
    BearOff {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// Own path square it left from.
        from: u8,
    },
    /// An opponent's piece was captured and returned to its owner's hand.
    Capture {
        /// The capturing seat.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
        /// The seat whose piece was captured.
        #[serde(serialize_with = "seat_name")]
        captured: u8,
        /// Where (by name).
        #[serde(serialize_with = "tile_name")]
        tile: Tile,
    },
    /// Landing on a rosette: the same seat rolls again.
    RosetteRoll {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
    },
    /// A capture with `capture_extra_roll`: the same seat rolls again.
    CaptureRoll {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
    },
    /// The seat has borne off all its pieces and wins.
    Win {
        /// Seat index.
        #[serde(serialize_with = "seat_name")]
        seat: u8,
    },
}

/// Serializes a seat index as its name (`light`, `dark`).
fn seat_name<S: serde::Serializer>(seat: &u8, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(SEATS[usize::from(*seat) % 2])
}

/// Serializes a tile as its name (`B4`).
fn tile_name<S: serde::Serializer>(tile: &Tile, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&tile.name())
}

impl UrEvent {
    /// Every kind of event, with its fields ([`Game::EVENT_KINDS`]).
    pub const KINDS: &'static [EventKind] = &[
        EventKind::new("roll", &["seat", "roll"]),
        EventKind::new("pass_zero", &["seat"]),
        EventKind::new("no_move", &["seat", "roll"]),
        EventKind::new("enter", &["seat", "to", "tile"]),
        EventKind::new("move", &["seat", "from", "to", "tile"]),
        EventKind::new("bear_off", &["seat", "from"]),
        EventKind::new("capture", &["seat", "captured", "tile"]),
        EventKind::new("rosette_roll", &["seat"]),
        EventKind::new("capture_roll", &["seat"]),
        EventKind::new("win", &["seat"]),
    ];
}

impl fmt::Display for UrEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |seat: &u8| SEATS[usize::from(*seat) % 2];
        match self {
            UrEvent::Roll { seat, roll } => write!(f, "{} rolls {roll}", name(seat)),
            UrEvent::PassZero { seat } => write!(f, "{} rolled 0 and passes", name(seat)),
            UrEvent::NoMove { seat, roll } => write!(f, "{} has no legal move with {roll} and passes", name(seat)),
            UrEvent::Enter { seat, to, tile } => write!(f, "{} enters a piece on {to} ({})", name(seat), tile.name()),
            UrEvent::Move { seat, from, to, tile } => write!(f, "{} moves {from} → {to} ({})", name(seat), tile.name()),
            UrEvent::BearOff { seat, from } => write!(f, "{} bears off a piece from {from}", name(seat)),
            UrEvent::Capture { seat, captured, tile } => {
                write!(f, "{} captures {}'s piece on {}", name(seat), name(captured), tile.name())
            }
            UrEvent::RosetteRoll { seat } => write!(f, "{} lands on a rosette and rolls again", name(seat)),
            UrEvent::CaptureRoll { seat } => write!(f, "{} captured and rolls again", name(seat)),
            UrEvent::Win { seat } => write!(f, "{} bears off the last piece and wins", name(seat)),
        }
    }
}

/// Why an action is not legal at a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A move was given where a roll is awaited.
    #[error("{seat} must roll first")]
    RollAwaited {
        /// Seat name.
        seat: &'static str,
    },
    /// A roll was given where a move is awaited.
    #[error("{seat} has rolled {roll} and must move a piece")]
    MoveAwaited {
        /// Seat name.
        seat: &'static str,
        /// The roll being moved.
        roll: u8,
    },
    /// The dice cannot show this number.
    #[error("the dice cannot roll {roll} (possible: {possible})")]
    ImpossibleRoll {
        /// The roll given.
        roll: u8,
        /// The possible rolls, for the message.
        possible: String,
    },
    /// The square is not on the mover's path.
    #[error("path square {square} is not on {seat}'s path (0-{len})")]
    OffPath {
        /// Seat name.
        seat: &'static str,
        /// The square given.
        square: u8,
        /// The path length.
        len: u8,
    },
    /// `move 0` with no piece left in hand.
    #[error("{seat} has no piece in hand")]
    NoPieceInHand {
        /// Seat name.
        seat: &'static str,
    },
    /// No own piece stands on the square.
    #[error("no piece of {seat} on path square {square}")]
    NoPieceOnSquare {
        /// Seat name.
        seat: &'static str,
        /// The square given.
        square: u8,
    },
    /// The roll takes the piece past the end of the path: bearing off needs the exact roll.
    #[error("the piece on {square} needs exactly {needed} to bear off, not {roll}")]
    PastBearOff {
        /// The square of the piece.
        square: u8,
        /// The roll.
        roll: u8,
        /// The exact roll that bears it off.
        needed: u8,
    },
    /// The destination holds a piece of the mover's own colour.
    #[error("{seat} already has a piece on path square {square}")]
    OwnPiece {
        /// Seat name.
        seat: &'static str,
        /// The destination square.
        square: u8,
    },
    /// The destination is a safe rosette held by the opponent.
    #[error("{opponent}'s piece on the rosette {tile} is safe and cannot be captured")]
    SafeRosette {
        /// The opponent's seat name.
        opponent: &'static str,
        /// The tile name.
        tile: String,
    },
}

/// The figures of a finished Ur game: pieces borne off per seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UrFigures {
    /// Pieces borne off, `[light, dark]`.
    pub borne_off: [u8; 2],
}

/// `pieces` in `madang replay`: each seat's sorted own path squares (0 in hand, length + 1
/// borne off).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UrPieces {
    /// Light's pieces.
    pub light: Vec<u8>,
    /// Dark's pieces.
    pub dark: Vec<u8>,
}

/// What a legal move does, for bots and for the web client's highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEffect {
    /// Own path square moved from (0 = from hand).
    pub from: u8,
    /// Own path square moved to (path length + 1 = borne off).
    pub to: u8,
    /// An opponent's piece is captured.
    pub capture: bool,
    /// The piece lands on a rosette (and rolls again).
    pub rosette: bool,
    /// The piece is borne off.
    pub borne_off: bool,
}

/// The rules in force: settings plus the derived geometry tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ur {
    settings: UrSettings,
    geometry: Geometry,
    tiles: [Vec<Tile>; 2],
    /// `guards[seat]`: the opponent's path squares that lie on one of `seat`'s rosettes (the
    /// shared ones), so a piece there makes that rosette a square `seat` cannot land on when
    /// rosettes are safe.
    guards: [u32; 2],
    /// The roll's outcomes ([`Dice::outcomes`] as `roll N` actions), the chance table of every
    /// roll.
    rolls: ChanceTable<UrAction>,
}

/// Why a piece cannot move (see [`UrError`] for each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    OffPath,
    NoPieceInHand,
    NoPieceOnSquare,
    PastBearOff,
    OwnPiece,
    SafeRosette,
}

/// The result of moving one piece, before it is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Landing {
    to: u8,
    capture: bool,
}

impl Ur {
    /// The rules for `settings`.
    pub fn from_settings(settings: UrSettings) -> Ur {
        let geometry = Geometry::new(settings.path);
        let guards = [0, 1].map(|seat: usize| {
            (1..=geometry.len)
                .filter(|&k| geometry.rosettes[seat] & (1 << k) != 0)
                .map(|k| geometry.opponent_square[seat][k as usize])
                .filter(|&square| square != 0)
                .fold(0u32, |bits, square| bits | 1 << square)
        });
        let rolls =
            ChanceTable::new(settings.dice.outcomes().iter().map(|&(roll, w)| (UrAction::Roll(roll), w)).collect());
        Ur { settings, geometry, tiles: [path_tiles(settings.path, 0), path_tiles(settings.path, 1)], guards, rolls }
    }

    /// The rule values in force.
    pub fn settings(&self) -> &UrSettings {
        &self.settings
    }

    /// The geometry tables.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The board as the web client draws it.
    pub fn board_data(&self) -> BoardData {
        let dice = match self.settings.dice {
            Dice::FourBinary => 4,
            Dice::ThreeBinaryZeroIsFour => 3,
        };
        BoardData::new(self.settings.path, self.settings.safe_rosettes, self.settings.pieces, dice)
    }

    /// Path length: 14 (Bell) or 16 (Masters).
    pub fn path_len(&self) -> u8 {
        self.geometry.len
    }

    /// The tile of `seat`'s path square `square` (1 ≤ square ≤ path length).
    pub fn tile(&self, seat: usize, square: u8) -> Option<Tile> {
        self.tiles[seat].get((square as usize).checked_sub(1)?).copied()
    }

    /// Where the piece on `from` lands with `roll`, or why it cannot move (the refusal as a
    /// small value: a random playout checks every move, and the error's text is built only
    /// for a move refused, by [`Ur::refusal_error`]).
    #[inline]
    fn landing(&self, state: &UrState, from: u8, roll: u8) -> Result<Landing, Refusal> {
        let seat = state.to_move as usize;
        let len = self.geometry.len;
        let side = &state.sides[seat];
        if from > len {
            return Err(Refusal::OffPath);
        }
        // Whether the piece is there, without a branch on `from == 0` (a random game's moves
        // enter and move pieces unpredictably). Bit 0 of `board` is never a square.
        let in_hand = (from == 0) & (side.in_hand > 0);
        let on_board = (side.board & !1) & (1 << from) != 0;
        if !(in_hand | on_board) {
            return Err(if from == 0 { Refusal::NoPieceInHand } else { Refusal::NoPieceOnSquare });
        }
        // (Saturating: a position made up outside the rules may carry any roll.)
        let to = from.saturating_add(roll);
        if to > len + 1 {
            return Err(Refusal::PastBearOff);
        }
        if to == len + 1 {
            return Ok(Landing { to, capture: false });
        }
        if side.board & (1 << to) != 0 {
            return Err(Refusal::OwnPiece);
        }
        let opponent_square = self.geometry.opponent_square[seat][usize::from(to)];
        // (Square 0, "not on the opponent's path", is bit 0: never set.)
        let capture = (opponent_square != 0) & (state.sides[1 - seat].board & (1 << opponent_square) != 0);
        // Safety is decided on the destination square (spec pitfall: never on the source).
        if capture & self.settings.safe_rosettes & (self.geometry.rosettes[seat] & (1 << to) != 0) {
            return Err(Refusal::SafeRosette);
        }
        Ok(Landing { to, capture })
    }

    /// The error that says why moving the piece on `from` by `roll` was refused.
    #[cold]
    fn refusal_error(&self, state: &UrState, from: u8, roll: u8, refusal: Refusal) -> UrError {
        let seat = state.to_move as usize;
        let name = SEATS[seat];
        let len = self.geometry.len;
        match refusal {
            Refusal::OffPath => UrError::OffPath { seat: name, square: from, len },
            Refusal::NoPieceInHand => UrError::NoPieceInHand { seat: name },
            Refusal::NoPieceOnSquare => UrError::NoPieceOnSquare { seat: name, square: from },
            Refusal::PastBearOff => UrError::PastBearOff { square: from, roll, needed: len + 1 - from },
            Refusal::OwnPiece => UrError::OwnPiece { seat: name, square: from.saturating_add(roll) },
            Refusal::SafeRosette => {
                let tile = self.tile(seat, from.saturating_add(roll)).map(Tile::name).unwrap_or_default();
                UrError::SafeRosette { opponent: SEATS[1 - seat], tile }
            }
        }
    }

    /// What moving the piece on `from` with the current roll would do, or `None` when that is
    /// not a legal move (or no move is awaited).
    pub fn move_effect(&self, state: &UrState, from: u8) -> Option<MoveEffect> {
        let Phase::Move { roll } = state.phase else { return None };
        let landing = self.landing(state, from, roll).ok()?;
        let seat = state.to_move as usize;
        let borne_off = landing.to == self.geometry.len + 1;
        Some(MoveEffect {
            from,
            to: landing.to,
            capture: landing.capture,
            rosette: !borne_off && self.geometry.rosettes[seat] & (1 << landing.to) != 0,
            borne_off,
        })
    }

    /// Bit `k` set when the piece on path square `k` (bit 0: a piece in hand) can move `roll`.
    ///
    /// Computed with bit operations on the whole side at once; in debug builds it is checked
    /// against the move-by-move rule check that `apply` uses.
    pub fn movable_mask(&self, state: &UrState, roll: u8) -> u32 {
        let seat = state.to_move as usize;
        let side = &state.sides[seat];
        let sources = side.board | u32::from(side.in_hand > 0);
        let on_path_or_off = (1u32 << (self.geometry.len + 2)) - 2;
        // (A roll of 32 or more, in a position made up outside the rules, moves nothing.)
        let mut destinations = sources.checked_shl(u32::from(roll)).unwrap_or(0) & on_path_or_off & !side.board;
        if self.settings.safe_rosettes {
            // Only the opponent's pieces on shared rosettes can guard a destination.
            let mut opponent = state.sides[1 - seat].board & self.guards[seat];
            let mut opponent_here = 0u32;
            while opponent != 0 {
                let square = opponent.trailing_zeros() as usize;
                opponent &= opponent - 1;
                opponent_here |= 1 << self.geometry.opponent_square[1 - seat][square];
            }
            destinations &= !(opponent_here & self.geometry.rosettes[seat]);
        }
        let mask = destinations.checked_shr(u32::from(roll)).unwrap_or(0);
        debug_assert_eq!(mask, self.movable_mask_by_rule(state, roll), "{state:?} roll {roll}");
        mask
    }

    /// [`Ur::movable_mask`] by checking each piece with the rule check `apply` uses.
    fn movable_mask_by_rule(&self, state: &UrState, roll: u8) -> u32 {
        let side = &state.sides[state.to_move as usize];
        let mut sources = side.board | u32::from(side.in_hand > 0);
        let mut mask = 0;
        while sources != 0 {
            let from = sources.trailing_zeros() as u8;
            sources &= sources - 1;
            if self.landing(state, from, roll).is_ok() {
                mask |= 1 << from;
            }
        }
        mask
    }

    fn start_turn(&self, state: &mut UrState, seat: u8) {
        state.to_move = seat;
        state.phase = Phase::Roll;
    }
}

impl Game for Ur {
    type Options = UrOptions;
    type State = UrState;
    type Action = UrAction;
    type Event = UrEvent;
    type Error = UrError;
    type Pieces = UrPieces;
    type Figures = UrFigures;

    const NAME: &'static str = "ur";
    const EVENT_KINDS: &'static [EventKind] = UrEvent::KINDS;

    fn new(options: &UrOptions, players: Option<usize>) -> Result<Self, RulesError> {
        if let Some(players) = players
            && players != 2
        {
            return Err(RulesError::new("players", format!("the Royal Game of Ur is for 2 players, got {players}")));
        }
        Ok(Ur::from_settings(options.settings()?))
    }

    fn seat_names(&self) -> Vec<String> {
        SEATS.iter().map(|s| (*s).to_owned()).collect()
    }

    fn initial_state(&self) -> UrState {
        let side = Side { in_hand: self.settings.pieces, board: 0, borne_off: 0 };
        UrState { sides: [side; 2], to_move: 0, phase: Phase::Roll }
    }

    fn turn(&self, state: &UrState) -> Turn {
        match state.phase {
            Phase::Roll => Turn::Chance,
            Phase::Move { .. } => Turn::Seat(state.to_move as usize),
            Phase::Won { .. } => Turn::Terminal,
        }
    }

    fn mover(&self, state: &UrState) -> Option<usize> {
        match state.phase {
            Phase::Roll | Phase::Move { .. } => Some(state.to_move as usize),
            Phase::Won { .. } => None,
        }
    }

    fn chance_outcomes(&self, state: &UrState, out: &mut Vec<(UrAction, u64)>) {
        out.clear();
        if state.phase == Phase::Roll {
            out.extend_from_slice(self.rolls.outcomes());
        }
    }

    fn chance_table(&self, state: &UrState) -> Option<&ChanceTable<UrAction>> {
        (state.phase == Phase::Roll).then_some(&self.rolls)
    }

    fn legal_actions(&self, state: &UrState, out: &mut Vec<UrAction>) {
        out.clear();
        if let Phase::Move { roll } = state.phase {
            let mut mask = self.movable_mask(state, roll);
            while mask != 0 {
                out.push(UrAction::Move(mask.trailing_zeros() as u8));
                mask &= mask - 1;
            }
        }
    }

    fn apply(
        &self,
        state: &mut UrState,
        action: UrAction,
        events: &mut impl EventSink<UrEvent>,
    ) -> Result<(), UrError> {
        let seat = state.to_move;
        let name = SEATS[seat as usize];
        match (state.phase, action) {
            (Phase::Won { .. }, _) => Err(UrError::GameOver),
            (Phase::Roll, UrAction::Move(_)) => Err(UrError::RollAwaited { seat: name }),
            (Phase::Move { roll }, UrAction::Roll(_)) => Err(UrError::MoveAwaited { seat: name, roll }),
            (Phase::Roll, UrAction::Roll(roll)) => {
                if self.settings.dice.weight(roll) == 0 {
                    let possible = self.settings.dice.outcomes().iter().map(|(r, _)| r.to_string()).collect::<Vec<_>>();
                    return Err(UrError::ImpossibleRoll { roll, possible: possible.join(", ") });
                }
                events.emit(UrEvent::Roll { seat, roll });
                let pass = if roll == 0 {
                    Some(UrEvent::PassZero { seat })
                } else if self.movable_mask(state, roll) == 0 {
                    Some(UrEvent::NoMove { seat, roll })
                } else {
                    None
                };
                match pass {
                    Some(pass) => {
                        events.emit(pass);
                        self.start_turn(state, 1 - seat);
                    }
                    None => state.phase = Phase::Move { roll },
                }
                Ok(())
            }
            (Phase::Move { roll }, UrAction::Move(from)) => {
                let landing = self.landing(state, from, roll).map_err(|r| self.refusal_error(state, from, roll, r))?;
                let len = self.geometry.len;
                let s = seat as usize;
                let side = &mut state.sides[s];
                // Entering or moving, without a branch on which (`from` 0 clears no square).
                side.in_hand -= u8::from(from == 0);
                side.board &= !((1 << from) & !1);
                let tile = self.tile(s, landing.to);
                events.emit(match tile {
                    None => UrEvent::BearOff { seat, from },
                    Some(tile) if from == 0 => UrEvent::Enter { seat, to: landing.to, tile },
                    Some(tile) => UrEvent::Move { seat, from, to: landing.to, tile },
                });
                if landing.to == len + 1 {
                    side.borne_off += 1;
                    if side.borne_off == self.settings.pieces {
                        state.phase = Phase::Won { winner: seat };
                        events.emit(UrEvent::Win { seat });
                        return Ok(());
                    }
                    self.start_turn(state, 1 - seat);
                    return Ok(());
                }
                side.board |= 1 << landing.to;
                if landing.capture {
                    let opponent = &mut state.sides[1 - s];
                    opponent.board &= !(1 << self.geometry.opponent_square[s][landing.to as usize]);
                    opponent.in_hand += 1;
                    if let Some(tile) = tile {
                        events.emit(UrEvent::Capture { seat, captured: 1 - seat, tile });
                    }
                }
                let rosette = self.geometry.rosettes[s] & (1 << landing.to) != 0;
                let again = rosette | (landing.capture & self.settings.capture_extra_roll);
                if again {
                    events.emit(if rosette { UrEvent::RosetteRoll { seat } } else { UrEvent::CaptureRoll { seat } });
                }
                self.start_turn(state, if again { seat } else { 1 - seat });
                Ok(())
            }
        }
    }

    fn awaiting(&self, state: &UrState) -> Option<&'static str> {
        match state.phase {
            Phase::Roll => Some("roll"),
            Phase::Move { .. } => Some("move"),
            Phase::Won { .. } => None,
        }
    }

    fn pieces(&self, state: &UrState) -> UrPieces {
        let list = |side: &Side| {
            let mut squares = vec![0u8; side.in_hand as usize];
            squares.extend((1..=self.geometry.len).filter(|k| side.board & (1 << k) != 0));
            squares.extend(std::iter::repeat_n(self.geometry.len + 1, side.borne_off as usize));
            squares
        };
        UrPieces { light: list(&state.sides[0]), dark: list(&state.sides[1]) }
    }

    fn outcome(&self, state: &UrState) -> Option<Outcome> {
        match state.phase {
            Phase::Won { winner } => Some(Outcome::Winner(winner as usize)),
            _ => None,
        }
    }

    fn figures(&self, state: &UrState) -> UrFigures {
        UrFigures { borne_off: [state.sides[0].borne_off, state.sides[1].borne_off] }
    }
}
