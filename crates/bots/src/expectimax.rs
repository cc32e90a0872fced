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
/// uniformly from the bot's stream.
#[derive(Clone, Debug)]
pub struct Expectimax<E> {
    /// Turns looked at, the root decision's included (≥ 1).
    pub depth: u32,
    /// The evaluation function.
    pub evaluator: E,
    /// Nodes visited by the last search (for measurements).
    pub nodes: u64,
}

impl<E> Expectimax<E> {
    /// A searcher of `depth` decisions (at least 1).
    pub fn new(depth: u32, evaluator: E) -> Self {
        Expectimax { depth: depth.max(1), evaluator, nodes: 0 }
    }
}

impl<E> Expectimax<E> {
    /// The expectimax value of `state` for `root`, looking `depth` more turns ahead.
    pub fn value<G: Game>(&mut self, game: &G, state: &G::State, depth: u32, root: usize) -> f64
    where
        E: Evaluator<G>,
    {
        self.nodes += 1;
        match game.turn(state) {
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
            Turn::Terminal => self.evaluator.evaluate(game, state, root),
        }
    }

    /// The value of each legal action for the seat to move, in the order of `legal`.
    pub fn action_values<G: Game>(&mut self, game: &G, state: &G::State, legal: &[G::Action]) -> Vec<f64>
    where
        E: Evaluator<G>,
    {
        let Turn::Seat(root) = game.turn(state) else { return Vec::new() };
        self.nodes = 0;
        legal
            .iter()
            .map(|&action| {
                let mut child = state.clone();
                match game.apply_quiet(&mut child, action) {
                    Ok(()) => self.value(game, &child, self.depth - 1, root),
                    Err(_) => f64::NEG_INFINITY,
                }
            })
            .collect()
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
