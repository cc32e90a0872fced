//! Game review: every decision valued (the chosen move's winning chance, the best move's, the
//! loss and its grade), every chance outcome's luck, the winning-chance graph, each player's
//! accuracy, and luck against skill.

use madang_bots::Roster;
use madang_core::{Game, Turn, Weight};
use serde::Serialize;

use crate::chances::{Compared, Values};

/// How much winning chance a move gave away, in the style of chess.com's expected-points
/// bands (0 / 0.02 / 0.05 / 0.10 / 0.20 of a point) scaled by one half: in these dice games a
/// single decision moves a game's winning chance less than in chess. Thresholds in percentage
/// points in [`THRESHOLDS`]; `docs/analysis.md`, "Grades".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// The best move (the estimated best, or within 0.01 points of the exact best).
    Best,
    /// Gave away less than 1 point.
    Excellent,
    /// 1 to 2.5 points.
    Good,
    /// 2.5 to 5 points.
    Inaccuracy,
    /// 5 to 10 points.
    Mistake,
    /// 10 points or more.
    Blunder,
}

/// The grades' upper bounds in percentage points of winning chance: best, excellent, good,
/// inaccuracy, mistake (a blunder is anything above).
pub const THRESHOLDS: Thresholds = Thresholds { best: 0.01, excellent: 1.0, good: 2.5, inaccuracy: 5.0, mistake: 10.0 };

/// The grades' upper bounds ([`THRESHOLDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// Below it: best.
    pub best: f64,
    /// Below it: excellent.
    pub excellent: f64,
    /// Below it: good.
    pub good: f64,
    /// Below it: inaccuracy.
    pub inaccuracy: f64,
    /// Below it: mistake; from it on, blunder.
    pub mistake: f64,
}

impl Grade {
    /// The grade of a move that gave away `loss` percentage points.
    pub fn of(loss: f64) -> Grade {
        let t = THRESHOLDS;
        if loss < t.best {
            Grade::Best
        } else if loss < t.excellent {
            Grade::Excellent
        } else if loss < t.good {
            Grade::Good
        } else if loss < t.inaccuracy {
            Grade::Inaccuracy
        } else if loss < t.mistake {
            Grade::Mistake
        } else {
            Grade::Blunder
        }
    }
}

/// A move's accuracy, 0-100, from the winning chance it gave away (percentage points):
/// Lichess's formula, `103.1668 · e^(−0.04354 · loss) − 3.1669` (lichess.org/page/accuracy),
/// and 100 for a best move (the formula gives 99.9999 at 0).
pub fn accuracy(loss: f64) -> f64 {
    if loss < THRESHOLDS.best {
        return 100.0;
    }
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One decision, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// 0-based index of the action in the game's history.
    pub index: usize,
    /// The seat that decided.
    pub seat: String,
    /// Its side (index into `sides`).
    pub side: usize,
    /// The move played.
    pub action: String,
    /// The best move (the first in legal order among equals).
    pub best: String,
    /// How many moves were legal.
    pub choices: usize,
    /// The mover's side's winning chance with the best move, 0-1.
    pub best_chance: f64,
    /// The mover's side's winning chance after the move played, 0-1.
    pub chance: f64,
    /// Winning chance given away, percentage points (0 for the best move).
    pub loss: f64,
    /// Half the width of the loss's 95 % interval, percentage points (0 when exact).
    pub margin: f64,
    /// The grade of the loss.
    pub grade: Grade,
    /// Every side's chance after the move played, 0-1.
    pub after: Vec<f64>,
    /// Every side's chance after the best move, 0-1.
    pub best_after: Vec<f64>,
}

impl MoveReview {
    /// What the move gave side `side` against the mover's best move, percentage points (for
    /// the mover's own side, minus the loss; for two sides, the other side gains the loss).
    pub fn gain_to(&self, side: usize) -> f64 {
        100.0 * (self.after.get(side).copied().unwrap_or(0.0) - self.best_after.get(side).copied().unwrap_or(0.0))
    }
}

/// One chance outcome, reviewed: how much luck it brought each side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChanceReview {
    /// 0-based index of the action in the game's history.
    pub index: usize,
    /// The seat whose roll or throw it was (`None` for a chance nobody throws).
    pub seat: Option<String>,
    /// The outcome drawn.
    pub action: String,
    /// Every side's chance expected before the outcome (the outcomes' chances weighted by
    /// their probabilities), 0-1.
    pub expected: Vec<f64>,
    /// Every side's chance after the outcome, 0-1.
    pub after: Vec<f64>,
    /// Every side's luck, percentage points: `after − expected`.
    pub luck: Vec<f64>,
    /// Half the width of each luck's 95 % interval, percentage points (0 when exact).
    pub margin: Vec<f64>,
}

/// One point of the winning-chance graph: every side's chance after the action `index`
/// (`None`: before the first action).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The action's index.
    pub index: Option<usize>,
    /// Every side's chance, 0-1.
    pub chances: Vec<f64>,
}

/// A side's account of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// The side's name.
    pub side: String,
    /// Its decisions with more than one legal move.
    pub decisions: usize,
    /// Mean accuracy over those decisions, 0-100 (`None` without any).
    pub accuracy: Option<f64>,
    /// Its decisions by grade: best, excellent, good, inaccuracy, mistake, blunder (sums to
    /// `decisions`).
    pub grades: [usize; 6],
    /// The side's chance at the start, percentage points.
    pub initial: f64,
    /// Its 95 % margin, points (0 when exact).
    pub initial_margin: f64,
    /// The side's result: 100 for a win, 0 for a loss, a share for a draw.
    pub result: f64,
    /// Luck, points: what the dice did, by the account `result − initial + loss − gains` (what
    /// the decisions do not explain). With exact values it is exactly the sum over the chance
    /// outcomes of (chance after − chance expected before), `outcome_luck`.
    pub luck: f64,
    /// Its 95 % margin (the initial chance's and the decisions' margins combined as
    /// independent errors; 0 when exact).
    pub luck_margin: f64,
    /// The sum over chance outcomes of (chance after − chance expected before), points,
    /// measured outcome by outcome.
    pub outcome_luck: f64,
    /// Its 95 % margin (the outcomes' margins combined).
    pub outcome_luck_margin: f64,
    /// Skill loss: the sum over the side's own decisions of (best − chosen), points.
    pub loss: f64,
    /// What the other sides' decisions gave this side: the sum over their decisions of (this
    /// side's chance after the move played − after the mover's best move), points.
    pub gains: f64,
    /// `outcome_luck − luck`: zero with exact values (up to the table's rounding), which is the
    /// identity *result = initial + luck − loss + gains*; with estimates, estimation noise.
    pub residual: f64,
}

/// A moment worth a look: a large loss, or a large swing of luck.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyMoment {
    /// The action's index.
    pub index: usize,
    /// `loss` (a decision) or `luck` (a chance outcome).
    pub kind: &'static str,
    /// The side it mattered most to.
    pub side: usize,
    /// Points: the loss, or the luck (positive: good for `side`).
    pub points: f64,
}

/// A whole game, reviewed (`docs/analysis.md`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// Whether every value is exact (a solved table) rather than estimated.
    pub exact: bool,
    /// How the values were found.
    pub method: String,
    /// The sides' names.
    pub sides: Vec<String>,
    /// Whether the game ended by its rules. When not (a game in progress, resigned, agreed
    /// drawn or left), the last winning chances stand for each side's result: the account is
    /// of the play so far, and a resignation is not valued as a move.
    pub finished: bool,
    /// The grades' thresholds, percentage points.
    pub thresholds: Thresholds,
    /// Every decision.
    pub moves: Vec<MoveReview>,
    /// Every chance outcome.
    pub chance: Vec<ChanceReview>,
    /// The winning-chance graph: the start, then after each action.
    pub graph: Vec<Point>,
    /// Each side's accuracy, luck and skill.
    pub summary: Vec<SideSummary>,
    /// The largest losses and swings of luck, largest first.
    pub key_moments: Vec<KeyMoment>,
    /// Playouts used in all (0 when exact).
    pub playouts: usize,
}

/// How precise an estimated review is to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Playouts per comparison to begin with.
    pub start: usize,
    /// At most this many per comparison.
    pub most: usize,
    /// Stop adding playouts once a decision's loss (or an outcome's luck) is known within this
    /// many percentage points (half the 95 % interval).
    pub target: f64,
}

impl Default for Precision {
    /// The web page's and `madang review`'s: a loss known within ±2 points.
    fn default() -> Precision {
        Precision { start: 96, most: 6144, target: 2.0 }
    }
}

/// Reviews the game `history` of `game` with `values`, calling `progress(done, total)` after
/// each action. `None` when the history does not apply.
pub fn review<G: Roster>(
    game: &G,
    history: &[G::Action],
    values: &dyn Values<G>,
    precision: Precision,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Review> {
    let sides = game.side_names();
    let seats = game.seat_names();
    let mut state = game.initial_state();
    // The chance at the start, known to the target like a loss (it is every account's first
    // term): refined on every side's margin.
    let mut initial = values.compare(game, std::slice::from_ref(&state), precision.start, 0);
    refine(values, game, std::slice::from_ref(&state), &mut initial, precision, 0, |c| {
        (0..sides.len()).map(|s| 100.0 * c.margin(s, &[(0, 1.0)])).fold(0.0, f64::max)
    });
    // Cut playouts vary a third to a tenth as much as whole ones (`docs/analysis.md`, "A faster
    // estimator"): every later comparison starts with half as many.
    let precision =
        if initial.floor() > 0.0 { Precision { start: (precision.start / 2).max(2), ..precision } } else { precision };
    let mut playouts = initial.playouts();
    let mut graph = vec![Point { index: None, chances: initial.means[0].clone() }];
    let mut moves = Vec::new();
    let mut chance = Vec::new();
    let mut outcomes: Vec<(G::Action, Weight)> = Vec::new();
    // The key of a node's comparison: its index, so every node has random numbers of its own.
    let key = |index: usize| index as u64 + 1;
    for (index, &action) in history.iter().enumerate() {
        match game.turn(&state) {
            Turn::Terminal => return None,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                let drawn = outcomes.iter().position(|(a, _)| *a == action)?;
                let total: Weight = outcomes.iter().map(|(_, w)| *w).sum();
                let family = siblings(game, &state, outcomes.iter().map(|(a, _)| *a))?;
                let thrower = game.thrower(&state).and_then(|s| seats.get(s).cloned());
                if family.unique.len() == 1 {
                    // Every outcome leads to the same position (no piece can move whatever the
                    // roll): no luck.
                    let last = graph.last().map(|p| p.chances.clone()).unwrap_or_default();
                    chance.push(ChanceReview {
                        index,
                        seat: thrower,
                        action: action.to_string(),
                        luck: vec![0.0; sides.len()],
                        margin: vec![0.0; sides.len()],
                        expected: last.clone(),
                        after: last.clone(),
                    });
                    graph.push(Point { index: Some(index), chances: last });
                } else {
                    // Each outcome's luck is for the graph's detail and the key moments (the
                    // account of a side's luck comes from the decisions, `summarise`): half the
                    // decisions' first playouts, never more.
                    // An outcome that leaves a decision is worth its best move, as a decision
                    // is valued (so the graph does not jump at the next move by what the
                    // rollout bot would have played there): every outcome's moves are compared
                    // at once, and `chosen[u]` is the position standing for outcome `u`, its
                    // best move's.
                    let (positions, ranges) = outcome_positions(game, &family.unique)?;
                    let compared = values.compare(game, &positions, precision.start / 2, key(index));
                    playouts += compared.playouts() * positions.len();
                    let chosen: Vec<usize> = ranges
                        .iter()
                        .map(|(range, mover)| {
                            range.clone().fold(range.start, |b, i| {
                                if compared.means[i][*mover] > compared.means[b][*mover] + 1e-12 { i } else { b }
                            })
                        })
                        .collect();
                    // Valued again on fresh playouts: the best of many estimates is an
                    // overestimate (the winner's curse, as for decisions).
                    let picked: Vec<G::State> = chosen.iter().map(|&c| positions[c].clone()).collect();
                    let compared = values.compare(game, &picked, precision.start / 2, key(index) | (1 << 41));
                    playouts += compared.playouts() * picked.len();
                    // `after − Σ w·child`: the luck of the drawn outcome, as a combination of
                    // the positions standing for the outcomes.
                    let mut weights: Vec<(usize, f64)> = (0..picked.len()).map(|u| (u, 0.0)).collect();
                    for (i, (_, w)) in outcomes.iter().enumerate() {
                        weights[family.of[i]].1 -= *w as f64 / total as f64;
                    }
                    weights[family.of[drawn]].1 += 1.0;
                    let value = |u: usize| &compared.means[u];
                    let expected: Vec<f64> = (0..sides.len())
                        .map(|s| {
                            outcomes
                                .iter()
                                .enumerate()
                                .map(|(i, (_, w))| *w as f64 * value(family.of[i])[s])
                                .sum::<f64>()
                                / total as f64
                        })
                        .collect();
                    let after = value(family.of[drawn]).clone();
                    chance.push(ChanceReview {
                        index,
                        seat: thrower,
                        action: action.to_string(),
                        luck: (0..sides.len()).map(|s| 100.0 * (after[s] - expected[s])).collect(),
                        margin: (0..sides.len()).map(|s| 100.0 * compared.margin(s, &weights)).collect(),
                        expected,
                        after: after.clone(),
                    });
                    graph.push(Point { index: Some(index), chances: after });
                }
            }
            Turn::Seat(seat) => {
                let side = game.side_of_seat(seat);
                let seat_name = seats.get(seat).cloned().unwrap_or_default();
                match review_decision(game, values, &state, action, precision, key(index))? {
                    Decided::Forced => {
                        // A forced move (or moves that all lead to the same position) decides
                        // nothing: not valued (the graph keeps its last point).
                        let last = graph.last().map(|p| p.chances.clone()).unwrap_or_default();
                        moves.push(forced(index, seat_name, side, &action.to_string(), &last));
                        graph.push(Point { index: Some(index), chances: last });
                    }
                    Decided::Valued(review, compared_playouts) => {
                        playouts += compared_playouts;
                        graph.push(Point { index: Some(index), chances: review.after.clone() });
                        moves.push(MoveReview { index, seat: seat_name, ..review });
                    }
                }
            }
        }
        game.apply_quiet(&mut state, action).ok()?;
        progress(index + 1, history.len());
    }
    let finished = game.turn(&state) == Turn::Terminal;
    let result: Vec<f64> = if finished {
        crate::chances::result_values(game.outcome(&state).as_ref(), sides.len())
    } else {
        // An unfinished game: its last chances stand for the result.
        graph.last().map(|p| p.chances.clone()).unwrap_or_default()
    };
    let initial_margins: Vec<f64> = (0..sides.len())
        .map(|s| {
            if initial.is_exact() {
                0.0
            } else {
                100.0 * (initial.margin(s, &[(0, 1.0)]).powi(2) + crate::chances::MODEL_MARGIN.powi(2)).sqrt()
            }
        })
        .collect();
    // With nothing played the result of a game that did not end by its rules is the initial
    // chance itself: luck is exactly 0, and the initial chance's error cancels out of it.
    let luck_initial_margins: Vec<f64> =
        if !finished && history.is_empty() { vec![0.0; sides.len()] } else { initial_margins.clone() };
    let summary =
        summarise(&sides, (&initial.means[0], &initial_margins, &luck_initial_margins), &result, &moves, &chance);
    Some(Review {
        exact: values.exact(),
        method: values.method(game),
        sides,
        finished,
        thresholds: THRESHOLDS,
        key_moments: key_moments(&moves, &chance),
        moves,
        chance,
        graph,
        summary,
        playouts,
    })
}

/// What [`review_decision`] found.
#[derive(Clone, Debug, PartialEq)]
pub enum Decided {
    /// One legal move, or moves that all lead to the same position: nothing to value.
    Forced,
    /// The move valued (`index` 0 and `seat` empty: the caller's to fill in), and the playouts
    /// it took (0 when exact).
    Valued(MoveReview, usize),
}

/// Reviews the single decision `action` at `state` (a decision node) as [`review()`] does, with
/// `key` naming its random numbers. `None` when `state` is not a decision node or `action` is
/// not legal there. The `crosscheck` example grades decisions with it against the table.
pub fn review_decision<G: Roster>(
    game: &G,
    values: &dyn Values<G>,
    state: &G::State,
    action: G::Action,
    precision: Precision,
    key: u64,
) -> Option<Decided> {
    let Turn::Seat(seat) = game.turn(state) else { return None };
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    let played = legal.iter().position(|a| *a == action)?;
    let family = siblings(game, state, legal.iter().copied())?;
    if family.unique.len() == 1 {
        return Some(Decided::Forced);
    }
    let (review, playouts) = decision(game, values, &family, &legal, played, game.side_of_seat(seat), precision, key);
    Some(Decided::Valued(review, playouts))
}

/// A forced move (one legal move): no loss, no gain, the chances unchanged.
fn forced(index: usize, seat: String, side: usize, action: &str, chances: &[f64]) -> MoveReview {
    MoveReview {
        index,
        seat,
        side,
        action: action.to_owned(),
        best: action.to_owned(),
        choices: 1,
        best_chance: chances.get(side).copied().unwrap_or(0.0),
        chance: chances.get(side).copied().unwrap_or(0.0),
        loss: 0.0,
        margin: 0.0,
        grade: Grade::Best,
        after: chances.to_vec(),
        best_after: chances.to_vec(),
    }
}

/// A decision between `legal` moves (two or more) of side `side`, the `played`-th played: the
/// best move is chosen on one set of playouts, and the loss measured on a fresh one (paired, on
/// common random numbers), so that the loss is not inflated by choosing the luckiest estimate
/// (the winner's curse). Exact values need neither. Returns the review (without its seat) and
/// the playouts used.
#[allow(clippy::too_many_arguments)]
fn decision<G: Roster>(
    game: &G,
    values: &dyn Values<G>,
    family: &Siblings<G::State>,
    legal: &[G::Action],
    played_move: usize,
    side: usize,
    precision: Precision,
    key: u64,
) -> (MoveReview, usize) {
    // Positions, not moves: moves that lead to the same position are one.
    let children = &family.unique;
    let played = family.of[played_move];
    let mut compared = values.compare(game, children, precision.start, key);
    let best_of = |c: &Compared| {
        (0..children.len()).fold(0, |b, i| if c.means[i][side] > c.means[b][side] + 1e-12 { i } else { b })
    };
    // Choosing: until the best is told from the move played (or from the runner-up, when the
    // move played is the best) to twice the target.
    let against = |c: &Compared| {
        let best = best_of(c);
        if best != played {
            best
        } else {
            (0..children.len())
                .filter(|&i| i != played)
                .max_by(|&a, &b| c.means[a][side].total_cmp(&c.means[b][side]))
                .unwrap_or(played)
        }
    };
    let choosing = Precision { target: 2.0 * precision.target, most: precision.most / 8, ..precision };
    refine(values, game, children, &mut compared, choosing, key, |c| {
        100.0 * c.margin(side, &[(against(c), 1.0), (played, -1.0)])
    });
    let mut used = compared.playouts() * children.len();
    let chosen = best_of(&compared);
    let other = against(&compared);
    // The move played is clear of every other (each difference larger than its margin): no
    // loss, whatever a fresh measurement would give, so none is made.
    let clear = chosen == played
        && (0..children.len()).filter(|&i| i != played).all(|i| {
            let difference = 100.0 * (compared.means[played][side] - compared.means[i][side]);
            difference > 100.0 * compared.margin(side, &[(played, 1.0), (i, -1.0)])
        });
    // Measuring: the move played against the other on fresh playouts.
    let (best, after, best_after, loss, margin) = if compared.is_exact() {
        let loss = 100.0 * (compared.means[chosen][side] - compared.means[played][side]);
        // A move as good as the first best one is a best move too.
        let best = if loss < 1e-9 { played } else { chosen };
        (best, compared.means[played].clone(), compared.means[best].clone(), loss, 0.0)
    } else if clear {
        (played, compared.means[played].clone(), compared.means[played].clone(), 0.0, 0.0)
    } else {
        let pair = [children[other].clone(), children[played].clone()];
        let fresh_key = key | (1 << 40);
        let mut fresh = values.compare(game, &pair, 2 * precision.start, fresh_key);
        let margin = |c: &Compared| 100.0 * c.margin(side, &[(0, 1.0), (1, -1.0)]);
        refine(values, game, &pair, &mut fresh, precision, fresh_key, margin);
        used += fresh.playouts() * 2;
        let difference = 100.0 * (fresh.means[0][side] - fresh.means[1][side]);
        // The fresh playouts find the move played as good as the other: no loss, and nothing
        // given to the others. Else the other is the best, by what they measure.
        if difference <= 0.0 {
            (played, fresh.means[1].clone(), fresh.means[1].clone(), 0.0, margin(&fresh))
        } else {
            (other, fresh.means[1].clone(), fresh.means[0].clone(), difference, margin(&fresh))
        }
    };
    let loss = loss.max(0.0) + 0.0;
    // The best move: the first in legal order that leads to the best position.
    let best_move = (0..legal.len()).find(|&i| family.of[i] == best).unwrap_or(played_move);
    let review = MoveReview {
        index: 0,
        seat: String::new(),
        side,
        action: legal[played_move].to_string(),
        best: legal[best_move].to_string(),
        choices: legal.len(),
        best_chance: best_after.get(side).copied().unwrap_or(0.0),
        chance: after.get(side).copied().unwrap_or(0.0),
        loss,
        margin,
        grade: Grade::of(loss),
        after,
        best_after,
    };
    (review, used)
}

/// Sibling positions (after each action from one position) with equal ones counted once:
/// position `i` is `unique[of[i]]`.
pub struct Siblings<S> {
    /// The distinct positions, in the order first met.
    pub unique: Vec<S>,
    /// Each action's position in `unique`.
    pub of: Vec<usize>,
}

/// The positions after each of `actions` from `state` (`None` if one does not apply).
fn siblings<G: Game>(
    game: &G,
    state: &G::State,
    actions: impl Iterator<Item = G::Action>,
) -> Option<Siblings<G::State>> {
    let mut family = Siblings { unique: Vec::new(), of: Vec::new() };
    for action in actions {
        let mut child = state.clone();
        game.apply_quiet(&mut child, action).ok()?;
        let at = match family.unique.iter().position(|u| *u == child) {
            Some(at) => at,
            None => {
                family.unique.push(child);
                family.unique.len() - 1
            }
        };
        family.of.push(at);
    }
    Some(family)
}

/// The positions that value each of `outcomes` (distinct positions after a chance node): an
/// outcome that leaves a decision between different positions is valued by the positions after
/// each of its moves (the best is taken for the mover's side), any other by itself. Returns the
/// positions and, per outcome, its range in them and the side to maximise (`None` when a move
/// does not apply).
#[allow(clippy::type_complexity)]
fn outcome_positions<G: Roster>(
    game: &G,
    outcomes: &[G::State],
) -> Option<(Vec<G::State>, Vec<(std::ops::Range<usize>, usize)>)> {
    let mut positions = Vec::new();
    let mut ranges = Vec::new();
    let mut legal = Vec::new();
    for outcome in outcomes {
        let start = positions.len();
        let mut side = 0;
        if let Turn::Seat(seat) = game.turn(outcome) {
            game.legal_actions(outcome, &mut legal);
            let moves = siblings(game, outcome, legal.iter().copied())?;
            if moves.unique.len() > 1 {
                side = game.side_of_seat(seat);
                positions.extend(moves.unique);
            }
        }
        if positions.len() == start {
            positions.push(outcome.clone());
        }
        ranges.push((start..positions.len(), side));
    }
    Some((positions, ranges))
}

/// Adds playouts until `margin` is within the target or the most is reached. A margin's
/// sampling part shrinks as 1/√n, so each step adds what the margin so far says is needed (with
/// a tenth more, and at least a quarter of what there is, so that a margin measured a little low
/// does not lead to many small steps); doubling instead would overshoot by up to half. The part
/// that does not shrink (the [floor](Compared::floor) of cut playouts) is taken off first; where
/// it leaves less than half the target, the sampling error is brought to half the target.
fn refine<G: Game>(
    values: &dyn Values<G>,
    game: &G,
    positions: &[G::State],
    compared: &mut Compared,
    precision: Precision,
    key: u64,
    margin: impl Fn(&Compared) -> f64,
) {
    loop {
        let n = compared.playouts();
        let now = margin(compared);
        if compared.is_exact() || n >= precision.most || now <= precision.target {
            return;
        }
        let floor = 100.0 * compared.floor();
        let sampling = (now * now - floor * floor).max(0.0).sqrt();
        let goal = (precision.target.powi(2) - floor * floor).max(precision.target.powi(2) / 4.0).sqrt();
        if sampling <= goal {
            return;
        }
        let needed = (n as f64 * (sampling / goal).powi(2) * 1.1).ceil() as usize;
        let more = needed.saturating_sub(n).max(n / 4).max(1).min(precision.most - n);
        values.extend(game, positions, compared, more, key);
    }
}

/// Each side's summary. `initial_margins` are the initial chances' margins as reported;
/// `luck_initial_margins` what of them enters luck's margin.
fn summarise(
    sides: &[String],
    (initial, initial_margins, luck_initial_margins): (&[f64], &[f64], &[f64]),
    result: &[f64],
    moves: &[MoveReview],
    chance: &[ChanceReview],
) -> Vec<SideSummary> {
    (0..sides.len())
        .map(|s| {
            let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.side == s).collect();
            let decisions: Vec<&&MoveReview> = mine.iter().filter(|m| m.choices > 1).collect();
            let mut grades = [0; 6];
            for m in &decisions {
                grades[m.grade as usize] += 1;
            }
            let outcome_luck: f64 = chance.iter().map(|c| c.luck[s]).sum::<f64>() + 0.0;
            let outcome_luck_margin = chance.iter().map(|c| c.margin[s].powi(2)).sum::<f64>().sqrt() + 0.0;
            let loss: f64 = mine.iter().map(|m| m.loss).sum::<f64>() + 0.0;
            // Another side's move: this side's chance after it against the chance the mover's
            // best move would have left (for two sides, the mover's loss).
            let gains: f64 = moves.iter().filter(|m| m.side != s).map(|m| m.gain_to(s)).sum::<f64>() + 0.0;
            let initial_margin = initial_margins.get(s).copied().unwrap_or(0.0);
            let initial = 100.0 * initial.get(s).copied().unwrap_or(0.0);
            let result = 100.0 * result.get(s).copied().unwrap_or(0.0);
            let luck = result - initial + loss - gains + 0.0;
            // Every decision's margin counts once for each side it moved (its own, and as
            // another's gain).
            let decisions_margin: f64 = moves.iter().map(|m| m.margin.powi(2)).sum::<f64>() + 0.0;
            let luck_initial_margin = luck_initial_margins.get(s).copied().unwrap_or(0.0);
            let luck_margin = (luck_initial_margin.powi(2) + decisions_margin).sqrt() + 0.0;
            SideSummary {
                side: sides[s].clone(),
                decisions: decisions.len(),
                accuracy: (!decisions.is_empty())
                    .then(|| decisions.iter().map(|m| accuracy(m.loss)).sum::<f64>() / decisions.len() as f64),
                grades,
                initial,
                initial_margin,
                result,
                luck,
                luck_margin,
                outcome_luck,
                outcome_luck_margin,
                loss,
                gains,
                residual: outcome_luck - luck,
            }
        })
        .collect()
}

fn key_moments(moves: &[MoveReview], chance: &[ChanceReview]) -> Vec<KeyMoment> {
    let mut losses: Vec<KeyMoment> = moves
        .iter()
        .filter(|m| m.loss >= THRESHOLDS.good)
        .map(|m| KeyMoment { index: m.index, kind: "loss", side: m.side, points: m.loss })
        .collect();
    losses.sort_by(|a, b| b.points.total_cmp(&a.points));
    losses.truncate(3);
    let mut swings: Vec<KeyMoment> = chance
        .iter()
        .filter_map(|c| {
            let (side, luck) = c.luck.iter().enumerate().max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
            Some(KeyMoment { index: c.index, kind: "luck", side, points: *luck })
        })
        .collect();
    swings.sort_by(|a, b| b.points.abs().total_cmp(&a.points.abs()));
    swings.truncate(3);
    losses.extend(swings);
    losses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_the_documented_bands() {
        // docs/analysis.md, "Grades": < 0.01, < 1, 1-2.5, 2.5-5, 5-10, ≥ 10 points.
        let cases = [
            (0.0, Grade::Best),
            (0.009, Grade::Best),
            (0.01, Grade::Excellent),
            (0.99, Grade::Excellent),
            (1.0, Grade::Good),
            (2.49, Grade::Good),
            (2.5, Grade::Inaccuracy),
            (4.99, Grade::Inaccuracy),
            (5.0, Grade::Mistake),
            (9.99, Grade::Mistake),
            (10.0, Grade::Blunder),
            (60.0, Grade::Blunder),
        ];
        for (loss, grade) in cases {
            assert_eq!(Grade::of(loss), grade, "loss {loss}");
        }
    }

    #[test]
    fn accuracy_is_lichess_formula() {
        // 103.1668 · e^(−0.04354 · loss) − 3.1669, worked by hand: e^(−0.4354) = 0.647006, so
        // 10 points give 103.1668 · 0.647006 − 3.1669 = 63.583; e^(−1.3062) = 0.270847, so 30
        // points give 24.776; 100 points give 103.1668 · 0.012855 − 3.1669 < 0, clamped to 0.
        assert_eq!(accuracy(0.0), 100.0);
        assert!((accuracy(10.0) - 63.583).abs() < 0.001, "{}", accuracy(10.0));
        assert!((accuracy(30.0) - 24.776).abs() < 0.001, "{}", accuracy(30.0));
        assert_eq!(accuracy(100.0), 0.0);
    }
}
