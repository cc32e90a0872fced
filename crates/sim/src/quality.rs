//! Luck against skill and the game-quality metrics of a run (`docs/lab.md`, "Luck against
//! skill" and "Game quality").
//!
//! The first `analyse` games of a run are reviewed (`madang_analysis::review`: exact with a
//! solved table, else estimated by playouts), and each review's account and winning-chance
//! graph are added up here as integers (counts and fixed-point sums, like every other total), so
//! shards merge exactly. The outcome metrics (balance, drawishness) and the branching factor
//! come from every game of the run.
//!
//! The metrics follow Ludii's (Stephenson, Piette, Soemers, Browne: "An overview of the Ludii
//! general game system", 2019; `Evaluation/src/metrics` of the Ludii sources), computed here from
//! winning chances instead of UCT evaluations.

use madang_analysis::Review;
use serde::{Deserialize, Serialize};

use crate::Tally;
use crate::figures::{from_fixed, to_fixed};

/// Two chances closer than this are equal (a tie for the lead).
const TIE: f64 = 1e-9;

/// Nodes where a seat chooses, and the legal actions offered there, over every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branching {
    /// Nodes where a seat was to act (forced moves included).
    pub nodes: u64,
    /// Legal actions summed over those nodes.
    pub actions: u64,
}

impl Branching {
    /// Counts a node where a seat acts with `legal` actions.
    pub(crate) fn add(&mut self, legal: usize) {
        self.nodes += 1;
        self.actions += legal as u64;
    }

    /// Adds another chunk's or shard's counts.
    pub(crate) fn merge(&mut self, other: &Branching) {
        self.nodes += other.nodes;
        self.actions += other.actions;
    }
}

/// The reviewed games' accounts and graphs, added up. Fixed-point sums are in
/// `FIXED_POINT` units (2³², `crates/sim/src/figures.rs`) of a fraction of a game (1 = 100 points of winning
/// chance).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisTotals {
    /// How the winning chances were found (`Review::method`).
    pub method: String,
    /// Whether they were exact (a solved table).
    pub exact: bool,
    /// Games reviewed.
    pub games: u64,
    /// Side-games: one per side of each reviewed game.
    pub sides: u64,
    /// Σ R, with R = result − initial chance of a side.
    pub sum_r: i128,
    /// Σ L, with L = the side's luck (what the dice did).
    pub sum_l: i128,
    /// Σ C, with C = gains − loss (what the decisions did).
    pub sum_c: i128,
    /// Σ R².
    pub sum_rr: i128,
    /// Σ R·L.
    pub sum_rl: i128,
    /// Σ R·C.
    pub sum_rc: i128,
    /// Σ |L|.
    pub sum_abs_l: i128,
    /// Σ loss (the side's own decisions' losses).
    pub sum_loss: i128,
    /// Reviewed games with one winner.
    pub decided: u64,
    /// Σ over decided games of the share of the game played before it was decided.
    pub decisiveness: i128,
    /// Σ over reviewed games of the number of lead changes.
    pub lead_changes: u64,
    /// Σ over reviewed games of lead changes ÷ actions.
    pub lead_change_rate: i128,
    /// Positions (before each action) of decided games.
    pub positions: u64,
    /// Those positions where the eventual winner was not among the leaders.
    pub behind: u64,
    /// Σ over those positions of (the leader's chance − the winner's chance).
    pub shortfall: i128,
}

impl AnalysisTotals {
    /// Adds one reviewed game.
    pub fn add(&mut self, review: &Review) {
        if self.method.is_empty() {
            self.method.clone_from(&review.method);
            self.exact = review.exact;
        }
        self.games += 1;
        for side in &review.summary {
            let r = (side.result - side.initial) / 100.0;
            let l = side.luck / 100.0;
            let c = (side.gains - side.loss) / 100.0;
            self.sides += 1;
            self.sum_r += to_fixed(r);
            self.sum_l += to_fixed(l);
            self.sum_c += to_fixed(c);
            self.sum_rr += to_fixed(r * r);
            self.sum_rl += to_fixed(r * l);
            self.sum_rc += to_fixed(r * c);
            self.sum_abs_l += to_fixed(l.abs());
            self.sum_loss += to_fixed(side.loss / 100.0);
        }
        let chances: Vec<&[f64]> = review.graph.iter().map(|p| p.chances.as_slice()).collect();
        let trajectory = Trajectory::of(&chances, winner(review));
        self.lead_changes += trajectory.lead_changes;
        if let Some(rate) = trajectory.lead_change_rate {
            self.lead_change_rate += to_fixed(rate);
        }
        if let Some(decided) = trajectory.decided {
            self.decided += 1;
            self.decisiveness += to_fixed(decided.decisiveness);
            self.positions += decided.positions;
            self.behind += decided.behind;
            self.shortfall += to_fixed(decided.shortfall);
        }
    }

    /// Adds another chunk's or shard's totals.
    pub fn merge(&mut self, other: &AnalysisTotals) {
        if self.method.is_empty() {
            self.method.clone_from(&other.method);
            self.exact = other.exact;
        }
        self.games += other.games;
        self.sides += other.sides;
        self.sum_r += other.sum_r;
        self.sum_l += other.sum_l;
        self.sum_c += other.sum_c;
        self.sum_rr += other.sum_rr;
        self.sum_rl += other.sum_rl;
        self.sum_rc += other.sum_rc;
        self.sum_abs_l += other.sum_abs_l;
        self.sum_loss += other.sum_loss;
        self.decided += other.decided;
        self.decisiveness += other.decisiveness;
        self.lead_changes += other.lead_changes;
        self.lead_change_rate += other.lead_change_rate;
        self.positions += other.positions;
        self.behind += other.behind;
        self.shortfall += other.shortfall;
    }
}

/// The side that won a reviewed game: the one whose result is strictly the highest.
fn winner(review: &Review) -> Option<usize> {
    let best = review.summary.iter().map(|s| s.result).fold(f64::NEG_INFINITY, f64::max);
    let mut leaders = review.summary.iter().enumerate().filter(|(_, s)| s.result >= best - TIE);
    match (leaders.next(), leaders.next()) {
        (Some((side, _)), None) => Some(side),
        _ => None,
    }
}

/// The trajectory metrics of one game.
#[derive(Clone, Debug, PartialEq)]
struct Trajectory {
    lead_changes: u64,
    /// `None` for a game without actions.
    lead_change_rate: Option<f64>,
    /// `None` without a single winner.
    decided: Option<Decided>,
}

#[derive(Clone, Debug, PartialEq)]
struct Decided {
    decisiveness: f64,
    positions: u64,
    behind: u64,
    shortfall: f64,
}

/// The sides tied for the highest chance.
fn leaders(chances: &[f64]) -> Vec<usize> {
    let best = chances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (0..chances.len()).filter(|&s| chances[s] >= best - TIE).collect()
}

impl Trajectory {
    /// The metrics of a game whose every side's chance was `points[i]` before action `i` (the
    /// last point: after the last action), won by `winner`.
    fn of(points: &[&[f64]], winner: Option<usize>) -> Trajectory {
        let actions = points.len().saturating_sub(1);
        let lead: Vec<Vec<usize>> = points.iter().map(|p| leaders(p)).collect();
        let lead_changes = lead.windows(2).filter(|w| w[0] != w[1]).count() as u64;
        let lead_change_rate = (actions > 0).then(|| lead_changes as f64 / actions as f64);
        let decided = winner.filter(|_| actions > 0).map(|w| {
            let chance = |p: &[f64]| p.get(w).copied().unwrap_or(0.0);
            // Ludii's decisiveness threshold: the highest chance any other side ever had.
            let threshold = points
                .iter()
                .flat_map(|p| p.iter().enumerate().filter(|&(s, _)| s != w).map(|(_, c)| *c))
                .fold(0.0, f64::max);
            let first = points.iter().position(|p| chance(p) > threshold).unwrap_or(actions);
            let before_last = &points[..actions];
            let mut behind = 0;
            let mut shortfall = 0.0;
            for (p, l) in before_last.iter().zip(&lead) {
                if !l.contains(&w) {
                    behind += 1;
                    shortfall += p.iter().copied().fold(f64::NEG_INFINITY, f64::max) - chance(p);
                }
            }
            Decided { decisiveness: first as f64 / actions as f64, positions: actions as u64, behind, shortfall }
        });
        Trajectory { lead_changes, lead_change_rate, decided }
    }
}

/// The game-quality metrics of a run (`docs/lab.md`, "Game quality"), each 0-1 unless said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// 1 − the largest difference between two turn-order positions' win rates (Ludii's
    /// *Balance*, by position).
    pub balance: f64,
    /// Games drawn ÷ games (Ludii's *Drawishness*).
    pub drawishness: f64,
    /// Legal actions per node where a seat acts, forced moves included (Ludii's *branching
    /// factor*; `None` if no seat ever acted).
    pub branching_factor: Option<f64>,
    /// What the reviewed games show (`None` when no game was reviewed: `--analyse N`).
    pub analysis: Option<Analysis>,
}

/// Luck against skill and the trajectory metrics, from the reviewed games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Games reviewed (the run's first ones).
    pub games: u64,
    /// How winning chances were found.
    pub method: String,
    /// Whether they were exact.
    pub exact: bool,
    /// The share of the variance of R = result − initial chance over every side of every
    /// reviewed game that the dice explain: Cov(R, L) ÷ Var(R), with L the side's luck.
    /// `None` when R does not vary.
    pub dice_share: Option<f64>,
    /// The share the players' choices explain: Cov(R, C) ÷ Var(R), with C = gains − loss; since
    /// R = L + C for every side, the two shares add up to 1.
    pub choices_share: Option<f64>,
    /// The mean of |L| per side and game, percentage points.
    pub mean_abs_luck: f64,
    /// The mean loss per side and game (its decisions' losses summed), percentage points.
    pub mean_loss: f64,
    /// Reviewed games with one winner.
    pub decided: u64,
    /// Ludii's *Decisiveness Moves*: the mean share of a decided game played before the
    /// winner's chance first exceeded the highest chance any other side ever had (lower:
    /// decided earlier).
    pub decisiveness: Option<f64>,
    /// Lead changes per game: how often the set of sides with the highest chance changed.
    pub lead_changes: f64,
    /// Ludii's *Lead Change*: the mean over games of lead changes ÷ actions.
    pub lead_change_rate: f64,
    /// The share of the positions of decided games where the eventual winner was behind.
    pub behind_share: Option<f64>,
    /// Ludii's *Drama*: the mean, over those positions, of how far behind the winner was (the
    /// leader's chance − the winner's chance), percentage points.
    pub drama: Option<f64>,
}

/// The quality metrics of a run from its tallies and totals.
pub(crate) fn quality(
    by_position: &[Tally],
    games: u64,
    draws: u64,
    branching: &Branching,
    analysis: &AnalysisTotals,
) -> Quality {
    let rates: Vec<f64> =
        by_position.iter().map(|t| if t.games == 0 { 0.0 } else { t.wins as f64 / t.games as f64 }).collect();
    let spread =
        rates.iter().copied().fold(f64::NEG_INFINITY, f64::max) - rates.iter().copied().fold(f64::INFINITY, f64::min);
    let per = |sum: f64, n: u64| (n > 0).then(|| sum / n as f64);
    Quality {
        balance: if rates.is_empty() { 1.0 } else { 1.0 - spread },
        drawishness: per(draws as f64, games).unwrap_or(0.0),
        branching_factor: per(branching.actions as f64, branching.nodes),
        analysis: (analysis.games > 0).then(|| summarise(analysis)),
    }
}

fn summarise(a: &AnalysisTotals) -> Analysis {
    let n = a.sides.max(1) as f64;
    let mean = |sum: i128| from_fixed(sum) / n;
    let (r, l, c) = (mean(a.sum_r), mean(a.sum_l), mean(a.sum_c));
    let var_r = mean(a.sum_rr) - r * r;
    let cov_rl = mean(a.sum_rl) - r * l;
    let cov_rc = mean(a.sum_rc) - r * c;
    let share = |cov: f64| (var_r > 1e-12).then(|| cov / var_r);
    let per = |sum: f64, count: u64| (count > 0).then(|| sum / count as f64);
    Analysis {
        games: a.games,
        method: a.method.clone(),
        exact: a.exact,
        dice_share: share(cov_rl),
        choices_share: share(cov_rc),
        mean_abs_luck: 100.0 * mean(a.sum_abs_l),
        mean_loss: 100.0 * mean(a.sum_loss),
        decided: a.decided,
        decisiveness: per(from_fixed(a.decisiveness), a.decided),
        lead_changes: per(a.lead_changes as f64, a.games).unwrap_or(0.0),
        lead_change_rate: per(from_fixed(a.lead_change_rate), a.games).unwrap_or(0.0),
        behind_share: per(a.behind as f64, a.positions),
        drama: per(100.0 * from_fixed(a.shortfall), a.behind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_trajectory_by_hand() {
        // Two sides; side 1 wins. Before each of 4 actions: 0.6/0.4, 0.3/0.7, 0.5/0.5 (a tie),
        // 0.2/0.8; after the last: 0/1.
        let points: [&[f64]; 5] = [&[0.6, 0.4], &[0.3, 0.7], &[0.5, 0.5], &[0.2, 0.8], &[0.0, 1.0]];
        let t = Trajectory::of(&points, Some(1));
        // Leaders: {0}, {1}, {0,1}, {1}, {1}: three changes in four actions.
        assert_eq!(t.lead_changes, 3);
        assert!(close(t.lead_change_rate.unwrap_or(0.0), 0.75));
        let d = t.decided.expect("decided");
        // Side 0's highest chance was 0.6; side 1 first exceeds it at position 1 (0.7): 1/4.
        assert!(close(d.decisiveness, 0.25));
        // The winner trailed only at position 0 (a tie is not trailing), by 0.6 − 0.4.
        assert_eq!((d.positions, d.behind), (4, 1));
        assert!(close(d.shortfall, 0.2));
    }

    #[test]
    fn a_game_decided_only_at_the_end() {
        // The loser once held 1.0 (an estimate can): the winner never exceeds it, so the whole
        // game counts as undecided (Ludii: the number of moves).
        let points: [&[f64]; 3] = [&[0.5, 0.5], &[1.0, 0.0], &[0.0, 1.0]];
        let d = Trajectory::of(&points, Some(1)).decided.expect("decided");
        assert!(close(d.decisiveness, 1.0));
    }

    #[test]
    fn balance_and_drawishness() {
        let tally = |games, wins, draws| Tally { games, wins, draws };
        // First mover 60 of 100, second 30 of 100, 10 draws: balance 1 − 0.3.
        let q = quality(
            &[tally(100, 60, 10), tally(100, 30, 10)],
            100,
            10,
            &Branching { nodes: 8, actions: 20 },
            &AnalysisTotals::default(),
        );
        assert!(close(q.balance, 0.7));
        assert!(close(q.drawishness, 0.1));
        assert!(close(q.branching_factor.unwrap_or(0.0), 2.5));
        assert!(q.analysis.is_none());
    }

    #[test]
    fn the_shares_of_luck_and_choices() {
        // Four side-games (R, L, C = R − L): (0.5, 0.4, 0.1), (−0.5, −0.4, −0.1), (0.3, 0.0, 0.3),
        // (−0.3, 0.0, −0.3). Means 0; Var R = (0.25+0.25+0.09+0.09)/4 = 0.17;
        // Cov(R, L) = (0.2+0.2)/4 = 0.1; Cov(R, C) = (0.05+0.05+0.09+0.09)/4 = 0.07.
        let mut a = AnalysisTotals { games: 2, sides: 4, ..AnalysisTotals::default() };
        for (r, l) in [(0.5, 0.4), (-0.5, -0.4), (0.3, 0.0), (-0.3, 0.0)] {
            let c: f64 = r - l;
            a.sum_r += to_fixed(r);
            a.sum_l += to_fixed(l);
            a.sum_c += to_fixed(c);
            a.sum_rr += to_fixed(r * r);
            a.sum_rl += to_fixed(r * l);
            a.sum_rc += to_fixed(r * c);
        }
        let s = summarise(&a);
        assert!((s.dice_share.unwrap_or(0.0) - 0.1 / 0.17).abs() < 1e-6);
        assert!((s.choices_share.unwrap_or(0.0) - 0.07 / 0.17).abs() < 1e-6);
    }
}
