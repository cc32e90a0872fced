//! Computer players for every madang game behind one interface, [`Bot`].
//!
//! A bot sees the rules, the state and the legal actions and returns one of them; any
//! randomness it needs comes from the seeded stream it is handed (`bot:SEAT`, see
//! `madang-seed`), so a game with the same seed and the same bots is the same game.
//!
//! - [`RandomBot`]: uniform over the legal actions (any game).
//! - [`Expectimax`]: depth-limited expectimax over explicit chance nodes with a game-specific
//!   [`Evaluator`] (any two-seat zero-sum game).
//! - per game, the named bots and difficulty levels: [`ur`], [`yut`], [`ludo`], [`dice_poker`].
//!
//! [`Roster`] maps bot names (`random`, `greedy`, `expectimax:3`, `easy`, `normal`, `hard`) to
//! bots for each game.

pub mod dice_poker;
pub mod evaluation;
pub mod expectimax;
pub mod ludo;
pub mod ur;
pub mod yut;

use madang_core::Game;
use madang_seed::{Stream, uniform_below};

pub use evaluation::{Evaluation, chances_from};
pub use expectimax::{Evaluator, Expectimax};

/// A computer player.
pub trait Bot<G: Game>: Send {
    /// Picks one of `legal` (non-empty, the engine's legal actions at `state`), drawing any
    /// randomness from `stream`.
    fn choose(&mut self, game: &G, state: &G::State, legal: &[G::Action], stream: &mut Stream) -> G::Action;

    /// Whether a decision searches: it may take a millisecond or more (`docs/bots.md`, the
    /// decision-time table: `hard` in Ur, Yut and Seven Dice Poker), so a server runs it where
    /// it cannot hold up other players' messages. `false` (decisions of microseconds) unless
    /// the bot says otherwise.
    fn searches(&self) -> bool {
        false
    }

    /// Whether `choose` is [`RandomBot`]'s: `legal[uniform_below(stream, legal.len())]`. A
    /// playout loop then makes that draw itself instead of calling through the trait object
    /// at every decision (the same draws; `docs/playouts.md`). `false` unless the bot says so.
    fn uniform(&self) -> bool {
        false
    }
}

/// Uniformly random over the legal actions: one `uniform_below(legal.len())` draw per decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&mut self, _game: &G, _state: &G::State, legal: &[G::Action], stream: &mut Stream) -> G::Action {
        legal[uniform_below(stream, legal.len() as u32) as usize]
    }

    fn uniform(&self) -> bool {
        true
    }
}

/// A bot name that does not exist for a game, or a bad parameter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// No bot of that name for the game.
    #[error("unknown bot {:?} for {game} (known: {known})", madang_core::echo(.name))]
    Unknown {
        /// The name given.
        name: String,
        /// The game.
        game: &'static str,
        /// The names the game knows.
        known: String,
    },
    /// The bot needs something that is not there (the perfect player's solved table).
    #[error("bot {:?} is not available: {reason}", madang_core::echo(.name))]
    Unavailable {
        /// The name given.
        name: String,
        /// What is missing and how to get it.
        reason: String,
    },
    /// A bot parameter is out of range.
    #[error("bot {:?}: {reason}", madang_core::echo(.name))]
    BadParameter {
        /// The name given.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

/// The difficulty levels every game offers (`Roster::levels`).
pub const LEVELS: &[&str] = &["easy", "normal", "hard"];

/// The named bots of a game (spec `platform.md`: levels `easy`, `normal`, `hard` plus each
/// game's named bots).
pub trait Roster: Game {
    /// Bot names for messages, e.g. `["random", "greedy", "expectimax:D", "easy", "normal", "hard"]`.
    fn bot_names() -> &'static [&'static str];

    /// Builds the bot called `name`.
    ///
    /// # Errors
    /// [`BotError`] for an unknown name or a bad parameter.
    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>, BotError>;

    /// The bot that plays every seat in the playouts that estimate winning chances
    /// (`madang-analysis`): fast, and as close to good play as speed allows. `random` unless
    /// the game names a better one.
    fn rollout_bot() -> &'static str {
        "random"
    }

    /// The difficulty levels a set-up offers, weakest first: `easy`, `normal`, `hard`, and
    /// where this process can play perfectly under the default rules (Ur with its solved table
    /// installed), `perfect`.
    fn levels() -> Vec<&'static str> {
        LEVELS.to_vec()
    }

    /// The rules objects (JSON text, as a record's `rules`) under which this process can play
    /// perfectly: Ur's installed solved tables; none elsewhere.
    fn solved_rules() -> Vec<String> {
        Vec::new()
    }

    /// The first seat's winning chance at `state` under perfect play from here on, where the
    /// game has a solved table for these rules loaded (Ur: [`ur::install_table`]); `None`
    /// otherwise.
    fn win_chance(&self, _state: &Self::State) -> Option<f64> {
        None
    }

    /// At a decision node, the first seat's winning chance after each of `legal` (in that
    /// order), with perfect play afterwards, where a solved table is loaded; `None` otherwise.
    fn win_chances_after(&self, _state: &Self::State, _legal: &[Self::Action]) -> Option<Vec<f64>> {
        None
    }

    /// The calibrated evaluation ([`evaluation`]) with which the analysis's playouts are cut
    /// short, where the game has one; `None`: playouts run to the end of the game.
    fn evaluation(&self) -> Option<Evaluation> {
        None
    }

    /// Writes the evaluation's features of every side at `state` into `out` (cleared first):
    /// side 0's `Evaluation::names.len()` values, then side 1's, …; nothing when the game has
    /// no evaluation. `state` is a position where a roll or throw is awaited.
    fn evaluation_features(&self, _state: &Self::State, out: &mut Vec<f64>) {
        out.clear();
    }
}

/// Parses the depth of `expectimax:D` (1 ≤ D ≤ `max`, written as the notation writes numbers:
/// no sign, no leading zero, so one bot has one name).
pub(crate) fn parse_depth(name: &str, max: u32) -> Result<Option<u32>, BotError> {
    let Some(depth) = name.strip_prefix("expectimax:") else { return Ok(None) };
    match canonical_number(depth) {
        Some(d) if (1..=u64::from(max)).contains(&d) => Ok(Some(d as u32)),
        _ => Err(BotError::BadParameter {
            name: name.to_owned(),
            reason: format!("depth must be an integer from 1 to {max}, without sign or leading zeros"),
        }),
    }
}

/// `text` as a number when it is written as the notation writes numbers (digits only, no
/// leading zero); `None` otherwise or beyond `u64`.
pub(crate) fn canonical_number(text: &str) -> Option<u64> {
    let canonical =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// A whole game of `game` between `bots` (a name per seat, in seat order; the last repeats for
/// seats beyond it), chance drawn from `seed`'s `chance` stream and seat *s*'s bot from its
/// `bot:s` stream: the actions played. For tests, benches and measurements that need whole
/// games; it stops after `limit` actions (a game of these rules ends long before).
///
/// # Errors
/// An unknown or unavailable bot name ([`BotError`]).
pub fn play_game<G: Roster>(
    game: &G,
    bots: &[&str],
    seed: &madang_seed::Seed,
    limit: usize,
) -> Result<Vec<G::Action>, BotError> {
    let seats = game.seat_names().len();
    let name = |s: usize| bots.get(s).or(bots.last()).copied().unwrap_or("random");
    let mut players = (0..seats).map(|s| game.bot(name(s))).collect::<Result<Vec<_>, _>>()?;
    let mut streams: Vec<Stream> = (0..seats).map(|s| seed.stream(&format!("bot:{s}"))).collect();
    let mut chance = seed.stream("chance");
    let mut state = game.initial_state();
    let mut legal = Vec::new();
    let mut outcomes: Vec<(G::Action, madang_core::Weight)> = Vec::new();
    let mut history = Vec::new();
    while history.len() < limit {
        let action = match game.turn(&state) {
            madang_core::Turn::Terminal => break,
            madang_core::Turn::Chance => match madang_seed::draw_chance(game, &state, &mut outcomes, &mut chance) {
                Some(action) => action,
                None => break,
            },
            madang_core::Turn::Seat(s) => {
                game.legal_actions(&state, &mut legal);
                if legal.is_empty() {
                    break;
                }
                players[s].choose(game, &state, &legal, &mut streams[s])
            }
        };
        if game.apply_quiet(&mut state, action).is_err() {
            break;
        }
        history.push(action);
    }
    Ok(history)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod play_game_tests {
    use madang_core::{Game, Turn};
    use madang_seed::Seed;
    use madang_ur::{Ur, UrOptions};

    use crate::{BotError, play_game};

    #[test]
    fn a_whole_game_is_played_the_same_for_the_same_seed() {
        let game = Ur::new(&UrOptions::default(), None).unwrap();
        let seed = Seed([3; 32]);
        let history = play_game(&game, &["greedy", "random"], &seed, 100_000).unwrap();
        let mut state = game.initial_state();
        for action in &history {
            game.apply_quiet(&mut state, *action).unwrap();
        }
        assert_eq!(game.turn(&state), Turn::Terminal);
        assert_eq!(play_game(&game, &["greedy", "random"], &seed, 100_000).unwrap(), history);
        assert_eq!(play_game(&game, &["greedy", "random"], &seed, 10).unwrap(), history[..10]);
        assert!(matches!(play_game(&game, &["nobody"], &seed, 10), Err(BotError::Unknown { .. })));
    }
}
