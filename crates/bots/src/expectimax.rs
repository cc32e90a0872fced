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
use std::hash::{BuildHasherDefault, Hash, Hasher};

use madang_core::{Game, Turn, Weight};
use madang_seed::{Stream, uniform_below};

use crate::Bot;

/// Scores a state from one seat's point of view; larger is better for that seat.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The score of `state` for `seat`. Terminal states must score above (win) or below (loss)
    /// every non-terminal state.
    fn evaluate(&self, game: &G, state: &G::State, seat: usize) -> f64;

    /// The search's last ply worked out without making the moves: the value, for `root`, of
    /// the decision `seat` faces in `state` with no depth left — the largest (when `seat` is
    /// `root`) or smallest value of the positions its legal actions reach, each of which the
    /// search would score with [`Evaluator::evaluate`] — and the number of legal actions (the
    /// nodes the search would have visited). `None` (the default; an implementation must
    /// return it for any state where a legal action leads to another decision) makes the
    /// search apply each action and score the child itself; an implementation must give
    /// exactly that value (`f64` equality), so that the search plays the same moves either way.
    fn last_ply(&self, game: &G, state: &G::State, seat: usize, root: usize) -> Option<(f64, u64)> {
        let _ = (game, state, seat, root);
        None
    }

    /// A chance node with one turn of search left, worked out without making its outcomes:
    /// the value, for `root`, the search would give `state` — the weighted mean `Σ weight ×
    /// value / Σ weight`, summed in the order of `chance_outcomes`, of each outcome's position
    /// with no depth left (a decision's [`Evaluator::last_ply`], any other position's score) —
    /// and the number of nodes the search would have visited below it. `None`, the default,
    /// makes the search apply each outcome itself; an implementation must give exactly that
    /// value (`f64` equality) and node count while the search is within its node budget (past
    /// it, the level is thrown away whatever the values).
    fn last_chance(&self, game: &G, state: &G::State, root: usize) -> Option<(f64, u64)> {
        let _ = (game, state, root);
        None
    }
}

/// Expectimax to a fixed depth with evaluator `E`. Ties at the root (within 1e-9) are broken
/// uniformly from the bot's stream. Values of decision and chance nodes are kept in a
/// transposition table for the duration of one root decision, so the many orders of spending the
/// same results (Yut's throw sets, Ur's rolls) are searched once. The table is keyed by a 64-bit
/// hash of the state (foldhash, fixed seed) and the depth (a collision, about one in 10^12 per
/// search, could only misjudge a move).
#[derive(Clone, Debug)]
pub struct Expectimax<E> {
    /// Turns looked at, the root decision's included (≥ 1).
    pub depth: u32,
    /// The evaluation function.
    pub evaluator: E,
    /// Nodes visited by the last search (for measurements).
    pub nodes: u64,
    /// Node budget per search level: a deeper level that needs more is abandoned (once over
    /// budget the search stops expanding, after the node it is in when the evaluator works a
    /// whole last ply or last roll out at once) and the previous level's values are used.
    pub max_nodes: u64,
    /// The depth from which a decision counts as a search ([`Bot::searches`]): 3 unless the
    /// game's roster sets it ([`Expectimax::searching_from`]).
    pub searches_from: u32,
    table: HashMap<(u64, u32), f64, BuildHasherDefault<PreHashed>>,
}

impl<E> Expectimax<E> {
    /// A searcher of `depth` turns (at least 1).
    pub fn new(depth: u32, evaluator: E) -> Self {
        Expectimax {
            depth: depth.max(1),
            evaluator,
            nodes: 0,
            max_nodes: DEFAULT_MAX_NODES,
            searches_from: 3,
            table: HashMap::default(),
        }
    }

    /// The same searcher, whose decisions count as searches from `depth` turns on: a game whose
    /// turns branch widely (Yut's throw sets) sets 2.
    #[must_use]
    pub fn searching_from(mut self, depth: u32) -> Self {
        self.searches_from = depth;
        self
    }
}

/// The default node budget per search level (about 0.1-0.3 s of Yut search on one core).
pub const DEFAULT_MAX_NODES: u64 = 300_000;

/// The transposition table's hasher: its keys are already 64-bit hashes of the state (and a
/// depth), so hashing them again is wasted work; the depth is spread over the bits by a
/// multiplication.
#[derive(Clone, Copy, Debug, Default)]
struct PreHashed(u64);

impl Hasher for PreHashed {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u32(&mut self, n: u32) {
        self.0 ^= u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The seed of the state hash: fixed, so that a search, and the bot's choice, is the same in
/// every run.
const STATE_HASH_SEED: u64 = 0x6d61_6461_6e67_0001;

/// A 64-bit hash of `state` (foldhash's quality variant, fixed seed).
fn state_hash<S: Hash>(state: &S) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(STATE_HASH_SEED).hash_one(state)
}

/// Buffers reused across one search, one of each per ply (recursion level), so that a node
/// allocates nothing once the search has been as deep before: the legal actions, the chance
/// outcomes and the child position (refilled with `clone_from`, which reuses its vectors).
struct Scratch<G: Game> {
    legal: Vec<Vec<G::Action>>,
    outcomes: Vec<Vec<(G::Action, Weight)>>,
    children: Vec<Option<G::State>>,
}

impl<G: Game> Scratch<G> {
    fn new() -> Self {
        Scratch { legal: Vec::new(), outcomes: Vec::new(), children: Vec::new() }
    }

    fn take<T: Default>(pool: &mut Vec<T>, ply: usize) -> T {
        if pool.len() <= ply {
            pool.resize_with(ply + 1, T::default);
        }
        std::mem::take(&mut pool[ply])
    }

    /// The child position of ply `ply`, made a copy of `state`.
    fn child(&mut self, ply: usize, state: &G::State) -> G::State {
        match Self::take(&mut self.children, ply) {
            Some(mut child) => {
                child.clone_from(state);
                child
            }
            None => state.clone(),
        }
    }
}

impl<E> Expectimax<E> {
    /// The expectimax value of `state` for `root`, looking `depth` more turns ahead.
    pub fn value<G: Game>(&mut self, game: &G, state: &G::State, depth: u32, root: usize) -> f64
    where
        E: Evaluator<G>,
    {
        self.value_in(game, state, depth, root, &mut Scratch::new(), 0)
    }

    fn value_in<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        root: usize,
        scratch: &mut Scratch<G>,
        ply: usize,
    ) -> f64
    where
        E: Evaluator<G>,
    {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return self.evaluator.evaluate(game, state, root);
        }
        match game.turn(state) {
            // A last-turn decision is not kept: its children are leaves, and in Ur (where one
            // always follows a chance node, which is kept) none was ever met twice in the
            // benchmark (`docs/bots.md`, "The search").
            Turn::Seat(seat) if depth == 0 => match self.evaluator.last_ply(game, state, seat, root) {
                Some((v, children)) => {
                    self.nodes += children;
                    v
                }
                None => self.decision_value(game, state, seat, depth, root, scratch, ply),
            },
            Turn::Seat(seat) => {
                let key = (state_hash(state), depth);
                if let Some(&v) = self.table.get(&key) {
                    return v;
                }
                let v = self.decision_value(game, state, seat, depth, root, scratch, ply);
                self.table.insert(key, v);
                v
            }
            Turn::Chance if depth == 0 => self.evaluator.evaluate(game, state, root),
            Turn::Chance => {
                // Chance nodes are kept too: the same position after a move is reached by
                // spending the same rolls in another order.
                let key = (state_hash(state), depth);
                if let Some(&v) = self.table.get(&key) {
                    return v;
                }
                if depth == 1
                    && let Some((v, nodes)) = self.evaluator.last_chance(game, state, root)
                {
                    self.nodes += nodes;
                    self.table.insert(key, v);
                    return v;
                }
                let mut outcomes = Scratch::<G>::take(&mut scratch.outcomes, ply);
                let list = game.chance_outcomes_in(state, &mut outcomes);
                let mut child = scratch.child(ply, state);
                let mut total = 0.0;
                let mut sum = 0.0;
                for &(action, weight) in list {
                    total += weight as f64;
                    child.clone_from(state);
                    if game.apply_quiet(&mut child, action).is_ok() {
                        sum += weight as f64 * self.value_in(game, &child, depth - 1, root, scratch, ply + 1);
                    }
                }
                scratch.outcomes[ply] = outcomes;
                scratch.children[ply] = Some(child);
                let v = sum / total;
                self.table.insert(key, v);
                v
            }
            Turn::Terminal => self.evaluator.evaluate(game, state, root),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn decision_value<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        seat: usize,
        depth: u32,
        root: usize,
        scratch: &mut Scratch<G>,
        ply: usize,
    ) -> f64
    where
        E: Evaluator<G>,
    {
        let mut legal = Scratch::<G>::take(&mut scratch.legal, ply);
        game.legal_actions(state, &mut legal);
        let mut child = scratch.child(ply, state);
        let maximise = seat == root;
        let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
        for &action in &legal {
            child.clone_from(state);
            if game.apply_quiet(&mut child, action).is_ok() {
                let v = self.value_in(game, &child, depth, root, scratch, ply + 1);
                best = if maximise { best.max(v) } else { best.min(v) };
            }
        }
        scratch.legal[ply] = legal;
        scratch.children[ply] = Some(child);
        best
    }

    /// The value of each legal action for the seat to move, in the order of `legal`.
    pub fn action_values<G: Game>(&mut self, game: &G, state: &G::State, legal: &[G::Action]) -> Vec<f64>
    where
        E: Evaluator<G>,
    {
        let Turn::Seat(root) = game.turn(state) else { return Vec::new() };
        let mut scratch = Scratch::new();
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
                        Ok(()) => self.value_in(game, &child, depth - 1, root, &mut scratch, 0),
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
    /// From [`Expectimax::searches_from`] turns on (3 by default): `docs/bots.md` times depth
    /// 1 and 2 in microseconds in Ur (`easy`, `normal`) and at 0.1-0.4 ms in Seven Dice Poker
    /// (`normal`), depth 3 and 5 in milliseconds (Yut's and Ur's `hard`).
    fn searches(&self) -> bool {
        self.depth >= self.searches_from
    }

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
