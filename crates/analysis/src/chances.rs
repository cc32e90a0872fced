//! Winning chances of every side of a game at a set of sibling positions (the outcomes of a
//! chance node, or the positions after each legal move), exact where a solved table is loaded,
//! else estimated by Monte Carlo playouts.

use madang_bots::{Bot, Roster, chances_from};
use madang_core::{Game, Outcome, Turn, Weight};
use madang_seed::{Seed, Stream, draw_chance};
use rayon::prelude::*;

/// The z value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

/// How far a playout estimate can be from the chance under good play (0-1), beyond its sampling
/// error: the playouts measure the chance when every seat plays on like the rollout bot, which
/// is not how good players play. Measured on Ur against its solved table (the `crosscheck`
/// example; `docs/analysis.md`, "Is the estimator honest?"), and assumed for the other games,
/// which have no exact answer to measure against. A stated value's 95 % interval combines it
/// with the sampling error; a comparison of moves on common random numbers does not (the
/// playouts of the moves share their bias).
pub const MODEL_MARGIN: f64 = 0.20;

/// The most actions a playout plays before it is scored as a draw (no game here comes near:
/// Ludo's roll limit ends a game at 10,000 rolls).
const PLAYOUT_LIMIT: usize = 20_000;

/// Each side's value of a finished game: 1 for the winner (the first of a ranking), shared
/// equally by every side when nobody won (a draw, or no result); `sides` values that sum to 1.
pub fn result_values(outcome: Option<&Outcome>, sides: usize) -> Vec<f64> {
    let mut values = vec![0.0; sides];
    let winner = match outcome {
        Some(Outcome::Winner(side)) => Some(*side),
        Some(Outcome::Ranking(order)) => order.first().copied(),
        _ => None,
    };
    match winner {
        Some(side) if side < sides => values[side] = 1.0,
        _ => values.iter_mut().for_each(|v| *v = 1.0 / sides as f64),
    }
    values
}

/// The sides' winning chances at a set of sibling positions, with what is needed to compare
/// them: for estimates, every playout's result (the playouts of one index share their random
/// numbers across the positions, so differences are far more precise than the values).
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    /// `means[p][s]`: side `s`'s chance at position `p`, 0-1.
    pub means: Vec<Vec<f64>>,
    /// `samples[i][p][s]`: playout `i`'s result (empty when exact).
    samples: Vec<Vec<Vec<f64>>>,
    /// The half-width (95 %, 0-1) that the estimator's bias adds to every margin: 0 for whole
    /// playouts, `Z95 ·` the evaluation's `bias` for cut ones.
    floor: f64,
}

impl Compared {
    /// Exact values (no sampling error).
    pub fn exact(means: Vec<Vec<f64>>) -> Compared {
        Compared { means, samples: Vec::new(), floor: 0.0 }
    }

    /// Whether the values are exact.
    pub fn is_exact(&self) -> bool {
        self.samples.is_empty()
    }

    /// Playouts per position (0 when exact).
    pub fn playouts(&self) -> usize {
        self.samples.len()
    }

    /// The part of every margin that more playouts do not shrink (0-1): the 95 % half-width of
    /// the bias of cut playouts (`Evaluation::bias`), 0 otherwise.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// Half the width of the 95 % interval of a linear combination of the values of side `side`:
    /// `Σ_p weights[p] · value[p][side]` (0 when exact): the sampling error combined with the
    /// [`floor`](Compared::floor) as independent errors. With common random numbers the
    /// combination's spread is measured on the paired samples, which is what makes the
    /// difference between two moves, or between an outcome and its expectation, precise.
    pub fn margin(&self, side: usize, weights: &[(usize, f64)]) -> f64 {
        let n = self.samples.len();
        if n < 2 {
            return 0.0;
        }
        self.sampling_margin(side, weights).hypot(self.floor)
    }

    /// [`margin`](Compared::margin) without the floor: the sampling error alone.
    pub fn sampling_margin(&self, side: usize, weights: &[(usize, f64)]) -> f64 {
        let n = self.samples.len();
        let values: Vec<f64> =
            self.samples.iter().map(|sample| weights.iter().map(|&(p, w)| w * sample[p][side]).sum()).collect();
        let mean = values.iter().sum::<f64>() / n as f64;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Z95 * (variance / n as f64).sqrt()
    }
}

/// Where winning chances come from.
pub trait Values<G: Game>: Sync {
    /// Whether the values are exact (a solved table) rather than estimated.
    fn exact(&self) -> bool;

    /// How the values of `game` are found, for people (`"the solved table"`, `"… playouts …"`).
    fn method(&self, game: &G) -> String;

    /// The sides' chances at each of `positions`, with `playouts` playouts each (ignored when
    /// exact); `key` names the comparison, so that its random numbers are its own.
    fn compare(&self, game: &G, positions: &[G::State], playouts: usize, key: u64) -> Compared;

    /// Adds `more` playouts to `compared` (nothing when exact).
    fn extend(&self, game: &G, positions: &[G::State], compared: &mut Compared, more: usize, key: u64);
}

/// Exact values from the game's solved table (`Roster::win_chance`: Ur with a table loaded,
/// two sides).
#[derive(Clone, Copy, Debug, Default)]
pub struct Exact;

impl Exact {
    /// Whether `game` has a solved table for its rules here (tried on its first position).
    pub fn available<G: Roster>(game: &G) -> bool {
        game.win_chance(&game.initial_state()).is_some()
    }
}

/// A position's sides' chances from the table: the first side's chance and its complement; a
/// finished game's result.
fn exact_values<G: Roster>(game: &G, state: &G::State) -> Vec<f64> {
    if game.turn(state) == Turn::Terminal {
        return result_values(game.outcome(state).as_ref(), game.side_names().len());
    }
    let first = game.win_chance(state).unwrap_or(0.5);
    vec![first, 1.0 - first]
}

impl<G: Roster> Values<G> for Exact {
    fn exact(&self) -> bool {
        true
    }

    fn method(&self, _game: &G) -> String {
        "exact: the solved table (perfect play by both sides from every position)".to_owned()
    }

    fn compare(&self, game: &G, positions: &[G::State], _playouts: usize, _key: u64) -> Compared {
        Compared::exact(positions.iter().map(|p| exact_values(game, p)).collect())
    }

    fn extend(&self, _game: &G, _positions: &[G::State], _compared: &mut Compared, _more: usize, _key: u64) {}
}

/// Estimates by Monte Carlo playouts: from each position every seat is played by the game's
/// rollout bot ([`Roster::rollout_bot`]) and chance is drawn, to the end; a side's chance is
/// the share of playouts it wins (a draw counts for each side equally). Playout `i` of a
/// comparison draws from the same streams at every position compared — **common random
/// numbers** — so the difference between two moves is measured on the same dice.
#[derive(Clone, Debug)]
pub struct Playouts {
    /// The seed of every stream (fixed: an analysis is the same every time).
    pub seed: Seed,
    /// The rollout bot (`Roster::rollout_bot` of the game by default).
    pub bot: String,
    /// Whether playouts are cut short and scored by the game's calibrated evaluation
    /// (`Roster::evaluation`) where it has one (the default), rather than played to the end.
    pub cut: bool,
    /// The number of actions after which a cut playout is scored (at the next chance node);
    /// `None`: the evaluation's own `horizon`.
    pub horizon: Option<usize>,
}

impl Playouts {
    /// Playouts with `G`'s rollout bot and a fixed seed.
    pub fn new<G: Roster>() -> Playouts {
        Playouts { seed: Seed([0x6d; 32]), bot: G::rollout_bot().to_owned(), cut: true, horizon: None }
    }

    /// One playout from `state` with streams `(key, index)`: each side's result.
    fn playout<G: Roster>(
        &self,
        game: &G,
        state: &G::State,
        bots: &mut [Box<dyn Bot<G>>],
        key: u64,
        index: usize,
    ) -> Vec<f64> {
        let sides = game.side_names().len();
        let mut chance = self.stream(key, index, "chance");
        let mut streams: Vec<Stream> = (0..bots.len()).map(|s| self.stream(key, index, &format!("bot:{s}"))).collect();
        let mut state = state.clone();
        let mut legal = Vec::new();
        let mut outcomes: Vec<(G::Action, Weight)> = Vec::new();
        let cut = if self.cut { game.evaluation() } else { None };
        let horizon = cut.map_or(PLAYOUT_LIMIT, |e| self.horizon.unwrap_or(e.horizon));
        let mut features = Vec::new();
        for played in 0..PLAYOUT_LIMIT {
            let turn = game.turn(&state);
            if let Some(evaluation) = cut
                && played >= horizon
                && turn == Turn::Chance
            {
                let mut chances = Vec::with_capacity(sides);
                game.evaluation_features(&state, &mut features);
                chances_from(&features, evaluation.weights, &mut chances);
                // (A game whose features do not cover every side plays on to the end.)
                if chances.len() == sides {
                    return chances;
                }
            }
            let action = match turn {
                Turn::Terminal => return result_values(game.outcome(&state).as_ref(), sides),
                Turn::Chance => match draw_chance(game, &state, &mut outcomes, &mut chance) {
                    Some(action) => action,
                    None => break,
                },
                Turn::Seat(seat) => {
                    game.legal_actions(&state, &mut legal);
                    match (legal.len(), bots.get_mut(seat), streams.get_mut(seat)) {
                        (0, _, _) => break,
                        (1, _, _) => legal[0],
                        (_, Some(bot), Some(stream)) => bot.choose(game, &state, &legal, stream),
                        _ => legal[0],
                    }
                }
            };
            if game.apply_quiet(&mut state, action).is_err() {
                break;
            }
        }
        // Cut off (never expected): scored as a draw.
        result_values(None, sides)
    }

    fn stream(&self, key: u64, index: usize, name: &str) -> Stream {
        self.seed.stream(&format!("analysis:{key}:{index}:{name}"))
    }

    /// Playouts `from..to` at every position.
    fn run<G: Roster>(&self, game: &G, positions: &[G::State], from: usize, to: usize, key: u64) -> Vec<Vec<Vec<f64>>> {
        (from..to)
            .into_par_iter()
            .map(|index| {
                let seats = game.seat_names().len();
                let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats).filter_map(|_| game.bot(&self.bot).ok()).collect();
                positions.iter().map(|p| self.playout(game, p, &mut bots, key, index)).collect()
            })
            .collect()
    }
}

impl<G: Roster> Values<G> for Playouts {
    fn exact(&self) -> bool {
        false
    }

    fn method(&self, game: &G) -> String {
        let cut = match game.evaluation().filter(|_| self.cut) {
            Some(e) => format!(
                ", each cut after {} actions and scored by the game's fitted evaluation (its bias, {:.2} points rms against whole playouts, is added to every interval)",
                self.horizon.unwrap_or(e.horizon),
                e.bias
            ),
            None => ", each to the end of the game".to_owned(),
        };
        format!(
            "estimated: Monte Carlo playouts, every seat played by the `{}` bot{cut}, the same dice for every position compared (common random numbers); 95 % intervals: a chance ± its sampling error and a {:.0}-point model margin, a loss ± its sampling error (as if every seat played on like the bot)",
            self.bot,
            100.0 * MODEL_MARGIN
        )
    }

    fn compare(&self, game: &G, positions: &[G::State], playouts: usize, key: u64) -> Compared {
        let bias = if self.cut { game.evaluation().map_or(0.0, |e| e.bias) } else { 0.0 };
        let mut compared = Compared { means: Vec::new(), samples: Vec::new(), floor: Z95 * bias / 100.0 };
        self.extend(game, positions, &mut compared, playouts.max(2), key);
        compared
    }

    fn extend(&self, game: &G, positions: &[G::State], compared: &mut Compared, more: usize, key: u64) {
        let from = compared.samples.len();
        compared.samples.extend(self.run(game, positions, from, from + more, key));
        let n = compared.samples.len() as f64;
        let sides = game.side_names().len();
        compared.means = (0..positions.len())
            .map(|p| (0..sides).map(|s| compared.samples.iter().map(|x| x[p][s]).sum::<f64>() / n).collect())
            .collect();
    }
}
