//! Rule sets side by side (`madang sim GAME --compare RULES_A RULES_B …`, `docs/lab.md`):
//! one run per rule set on the same seeds (game `i` of every run uses `sim_game_seed(S, i)`),
//! every figure in adjacent columns, and tests of whether the first-mover edge and the win rates
//! differ from the first rule set's.
//!
//! The tests treat the runs as independent samples. They are not quite: game `i` of each run
//! starts from the same seed, and where the rules agree the dice agree, which correlates the
//! runs positively and makes the independent-sample tests conservative (a p-value at most
//! slightly too large), never too eager.

use serde::{Deserialize, Serialize};

use crate::{SimReport, Tally};

/// Reports of the same run under several rule sets, and how each differs from the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// One report per rule set, in the order given; the same game, seed, bots and games.
    pub reports: Vec<SimReport>,
    /// For each rule set after the first, its tests against the first.
    pub differences: Vec<Difference>,
}

/// How rule set `index` differs from rule set 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// The rule set compared with the first (1 or more).
    pub index: usize,
    /// The first mover's win rate under the first rule set and this one: a two-proportion z-test.
    pub first_mover: TwoProportions,
    /// Whether the winner's turn-order position (or no winner) is distributed alike: a χ² test of
    /// homogeneity. `None` when a win counts for several seats (teams: the test needs each game
    /// in one column).
    pub by_position: Option<ChiSquare>,
    /// The same by seat.
    pub by_seat: Option<ChiSquare>,
    /// The same by bot, with two distinct bots or more (`None` otherwise, or with teams).
    pub by_bot: Option<ChiSquare>,
}

/// A two-sided two-proportion z-test of x₁/n₁ against x₂/n₂.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwoProportions {
    /// x₁/n₁ (the first rule set).
    pub first: f64,
    /// x₂/n₂.
    pub second: f64,
    /// x₂/n₂ − x₁/n₁.
    pub difference: f64,
    /// Its 95 % interval (Wald): difference ± 1.96 √(p₁q₁/n₁ + p₂q₂/n₂).
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// z = difference ÷ √(p̂q̂ (1/n₁ + 1/n₂)), p̂ the pooled proportion.
    pub z: f64,
    /// Two-sided p-value, erfc(|z| / √2); 1 when either sample is empty or p̂ is 0 or 1.
    pub p_value: f64,
}

/// A χ² test of homogeneity of two rows of counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChiSquare {
    /// Σ (observed − expected)² ÷ expected over the cells whose column is not empty.
    pub statistic: f64,
    /// Degrees of freedom: the columns that are not empty, minus 1.
    pub df: usize,
    /// P(χ²_df ≥ statistic), the regularised upper incomplete gamma Q(df/2, statistic/2); 1 when
    /// df is 0.
    pub p_value: f64,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The two-proportion z-test of `x1` of `n1` against `x2` of `n2`.
pub fn two_proportions(x1: u64, n1: u64, x2: u64, n2: u64) -> TwoProportions {
    let rate = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let (p1, p2) = (rate(x1, n1), rate(x2, n2));
    let difference = p2 - p1;
    let (f1, f2) = (n1.max(1) as f64, n2.max(1) as f64);
    let half = Z95 * (p1 * (1.0 - p1) / f1 + p2 * (1.0 - p2) / f2).sqrt();
    let pooled = rate(x1 + x2, n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / f1 + 1.0 / f2)).sqrt();
    let (z, p_value) = if n1 == 0 || n2 == 0 || se == 0.0 {
        (0.0, 1.0)
    } else {
        let z = difference / se;
        (z, puruspe::erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0))
    };
    TwoProportions { first: p1, second: p2, difference, low: difference - half, high: difference + half, z, p_value }
}

/// The χ² test of homogeneity of two rows of counts (columns where both are 0 are left out).
pub fn chi_square(first: &[u64], second: &[u64]) -> ChiSquare {
    let columns: Vec<(f64, f64)> =
        first.iter().zip(second).filter(|(a, b)| **a + **b > 0).map(|(a, b)| (*a as f64, *b as f64)).collect();
    let (n1, n2) = columns.iter().fold((0.0, 0.0), |(s1, s2), (a, b)| (s1 + a, s2 + b));
    let total = n1 + n2;
    if columns.len() < 2 || n1 == 0.0 || n2 == 0.0 {
        return ChiSquare { statistic: 0.0, df: 0, p_value: 1.0 };
    }
    let statistic = columns
        .iter()
        .map(|(a, b)| {
            let column = a + b;
            let (e1, e2) = (n1 * column / total, n2 * column / total);
            (a - e1).powi(2) / e1 + (b - e2).powi(2) / e2
        })
        .sum::<f64>();
    let df = columns.len() - 1;
    ChiSquare { statistic, df, p_value: puruspe::gammq(df as f64 / 2.0, statistic / 2.0).clamp(0.0, 1.0) }
}

/// Wins per tally and the games without a winner, as one row of counts with each game in
/// exactly one column; `None` when the wins add up to more than the games with a winner (a
/// side's win counted for each of its seats).
fn winners(tallies: &[Tally], report: &SimReport) -> Option<Vec<u64>> {
    let games = report.totals.games;
    let decided = games - report.totals.draws - report.totals.no_result;
    let wins: u64 = tallies.iter().map(|t| t.wins).sum();
    (wins == decided).then(|| tallies.iter().map(|t| t.wins).chain([games - wins]).collect())
}

/// The comparison of `reports` (the same run under each rule set, the first the baseline).
pub fn compare(reports: Vec<SimReport>) -> Comparison {
    let differences = match reports.split_first() {
        Some((first, rest)) => rest.iter().enumerate().map(|(i, other)| difference(i + 1, first, other)).collect(),
        None => Vec::new(),
    };
    Comparison { reports, differences }
}

fn difference(index: usize, a: &SimReport, b: &SimReport) -> Difference {
    let first = |r: &SimReport| r.totals.by_position.first().copied().unwrap_or_default();
    let (fa, fb) = (first(a), first(b));
    let test = |of: fn(&SimReport) -> &[Tally]| Some(chi_square(&winners(of(a), a)?, &winners(of(b), b)?));
    Difference {
        index,
        first_mover: two_proportions(fa.wins, fa.games, fb.wins, fb.games),
        by_position: test(|r| &r.totals.by_position),
        by_seat: test(|r| &r.totals.by_seat),
        by_bot: if a.totals.by_bot.len() > 1 { test(|r| &r.totals.by_bot) } else { None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_proportions_by_hand() {
        // 60/100 against 45/100: pooled 0.525, se = √(0.525 · 0.475 · 0.02) = 0.070623;
        // z = −0.15 / 0.070623 = −2.12396; p = erfc(2.12396/√2) = 0.033672 (normal tables:
        // 2·(1 − Φ(2.124)) = 0.0337).
        let t = two_proportions(60, 100, 45, 100);
        assert!((t.difference + 0.15).abs() < 1e-12);
        assert!((t.z + 2.12396).abs() < 1e-4, "{}", t.z);
        assert!((t.p_value - 0.03367).abs() < 1e-4, "{}", t.p_value);
        // Wald: ±1.959964 · √(0.24/100 + 0.2475/100) = ±1.959964 · 0.0698212 = ±0.136847.
        assert!((t.high - t.low - 2.0 * 0.136_847).abs() < 1e-5);
        // Equal rates: z 0, p 1.
        let same = two_proportions(30, 60, 50, 100);
        assert!(same.z.abs() < 1e-12 && (same.p_value - 1.0).abs() < 1e-12);
        // An empty sample: no test.
        assert_eq!(two_proportions(0, 0, 5, 10).p_value, 1.0);
    }

    #[test]
    fn chi_square_by_hand() {
        // Rows (30, 70) and (50, 50): expected (40, 60) each; χ² = 2·(100/40 + 100/60) = 8.3333,
        // df 1; P(χ²₁ ≥ 8.3333) = erfc(√(8.3333/2)) = 0.0038924.
        let c = chi_square(&[30, 70], &[50, 50]);
        assert!((c.statistic - 8.333_333).abs() < 1e-5);
        assert_eq!(c.df, 1);
        assert!((c.p_value - 0.003_892_4).abs() < 1e-6, "{}", c.p_value);
        // A column empty in both rows is left out; df 2 and Q(1, x/2) = e^(−x/2).
        let c = chi_square(&[10, 20, 0, 30], &[20, 20, 0, 20]);
        assert_eq!(c.df, 2);
        assert!((c.p_value - (-c.statistic / 2.0).exp()).abs() < 1e-12);
        // Identical rows: χ² 0, p 1.
        let c = chi_square(&[5, 5], &[5, 5]);
        assert!(c.statistic.abs() < 1e-12 && (c.p_value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn winners_put_each_game_in_one_column() {
        let t = |wins| Tally { games: 10, wins, draws: 0 };
        let mut report = crate::tests::empty_report();
        report.totals.games = 10;
        report.totals.no_result = 1;
        assert_eq!(winners(&[t(4), t(5)], &report), Some(vec![4, 5, 1]));
        // Teams: 9 decided games but 18 seat-wins.
        assert_eq!(winners(&[t(4), t(5), t(4), t(5)], &report), None);
    }
}
