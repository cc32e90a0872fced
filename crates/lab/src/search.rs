//! The balance search: the rule sets of a walk played in batches under the chosen bots, ranked
//! by the first mover's edge, the clearly less balanced dropped after each batch.
//!
//! **The sequential rule** (successive elimination, E. Even-Dar, S. Mannor, Y. Mansour, "Action
//! elimination and stopping conditions for the multi-armed bandit and reinforcement learning
//! problems", JMLR 7, 2006): the budget of `max_games` per rule set is split into
//! `T = ⌈max_games / batch⌉` batches (the shards of a `madang sim` run of `max_games` games).
//! After batch t every rule set still in has played the run's first games; each gets a Wilson
//! interval `[L, U]` for its edge with `z = Φ⁻¹(1 − α / (2·K·T))` (K rule sets), so that by
//! Bonferroni all K·T intervals a search can look at hold together with probability at least
//! 1 − α. A rule set's distance from 0 then lies between `near = 0` if `L ≤ 0 ≤ U`, else
//! `min(|L|, |U|)`, and `far = max(|L|, |U|)`; every rule set whose `near` exceeds the smallest
//! `far` among those still in is dropped ([`eliminated`]). When all intervals hold, the most
//! balanced rule set b is never dropped: `near_b ≤ |edge_b| ≤ |edge_j| ≤ far_j` for every j. So
//! **the chance that the search drops a most balanced rule set is at most α** (to the accuracy of
//! the normal approximation under Wilson's interval; the number of games at each look is fixed
//! in advance, so stopping early does not spoil the intervals). The search stops when one rule
//! set is left or the budget is spent.

use std::time::Instant;

use madang_bots::Roster;
use madang_games::{Describe, Visitor, build};
use madang_sim::{FirstMoverEdge, Interval, Shard, SimConfig, SimError, Totals, simulate};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{LabError, rule_sets};

/// How to play a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The run's seed S: game i of every rule set is game i of `madang sim --seed S`.
    pub seed: u64,
    /// One bot name per seat in turn order (already expanded from `NAME*N`).
    pub bots: Vec<String>,
    /// Rotate the bot list over games, as `madang sim --rotate-seats`.
    pub rotate_seats: bool,
    /// The number of seats asked for, where the game allows a choice.
    pub players: Option<usize>,
    /// Games per rule set between two looks, at most (the budget is split into
    /// `⌈max_games / batch⌉` equal batches, ±1 game).
    pub batch: u64,
    /// The budget: games per rule set, at most.
    pub max_games: u64,
    /// The chance of dropping a most balanced rule set, at most (0 < α < 1; 0.05 is usual).
    pub alpha: f64,
}

/// What a search has done, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// This many more games were played.
    Played(u64),
    /// Look `look` of `looks` is done: `survivors` rule sets are still in, and at most
    /// `games_left` games remain to be played.
    Look {
        /// The look just done, from 1.
        look: u64,
        /// Looks planned.
        looks: u64,
        /// Rule sets still in.
        survivors: usize,
        /// Games the rule sets still in would play to spend the budget.
        games_left: u64,
    },
}

/// A rule set of the walk that the game's rules refuse (Yut's `teammate` outside its team
/// mode, say), or that the bots cannot play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// The rule set.
    pub rules: Value,
    /// Why it is not played.
    pub reason: String,
}

/// The rule sets of a search, checked against the game's rules before anything is played.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The game's name.
    pub game: String,
    /// The base rules (`--rules`).
    pub base: Value,
    /// The varied option keys.
    pub vary: Vec<String>,
    /// The rule sets to play, in walk order.
    pub rule_sets: Vec<Value>,
    /// The rule sets of the walk that cannot be played, in walk order.
    pub skipped: Vec<Skipped>,
}

/// How a rule set ended the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The smallest |edge| among those still in at the end (the only one left when `separated`).
    Best,
    /// Dropped at look `look`, after `after_games` games.
    Eliminated {
        /// The look, from 1.
        look: u64,
        /// Games it had played.
        after_games: u64,
    },
    /// Still in when the budget was spent: not told apart from the best.
    StillIn,
}

/// One rule set's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    /// 1 for the best; rule sets still in come before the eliminated, each group by |edge|.
    pub rank: usize,
    /// The rule set.
    pub rules: Value,
    /// Games played.
    pub games: u64,
    /// The first mover's wins, draws, win rate, score and score edge with its 95 % Wilson
    /// interval (this rule set alone). `None` only if no game had a first mover.
    pub first_mover: Option<FirstMoverEdge>,
    /// The edge's interval at the search's simultaneous level (z of [`SearchReport::z`]) at the
    /// last look it took part in: the one the elimination used.
    pub elimination_interval: Interval,
    /// Games drawn.
    pub draws: u64,
    /// Games without a result.
    pub no_result: u64,
    /// How it ended.
    #[serde(flatten)]
    pub status: Status,
    /// The first mover's exact winning chance under perfect play (0-1), where the game has a
    /// solved table for the rule set loaded (Ur), else `None`.
    pub exact_first_mover: Option<f64>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchReport {
    /// The game's name.
    pub game: String,
    /// The madang version that played it.
    pub version: String,
    /// The base rules.
    pub base: Value,
    /// The varied options.
    pub vary: Vec<String>,
    /// The run's seed.
    pub seed: u64,
    /// Bot per seat.
    pub bots: Vec<String>,
    /// Whether seats rotated.
    pub rotate_seats: bool,
    /// The number of seats asked for.
    pub players: Option<usize>,
    /// The budget per rule set.
    pub max_games: u64,
    /// Looks planned: the budget's batches.
    pub looks: u64,
    /// Looks made.
    pub looks_made: u64,
    /// The chance of dropping a most balanced rule set, at most.
    pub alpha: f64,
    /// The elimination intervals' z: Φ⁻¹(1 − α / (2 · rule sets · looks)).
    pub z: f64,
    /// Whether one rule set was left: the best is told apart from every other.
    pub separated: bool,
    /// Games played over all rule sets.
    pub games_played: u64,
    /// The rule sets, best first.
    pub results: Vec<VariantResult>,
    /// Rule sets of the walk not played.
    pub skipped: Vec<Skipped>,
    /// Wall time, seconds (the only field that varies between runs).
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
}

/// Which rule sets to drop at a look, given each one's edge interval at the simultaneous level
/// (`intervals[i]`, edges as shares of games): `true` for every interval whose nearest point to 0
/// (0 when it contains 0) is farther from 0 than the nearest far end (the smallest
/// `max(|low|, |high|)`) of any interval. Never drops them all.
pub fn eliminated(intervals: &[Interval]) -> Vec<bool> {
    let near = |i: &Interval| if i.low <= 0.0 && 0.0 <= i.high { 0.0 } else { i.low.abs().min(i.high.abs()) };
    let far = |i: &Interval| i.low.abs().max(i.high.abs());
    let best_far = intervals.iter().map(far).fold(f64::INFINITY, f64::min);
    intervals.iter().map(|i| near(i) > best_far).collect()
}

/// The `p`-quantile of the standard normal distribution, Φ⁻¹(p), for 0 < p < 1 (NaN
/// otherwise): P. J. Acklam's rational approximation (relative error below 1.15 × 10⁻⁹).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    const LOW: f64 = 0.02425;
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p <= 1.0 - LOW {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    }
}

/// Walks `vary` over `game`'s declared options on top of `base` ([`rule_sets`]; `explicit`:
/// `--values`), and checks every rule set, the bots and the settings before anything is
/// played: a rule set the rules refuse or the bots cannot seat is [`Skipped`].
///
/// # Errors
/// [`LabError`]: an unknown game or base rules it refuses, the walk's errors, a `--values` value
/// the rules refuse on its own, every rule set refused, bad bots, `batch` or `max_games` 0,
/// `batch` above `max_games`, `alpha` outside (0, 1).
pub fn plan(
    game: &str,
    base: &Value,
    vary: &[String],
    explicit: &Map<String, Value>,
    config: &SearchConfig,
) -> Result<Plan, LabError> {
    if config.batch == 0 || config.max_games == 0 {
        return Err(LabError::Setting("--batch and --max-games must be at least 1".to_owned()));
    }
    if config.batch > config.max_games {
        return Err(LabError::Setting(format!(
            "--batch {} is more than --max-games {}: a batch is part of the budget",
            config.batch, config.max_games
        )));
    }
    if !(config.alpha > 0.0 && config.alpha < 1.0) {
        return Err(LabError::Setting(format!(
            "--alpha is the chance of dropping the most balanced rule set: a number greater than 0 and less than 1 (e.g. 0.05), got {}",
            config.alpha
        )));
    }
    struct Planner<'a> {
        name: &'a str,
        base: &'a Value,
        vary: &'a [String],
        explicit: &'a Map<String, Value>,
        config: &'a SearchConfig,
    }
    impl Visitor for Planner<'_> {
        type Output = Result<Plan, LabError>;
        fn visit<G: Describe>(self, game: G) -> Result<Plan, LabError> {
            let Planner { name, base, vary, explicit, config } = self;
            let seats = game.seat_names();
            if config.bots.len() != seats.len() {
                return Err(SimError::BotCount {
                    given: config.bots.len(),
                    seats: seats.len(),
                    names: seats.join(", "),
                }
                .into());
            }
            for bot in &config.bots {
                game.bot(bot).map_err(SimError::from)?;
            }
            let sets = rule_sets(name, &G::info().options, base, vary, explicit)?;
            for (key, values) in explicit {
                for value in values.as_array().into_iter().flatten() {
                    let mut alone = base.clone();
                    alone[key.as_str()] = value.clone();
                    if let Err(e) = build::<G>(&alone, config.players) {
                        return Err(LabError::RefusedValue { rules: alone.to_string(), reason: e.to_string() });
                    }
                }
            }
            let mut plan = Plan {
                game: name.to_owned(),
                base: base.clone(),
                vary: vary.to_vec(),
                rule_sets: Vec::new(),
                skipped: Vec::new(),
            };
            for rules in sets {
                match build::<G>(&rules, config.players) {
                    Ok(variant) if variant.seat_names().len() != seats.len() => {
                        let reason =
                            format!("it has {} seats, the bots {}", variant.seat_names().len(), config.bots.len());
                        plan.skipped.push(Skipped { rules, reason });
                    }
                    Ok(_) => plan.rule_sets.push(rules),
                    Err(e) => plan.skipped.push(Skipped { rules, reason: e.to_string() }),
                }
            }
            if plan.rule_sets.is_empty()
                && let Some(first) = plan.skipped.first()
            {
                return Err(LabError::AllRefused { rules: first.rules.to_string(), reason: first.reason.clone() });
            }
            Ok(plan)
        }
    }
    madang_games::visit(game, base, config.players, Planner { name: game, base, vary, explicit, config })?
}

/// Plays the search of `plan` on the current rayon pool (every rule set still in plays its
/// batch at once), calling `progress` as games finish and after each look.
///
/// # Errors
/// [`LabError`] when a rule set or bot no longer builds (the plan was made with other settings).
pub fn run(plan: &Plan, config: &SearchConfig, progress: &(dyn Fn(Progress) + Sync)) -> Result<SearchReport, LabError> {
    struct Runner<'a> {
        plan: &'a Plan,
        config: &'a SearchConfig,
        progress: &'a (dyn Fn(Progress) + Sync),
    }
    impl Visitor for Runner<'_> {
        type Output = Result<SearchReport, LabError>;
        fn visit<G: Describe>(self, _game: G) -> Result<SearchReport, LabError> {
            let games: Vec<G> = self
                .plan
                .rule_sets
                .iter()
                .map(|rules| build::<G>(rules, self.config.players))
                .collect::<Result<_, _>>()?;
            search(&games, self.plan, self.config, self.progress)
        }
    }
    madang_games::visit(&plan.game, &plan.base, config.players, Runner { plan, config, progress })?
}

/// The first mover's exact winning chance at the start, where `game` has a solved table loaded
/// and two seats (the table's chance is the first seat's).
fn exact_first_mover<G: Roster>(game: &G) -> Option<f64> {
    let state = game.initial_state();
    let first_seat = game.win_chance(&state)?;
    match (game.seat_names().len(), game.mover(&state)?) {
        (2, 0) => Some(first_seat),
        (2, 1) => Some(1.0 - first_seat),
        _ => None,
    }
}

/// The search over `games` (one per `plan.rule_sets` entry, in that order).
fn search<G: Roster>(
    games: &[G],
    plan: &Plan,
    config: &SearchConfig,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<SearchReport, LabError> {
    let started = Instant::now();
    let k = games.len();
    let looks = config.max_games.div_ceil(config.batch);
    let z = -normal_quantile(config.alpha / (2.0 * k as f64 * looks as f64));
    let mut totals = vec![Totals::default(); k];
    let mut dropped: Vec<Option<Status>> = vec![None; k];
    let mut last_interval = vec![Interval { low: -1.0, high: 1.0 }; k];
    let mut alive: Vec<usize> = (0..k).collect();
    let edge = |t: &Totals| FirstMoverEdge::of(&t.by_position, t.sides);
    let mut looks_made = 0;
    for look in 1..=looks {
        let shard = Shard::new(look, looks, config.max_games)?;
        let batches: Vec<Result<Totals, SimError>> = alive
            .par_iter()
            .map(|&v| {
                let sim = SimConfig {
                    games: config.max_games,
                    seed: config.seed,
                    bots: config.bots.clone(),
                    rotate_seats: config.rotate_seats,
                    time_decisions: false,
                    review: false,
                    rules: plan.rule_sets[v].clone(),
                    players: config.players,
                    shard: Some(shard),
                    ..SimConfig::default()
                };
                simulate(&games[v], &sim, &|n| progress(Progress::Played(n))).map(|report| report.totals)
            })
            .collect();
        for (&v, batch) in alive.iter().zip(batches) {
            totals[v].merge(&batch?);
        }
        looks_made = look;
        let intervals: Vec<Interval> = alive
            .iter()
            .map(|&v| edge(&totals[v]).map_or(Interval { low: -1.0, high: 1.0 }, |e| e.interval_at(z)))
            .collect();
        for (&v, interval) in alive.iter().zip(&intervals) {
            last_interval[v] = *interval;
        }
        let drop = eliminated(&intervals);
        for (&v, &drop) in alive.iter().zip(&drop) {
            if drop {
                dropped[v] = Some(Status::Eliminated { look, after_games: totals[v].games });
            }
        }
        alive.retain(|&v| dropped[v].is_none());
        let games_left = alive.len() as u64 * (config.max_games - shard.to);
        progress(Progress::Look { look, looks, survivors: alive.len(), games_left });
        if alive.len() <= 1 {
            break;
        }
    }
    let distance = |v: usize| edge(&totals[v]).map_or(f64::INFINITY, |e| e.edge.abs());
    let by_distance = |a: &usize, b: &usize| distance(*a).total_cmp(&distance(*b)).then(a.cmp(b));
    alive.sort_by(by_distance);
    let mut out: Vec<usize> = (0..k).filter(|v| dropped[*v].is_some()).collect();
    out.sort_by(by_distance);
    let order: Vec<usize> = alive.iter().chain(&out).copied().collect();
    let results = order
        .iter()
        .enumerate()
        .map(|(rank, &v)| VariantResult {
            rank: rank + 1,
            rules: plan.rule_sets[v].clone(),
            games: totals[v].games,
            first_mover: edge(&totals[v]),
            elimination_interval: last_interval[v],
            draws: totals[v].draws,
            no_result: totals[v].no_result,
            status: dropped[v].unwrap_or(if rank == 0 { Status::Best } else { Status::StillIn }),
            exact_first_mover: exact_first_mover(&games[v]),
        })
        .collect();
    Ok(SearchReport {
        game: plan.game.clone(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        base: plan.base.clone(),
        vary: plan.vary.clone(),
        seed: config.seed,
        bots: config.bots.clone(),
        rotate_seats: config.rotate_seats,
        players: config.players,
        max_games: config.max_games,
        looks,
        looks_made,
        alpha: config.alpha,
        z,
        separated: alive.len() == 1,
        games_played: totals.iter().map(|t| t.games).sum(),
        results,
        skipped: plan.skipped.clone(),
        seconds: started.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    })
}

#[cfg(test)]
mod tests {
    use madang_sim::{Tally, wilson_score_interval};
    use serde_json::json;

    use super::*;

    #[test]
    fn normal_quantiles_match_the_tables() {
        // Φ⁻¹ from standard tables (e.g. Abramowitz & Stegun 26.2): 0.975 → 1.959963985,
        // 0.995 → 2.575829304, 0.9995 → 3.290526731, 1 − 10⁻⁶ → 4.753424309.
        for (p, z) in
            [(0.975, 1.959_963_985), (0.995, 2.575_829_304), (0.9995, 3.290_526_731), (1.0 - 1e-6, 4.753_424_309)]
        {
            assert!((normal_quantile(p) - z).abs() < 1e-8 * z, "Φ⁻¹({p}) = {} not {z}", normal_quantile(p));
            assert!((normal_quantile(1.0 - p) + z).abs() < 1e-8 * z, "lower tail {p}");
        }
        assert_eq!(normal_quantile(0.5), 0.0);
        assert!(normal_quantile(0.0).is_nan() && normal_quantile(1.0).is_nan());
    }

    fn interval(low: f64, high: f64) -> Interval {
        Interval { low, high }
    }

    #[test]
    fn a_rule_set_is_dropped_when_its_interval_lies_beyond_the_best_far_end() {
        // Far ends: 0.03, 0.05, 0.20; near ends: 0, 0.01, 0.10. The smallest far end is 0.03:
        // only the third (near 0.10 > 0.03) goes; the second (near 0.01) stays.
        let drop = eliminated(&[interval(-0.01, 0.03), interval(0.01, 0.05), interval(-0.20, -0.10)]);
        assert_eq!(drop, [false, false, true]);
        // Intervals that all contain 0 keep everyone; one interval alone is never dropped.
        assert_eq!(eliminated(&[interval(-0.1, 0.2), interval(-0.3, 0.01)]), [false, false]);
        assert_eq!(eliminated(&[interval(0.4, 0.5)]), [false]);
        // A negative edge counts by its distance: −0.02…−0.01 (far 0.02) beats 0.03…0.05.
        assert_eq!(eliminated(&[interval(-0.02, -0.01), interval(0.03, 0.05)]), [false, true]);
        // Touching is not beyond: near 0.03 = far 0.03 stays.
        assert_eq!(eliminated(&[interval(0.0, 0.03), interval(0.03, 0.04)]), [false, false]);
    }

    #[test]
    fn elimination_from_tallies_with_hand_computed_wilson_bounds() {
        // Two seats, 1000 games each, no draws, z = 1.959964 (z² = 3.841459, z²/n = 0.0038415,
        // z²/4n² = 0.00000096), by hand:
        // 500 wins: centre 0.5, half = z·√(0.00025 + 0.00000096)/1.0038415
        //   = 1.959964 · 0.0158417 / 1.0038415 = 0.030930 → edge −0.030930 … +0.030930;
        // 700 wins: centre (0.7 + 0.0019207)/1.0038415 = 0.699235, half = z·√(0.00021 +
        //   0.00000096)/1.0038415 = 0.028359 → edge 0.170876 … 0.227594;
        // 530 wins: centre (0.53 + 0.0019207)/1.0038415 = 0.529885, half = z·√(0.0002491 +
        //   0.00000096)/1.0038415 = 0.030875 → edge −0.000990 … 0.060760.
        let edge =
            |wins| FirstMoverEdge::of(&[Tally { games: 1000, wins, draws: 0 }, Tally::default()], 2).expect("an edge");
        let (a, b, c) = (edge(500).interval, edge(700).interval, edge(530).interval);
        for (got, want) in
            [(a.high, 0.030930), (b.low, 0.170876), (b.high, 0.227594), (c.low, -0.000990), (c.high, 0.060760)]
        {
            assert!((got - want).abs() < 2e-6, "{got} against {want}");
        }
        // 0.170876 > 0.030930: 700 wins is clearly less balanced; 530 (interval holds 0) stays.
        assert_eq!(eliminated(&[a, b, c]), [false, true, false]);
        // At a Bonferroni z for 3 rule sets × 10 looks, α = 0.05: Φ⁻¹(1 − 0.05/60) = 3.1449,
        // 530 wins still stays and 700 still goes.
        let z = -normal_quantile(0.05 / 60.0);
        assert!((z - 3.1449).abs() < 1e-3, "{z}");
        let at = |wins| edge(wins).interval_at(z);
        assert_eq!(eliminated(&[at(500), at(700), at(530)]), [false, true, false]);
        assert_eq!(at(500), {
            let i = wilson_score_interval(500.0, 1000, z);
            interval(i.low - 0.5, i.high - 0.5)
        });
    }

    fn config(batch: u64, max_games: u64) -> SearchConfig {
        SearchConfig {
            seed: 5,
            bots: vec!["random".to_owned(); 2],
            rotate_seats: false,
            players: None,
            batch,
            max_games,
            alpha: 0.05,
        }
    }

    fn dice_poker_plan(c: &SearchConfig) -> Plan {
        plan("dice-poker", &json!({}), &["board".to_owned(), "tokens".to_owned()], &Map::new(), c).expect("a plan")
    }

    #[test]
    fn batches_add_up_to_the_run_of_that_many_games_whatever_the_threads() {
        let c = config(150, 600);
        let p = dice_poker_plan(&c);
        assert_eq!(p.rule_sets.len(), 4);
        let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a pool");
        let one = pool(1).install(|| run(&p, &c, &|_| {})).expect("a search");
        let two = pool(2).install(|| run(&p, &c, &|_| {})).expect("a search");
        let strip = |r: &SearchReport| SearchReport { seconds: 0.0, threads: 0, ..r.clone() };
        assert_eq!(strip(&one), strip(&two));
        // Every rule set's games are the first games of `madang sim`'s run with the same seed.
        for result in &one.results {
            let sim = SimConfig {
                games: result.games,
                seed: c.seed,
                bots: c.bots.clone(),
                rules: result.rules.clone(),
                ..SimConfig::default()
            };
            struct Sim(SimConfig);
            impl Visitor for Sim {
                type Output = Result<madang_sim::SimReport, SimError>;
                fn visit<G: Describe>(self, game: G) -> Self::Output {
                    simulate(&game, &self.0, &|_| {})
                }
            }
            let whole =
                madang_games::visit("dice-poker", &result.rules, None, Sim(sim)).expect("a game").expect("a run");
            assert_eq!(
                result.first_mover,
                FirstMoverEdge::of(&whole.totals.by_position, whole.totals.sides),
                "{}",
                result.rules
            );
            assert_eq!(result.draws, whole.draws);
        }
        assert_eq!(one.games_played, one.results.iter().map(|r| r.games).sum::<u64>());
        assert_eq!(one.looks, 4);
        assert_eq!(one.results[0].rank, 1);
        assert!(matches!(one.results[0].status, Status::Best));
    }

    /// A coin that the first mover flips and wins on heads, heads weighted `heads` in 100: the
    /// first mover's edge is exactly heads/100 − ½.
    #[derive(Clone, Copy, Debug)]
    struct BiasedCoin {
        heads: u64,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    struct Flip(u8);

    impl std::fmt::Display for Flip {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "flip {}", self.0)
        }
    }

    impl std::str::FromStr for Flip {
        type Err = madang_core::NotationError;
        fn from_str(text: &str) -> Result<Flip, Self::Err> {
            Err(madang_core::NotationError::new(text, "not parsed in this test"))
        }
    }

    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("the coin has landed")]
    struct Landed;

    impl madang_core::Game for BiasedCoin {
        type Options = ();
        type State = Option<u8>;
        type Action = Flip;
        type Event = String;
        type Error = Landed;
        type Pieces = ();
        type Figures = ();
        const NAME: &'static str = "biased-coin";
        const EVENT_KINDS: &'static [madang_core::EventKind] = &[];

        fn new(_options: &(), _players: Option<usize>) -> Result<Self, madang_core::RulesError> {
            Ok(BiasedCoin { heads: 50 })
        }
        fn seat_names(&self) -> Vec<String> {
            vec!["heads".to_owned(), "tails".to_owned()]
        }
        fn initial_state(&self) -> Option<u8> {
            None
        }
        fn turn(&self, state: &Option<u8>) -> madang_core::Turn {
            if state.is_some() { madang_core::Turn::Terminal } else { madang_core::Turn::Chance }
        }
        fn mover(&self, state: &Option<u8>) -> Option<usize> {
            state.is_none().then_some(0)
        }
        fn chance_outcomes(&self, state: &Option<u8>, out: &mut Vec<(Flip, madang_core::Weight)>) {
            out.clear();
            if state.is_none() {
                // Every outcome with a positive weight (the engine model's rule): a sure coin
                // lists one side.
                out.extend([(Flip(0), self.heads), (Flip(1), 100 - self.heads)].into_iter().filter(|(_, w)| *w > 0));
            }
        }
        fn legal_actions(&self, _state: &Option<u8>, out: &mut Vec<Flip>) {
            out.clear();
        }
        fn apply(
            &self,
            state: &mut Option<u8>,
            action: Flip,
            _events: &mut impl madang_core::EventSink<String>,
        ) -> Result<(), Landed> {
            if state.is_some() {
                return Err(Landed);
            }
            *state = Some(action.0);
            Ok(())
        }
        fn awaiting(&self, state: &Option<u8>) -> Option<&'static str> {
            state.is_none().then_some("flip")
        }
        fn pieces(&self, _state: &Option<u8>) {}
        fn outcome(&self, state: &Option<u8>) -> Option<madang_core::Outcome> {
            state.map(|s| madang_core::Outcome::Winner(usize::from(s)))
        }
        fn figures(&self, _state: &Option<u8>) {}
    }

    impl Roster for BiasedCoin {
        fn bot_names() -> &'static [&'static str] {
            &["random"]
        }
        fn bot(&self, _name: &str) -> Result<Box<dyn madang_bots::Bot<Self>>, madang_bots::BotError> {
            Ok(Box::new(madang_bots::RandomBot))
        }
    }

    fn coins(heads: &[u64], c: &SearchConfig) -> SearchReport {
        let games: Vec<BiasedCoin> = heads.iter().map(|&heads| BiasedCoin { heads }).collect();
        let plan = Plan {
            game: "biased-coin".to_owned(),
            base: json!({}),
            vary: vec!["heads".to_owned()],
            rule_sets: heads.iter().map(|h| json!({"heads": h})).collect(),
            skipped: Vec::new(),
        };
        search(&games, &plan, c, &|_| {}).expect("a search")
    }

    #[test]
    fn coins_of_known_bias_the_fair_one_wins_and_the_clearly_biased_go_first() {
        // Edges +0.45, −0.40, 0, +0.03, +0.25. With 200 games a look and z = Φ⁻¹(1 − 0.05/100)
        // = 3.29, the fair coin's interval reaches about 0.12 (+ its error) from 0 and the
        // ±0.40-0.45 coins' come no nearer than about 0.33: they go at the first look. The 0.25
        // coin goes by the budget (at 2,000 games its interval is about ±0.03 wide). The fair
        // coin is dropped only with chance at most α. 0.03 needs about 12,000 games per coin to
        // tell from 0, more than the budget, so it is not asserted on.
        let c = config(200, 2000);
        let r = coins(&[95, 10, 50, 53, 75], &c);
        let status =
            |heads: u64| r.results.iter().find(|v| v.rules["heads"] == heads).map(|v| v.status).expect("a result");
        for heads in [95, 10] {
            assert_eq!(status(heads), Status::Eliminated { look: 1, after_games: 200 }, "heads {heads}");
        }
        assert!(matches!(status(75), Status::Eliminated { .. }), "{:?}", status(75));
        assert!(matches!(status(50), Status::Best | Status::StillIn), "{:?}", status(50));
        assert_eq!(r.looks, 10);
        assert!((r.z - -normal_quantile(0.05 / (2.0 * 5.0 * 10.0))).abs() < 1e-12);
        // A fair coin against a sure thing: the fair one is left alone after one look.
        let r = coins(&[100, 50], &c);
        assert!(r.separated);
        assert_eq!(r.looks_made, 1);
        assert_eq!(r.results[0].rules, json!({"heads": 50}));
        assert_eq!(r.results[0].status, Status::Best);
        assert_eq!(r.results[1].first_mover.map(|e| e.edge), Some(0.5));
    }
}
