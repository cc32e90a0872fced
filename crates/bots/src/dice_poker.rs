//! Computer players for Seven Dice Poker.
//!
//! | name | what it does |
//! |---|---|
//! | `random` | uniform over legal placements |
//! | `greedy` | the placement (or token) that maximises its own current best-hand value minus the opponent's after the neighbour changes ([`hand_value`]); ties drawn from its stream |
//! | `expectimax:D` | expectimax to depth D (turns, 1-4) with [`PokerEvaluator`] |
//! | `adaptive:N` | expectimax as deep as an estimated N thousand evaluated positions allow, at least 2 turns, up to the end of the game ([`Adaptive`]) |
//! | `easy` / `normal` / `hard` | `expectimax:1` / `expectimax:2` / `adaptive:250` ([`HARD_LEAF_BUDGET`]) |
//!
//! [`PokerEvaluator`] scores a position by P(win) − P(loss) under a model in which the dice not
//! yet placed are rolled independently and no die changes any more: for each seat the exact
//! distribution of its final best hand follows from the dice it has and how many are left, and
//! the two distributions are compared. At the end of the game it is the exact result; before,
//! it is a sound but myopic estimate, and the search adds the neighbour changes of the next
//! turns.

use std::sync::OnceLock;

use madang_core::Game;
use madang_dice_poker::{Cell, DicePoker, Phase, PokerAction, PokerState, StraightRule, best_hand_of_counts};
use madang_seed::{Stream, uniform_below};

use crate::{Bot, BotError, Evaluator, Expectimax, RandomBot, Roster, parse_depth};

/// Estimated evaluated positions (leaves) the `hard` level allows itself per decision (at most
/// about 300,000 search nodes): measured p99 16 ms without tokens and 45-60 ms with them on one
/// core of the development machine (issue 5: < 100 ms p99), and 3 turns deep from the first
/// placement on without tokens.
pub const HARD_LEAF_BUDGET: u64 = 250_000;

/// The value of a seat's dice as they stand, for `greedy`: one of the spec's six hands scores
/// 2 (two pair) to 7 (five of a kind); with too few dice for any of them, one pair scores 1 and
/// nothing 0. The fraction added (below 1) orders hands of a kind by their dice in comparison
/// order (the pair's value, or the highest die, when there is no hand).
pub fn hand_value(counts: &[u8; 6], straight: StraightRule) -> f64 {
    if let Some(hand) = best_hand_of_counts(counts, straight) {
        // The key's low 15 bits are the five dice, three bits each.
        return 2.0 + hand.kind.index() as f64 + f64::from(hand.key() & 0x7fff) / 32_768.0;
    }
    if let Some(pair) = (1..=6u8).rev().find(|&v| counts[usize::from(v - 1)] >= 2) {
        return 1.0 + f64::from(pair) / 7.0;
    }
    (1..=6u8).rev().find(|&v| counts[usize::from(v - 1)] >= 1).map_or(0.0, |v| f64::from(v) / 7.0)
}

/// The placement (or token) that maximises own [`hand_value`] minus the opponent's after the
/// neighbour changes. Ties are drawn uniformly from the bot's stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// The greedy score of each of `legal`, in order.
    pub fn scores(game: &DicePoker, state: &PokerState, legal: &[PokerAction]) -> Vec<f64> {
        let seat = usize::from(state.to_move);
        let straight = game.settings().straight;
        legal
            .iter()
            .map(|&action| {
                let mut child = *state;
                if game.apply_quiet(&mut child, action).is_err() {
                    return f64::NEG_INFINITY;
                }
                hand_value(&child.counts_of(seat), straight) - hand_value(&child.counts_of(1 - seat), straight)
            })
            .collect()
    }
}

impl Bot<DicePoker> for Greedy {
    fn choose(
        &mut self,
        game: &DicePoker,
        state: &PokerState,
        legal: &[PokerAction],
        stream: &mut Stream,
    ) -> PokerAction {
        pick_best(legal, &Greedy::scores(game, state, legal), stream)
    }
}

/// The best of `legal` by `values`, ties (within 1e-9) drawn uniformly from `stream`.
fn pick_best(legal: &[PokerAction], values: &[f64], stream: &mut Stream) -> PokerAction {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..legal.len()).filter(|&i| values[i] >= best - 1e-9).collect();
    match tied.len() {
        0 => legal[0],
        n => legal[tied[uniform_below(stream, n as u32) as usize]],
    }
}

/// Exact final-hand distributions for every multiset of at most seven dice, under one straight
/// rule.
#[derive(Debug)]
pub struct HandTable {
    /// Distinct final hands (their `Hand::key`s), weakest first.
    pub keys: Vec<u32>,
    /// Multiset id by base-8 count code (`u16::MAX` for more than seven dice).
    id_of: Vec<u16>,
    /// The non-zero entries `(h, probability)` of each multiset's final-hand distribution
    /// (completed to seven dice by fair rolls): entries `offsets[id]..offsets[id + 1]`.
    p: Vec<(u16, f32)>,
    /// Where each multiset's entries of `p` start.
    offsets: Vec<u32>,
    /// `g[id * H + h]`: P(this multiset's final hand < h) − P(> h), so that the value of seat A
    /// against seat B is `Σ_h p_A[h] · g_B[h]` = P(A wins) − P(A loses).
    g: Vec<f32>,
}

/// The base-8 code of a count vector.
fn code(counts: &[u8; 6]) -> usize {
    counts.iter().fold(0, |c, &n| c * 8 + usize::from(n))
}

impl HandTable {
    fn build(straight: StraightRule) -> HandTable {
        // Every count vector with at most seven dice, by number of dice.
        let mut multisets: Vec<[u8; 6]> = Vec::new();
        fn walk(i: usize, left: u8, current: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
            if i == 6 {
                out.push(*current);
                return;
            }
            for n in 0..=left {
                current[i] = n;
                walk(i + 1, left - n, current, out);
            }
            current[i] = 0;
        }
        walk(0, 7, &mut [0; 6], &mut multisets);
        let total = |m: &[u8; 6]| m.iter().map(|&n| u32::from(n)).sum::<u32>();
        multisets.sort_by_key(|m| std::cmp::Reverse(total(m)));
        let mut id_of = vec![u16::MAX; 8usize.pow(6)];
        for (id, m) in multisets.iter().enumerate() {
            id_of[code(m)] = id as u16;
        }
        let full_key = |m: &[u8; 6]| best_hand_of_counts(m, straight).map_or(0, |h| h.key());
        let mut keys: Vec<u32> = multisets.iter().filter(|m| total(m) == 7).map(full_key).collect();
        keys.sort_unstable();
        keys.dedup();
        let h = keys.len();
        // Fewer dice first needs more dice done: multisets are sorted by size descending.
        let mut dist = vec![0f64; multisets.len() * h];
        for (id, m) in multisets.iter().enumerate() {
            if total(m) == 7 {
                let rank = keys.binary_search(&full_key(m)).unwrap_or(0);
                dist[id * h + rank] = 1.0;
                continue;
            }
            for v in 0..6 {
                let mut next = *m;
                next[v] += 1;
                let child = usize::from(id_of[code(&next)]);
                for r in 0..h {
                    dist[id * h + r] += dist[child * h + r] / 6.0;
                }
            }
        }
        let mut g = vec![0f32; multisets.len() * h];
        let mut p = Vec::new();
        let mut offsets = vec![0u32];
        for id in 0..multisets.len() {
            let row = &dist[id * h..(id + 1) * h];
            let mut below = 0.0;
            for r in 0..h {
                let above = 1.0 - below - row[r];
                g[id * h + r] = (below - above) as f32;
                if row[r] > 0.0 {
                    p.push((r as u16, row[r] as f32));
                }
                below += row[r];
            }
            offsets.push(p.len() as u32);
        }
        HandTable { keys, id_of, p, offsets, g }
    }

    /// The table for `straight`, built once.
    pub fn get(straight: StraightRule) -> &'static HandTable {
        static TABLES: [OnceLock<HandTable>; 2] = [OnceLock::new(), OnceLock::new()];
        let i = match straight {
            StraightRule::Distinct => 0,
            StraightRule::Consecutive => 1,
        };
        TABLES[i].get_or_init(|| HandTable::build(straight))
    }

    /// P(A wins) − P(A loses) when seat A's dice so far are `a` and seat B's are `b` (at most
    /// seven each), the rest rolled fairly and nothing changed any more.
    ///
    /// Sums over the sparser of the two distributions (P(A wins) − P(A loses) = −(P(B wins) −
    /// P(B loses))), so a seat with many dice placed makes it cheap.
    pub fn value(&self, a: &[u8; 6], b: &[u8; 6]) -> f64 {
        let (ia, ib) = (usize::from(self.id_of[code(a)]), usize::from(self.id_of[code(b)]));
        let (pa, pb) = (self.entries(ia), self.entries(ib));
        if pa.len() <= pb.len() { self.against(pa, ib) } else { -self.against(pb, ia) }
    }

    fn entries(&self, id: usize) -> &[(u16, f32)] {
        &self.p[self.offsets[id] as usize..self.offsets[id + 1] as usize]
    }

    /// `Σ_h p[h] · g_other[h]`.
    fn against(&self, p: &[(u16, f32)], other: usize) -> f64 {
        let h = self.keys.len();
        let g = &self.g[other * h..(other + 1) * h];
        f64::from(p.iter().map(|&(r, q)| q * g[usize::from(r)]).sum::<f32>())
    }

    /// The probability of each hand kind (two pair first) for a multiset of at most seven dice
    /// completed by fair rolls; `[0; 6]` counts gives the distribution for seven fair dice.
    pub fn kind_distribution(&self, counts: &[u8; 6]) -> [f64; 6] {
        let id = usize::from(self.id_of[code(counts)]);
        let mut out = [0.0; 6];
        for &(r, q) in self.entries(id) {
            out[(self.keys[usize::from(r)] >> 15) as usize] += f64::from(q);
        }
        out
    }
}

/// P(win) − P(loss) from `seat`'s view: exact (±1, 0 for a draw) at the end, otherwise
/// [`HandTable::value`] of the dice on the board.
#[derive(Clone, Copy, Debug)]
pub struct PokerEvaluator {
    table: &'static HandTable,
}

impl PokerEvaluator {
    /// The evaluator for `game`'s straight rule.
    pub fn new(game: &DicePoker) -> Self {
        PokerEvaluator { table: HandTable::get(game.settings().straight) }
    }
}

impl Evaluator<DicePoker> for PokerEvaluator {
    fn evaluate(&self, _game: &DicePoker, state: &PokerState, seat: usize) -> f64 {
        if let Phase::Over { winner } = state.phase {
            return match winner {
                Some(w) if usize::from(w) == seat => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
        let mut counts = [[0u8; 6]; 2];
        for cell in &state.cells {
            if let Cell::Die { seat: s, value } = *cell {
                counts[usize::from(s) & 1][usize::from(value.wrapping_sub(1)) % 6] += 1;
            }
        }
        self.table.value(&counts[seat], &counts[1 - seat])
    }
}

/// Expectimax whose depth is chosen per decision: the deepest (from `min_depth` up to the end
/// of the game) whose estimated number of evaluated positions stays within `leaf_budget`.
#[derive(Clone, Debug)]
pub struct Adaptive {
    /// Never search fewer turns than this.
    pub min_depth: u32,
    /// Estimated leaves allowed per decision.
    pub leaf_budget: u64,
    /// The search.
    pub search: Expectimax<PokerEvaluator>,
}

impl Adaptive {
    /// Adaptive expectimax for `game` with `leaf_budget` estimated evaluated positions per
    /// decision and at least two turns of search.
    pub fn new(game: &DicePoker, leaf_budget: u64) -> Self {
        Adaptive { min_depth: 2, leaf_budget, search: Expectimax::new(2, PokerEvaluator::new(game)) }
    }

    /// The depth for a decision at `state` with `legal` actions: turns alternate; a turn with
    /// dice is 6 rolls times its placements (each empty cell, twice while the seat holds its
    /// token), a token-only turn one placement per empty cell. A token is assumed kept until
    /// its seat has no die left, so the estimate is an upper bound (a token placed instead of a
    /// die gives its seat one more turn, which the search then meets as a shallower level).
    pub fn depth_for(&self, state: &PokerState, legal: usize) -> u32 {
        let mut dice = state.dice_left;
        let mut tokens = state.token_left;
        let mut empty = u64::from(state.empty_mask().count_ones());
        let mut seat = usize::from(state.to_move);
        // The root turn: its placement (a die if it rolled, else the token).
        if let Phase::Place { roll: Some(_) } = state.phase {
            dice[seat] = dice[seat].saturating_sub(1);
        }
        let mut leaves = legal as u64;
        let mut depth = 1u32;
        loop {
            empty = empty.saturating_sub(1);
            seat = 1 - seat;
            let (rolls, actions) = if dice[seat] > 0 {
                dice[seat] -= 1;
                (6, empty * (1 + u64::from(tokens[seat])))
            } else if tokens[seat] {
                tokens[seat] = false;
                (1, empty)
            } else {
                break;
            };
            let next = leaves.saturating_mul(rolls * actions.max(1));
            if next > self.leaf_budget && depth >= self.min_depth {
                break;
            }
            leaves = next;
            depth += 1;
        }
        depth.max(self.min_depth)
    }
}

impl Bot<DicePoker> for Adaptive {
    /// Its depth grows to a leaf budget: milliseconds a decision (`docs/bots.md`).
    fn searches(&self) -> bool {
        true
    }

    fn choose(
        &mut self,
        game: &DicePoker,
        state: &PokerState,
        legal: &[PokerAction],
        stream: &mut Stream,
    ) -> PokerAction {
        if legal.len() == 1 {
            return legal[0];
        }
        self.search.depth = self.depth_for(state, legal.len());
        let values = self.search.action_values(game, state, legal);
        pick_best(legal, &values, stream)
    }
}

impl Roster for DicePoker {
    fn rollout_bot() -> &'static str {
        "greedy"
    }

    fn bot_names() -> &'static [&'static str] {
        &["random", "greedy", "expectimax:D", "adaptive:N", "easy", "normal", "hard"]
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<DicePoker>>, BotError> {
        let evaluator = PokerEvaluator::new(self);
        let depth = match name {
            "random" => return Ok(Box::new(RandomBot)),
            "greedy" => return Ok(Box::new(Greedy)),
            "hard" => return Ok(Box::new(Adaptive::new(self, HARD_LEAF_BUDGET))),
            "easy" => 1,
            "normal" => 2,
            other if other.starts_with("adaptive:") => {
                return Ok(Box::new(Adaptive::new(self, parse_budget(other)?)));
            }
            other => match parse_depth(other, 4)? {
                Some(depth) => depth,
                None => {
                    return Err(BotError::Unknown {
                        name: other.to_owned(),
                        game: DicePoker::NAME,
                        known: Self::bot_names().join(", "),
                    });
                }
            },
        };
        Ok(Box::new(Expectimax::new(depth, evaluator)))
    }
}

/// Parses the leaf budget of `adaptive:N` (N thousand evaluated positions, 1 ≤ N ≤ 100,000).
fn parse_budget(name: &str) -> Result<u64, BotError> {
    match name.strip_prefix("adaptive:").and_then(crate::canonical_number) {
        Some(n) if (1..=100_000).contains(&n) => Ok(n * 1000),
        _ => Err(BotError::BadParameter {
            name: name.to_owned(),
            reason: "the budget N (thousands of evaluated positions) must be an integer from 1 to 100000, without \
                     sign or leading zeros"
                .to_owned(),
        }),
    }
}
