//! Yut Nori (윷놀이) as a madang rules engine (spec `yut.md`, seeds 000 and 001).
//!
//! A turn: the player throws (yut and mo throw again), and the chain's results form a throw set
//! that is spent one result at a time in any order (`enter R`, `move P R`). A capture earns a
//! bonus throw whose chain is banked with the rest. After each move its consequences are settled
//! in order: the capture, the stack question (`stack yes|no`, optional stacking), the route
//! question at a branch (`route S`), then the bonus throw. Results nothing can use are
//! discarded when nothing else can be spent.
//!
//! Seats: individual sides `A`…`D`; in team games the players `A1, B1, …, A2, B2, …` (seat
//! index = member × teams + team) and the sides are the teams `A`…`D`.
//!
//! This crate does no I/O and holds no random generator.

mod board;
mod rules;
mod trail;

use std::fmt;
use std::str::FromStr;

use madang_core::{ChanceTable, EventKind, EventSink, Game, NotationError, Outcome, RulesError, Turn, Weight};
use serde::{Deserialize, Serialize};

pub use board::{
    BRANCHES, BoardData, CENTRE, CHAMMEOGI, DWITMO, JJIMO, MO_CORNER, STATIONS, StationData, branch_choices, ring_back,
    shortcut, station_position, steps_to_finish, straight_next,
};
pub use rules::{Exit, Finish, Fraction, Mode, NakRule, Order, Shortcuts, Stacking, Teammate, YutOptions, YutSettings};
pub use trail::Trail;

/// A throw's result. Order: back-do, do, gae, geol, yut, mo, nak (the notation's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stick {
    /// 빽도: one station back.
    Backdo,
    /// 도: 1.
    Do,
    /// 개: 2.
    Gae,
    /// 걸: 3.
    Geol,
    /// 윷: 4, throw again.
    Yut,
    /// 모: 5, throw again.
    Mo,
    /// 낙: the sticks left the mat.
    Nak,
}

impl Stick {
    /// Every result in notation order.
    pub const ALL: [Stick; 7] = [Stick::Backdo, Stick::Do, Stick::Gae, Stick::Geol, Stick::Yut, Stick::Mo, Stick::Nak];

    /// The notation word.
    pub fn name(self) -> &'static str {
        match self {
            Stick::Backdo => "backdo",
            Stick::Do => "do",
            Stick::Gae => "gae",
            Stick::Geol => "geol",
            Stick::Yut => "yut",
            Stick::Mo => "mo",
            Stick::Nak => "nak",
        }
    }

    /// Stations moved: −1 for back-do, 1-5 forward, 0 for nak.
    pub fn steps(self) -> i8 {
        match self {
            Stick::Backdo => -1,
            Stick::Do => 1,
            Stick::Gae => 2,
            Stick::Geol => 3,
            Stick::Yut => 4,
            Stick::Mo => 5,
            Stick::Nak => 0,
        }
    }

    /// Yut and mo earn another throw.
    pub fn throws_again(self) -> bool {
        matches!(self, Stick::Yut | Stick::Mo)
    }

    /// Its value in the turn-order ceremony: mo 5 > yut 4 > geol 3 > gae 2 > do 1 > back-do −1.
    fn ceremony_value(self) -> i8 {
        self.steps()
    }
}

impl FromStr for Stick {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        Stick::ALL.into_iter().find(|s| s.name() == text).ok_or(())
    }
}

/// A move, a decision or a chance outcome. Legal actions are listed in this type's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum YutAction {
    /// `throw R`: the sticks show R (chance).
    Throw(Stick),
    /// `enter R`: enter the lowest-numbered piece in hand with result R.
    Enter(Stick),
    /// `move P R`: move the unit holding piece P with result R.
    Move(u8, Stick),
    /// `route S`: the next station after stopping on a branch.
    Route(u8),
    /// `stack yes` / `stack no` (optional stacking).
    Stack(bool),
    /// `slot N`: pick turn-order slot N (1-based) in the ceremony.
    Slot(u8),
}

impl fmt::Display for YutAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YutAction::Throw(r) => write!(f, "throw {}", r.name()),
            YutAction::Enter(r) => write!(f, "enter {}", r.name()),
            YutAction::Move(p, r) => write!(f, "move {p} {}", r.name()),
            YutAction::Route(s) => write!(f, "route {s}"),
            YutAction::Stack(yes) => write!(f, "stack {}", if *yes { "yes" } else { "no" }),
            YutAction::Slot(n) => write!(f, "slot {n}"),
        }
    }
}

fn stick(text: &str, word: &str) -> Result<Stick, NotationError> {
    word.parse().map_err(|()| {
        let word = madang_core::echo(word);
        NotationError::new(text, format!("{word:?} is not a result (backdo, do, gae, geol, yut, mo, nak)"))
    })
}

impl FromStr for YutAction {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = text.split(' ').collect();
        match words.as_slice() {
            ["throw", r] => Ok(YutAction::Throw(stick(text, r)?)),
            ["enter", r] => Ok(YutAction::Enter(stick(text, r)?)),
            ["move", p, r] => Ok(YutAction::Move(madang_core::notation_number(text, p)?, stick(text, r)?)),
            ["route", s] => Ok(YutAction::Route(madang_core::notation_number(text, s)?)),
            ["stack", "yes"] => Ok(YutAction::Stack(true)),
            ["stack", "no"] => Ok(YutAction::Stack(false)),
            ["slot", n] => Ok(YutAction::Slot(madang_core::notation_number(text, n)?)),
            _ => Err(NotationError::new(
                text,
                "expected `throw R`, `enter R`, `move P R`, `route S`, `stack yes|no` or `slot N`",
            )),
        }
    }
}

/// A group of one side's pieces that moves as one (a single piece is a unit of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Bit `p` set for piece id `p` of the side.
    pub pieces: u16,
    /// The station it stands on, 0-28.
    pub station: u8,
    /// The stations occupied since entering, oldest first, ending with `station` (back-do
    /// retraces it).
    pub trail: Trail,
    /// The route chosen at the branch it rests on.
    pub route: Option<u8>,
}

// Clones that reuse the target's vectors (`clone_from`): bots judge a move by applying it to a
// copy of the position, and a copy made into the same scratch position allocates nothing.
impl Clone for SidePieces {
    fn clone(&self) -> Self {
        SidePieces { hand: self.hand, finished: self.finished, units: self.units.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.hand = source.hand;
        self.finished = source.finished;
        self.units.clone_from(&source.units);
    }
}

impl Clone for YutState {
    fn clone(&self) -> Self {
        YutState {
            sides: self.sides.clone(),
            order: self.order.clone(),
            position: self.position,
            phase: self.phase,
            pool: self.pool.clone(),
            throws_this_turn: self.throws_this_turn,
            pending: self.pending,
            ceremony: self.ceremony.clone(),
            finished_sides: self.finished_sides.clone(),
            counters: self.counters.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.sides.clone_from(&source.sides);
        self.order.clone_from(&source.order);
        self.position = source.position;
        self.phase = source.phase;
        self.pool.clone_from(&source.pool);
        self.throws_this_turn = source.throws_this_turn;
        self.pending = source.pending;
        self.ceremony.clone_from(&source.ceremony);
        self.finished_sides.clone_from(&source.finished_sides);
        self.counters.clone_from(&source.counters);
    }
}

impl Unit {
    /// The unit's canonical name: its lowest piece id.
    pub fn lowest(&self) -> u8 {
        self.pieces.trailing_zeros() as u8
    }

    /// Number of pieces.
    pub fn size(&self) -> u32 {
        self.pieces.count_ones()
    }
}

/// One side's pieces (a team's, in team modes).
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SidePieces {
    /// Pieces in hand, bit per piece id.
    pub hand: u16,
    /// Pieces finished.
    pub finished: u16,
    /// Units on the board, sorted by lowest piece id. Every move keeps the order; a list read
    /// from outside (a state deserialised) is sorted as it is read. Code that builds or edits a
    /// state itself must keep the order: the legal actions are listed in it.
    #[serde(deserialize_with = "units_in_order")]
    pub units: Vec<Unit>,
}

/// Reads a side's units and sorts them by lowest piece id, the order the engine keeps.
fn units_in_order<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Unit>, D::Error> {
    let mut units = Vec::<Unit>::deserialize(deserializer)?;
    units.sort_unstable_by_key(Unit::lowest);
    Ok(units)
}

/// Per-side counters for the results screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideCounters {
    /// Capture events.
    pub captures: u32,
    /// Throws earned: yut or mo thrown in play, and capture bonuses.
    pub extra_throws: u32,
    /// Stacking events.
    pub stacks: u32,
}

/// What the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A ceremony throw (chance).
    CeremonyThrow,
    /// A ceremony slot pick.
    CeremonySlot,
    /// A throw of the current player's chain (chance).
    Throw,
    /// Spending a result.
    Spend,
    /// The stack question after a move.
    Stack,
    /// The route question after stopping on a branch.
    Route,
    /// The game is over.
    Over,
}

/// The consequences of the last move still to settle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pending {
    /// The moving side.
    pub side: u8,
    /// A piece of the moved unit.
    pub piece: u8,
    /// The move captured (a bonus throw is due).
    pub captured: bool,
}

/// A group of sides in the ceremony, in rank order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CeremonyGroup {
    /// Sides, in seat order.
    pub sides: Vec<u8>,
    /// Ordered (a group of one).
    pub settled: bool,
}

/// The turn-order ceremony's progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ceremony {
    /// Groups in rank order.
    pub groups: Vec<CeremonyGroup>,
    /// Values thrown so far by the group throwing now.
    pub thrown: Vec<i8>,
    /// Side in each turn-order slot.
    pub slots: Vec<Option<u8>>,
}

/// A position.
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct YutState {
    /// Per side.
    pub sides: Vec<SidePieces>,
    /// Sides in turn order (empty until the ceremony ends).
    pub order: Vec<u8>,
    /// Position in the rotation (see [`Yut::seat_at`]).
    pub position: u8,
    /// What is awaited.
    pub phase: Phase,
    /// Unspent results in the order thrown.
    pub pool: Vec<Stick>,
    /// Throws made in this turn.
    pub throws_this_turn: u16,
    /// The last move's unsettled consequences.
    pub pending: Option<Pending>,
    /// The ceremony, while it runs.
    pub ceremony: Option<Ceremony>,
    /// Sides that have finished, in order.
    pub finished_sides: Vec<u8>,
    /// Results-screen counters per side.
    pub counters: Vec<SideCounters>,
}

/// Something an action caused, for `madang replay`'s `events`: one variant per thing that can
/// happen, serialized with its `kind` (`docs/yut.md`, "Events"). `seat` is the player who acts
/// (`A`, or `A1` in team games), `side` a side or team (`A`); `unit` lists piece ids of the side;
/// stations are 0-28 and throws their notation names (`gae`, `backdo`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum YutEvent {
    /// A piece entered the board.
    Enter {
        /// The player.
        seat: &'static str,
        /// The piece's id.
        piece: u8,
        /// The throw spent.
        throw: &'static str,
        /// Where it landed.
        station: u8,
    },
    /// A unit moved.
    Move {
        /// The player.
        seat: &'static str,
        /// Its pieces.
        unit: Vec<u8>,
        /// From station.
        from: u8,
        /// To station.
        to: u8,
        /// The throw spent.
        throw: &'static str,
    },
    /// A unit went home (finished).
    Finish {
        /// The player.
        seat: &'static str,
        /// Its pieces.
        unit: Vec<u8>,
        /// From station.
        from: u8,
        /// The throw spent.
        throw: &'static str,
        /// How many pieces finished.
        count: u32,
    },
    /// The arriving unit captured a unit of another side (or of the same team, never).
    Capture {
        /// The capturing player.
        seat: &'static str,
        /// The captured side.
        captured: &'static str,
        /// The captured pieces.
        unit: Vec<u8>,
        /// Where.
        station: u8,
    },
    /// Own units on one station joined into a stack.
    Stack {
        /// The player.
        seat: &'static str,
        /// The stack's size.
        size: u32,
        /// Where.
        station: u8,
    },
    /// The optional stacking question was answered no.
    NoStack {
        /// The player.
        seat: &'static str,
    },
    /// A route was chosen at a branch.
    Route {
        /// The player.
        seat: &'static str,
        /// The branch station.
        from: u8,
        /// The next station chosen.
        to: u8,
    },
    /// A capture earned a bonus throw.
    Bonus {
        /// The player.
        seat: &'static str,
    },
    /// Results nobody can use were discarded.
    Discard {
        /// The player.
        seat: &'static str,
        /// The discarded results.
        pool: Vec<&'static str>,
    },
    /// The turn passed: this player throws next.
    ToThrow {
        /// The player.
        seat: &'static str,
    },
    /// A side has finished all its pieces.
    SideDone {
        /// The side.
        side: &'static str,
    },
    /// A finished side leaves the rotation (ranking); its unspent results are discarded.
    Leaves {
        /// The side.
        side: &'static str,
        /// The discarded results.
        pool: Vec<&'static str>,
    },
    /// A throw.
    Throw {
        /// The player.
        seat: &'static str,
        /// The result.
        throw: &'static str,
    },
    /// A nak voids the whole set (`nak_rule` `void-set`): the turn ends.
    NakSet {
        /// The player.
        seat: &'static str,
    },
    /// A nak on the first throw of a turn (`void-throw`): the turn passes.
    NakFirst {
        /// The player.
        seat: &'static str,
    },
    /// A later nak is void (`void-throw`); the player spends what they have.
    NakThrow {
        /// The player.
        seat: &'static str,
    },
    /// A yut or mo: the same player throws again.
    Again {
        /// The player.
        seat: &'static str,
    },
    /// A nak in the turn-order ceremony: thrown again.
    CeremonyNak {
        /// The side.
        side: &'static str,
    },
    /// A ceremony throw.
    CeremonyThrow {
        /// The side.
        side: &'static str,
        /// The result.
        throw: &'static str,
    },
    /// Sides tied in the ceremony throw again.
    Tie {
        /// The tied sides.
        sides: Vec<&'static str>,
    },
    /// The ceremony's ranking (who picks a turn slot first).
    Rank {
        /// Sides, best first.
        sides: Vec<&'static str>,
    },
    /// A side picked a turn slot.
    TakesSlot {
        /// The side.
        side: &'static str,
        /// The slot (1-based).
        slot: u8,
    },
    /// The last side got the remaining slot.
    GetsSlot {
        /// The side.
        side: &'static str,
        /// The slot (1-based).
        slot: u8,
    },
    /// The turn order is settled.
    Order {
        /// Sides in turn order.
        sides: Vec<&'static str>,
    },
}

impl YutEvent {
    /// Every kind of event, with its fields ([`Game::EVENT_KINDS`]).
    pub const KINDS: &'static [EventKind] = &[
        EventKind::new("enter", &["seat", "piece", "throw", "station"]),
        EventKind::new("move", &["seat", "unit", "from", "to", "throw"]),
        EventKind::new("finish", &["seat", "unit", "from", "throw", "count"]),
        EventKind::new("capture", &["seat", "captured", "unit", "station"]),
        EventKind::new("stack", &["seat", "size", "station"]),
        EventKind::new("no_stack", &["seat"]),
        EventKind::new("route", &["seat", "from", "to"]),
        EventKind::new("bonus", &["seat"]),
        EventKind::new("discard", &["seat", "pool"]),
        EventKind::new("to_throw", &["seat"]),
        EventKind::new("side_done", &["side"]),
        EventKind::new("leaves", &["side", "pool"]),
        EventKind::new("throw", &["seat", "throw"]),
        EventKind::new("nak_set", &["seat"]),
        EventKind::new("nak_first", &["seat"]),
        EventKind::new("nak_throw", &["seat"]),
        EventKind::new("again", &["seat"]),
        EventKind::new("ceremony_nak", &["side"]),
        EventKind::new("ceremony_throw", &["side", "throw"]),
        EventKind::new("tie", &["sides"]),
        EventKind::new("rank", &["sides"]),
        EventKind::new("takes_slot", &["side", "slot"]),
        EventKind::new("gets_slot", &["side", "slot"]),
        EventKind::new("order", &["sides"]),
    ];
}

/// A unit's pieces in words, as the event lines have them (`piece 3`, `stack of pieces 0+1`).
fn unit_words(unit: &[u8]) -> String {
    let ids: Vec<String> = unit.iter().map(ToString::to_string).collect();
    if ids.len() == 1 { format!("piece {}", ids[0]) } else { format!("stack of pieces {}", ids.join("+")) }
}

/// A pool of results in words (`gae, backdo`, or `empty`).
fn pool_words(pool: &[&str]) -> String {
    if pool.is_empty() { "empty".to_owned() } else { pool.join(", ") }
}

impl fmt::Display for YutEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YutEvent::Enter { seat, piece, throw, station } => {
                write!(f, "{seat} enters piece {piece} with {throw} onto {station}")
            }
            YutEvent::Move { seat, unit, from, to, throw } => {
                write!(f, "{seat} moves {} {from} → {to} with {throw}", unit_words(unit))
            }
            YutEvent::Finish { seat, unit, from, throw, count } => write!(
                f,
                "{seat} moves {} from {from} with {throw} and finishes {count} piece{}",
                unit_words(unit),
                if *count == 1 { "" } else { "s" }
            ),
            YutEvent::Capture { seat, captured, unit, station } => {
                write!(f, "{seat} captures {captured}'s {} on {station}", unit_words(unit))
            }
            YutEvent::Stack { size, station, .. } => write!(f, "stack of {size} on {station}"),
            YutEvent::NoStack { .. } => f.write_str("no stack"),
            YutEvent::Route { from, to, .. } => write!(f, "route from {from} to {to}"),
            YutEvent::Bonus { seat } => write!(f, "{seat} earns a bonus throw"),
            YutEvent::Discard { seat, pool } => write!(f, "{seat} cannot use {} and discards it", pool_words(pool)),
            YutEvent::ToThrow { seat } => write!(f, "{seat} to throw"),
            YutEvent::SideDone { side } => write!(f, "side {side} has finished all its pieces"),
            YutEvent::Leaves { side, pool } => write!(f, "{side} leaves the rotation; {} discarded", pool_words(pool)),
            YutEvent::Throw { seat, throw } => write!(f, "{seat} throws {throw}"),
            YutEvent::NakSet { seat } => write!(f, "nak: {seat}'s results are void and the turn ends"),
            YutEvent::NakFirst { seat } => write!(f, "nak on the first throw: {seat}'s turn passes"),
            YutEvent::NakThrow { .. } => f.write_str("nak: the throw is void"),
            YutEvent::Again { seat } => write!(f, "{seat} throws again"),
            YutEvent::CeremonyNak { side } => write!(f, "{side} throws nak in the ceremony and throws again"),
            YutEvent::CeremonyThrow { side, throw } => write!(f, "{side} throws {throw} in the ceremony"),
            YutEvent::Tie { sides } => write!(f, "{} tie and throw again", sides.join(", ")),
            YutEvent::Rank { sides } => write!(f, "ceremony rank: {}", sides.join(", ")),
            YutEvent::TakesSlot { side, slot } => write!(f, "{side} takes slot {slot}"),
            YutEvent::GetsSlot { side, slot } => write!(f, "{side} gets slot {slot}"),
            YutEvent::Order { sides } => write!(f, "turn order: {}", sides.join(", ")),
        }
    }
}

/// Why an action is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum YutError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action is of the wrong kind for what is awaited.
    #[error("{action} is not possible now: {awaiting} is awaited")]
    WrongKind {
        /// The action.
        action: String,
        /// What is awaited.
        awaiting: &'static str,
    },
    /// A chance outcome with weight 0 under these rules.
    #[error("{0} cannot be thrown under these rules")]
    ImpossibleThrow(&'static str),
    /// The result is not in the pool.
    #[error("{result} is not in the pool ({pool})")]
    NotInPool {
        /// The result.
        result: &'static str,
        /// The pool.
        pool: String,
    },
    /// Entering needs a forward result and a piece in hand.
    #[error("{0}")]
    CannotEnter(String),
    /// The piece is not on the board, or not the mover's to move.
    #[error("{0}")]
    NotMovable(String),
    /// A route that is not one of the branch's two choices.
    #[error("route {0} is not a choice here ({1})")]
    BadRoute(u8, String),
    /// A slot that does not exist or is taken.
    #[error("slot {0} is not free (free: {1})")]
    BadSlot(u8, String),
}

/// Results figures per side (seed 000's results screen).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideFigures {
    /// Pieces finished.
    pub finished: u32,
    /// Fewest forward steps the unfinished pieces still need.
    pub steps_left: u32,
    /// Capture events.
    pub captures: u32,
    /// Throws earned in play.
    pub extra_throws: u32,
    /// Stacking events.
    pub stacks: u32,
}

/// The rules in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yut {
    settings: YutSettings,
    /// Chance weights in `Stick` order, zero weights included.
    weights: [Weight; 7],
    /// The throws with a weight above zero and their weights, in `Stick` order: every throw's
    /// chance table.
    throws: ChanceTable<YutAction>,
}

const SIDE_NAMES: [&str; 4] = ["A", "B", "C", "D"];
const TEAM_SEAT_NAMES: [[&str; 4]; 2] = [["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"]];

fn gcd(a: Weight, b: Weight) -> Weight {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Puts `unit` among `units` (sorted by lowest piece id) in its place.
fn insert_unit(units: &mut Vec<Unit>, unit: Unit) {
    let at = units.partition_point(|u| u.lowest() < unit.lowest());
    units.insert(at, unit);
}

/// The results in `pool` as a bit set, bit `r` for `Stick` `r`.
fn pool_mask(pool: &[Stick]) -> u8 {
    pool.iter().fold(0, |mask, &r| mask | 1 << r as u8)
}

/// The results in the bit set `mask` (as [`pool_mask`] makes it), in `Stick` order.
fn sticks_in(mut mask: u8) -> impl Iterator<Item = Stick> {
    std::iter::from_fn(move || {
        let r = Stick::ALL.get(mask.trailing_zeros() as usize).copied()?;
        mask &= mask - 1;
        Some(r)
    })
}

/// What a forward walk did.
enum Walk {
    Finished,
    Stopped,
}

impl Yut {
    /// The rules for `settings`.
    pub fn from_settings(settings: YutSettings) -> Yut {
        let a = settings.stick_flat.numerator;
        let b = settings.stick_flat.denominator;
        let q = b - a;
        // Four sticks, k flat sides up with weight C(4,k) a^k q^(4−k) over b^4; one do in four
        // has the marked stick flat (back-do).
        let mut sticks = [0 as Weight; 7];
        sticks[Stick::Mo as usize] = q.pow(4);
        let one_flat = 4 * a * q.pow(3);
        if settings.backdo {
            sticks[Stick::Backdo as usize] = a * q.pow(3);
            sticks[Stick::Do as usize] = 3 * a * q.pow(3);
        } else {
            sticks[Stick::Do as usize] = one_flat;
        }
        sticks[Stick::Gae as usize] = 6 * a * a * q * q;
        sticks[Stick::Geol as usize] = 4 * a.pow(3) * q;
        sticks[Stick::Yut as usize] = a.pow(4);
        // Nak c/d takes its share; the others share d − c in proportion.
        let (c, d) = (settings.nak.numerator, settings.nak.denominator);
        let mut weights = sticks.map(|w| w * (d - c));
        weights[Stick::Nak as usize] = c * b.pow(4);
        let common = weights.iter().copied().fold(0, gcd).max(1);
        let weights = weights.map(|w| w / common);
        let throws = ChanceTable::new(
            Stick::ALL.iter().zip(weights).filter(|(_, w)| *w > 0).map(|(s, w)| (YutAction::Throw(*s), w)).collect(),
        );
        Yut { settings, weights, throws }
    }

    /// The rule values in force.
    pub fn settings(&self) -> &YutSettings {
        &self.settings
    }

    /// The board for the web client.
    pub fn board_data(&self) -> BoardData {
        BoardData::new()
    }

    /// Number of sides (teams in team modes).
    pub fn side_count(&self) -> usize {
        match self.settings.mode {
            Mode::Individual => usize::from(self.settings.players),
            _ => usize::from(self.settings.players / 2),
        }
    }

    fn teams(&self) -> bool {
        self.settings.mode != Mode::Individual
    }

    /// Pieces a side owns (a team's both players' in team-separate).
    pub fn pieces_per_side(&self) -> u8 {
        match self.settings.mode {
            Mode::TeamSeparate => 2 * self.settings.pieces,
            _ => self.settings.pieces,
        }
    }

    fn all_pieces(&self) -> u16 {
        (1u16 << self.pieces_per_side()) - 1
    }

    /// The seat index of `member` (0 or 1) of `side`.
    pub fn seat_of(&self, side: usize, member: usize) -> usize {
        member * self.side_count() + side
    }

    /// The `(side, member)` of the seat at rotation position `position`.
    pub fn seat_at(&self, state: &YutState, position: u8) -> (usize, usize) {
        let sides = self.side_count();
        let p = usize::from(position);
        // `(p % sides, p / sides)`; the rotation is at most two rounds of the sides (a team has
        // two members), so a valid state never needs the divisions.
        let (slot, member) = if p < sides {
            (p, 0)
        } else if p < 2 * sides {
            (p - sides, 1)
        } else {
            (p % sides, p / sides)
        };
        let side = state.order.get(slot).copied().map_or(slot, usize::from);
        (side, member)
    }

    fn rotation_len(&self) -> u8 {
        self.settings.players
    }

    /// The pieces the player `(side, member)` may enter and move: all of the side's, or in
    /// team-separate their own until those have all finished, then the teammate's.
    pub fn playable_mask(&self, state: &YutState, side: usize, member: usize) -> u16 {
        if self.settings.mode != Mode::TeamSeparate {
            return self.all_pieces();
        }
        let n = self.settings.pieces;
        let own = ((1u16 << n) - 1) << (n * member as u8);
        if state.sides[side].finished & own == own { self.all_pieces() & !own } else { own }
    }

    /// In team-separate with `teammate: capture`, the member a unit belongs to.
    fn member_mask(&self, pieces: u16) -> u16 {
        let n = self.settings.pieces;
        let first = (1u16 << n) - 1;
        if pieces & first != 0 { first } else { first << n }
    }

    /// Two units of the same side are friends (they stack) unless teammates capture.
    fn friends(&self, a: u16, b: u16) -> bool {
        !(self.settings.mode == Mode::TeamSeparate && self.settings.teammate == Teammate::Capture)
            || self.member_mask(a) == self.member_mask(b)
    }

    fn name_of_seat(&self, side: usize, member: usize) -> &'static str {
        if self.teams() { TEAM_SEAT_NAMES[member][side] } else { SIDE_NAMES[side] }
    }

    fn current(&self, state: &YutState) -> (usize, usize) {
        self.seat_at(state, state.position)
    }

    fn mover_name(&self, state: &YutState) -> &'static str {
        let (side, member) = self.current(state);
        self.name_of_seat(side, member)
    }

    /// While the optional stacking question is asked (`awaiting` `"stack"`): the unit that has
    /// just arrived, then each unit of the same side already on its station, each as its piece
    /// ids joined by `+` (`["1", "0"]`: piece 1 came onto piece 0) — `madang replay`'s
    /// `stacking` field, so a board can say which pieces would go together.
    fn stack_question(state: &YutState) -> Option<Vec<String>> {
        if state.phase != Phase::Stack {
            return None;
        }
        let pending = state.pending?;
        let units = &state.sides[usize::from(pending.side)].units;
        let arriving = units.iter().find(|u| u.pieces & (1 << pending.piece) != 0)?;
        let ids = |unit: &Unit| {
            (0..16).filter(|p| unit.pieces & (1 << p) != 0).map(|p: u8| p.to_string()).collect::<Vec<_>>().join("+")
        };
        let mut question = vec![ids(arriving)];
        question.extend(units.iter().filter(|u| u.station == arriving.station && u.pieces != arriving.pieces).map(ids));
        Some(question)
    }

    /// The ceremony side to throw next (first unsettled group, next member).
    fn ceremony_thrower(state: &YutState) -> Option<u8> {
        let ceremony = state.ceremony.as_ref()?;
        let group = ceremony.groups.iter().find(|g| !g.settled)?;
        group.sides.get(ceremony.thrown.len()).copied()
    }

    /// The side picking the next ceremony slot.
    fn ceremony_picker(state: &YutState) -> Option<u8> {
        let ceremony = state.ceremony.as_ref()?;
        let picked = ceremony.slots.iter().filter(|s| s.is_some()).count();
        ceremony.groups.get(picked).and_then(|g| g.sides.first()).copied()
    }

    /// Legal `Enter`/`Move` actions for the current player (Spend phase), generated in sorted
    /// order: entries by result, then moves by unit (units are kept sorted by lowest piece id)
    /// and result.
    fn spend_actions(&self, state: &YutState, out: &mut Vec<YutAction>) {
        let (side, member) = self.current(state);
        let playable = self.playable_mask(state, side, member);
        let pieces = &state.sides[side];
        let in_pool = pool_mask(&state.pool);
        if pieces.hand & playable != 0 {
            out.extend(sticks_in(in_pool & !(1 << Stick::Backdo as u8)).map(YutAction::Enter));
        }
        for unit in &pieces.units {
            if unit.pieces & playable != 0 {
                out.extend(sticks_in(in_pool).map(|r| YutAction::Move(unit.lowest(), r)));
            }
        }
        // Entries come first (their variant sorts first), each list by result; moves follow
        // their units, which every move keeps sorted by lowest piece (a state read from
        // outside is sorted as it is read), so the list is sorted (the conformance kit checks
        // it at every node).
        debug_assert!(out.is_sorted(), "{out:?}");
    }

    /// Whether the current player has anything to spend ([`Yut::spend_actions`] non-empty),
    /// without listing it.
    fn can_spend(&self, state: &YutState) -> bool {
        let (side, member) = self.current(state);
        let playable = self.playable_mask(state, side, member);
        let pieces = &state.sides[side];
        let in_pool = pool_mask(&state.pool);
        let can = (pieces.hand & playable != 0 && in_pool & !(1 << Stick::Backdo as u8) != 0)
            || (in_pool != 0 && pieces.units.iter().any(|u| u.pieces & playable != 0));
        // The test profile checks the shortcut against the list at every call (the conformance
        // playouts reach every kind of spend).
        #[cfg(debug_assertions)]
        {
            let mut listed = Vec::new();
            self.spend_actions(state, &mut listed);
            debug_assert_eq!(can, !listed.is_empty(), "{state:?}");
        }
        can
    }

    /// The unspent results' names, in the order thrown.
    fn pool_names(state: &YutState) -> Vec<&'static str> {
        state.pool.iter().map(|s| s.name()).collect()
    }

    fn pool_text(state: &YutState) -> String {
        let names: Vec<&str> = state.pool.iter().map(|s| s.name()).collect();
        if names.is_empty() { "empty".to_owned() } else { names.join(", ") }
    }

    fn take_from_pool(&self, state: &mut YutState, result: Stick) -> Result<(), YutError> {
        match state.pool.iter().position(|&r| r == result) {
            Some(i) => {
                state.pool.remove(i);
                Ok(())
            }
            None => Err(Self::not_in_pool(state, result)),
        }
    }

    /// The error for spending a result the pool does not hold (built only then: the text is
    /// the pool's).
    #[cold]
    fn not_in_pool(state: &YutState, result: Stick) -> YutError {
        YutError::NotInPool { result: result.name(), pool: Self::pool_text(state) }
    }

    /// Walks `unit` forward `steps` stations, extending its trail.
    fn walk(&self, unit: &mut Unit, steps: i8) -> Walk {
        let reach = self.settings.exit == Exit::Reach;
        if unit.station == CHAMMEOGI {
            return Walk::Finished;
        }
        let mut position = unit.station;
        for step in 0..steps {
            let next = if step == 0 && unit.route.is_some() && branch_choices(position).is_some() {
                unit.route
            } else {
                // Only the centre asks where the unit came from (the station before it on the
                // trail, which ends at `position`).
                let previous =
                    if position == CENTRE { unit.trail.len().checked_sub(2).map(|i| unit.trail[i]) } else { None };
                straight_next(position, previous)
            };
            let Some(next) = next else { return Walk::Finished };
            unit.trail.push(next);
            position = next;
            if position == CHAMMEOGI && (reach || step + 1 < steps) {
                return Walk::Finished;
            }
        }
        unit.station = position;
        unit.route = None;
        Walk::Stopped
    }

    /// Applies a spend action; the unit then arrives (or finishes).
    fn spend(
        &self,
        state: &mut YutState,
        action: YutAction,
        events: &mut impl EventSink<YutEvent>,
    ) -> Result<(), YutError> {
        let (side, member) = self.current(state);
        let who = self.name_of_seat(side, member);
        let playable = self.playable_mask(state, side, member);
        let unit = match action {
            YutAction::Enter(result) => {
                if result == Stick::Backdo || result == Stick::Nak {
                    return Err(YutError::CannotEnter(format!("{} cannot enter a piece", result.name())));
                }
                let enterable = state.sides[side].hand & playable;
                if enterable == 0 {
                    return Err(YutError::CannotEnter(format!("{who} has no piece in hand to enter")));
                }
                let piece = enterable.trailing_zeros() as u8;
                self.take_from_pool(state, result)?;
                state.sides[side].hand &= !(1 << piece);
                let station = result.steps() as u8;
                let trail = Trail::entering(station);
                let unit = Unit { pieces: 1 << piece, station, trail, route: None };
                events.emit_with(|| YutEvent::Enter { seat: who, piece, throw: result.name(), station });
                insert_unit(&mut state.sides[side].units, unit);
                unit
            }
            YutAction::Move(piece, result) => {
                if result == Stick::Nak {
                    return Err(YutError::NotInPool { result: "nak", pool: Self::pool_text(state) });
                }
                let Some(index) =
                    state.sides[side].units.iter().position(|u| piece < 16 && u.pieces & (1 << piece) != 0)
                else {
                    return Err(YutError::NotMovable(format!(
                        "piece {piece} of {} is not on the board",
                        SIDE_NAMES[side]
                    )));
                };
                if state.sides[side].units[index].pieces & playable == 0 {
                    return Err(YutError::NotMovable(format!("piece {piece} is not {who}'s to move")));
                }
                self.take_from_pool(state, result)?;
                // The unit moves where it is in the list: its lowest piece, the list's order,
                // stays the same.
                let mut unit = state.sides[side].units[index];
                let from = unit.station;
                if result == Stick::Backdo {
                    if unit.trail.len() >= 2 {
                        unit.trail.pop();
                        unit.station = unit.trail[unit.trail.len() - 1];
                    } else {
                        unit.station = ring_back(unit.station);
                        unit.trail = Trail::at(unit.station);
                    }
                    unit.route = None;
                } else if let Walk::Finished = self.walk(&mut unit, result.steps()) {
                    state.sides[side].units.remove(index);
                    let count = unit.size();
                    state.sides[side].finished |= unit.pieces;
                    events.emit_with(|| YutEvent::Finish {
                        seat: who,
                        unit: unit_ids(&unit),
                        from,
                        throw: result.name(),
                        count,
                    });
                    return self.after_finish(state, side, events);
                }
                events.emit_with(|| YutEvent::Move {
                    seat: who,
                    unit: unit_ids(&unit),
                    from,
                    to: unit.station,
                    throw: result.name(),
                });
                state.sides[side].units[index] = unit;
                unit
            }
            other => {
                return Err(YutError::WrongKind { action: other.to_string(), awaiting: "move" });
            }
        };
        // Arrival: capture first (the arriving unit is already in its side's list, and a unit
        // is its own friend). The same pass notes a friendly unit on the station (captures
        // take only the others, so it is there after them too).
        let station = unit.station;
        let mut captured = false;
        let mut has_friend = false;
        for (other, other_pieces) in state.sides.iter_mut().enumerate() {
            let mut i = 0;
            while i < other_pieces.units.len() {
                let target = &other_pieces.units[i];
                if target.station != station {
                    i += 1;
                } else if other == side && self.friends(target.pieces, unit.pieces) {
                    has_friend |= target.pieces != unit.pieces;
                    i += 1;
                } else {
                    let victim = other_pieces.units.remove(i);
                    other_pieces.hand |= victim.pieces;
                    captured = true;
                    events.emit_with(|| YutEvent::Capture {
                        seat: who,
                        captured: SIDE_NAMES[other],
                        unit: unit_ids(&victim),
                        station,
                    });
                }
            }
        }
        if captured {
            state.counters[side].captures += 1;
            state.counters[side].extra_throws += 1;
        }
        let piece = unit.lowest();
        state.pending = Some(Pending { side: side as u8, piece, captured });
        if has_friend {
            match self.settings.stacking {
                Stacking::Auto => self.stack(state, side, piece, events),
                Stacking::Optional => {
                    state.phase = Phase::Stack;
                    return Ok(());
                }
            }
        }
        // Only a branch station asks the route question (`settle_route` looks the unit up for
        // it); elsewhere the move settles with the bonus throw.
        if shortcut(station).is_some() {
            self.settle_route(state, events);
        } else {
            self.settle_bonus(state, events);
        }
        Ok(())
    }

    /// Joins the unit holding `piece` with every friendly unit on its station.
    fn stack(&self, state: &mut YutState, side: usize, piece: u8, events: &mut impl EventSink<YutEvent>) {
        let who = self.mover_name(state);
        let units = &mut state.sides[side].units;
        let Some(index) = units.iter().position(|u| u.pieces & (1 << piece) != 0) else { return };
        let mut arriving = units.remove(index);
        let station = arriving.station;
        let mut joined = 0;
        let mut i = 0;
        while i < units.len() {
            if units[i].station == station && self.friends(units[i].pieces, arriving.pieces) {
                arriving.pieces |= units.remove(i).pieces;
                joined += 1;
            } else {
                i += 1;
            }
        }
        if joined > 0 {
            state.counters[side].stacks += 1;
            events.emit_with(|| YutEvent::Stack { seat: who, size: arriving.size(), station });
        }
        insert_unit(units, arriving);
    }

    /// After the capture and stack question: the route question, then the bonus throw.
    fn settle_route(&self, state: &mut YutState, events: &mut impl EventSink<YutEvent>) {
        let Some(pending) = state.pending else { return };
        let side = usize::from(pending.side);
        if let Some(unit) = state.sides[side].units.iter_mut().find(|u| u.pieces & (1 << pending.piece) != 0)
            && let Some(shortcut) = shortcut(unit.station)
        {
            match self.settings.shortcuts {
                Shortcuts::Forced => unit.route = Some(shortcut),
                Shortcuts::Optional => {
                    state.phase = Phase::Route;
                    return;
                }
            }
        }
        self.settle_bonus(state, events);
    }

    /// The last consequence of a move: the bonus throw, or back to spending.
    fn settle_bonus(&self, state: &mut YutState, events: &mut impl EventSink<YutEvent>) {
        // Every move keeps each side's units in order (checked after every move of the test
        // profile's playouts); a state read from outside is sorted as it is read.
        debug_assert!(state.sides.iter().all(|side| side.units.is_sorted_by_key(Unit::lowest)), "{state:?}");
        let captured = state.pending.take().is_some_and(|p| p.captured);
        if captured {
            events.emit_with(|| YutEvent::Bonus { seat: self.mover_name(state) });
            state.phase = Phase::Throw;
        } else {
            self.continue_spending(state, events);
        }
    }

    /// Spend if anything can be spent; otherwise discard the rest and end the turn.
    fn continue_spending(&self, state: &mut YutState, events: &mut impl EventSink<YutEvent>) {
        if !self.can_spend(state) {
            if !state.pool.is_empty() {
                events.emit_with(|| YutEvent::Discard { seat: self.mover_name(state), pool: Self::pool_names(state) });
            }
            self.end_turn(state, events);
        } else {
            state.phase = Phase::Spend;
        }
    }

    fn end_turn(&self, state: &mut YutState, events: &mut impl EventSink<YutEvent>) {
        state.pool.clear();
        state.pending = None;
        state.throws_this_turn = 0;
        let len = self.rotation_len();
        for _ in 0..len {
            // `(position + 1) mod len`, without a division when the position is in range.
            let next = state.position + 1;
            state.position = if next < len { next } else { next % len };
            let (side, _) = self.current(state);
            if !state.finished_sides.contains(&(side as u8)) {
                break;
            }
        }
        state.phase = Phase::Throw;
        events.emit_with(|| YutEvent::ToThrow { seat: self.mover_name(state) });
    }

    fn after_finish(
        &self,
        state: &mut YutState,
        side: usize,
        events: &mut impl EventSink<YutEvent>,
    ) -> Result<(), YutError> {
        state.pending = None;
        if state.sides[side].finished != self.all_pieces() {
            self.continue_spending(state, events);
            return Ok(());
        }
        state.finished_sides.push(side as u8);
        events.emit_with(|| YutEvent::SideDone { side: SIDE_NAMES[side] });
        let remaining: Vec<u8> = (0..self.side_count() as u8).filter(|s| !state.finished_sides.contains(s)).collect();
        if self.settings.finish == Finish::First || remaining.len() <= 1 {
            if self.settings.finish == Finish::Ranking {
                state.finished_sides.extend(remaining);
            }
            state.pool.clear();
            state.phase = Phase::Over;
            return Ok(());
        }
        if !state.pool.is_empty() {
            events.emit_with(|| YutEvent::Leaves { side: SIDE_NAMES[side], pool: Self::pool_names(state) });
        }
        self.end_turn(state, events);
        Ok(())
    }

    fn throw(&self, state: &mut YutState, result: Stick, events: &mut impl EventSink<YutEvent>) {
        events.emit_with(|| YutEvent::Throw { seat: self.mover_name(state), throw: result.name() });
        let first_throw = state.throws_this_turn == 0;
        state.throws_this_turn = state.throws_this_turn.saturating_add(1);
        if result == Stick::Nak {
            match self.settings.nak_rule {
                NakRule::VoidSet => {
                    events.emit_with(|| YutEvent::NakSet { seat: self.mover_name(state) });
                    self.end_turn(state, events);
                }
                NakRule::VoidThrow if first_throw => {
                    events.emit_with(|| YutEvent::NakFirst { seat: self.mover_name(state) });
                    self.end_turn(state, events);
                }
                NakRule::VoidThrow => {
                    events.emit_with(|| YutEvent::NakThrow { seat: self.mover_name(state) });
                    self.continue_spending(state, events);
                }
            }
            return;
        }
        state.pool.push(result);
        if result.throws_again() {
            let (side, _) = self.current(state);
            state.counters[side].extra_throws += 1;
            events.emit_with(|| YutEvent::Again { seat: self.mover_name(state) });
        } else {
            self.continue_spending(state, events);
        }
    }

    fn ceremony_throw(&self, state: &mut YutState, result: Stick, events: &mut impl EventSink<YutEvent>) {
        let Some(thrower) = Self::ceremony_thrower(state) else { return };
        let name = SIDE_NAMES[usize::from(thrower)];
        if result == Stick::Nak {
            events.emit_with(|| YutEvent::CeremonyNak { side: name });
            return;
        }
        events.emit_with(|| YutEvent::CeremonyThrow { side: name, throw: result.name() });
        let Some(ceremony) = state.ceremony.as_mut() else { return };
        ceremony.thrown.push(result.ceremony_value());
        let Some(index) = ceremony.groups.iter().position(|g| !g.settled) else { return };
        if ceremony.thrown.len() < ceremony.groups[index].sides.len() {
            return;
        }
        // The group has all thrown: split it by value, highest first, seat order within.
        let group = ceremony.groups.remove(index);
        let mut pairs: Vec<(i8, u8)> = ceremony.thrown.drain(..).zip(group.sides.iter().copied()).collect();
        pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut subgroups: Vec<CeremonyGroup> = Vec::new();
        let mut last_value = None;
        for (value, side) in pairs {
            match subgroups.last_mut() {
                Some(last) if last_value == Some(value) => last.sides.push(side),
                _ => subgroups.push(CeremonyGroup { sides: vec![side], settled: false }),
            }
            last_value = Some(value);
        }
        ceremony.groups.splice(index..index, subgroups);
        for g in ceremony.groups.iter_mut() {
            if g.sides.len() == 1 {
                g.settled = true;
            }
        }
        if let Some(tied) = ceremony.groups.iter().find(|g| !g.settled) {
            events.emit_with(|| YutEvent::Tie {
                sides: tied.sides.iter().map(|s| SIDE_NAMES[usize::from(*s)]).collect(),
            });
        } else {
            state.phase = Phase::CeremonySlot;
            let groups = &ceremony.groups;
            events.emit_with(|| YutEvent::Rank {
                sides: groups.iter().map(|g| SIDE_NAMES[usize::from(g.sides[0])]).collect(),
            });
        }
    }

    fn pick_slot(&self, state: &mut YutState, slot: u8, events: &mut impl EventSink<YutEvent>) -> Result<(), YutError> {
        let Some(picker) = Self::ceremony_picker(state) else { return Err(YutError::GameOver) };
        let Some(ceremony) = state.ceremony.as_mut() else { return Err(YutError::GameOver) };
        let index = usize::from(slot).wrapping_sub(1);
        if ceremony.slots.get(index).is_none_or(Option::is_some) {
            let free: Vec<String> = (1..=ceremony.slots.len())
                .filter(|&n| ceremony.slots[n - 1].is_none())
                .map(|n| n.to_string())
                .collect();
            return Err(YutError::BadSlot(slot, free.join(", ")));
        }
        ceremony.slots[index] = Some(picker);
        events.emit_with(|| YutEvent::TakesSlot { side: SIDE_NAMES[usize::from(picker)], slot });
        let mut left = (0..ceremony.slots.len()).filter(|&n| ceremony.slots[n].is_none());
        if let (Some(last), None) = (left.next(), left.next()) {
            let picked = ceremony.slots.iter().flatten().count();
            if let Some(side) = ceremony.groups.get(picked).and_then(|g| g.sides.first()).copied() {
                ceremony.slots[last] = Some(side);
                events.emit_with(|| YutEvent::GetsSlot { side: SIDE_NAMES[usize::from(side)], slot: last as u8 + 1 });
            }
        }
        if ceremony.slots.iter().all(Option::is_some) {
            state.order = ceremony.slots.iter().flatten().copied().collect();
            let order = &state.order;
            events.emit_with(|| YutEvent::Order { sides: order.iter().map(|s| SIDE_NAMES[usize::from(*s)]).collect() });
            state.ceremony = None;
            state.position = 0;
            state.phase = Phase::Throw;
        }
        Ok(())
    }
}

/// A unit's piece ids, ascending.
fn unit_ids(unit: &Unit) -> Vec<u8> {
    (0..16).filter(|p| unit.pieces & (1 << p) != 0).collect()
}

impl Game for Yut {
    type Options = YutOptions;
    type State = YutState;
    type Action = YutAction;
    type Event = YutEvent;
    type Error = YutError;
    type Pieces = std::collections::BTreeMap<String, Vec<i8>>;
    type Figures = std::collections::BTreeMap<String, SideFigures>;

    const NAME: &'static str = "yut";
    const EVENT_KINDS: &'static [EventKind] = YutEvent::KINDS;

    fn new(options: &YutOptions, players: Option<usize>) -> Result<Self, RulesError> {
        Ok(Yut::from_settings(options.settings(players)?))
    }

    fn seat_names(&self) -> Vec<String> {
        (0..usize::from(self.settings.players))
            .map(|seat| {
                let sides = self.side_count();
                self.name_of_seat(seat % sides, seat / sides).to_owned()
            })
            .collect()
    }

    fn side_names(&self) -> Vec<String> {
        SIDE_NAMES[..self.side_count()].iter().map(|s| (*s).to_owned()).collect()
    }

    fn side_of_seat(&self, seat: usize) -> usize {
        seat % self.side_count()
    }

    fn initial_state(&self) -> YutState {
        let sides = self.side_count();
        let ceremony = (self.settings.order == Order::Ceremony).then(|| Ceremony {
            groups: vec![CeremonyGroup { sides: (0..sides as u8).collect(), settled: false }],
            thrown: Vec::new(),
            slots: vec![None; sides],
        });
        YutState {
            sides: vec![SidePieces { hand: self.all_pieces(), finished: 0, units: Vec::new() }; sides],
            order: if ceremony.is_some() { Vec::new() } else { (0..sides as u8).collect() },
            position: 0,
            phase: if ceremony.is_some() { Phase::CeremonyThrow } else { Phase::Throw },
            pool: Vec::new(),
            throws_this_turn: 0,
            pending: None,
            ceremony,
            finished_sides: Vec::new(),
            counters: vec![SideCounters::default(); sides],
        }
    }

    fn turn(&self, state: &YutState) -> Turn {
        match state.phase {
            Phase::CeremonyThrow | Phase::Throw => Turn::Chance,
            Phase::CeremonySlot => {
                Turn::Seat(Self::ceremony_picker(state).map_or(0, |s| self.seat_of(usize::from(s), 0)))
            }
            Phase::Spend | Phase::Stack | Phase::Route => {
                let (side, member) = self.current(state);
                Turn::Seat(self.seat_of(side, member))
            }
            Phase::Over => Turn::Terminal,
        }
    }

    fn mover(&self, state: &YutState) -> Option<usize> {
        match state.phase {
            // The ceremony decides the order: nobody's turn yet (its slot picks are decisions).
            Phase::CeremonyThrow => None,
            Phase::CeremonySlot => match self.turn(state) {
                Turn::Seat(seat) => Some(seat),
                _ => None,
            },
            Phase::Throw | Phase::Spend | Phase::Stack | Phase::Route => {
                let (side, member) = self.current(state);
                Some(self.seat_of(side, member))
            }
            Phase::Over => None,
        }
    }

    fn thrower(&self, state: &YutState) -> Option<usize> {
        match state.phase {
            // Every side throws for itself in the ceremony, a team by its first player (spec
            // `yut.md`, "Turn order").
            Phase::CeremonyThrow => Self::ceremony_thrower(state).map(|side| self.seat_of(usize::from(side), 0)),
            Phase::Throw => self.mover(state),
            _ => None,
        }
    }

    fn chance_outcomes(&self, state: &YutState, out: &mut Vec<(YutAction, Weight)>) {
        out.clear();
        if let Some(throws) = self.chance_table(state) {
            out.extend_from_slice(throws.outcomes());
        }
    }

    fn chance_table(&self, state: &YutState) -> Option<&ChanceTable<YutAction>> {
        matches!(state.phase, Phase::CeremonyThrow | Phase::Throw).then_some(&self.throws)
    }

    fn legal_actions(&self, state: &YutState, out: &mut Vec<YutAction>) {
        out.clear();
        match state.phase {
            Phase::Spend => self.spend_actions(state, out),
            Phase::Stack => out.extend([YutAction::Stack(false), YutAction::Stack(true)]),
            Phase::Route => {
                if let Some(pending) = state.pending
                    && let Some(unit) = state.sides[usize::from(pending.side)]
                        .units
                        .iter()
                        .find(|u| u.pieces & (1 << pending.piece) != 0)
                    && let Some((a, b)) = branch_choices(unit.station)
                {
                    out.extend([YutAction::Route(a.min(b)), YutAction::Route(a.max(b))]);
                }
            }
            Phase::CeremonySlot => {
                if let Some(ceremony) = &state.ceremony {
                    out.extend(
                        (0..ceremony.slots.len())
                            .filter(|&n| ceremony.slots[n].is_none())
                            .map(|n| YutAction::Slot(n as u8 + 1)),
                    );
                }
            }
            Phase::CeremonyThrow | Phase::Throw | Phase::Over => {}
        }
    }

    fn apply(
        &self,
        state: &mut YutState,
        action: YutAction,
        events: &mut impl EventSink<YutEvent>,
    ) -> Result<(), YutError> {
        let wrong = |state: &YutState| YutError::WrongKind {
            action: action.to_string(),
            awaiting: self.awaiting(state).unwrap_or("nothing"),
        };
        match (state.phase, action) {
            (Phase::Over, _) => Err(YutError::GameOver),
            (Phase::CeremonyThrow | Phase::Throw, YutAction::Throw(result)) => {
                if self.weights[result as usize] == 0 {
                    return Err(YutError::ImpossibleThrow(result.name()));
                }
                if state.phase == Phase::CeremonyThrow {
                    self.ceremony_throw(state, result, events);
                } else {
                    self.throw(state, result, events);
                }
                Ok(())
            }
            (Phase::CeremonySlot, YutAction::Slot(slot)) => self.pick_slot(state, slot, events),
            // `spend` checks everything before it changes anything.
            (Phase::Spend, YutAction::Enter(_) | YutAction::Move(..)) => self.spend(state, action, events),
            (Phase::Stack, YutAction::Stack(yes)) => {
                if let Some(pending) = state.pending {
                    if yes {
                        self.stack(state, usize::from(pending.side), pending.piece, events);
                    } else {
                        events.emit_with(|| YutEvent::NoStack { seat: self.mover_name(state) });
                    }
                }
                self.settle_route(state, events);
                Ok(())
            }
            (Phase::Route, YutAction::Route(next)) => {
                let mut choices = Vec::new();
                self.legal_actions(state, &mut choices);
                if !choices.contains(&action) {
                    let text: Vec<String> = choices.iter().map(ToString::to_string).collect();
                    return Err(YutError::BadRoute(next, text.join(" or ")));
                }
                let who = self.mover_name(state);
                if let Some(pending) = state.pending
                    && let Some(unit) = state.sides[usize::from(pending.side)]
                        .units
                        .iter_mut()
                        .find(|u| u.pieces & (1 << pending.piece) != 0)
                {
                    unit.route = Some(next);
                    let (seat, from) = (who, unit.station);
                    events.emit_with(|| YutEvent::Route { seat, from, to: next });
                }
                self.settle_bonus(state, events);
                Ok(())
            }
            _ => Err(wrong(state)),
        }
    }

    fn awaiting(&self, state: &YutState) -> Option<&'static str> {
        match state.phase {
            Phase::CeremonyThrow | Phase::Throw => Some("throw"),
            Phase::CeremonySlot => Some("slot"),
            Phase::Spend => Some("move"),
            Phase::Stack => Some("stack"),
            Phase::Route => Some("route"),
            Phase::Over => None,
        }
    }

    fn pieces(&self, state: &YutState) -> Self::Pieces {
        let value = |pieces: &SidePieces, p: u8| -> i8 {
            if pieces.finished & (1 << p) != 0 {
                99
            } else if pieces.hand & (1 << p) != 0 {
                -1
            } else {
                pieces.units.iter().find(|u| u.pieces & (1 << p) != 0).map_or(-1, |u| u.station as i8)
            }
        };
        let n = self.settings.pieces;
        let mut map = std::collections::BTreeMap::new();
        for (side, pieces) in state.sides.iter().enumerate() {
            if self.settings.mode == Mode::TeamSeparate {
                for member in 0..2 {
                    let ids = (n * member as u8)..(n * (member as u8 + 1));
                    map.insert(self.name_of_seat(side, member).to_owned(), ids.map(|p| value(pieces, p)).collect());
                }
            } else {
                map.insert(SIDE_NAMES[side].to_owned(), (0..n).map(|p| value(pieces, p)).collect());
            }
        }
        map
    }

    fn outcome(&self, state: &YutState) -> Option<Outcome> {
        if state.phase != Phase::Over {
            return None;
        }
        let order: Vec<usize> = state.finished_sides.iter().map(|s| usize::from(*s)).collect();
        match self.settings.finish {
            Finish::Ranking if self.side_count() > 2 => Some(Outcome::Ranking(order)),
            _ => order.first().map(|&s| Outcome::Winner(s)),
        }
    }

    fn figures(&self, state: &YutState) -> Self::Figures {
        let reach = self.settings.exit == Exit::Reach;
        state
            .sides
            .iter()
            .enumerate()
            .map(|(side, pieces)| {
                let mut steps_left = 0;
                for p in 0..self.pieces_per_side() {
                    let bit = 1u16 << p;
                    if pieces.finished & bit != 0 {
                        continue;
                    }
                    steps_left += if pieces.hand & bit != 0 {
                        5 + steps_to_finish(MO_CORNER, reach)
                    } else {
                        pieces
                            .units
                            .iter()
                            .find(|u| u.pieces & bit != 0)
                            .map_or(0, |u| steps_to_finish(u.station, reach))
                    };
                }
                let c = state.counters[side];
                (
                    SIDE_NAMES[side].to_owned(),
                    SideFigures {
                        finished: pieces.finished.count_ones(),
                        steps_left,
                        captures: c.captures,
                        extra_throws: c.extra_throws,
                        stacks: c.stacks,
                    },
                )
            })
            .collect()
    }

    fn turn_order(&self, state: &YutState) -> Vec<usize> {
        (0..self.rotation_len())
            .map(|p| {
                let (side, member) = self.seat_at(state, p);
                self.seat_of(side, member)
            })
            .collect()
    }

    fn extra_fields(&self, state: &YutState) -> Vec<(&'static str, Vec<String>)> {
        let mut fields = vec![("pool", state.pool.iter().map(|s| s.name().to_owned()).collect())];
        if let Some(question) = Self::stack_question(state) {
            fields.push(("stacking", question));
        }
        fields
    }

    fn canonical(&self, state: &YutState, action: YutAction) -> YutAction {
        if let YutAction::Move(piece, result) = action {
            let (side, _) = self.current(state);
            if let Some(unit) = state.sides[side].units.iter().find(|u| piece < 16 && u.pieces & (1 << piece) != 0) {
                return YutAction::Move(unit.lowest(), result);
            }
        }
        action
    }
}
