//! `madang sim`: many seeded games between named bots, and their statistics (spec
//! `platform.md`, "Designer tool").
//!
//! Game `i` of a run with seed `S` uses the game seed `sim_game_seed(S, i)`: its chance stream
//! draws every chance outcome and each seat's bot draws from `bot:SEAT`. Games run in parallel
//! (rayon) in fixed chunks and their summaries are collected in game order before anything is
//! added up, so for one seed the statistics are identical whatever the number of threads; only
//! [`Timing`] varies.

mod figures;
mod stats;
mod timing;

use std::time::Instant;

use madang_bots::{Bot, BotError, Roster};
use madang_core::{Outcome, Turn};
use madang_seed::{CHANCE, Stream, bot_stream_name, draw_weighted, sim_game_seed};
use rayon::prelude::*;
use serde::Serialize;

pub use figures::Figure;
pub use timing::DecisionTime;

pub use stats::{Interval, LengthStats, Rate, wilson_interval};
use timing::Histogram;

use figures::FigureTotals;

/// What to simulate.
#[derive(Clone, Debug)]
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
}

/// How much winning chance a bot gave away per decision, measured against the solved table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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

/// Loss totals per bot, added in game order.
#[derive(Clone, Debug, Default)]
struct LossTotals {
    decisions: u64,
    loss: f64,
    best: u64,
    blunders: u64,
}

/// Why a simulation cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The bot list does not have one bot per seat.
    #[error("--bots lists {given} bots but the game has {seats} seats ({names}); use NAME*N for repeats")]
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
    /// Bot index (into the config's list) per seat.
    bot_of_seat: Vec<u8>,
    /// Seats in the order they first moved.
    turn_order: Vec<u8>,
    outcome: Outcome,
    /// Chance outcomes drawn: rolls or throws.
    length: u32,
}

/// The report of a run; everything but `timing` depends only on the game, rules, bots and seed.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// The game's name.
    pub game: &'static str,
    /// Games played.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Bot per seat (before rotation).
    pub bots: Vec<String>,
    /// Whether seats rotated.
    pub rotate_seats: bool,
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub review: Vec<BotLoss>,
    /// The game's own figures (`Game::figures` at the end of each game) by JSON path: numbers
    /// as a mean per game, text as frequencies.
    pub figures: std::collections::BTreeMap<String, Figure>,
    /// Wall time, the only part that varies between runs.
    pub timing: Timing,
}

/// Time figures of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Games per second over the run.
    pub games_per_second: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Decision time per bot, when decisions were timed (`--time-decisions`).
    pub decisions: Vec<DecisionTime>,
}

/// Plays the games of `config` on the current rayon pool, calling `progress` with the number of
/// games finished since its last call.
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

    let started = Instant::now();
    const CHUNK: u64 = 256;
    let chunks: Vec<u64> = (0..config.games.div_ceil(CHUNK)).collect();
    #[allow(clippy::type_complexity)]
    let chunks: Vec<(Vec<GameSummary>, FigureTotals, Vec<Histogram>, Vec<LossTotals>)> = chunks
        .par_iter()
        .map(|&chunk| {
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(config.games);
            let mut runner = Runner::new(game, config, &bot_index, distinct.len());
            let games: Vec<GameSummary> = (start..end).map(|i| runner.play(i)).collect();
            progress(end - start);
            (games, runner.figures, runner.times, runner.losses)
        })
        .collect();
    let elapsed = started.elapsed();
    let mut figures = FigureTotals::default();
    let mut times: Vec<Histogram> = distinct.iter().map(|_| Histogram::new()).collect();
    let mut summaries = Vec::with_capacity(config.games as usize);
    let mut losses: Vec<LossTotals> = distinct.iter().map(|_| LossTotals::default()).collect();
    for (games, totals, chunk_times, chunk_losses) in chunks {
        for (all, chunk) in losses.iter_mut().zip(&chunk_losses) {
            all.decisions += chunk.decisions;
            all.loss += chunk.loss;
            all.best += chunk.best;
            all.blunders += chunk.blunders;
        }
        summaries.extend(games);
        figures.merge(totals);
        for (all, chunk) in times.iter_mut().zip(&chunk_times) {
            all.merge(chunk);
        }
    }
    let mut report = stats::report(game, config, &distinct, summaries.iter(), elapsed);
    report.figures = figures.report();
    if config.review && losses.iter().any(|l| l.decisions > 0) {
        report.review = distinct
            .iter()
            .zip(&losses)
            .map(|(bot, l)| {
                let per = |x: f64| if l.decisions == 0 { 0.0 } else { x / l.decisions as f64 };
                BotLoss {
                    bot: bot.clone(),
                    decisions: l.decisions,
                    mean_loss: per(l.loss),
                    best: per(l.best as f64),
                    blunders: per(l.blunders as f64),
                }
            })
            .collect();
    }
    if config.time_decisions {
        report.timing.decisions = distinct.iter().zip(&times).map(|(name, h)| h.summary(name)).collect();
    }
    Ok(report)
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
    figures: FigureTotals,
    times: Vec<Histogram>,
    losses: Vec<LossTotals>,
}

impl<'a, G: Roster> Runner<'a, G> {
    fn new(game: &'a G, config: &'a SimConfig, bot_index: &'a [u8], distinct_bots: usize) -> Self {
        // Bot names were checked by `simulate`; one bot object per seat's name.
        let bots = config.bots.iter().filter_map(|name| game.bot(name).ok()).collect();
        Runner {
            game,
            config,
            seat_names: game.seat_names(),
            bot_index,
            bots,
            legal: Vec::new(),
            outcomes: Vec::new(),
            figures: FigureTotals::default(),
            times: (0..distinct_bots).map(|_| Histogram::new()).collect(),
            losses: (0..distinct_bots).map(|_| LossTotals::default()).collect(),
        }
    }

    fn play(&mut self, index: u64) -> GameSummary {
        let n = self.seat_names.len();
        let rotation = if self.config.rotate_seats { (index % n as u64) as usize } else { 0 };
        // Seat s is played by list entry (s + rotation) mod n.
        let entry_of_seat: Vec<usize> = (0..n).map(|s| (s + rotation) % n).collect();
        let seed = sim_game_seed(self.config.seed, index);
        let mut chance = seed.stream(CHANCE);
        let mut streams: Vec<Stream> = self.seat_names.iter().map(|s| seed.stream(&bot_stream_name(s))).collect();
        let mut state = self.game.initial_state();
        let mut length = 0u32;
        loop {
            let action = match self.game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    self.game.chance_outcomes(&state, &mut self.outcomes);
                    length += 1;
                    let i = draw_weighted(&mut chance, self.outcomes.iter().map(|(_, w)| *w)).unwrap_or(0);
                    self.outcomes[i].0
                }
                Turn::Seat(seat) => {
                    self.game.legal_actions(&state, &mut self.legal);
                    let entry = entry_of_seat[seat];
                    let bot = &mut self.bots[entry];
                    let action = if self.config.time_decisions {
                        let t = Instant::now();
                        let action = bot.choose(self.game, &state, &self.legal, &mut streams[seat]);
                        self.times[usize::from(self.bot_index[entry])].add(t.elapsed());
                        action
                    } else {
                        bot.choose(self.game, &state, &self.legal, &mut streams[seat])
                    };
                    if self.config.review
                        && let Some(chances) = self.game.win_chances_after(&state, &self.legal)
                        && let Some(played) = self.legal.iter().position(|a| *a == action)
                    {
                        // Chances are the first seat's; the mover's view flips them for the others.
                        let mover = |c: f64| if seat == 0 { c } else { 1.0 - c };
                        let best = chances.iter().map(|c| mover(*c)).fold(f64::NEG_INFINITY, f64::max);
                        let loss = (100.0 * (best - mover(chances[played]))).max(0.0);
                        let totals = &mut self.losses[usize::from(self.bot_index[entry])];
                        totals.decisions += 1;
                        totals.loss += loss;
                        totals.best += u64::from(loss < 0.01);
                        totals.blunders += u64::from(loss >= 10.0);
                    }
                    action
                }
            };
            // Actions come from the engine's own lists, so they apply.
            let _ = self.game.apply_quiet(&mut state, action);
        }
        if let Ok(figures) = serde_json::to_value(self.game.figures(&state)) {
            self.figures.add(&figures);
        }
        GameSummary {
            bot_of_seat: entry_of_seat.iter().map(|&e| self.bot_index[e]).collect(),
            turn_order: self.game.turn_order(&state).iter().map(|&s| s as u8).collect(),
            outcome: self.game.outcome(&state).unwrap_or(Outcome::NoResult("unfinished".into())),
            length,
        }
    }
}
