//! Depth-limited expectimax over explicit chance nodes (Michie 1966; the search OpenSpiel and
//! royalur.net use for dice games).
//!
//! Depth counts turns: depth `d` looks at the root decision and the next `d − 1` chance nodes
//! (rolls) with the decisions that follow each, taking the probability-weighted mean at every
//! chance node. A roll that passes (an Ur roll of 0) still uses up a level, so search always
//! ends. At a chance node with no depth left (or a terminal) the [`Evaluator`] scores the
//! state from the root seat's view.
//! Decisions of the root seat maximise, the other seat's minimise (two-seat zero-sum games);
//! extra rolls simply give the same seat consecutive decisions.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use madang_core::{Game, Turn};
use madang_seed::{Stream, uniform_below};

use crate::Bot;

/// Scores a state from one seat's point of view; larger is better for that seat.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The score of `state` for `seat`. Terminal states must score above (win) or below (loss)
    /// every non-terminal state.
    fn evaluate(&self, game: &G, state: &G::State, seat: usize) -> f64;
}

/// Expectimax to a fixed depth with evaluator `E`. Ties at the root (within 1e-9) are broken
/// uniformly from the bot's stream. Values of decision nodes are kept in a transposition table
/// for the duration of one root decision, so the many orders of spending the same results
/// (Yut's throw sets) are searched once. The table is keyed by a 64-bit hash of the state and
/// the depth (a collision, about one in 10^12 per search, could only misjudge a move).
#[derive(Clone, Debug)]
pub struct Expectimax<E> {
    /// Turns looked at, the root decision's included (≥ 1).
    pub depth: u32,
    /// The evaluation function.
    pub evaluator: E,
    /// Nodes visited by the last search (for measurements).
    pub nodes: u64,
    /// Node budget per search level: a deeper level that needs more is abandoned (once over
    /// budget the search stops expanding) and the previous level's values are used.
    pub max_nodes: u64,
    table: HashMap<(u64, u32), f64>,
}

impl<E> Expectimax<E> {
    /// A searcher of `depth` turns (at least 1).
    pub fn new(depth: u32, evaluator: E) -> Self {
        Expectimax { depth: depth.max(1), evaluator, nodes: 0, max_nodes: DEFAULT_MAX_NODES, table: HashMap::new() }
    }
}

/// The default node budget per search level (about 0.1-0.3 s of Yut search on one core).
pub const DEFAULT_MAX_NODES: u64 = 300_000;

fn state_hash<S: Hash>(state: &S) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    state.hash(&mut hasher);
    hasher.finish()
}

impl<E> Expectimax<E> {
    /// The expectimax value of `state` for `root`, looking `depth` more turns ahead.
    pub fn value<G: Game>(&mut self, game: &G, state: &G::State, depth: u32, root: usize) -> f64
    where
        E: Evaluator<G>,
    {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return self.evaluator.evaluate(game, state, root);
        }
        let turn = game.turn(state);
        if let Turn::Seat(_) = turn {
            let key = (state_hash(state), depth);
            if let Some(&v) = self.table.get(&key) {
                return v;
            }
            let v = self.decision_value(game, state, depth, root);
            self.table.insert(key, v);
            return v;
        }
        match turn {
            Turn::Chance if depth == 0 => self.evaluator.evaluate(game, state, root),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes);
                let total: f64 = outcomes.iter().map(|(_, w)| *w as f64).sum();
                let mut sum = 0.0;
                for (action, weight) in outcomes {
                    let mut child = state.clone();
                    if game.apply_quiet(&mut child, action).is_ok() {
                        sum += weight as f64 * self.value(game, &child, depth - 1, root);
                    }
                }
                sum / total
            }
            Turn::Seat(_) => self.decision_value(game, state, depth, root),
            Turn::Terminal => self.evaluator.evaluate(game, state, root),
        }
    }

    fn decision_value<G: Game>(&mut self, game: &G, state: &G::State, depth: u32, root: usize) -> f64
    where
        E: Evaluator<G>,
    {
        match game.turn(state) {
            Turn::Seat(seat) => {
                let mut legal = Vec::new();
                game.legal_actions(state, &mut legal);
                let maximise = seat == root;
                let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
                for action in legal {
                    let mut child = state.clone();
                    if game.apply_quiet(&mut child, action).is_ok() {
                        let v = self.value(game, &child, depth, root);
                        best = if maximise { best.max(v) } else { best.min(v) };
                    }
                }
                best
            }
            _ => self.evaluator.evaluate(game, state, root),
        }
    }

    /// The value of each legal action for the seat to move, in the order of `legal`.
    pub fn action_values<G: Game>(&mut self, game: &G, state: &G::State, legal: &[G::Action]) -> Vec<f64>
    where
        E: Evaluator<G>,
    {
        let Turn::Seat(root) = game.turn(state) else { return Vec::new() };
        // Iterative deepening under a node budget: a level that runs out of nodes is thrown
        // away and the last complete level decides.
        let mut values = Vec::new();
        for depth in 1..=self.depth {
            self.nodes = 0;
            self.table.clear();
            let level: Vec<f64> = legal
                .iter()
                .map(|&action| {
                    let mut child = state.clone();
                    match game.apply_quiet(&mut child, action) {
                        Ok(()) => self.value(game, &child, depth - 1, root),
                        Err(_) => f64::NEG_INFINITY,
                    }
                })
                .collect();
            if self.nodes > self.max_nodes && depth > 1 {
                break;
            }
            values = level;
        }
        values
    }
}

impl<G: Game, E: Evaluator<G>> Bot<G> for Expectimax<E> {
    fn choose(&mut self, game: &G, state: &G::State, legal: &[G::Action], stream: &mut Stream) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let values = self.action_values(game, state, legal);
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..legal.len()).filter(|&i| values[i] >= best - 1e-9).collect();
        legal[tied[uniform_below(stream, tied.len() as u32) as usize]]
    }
}
