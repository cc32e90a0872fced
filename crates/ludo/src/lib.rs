//! Ludo as the madang seed describes it (spec `ludo.md`): four seats, seat 0 first, a 6 to leave
//! base and a roll again after every 6, the third 6 in a row void, exact finish, no blockades
//! (own stacks block and protect nothing), every enemy piece on a non-safe square captured, no
//! capture bonus, and a 10,000-roll limit that ends a game without a result.
//!
//! Positions are [`LudoState`] values; the rules are a [`Ludo`] value (there are no rule
//! options yet: [`LudoOptions`] is empty). Notation: `roll N` (chance, N in 1-6, weight 1 each)
//! and `move P` (P the piece id 0-3 of the seat to move). A piece's progress is −1 in base,
//! 0 on its start square, 1-50 along the track, 51-55 in its home column, 56 in the goal.
//!
//! What the engine does by itself, without an action, is reported as events: passing when no
//! piece can move (an unusable 6 still rolls again), voiding a third 6, and ending the game at the
//! roll limit.
//!
//! This crate does no I/O and holds no random generator.

mod board;

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use madang_core::{ChanceTable, EventKind, EventSink, Game, NotationError, Outcome, RulesError, Turn, Weight};
use serde::{Deserialize, Serialize};

pub use board::{
    Area, BASE, BoardData, Cell, GOAL, GRID, LAST_TRACK, QUARTER, STAR_SQUARES, START, START_SQUARES, SeatBoard,
    TRACK_LEN, TrackSquare, base_area, is_safe, piece_cell, progress_on, rotate, track_cell, track_square,
};

/// Number of seats (always all four).
pub const SEATS: usize = 4;
/// Pieces per seat.
pub const PIECES: usize = 4;
/// Seat names in turn order: `0` bottom, `1` left, `2` top, `3` right.
pub const SEAT_NAMES: [&str; SEATS] = ["0", "1", "2", "3"];
/// A game ends without a result once this many rolls have been resolved without a winner.
pub const ROLL_LIMIT: u32 = 10_000;
/// The reason given in [`Outcome::NoResult`] at the roll limit.
pub const ROLL_LIMIT_REASON: &str = "roll limit";

/// The `rules` object of a Ludo record. The seed needs no rule options, so it has no keys and
/// any key is an error naming it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LudoOptions {}

/// A move or a chance outcome. Legal moves are ordered by piece id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LudoAction {
    /// `roll N`: the die shows N (1-6).
    Roll(u8),
    /// `move P`: move piece P (0-3) of the seat to move by the roll.
    Move(u8),
}

impl fmt::Display for LudoAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LudoAction::Roll(n) => write!(f, "roll {n}"),
            LudoAction::Move(p) => write!(f, "move {p}"),
        }
    }
}

impl FromStr for LudoAction {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match madang_core::word_and_number(text, &["roll", "move"], "`roll N` or `move P`")? {
            (0, n) => LudoAction::Roll(n),
            (_, n) => LudoAction::Move(n),
        })
    }
}

/// What the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to move is about to roll (a chance node).
    Roll,
    /// The seat to move rolled this and must move a piece (at least one can).
    Move {
        /// The roll, 1-6.
        roll: u8,
    },
    /// A seat has all four pieces in the goal.
    Won {
        /// The winning seat.
        winner: u8,
    },
    /// The 10,000th roll was resolved without a winner.
    RollLimit,
}

/// A position: every piece's progress, whose turn it is, what is awaited, and the counts the
/// rules need (sixes in a row, rolls) or the result reports (turns, captures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LudoState {
    /// `progress[seat][piece]`: −1 base, 0 start square, 1-50 track, 51-55 home column, 56 goal.
    pub progress: [[i8; PIECES]; SEATS],
    /// The seat to move (0-3).
    pub to_move: u8,
    /// Roll, move, or finished.
    pub phase: Phase,
    /// 6s rolled in a row in the current turn before the awaited roll or move (0-2).
    pub sixes: u8,
    /// Rolls so far, void third 6s included.
    pub rolls: u32,
    /// Turns begun so far (a turn is one seat's rolls until the turn passes).
    pub turns: u32,
    /// Enemy pieces each seat has sent back to base.
    pub captures: [u32; SEATS],
}

impl LudoState {
    /// The starting position: every piece in base, seat 0 to roll.
    pub const fn new() -> LudoState {
        LudoState {
            progress: [[BASE; PIECES]; SEATS],
            to_move: 0,
            phase: Phase::Roll,
            sixes: 0,
            rolls: 0,
            turns: 0,
            captures: [0; SEATS],
        }
    }

    /// Pieces of `seat` in the goal.
    pub fn home(&self, seat: usize) -> usize {
        self.progress[seat].iter().filter(|&&p| p == GOAL).count()
    }
}

impl Default for LudoState {
    fn default() -> Self {
        LudoState::new()
    }
}

/// Something an action caused, for `madang replay`'s `events`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LudoEvent {
    /// A seat rolled.
    Rolled {
        /// Seat.
        seat: u8,
        /// The roll.
        roll: u8,
    },
    /// A piece left base onto its start square.
    Left {
        /// Seat.
        seat: u8,
        /// Piece id.
        piece: u8,
    },
    /// A piece on the board moved.
    Moved {
        /// Seat.
        seat: u8,
        /// Piece id.
        piece: u8,
        /// Progress before.
        from: i8,
        /// Progress after.
        to: i8,
    },
    /// Enemy pieces on the destination went back to base.
    Captured {
        /// The capturing seat.
        seat: u8,
        /// The seat whose pieces were captured.
        victim: u8,
        /// Bit `k` set for the victim's piece `k`.
        pieces: u8,
        /// The track square.
        square: u8,
    },
    /// No piece could move the roll (1-5): the turn passes.
    NoMove {
        /// Seat.
        seat: u8,
        /// The roll.
        roll: u8,
    },
    /// No piece could move a 6 (it still gives another roll, [`LudoEvent::ExtraRoll`]).
    NoMoveSix {
        /// Seat.
        seat: u8,
    },
    /// The third 6 in a row: void, nothing moves, the turn passes.
    ThirdSix {
        /// Seat.
        seat: u8,
    },
    /// The seat rolled a 6 and rolls again (whether or not the 6 moved a piece).
    ExtraRoll {
        /// Seat.
        seat: u8,
    },
    /// The seat's fourth piece reached the goal: it wins and the game ends.
    Won {
        /// Seat.
        seat: u8,
    },
    /// The 10,000th roll was resolved without a winner: the game ends with no result.
    RollLimit,
}

impl LudoEvent {
    /// Every kind of event, with its fields ([`Game::EVENT_KINDS`]; `docs/ludo.md`, "Events").
    pub const KINDS: &'static [EventKind] = &[
        EventKind::new("roll", &["seat", "roll"]),
        EventKind::new("leave_base", &["seat", "piece", "square"]),
        EventKind::new("move", &["seat", "piece", "from", "to", "square", "place"]),
        EventKind::new("capture", &["seat", "captured", "pieces", "square"]),
        EventKind::new("no_move", &["seat", "roll"]),
        EventKind::new("no_move_six", &["seat"]),
        EventKind::new("third_six", &["seat"]),
        EventKind::new("extra_roll", &["seat"]),
        EventKind::new("win", &["seat"]),
        EventKind::new("roll_limit", &["rolls"]),
    ];
}

/// What kind of square a progress is on, for the `place` of a `move` event.
fn place_kind(seat: usize, progress: i8) -> &'static str {
    match track_square(seat, progress) {
        Some(square) if STAR_SQUARES.contains(&square) => "star",
        Some(square) if START_SQUARES.contains(&square) => "start",
        Some(_) => "track",
        None if progress == GOAL => "goal",
        None => "home",
    }
}

/// Serialized as `{"kind": …, fields}` (`docs/ludo.md`, "Events"): seats as their names (`"0"` …
/// `"3"`), pieces by id, `square` the track square (0-51, `null` off the track), `place` what
/// kind of square the piece reached (`track`, `star`, `start`, `home`, `goal`), `pieces` the
/// captured piece ids. Written by hand so that playouts, which discard events, compute none of it.
impl Serialize for LudoEvent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        let seat = |map: &mut S::SerializeMap, seat: u8| map.serialize_entry("seat", &seat.to_string());
        match *self {
            LudoEvent::Rolled { seat: s, roll } => {
                map.serialize_entry("kind", "roll")?;
                seat(&mut map, s)?;
                map.serialize_entry("roll", &roll)?;
            }
            LudoEvent::Left { seat: s, piece } => {
                map.serialize_entry("kind", "leave_base")?;
                seat(&mut map, s)?;
                map.serialize_entry("piece", &piece)?;
                map.serialize_entry("square", &track_square(usize::from(s), START))?;
            }
            LudoEvent::Moved { seat: s, piece, from, to } => {
                map.serialize_entry("kind", "move")?;
                seat(&mut map, s)?;
                map.serialize_entry("piece", &piece)?;
                map.serialize_entry("from", &from)?;
                map.serialize_entry("to", &to)?;
                map.serialize_entry("square", &track_square(usize::from(s), to))?;
                map.serialize_entry("place", place_kind(usize::from(s), to))?;
            }
            LudoEvent::Captured { seat: s, victim, pieces, square } => {
                map.serialize_entry("kind", "capture")?;
                seat(&mut map, s)?;
                map.serialize_entry("captured", &victim.to_string())?;
                let ids: Vec<u8> = (0..PIECES as u8).filter(|k| pieces & (1 << k) != 0).collect();
                map.serialize_entry("pieces", &ids)?;
                map.serialize_entry("square", &square)?;
            }
            LudoEvent::NoMove { seat: s, roll } => {
                map.serialize_entry("kind", "no_move")?;
                seat(&mut map, s)?;
                map.serialize_entry("roll", &roll)?;
            }
            LudoEvent::NoMoveSix { seat: s } => {
                map.serialize_entry("kind", "no_move_six")?;
                seat(&mut map, s)?;
            }
            LudoEvent::ThirdSix { seat: s } => {
                map.serialize_entry("kind", "third_six")?;
                seat(&mut map, s)?;
            }
            LudoEvent::ExtraRoll { seat: s } => {
                map.serialize_entry("kind", "extra_roll")?;
                seat(&mut map, s)?;
            }
            LudoEvent::Won { seat: s } => {
                map.serialize_entry("kind", "win")?;
                seat(&mut map, s)?;
            }
            LudoEvent::RollLimit => {
                map.serialize_entry("kind", "roll_limit")?;
                map.serialize_entry("rolls", &ROLL_LIMIT)?;
            }
        }
        map.end()
    }
}

/// Where a progress is, in words.
fn place(seat: usize, progress: i8) -> String {
    match track_square(seat, progress) {
        Some(square) if progress == START => format!("its start square (track {square})"),
        Some(square) if STAR_SQUARES.contains(&square) => format!("track {square}, a star"),
        Some(square) if START_SQUARES.contains(&square) => format!("track {square}, a start square"),
        Some(square) => format!("track {square}"),
        None if progress == GOAL => "the goal".to_owned(),
        None if progress > LAST_TRACK => format!("home column square {}", progress - LAST_TRACK),
        None => "base".to_owned(),
    }
}

fn piece_list(mask: u8) -> String {
    let ids: Vec<String> = (0..PIECES).filter(|k| mask & (1 << k) != 0).map(|k| k.to_string()).collect();
    ids.join(", ")
}

impl fmt::Display for LudoEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LudoEvent::Rolled { seat, roll } => write!(f, "seat {seat} rolls {roll}"),
            LudoEvent::Left { seat, piece } => {
                write!(f, "seat {seat} leaves base with piece {piece} onto {}", place(seat.into(), START))
            }
            LudoEvent::Moved { seat, piece, from, to } => {
                write!(f, "seat {seat} moves piece {piece} from {from} to {to} ({})", place(seat.into(), to))
            }
            LudoEvent::Captured { seat, victim, pieces, square } => {
                let n = pieces.count_ones();
                let noun = if n == 1 { "piece" } else { "pieces" };
                write!(
                    f,
                    "seat {seat} captures {n} {noun} of seat {victim} on track {square} ({noun} {}): back to base",
                    piece_list(pieces)
                )
            }
            LudoEvent::NoMoveSix { seat } => write!(f, "seat {seat} has no move with 6"),
            LudoEvent::NoMove { seat, roll } => write!(f, "seat {seat} has no move with {roll} and passes"),
            LudoEvent::ThirdSix { seat } => {
                write!(f, "seat {seat} rolled a third 6 in a row: the roll is void and the turn passes")
            }
            LudoEvent::ExtraRoll { seat } => write!(f, "seat {seat} rolled a 6 and rolls again"),
            LudoEvent::Won { seat } => write!(f, "seat {seat} has all four pieces home and wins"),
            LudoEvent::RollLimit => {
                write!(f, "the game ends with no result: {ROLL_LIMIT} rolls without a winner (roll limit)")
            }
        }
    }
}

/// Why an action is not legal at a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LudoError {
    /// Seat `winner` has won: nothing more is legal.
    #[error("the game is over: seat {winner} has won")]
    GameWon {
        /// The winner.
        winner: u8,
    },
    /// The roll limit ended the game.
    #[error("the game is over: it ended with no result at the {ROLL_LIMIT}-roll limit")]
    GameOverAtRollLimit,
    /// A move was given where a roll is awaited.
    #[error("seat {seat} must roll first")]
    RollAwaited {
        /// Seat.
        seat: u8,
    },
    /// A roll was given where a move is awaited.
    #[error("seat {seat} has rolled {roll} and must move a piece before rolling again")]
    MoveAwaited {
        /// Seat.
        seat: u8,
        /// The roll being moved.
        roll: u8,
    },
    /// The die cannot show this number.
    #[error("a die cannot roll {roll} (possible: 1-6)")]
    ImpossibleRoll {
        /// The roll given.
        roll: u8,
    },
    /// The piece id is not 0-3.
    #[error("there is no piece {piece}: piece ids are 0-3")]
    NoSuchPiece {
        /// The id given.
        piece: u8,
    },
    /// The piece is in base and the roll is not a 6.
    #[error("piece {piece} of seat {seat} is in base and needs a 6 to leave, not {roll}")]
    NeedsSix {
        /// Seat.
        seat: u8,
        /// Piece id.
        piece: u8,
        /// The roll.
        roll: u8,
    },
    /// The piece is already in the goal.
    #[error("piece {piece} of seat {seat} is already in the goal")]
    InGoal {
        /// Seat.
        seat: u8,
        /// Piece id.
        piece: u8,
    },
    /// The roll would take the piece past the goal: the goal needs the exact roll.
    #[error(
        "piece {piece} of seat {seat} at {progress} needs exactly {needed} to reach the goal; {roll} would overshoot"
    )]
    Overshoot {
        /// Seat.
        seat: u8,
        /// Piece id.
        piece: u8,
        /// Its progress.
        progress: i8,
        /// The roll.
        roll: u8,
        /// The exact roll to the goal.
        needed: u8,
    },
}

/// The figures of a game, shown with its result and averaged by `madang sim`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LudoFigures {
    /// Rolls made (void third 6s included).
    pub rolls: u32,
    /// Turns begun.
    pub turns: u32,
    /// Enemy pieces sent back to base by each seat.
    pub captures: [u32; SEATS],
    /// Pieces in the goal per seat.
    pub home: [u32; SEATS],
}

/// `pieces` in `madang replay`: `{"0": [p, p, p, p], "1": […], …}`, progress by piece id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LudoPieces(pub [[i8; PIECES]; SEATS]);

impl Serialize for LudoPieces {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(SEATS))?;
        for (name, pieces) in SEAT_NAMES.iter().zip(&self.0) {
            map.serialize_entry(name, pieces)?;
        }
        map.end()
    }
}

/// What a legal move does, for the CPUs and the web client's highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEffect {
    /// Piece id.
    pub piece: u8,
    /// Progress before (−1 when leaving base).
    pub from: i8,
    /// Progress after.
    pub to: i8,
    /// The destination's track square, `None` in the home column or goal.
    pub square: Option<u8>,
    /// Captured pieces per seat (bit `k` for piece `k`); 0 for the mover.
    pub captured: [u8; SEATS],
}

impl MoveEffect {
    /// Number of enemy pieces sent home.
    pub fn captures(&self) -> u32 {
        self.captured.iter().map(|m| m.count_ones()).sum()
    }

    /// The piece leaves base.
    pub fn leaves_base(&self) -> bool {
        self.from == BASE
    }

    /// The piece reaches the goal.
    pub fn finishes(&self) -> bool {
        self.to == GOAL
    }

    /// The destination is one of the 8 safe track squares.
    pub fn lands_on_safe_square(&self) -> bool {
        self.square.is_some_and(is_safe)
    }

    /// The progress of every piece after the move (captured pieces back in base).
    pub fn apply_to(&self, seat: usize, progress: &[[i8; PIECES]; SEATS]) -> [[i8; PIECES]; SEATS] {
        let mut after = *progress;
        after[seat][usize::from(self.piece)] = self.to;
        for (s, mask) in self.captured.iter().enumerate() {
            for (k, p) in after[s].iter_mut().enumerate() {
                if mask & (1 << k) != 0 {
                    *p = BASE;
                }
            }
        }
        after
    }
}

/// Where `seat`'s piece at `progress` goes with `roll`, or `None` when it cannot move.
#[inline]
pub const fn destination(progress: i8, roll: u8) -> Option<i8> {
    if progress == BASE {
        if roll == 6 { Some(START) } else { None }
    } else if progress >= START && progress as i16 + roll as i16 <= GOAL as i16 {
        Some(progress + roll as i8)
    } else {
        None
    }
}

/// The legal moves for each movable mask: `move k` for each bit `k`, ascending, padded to four
/// entries, and how many are real.
const LEGAL_BY_MASK: [([LudoAction; PIECES], u8); 16] = {
    let mut table = [([LudoAction::Move(0); PIECES], 0u8); 16];
    let mut mask = 0;
    while mask < 16 {
        let mut n = 0;
        let mut k = 0;
        while k < PIECES {
            if mask & (1 << k) != 0 {
                table[mask].0[n] = LudoAction::Move(k as u8);
                n += 1;
            }
            k += 1;
        }
        table[mask].1 = n as u8;
        mask += 1;
    }
    table
};

/// `CAPTURE_SQUARE[seat][progress]` for progress 0-56: the track square where a piece of `seat`
/// at that progress can capture, or `NO_SQUARE` (a safe square, the home column, the goal).
const CAPTURE_SQUARE: [[u8; GOAL as usize + 1]; SEATS] = {
    let mut table = [[NO_SQUARE; GOAL as usize + 1]; SEATS];
    let mut seat = 0;
    while seat < SEATS {
        let mut progress = 0;
        while progress <= GOAL {
            if let Some(square) = track_square(seat, progress)
                && !is_safe(square)
            {
                table[seat][progress as usize] = square;
            }
            progress += 1;
        }
        seat += 1;
    }
    table
};

/// `CAPTURE_TARGETS[mover][progress]`: for each seat, the progress its pieces have on the track
/// square where the mover's piece lands at `progress` when they can be captured there, else −2
/// (which no piece has): for the mover itself, and when the square is safe or off the track.
const CAPTURE_TARGETS: [[[i8; SEATS]; GOAL as usize + 1]; SEATS] = {
    let mut table = [[[-2i8; SEATS]; GOAL as usize + 1]; SEATS];
    let mut mover = 0;
    while mover < SEATS {
        let mut progress = 0;
        while progress <= GOAL as usize {
            let square = CAPTURE_SQUARE[mover][progress];
            if square != NO_SQUARE {
                let mut victim = 0;
                while victim < SEATS {
                    if victim != mover
                        && let Some(p) = progress_on(victim, square)
                    {
                        table[mover][progress][victim] = p;
                    }
                    victim += 1;
                }
            }
            progress += 1;
        }
        mover += 1;
    }
    table
};

/// No square, in [`CAPTURE_SQUARE`].
const NO_SQUARE: u8 = u8::MAX;

/// `PROGRESS_ON[seat][square]`: [`progress_on`] as a table, −2 (no piece's progress) where the
/// seat cannot stand.
const PROGRESS_ON: [[i8; TRACK_LEN as usize]; SEATS] = {
    let mut table = [[-2i8; TRACK_LEN as usize]; SEATS];
    let mut seat = 0;
    while seat < SEATS {
        let mut square = 0;
        while square < TRACK_LEN as usize {
            if let Some(p) = progress_on(seat, square as u8) {
                table[seat][square] = p;
            }
            square += 1;
        }
        seat += 1;
    }
    table
};

/// Bit `k` set for each piece of `seat` standing on track square `square` (0-51; 0 where `seat`
/// cannot stand there).
#[inline]
pub fn pieces_on(progress: &[[i8; PIECES]; SEATS], seat: usize, square: u8) -> u8 {
    let p = PROGRESS_ON[seat % SEATS][usize::from(square % TRACK_LEN)];
    let mask = swar::high_bits_to_mask(swar::zero_bytes(swar::pack(progress[seat % SEATS]) ^ swar::splat(p as u8)));
    debug_assert_eq!(mask, progress[seat % SEATS].iter().enumerate().fold(0, |m, (k, &q)| m | (u8::from(q == p) << k)));
    mask
}

/// Four pieces' progress bytes as one `u32` (piece `k` in byte `k`), for whole-seat tests.
mod swar {
    /// The high bit of every byte.
    pub const HIGH: u32 = 0x8080_8080;

    /// Piece `k`'s progress in byte `k` (−1 is 0xff).
    #[inline]
    pub fn pack(pieces: [i8; 4]) -> u32 {
        u32::from_le_bytes(pieces.map(|p| p as u8))
    }

    /// The inverse of [`pack`].
    #[inline]
    pub fn unpack(x: u32) -> [i8; 4] {
        x.to_le_bytes().map(|b| b as i8)
    }

    /// `b` in every byte.
    #[inline]
    pub const fn splat(b: u8) -> u32 {
        b as u32 * 0x0101_0101
    }

    /// The high bit of each byte of `x` (every byte < 0x80) that is at most `limit` (< 0x80).
    #[inline]
    pub const fn at_most(x: u32, limit: u8) -> u32 {
        // Each byte 0x80 + limit − b: no borrow (b < 0x80), high bit set exactly when b ≤ limit.
        (splat(0x80 + limit) - x) & HIGH
    }

    /// The high bit of each zero byte of `x` (exact per byte, no borrow between bytes).
    #[inline]
    pub const fn zero_bytes(x: u32) -> u32 {
        !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x) & HIGH
    }

    /// Byte `k`'s high bit as bit `k` of the result.
    #[inline]
    pub const fn high_bits_to_mask(x: u32) -> u8 {
        // Bits 0, 8, 16, 24 gathered into bits 24-27 by one multiplication; no other products
        // land there.
        (((x >> 7).wrapping_mul(0x0102_0408)) >> 24) as u8 & 0x0f
    }
}

/// The rules (there are no options: every game is the seed's Ludo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ludo;

impl Ludo {
    /// The board as the web client draws it.
    pub fn board_data(&self) -> BoardData {
        BoardData::new()
    }

    /// Bit `k` set when piece `k` of the seat to move can move `roll`: it is in base and the
    /// roll is a 6, or it is out and `progress + roll ≤ 56`. Computed on the four progress bytes
    /// at once; in debug builds checked against [`destination`], the rule `apply` uses.
    #[inline]
    pub fn movable_mask(&self, state: &LudoState, roll: u8) -> u8 {
        let pieces = state.progress[usize::from(state.to_move)];
        let x = swar::pack(pieces);
        // Out of base: a byte 0 … 56 − roll. Bytes with the high bit set are negative (base).
        let out = match (GOAL as u8).checked_sub(roll) {
            Some(limit) => swar::at_most(x & 0x7f7f_7f7f, limit) & !x,
            None => 0,
        };
        // In base (exactly −1, 0xff) with a 6.
        let base = if roll == 6 { swar::zero_bytes(!x) } else { 0 };
        let mask = swar::high_bits_to_mask(out | base);
        debug_assert_eq!(
            mask,
            pieces.iter().enumerate().fold(0, |m, (k, &p)| m | (u8::from(destination(p, roll).is_some()) << k)),
            "{state:?} roll {roll}"
        );
        mask
    }

    /// Checks moving `piece` of the seat to move by `roll`: its destination progress, or why not.
    #[inline]
    fn check_move(&self, state: &LudoState, piece: u8, roll: u8) -> Result<i8, LudoError> {
        let seat = state.to_move;
        let Some(&progress) = state.progress[usize::from(seat)].get(usize::from(piece)) else {
            return Err(LudoError::NoSuchPiece { piece });
        };
        match destination(progress, roll) {
            Some(to) => Ok(to),
            None if progress == BASE => Err(LudoError::NeedsSix { seat, piece, roll }),
            None if progress == GOAL => Err(LudoError::InGoal { seat, piece }),
            None => {
                let needed = (i16::from(GOAL) - i16::from(progress)).clamp(0, 255) as u8;
                Err(LudoError::Overshoot { seat, piece, progress, roll, needed })
            }
        }
    }

    /// What moving `piece` with the awaited roll would do, or `None` when that is not a legal
    /// move (or no move is awaited).
    pub fn move_effect(&self, state: &LudoState, piece: u8) -> Option<MoveEffect> {
        let Phase::Move { roll } = state.phase else { return None };
        let to = self.check_move(state, piece, roll).ok()?;
        let seat = usize::from(state.to_move);
        let square = track_square(seat, to);
        let mut captured = [0u8; SEATS];
        if let Some(square) = square
            && !is_safe(square)
        {
            for (other, mask) in captured.iter_mut().enumerate() {
                if other != seat {
                    *mask = pieces_on(&state.progress, other, square);
                }
            }
        }
        Some(MoveEffect { piece, from: state.progress[seat][usize::from(piece)], to, square, captured })
    }

    /// After a roll is resolved: the same seat rolls again when `again` (a 6), else the next
    /// seat rolls; the game ends instead once the 10,000th roll is resolved. Written without
    /// branches on `again` (random play would mispredict them).
    #[inline]
    fn end_roll(state: &mut LudoState, again: bool, events: &mut impl EventSink<LudoEvent>) {
        if state.rolls >= ROLL_LIMIT {
            state.phase = Phase::RollLimit;
            events.emit(LudoEvent::RollLimit);
            return;
        }
        let seat = state.to_move;
        state.to_move = if again { seat } else { (seat + 1) % SEATS as u8 };
        state.sixes = if again { state.sixes.saturating_add(1) } else { 0 };
        state.phase = Phase::Roll;
        if again {
            events.emit(LudoEvent::ExtraRoll { seat });
        }
    }

    fn apply_roll(state: &mut LudoState, roll: u8, events: &mut impl EventSink<LudoEvent>) -> Result<(), LudoError> {
        if !(1..=6).contains(&roll) {
            return Err(LudoError::ImpossibleRoll { roll });
        }
        let seat = state.to_move;
        state.turns = state.turns.saturating_add(u32::from(state.sixes == 0));
        state.rolls = state.rolls.saturating_add(1);
        events.emit(LudoEvent::Rolled { seat, roll });
        if roll == 6 && state.sixes >= 2 {
            events.emit(LudoEvent::ThirdSix { seat });
            Self::end_roll(state, false, events);
            return Ok(());
        }
        if Ludo.movable_mask(state, roll) != 0 {
            state.phase = Phase::Move { roll };
            return Ok(());
        }
        events.emit(if roll == 6 { LudoEvent::NoMoveSix { seat } } else { LudoEvent::NoMove { seat, roll } });
        // An unusable 6 still grants the roll and counts towards three.
        Self::end_roll(state, roll == 6, events);
        Ok(())
    }

    fn apply_move(
        &self,
        state: &mut LudoState,
        piece: u8,
        roll: u8,
        events: &mut impl EventSink<LudoEvent>,
    ) -> Result<(), LudoError> {
        let to = self.check_move(state, piece, roll)?;
        let seat = state.to_move;
        let s = usize::from(seat);
        let from = state.progress[s][usize::from(piece)];
        state.progress[s][usize::from(piece)] = to;
        if from == BASE {
            events.emit(LudoEvent::Left { seat, piece });
        } else {
            events.emit(LudoEvent::Moved { seat, piece, from, to });
        }
        // Safety is decided before any capture: nobody is captured on a safe square. The table
        // gives, per seat, the progress an enemy piece has on the destination when it can be
        // captured there (−2, no progress, on safe squares, in the home column, in the goal and
        // for the mover itself), so every seat is checked without a branch.
        let targets = CAPTURE_TARGETS[s][to as usize];
        let mut captured = 0;
        let mut masks = [0u32; SEATS];
        for ((pieces, target), mask) in state.progress.iter_mut().zip(targets).zip(&mut masks) {
            let x = swar::pack(*pieces);
            let hit = swar::zero_bytes(x ^ swar::splat(target as u8));
            *pieces = swar::unpack(x | ((hit >> 7) * 0xff));
            *mask = hit;
            captured |= hit;
        }
        if captured != 0 {
            let square = CAPTURE_SQUARE[s][to as usize];
            for (victim, &hit) in masks.iter().enumerate() {
                if hit != 0 {
                    state.captures[s] = state.captures[s].saturating_add(hit.count_ones());
                    let pieces = swar::high_bits_to_mask(hit);
                    events.emit(LudoEvent::Captured { seat, victim: victim as u8, pieces, square });
                }
            }
        } else if to == GOAL && state.progress[s] == [GOAL; PIECES] {
            state.phase = Phase::Won { winner: seat };
            events.emit(LudoEvent::Won { seat });
            return Ok(());
        }
        Self::end_roll(state, roll == 6, events);
        Ok(())
    }
}

impl Game for Ludo {
    type Options = LudoOptions;
    type State = LudoState;
    type Action = LudoAction;
    type Event = LudoEvent;
    type Error = LudoError;
    type Pieces = LudoPieces;
    type Figures = LudoFigures;

    const NAME: &'static str = "ludo";
    const EVENT_KINDS: &'static [EventKind] = LudoEvent::KINDS;

    fn new(_options: &LudoOptions, players: Option<usize>) -> Result<Self, RulesError> {
        match players {
            None | Some(SEATS) => Ok(Ludo),
            Some(n) => Err(RulesError::new("players", format!("Ludo is always played by 4 players, got {n}"))),
        }
    }

    fn seat_names(&self) -> Vec<String> {
        SEAT_NAMES.iter().map(|s| (*s).to_owned()).collect()
    }

    fn initial_state(&self) -> LudoState {
        LudoState::new()
    }

    #[inline]
    fn turn(&self, state: &LudoState) -> Turn {
        match state.phase {
            Phase::Roll => Turn::Chance,
            Phase::Move { .. } => Turn::Seat(usize::from(state.to_move)),
            Phase::Won { .. } | Phase::RollLimit => Turn::Terminal,
        }
    }

    fn mover(&self, state: &LudoState) -> Option<usize> {
        match state.phase {
            Phase::Roll | Phase::Move { .. } => Some(usize::from(state.to_move)),
            Phase::Won { .. } | Phase::RollLimit => None,
        }
    }

    fn chance_outcomes(&self, state: &LudoState, out: &mut Vec<(LudoAction, Weight)>) {
        out.clear();
        if let Some(die) = self.chance_table(state) {
            out.extend_from_slice(die.outcomes());
        }
    }

    fn chance_table(&self, state: &LudoState) -> Option<&ChanceTable<LudoAction>> {
        /// One fair die: `roll 1` to `roll 6`, weight 1 each.
        static DIE: LazyLock<ChanceTable<LudoAction>> =
            LazyLock::new(|| ChanceTable::new((1..=6).map(|n| (LudoAction::Roll(n), 1)).collect()));
        (state.phase == Phase::Roll).then(|| &*DIE)
    }

    fn legal_actions(&self, state: &LudoState, out: &mut Vec<LudoAction>) {
        out.clear();
        if let Phase::Move { roll } = state.phase {
            // A fixed four-entry copy from a table by mask, then cut to length: no loop whose
            // length the branch predictor would have to guess.
            let (moves, n) = &LEGAL_BY_MASK[usize::from(self.movable_mask(state, roll) & 0x0f)];
            out.extend_from_slice(moves);
            out.truncate(usize::from(*n));
        }
    }

    fn apply(
        &self,
        state: &mut LudoState,
        action: LudoAction,
        events: &mut impl EventSink<LudoEvent>,
    ) -> Result<(), LudoError> {
        match (action, state.phase) {
            (LudoAction::Roll(roll), Phase::Roll) => Self::apply_roll(state, roll, events),
            (LudoAction::Move(piece), Phase::Move { roll }) => self.apply_move(state, piece, roll, events),
            (_, Phase::Won { winner }) => Err(LudoError::GameWon { winner }),
            (_, Phase::RollLimit) => Err(LudoError::GameOverAtRollLimit),
            (LudoAction::Move(_), Phase::Roll) => Err(LudoError::RollAwaited { seat: state.to_move }),
            (LudoAction::Roll(_), Phase::Move { roll }) => Err(LudoError::MoveAwaited { seat: state.to_move, roll }),
        }
    }

    fn awaiting(&self, state: &LudoState) -> Option<&'static str> {
        match state.phase {
            Phase::Roll => Some("roll"),
            Phase::Move { .. } => Some("move"),
            Phase::Won { .. } | Phase::RollLimit => None,
        }
    }

    fn pieces(&self, state: &LudoState) -> LudoPieces {
        LudoPieces(state.progress)
    }

    fn outcome(&self, state: &LudoState) -> Option<Outcome> {
        match state.phase {
            Phase::Won { winner } => Some(Outcome::Winner(usize::from(winner))),
            Phase::RollLimit => Some(Outcome::NoResult(ROLL_LIMIT_REASON.to_owned())),
            Phase::Roll | Phase::Move { .. } => None,
        }
    }

    fn figures(&self, state: &LudoState) -> LudoFigures {
        LudoFigures {
            rolls: state.rolls,
            turns: state.turns,
            captures: state.captures,
            home: std::array::from_fn(|s| state.home(s) as u32),
        }
    }
}
