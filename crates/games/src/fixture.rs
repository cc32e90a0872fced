//! A made-up fifth game for tests (cargo feature `fixture`): *Coin*, one chance node. The seat
//! `heads` flips a fair coin; the side that comes up wins. It exists to show that a game is
//! added by declaring it here and naming it in the registry ([`crate::visit`], [`crate::GAMES`])
//! — the server, the catalogue, storage, stats and rooms take it without a change
//! (`crates/server/tests/fifth_game.rs`).

use std::fmt;
use std::str::FromStr;

use madang_bots::{Bot, BotError, RandomBot, Roster};
use madang_core::{EventKind, EventSink, Game, NotationError, Outcome, RulesError, Turn, Weight};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::describe::{Describe, Ending, GameInfo, PlayMode, Players};

/// Coin's seats: `heads` flips, `tails` waits.
const SEATS: [&str; 2] = ["heads", "tails"];

/// The game: no options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Coin;

/// Coin's options: none (an unknown key is refused).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoinOptions {}

/// The side the coin showed, once flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CoinState {
    /// `None` before the flip, else the winning seat.
    pub shown: Option<u8>,
}

/// `flip heads` or `flip tails` (the chance outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Flip(pub u8);

impl fmt::Display for Flip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "flip {}", SEATS[usize::from(self.0 % 2)])
    }
}

impl FromStr for Flip {
    type Err = NotationError;
    fn from_str(text: &str) -> Result<Flip, NotationError> {
        match text {
            "flip heads" => Ok(Flip(0)),
            "flip tails" => Ok(Flip(1)),
            _ => Err(NotationError::new(text, "expected `flip heads` or `flip tails`")),
        }
    }
}

/// What a flip caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CoinEvent {
    /// The coin came up `side`; its seat wins.
    Flip {
        /// The seat that flipped.
        seat: &'static str,
        /// The side shown (and winning).
        side: &'static str,
    },
}

impl fmt::Display for CoinEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoinEvent::Flip { seat, side } => write!(f, "{seat} flips {side}, which wins"),
        }
    }
}

/// Why a flip is refused: the coin has landed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the coin has already been flipped")]
pub struct CoinError;

impl Game for Coin {
    type Options = CoinOptions;
    type State = CoinState;
    type Action = Flip;
    type Event = CoinEvent;
    type Error = CoinError;
    type Pieces = Option<&'static str>;
    type Figures = ();

    const NAME: &'static str = "coin";
    const EVENT_KINDS: &'static [EventKind] = &[EventKind::new("flip", &["seat", "side"])];

    fn new(_options: &CoinOptions, players: Option<usize>) -> Result<Coin, RulesError> {
        match players {
            None | Some(2) => Ok(Coin),
            Some(n) => Err(RulesError::new("players", format!("coin has 2 seats, not {n}"))),
        }
    }

    fn seat_names(&self) -> Vec<String> {
        SEATS.iter().map(|s| (*s).to_owned()).collect()
    }

    fn initial_state(&self) -> CoinState {
        CoinState { shown: None }
    }

    fn turn(&self, state: &CoinState) -> Turn {
        if state.shown.is_some() { Turn::Terminal } else { Turn::Chance }
    }

    fn mover(&self, state: &CoinState) -> Option<usize> {
        state.shown.is_none().then_some(0)
    }

    fn chance_outcomes(&self, state: &CoinState, out: &mut Vec<(Flip, Weight)>) {
        out.clear();
        if state.shown.is_none() {
            out.extend([(Flip(0), 1), (Flip(1), 1)]);
        }
    }

    fn legal_actions(&self, _state: &CoinState, out: &mut Vec<Flip>) {
        out.clear();
    }

    fn apply(
        &self,
        state: &mut CoinState,
        action: Flip,
        events: &mut impl EventSink<CoinEvent>,
    ) -> Result<(), CoinError> {
        if state.shown.is_some() {
            return Err(CoinError);
        }
        let side = action.0 % 2;
        state.shown = Some(side);
        events.emit_with(|| CoinEvent::Flip { seat: SEATS[0], side: SEATS[usize::from(side)] });
        Ok(())
    }

    fn awaiting(&self, state: &CoinState) -> Option<&'static str> {
        state.shown.is_none().then_some("flip")
    }

    fn pieces(&self, state: &CoinState) -> Option<&'static str> {
        state.shown.map(|s| SEATS[usize::from(s)])
    }

    fn outcome(&self, state: &CoinState) -> Option<Outcome> {
        state.shown.map(|s| Outcome::Winner(usize::from(s)))
    }

    fn figures(&self, _state: &CoinState) {}
}

impl Roster for Coin {
    fn bot_names() -> &'static [&'static str] {
        &["random", "easy", "normal", "hard"]
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>, BotError> {
        if Self::bot_names().contains(&name) {
            Ok(Box::new(RandomBot))
        } else {
            Err(BotError::Unknown { name: name.to_owned(), game: Self::NAME, known: Self::bot_names().join(", ") })
        }
    }
}

impl Describe for Coin {
    fn info() -> GameInfo {
        GameInfo {
            title: "Coin",
            modes: vec![PlayMode::Computer, PlayMode::SameScreen, PlayMode::Room],
            endings: vec![Ending::Resign, Ending::Leave],
            players: Players { default: 2, allowed: vec![2], note: None },
            pieces_by_id: false,
            options: Vec::new(),
            skins: None,
            progression: false,
        }
    }

    fn board_value(&self) -> Value {
        json!({"sides": SEATS})
    }
}
