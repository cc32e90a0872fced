//! Adding up game summaries: rates with Wilson score intervals, and game lengths.

use std::time::Duration;

use madang_core::{Game, Outcome};
use serde::Serialize;

use crate::{GameSummary, SimConfig, SimReport, Timing};

/// A 95 % confidence interval for a proportion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Lower bound, 0-1.
    pub low: f64,
    /// Upper bound, 0-1.
    pub high: f64,
}

/// Wins (and draws) out of games for one seat, position or bot.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    fn new(name: String, games: u64, wins: u64, draws: u64) -> Rate {
        let win_rate = if games == 0 { 0.0 } else { wins as f64 / games as f64 };
        Rate { name, games, wins, draws, win_rate, interval: wilson_interval(wins, games) }
    }
}

/// Game length in chance outcomes (rolls or throws).
#[derive(Clone, Debug, PartialEq, Serialize)]
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

fn length_stats(mut lengths: Vec<u32>) -> LengthStats {
    lengths.sort_unstable();
    let n = lengths.len().max(1) as f64;
    let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / n;
    let variance = lengths.iter().map(|&l| (f64::from(l) - mean).powi(2)).sum::<f64>() / n;
    let at =
        |q: f64| lengths.get(((lengths.len().saturating_sub(1)) as f64 * q).round() as usize).copied().unwrap_or(0);
    LengthStats { mean, sd: variance.sqrt(), min: at(0.0), p10: at(0.1), median: at(0.5), p90: at(0.9), max: at(1.0) }
}

/// Position names for the turn-order table.
fn position_name(i: usize) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
        .get(i)
        .map_or_else(|| format!("#{}", i + 1), |s| (*s).to_owned())
}

pub(crate) fn report<'a, G: Game>(
    game: &G,
    config: &SimConfig,
    distinct: &[String],
    summaries: impl Iterator<Item = &'a GameSummary>,
    elapsed: Duration,
) -> SimReport {
    let seats = game.seat_names();
    let n = seats.len();
    let mut seat_wins = vec![(0u64, 0u64); n];
    let mut position = vec![(0u64, 0u64, 0u64); n];
    let mut bot = vec![(0u64, 0u64, 0u64); distinct.len()];
    let mut draws = 0;
    let mut no_result = 0;
    let mut lengths = Vec::new();
    let mut games = 0;
    for summary in summaries {
        games += 1;
        lengths.push(summary.length);
        let winner = match &summary.outcome {
            Outcome::Winner(w) => Some(*w),
            Outcome::Ranking(order) => order.first().copied(),
            Outcome::Draw => {
                draws += 1;
                None
            }
            Outcome::NoResult(_) => {
                no_result += 1;
                None
            }
        };
        let drawn = summary.outcome == Outcome::Draw;
        for seat in 0..n {
            let won = winner == Some(game.side_of_seat(seat));
            seat_wins[seat].0 += u64::from(won);
            seat_wins[seat].1 += u64::from(drawn);
            let b = &mut bot[usize::from(summary.bot_of_seat[seat])];
            b.0 += 1;
            b.1 += u64::from(won);
            b.2 += u64::from(drawn);
        }
        for (p, &seat) in summary.turn_order.iter().enumerate() {
            if let Some(pos) = position.get_mut(p) {
                pos.0 += 1;
                pos.1 += u64::from(winner == Some(game.side_of_seat(usize::from(seat))));
                pos.2 += u64::from(drawn);
            }
        }
    }
    let seconds = elapsed.as_secs_f64();
    SimReport {
        game: G::NAME,
        games,
        seed: config.seed,
        bots: config.bots.clone(),
        rotate_seats: config.rotate_seats,
        by_seat: seats.iter().zip(&seat_wins).map(|(name, (w, d))| Rate::new(name.clone(), games, *w, *d)).collect(),
        by_position: position
            .iter()
            .enumerate()
            .map(|(i, (g, w, d))| Rate::new(position_name(i), *g, *w, *d))
            .collect(),
        by_bot: distinct.iter().zip(&bot).map(|(name, (g, w, d))| Rate::new(name.clone(), *g, *w, *d)).collect(),
        draws,
        no_result,
        length: length_stats(lengths),
        review: Vec::new(),
        figures: Default::default(),
        timing: Timing {
            seconds,
            games_per_second: if seconds > 0.0 { games as f64 / seconds } else { 0.0 },
            threads: rayon::current_num_threads(),
            decisions: Vec::new(),
        },
    }
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
        let s = length_stats(vec![4, 2, 6, 8]);
        assert_eq!(s.mean, 5.0);
        // Population variance: (1 + 9 + 1 + 9) / 4 = 5.
        assert!((s.sd - 5f64.sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2, 8));
    }
}
