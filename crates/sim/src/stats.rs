//! Statistics from the totals: rates with Wilson score intervals, and game lengths.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Tally;

/// A 95 % confidence interval for a proportion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound, 0-1.
    pub low: f64,
    /// Upper bound, 0-1.
    pub high: f64,
}

/// Wins (and draws) out of games for one seat, position or bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Seat name, `first`/`second`/… position, or bot name.
    pub name: String,
    /// Games it took part in.
    pub games: u64,
    /// Games it won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// Wilson score interval (95 %) of the win rate.
    pub interval: Interval,
}

/// z of a two-sided 95 % interval: the standard normal's 97.5th percentile.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wilson score interval at 95 % (z = 1.959964) for `successes` out of `trials`.
pub fn wilson_interval(successes: u64, trials: u64) -> Interval {
    wilson_score_interval(successes as f64, trials, Z_95)
}

/// Wilson score interval with `z` standard errors (z = 1.96 for 95 %) for a proportion
/// `successes / trials`, both bounds in 0-1; `[0, 1]` for no trials.
///
/// `successes` may be fractional: the score of a seat that counts a draw as 1/seats of a win.
/// For any quantity in [0, 1] with mean p the variance is at most p(1 − p) (equality for
/// win-or-lose), so the interval, derived by inverting |p̂ − p| ≤ z·√(p(1 − p)/n), is then
/// conservative rather than wrong (E. B. Wilson, "Probable inference, the law of succession,
/// and statistical inference", JASA 22, 1927).
pub fn wilson_score_interval(successes: f64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval { low: 0.0, high: 1.0 };
    }
    let n = trials as f64;
    let p = successes / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denominator;
    Interval { low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

impl Rate {
    pub(crate) fn new(name: String, tally: Tally) -> Rate {
        let Tally { games, wins, draws } = tally;
        let win_rate = if games == 0 { 0.0 } else { wins as f64 / games as f64 };
        Rate { name, games, wins, draws, win_rate, interval: wilson_interval(wins, games) }
    }
}

/// The first mover's edge: how much more than a fair share (1/sides: one per seat, or per team
/// in a team game) the first turn-order position gets, from the tally of
/// [`crate::Totals::by_position`]`[0]` (a seat wins when its side wins).
///
/// Two measures: the **win rate** edge (wins / games − 1/sides, what the HTML report shows) and
/// the **score** edge, the first mover's score minus 1/sides, where the score counts a win as 1
/// and a draw as 1/sides (the measure of chess's first-move advantage, with a draw worth half a
/// point between two). The two are equal without draws; with draws only the score edge is 0 for
/// a game that favours neither side. Games without a result count as nothing for every seat.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstMoverEdge {
    /// Games the first mover played.
    pub games: u64,
    /// Games it won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// A fair share, 1/seats.
    pub fair: f64,
    /// `wins / games`, 0-1.
    pub win_rate: f64,
    /// The win rate's 95 % Wilson interval, 0-1.
    pub win_interval: Interval,
    /// `(wins + draws / seats) / games`, 0-1.
    pub score: f64,
    /// `score − fair`, in −fair … 1 − fair (a share of games; ×100 for percentage points).
    pub edge: f64,
    /// The score edge's 95 % Wilson interval (the score's, minus `fair`).
    pub interval: Interval,
}

impl FirstMoverEdge {
    /// The edge of the first of `by_position` (one tally per turn-order position; `seats` is
    /// their number); `None` when there is none or it played no game.
    pub fn of(by_position: &[crate::Tally], sides: usize) -> Option<FirstMoverEdge> {
        let first = by_position.first().filter(|t| t.games > 0)?;
        // Reports from before `Totals::sides` existed had one side per seat.
        let sides = if sides == 0 { by_position.len() } else { sides } as f64;
        let fair = 1.0 / sides;
        let points = first.wins as f64 + first.draws as f64 / sides;
        let score = points / first.games as f64;
        let win_rate = first.wins as f64 / first.games as f64;
        let shifted = |i: Interval| Interval { low: i.low - fair, high: i.high - fair };
        Some(FirstMoverEdge {
            games: first.games,
            wins: first.wins,
            draws: first.draws,
            fair,
            win_rate,
            win_interval: wilson_interval(first.wins, first.games),
            score,
            edge: score - fair,
            interval: shifted(wilson_score_interval(points, first.games, Z_95)),
        })
    }

    /// The score edge's Wilson interval with `z` standard errors instead of 1.96.
    pub fn interval_at(&self, z: f64) -> Interval {
        let points = self.wins as f64 + self.draws as f64 * self.fair;
        let i = wilson_score_interval(points, self.games, z);
        Interval { low: i.low - self.fair, high: i.high - self.fair }
    }
}

/// Game length in chance outcomes (rolls or throws).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthStats {
    /// Mean.
    pub mean: f64,
    /// Standard deviation (population).
    pub sd: f64,
    /// Shortest.
    pub min: u32,
    /// 10th percentile.
    pub p10: u32,
    /// Median.
    pub median: u32,
    /// 90th percentile.
    pub p90: u32,
    /// Longest.
    pub max: u32,
}

/// Length statistics from a histogram (length → games): the mean and population standard
/// deviation, and the lengths at ranks round((n − 1) · q) of the sorted list for q = 0, 0.1,
/// 0.5, 0.9 and 1.
pub(crate) fn length_stats(lengths: &BTreeMap<u32, u64>) -> LengthStats {
    let count: u64 = lengths.values().sum();
    let n = count.max(1) as f64;
    let total: u128 = lengths.iter().map(|(&l, &c)| u128::from(l) * u128::from(c)).sum();
    let mean = total as f64 / n;
    let variance = lengths.iter().map(|(&l, &c)| c as f64 * (f64::from(l) - mean).powi(2)).sum::<f64>() / n;
    let at = |q: f64| {
        let rank = (count.saturating_sub(1) as f64 * q).round() as u64;
        let mut seen = 0;
        for (&l, &c) in lengths {
            seen += c;
            if seen > rank {
                return l;
            }
        }
        0
    };
    LengthStats { mean, sd: variance.sqrt(), min: at(0.0), p10: at(0.1), median: at(0.5), p90: at(0.9), max: at(1.0) }
}

/// Position names for the turn-order table.
pub(crate) fn position_name(i: usize) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
        .get(i)
        .map_or_else(|| format!("#{}", i + 1), |s| (*s).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_a_worked_example() {
        // 81 successes of 100: p = 0.81, z = 1.96. Worked by hand:
        // centre = (0.81 + 1.9208/100) / (1 + 3.8415/100) = 0.829208 / 1.038415 = 0.798533
        // half = 1.96 * sqrt(0.81*0.19/100 + 3.8415/40000) / 1.038415
        //      = 1.96 * sqrt(0.001539 + 0.0000960) / 1.038415 = 1.96 * 0.040436 / 1.038415 = 0.076323
        let i = wilson_interval(81, 100);
        assert!((i.low - 0.7222).abs() < 5e-4, "{i:?}");
        assert!((i.high - 0.8749).abs() < 5e-4, "{i:?}");
        assert_eq!(wilson_interval(0, 0), Interval { low: 0.0, high: 1.0 });
        assert!(wilson_interval(0, 10).low == 0.0);
    }

    #[test]
    fn first_mover_edge_counts_a_draw_as_a_fair_share_of_a_win() {
        use crate::Tally;
        // First mover: 100 games, 45 wins, 10 draws; two seats, so a draw is half a point:
        // score (45 + 5) / 100 = 0.5, edge 0, while the win rate is 0.45 (−0.05 against ½).
        let e = FirstMoverEdge::of(&[Tally { games: 100, wins: 45, draws: 10 }, Tally::default()], 2);
        let e = e.expect("an edge");
        assert_eq!((e.fair, e.win_rate, e.score, e.edge), (0.5, 0.45, 0.5, 0.0));
        // The score's Wilson interval at p = 0.5, n = 100, z = 1.959964 (z² = 3.841459), by
        // hand: centre = 0.5, half = z · √(0.25/100 + 3.841459/40000) / (1 + 3.841459/100)
        //                            = 1.959964 · 0.0509513 / 1.0384146 = 0.0961685.
        assert!((e.interval.low + 0.0961685).abs() < 1e-6, "{e:?}");
        assert!((e.interval.high - 0.0961685).abs() < 1e-6, "{e:?}");
        // Three seats, no draws: score = win rate = 40/90, edge 40/90 − 1/3 = 1/9.
        let e = FirstMoverEdge::of(&[Tally { games: 90, wins: 40, draws: 0 }; 3], 3).expect("an edge");
        assert!((e.edge - 1.0 / 9.0).abs() < 1e-12);
        assert_eq!(e.interval_at(Z_95), e.interval);
        assert_eq!(FirstMoverEdge::of(&[Tally::default(); 2], 2), None);
    }

    #[test]
    fn length_stats_of_a_small_list() {
        let s = length_stats(&[(4, 1), (2, 1), (6, 1), (8, 1)].into_iter().collect());
        assert_eq!(s.mean, 5.0);
        // Population variance: (1 + 9 + 1 + 9) / 4 = 5.
        assert!((s.sd - 5f64.sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2, 8));
        // Ranks round(3 · q) of 2, 4, 6, 8: p10 → rank 0, median → rank 2 (1.5 rounds up), p90 → 3.
        assert_eq!((s.p10, s.median, s.p90), (2, 6, 8));
        // Repeated lengths: 3, 3, 3, 10 → mean 4.75, median rank 2 → 3.
        let s = length_stats(&[(3, 3), (10, 1)].into_iter().collect());
        assert_eq!((s.mean, s.median, s.max), (4.75, 3, 10));
    }
}
