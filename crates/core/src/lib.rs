//! The engine model shared by every madang game (spec `README.md`, "Shared engine model").
//!
//! A game is a pure, deterministic state machine with explicit chance nodes, the model of
//! OpenSpiel's explicit-stochastic games:
//!
//! - [`Game::turn`] says whose turn it is: a seat, chance, or terminal;
//! - at a chance node [`Game::chance_outcomes`] lists every outcome with an integer weight;
//! - at a decision node [`Game::legal_actions`] lists the legal actions, sorted ascending by the
//!   action type's `Ord`, without duplicates;
//! - [`Game::apply`] is deterministic and either succeeds or returns the game's error type, which
//!   names why; it never panics and leaves the state unchanged on error.
//!
//! Invariant of this crate and of every rules crate: no I/O, no random generator, no async, no
//! JSON handling beyond serde derives.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// An integer chance weight; a chance node's weights share one denominator (their sum, which
/// must fit in a `u64`).
pub type Weight = u64;

/// A chance node's outcomes that a game keeps as one fixed list (Ur's dice, Yut's throw, a die),
/// with what drawing from it needs worked out once: the total weight, and for totals up to
/// [`ChanceTable::INDEXED_TOTAL`] the outcome of every draw below the total.
///
/// The draw itself is the spec's (`docs/randomness.md`, step 5): a uniform integer `u` below
/// the total, then the first outcome `i` with `u < w_0 + … + w_i`. [`ChanceTable::pick`] gives
/// that `i` by a look-up where the loop over the cumulative weights would take a branch or a
/// count per outcome at every roll. The list's own rules (positive weights, a total within
/// `u64`) are the node's ([`Game::chance_outcomes`]); a table that breaks them says so in
/// [`ChanceTable::total`], which is then `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceTable<A> {
    outcomes: Vec<(A, Weight)>,
    /// The weights' sum; `None` when a weight is 0, the list is empty or the sum passes `u64`.
    total: Option<Weight>,
    /// Entry `u` is the outcome drawn by `u` (empty when the total is above
    /// [`ChanceTable::INDEXED_TOTAL`] or there are more than 256 outcomes).
    by_draw: Box<[u8]>,
}

impl<A> ChanceTable<A> {
    /// The largest total whose draws are looked up rather than counted: 4,096 one-byte
    /// entries. It covers the dice of Ur, Ludo and Seven Dice Poker and Yut's throw under its
    /// default rules (a total of 1,600); Yut's large fractions (totals up to 10^15) are counted.
    pub const INDEXED_TOTAL: Weight = 4096;

    /// The table of `outcomes`, in the node's order (sorted by action, as
    /// [`Game::chance_outcomes`] lists them).
    pub fn new(outcomes: Vec<(A, Weight)>) -> ChanceTable<A> {
        let total = outcomes
            .iter()
            .try_fold(0 as Weight, |sum, (_, w)| if *w == 0 { None } else { sum.checked_add(*w) })
            .filter(|total| *total > 0);
        let by_draw = match total {
            Some(total) if total <= Self::INDEXED_TOTAL && outcomes.len() <= 256 => {
                outcomes.iter().enumerate().flat_map(|(i, (_, w))| std::iter::repeat_n(i as u8, *w as usize)).collect()
            }
            _ => Box::default(),
        };
        ChanceTable { outcomes, total, by_draw }
    }

    /// The outcomes with their weights, in the node's order.
    pub fn outcomes(&self) -> &[(A, Weight)] {
        &self.outcomes
    }

    /// The sum of the weights, the bound of the uniform draw; `None` when the list cannot be
    /// drawn from (a weight of 0, no outcome, or a sum beyond `u64`).
    pub fn total(&self) -> Option<Weight> {
        self.total
    }

    /// Index of the outcome that the draw `u` (below [`ChanceTable::total`]) selects: the first
    /// whose cumulative weight is above `u`. A `u` at or above the total gives the last index.
    #[inline]
    pub fn pick(&self, u: Weight) -> usize {
        if u < self.by_draw.len() as Weight {
            return usize::from(self.by_draw[u as usize]);
        }
        // The number of cumulative weights at or below `u` (no branch on the draw).
        let (mut cumulative, mut index) = (0 as Weight, 0);
        for (_, w) in &self.outcomes {
            cumulative = cumulative.saturating_add(*w);
            index += usize::from(u >= cumulative);
        }
        index.min(self.outcomes.len().saturating_sub(1))
    }
}

/// Whose turn it is at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Turn {
    /// A decision by the seat with this index (0-based, in the game's seat order).
    Seat(usize),
    /// A chance node: the next action is one of [`Game::chance_outcomes`].
    Chance,
    /// The game is over: no action is legal.
    Terminal,
}

/// How a finished game ended, by the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// One side won (index into `Game::side_names`, which are the seats except in team games).
    Winner(usize),
    /// Sides in finishing order, best first (Yut's `ranking` end rule).
    Ranking(Vec<usize>),
    /// Nobody won.
    Draw,
    /// The game ended without a result (for example Ludo's roll limit); the text names why.
    NoResult(String),
}

/// One kind of event a game reports ([`Game::EVENT_KINDS`]): its `kind` tag and the names of
/// its fields, in the order they are serialized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventKind {
    /// The `kind` tag (`"capture"`).
    pub kind: &'static str,
    /// The fields beside `kind` (`["seat", "captured", "tile"]`).
    pub fields: &'static [&'static str],
}

impl EventKind {
    /// A kind with these fields.
    pub const fn new(kind: &'static str, fields: &'static [&'static str]) -> EventKind {
        EventKind { kind, fields }
    }
}

/// Receives the events an action causes (passes, captures, extra rolls, …), in order.
///
/// `()` discards them, which is what fast playouts use; a `Vec` collects them.
pub trait EventSink<E> {
    /// Called once per event, in the order they happen.
    fn emit(&mut self, event: E);

    /// Emits the event `make` builds, building it only if the sink keeps events (so playouts
    /// that discard events never format text).
    #[inline]
    fn emit_with(&mut self, make: impl FnOnce() -> E) {
        self.emit(make());
    }
}

impl<E> EventSink<E> for () {
    #[inline]
    fn emit(&mut self, _event: E) {}

    #[inline]
    fn emit_with(&mut self, _make: impl FnOnce() -> E) {}
}

impl<E> EventSink<E> for Vec<E> {
    fn emit(&mut self, event: E) {
        self.push(event);
    }
}

/// The most characters of a person's own text (an action, a name, an id) that an error message
/// repeats.
pub const ECHO_CHARS: usize = 64;

/// `text` as an error message repeats it: its first [`ECHO_CHARS`] characters, and `…` when there
/// were more (a message should name the input, not return 16 KiB of it).
///
/// ```
/// assert_eq!(madang_core::echo("move 3"), "move 3");
/// assert_eq!(madang_core::echo(&"윷".repeat(64)), "윷".repeat(64));
/// assert_eq!(madang_core::echo(&"윷".repeat(65)), format!("{}…", "윷".repeat(64)));
/// ```
pub fn echo(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..end])),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// The most characters of a message built around a library's error (serde's) that an error
/// repeats ([`echo_quoted`], [`field_error`]).
pub const MESSAGE_CHARS: usize = 400;

/// Where serde's messages repeat the input, and what follows it: the input is the text
/// between an opening and the *last* closing (a key may itself hold a backtick or an
/// escaped quote, but not serde's wording after it, which comes last).
const SERDE_ECHOES: [(&str, &[&str]); 3] = [
    ("unknown field `", &["`, expected", "`, there are no fields"]),
    ("unknown variant `", &["`, expected", "`, there are no variants"]),
    ("string \"", &["\", expected"]),
];

/// A library's error message about a person's input (serde's "unknown field `…`, expected one
/// of …", "invalid type: string \"…\", expected …"), as an error repeats it: the input it
/// repeats clipped as [`echo`] clips (whatever quotes or backticks that input holds), then the
/// whole to [`MESSAGE_CHARS`] characters. A message repeating a 1 MB unknown key would
/// otherwise be 1 MB.
///
/// ```
/// use madang_core::echo_quoted;
/// assert_eq!(echo_quoted("unknown field `pace`, expected `preset`"), "unknown field `pace`, expected `preset`");
/// let key = "k".repeat(100);
/// let cut = format!("{}…", "k".repeat(64));
/// assert_eq!(
///     echo_quoted(&format!("unknown field `{key}`, expected `preset`")),
///     format!("unknown field `{cut}`, expected `preset`")
/// );
/// // A backtick or an escaped quote inside the input does not end it.
/// assert_eq!(
///     echo_quoted(&format!("unknown field ``{key}`, there are no fields")),
///     format!("unknown field ``{}…`, there are no fields", "k".repeat(63))
/// );
/// assert_eq!(
///     echo_quoted(&format!("invalid type: string \"a\\\"{key}\", expected a boolean at line 1 column 9")),
///     format!("invalid type: string \"a\\\"{}…\", expected a boolean at line 1 column 9", "k".repeat(61))
/// );
/// // Anything else is cut at 400 characters.
/// assert_eq!(echo_quoted(&"x".repeat(500)), format!("{}…", "x".repeat(400)));
/// ```
pub fn echo_quoted(text: &str) -> String {
    let mut out = text.to_owned();
    // Where serde's own wording starts again after the input it repeats (0: it repeats none,
    // or only a number).
    let mut wording = 0;
    for (opening, closings) in SERDE_ECHOES {
        let Some(open) = out.find(opening).map(|i| i + opening.len()) else { continue };
        let Some(close) = closings.iter().filter_map(|c| out[open..].rfind(c)).max().map(|i| open + i) else {
            continue;
        };
        let clipped = echo(&out[open..close]).into_owned();
        wording = open + clipped.len();
        out = format!("{}{clipped}{}", &out[..open], &out[close..]);
        break;
    }
    let plain = plain_expected(&out[wording..]);
    out.truncate(wording);
    out.push_str(&plain);
    cap(out)
}

/// How a person reads what serde says it expected where serde names a Rust type: the small
/// integer types as the range they take, the others as a whole number (of 0 or more when
/// unsigned: a range such as 0 to 18446744073709551615 tells a person nothing, and the field's
/// own check names its real limits), the float types as "a number", a struct or an internally
/// tagged enum as the JSON object it is read from, another enum as one of its values.
const PLAIN_TYPES: [(&str, &str); 13] = [
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65535"),
    ("u32", "a whole number of 0 or more"),
    ("u64", "a whole number of 0 or more"),
    ("usize", "a whole number of 0 or more"),
    ("i8", "a whole number from -128 to 127"),
    ("i16", "a whole number from -32768 to 32767"),
    ("i32", "a whole number"),
    ("i64", "a whole number"),
    ("isize", "a whole number"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("char", "a single character"),
];

/// `wording` (serde's words, never a person's input) with each "expected T" that names a Rust
/// type ([`PLAIN_TYPES`], `struct Name`, `internally tagged enum Name`, `enum Name`) said in
/// plain words.
fn plain_expected(wording: &str) -> String {
    const EXPECTED: &str = "expected ";
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(wording.len());
    let mut rest = wording;
    while let Some(at) = rest.find(EXPECTED) {
        let (before, after) = rest.split_at(at + EXPECTED.len());
        out.push_str(before);
        let word_end = |text: &str| text.find(|c: char| !is_word(c)).unwrap_or(text.len());
        let first = &after[..word_end(after)];
        // `prefix Name`: the prefix and the type's name after it.
        let named = |prefix: &str| {
            let name = after.strip_prefix(prefix)?.strip_prefix(' ')?;
            let len = word_end(name);
            (len > 0).then_some(prefix.len() + 1 + len)
        };
        let (plain, taken) = if let Some((_, plain)) = PLAIN_TYPES.iter().find(|(rust, _)| *rust == first) {
            (*plain, first.len())
        } else if let Some(taken) = named("struct").or_else(|| named("internally tagged enum")) {
            ("a JSON object", taken)
        } else if let Some(taken) = named("enum") {
            ("one of its allowed values", taken)
        } else {
            ("", 0)
        };
        out.push_str(plain);
        rest = &after[taken..];
    }
    out.push_str(rest);
    out
}

/// `text` cut to [`MESSAGE_CHARS`] characters and `…`.
fn cap(text: String) -> String {
    match text.char_indices().nth(MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// A serde error at a field (`serde_path_to_error`'s path and message) as a refusal names it:
/// ``{label}`{path}`: {message}`` with both clipped ([`echo`], [`echo_quoted`]) and the whole
/// cut to [`MESSAGE_CHARS`] characters, or the message alone when the fault is not in a field
/// (path `.` or `?`).
///
/// ```
/// use madang_core::field_error;
/// assert_eq!(field_error("rule option ", "pieces", "invalid type: string \"3\", expected u8"),
///            "rule option `pieces`: invalid type: string \"3\", expected a whole number from 0 to 255");
/// assert_eq!(field_error("field ", ".", "expected `,` or `}` at line 1 column 9"),
///            "expected `,` or `}` at line 1 column 9");
/// ```
pub fn field_error(label: &str, path: &str, message: &str) -> String {
    let message = echo_quoted(message);
    if path == "." || path == "?" { message } else { cap(format!("{label}`{}`: {message}", echo(path))) }
}

/// An action string that is not valid notation for the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{:?} is not an action: {reason}", echo(.text))]
pub struct NotationError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it, for a person.
    pub reason: String,
}

impl NotationError {
    /// A notation error for `text` with a readable `reason`.
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        Self { text: text.to_owned(), reason: reason.into() }
    }
}

/// Parses the number `word` of the action `text`: decimal digits without sign or leading zeros
/// (so every action has one spelling), at most 255. Every game's notation uses it.
///
/// # Errors
/// A [`NotationError`] for `text` saying the number is malformed or out of range.
pub fn notation_number(text: &str, word: &str) -> Result<u8, NotationError> {
    let canonical =
        !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) && (word == "0" || !word.starts_with('0'));
    if !canonical {
        return Err(NotationError::new(
            text,
            format!("{:?} is not a number written without sign or leading zeros", echo(word)),
        ));
    }
    word.parse().map_err(|_| NotationError::new(text, format!("{} is out of range", echo(word))))
}

/// Parses the notation `WORD N` where WORD is one of `words`: returns the word's index and N.
/// `expected` describes the accepted forms for the error message.
///
/// # Errors
/// A [`NotationError`] for an unknown word, a missing number or a malformed number.
pub fn word_and_number(text: &str, words: &[&str], expected: &str) -> Result<(usize, u8), NotationError> {
    let found = text.split_once(' ').and_then(|(word, rest)| Some((words.iter().position(|w| *w == word)?, rest)));
    let (index, rest) = found.ok_or_else(|| NotationError::new(text, format!("expected {expected}")))?;
    Ok((index, notation_number(text, rest)?))
}

/// A rule option with a bad value, or a rule combination the game does not allow.
///
/// Unknown keys are rejected earlier, by the options type's `deny_unknown_fields`; this error is
/// for values that have the right type but are out of range or contradict each other.
///
/// ```
/// use madang_core::RulesError;
/// assert_eq!(RulesError::new("pieces", "must be 1-5").to_string(), "rule option `pieces`: must be 1-5");
/// // The seat count is a record's `players`, beside the rules (a CLI's `--players`).
/// assert_eq!(RulesError::new("players", "2 players, got 3").to_string(), "players: 2 players, got 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", rules_message(.key, .reason))]
pub struct RulesError {
    /// The option's key as written in a record's `rules` object (or `players`).
    pub key: String,
    /// What is wrong with the value.
    pub reason: String,
}

/// [`RulesError`]'s message: the seat count is not a rule option.
fn rules_message(key: &str, reason: &str) -> String {
    if key == "players" { format!("players: {reason}") } else { format!("rule option `{key}`: {reason}") }
}

impl RulesError {
    /// A rules error naming `key`.
    pub fn new(key: &str, reason: impl Into<String>) -> Self {
        Self { key: key.to_owned(), reason: reason.into() }
    }
}

/// One game's rules engine: an immutable description of the rules in force (its settings and
/// derived geometry) that operates on separate, cheap-to-clone states.
///
/// A `Game` value is built from the record's `rules` object and `players` count by
/// [`Game::new`]; the same value drives any number of states.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The rule options as written in a record's `rules` object: every field optional, unknown
    /// keys rejected (`#[serde(deny_unknown_fields)]`).
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + Send + Sync;
    /// A position, including whose turn it is and what kind of action is awaited.
    type State: Clone + Debug + PartialEq + Eq + Hash + Serialize + DeserializeOwned + Send + Sync;
    /// A move or a chance outcome. `Ord` is the documented order of legal actions; `Display`
    /// and `FromStr` are the notation and round-trip.
    type Action: Copy + Debug + Display + FromStr<Err = NotationError> + Ord + Eq + Hash + Send + Sync;
    /// Something an action caused, for the `events` list of `madang replay` (spec `README.md`,
    /// "events"): a serde enum, internally tagged by `kind` (one variant per thing that can
    /// happen), whose fields name seats, pieces, squares and values as data; `Display` is its
    /// English line for people and logs, never parsed by a program.
    type Event: Display + Debug + Clone + Serialize;
    /// Why an action cannot be applied at a state.
    type Error: std::error::Error + Clone + Send + Sync + 'static;
    /// The canonical piece summary of `madang replay`'s `pieces` field.
    type Pieces: Serialize;
    /// Game-specific figures shown with a finished game's result (may be `()`).
    type Figures: Serialize;

    /// The game's name in records: `"ur"`, `"yut"`, `"ludo"` or `"dice-poker"`.
    const NAME: &'static str;

    /// Every kind of [`Game::Event`] with its fields: what the game can report, for the message
    /// catalogues of the clients (`madang events --json`). The conformance kit checks that
    /// every event a game emits is one of these, with exactly these fields.
    const EVENT_KINDS: &'static [EventKind];

    /// Where `madang replay` puts [`Game::figures`] in a finished game's `result`: under
    /// `stats` (`false`, the default: Yut's `result.stats`) or merged into `result` itself
    /// (`true`: Dice Poker's `result.hands`).
    const FIGURES_IN_RESULT: bool = false;

    /// Builds the rules from options and an optional seat count.
    ///
    /// # Errors
    /// A [`RulesError`] naming the key (`players` for the seat count) whose value is not allowed.
    fn new(options: &Self::Options, players: Option<usize>) -> Result<Self, RulesError>;

    /// Seat names in turn order (spec `README.md`, "Seat names").
    fn seat_names(&self) -> Vec<String>;

    /// The names of the sides that win or are ranked: the seats themselves, except in team
    /// games where a side is a team (Yut `A`, `B` for players `A1`, `A2`, …). [`Outcome`]'s
    /// indices refer to this list.
    fn side_names(&self) -> Vec<String> {
        self.seat_names()
    }

    /// The side (index into [`Game::side_names`]) that `seat` plays for.
    fn side_of_seat(&self, seat: usize) -> usize {
        seat
    }

    /// The position before the first action.
    fn initial_state(&self) -> Self::State;

    /// Whose turn it is.
    fn turn(&self, state: &Self::State) -> Turn;

    /// The seat whose turn it is, chance nodes included: at a decision the [`Game::turn`]'s
    /// seat, at a chance node the seat whose roll or throw it is; `None` when the game is over
    /// and for a chance that is no seat's turn (a roll-off or ceremony deciding the order). Tells
    /// an extra roll of the same seat (a rosette, a yut) from the next seat's turn — the online
    /// rooms' turn timer plays one turn.
    fn mover(&self, state: &Self::State) -> Option<usize>;

    /// At a chance node, the seat that throws or rolls it — the person who presses the throw
    /// button (seeds 000 and 001: every player throws for themselves, the turn-order ceremony
    /// included): the [`Game::mover`] during a turn; in a roll-off or ceremony the seat throwing
    /// for its side. `None` at decision nodes, at the end, and for a chance nobody throws. The
    /// server waits for a person's own throw; a computer's is drawn at once.
    fn thrower(&self, state: &Self::State) -> Option<usize> {
        match self.turn(state) {
            Turn::Chance => self.mover(state),
            Turn::Seat(_) | Turn::Terminal => None,
        }
    }

    /// At a chance node, every outcome with a positive integer weight, sorted by action; empty
    /// elsewhere. `out` is cleared first.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Self::Action, Weight)>);

    /// At a chance node whose outcomes are one of the game's fixed lists (Ur's dice, Yut's
    /// throw, a die), that list as a [`ChanceTable`]; `None` at other nodes and for a node whose
    /// list the game builds each time. Playouts draw from it without adding up the weights at
    /// every roll (`madang_seed::draw_chance`); the conformance kit checks at every node that it
    /// is [`Game::chance_outcomes`]' list and that its draws are step 5's.
    fn chance_table(&self, _state: &Self::State) -> Option<&ChanceTable<Self::Action>> {
        None
    }

    /// [`Game::chance_outcomes`] as a slice: the [`Game::chance_table`]'s list when the node
    /// has one, else `scratch` filled by `chance_outcomes`. Searches walk it without copying
    /// the list; the conformance kit checks that it is `chance_outcomes`' list at every node.
    /// What `scratch` holds afterwards is unspecified (a node with a table leaves it as it
    /// was): read the returned slice.
    fn chance_outcomes_in<'a>(
        &'a self,
        state: &Self::State,
        scratch: &'a mut Vec<(Self::Action, Weight)>,
    ) -> &'a [(Self::Action, Weight)] {
        match self.chance_table(state) {
            Some(table) => table.outcomes(),
            None => {
                self.chance_outcomes(state, scratch);
                scratch
            }
        }
    }

    /// At a decision node, every legal action, sorted ascending and unique; empty elsewhere.
    /// `out` is cleared first.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// Applies a move or a chance outcome, reporting what happened to `events`.
    ///
    /// # Errors
    /// The game's error naming why the action is not legal here; `state` is then unchanged.
    fn apply(
        &self,
        state: &mut Self::State,
        action: Self::Action,
        events: &mut impl EventSink<Self::Event>,
    ) -> Result<(), Self::Error>;

    /// The kind of the next action (`"roll"`, `"move"`, `"throw"`, …) or `None` when finished.
    fn awaiting(&self, state: &Self::State) -> Option<&'static str>;

    /// The piece summary for `madang replay`.
    fn pieces(&self, state: &Self::State) -> Self::Pieces;

    /// The result once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Figures reported with the result (captures, hands, …).
    fn figures(&self, state: &Self::State) -> Self::Figures;

    /// Seats in the order they first moved (the turn-order positions `madang sim` reports).
    /// Games whose first player is decided in play override this.
    fn turn_order(&self, _state: &Self::State) -> Vec<usize> {
        (0..self.seat_names().len()).collect()
    }

    /// The canonical spelling of an action that [`Game::apply`] accepts under several names
    /// (Yut's `move P R` names a unit by any of its pieces; `legal` lists the lowest). Most
    /// games have one spelling per action.
    fn canonical(&self, _state: &Self::State, action: Self::Action) -> Self::Action {
        action
    }

    /// Extra top-level fields of `madang replay`'s output, as lists of strings (Yut's `pool`:
    /// the unspent results in the order thrown). Most games have none.
    fn extra_fields(&self, _state: &Self::State) -> Vec<(&'static str, Vec<String>)> {
        Vec::new()
    }

    /// Applies an action with events discarded.
    ///
    /// # Errors
    /// As [`Game::apply`].
    fn apply_quiet(&self, state: &mut Self::State, action: Self::Action) -> Result<(), Self::Error> {
        self.apply(state, action, &mut ())
    }
}

#[cfg(test)]
mod tests {
    use super::{ChanceTable, echo_quoted};

    /// Four binary dice (Ur's Finkel rolls, weights 1, 4, 6, 4, 1 out of 16): the draws 0-15
    /// select, by step 5 of `docs/randomness.md` worked out by hand, roll 0 for 0, roll 1 for
    /// 1-4, roll 2 for 5-10, roll 3 for 11-14 and roll 4 for 15.
    #[test]
    fn a_table_picks_the_first_outcome_whose_cumulative_weight_is_above_the_draw() {
        let table = ChanceTable::new(vec![(0u8, 1), (1, 4), (2, 6), (3, 4), (4, 1)]);
        assert_eq!(table.total(), Some(16));
        let picks: Vec<usize> = (0..16).map(|u| table.pick(u)).collect();
        assert_eq!(picks, [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4]);
    }

    /// Above the indexed size the draw is counted, with the same answers: weights 3, 2^40 and
    /// 5 (a total of 2^40 + 8) put draws 0-2 on the first, 3 to 2^40 + 2 on the second and the
    /// last five on the third.
    #[test]
    fn a_large_total_is_counted_with_the_same_rule() {
        let big: u64 = 1 << 40;
        let table = ChanceTable::new(vec![('a', 3), ('b', big), ('c', 5)]);
        assert_eq!(table.total(), Some(big + 8));
        for (u, expected) in [(0, 0), (2, 0), (3, 1), (big + 2, 1), (big + 3, 2), (big + 7, 2)] {
            assert_eq!(table.pick(u), expected, "draw {u}");
        }
        // Just above the indexed size, counted too.
        let table = ChanceTable::new(vec![('a', ChanceTable::<char>::INDEXED_TOTAL), ('b', 1)]);
        assert_eq!(table.pick(ChanceTable::<char>::INDEXED_TOTAL - 1), 0);
        assert_eq!(table.pick(ChanceTable::<char>::INDEXED_TOTAL), 1);
    }

    /// A list that step 5 cannot draw from has no total: a weight of 0, no outcome, or a sum
    /// beyond `u64`.
    #[test]
    fn a_list_that_cannot_be_drawn_from_has_no_total() {
        assert_eq!(ChanceTable::new(vec![('a', 1), ('b', 0)]).total(), None);
        assert_eq!(ChanceTable::<char>::new(Vec::new()).total(), None);
        assert_eq!(ChanceTable::new(vec![('a', u64::MAX), ('b', 1)]).total(), None);
    }

    /// A number's reason repeats at most 64 of its characters (api.md, "Errors"), however long.
    #[test]
    fn a_long_number_is_repeated_cut() {
        let digits = "9".repeat(3000);
        let text = format!("move {digits}");
        let out_of_range = super::notation_number(&text, &digits).expect_err("out of range");
        assert_eq!(out_of_range.reason, format!("{}… is out of range", "9".repeat(64)));
        let zeros = "0".repeat(3000);
        let malformed = super::notation_number(&text, &zeros).expect_err("leading zeros");
        assert_eq!(
            malformed.reason,
            format!("\"{}…\" is not a number written without sign or leading zeros", "0".repeat(64))
        );
    }

    #[test]
    fn serdes_rust_type_names_are_said_in_plain_words() {
        // A small type's range is its own (u8: 0..=2^8-1); a wide one's is no help to a person.
        assert_eq!(
            echo_quoted("invalid type: string \"x\", expected u64"),
            "invalid type: string \"x\", expected a whole number of 0 or more"
        );
        assert_eq!(
            echo_quoted("invalid value: integer `300`, expected u8 at line 1 column 14"),
            "invalid value: integer `300`, expected a whole number from 0 to 255 at line 1 column 14"
        );
        assert_eq!(
            echo_quoted("invalid type: integer `-1`, expected i64").rsplit_once("expected ").map(|p| p.1),
            Some("a whole number")
        );
        assert_eq!(
            echo_quoted("invalid type: boolean `true`, expected f64"),
            "invalid type: boolean `true`, expected a number"
        );
        assert_eq!(
            echo_quoted("invalid type: integer `3`, expected struct UrOptions"),
            "invalid type: integer `3`, expected a JSON object"
        );
        assert_eq!(
            echo_quoted("invalid type: sequence, expected internally tagged enum ClientMessage"),
            "invalid type: sequence, expected a JSON object"
        );
        assert_eq!(
            echo_quoted("invalid type: integer `2`, expected enum Dice"),
            "invalid type: integer `2`, expected one of its allowed values"
        );
    }

    #[test]
    fn a_persons_own_words_and_serdes_plain_ones_stay_as_they_are() {
        // The input repeated is the person's, even when it reads like serde's wording.
        assert_eq!(
            echo_quoted("invalid type: string \"expected u8\", expected a boolean"),
            "invalid type: string \"expected u8\", expected a boolean"
        );
        assert_eq!(
            echo_quoted("unknown field `expected u64`, expected `preset` or `pieces`"),
            "unknown field `expected u64`, expected `preset` or `pieces`"
        );
        // Not a type's name: a longer word, a list of names, serde's own plain words.
        assert_eq!(echo_quoted("invalid type: map, expected u8s"), "invalid type: map, expected u8s");
        assert_eq!(
            echo_quoted("unknown variant `x`, expected `u8` or `i64`"),
            "unknown variant `x`, expected `u8` or `i64`"
        );
        assert_eq!(echo_quoted("expected `,` or `}` at line 1 column 9"), "expected `,` or `}` at line 1 column 9");
        assert_eq!(
            echo_quoted("invalid type: string \"a\", expected struct"),
            "invalid type: string \"a\", expected struct"
        );
    }
}
