//! `madang sim`: many seeded games between named bots, and their statistics (spec
//! `platform.md`, "Designer tool").
//!
//! Game `i` of a run with seed `S` uses the game seed `sim_game_seed(S, i)`: its chance stream
//! draws every chance outcome and each seat's bot draws from `bot:SEAT`. Games run in parallel
//! (rayon) in fixed chunks and their summaries are collected in game order before anything is
//! added up, so for one seed the statistics are identical whatever the number of threads; only
//! [`Timing`] varies.
//!
//! A run can be split into shards ([`Shard`]: the K-th of N ranges of game indices), each run
//! anywhere; [`merge`] adds their [`Totals`] (integers only, so adding is exact) and gives the
//! report of the whole run, identical to one run's but for its timing (`madang sim merge`).

pub mod compare;
mod figures;
pub mod html;
mod quality;
mod stats;
mod timing;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use madang_analysis::{Exact, Playouts, Precision, Values};
use madang_bots::{Bot, BotError, Roster};
use madang_core::{Outcome, Turn};
use madang_seed::{CHANCE, Stream, bot_stream_name, draw_chance, sim_game_seed, uniform_below};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use figures::{Figure, FigureTotals, Leaf};
pub use quality::{Analysis, AnalysisTotals, Branching, Quality};
pub use timing::{DecisionTime, Histogram};

pub use stats::{FirstMoverEdge, Interval, LengthStats, Rate, Z_95, wilson_interval, wilson_score_interval};

use figures::{from_fixed, to_fixed};

/// What to simulate.
#[derive(Clone, Debug, Default)]
pub struct SimConfig {
    /// Number of games.
    pub games: u64,
    /// The run's seed `S`.
    pub seed: u64,
    /// One bot name per seat, in turn order (already expanded from `NAME*N`).
    pub bots: Vec<String>,
    /// Game `i` gives seat `s` the bot `bots[(s + i) mod seats]`, so every bot plays every
    /// seat equally often.
    pub rotate_seats: bool,
    /// Measure each bot decision's wall time (costs two clock reads per decision).
    pub time_decisions: bool,
    /// Value every decision with the perfect player's winning chances where the game has a
    /// solved table (Ur) and report each bot's mean loss per move ([`SimReport::review`]).
    pub review: bool,
    /// The rules the game was built from (the record's `rules` object), for the report.
    pub rules: serde_json::Value,
    /// The number of seats asked for, where the game allows a choice, for the report.
    pub players: Option<usize>,
    /// Play only this shard of the run's games (all of them when `None`).
    pub shard: Option<Shard>,
    /// Review the run's first `analyse` games (game indices `0..analyse`) for luck against
    /// skill and the trajectory metrics ([`Quality::analysis`]): exactly with the game's
    /// solved table where it has one loaded, else estimated by playouts (seconds per game).
    pub analyse: u64,
    /// Set to `true` to stop the run: it is checked before each game, and a run stopped so
    /// returns [`SimError::Cancelled`] (the web lab's cancel button).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// The K-th of N shards of a run of `games` games: game indices `from..to`, with
/// `from = ⌊(K − 1) · games / N⌋` and `to = ⌊K · games / N⌋`, so the N shards cover the run once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, 1-based.
    pub index: u64,
    /// N.
    pub of: u64,
    /// The first game index of the shard.
    pub from: u64,
    /// One past its last game index.
    pub to: u64,
}

impl Shard {
    /// The `index`-th (1-based) of `of` shards of `games` games.
    ///
    /// # Errors
    /// [`SimError::BadShard`] unless 1 ≤ `index` ≤ `of` ≤ `games`.
    pub fn new(index: u64, of: u64, games: u64) -> Result<Shard, SimError> {
        if index == 0 || index > of || of > games {
            return Err(SimError::BadShard { index, of, games });
        }
        let at = |k: u64| ((u128::from(k) * u128::from(games)) / u128::from(of)) as u64;
        Ok(Shard { index, of, from: at(index - 1), to: at(index) })
    }
}

/// Games taken part in, won and drawn by one seat, turn-order position or bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games it took part in.
    pub games: u64,
    /// Games it won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
}

/// Everything a report's statistics are computed from, added up game by game: counts, a
/// histogram of lengths and fixed-point sums, so that totals added in any grouping (chunks,
/// shards) are exactly equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// The game's sides (its seats, or its teams): a fair share of the wins is 1/sides.
    #[serde(default)]
    pub sides: usize,
    /// Per seat, in seat order.
    pub by_seat: Vec<Tally>,
    /// Per turn-order position, first mover first.
    pub by_position: Vec<Tally>,
    /// Per distinct bot name, in order of first appearance in the bot list.
    pub by_bot: Vec<Tally>,
    /// Games drawn.
    pub draws: u64,
    /// Games without a result.
    pub no_result: u64,
    /// Games by length in chance outcomes (rolls or throws).
    pub lengths: BTreeMap<u32, u64>,
    /// The games' own figures by path.
    pub figures: FigureTotals,
    /// Loss totals per distinct bot (with `review` and a solved table; else zeros).
    pub losses: Vec<LossTotals>,
    /// Decision times per distinct bot (with `time_decisions`; else empty). Times vary from
    /// run to run: the report shows them under `timing`.
    #[serde(skip)]
    pub times: Vec<Histogram>,
    /// Nodes where a seat acted and the legal actions there, over every game.
    #[serde(default)]
    pub branching: Branching,
    /// The reviewed games' accounts and graphs (`SimConfig::analyse`).
    #[serde(default)]
    pub analysis: AnalysisTotals,
}

impl Totals {
    fn new(seats: usize, sides: usize, bots: usize, time_decisions: bool) -> Totals {
        Totals {
            sides,
            by_seat: vec![Tally::default(); seats],
            by_position: vec![Tally::default(); seats],
            by_bot: vec![Tally::default(); bots],
            losses: vec![LossTotals::default(); bots],
            times: if time_decisions { (0..bots).map(|_| Histogram::new()).collect() } else { Vec::new() },
            ..Totals::default()
        }
    }

    /// Adds one game; `bot_index` is the bot index (into the distinct bots) of each entry of
    /// the config's list.
    fn add<G: madang_core::Game>(&mut self, game: &G, bot_index: &[u8], summary: &GameSummary) {
        self.games += 1;
        *self.lengths.entry(summary.length).or_default() += 1;
        let winner = match &summary.outcome {
            Outcome::Winner(w) => Some(*w),
            Outcome::Ranking(order) => order.first().copied(),
            Outcome::Draw => {
                self.draws += 1;
                None
            }
            Outcome::NoResult(_) => {
                self.no_result += 1;
                None
            }
        };
        let drawn = summary.outcome == Outcome::Draw;
        let count = |tally: &mut Tally, won: bool| {
            tally.games += 1;
            tally.wins += u64::from(won);
            tally.draws += u64::from(drawn);
        };
        let n = bot_index.len();
        for seat in 0..n {
            let bot = bot_index[(seat + summary.rotation) % n];
            let won = winner == Some(game.side_of_seat(seat));
            if let Some(tally) = self.by_seat.get_mut(seat) {
                count(tally, won);
            }
            if let Some(tally) = self.by_bot.get_mut(usize::from(bot)) {
                count(tally, won);
            }
        }
        for (p, &seat) in summary.turn_order.iter().enumerate() {
            if let Some(tally) = self.by_position.get_mut(p) {
                count(tally, winner == Some(game.side_of_seat(seat)));
            }
        }
    }

    /// Checks that counts read from a shard's report can be the counts of its games, so that
    /// a report edited by hand is refused rather than merged into nonsense (or into counts
    /// past 64 bits): every seat played every game, no tally won or drew more games than it
    /// played, the bots played a seat each per game, the games drawn or without a result and
    /// the games by length add up to the games, and `sides` and the seats are the run's.
    ///
    /// # Errors
    /// What does not add up, in words.
    pub fn check(&self, sides: usize, seats: usize) -> Result<(), String> {
        let games = self.games;
        if self.sides != sides || self.by_seat.len() != seats {
            return Err(format!(
                "{} sides and {} seats where the run has {sides} and {seats}",
                self.sides,
                self.by_seat.len()
            ));
        }
        let lists = [("by_seat", &self.by_seat), ("by_position", &self.by_position), ("by_bot", &self.by_bot)];
        for (name, list) in lists {
            for (i, t) in list.iter().enumerate() {
                if t.wins.checked_add(t.draws).is_none_or(|decided| decided > t.games) {
                    return Err(format!("{name}[{i}] won {} and drew {} of {} games", t.wins, t.draws, t.games));
                }
                // Seats are checked below (every seat plays every game); a bot may hold several.
                if name == "by_position" && t.games > games {
                    return Err(format!("{name}[{i}] played {} of {games} games", t.games));
                }
            }
        }
        if let Some((i, t)) = self.by_seat.iter().enumerate().find(|(_, t)| t.games != games) {
            return Err(format!("seat {i} played {} of {games} games (every seat plays every game)", t.games));
        }
        let seat_games = games.checked_mul(seats as u64);
        let bot_games = self.by_bot.iter().try_fold(0u64, |sum, t| sum.checked_add(t.games));
        // A sum that does not fit in 64 bits is no count of games.
        let count = |n: Option<u64>| n.map_or_else(|| "more than 2^64".to_owned(), |n| n.to_string());
        if bot_games.is_none() || bot_games != seat_games {
            return Err(format!(
                "the bots played {} seat-games where {games} games of {seats} seats make {}",
                count(bot_games),
                count(seat_games)
            ));
        }
        if self.draws.checked_add(self.no_result).is_none_or(|n| n > games) {
            return Err(format!("{} drawn and {} without a result of {games} games", self.draws, self.no_result));
        }
        let lengths = self.lengths.values().try_fold(0u64, |sum, n| sum.checked_add(*n));
        if lengths != Some(games) {
            return Err(format!("the games by length add up to {}, not {games}", count(lengths)));
        }
        Ok(())
    }

    /// Adds another chunk's or shard's totals (of the same game, rules and bots).
    pub fn merge(&mut self, other: &Totals) {
        let add = |mine: &mut Vec<Tally>, theirs: &[Tally]| {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), Tally::default());
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.games += t.games;
                m.wins += t.wins;
                m.draws += t.draws;
            }
        };
        self.games += other.games;
        self.sides = self.sides.max(other.sides);
        add(&mut self.by_seat, &other.by_seat);
        add(&mut self.by_position, &other.by_position);
        add(&mut self.by_bot, &other.by_bot);
        self.draws += other.draws;
        self.no_result += other.no_result;
        for (length, count) in &other.lengths {
            *self.lengths.entry(*length).or_default() += count;
        }
        self.figures.merge(other.figures.clone());
        if self.losses.len() < other.losses.len() {
            self.losses.resize(other.losses.len(), LossTotals::default());
        }
        for (m, t) in self.losses.iter_mut().zip(&other.losses) {
            m.decisions += t.decisions;
            m.loss += t.loss;
            m.best += t.best;
            m.blunders += t.blunders;
        }
        if self.times.len() < other.times.len() {
            self.times.resize(other.times.len(), Histogram::new());
        }
        for (m, t) in self.times.iter_mut().zip(&other.times) {
            m.merge(t);
        }
        self.branching.merge(&other.branching);
        self.analysis.merge(&other.analysis);
    }
}

/// How much winning chance a bot gave away per decision, measured against the solved table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BotLoss {
    /// The bot.
    pub bot: String,
    /// Decisions valued.
    pub decisions: u64,
    /// Mean winning chance given away per decision, percentage points.
    pub mean_loss: f64,
    /// Share of decisions that were the best move (within 0.01 points).
    pub best: f64,
    /// Share of decisions that gave away 10 points or more.
    pub blunders: f64,
}

/// Loss totals of one bot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossTotals {
    /// Decisions valued.
    pub decisions: u64,
    /// Winning chance given away, percentage points, summed in fixed point
    /// (`figures::FIXED_POINT` units).
    pub loss: i128,
    /// Decisions that were the best move (within 0.01 points).
    pub best: u64,
    /// Decisions that gave away 10 points or more.
    pub blunders: u64,
}

/// Why a simulation cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The bot list does not have one bot per seat.
    #[error(
        "--bots lists {given} {} but the game has {seats} seats ({names}); use NAME*N for repeats, or --players N \
         for another seat count where the rules allow one",
        if *.given == 1 { "bot" } else { "bots" }
    )]
    BotCount {
        /// Bots given.
        given: usize,
        /// Seats.
        seats: usize,
        /// Seat names.
        names: String,
    },
    /// A bot name is unknown or malformed.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// Zero games.
    #[error("--games must be at least 1")]
    NoGames,
    /// A shard that is not one of N ranges of the games.
    #[error("--shard {index}/{of}: K/N needs 1 ≤ K ≤ N ≤ the number of games ({games})")]
    BadShard {
        /// K.
        index: u64,
        /// N.
        of: u64,
        /// Games in the run.
        games: u64,
    },
    /// Reports that are not the shards of one run.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The run was stopped through [`SimConfig::cancel`] before it had played every game.
    #[error("the run was cancelled")]
    Cancelled,
}

/// Expands `hard,easy*3` into one name per seat.
///
/// # Errors
/// A text message for an empty name or a bad repeat count.
pub fn expand_bot_list(list: &str) -> Result<Vec<String>, String> {
    let mut bots = Vec::new();
    for item in list.split(',') {
        let item = item.trim();
        let (name, count) = match item.rsplit_once('*') {
            Some((name, n)) => match n.parse::<usize>() {
                Ok(n) if (1..=8).contains(&n) => (name, n),
                _ => return Err(format!("bad repeat count in {item:?}: NAME*N takes N from 1 to 8")),
            },
            None => (item, 1),
        };
        if name.is_empty() {
            return Err(format!("empty bot name in {list:?}"));
        }
        bots.extend(std::iter::repeat_n(name.to_owned(), count));
    }
    Ok(bots)
}

/// One game's summary, collected in game order.
#[derive(Clone, Debug)]
struct GameSummary {
    /// Seat `s` was played by the config's list entry `(s + rotation) mod seats`.
    rotation: usize,
    /// Seats in the order they first moved.
    turn_order: Vec<usize>,
    outcome: Outcome,
    /// Chance outcomes drawn: rolls or throws.
    length: u32,
}

/// The report of a run (or of one shard of it); everything but `timing` depends only on the
/// game, rules, bots, seed and games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// The game's name.
    pub game: String,
    /// The madang version that played it.
    pub version: String,
    /// The rules (the record's `rules` object).
    pub rules: serde_json::Value,
    /// The number of seats asked for, where the game allows a choice.
    pub players: Option<usize>,
    /// Games played (in this shard, for a shard).
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Bot per seat (before rotation).
    pub bots: Vec<String>,
    /// Whether seats rotated.
    pub rotate_seats: bool,
    /// Whether decisions were valued against a solved table.
    pub review_decisions: bool,
    /// The run's first games reviewed for luck against skill (`SimConfig::analyse`).
    #[serde(default)]
    pub analyse: u64,
    /// The shard this report covers, and the whole run's number of games (`None`: the whole
    /// run).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<ShardOf>,
    /// Win rate of each seat (by seat name).
    pub by_seat: Vec<Rate>,
    /// Win rate by turn-order position (first mover first).
    pub by_position: Vec<Rate>,
    /// Win rate of each distinct bot name over all the seats it played.
    pub by_bot: Vec<Rate>,
    /// Games drawn.
    pub draws: u64,
    /// Games without a result.
    pub no_result: u64,
    /// Game length in chance outcomes (rolls or throws).
    pub length: LengthStats,
    /// Mean loss per decision of each bot, with `review` and a solved table (else empty).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub review: Vec<BotLoss>,
    /// The game's own figures (`Game::figures` at the end of each game) by JSON path: numbers
    /// as a mean per game, text as frequencies.
    pub figures: BTreeMap<String, Figure>,
    /// Balance, drawishness, branching factor and, from the reviewed games, luck against skill
    /// and the trajectory metrics.
    pub quality: Quality,
    /// What the statistics above are computed from, for `madang sim merge`.
    pub totals: Totals,
    /// Wall time, the only part that varies between runs.
    pub timing: Timing,
}

/// A shard and the number of games of the whole run it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardOf {
    /// The shard.
    #[serde(flatten)]
    pub shard: Shard,
    /// Games in the whole run.
    pub run_games: u64,
}

/// Time figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Games per second over the run.
    pub games_per_second: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Decision time per bot, when decisions were timed (`--time-decisions`).
    pub decisions: Vec<DecisionTime>,
    /// The decision-time histograms the summaries come from (for `madang sim merge`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub histograms: Vec<Histogram>,
}

/// How often, at most, [`simulate`] reports fast games' progress (slow games: after each).
const PROGRESS_EVERY: Duration = Duration::from_millis(20);

/// Plays the games of `config` on the current rayon pool, calling `progress` with the number of
/// games finished since its last call (after each game when a game takes over
/// 20 ms (`PROGRESS_EVERY`), else in batches of up to a chunk), and stopping before the next game once
/// `config.cancel` is set.
///
/// # Errors
/// [`SimError`] for a bot list that does not fit the game.
pub fn simulate<G: Roster>(
    game: &G,
    config: &SimConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, SimError> {
    let seats = game.seat_names();
    if config.games == 0 {
        return Err(SimError::NoGames);
    }
    if config.bots.len() != seats.len() {
        return Err(SimError::BotCount { given: config.bots.len(), seats: seats.len(), names: seats.join(", ") });
    }
    let mut distinct: Vec<String> = Vec::new();
    for name in &config.bots {
        game.bot(name)?;
        if !distinct.contains(name) {
            distinct.push(name.clone());
        }
    }
    let bot_index: Vec<u8> =
        config.bots.iter().map(|b| distinct.iter().position(|d| d == b).unwrap_or(0) as u8).collect();

    let (from, to) = config.shard.map_or((0, config.games), |shard| (shard.from, shard.to));
    let started = Instant::now();
    const CHUNK: u64 = 256;
    let cancelled = || config.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    let empty = || Totals::new(seats.len(), game.side_names().len(), distinct.len(), config.time_decisions);
    // Chunks are added up as they finish (in order, as `merge` is exact in any grouping), so
    // memory stays the same however many games are asked for.
    let totals = (0..(to - from).div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            if cancelled() {
                return None;
            }
            let start = from + chunk * CHUNK;
            let end = (start + CHUNK).min(to);
            let mut runner = Runner::new(game, config, &bot_index, distinct.len());
            // Cancellation is checked game by game, and progress reported after each game
            // while games are slow: under extreme rules (a Yut nak of 998/999) one game takes
            // seconds, and a chunk many minutes. Fast games are reported in doubling batches
            // (up to the chunk), so the clock is read rarely (per game it cost 1.4 % of Ur's
            // playouts).
            let mut batch = 1;
            let mut unreported = 0;
            let mut reported_at = Instant::now();
            for i in start..end {
                if i > start && cancelled() {
                    return None;
                }
                let summary = runner.play(i);
                runner.totals.add(game, &bot_index, &summary);
                unreported += 1;
                if unreported >= batch {
                    progress(unreported);
                    unreported = 0;
                    let now = Instant::now();
                    batch = if now - reported_at < PROGRESS_EVERY { (batch * 2).min(CHUNK) } else { 1 };
                    reported_at = now;
                }
            }
            if unreported > 0 {
                progress(unreported);
            }
            Some(runner.totals)
        })
        .try_reduce(empty, |mut a, b| {
            a.merge(&b);
            Some(a)
        })
        .ok_or(SimError::Cancelled)?;
    let elapsed = started.elapsed();
    let header = blank_report(G::NAME, config, &seats, &distinct);
    Ok(from_totals(header, totals, elapsed, rayon::current_num_threads()))
}

/// A report of `config` with no games yet: the run's description, the seat and bot names, and
/// zero statistics (filled in by `from_totals`).
fn blank_report(game: &str, config: &SimConfig, seats: &[String], bots: &[String]) -> SimReport {
    SimReport {
        game: game.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        rules: config.rules.clone(),
        players: config.players,
        games: 0,
        seed: config.seed,
        bots: config.bots.clone(),
        rotate_seats: config.rotate_seats,
        review_decisions: config.review,
        analyse: config.analyse,
        shard: config.shard.map(|shard| ShardOf { shard, run_games: config.games }),
        by_seat: seats.iter().map(|name| Rate::new(name.clone(), Tally::default())).collect(),
        by_position: Vec::new(),
        by_bot: bots.iter().map(|name| Rate::new(name.clone(), Tally::default())).collect(),
        draws: 0,
        no_result: 0,
        length: stats::length_stats(&BTreeMap::new()),
        review: Vec::new(),
        figures: BTreeMap::new(),
        quality: quality::quality(&[], 0, 0, &Branching::default(), &AnalysisTotals::default()),
        totals: Totals::default(),
        timing: Timing {
            seconds: 0.0,
            games_per_second: 0.0,
            threads: 0,
            decisions: Vec::new(),
            histograms: Vec::new(),
        },
    }
}

/// The report with `header`'s game, rules, bots, seat names (`by_seat`) and bot names
/// (`by_bot`), and every statistic computed from `totals`; timing from `elapsed` and `threads`.
fn from_totals(header: SimReport, totals: Totals, elapsed: Duration, threads: usize) -> SimReport {
    let rate = |rates: &[Rate], tallies: &[Tally]| -> Vec<Rate> {
        rates.iter().zip(tallies).map(|(r, t)| Rate::new(r.name.clone(), *t)).collect()
    };
    let by_seat = rate(&header.by_seat, &totals.by_seat);
    let by_bot = rate(&header.by_bot, &totals.by_bot);
    let by_position =
        totals.by_position.iter().enumerate().map(|(i, t)| Rate::new(stats::position_name(i), *t)).collect();
    let review = if header.review_decisions && totals.losses.iter().any(|l| l.decisions > 0) {
        header
            .by_bot
            .iter()
            .zip(&totals.losses)
            .map(|(bot, l)| {
                let per = |x: f64| if l.decisions == 0 { 0.0 } else { x / l.decisions as f64 };
                BotLoss {
                    bot: bot.name.clone(),
                    decisions: l.decisions,
                    mean_loss: per(from_fixed(l.loss)),
                    best: per(l.best as f64),
                    blunders: per(l.blunders as f64),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let seconds = elapsed.as_secs_f64();
    let decisions = header.by_bot.iter().zip(&totals.times).map(|(bot, h)| h.summary(&bot.name)).collect();
    SimReport {
        games: totals.games,
        by_seat,
        by_position,
        by_bot,
        draws: totals.draws,
        no_result: totals.no_result,
        length: stats::length_stats(&totals.lengths),
        review,
        figures: totals.figures.report(),
        quality: quality::quality(&totals.by_position, totals.games, totals.draws, &totals.branching, &totals.analysis),
        timing: Timing {
            seconds,
            games_per_second: if seconds > 0.0 { totals.games as f64 / seconds } else { 0.0 },
            threads,
            decisions,
            histograms: totals.times.clone(),
        },
        totals,
        ..header
    }
}

/// The report of a whole run from the reports of its shards (`madang sim … --shard K/N --json`,
/// any order): the same game, version, rules, players, seed, bots, rotation and review, and
/// every shard 1…N exactly once. Its statistics equal those of the run played at once; its
/// timing adds the shards' seconds (the threads are the most any shard used).
///
/// # Errors
/// [`SimError::Merge`] naming what does not fit.
pub fn merge(mut reports: Vec<SimReport>) -> Result<SimReport, SimError> {
    let fail = |message: String| Err(SimError::Merge(message));
    let Some(first) = reports.first().cloned() else { return fail("no reports given".to_owned()) };
    let Some(run) = first.shard else {
        return fail("the first report is a whole run, not a shard (run `madang sim … --shard K/N --json`)".to_owned());
    };
    for r in &reports {
        let Some(shard) = r.shard else { return fail("a report is a whole run, not a shard".to_owned()) };
        let same = r.game == first.game
            && r.version == first.version
            && r.rules == first.rules
            && r.players == first.players
            && r.seed == first.seed
            && r.bots == first.bots
            && r.rotate_seats == first.rotate_seats
            && r.review_decisions == first.review_decisions
            && r.analyse == first.analyse
            && shard.shard.of == run.shard.of
            && shard.run_games == run.run_games;
        if !same {
            return fail(format!(
                "shard {}/{} is of another run than shard {}/{} (the game, version, rules, players, seed, bots, rotation, review, analyse, games and N must all be the same)",
                shard.shard.index, shard.shard.of, run.shard.index, run.shard.of
            ));
        }
        if Shard::new(shard.shard.index, shard.shard.of, shard.run_games).ok() != Some(shard.shard)
            || r.totals.games != shard.shard.to - shard.shard.from
        {
            return fail(format!(
                "shard {}/{} does not hold the games its range says",
                shard.shard.index, shard.shard.of
            ));
        }
        if let Err(problem) = r.totals.check(first.totals.sides, first.totals.by_seat.len()) {
            return fail(format!("shard {}/{}'s totals do not add up: {problem}", shard.shard.index, shard.shard.of));
        }
    }
    reports.sort_by_key(|r| r.shard.map_or(0, |s| s.shard.index));
    let indices: Vec<u64> = reports.iter().filter_map(|r| r.shard.map(|s| s.shard.index)).collect();
    if let Some(twice) = indices.windows(2).find(|w| w[0] == w[1]) {
        return fail(format!("shard {}/{} is given twice", twice[0], run.shard.of));
    }
    let missing: Vec<String> =
        (1..=run.shard.of).filter(|k| !indices.contains(k)).map(|k| format!("{k}/{}", run.shard.of)).collect();
    if !missing.is_empty() {
        return fail(format!("missing shard(s) {}", missing.join(", ")));
    }
    let mut totals = Totals::default();
    let (mut seconds, mut threads) = (0.0, 0);
    for r in &reports {
        let mut shard_totals = r.totals.clone();
        shard_totals.times = r.timing.histograms.clone();
        totals.merge(&shard_totals);
        seconds += r.timing.seconds;
        threads = threads.max(r.timing.threads);
    }
    let header = SimReport { shard: None, ..first };
    Ok(from_totals(header, totals, Duration::from_secs_f64(seconds), threads))
}

/// Plays games one after another, reusing its bots and buffers.
struct Runner<'a, G: Roster> {
    game: &'a G,
    config: &'a SimConfig,
    seat_names: Vec<String>,
    bot_index: &'a [u8],
    bots: Vec<Box<dyn Bot<G>>>,
    legal: Vec<G::Action>,
    outcomes: Vec<(G::Action, madang_core::Weight)>,
    totals: Totals,
    /// Where the reviewed games' winning chances come from (with `analyse`).
    values: Option<Box<dyn Values<G>>>,
    /// The actions of the game being played, when it is to be reviewed.
    history: Vec<G::Action>,
    /// Each seat's bot stream name (`bot:SEAT`), and the streams of the game being played.
    stream_names: Vec<String>,
    streams: Vec<Stream>,
    /// Scratch text for the figures' paths.
    figure_path: String,
    /// Per entry of the bot list: the bot is uniformly random and its decisions are not timed,
    /// so the loop draws its choice itself (`Bot::uniform`).
    uniform: Vec<bool>,
}

impl<'a, G: Roster> Runner<'a, G> {
    fn new(game: &'a G, config: &'a SimConfig, bot_index: &'a [u8], distinct_bots: usize) -> Self {
        // Bot names were checked by `simulate`; one bot object per seat's name.
        let bots: Vec<Box<dyn Bot<G>>> = config.bots.iter().filter_map(|name| game.bot(name).ok()).collect();
        let uniform = bots.iter().map(|bot| bot.uniform() && !config.time_decisions).collect();
        Runner {
            game,
            config,
            seat_names: game.seat_names(),
            bot_index,
            bots,
            legal: Vec::new(),
            outcomes: Vec::new(),
            totals: Totals::new(game.seat_names().len(), game.side_names().len(), distinct_bots, config.time_decisions),
            values: (config.analyse > 0).then(|| -> Box<dyn Values<G>> {
                if Exact::available(game) { Box::new(Exact) } else { Box::new(Playouts::new::<G>()) }
            }),
            history: Vec::new(),
            stream_names: game.seat_names().iter().map(|s| bot_stream_name(s)).collect(),
            streams: Vec::new(),
            figure_path: String::new(),
            uniform,
        }
    }

    fn play(&mut self, index: u64) -> GameSummary {
        let n = self.seat_names.len();
        let rotation = if self.config.rotate_seats { (index % n as u64) as usize } else { 0 };
        // Seat s is played by list entry (s + rotation) mod n.
        // (Without a division: `seat` and `rotation` are below n, and a division at every
        // decision was a visible part of a random Ur game.)
        let entry_of_seat = |seat: usize| if seat + rotation >= n { seat + rotation - n } else { seat + rotation };
        let seed = sim_game_seed(self.config.seed, index);
        let mut chance = seed.stream(CHANCE);
        self.streams.clear();
        self.streams.extend(self.stream_names.iter().map(|name| seed.stream(name)));
        let mut state = self.game.initial_state();
        let mut length = 0u32;
        let reviewed = index < self.config.analyse;
        self.history.clear();
        loop {
            let action = match self.game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    length += 1;
                    // Every chance node has outcomes that can be drawn (the conformance kit
                    // checks it), so this ends the loop only on a broken engine.
                    match draw_chance(self.game, &state, &mut self.outcomes, &mut chance) {
                        Some(action) => action,
                        None => break,
                    }
                }
                Turn::Seat(seat) => {
                    self.game.legal_actions(&state, &mut self.legal);
                    self.totals.branching.add(self.legal.len());
                    let entry = entry_of_seat(seat);
                    let bot = &mut self.bots[entry];
                    let action = if self.uniform[entry] {
                        // `RandomBot::choose`'s draw, made here (see `Bot::uniform`).
                        self.legal[uniform_below(&mut self.streams[seat], self.legal.len() as u32) as usize]
                    } else if self.config.time_decisions {
                        let t = Instant::now();
                        let action = bot.choose(self.game, &state, &self.legal, &mut self.streams[seat]);
                        if let Some(times) = self.totals.times.get_mut(usize::from(self.bot_index[entry])) {
                            times.add(t.elapsed());
                        }
                        action
                    } else {
                        bot.choose(self.game, &state, &self.legal, &mut self.streams[seat])
                    };
                    if self.config.review
                        && let Some(chances) = self.game.win_chances_after(&state, &self.legal)
                        && let Some(played) = self.legal.iter().position(|a| *a == action)
                    {
                        // Chances are the first seat's; the mover's view flips them for the others.
                        let mover = |c: f64| if seat == 0 { c } else { 1.0 - c };
                        let best = chances.iter().map(|c| mover(*c)).fold(f64::NEG_INFINITY, f64::max);
                        let loss = (100.0 * (best - mover(chances[played]))).max(0.0);
                        if let Some(totals) = self.totals.losses.get_mut(usize::from(self.bot_index[entry])) {
                            totals.decisions += 1;
                            totals.loss += to_fixed(loss);
                            totals.best += u64::from(loss < 0.01);
                            totals.blunders += u64::from(loss >= 10.0);
                        }
                    }
                    action
                }
            };
            // Actions come from the engine's own lists, so they apply.
            let _ = self.game.apply_quiet(&mut state, action);
            if reviewed {
                self.history.push(action);
            }
        }
        if reviewed
            && let Some(values) = &self.values
            && let Some(review) =
                madang_analysis::review(self.game, &self.history, values.as_ref(), Precision::default(), &mut |_, _| {})
        {
            self.totals.analysis.add(&review);
        }
        self.totals.figures.add_with(&self.game.figures(&state), &mut self.figure_path);
        GameSummary {
            rotation,
            turn_order: self.game.turn_order(&state),
            outcome: self.game.outcome(&state).unwrap_or(Outcome::NoResult("unfinished".into())),
            length,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A report of no games, for tests of what is computed from totals.
    pub(crate) fn empty_report() -> SimReport {
        blank_report("test", &SimConfig::default(), &[], &[])
    }

    #[test]
    fn shards_cover_the_run_once() {
        // ⌊(K − 1) · 1000 / 3⌋ .. ⌊K · 1000 / 3⌋: 0..333, 333..666, 666..1000.
        let ranges: Vec<(u64, u64)> =
            (1..=3).map(|k| Shard::new(k, 3, 1000).map(|s| (s.from, s.to)).unwrap_or_default()).collect();
        assert_eq!(ranges, [(0, 333), (333, 666), (666, 1000)]);
        assert_eq!(Shard::new(1, 1, 5).map(|s| (s.from, s.to)).ok(), Some((0, 5)));
        assert_eq!(Shard::new(0, 3, 10), Err(SimError::BadShard { index: 0, of: 3, games: 10 }));
        assert!(Shard::new(4, 3, 10).is_err());
        assert!(Shard::new(1, 11, 10).is_err());
    }

    /// The totals of `games` games between `bots`, with or without the decisions timed, as JSON
    /// (the decision times themselves are not part of it).
    fn totals_json<G: Roster>(game: &G, bots: &[&str], games: u64, time_decisions: bool) -> serde_json::Value {
        let bots = bots.iter().map(|b| (*b).to_owned()).collect();
        let config = SimConfig { games, seed: 5, bots, time_decisions, rotate_seats: true, ..SimConfig::default() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("one thread");
        let report = pool.install(|| simulate(game, &config, &|_| {})).expect("a valid run");
        serde_json::to_value(&report.totals).expect("totals are JSON")
    }

    #[test]
    fn the_loops_own_draw_for_a_random_bot_is_the_bots_own_choice() {
        use madang_core::Game as _;
        // With decisions timed every choice goes through `Bot::choose`; otherwise the loop
        // draws a uniformly random bot's choice itself (`Bot::uniform`). Same games either way,
        // with seats rotating and a bot that searches beside a random one.
        let ur = madang_ur::Ur::new(&Default::default(), None).expect("default rules");
        let yut = madang_yut::Yut::new(&Default::default(), None).expect("default rules");
        for bots in [&["random", "random"][..], &["easy", "random"], &["random", "greedy"]] {
            let untimed = totals_json(&ur, bots, 60, false);
            assert_eq!(untimed, totals_json(&ur, bots, 60, true), "ur {bots:?}");
            assert_eq!(untimed["games"], 60);
        }
        let untimed = totals_json(&yut, &["random", "random"], 60, false);
        assert_eq!(untimed, totals_json(&yut, &["random", "random"], 60, true));
        // The uniform bots are the random players, and only they.
        assert!(Bot::<madang_ur::Ur>::uniform(&madang_bots::RandomBot));
        for name in ["greedy", "easy", "hard"] {
            assert!(!ur.bot(name).expect("an Ur bot").uniform(), "{name}");
        }
    }
}
