//! Computer players for Yut Nori.
//!
//! | name | what it does |
//! |---|---|
//! | `random` | uniform over legal actions (moves, routes, stack answers, slots) |
//! | `heuristic` | a priority policy: finish, capture, stack, stop on a branch (to take its shortcut), advance the unit nearest home, enter; back-do last unless it finishes, captures or stacks; routes towards the shorter way home; always stacks; picks the earliest free slot |
//! | `expectimax:D` | expectimax over future throws to depth D with [`YutEvaluator`] |
//! | `easy` / `normal` / `hard` | `random` / `heuristic` / `expectimax:3` |

use madang_core::{Game, Outcome, Turn};
use madang_seed::{Stream, uniform_below};
use madang_yut::{
    Exit, MO_CORNER, Mode, Phase, Stick, Yut, YutAction, YutOptions, YutState, branch_choices, steps_to_finish,
};

use crate::{Bot, BotError, Evaluation, Evaluator, Expectimax, RandomBot, Roster, parse_depth};

/// Fewest forward steps the pieces of `side` still need (a piece in hand: to 모, then on),
/// following the route a unit on a branch has chosen.
pub fn steps_left(game: &Yut, state: &YutState, side: usize) -> u32 {
    let reach = game.settings().exit == Exit::Reach;
    let pieces = &state.sides[side];
    let in_hand = pieces.hand.count_ones() * (5 + steps_to_finish(MO_CORNER, reach));
    let on_board: u32 = pieces
        .units
        .iter()
        .map(|u| {
            let steps = match u.route {
                Some(next) if branch_choices(u.station).is_some() => 1 + steps_to_finish(next, reach),
                _ => steps_to_finish(u.station, reach),
            };
            u.size() * steps
        })
        .sum();
    in_hand + on_board
}

/// The priority policy (spec issue 3: finish, capture, stack, take shortcuts, advance the piece
/// nearest home, enter; routes towards the shorter way home).
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    /// The priority of `action` at `state` (higher is better), judged by applying it.
    pub fn score(game: &Yut, state: &YutState, action: YutAction) -> i64 {
        // The move is judged on a copy of the position made into this thread's scratch
        // position, whose vectors are reused (`clone_from`): no allocation per candidate move.
        thread_local! {
            static SCRATCH: std::cell::RefCell<Option<YutState>> = const { std::cell::RefCell::new(None) };
        }
        SCRATCH.with_borrow_mut(|scratch| Self::score_on(game, state, action, scratch))
    }

    /// [`Heuristic::score`], applying the move to `scratch` (made a copy of `state` first).
    fn score_on(game: &Yut, state: &YutState, action: YutAction, scratch: &mut Option<YutState>) -> i64 {
        let reach = game.settings().exit == Exit::Reach;
        match action {
            YutAction::Route(next) => -(i64::from(steps_to_finish(next, reach))),
            YutAction::Stack(yes) => i64::from(yes),
            YutAction::Slot(n) => -i64::from(n),
            YutAction::Throw(_) => 0,
            YutAction::Enter(_) | YutAction::Move(..) => {
                let Turn::Seat(seat) = game.turn(state) else { return 0 };
                let side = game.side_of_seat(seat);
                let after = match scratch {
                    Some(after) => {
                        after.clone_from(state);
                        after
                    }
                    None => scratch.insert(state.clone()),
                };
                if game.apply_quiet(after, action).is_err() {
                    return i64::MIN;
                }
                let after = &*after;
                let finished = after.sides[side].finished.count_ones() > state.sides[side].finished.count_ones()
                    || after.phase == Phase::Over;
                let captured = after.counters[side].captures > state.counters[side].captures;
                let stacked = after.counters[side].stacks > state.counters[side].stacks || after.phase == Phase::Stack;
                let moved = match action {
                    YutAction::Move(p, _) => p,
                    _ => (state.sides[side].hand & !after.sides[side].hand).trailing_zeros() as u8,
                };
                let on_branch = after.sides[side]
                    .units
                    .iter()
                    .any(|u| u.pieces & (1 << moved) != 0 && branch_choices(u.station).is_some());
                let gain = i64::from(steps_left(game, state, side)) - i64::from(steps_left(game, after, side));
                let backwards = matches!(action, YutAction::Move(_, Stick::Backdo));
                let class = if finished {
                    6
                } else if captured {
                    5
                } else if stacked {
                    4
                } else if on_branch && !backwards {
                    3
                } else if backwards {
                    0
                } else if matches!(action, YutAction::Move(..)) {
                    2
                } else {
                    1
                };
                // Within "advance", the unit nearest home first: fewer steps left before the move.
                let nearest = match action {
                    YutAction::Move(p, _) => state.sides[side]
                        .units
                        .iter()
                        .find(|u| u.pieces & (1 << p) != 0)
                        .map_or(0, |u| 100 - i64::from(steps_to_finish(u.station, reach))),
                    _ => 0,
                };
                class * 1_000_000 + nearest * 1000 + gain
            }
        }
    }
}

impl Bot<Yut> for Heuristic {
    fn choose(&mut self, game: &Yut, state: &YutState, legal: &[YutAction], stream: &mut Stream) -> YutAction {
        let scores: Vec<i64> = legal.iter().map(|&a| Heuristic::score(game, state, a)).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let tied: Vec<usize> = (0..legal.len()).filter(|&i| scores[i] == best).collect();
        legal[tied[uniform_below(stream, tied.len() as u32) as usize]]
    }
}

/// Evaluation for expectimax: the opponents' mean steps left minus one's own, less
/// [`HAND_PENALTY`] per piece still in hand (relative to the opponents), with the
/// expected swing of the next throw's captures: the side about to throw threatens every other
/// side's units it could land on with one forward result (progress lost plus a bonus throw,
/// valued at [`CAPTURE_TEMPO`] steps). ±1000 for a decided game.
#[derive(Clone, Copy, Debug, Default)]
pub struct YutEvaluator;

/// Steps a capture's bonus throw is worth in the evaluation.
pub const CAPTURE_TEMPO: f64 = 3.0;

/// Steps a piece still in hand costs beyond its distance: pieces on the board give every
/// result more uses (measured: expectimax:2 against heuristic 56.2 % → 58.2 % over 2,000 games).
pub const HAND_PENALTY: f64 = 2.0;

/// The expected forward steps of one throw with p = 1/2: (−1 + 3 + 12 + 12 + 4 + 5) / 16 = 35/16,
/// times 8/7 for the yut and mo chains, = 2.5.
pub const THROW_VALUE: f64 = 2.5;

impl Evaluator<Yut> for YutEvaluator {
    fn evaluate(&self, game: &Yut, state: &YutState, seat: usize) -> f64 {
        let me = game.side_of_seat(seat);
        match game.outcome(state) {
            Some(Outcome::Winner(w)) => return if w == me { 1000.0 } else { -1000.0 },
            Some(Outcome::Ranking(order)) => {
                let place = order.iter().position(|&s| s == me).unwrap_or(order.len()) as f64;
                return 1000.0 - 2000.0 * place / (order.len().max(2) - 1) as f64;
            }
            _ => {}
        }
        let sides = state.sides.len();
        let opponents = (sides - 1).max(1) as f64;
        let mut others = 0.0;
        for side in (0..sides).filter(|&s| s != me) {
            others += f64::from(steps_left(game, state, side));
        }
        let hand = |side: usize| f64::from(state.sides[side].hand.count_ones());
        let hand_others: f64 = (0..sides).filter(|&s| s != me).map(hand).sum();
        let mine = f64::from(steps_left(game, state, me));
        let mut value = others / opponents - mine - HAND_PENALTY * (hand(me) - hand_others / opponents);
        // Whoever throws next gains a throw (and any banked results) and threatens the others.
        if let Turn::Chance = game.turn(state) {
            let (thrower, _) = game.seat_at(state, state.position);
            let banked: f64 = state.pool.iter().map(|r| f64::from(r.steps().max(0))).sum();
            let tempo = THROW_VALUE + banked;
            value += if thrower == me { tempo } else { -tempo / opponents };
            if thrower == me {
                for side in (0..sides).filter(|&s| s != me) {
                    value += threat(game, state, side, me) / opponents;
                }
            } else {
                value -= threat(game, state, me, thrower);
            }
        }
        value
    }
}

/// Expected steps `target` loses (plus the bonus throw's tempo) to a forward result of `by`'s
/// next throw landing on one of its units (do … mo at p = 1/2, ignoring chains).
fn threat(game: &Yut, state: &YutState, target: usize, by: usize) -> f64 {
    const HIT: [f64; 6] = [0.0, 3.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0, 1.0 / 16.0];
    let reach = game.settings().exit == Exit::Reach;
    let full = f64::from(5 + steps_to_finish(MO_CORNER, reach));
    let attacker = &state.sides[by];
    let mut total = 0.0;
    for unit in &state.sides[target].units {
        let mut p = 0.0;
        if attacker.hand != 0 && (1..=5).contains(&unit.station) {
            p += HIT[usize::from(unit.station)];
        }
        for enemy in &attacker.units {
            for steps in 1..=5u8 {
                if forward_station(enemy.station, enemy.route, &enemy.trail, steps) == Some(unit.station) {
                    p += HIT[usize::from(steps)];
                }
            }
        }
        let lost = full - f64::from(steps_to_finish(unit.station, reach));
        total += p.min(1.0) * (lost * f64::from(unit.size()) + CAPTURE_TEMPO);
    }
    total
}

/// Where a unit at `station` stops after `steps` forward steps (route at a branch, straight on
/// when passing), or `None` if it finishes.
fn forward_station(station: u8, route: Option<u8>, trail: &[u8], steps: u8) -> Option<u8> {
    if station == 0 {
        return None;
    }
    let mut previous = trail.len().checked_sub(2).map(|i| trail[i]);
    let mut position = station;
    for step in 0..steps {
        let next = if step == 0 && route.is_some() && branch_choices(position).is_some() {
            route
        } else {
            madang_yut::straight_next(position, previous)
        }?;
        previous = Some(position);
        position = next;
        if position == 0 && step + 1 < steps {
            return None;
        }
    }
    Some(position)
}

/// The names of Yut's evaluation features ([`features`]).
pub const FEATURE_NAMES: &[&str] = &["steps", "race", "hand", "stacked", "threatened", "banked", "wait"];

/// Yut's evaluations (`Roster::evaluation`) by mode and number of players, their weights fitted
/// on games between `heuristic` bots under the default rules in that mode with that many players
/// (`docs/analysis.md`, "A faster estimator"). Games with two sides (short enough to play out)
/// and every rule set with an option changed have none: their playouts run to the end.
pub const EVALUATIONS: [(Mode, u8, Evaluation); 7] = [
    (Mode::Individual, 3, fitted(&[21.3210, -1.9042, 0.0355, 0.4713, -0.1236, 0.0993, -0.0577], 0.05)),
    (Mode::Individual, 4, fitted(&[20.3384, -1.9183, 0.0519, 0.4204, -0.1372, 0.0990, -0.0400], 0.44)),
    (Mode::TeamShared, 6, fitted(&[21.1993, -1.9003, 0.0364, 0.4694, -0.1243, 0.1016, -0.0533], 0.05)),
    (Mode::TeamShared, 8, fitted(&[20.0415, -1.8945, 0.0438, 0.4160, -0.1414, 0.0959, -0.0440], 0.41)),
    (Mode::TeamSeparate, 4, fitted(&[9.0507, -1.1062, 0.0139, 0.2359, -0.0552, 0.0625, -0.0071], 0.37)),
    (Mode::TeamSeparate, 6, fitted(&[8.7048, -1.2196, 0.0505, 0.2342, -0.0717, 0.0626, -0.0207], 0.66)),
    (Mode::TeamSeparate, 8, fitted(&[9.0675, -1.3190, 0.0508, 0.2127, -0.0835, 0.0620, -0.0224], 0.69)),
];

/// An evaluation of Yut's features with fitted `weights`, playouts cut after 80 actions, and the
/// `bias` measured for it (points, rms).
const fn fitted(weights: &'static [f64], bias: f64) -> Evaluation {
    Evaluation { names: FEATURE_NAMES, weights, horizon: 80, bias }
}

/// The features of Yut's evaluation for each side, in side order, at a position where a throw
/// is awaited (nothing once the ceremony is still on or a side has finished: such playouts run
/// to the end): its steps left ([`steps_left`], hundreds), the same over the square root of
/// the sides' mean steps left plus 10 (a race is decided by differences of the order of its
/// spread), pieces in hand, pieces carried by another (a stack of k counts k − 1), the steps (and bonus throw) the side to throw is expected to
/// capture from it with one throw (the expectimax evaluation's threat), the forward steps the
/// side to throw has banked from earlier throws of its turn, and how many turns before the
/// side throws (0 for the side to throw).
pub fn features(game: &Yut, state: &YutState, out: &mut Vec<f64>) {
    out.clear();
    if state.ceremony.is_some() || state.order.is_empty() || !state.finished_sides.is_empty() {
        return;
    }
    let sides = state.sides.len();
    let players = game.settings().players;
    let (thrower, _) = game.seat_at(state, state.position);
    let steps: Vec<f64> = (0..sides).map(|side| f64::from(steps_left(game, state, side))).collect();
    let scale = (steps.iter().sum::<f64>() / sides as f64 + 10.0).sqrt();
    let banked: f64 = state.pool.iter().map(|r| f64::from(r.steps().max(0))).sum();
    for (side, &left) in steps.iter().enumerate() {
        let wait = (0..players)
            .position(|k| game.seat_at(state, (state.position + k) % players).0 == side)
            .unwrap_or(usize::from(players));
        let threatened = if side == thrower { 0.0 } else { threat(game, state, side, thrower) };
        out.extend([
            left / 100.0,
            left / scale,
            f64::from(state.sides[side].hand.count_ones()),
            state.sides[side].units.iter().map(|u| f64::from(u.size()) - 1.0).sum(),
            threatened,
            if side == thrower { banked } else { 0.0 },
            wait as f64,
        ]);
    }
}

impl Roster for Yut {
    fn rollout_bot() -> &'static str {
        "heuristic"
    }

    fn evaluation(&self) -> Option<Evaluation> {
        let (players, mode) = (self.settings().players, self.settings().mode);
        let defaults =
            YutOptions { mode: Some(mode), ..YutOptions::default() }.settings(Some(usize::from(players))).ok()?;
        if *self.settings() != defaults {
            return None;
        }
        EVALUATIONS.iter().find(|(m, p, _)| *m == mode && *p == players).map(|(_, _, e)| *e)
    }

    fn evaluation_features(&self, state: &YutState, out: &mut Vec<f64>) {
        features(self, state, out);
    }

    fn bot_names() -> &'static [&'static str] {
        &["random", "heuristic", "expectimax:D", "easy", "normal", "hard"]
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Yut>>, BotError> {
        let depth = match name {
            "random" | "easy" => return Ok(Box::new(RandomBot)),
            "heuristic" | "normal" => return Ok(Box::new(Heuristic)),
            "hard" => 3,
            other => match parse_depth(other, 4)? {
                Some(depth) => depth,
                None => {
                    return Err(BotError::Unknown {
                        name: other.to_owned(),
                        game: Yut::NAME,
                        known: Self::bot_names().join(", "),
                    });
                }
            },
        };
        // Two turns of Yut already take up to milliseconds (a throw set's orders of spending;
        // 84 ms at most in an eight-player game): a search.
        Ok(Box::new(Expectimax::new(depth, YutEvaluator).searching_from(2)))
    }
}
