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

/// Wilson score interval at 95 % (z = 1.959964) for `successes` out of `trials`.
pub fn wilson_interval(successes: u64, trials: u64) -> Interval {
    if trials == 0 {
        return Interval { low: 0.0, high: 1.0 };
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
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
