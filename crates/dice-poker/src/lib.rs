//! Seven Dice Poker (일곱 주사위 포커), an original two-player dice placement and set collection
//! game, as a madang rules engine (spec `dice-poker.md`).
//!
//! Positions are [`PokerState`] values; the rules in force are a [`DicePoker`] value built from
//! [`PokerOptions`] (the record's `rules` object). Notation: `roll N` (chance, also the roll-off
//! rolls), `place C` (the rolled die on cell C) and `token C` (the token on cell C, token rule
//! only). Legal actions are listed `place` cells ascending, then `token` cells ascending.
//!
//! This crate does no I/O and holds no random generator.

mod board;
mod hand;

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use madang_core::{ChanceTable, EventKind, EventSink, Game, NotationError, Outcome, RulesError, Turn, Weight};
use serde::{Deserialize, Serialize};

pub use board::{Board, BoardKind, CELLS, MAX_GRID, default_layout};
pub use hand::{Hand, HandKind, StraightRule, best_hand, best_hand_of_counts, counts_of};

/// Seat names in seat order; who moves first is decided by the roll-off.
pub const SEATS: [&str; 2] = ["white", "black"];

/// Dice per player.
pub const DICE: u8 = 7;

/// The `rules` object of a Dice Poker record. Every key is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PokerOptions {
    /// `"a"` (default: eight neighbours) or `"b"` (four orthogonal neighbours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardKind>,
    /// A custom layout: rows of `#` (cell) and `.` (no cell) with exactly 16 cells, numbered in
    /// reading order. Default: the 4 × 4 grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Vec<String>>,
    /// The token rule (default `false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<bool>,
    /// `"distinct"` (default) or `"consecutive"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub straight: Option<StraightRule>,
}

/// The rule values in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PokerSettings {
    /// The adjacency kind.
    pub board: BoardKind,
    /// The token rule.
    pub tokens: bool,
    /// What counts as a straight.
    pub straight: StraightRule,
}

/// A move or a chance outcome. The derived order (`roll` < `place` < `token`, then by number)
/// is the order of legal actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PokerAction {
    /// `roll N`: the die shows N (1-6); also the roll-off rolls.
    Roll(u8),
    /// `place C`: place the rolled die, showing its value, on cell C.
    Place(u8),
    /// `token C`: place the token on cell C instead of the rolled die (token rule only).
    Token(u8),
}

impl fmt::Display for PokerAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PokerAction::Roll(n) => write!(f, "roll {n}"),
            PokerAction::Place(c) => write!(f, "place {c}"),
            PokerAction::Token(c) => write!(f, "token {c}"),
        }
    }
}

impl FromStr for PokerAction {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let forms = "`roll N`, `place C` or `token C`";
        Ok(match madang_core::word_and_number(text, &["roll", "place", "token"], forms)? {
            (0, n) => PokerAction::Roll(n),
            (1, n) => PokerAction::Place(n),
            (_, n) => PokerAction::Token(n),
        })
    }
}

/// One cell of the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    /// Nothing placed.
    #[default]
    Empty,
    /// A die of `seat` (0 white, 1 black) showing `value` (1-6).
    Die {
        /// Owner.
        seat: u8,
        /// Face shown, 1-6.
        value: u8,
    },
    /// The token of `seat`.
    Token {
        /// Owner.
        seat: u8,
    },
}

/// What the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The roll-off (a chance node): white rolls, then black (`to_move` is the roller).
    RollOff {
        /// White's roll-off die once rolled.
        white: Option<u8>,
    },
    /// `to_move` rolls its die (a chance node).
    Roll,
    /// `to_move` places: the rolled die (or the token), or only the token when `roll` is `None`
    /// (the player's only piece left is the token, so it did not roll).
    Place {
        /// The rolled value, or `None` on a token-only turn.
        roll: Option<u8>,
    },
    /// Everything is placed.
    Over {
        /// The winning seat, or `None` for a draw.
        winner: Option<u8>,
    },
}

/// A position: the board, the pieces still in hand, whose turn it is and what is awaited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PokerState {
    /// The 16 cells.
    pub cells: [Cell; CELLS],
    /// Dice still to place, `[white, black]`.
    pub dice_left: [u8; 2],
    /// Whether each seat still has its token to place (always `false` without the token rule).
    pub token_left: [bool; 2],
    /// The seat to roll or place (0 white, 1 black).
    pub to_move: u8,
    /// The seat that won the roll-off, once decided.
    pub first: Option<u8>,
    /// Roll-off, roll, place or over.
    pub phase: Phase,
}

impl PokerState {
    /// The values of `seat`'s dice on the board, in cell order (tokens excluded).
    pub fn dice_of(&self, seat: usize) -> Vec<u8> {
        self.cells
            .iter()
            .filter_map(|c| match *c {
                Cell::Die { seat: s, value } if usize::from(s) == seat => Some(value),
                _ => None,
            })
            .collect()
    }

    /// How many of `seat`'s dice on the board show each value (entry `v - 1` for value `v`).
    pub fn counts_of(&self, seat: usize) -> [u8; 6] {
        let mut counts = [0u8; 6];
        for cell in &self.cells {
            if let Cell::Die { seat: s, value } = *cell
                && usize::from(s) == seat
            {
                counts[usize::from(value - 1)] += 1;
            }
        }
        counts
    }

    /// Bit `c` set when cell `c` is empty.
    pub fn empty_mask(&self) -> u16 {
        (0..CELLS).filter(|&c| self.cells[c] == Cell::Empty).fold(0, |m, c| m | (1 << c))
    }
}

/// Something an action caused, for `madang replay`'s `events`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PokerEvent {
    /// A roll-off die.
    RollOff {
        /// Seat index.
        seat: u8,
        /// Its roll.
        roll: u8,
    },
    /// The roll-off tied; both roll again.
    RollOffTie {
        /// The tied value.
        roll: u8,
    },
    /// The roll-off is decided.
    Starts {
        /// The seat that moves first.
        seat: u8,
        /// Its roll.
        high: u8,
        /// The other seat's roll.
        low: u8,
    },
    /// A turn's roll.
    Rolled {
        /// Seat index.
        seat: u8,
        /// The roll.
        roll: u8,
    },
    /// A die was placed.
    Placed {
        /// Seat index.
        seat: u8,
        /// The cell.
        cell: u8,
        /// The value it shows (the rolled value).
        value: u8,
    },
    /// A neighbouring die changed.
    Changed {
        /// The placing seat.
        seat: u8,
        /// The die's owner.
        owner: u8,
        /// Its cell.
        cell: u8,
        /// Value before.
        from: u8,
        /// Value after.
        to: u8,
    },
    /// A token was placed; the rolled die (if any) stays in hand.
    TokenPlaced {
        /// Seat index.
        seat: u8,
        /// The cell.
        cell: u8,
        /// The roll that was not used.
        kept: Option<u8>,
    },
    /// The seat's only piece left is its token: it does not roll.
    TokenOnly {
        /// Seat index.
        seat: u8,
    },
    /// A seat's final best hand.
    FinalHand {
        /// Seat index.
        seat: u8,
        /// The hand.
        hand: Hand,
    },
    /// The game is won: `hand` beats `over`, by its kind or, when the kinds are the same, by
    /// the first die that differs in comparison order ([`Hand::decider`]).
    Won {
        /// Seat index.
        seat: u8,
        /// The winner's hand.
        hand: Hand,
        /// The loser's hand.
        over: Hand,
    },
    /// Equal hands.
    Draw,
}

impl PokerEvent {
    /// Every kind of event, with its fields ([`Game::EVENT_KINDS`]; `docs/dice-poker.md`,
    /// "Events").
    pub const KINDS: &'static [EventKind] = &[
        EventKind::new("roll_off", &["seat", "roll"]),
        EventKind::new("roll_off_tie", &["roll"]),
        EventKind::new("starts", &["seat", "high", "low"]),
        EventKind::new("roll", &["seat", "roll"]),
        EventKind::new("place", &["seat", "cell", "value"]),
        EventKind::new("raise", &["seat", "cell", "from", "to"]),
        EventKind::new("lower", &["seat", "owner", "cell", "from", "to"]),
        EventKind::new("token", &["seat", "cell"]),
        EventKind::new("token_keep", &["seat", "cell", "kept"]),
        EventKind::new("token_only", &["seat"]),
        EventKind::new("final_hand", &["seat", "hand", "dice"]),
        EventKind::new("win", &["seat", "hand", "over"]),
        EventKind::new("win_on_dice", &["seat", "hand", "high", "low"]),
        EventKind::new("draw", &[]),
    ];
}

/// Serialized as `{"kind": …, fields}` (`docs/dice-poker.md`, "Events"): seats by name, a
/// neighbour change as `raise` (the placer's own die) or `lower` (the opponent's, `owner`), a
/// token as `token` or, when the rolled die is kept for later, `token_keep`; a final hand by its
/// name and its five dice in comparison order.
impl Serialize for PokerEvent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let name = |seat: &u8| SEATS[usize::from(*seat) % 2];
        let mut map = serializer.serialize_map(None)?;
        match self {
            PokerEvent::RollOff { seat, roll } => {
                map.serialize_entry("kind", "roll_off")?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("roll", roll)?;
            }
            PokerEvent::RollOffTie { roll } => {
                map.serialize_entry("kind", "roll_off_tie")?;
                map.serialize_entry("roll", roll)?;
            }
            PokerEvent::Starts { seat, high, low } => {
                map.serialize_entry("kind", "starts")?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("high", high)?;
                map.serialize_entry("low", low)?;
            }
            PokerEvent::Rolled { seat, roll } => {
                map.serialize_entry("kind", "roll")?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("roll", roll)?;
            }
            PokerEvent::Placed { seat, cell, value } => {
                map.serialize_entry("kind", "place")?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("cell", cell)?;
                map.serialize_entry("value", value)?;
            }
            PokerEvent::Changed { seat, owner, cell, from, to } => {
                map.serialize_entry("kind", if seat == owner { "raise" } else { "lower" })?;
                map.serialize_entry("seat", name(seat))?;
                if seat != owner {
                    map.serialize_entry("owner", name(owner))?;
                }
                map.serialize_entry("cell", cell)?;
                map.serialize_entry("from", from)?;
                map.serialize_entry("to", to)?;
            }
            PokerEvent::TokenPlaced { seat, cell, kept } => {
                map.serialize_entry("kind", if kept.is_some() { "token_keep" } else { "token" })?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("cell", cell)?;
                if let Some(kept) = kept {
                    map.serialize_entry("kept", kept)?;
                }
            }
            PokerEvent::TokenOnly { seat } => {
                map.serialize_entry("kind", "token_only")?;
                map.serialize_entry("seat", name(seat))?;
            }
            PokerEvent::FinalHand { seat, hand } => {
                map.serialize_entry("kind", "final_hand")?;
                map.serialize_entry("seat", name(seat))?;
                map.serialize_entry("hand", hand.kind.name())?;
                map.serialize_entry("dice", &hand.dice)?;
            }
            PokerEvent::Won { seat, hand, over } => match hand.decider(over) {
                None => {
                    map.serialize_entry("kind", "win")?;
                    map.serialize_entry("seat", name(seat))?;
                    map.serialize_entry("hand", hand.kind.name())?;
                    map.serialize_entry("over", over.kind.name())?;
                }
                Some((high, low)) => {
                    map.serialize_entry("kind", "win_on_dice")?;
                    map.serialize_entry("seat", name(seat))?;
                    map.serialize_entry("hand", hand.kind.name())?;
                    map.serialize_entry("high", &high)?;
                    map.serialize_entry("low", &low)?;
                }
            },
            PokerEvent::Draw => map.serialize_entry("kind", "draw")?,
        }
        map.end()
    }
}

impl fmt::Display for PokerEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |seat: &u8| SEATS[usize::from(*seat)];
        match self {
            PokerEvent::RollOff { seat, roll } => write!(f, "{} rolls {roll} in the roll-off", name(seat)),
            PokerEvent::RollOffTie { roll } => write!(f, "roll-off tied at {roll}: both roll again"),
            PokerEvent::Starts { seat, high, low } => write!(f, "{} starts ({high} against {low})", name(seat)),
            PokerEvent::Rolled { seat, roll } => write!(f, "{} rolls {roll}", name(seat)),
            PokerEvent::Placed { seat, cell, value } => write!(f, "{} places {value} on cell {cell}", name(seat)),
            PokerEvent::Changed { seat, owner, cell, from, to } if seat == owner => {
                write!(f, "{} raises own die on cell {cell} from {from} to {to}", name(seat))
            }
            PokerEvent::Changed { seat, owner, cell, from, to } => {
                write!(f, "{} lowers {}'s die on cell {cell} from {from} to {to}", name(seat), name(owner))
            }
            PokerEvent::TokenPlaced { seat, cell, kept: Some(roll) } => {
                write!(f, "{} places the token on cell {cell} and keeps the die (the {roll} is not used)", name(seat))
            }
            PokerEvent::TokenPlaced { seat, cell, kept: None } => {
                write!(f, "{} places the token on cell {cell}", name(seat))
            }
            PokerEvent::TokenOnly { seat } => {
                write!(f, "{} has only the token left and does not roll", name(seat))
            }
            PokerEvent::FinalHand { seat, hand } => write!(f, "{}'s hand: {hand}", name(seat)),
            PokerEvent::Won { seat, hand, over } => match hand.decider(over) {
                None => write!(f, "{} wins: {} beats {}", name(seat), hand.kind, over.kind),
                Some((high, low)) => {
                    write!(f, "{} wins: both hands are {}, and {high} beats {low}", name(seat), hand.kind)
                }
            },
            PokerEvent::Draw => write!(f, "the hands are equal: a draw"),
        }
    }
}

/// Why an action is not legal at a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PokerError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A placement was given where a roll is awaited.
    #[error("{seat} must roll first")]
    RollAwaited {
        /// Seat name.
        seat: &'static str,
    },
    /// A placement was given during the roll-off.
    #[error("the roll-off is not decided: {seat} must roll for the start")]
    RollOffAwaited {
        /// Seat name.
        seat: &'static str,
    },
    /// A roll was given where a placement is awaited.
    #[error("{seat} has rolled {roll} and must place it (or the token) before anyone rolls")]
    PlaceAwaited {
        /// Seat name.
        seat: &'static str,
        /// The roll being placed.
        roll: u8,
    },
    /// A roll or a die placement on a token-only turn.
    #[error("{seat} has only the token left: its turn is the token's placement, without a roll")]
    TokenOnlyTurn {
        /// Seat name.
        seat: &'static str,
    },
    /// A die cannot show this number.
    #[error("a die cannot roll {roll} (1-6)")]
    ImpossibleRoll {
        /// The roll given.
        roll: u8,
    },
    /// No such cell.
    #[error("cell {cell} is not on the board (cells 0-15)")]
    NoSuchCell {
        /// The cell given.
        cell: u8,
    },
    /// The cell already holds a die or a token.
    #[error("cell {cell} is occupied by {what}")]
    Occupied {
        /// The cell given.
        cell: u8,
        /// What is there, for the message.
        what: String,
    },
    /// `token C` without the token rule.
    #[error("the token rule is off (rule `tokens`), so there is no token to place")]
    TokensOff,
    /// The seat's token is already on the board.
    #[error("{seat} has already placed its token")]
    TokenUsed {
        /// Seat name.
        seat: &'static str,
    },
}

/// A seat's final hand as results show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The hand's name (`"full house"`).
    pub hand: String,
    /// The five dice in comparison order.
    pub dice: Vec<u8>,
}

impl From<Hand> for HandView {
    fn from(hand: Hand) -> Self {
        HandView { hand: hand.kind.name().to_owned(), dice: hand.dice.to_vec() }
    }
}

/// Both seats' final hands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hands {
    /// White's hand.
    pub white: HandView,
    /// Black's hand.
    pub black: HandView,
}

/// The hand names by turn-order position (first mover first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandsByPosition {
    /// The hand of the seat that won the roll-off.
    pub first: String,
    /// The other seat's hand.
    pub second: String,
}

/// The figures reported with a result (`result.stats` of `madang replay`; aggregated per JSON
/// path by `madang sim`): who started, and both final hands once everything is placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PokerFigures {
    /// The seat that won the roll-off, once decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<&'static str>,
    /// Both final hands with their dice, when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<Hands>,
    /// The hand names by turn-order position, when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands_by_position: Option<HandsByPosition>,
}

/// What one cell shows in `pieces`: a die's value or the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// A die showing this value.
    Die(u8),
    /// The token.
    Token,
}

impl Serialize for Face {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Face::Die(v) => serializer.serialize_u8(*v),
            Face::Token => serializer.serialize_str("token"),
        }
    }
}

/// One entry of `pieces`: `{"white": v}`, `{"black": v}` or `{"white": "token"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellView {
    /// White's die or token.
    White(Face),
    /// Black's die or token.
    Black(Face),
}

/// `pieces` in `madang replay`: the 16 cells in order, `null` where empty.
pub type PokerPieces = Vec<Option<CellView>>;

/// The rules in force: settings plus the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DicePoker {
    settings: PokerSettings,
    board: Board,
}

impl DicePoker {
    /// The rules for `settings` on the default 4 × 4 layout.
    pub fn from_settings(settings: PokerSettings) -> DicePoker {
        DicePoker { settings, board: Board::standard(settings.board) }
    }

    /// The rules for `settings` on `board` (whose kind replaces `settings.board`).
    pub fn with_board(settings: PokerSettings, board: Board) -> DicePoker {
        DicePoker { settings: PokerSettings { board: board.kind, ..settings }, board }
    }

    /// The rule values in force.
    pub fn settings(&self) -> &PokerSettings {
        &self.settings
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Pieces each seat places: 7 dice, plus the token with the token rule.
    pub fn pieces_per_seat(&self) -> u8 {
        DICE + u8::from(self.settings.tokens)
    }

    /// The best hand of `seat`'s dice on the board (`None` with fewer than five dice, or no hand
    /// yet).
    pub fn hand(&self, state: &PokerState, seat: usize) -> Option<Hand> {
        best_hand_of_counts(&state.counts_of(seat), self.settings.straight)
    }

    /// Places `seat`'s die showing `value` on the empty `cell` and changes its neighbours: the
    /// placer's dice +1, the opponent's −1, wrapping 6 + 1 = 1 and 1 − 1 = 6; tokens and the
    /// placed die are unchanged. No checks: the caller knows the cell is empty. Used by `apply`
    /// and by bots that look at placements without the turn structure.
    pub fn place_die(
        &self,
        cells: &mut [Cell; CELLS],
        seat: u8,
        cell: u8,
        value: u8,
        events: &mut impl EventSink<PokerEvent>,
    ) {
        cells[usize::from(cell)] = Cell::Die { seat, value };
        let mut mask = self.board.neighbours[usize::from(cell)];
        while mask != 0 {
            let n = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if let Cell::Die { seat: owner, value: from } = cells[n] {
                let to = if owner == seat { from % 6 + 1 } else { (from + 4) % 6 + 1 };
                cells[n] = Cell::Die { seat: owner, value: to };
                events.emit(PokerEvent::Changed { seat, owner, cell: n as u8, from, to });
            }
        }
    }

    fn check_cell(&self, state: &PokerState, cell: u8) -> Result<(), PokerError> {
        match state.cells.get(usize::from(cell)) {
            None => Err(PokerError::NoSuchCell { cell }),
            Some(Cell::Empty) => Ok(()),
            Some(Cell::Die { seat, value }) => {
                Err(PokerError::Occupied { cell, what: format!("{}'s die showing {value}", SEATS[usize::from(*seat)]) })
            }
            Some(Cell::Token { seat }) => {
                Err(PokerError::Occupied { cell, what: format!("{}'s token", SEATS[usize::from(*seat)]) })
            }
        }
    }

    /// After `seat`'s placement: the game ends when nothing is left to place, otherwise the
    /// other seat's turn starts (a roll, or the token alone).
    fn end_turn(&self, state: &mut PokerState, seat: u8, events: &mut impl EventSink<PokerEvent>) {
        let has_pieces = |s: usize| state.dice_left[s] > 0 || state.token_left[s];
        let next = if has_pieces(usize::from(1 - seat)) {
            1 - seat
        } else if has_pieces(usize::from(seat)) {
            seat
        } else {
            self.finish(state, events);
            return;
        };
        state.to_move = next;
        if state.dice_left[usize::from(next)] > 0 {
            state.phase = Phase::Roll;
        } else {
            events.emit(PokerEvent::TokenOnly { seat: next });
            state.phase = Phase::Place { roll: None };
        }
    }

    fn finish(&self, state: &mut PokerState, events: &mut impl EventSink<PokerEvent>) {
        let hands = [self.hand(state, 0), self.hand(state, 1)];
        for (seat, hand) in hands.iter().enumerate() {
            if let Some(hand) = hand {
                events.emit(PokerEvent::FinalHand { seat: seat as u8, hand: *hand });
            }
        }
        let winner = match hands[0].cmp(&hands[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        match (winner, hands) {
            (None, _) => events.emit(PokerEvent::Draw),
            (Some(seat), [Some(white), Some(black)]) => {
                let (hand, over) = if seat == 0 { (white, black) } else { (black, white) };
                events.emit(PokerEvent::Won { seat, hand, over });
            }
            // Seven dice always make a hand (`best_hand_of_counts`), so the game never ends
            // with a seat without one.
            (Some(_), _) => {}
        }
        state.phase = Phase::Over { winner };
    }
}

impl Game for DicePoker {
    type Options = PokerOptions;
    type State = PokerState;
    type Action = PokerAction;
    type Event = PokerEvent;
    type Error = PokerError;
    type Pieces = PokerPieces;
    type Figures = PokerFigures;

    const NAME: &'static str = "dice-poker";
    const EVENT_KINDS: &'static [EventKind] = PokerEvent::KINDS;
    const FIGURES_IN_RESULT: bool = true;

    fn new(options: &PokerOptions, players: Option<usize>) -> Result<Self, RulesError> {
        if let Some(players) = players
            && players != 2
        {
            return Err(RulesError::new("players", format!("Seven Dice Poker is for 2 players, got {players}")));
        }
        let settings = PokerSettings {
            board: options.board.unwrap_or_default(),
            tokens: options.tokens.unwrap_or(false),
            straight: options.straight.unwrap_or_default(),
        };
        let board = Board::new(settings.board, options.layout.as_deref())?;
        Ok(DicePoker::with_board(settings, board))
    }

    fn seat_names(&self) -> Vec<String> {
        SEATS.iter().map(|s| (*s).to_owned()).collect()
    }

    fn initial_state(&self) -> PokerState {
        PokerState {
            cells: [Cell::Empty; CELLS],
            dice_left: [DICE; 2],
            token_left: [self.settings.tokens; 2],
            to_move: 0,
            first: None,
            phase: Phase::RollOff { white: None },
        }
    }

    fn turn(&self, state: &PokerState) -> Turn {
        match state.phase {
            Phase::RollOff { .. } | Phase::Roll => Turn::Chance,
            Phase::Place { .. } => Turn::Seat(usize::from(state.to_move)),
            Phase::Over { .. } => Turn::Terminal,
        }
    }

    fn mover(&self, state: &PokerState) -> Option<usize> {
        match state.phase {
            Phase::Roll | Phase::Place { .. } => Some(usize::from(state.to_move)),
            // The roll-off decides who starts: nobody's turn yet.
            Phase::RollOff { .. } | Phase::Over { .. } => None,
        }
    }

    fn thrower(&self, state: &PokerState) -> Option<usize> {
        match state.phase {
            // In the roll-off white rolls, then black (`to_move` is the roller).
            Phase::RollOff { .. } | Phase::Roll => Some(usize::from(state.to_move)),
            Phase::Place { .. } | Phase::Over { .. } => None,
        }
    }

    fn chance_outcomes(&self, state: &PokerState, out: &mut Vec<(PokerAction, Weight)>) {
        out.clear();
        if let Some(die) = self.chance_table(state) {
            out.extend_from_slice(die.outcomes());
        }
    }

    fn chance_table(&self, state: &PokerState) -> Option<&ChanceTable<PokerAction>> {
        /// One fair die: `roll 1` to `roll 6`, weight 1 each.
        static DIE: LazyLock<ChanceTable<PokerAction>> =
            LazyLock::new(|| ChanceTable::new((1..=6).map(|n| (PokerAction::Roll(n), 1)).collect()));
        matches!(state.phase, Phase::RollOff { .. } | Phase::Roll).then(|| &*DIE)
    }

    fn legal_actions(&self, state: &PokerState, out: &mut Vec<PokerAction>) {
        out.clear();
        let Phase::Place { roll } = state.phase else { return };
        let empty = state.empty_mask();
        if roll.is_some() {
            let mut mask = empty;
            while mask != 0 {
                out.push(PokerAction::Place(mask.trailing_zeros() as u8));
                mask &= mask - 1;
            }
        }
        if state.token_left[usize::from(state.to_move)] {
            let mut mask = empty;
            while mask != 0 {
                out.push(PokerAction::Token(mask.trailing_zeros() as u8));
                mask &= mask - 1;
            }
        }
    }

    fn apply(
        &self,
        state: &mut PokerState,
        action: PokerAction,
        events: &mut impl EventSink<PokerEvent>,
    ) -> Result<(), PokerError> {
        let seat = state.to_move;
        let s = usize::from(seat);
        let name = SEATS[s];
        match (state.phase, action) {
            (Phase::Over { .. }, _) => Err(PokerError::GameOver),
            (Phase::RollOff { .. } | Phase::Roll, PokerAction::Roll(roll)) if !(1..=6).contains(&roll) => {
                Err(PokerError::ImpossibleRoll { roll })
            }
            (Phase::RollOff { .. }, PokerAction::Place(_) | PokerAction::Token(_)) => {
                Err(PokerError::RollOffAwaited { seat: name })
            }
            (Phase::Roll, PokerAction::Place(_) | PokerAction::Token(_)) => Err(PokerError::RollAwaited { seat: name }),
            (Phase::Place { roll: Some(roll) }, PokerAction::Roll(_)) => {
                Err(PokerError::PlaceAwaited { seat: name, roll })
            }
            (Phase::Place { roll: None }, PokerAction::Roll(_) | PokerAction::Place(_)) => {
                Err(PokerError::TokenOnlyTurn { seat: name })
            }
            (Phase::RollOff { white: None }, PokerAction::Roll(roll)) => {
                events.emit(PokerEvent::RollOff { seat: 0, roll });
                state.phase = Phase::RollOff { white: Some(roll) };
                state.to_move = 1;
                Ok(())
            }
            (Phase::RollOff { white: Some(white) }, PokerAction::Roll(black)) => {
                events.emit(PokerEvent::RollOff { seat: 1, roll: black });
                if white == black {
                    events.emit(PokerEvent::RollOffTie { roll: white });
                    state.phase = Phase::RollOff { white: None };
                    state.to_move = 0;
                } else {
                    let (first, high, low) = if white > black { (0, white, black) } else { (1, black, white) };
                    events.emit(PokerEvent::Starts { seat: first, high, low });
                    state.first = Some(first);
                    state.to_move = first;
                    state.phase = Phase::Roll;
                }
                Ok(())
            }
            (Phase::Roll, PokerAction::Roll(roll)) => {
                events.emit(PokerEvent::Rolled { seat, roll });
                state.phase = Phase::Place { roll: Some(roll) };
                Ok(())
            }
            (Phase::Place { roll: Some(roll) }, PokerAction::Place(cell)) => {
                self.check_cell(state, cell)?;
                events.emit(PokerEvent::Placed { seat, cell, value: roll });
                self.place_die(&mut state.cells, seat, cell, roll, events);
                state.dice_left[s] -= 1;
                self.end_turn(state, seat, events);
                Ok(())
            }
            (Phase::Place { roll }, PokerAction::Token(cell)) => {
                if !self.settings.tokens {
                    return Err(PokerError::TokensOff);
                }
                if !state.token_left[s] {
                    return Err(PokerError::TokenUsed { seat: name });
                }
                self.check_cell(state, cell)?;
                state.cells[usize::from(cell)] = Cell::Token { seat };
                state.token_left[s] = false;
                events.emit(PokerEvent::TokenPlaced { seat, cell, kept: roll });
                self.end_turn(state, seat, events);
                Ok(())
            }
        }
    }

    fn awaiting(&self, state: &PokerState) -> Option<&'static str> {
        match state.phase {
            Phase::RollOff { .. } | Phase::Roll => Some("roll"),
            Phase::Place { .. } => Some("place"),
            Phase::Over { .. } => None,
        }
    }

    fn pieces(&self, state: &PokerState) -> PokerPieces {
        state
            .cells
            .iter()
            .map(|cell| {
                let (seat, face) = match *cell {
                    Cell::Empty => return None,
                    Cell::Die { seat, value } => (seat, Face::Die(value)),
                    Cell::Token { seat } => (seat, Face::Token),
                };
                Some(if seat == 0 { CellView::White(face) } else { CellView::Black(face) })
            })
            .collect()
    }

    fn outcome(&self, state: &PokerState) -> Option<Outcome> {
        match state.phase {
            Phase::Over { winner: Some(seat) } => Some(Outcome::Winner(usize::from(seat))),
            Phase::Over { winner: None } => Some(Outcome::Draw),
            _ => None,
        }
    }

    fn figures(&self, state: &PokerState) -> PokerFigures {
        let first = state.first.map(|f| SEATS[usize::from(f)]);
        let (hands, hands_by_position) = match (state.phase, self.hand(state, 0), self.hand(state, 1)) {
            (Phase::Over { .. }, Some(white), Some(black)) => {
                let by_position = state.first.map(|f| {
                    let (first, second) = if f == 0 { (white, black) } else { (black, white) };
                    HandsByPosition { first: first.kind.name().to_owned(), second: second.kind.name().to_owned() }
                });
                (Some(Hands { white: white.into(), black: black.into() }), by_position)
            }
            _ => (None, None),
        };
        PokerFigures { first, hands, hands_by_position }
    }

    fn turn_order(&self, state: &PokerState) -> Vec<usize> {
        match state.first {
            Some(1) => vec![1, 0],
            _ => vec![0, 1],
        }
    }
}
