//! The designer's lab in the web app (`docs/lab.md`, "In the web app"; `docs/api.md`, "Lab"):
//! a player starts a run of `madang sim` on the server — a game, one or two rule sets, a bot per
//! seat, a number of games —, watches its progress, may cancel it, and fetches its report as
//! JSON or as the self-contained HTML page (`madang_sim::html`).
//!
//! Runs are bounded so that the lab can never starve live games ([`LabLimits`]): a cap on the
//! games of a run, one run at a time per player (`409 already_running`), a server-wide number
//! of runs at once beyond which a start is refused (`503 busy`, never queued), a time limit
//! (a run whose pace would take it over the limit is stopped early), and cancellation. Each run
//! plays on a rayon pool of its own with one thread, inside `spawn_blocking`, so it holds one
//! core at most and never the async workers. A run is played as up to [`MAX_SHARDS`] shards of
//! its games (`madang_sim::Shard`) merged at the end (`madang_sim::merge`: the same report as
//! the run played at once, timing aside), so that progress, cancellation and the time limit
//! act every few games. Runs and their reports live in memory only: each player's last
//! [`KEPT_PER_PLAYER`] and the server's last [`LabLimits::kept`] finished runs are kept, and a
//! restart forgets them.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use madang_core::echo;
use madang_games::{Describe, RecordError, Visitor};
use madang_sim::compare::Comparison;
use madang_sim::{Shard, SimConfig, SimError, SimReport};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{AppState, now_ms, random_hex};
use crate::body::{JsonBody, OptionalJsonBody};
use crate::error::ApiError;
use crate::identity::PlayerId;

/// The most games one rule set of a run may have. With the fastest bots a run of this many
/// takes a few seconds on one core; slower bots meet the time limit first.
pub const MAX_GAMES: u64 = 10_000;

/// Runs at once on the whole server. Each holds one core while it runs, so on a two-core
/// machine one run leaves the other core to live games.
pub const MAX_RUNNING: usize = 1;

/// The longest a run may take. A run is stopped as soon as its pace says it would take longer
/// ([`ESTIMATE_AFTER`]), or when it has taken this long.
pub const RUN_TIME: Duration = Duration::from_secs(30);

/// Finished runs (done, cancelled or stopped) kept in memory with their reports, the oldest
/// forgotten first: a report is a few kilobytes.
pub const KEPT_RUNS: usize = 256;

/// Finished runs kept per player, the player's oldest forgotten first, so that one guest's many
/// runs cannot push out everyone else's reports.
pub const KEPT_PER_PLAYER: usize = 4;

/// A run is played as at most this many shards of its games (each shard is one call of
/// `madang_sim::simulate`): progress, cancellation and the time limit act between shards, so
/// every `games / MAX_SHARDS` games at most (10 at [`MAX_GAMES`]), every game for runs of up
/// to this many games.
pub const MAX_SHARDS: u64 = 1_000;

/// A run's pace is judged once it has run this long: then a run whose games so far say it
/// would take longer than [`RUN_TIME`] is stopped (`too_slow`), rather than at the limit.
pub const ESTIMATE_AFTER: Duration = Duration::from_secs(2);

/// The lab's bounds (`docs/lab.md`, "In the web app"). The defaults are the constants above;
/// tests lower them.
#[derive(Clone, Debug)]
pub struct LabLimits {
    /// The most games per rule set of one run ([`MAX_GAMES`]).
    pub max_games: u64,
    /// Runs at once on the server ([`MAX_RUNNING`]); `0` turns the lab off.
    pub running: usize,
    /// The longest a run may take ([`RUN_TIME`]).
    pub run_time: Duration,
    /// Finished runs kept in memory ([`KEPT_RUNS`]).
    pub kept: usize,
}

impl Default for LabLimits {
    fn default() -> Self {
        LabLimits { max_games: MAX_GAMES, running: MAX_RUNNING, run_time: RUN_TIME, kept: KEPT_RUNS }
    }
}

/// `POST /api/lab/runs`'s body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The game (a catalogue `game`).
    game: String,
    /// The rules (a record's `rules` object; default `{}`).
    #[serde(default)]
    rules: Option<Value>,
    /// A second rule set played with the same seeds, bots and games.
    #[serde(default)]
    compare_rules: Option<Value>,
    /// The number of seats, where the game allows a choice.
    #[serde(default)]
    players: Option<usize>,
    /// One bot per seat, in seat order: names from the catalogue's `lab_bots`.
    bots: Vec<String>,
    /// Games per rule set, 1 to [`LabLimits::max_games`].
    games: u64,
    /// The run's seed (default: drawn by the server).
    #[serde(default)]
    seed: Option<u64>,
    /// Rotate the bots over the seats game by game.
    #[serde(default)]
    rotate_seats: bool,
}

/// How a run ended, or that it has not.
#[derive(Clone, Debug)]
enum Outcome {
    Running,
    /// One report per rule set, in request order.
    Done(Vec<SimReport>),
    Cancelled,
    /// Stopped with this error (`too_slow`, or a fault).
    Failed(ApiError),
}

/// One run.
struct Run {
    id: String,
    owner: String,
    game: String,
    /// The rule sets, the first the request's `rules`.
    rules: Vec<Value>,
    players: Option<usize>,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    rotate_seats: bool,
    started: i64,
    clock: Instant,
    /// Games played so far over every rule set.
    done: AtomicU64,
    cancel: Arc<AtomicBool>,
    /// How long the run took, milliseconds, once it has ended.
    took_ms: AtomicU64,
    outcome: Mutex<Outcome>,
    /// Becomes `true` when the run has ended (however).
    ended: tokio::sync::watch::Sender<bool>,
}

impl Run {
    fn outcome(&self) -> MutexGuard<'_, Outcome> {
        self.outcome.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn running(&self) -> bool {
        matches!(*self.outcome(), Outcome::Running)
    }

    fn total(&self) -> u64 {
        self.games * self.rules.len() as u64
    }

    /// The run as `GET /api/lab/runs/{id}` shows it.
    fn view(&self) -> Value {
        let outcome = self.outcome().clone();
        let (status, error, reports) = match &outcome {
            Outcome::Running => ("running", Value::Null, Value::Null),
            Outcome::Done(reports) => {
                let links: Vec<Value> = reports
                    .iter()
                    .enumerate()
                    .map(|(n, report)| {
                        let at = format!("/api/lab/runs/{}/reports/{n}", self.id);
                        json!({"rules": report.rules, "games": report.games, "json": at, "html": format!("{at}/html")})
                    })
                    .collect();
                ("done", Value::Null, Value::Array(links))
            }
            Outcome::Cancelled => ("cancelled", Value::Null, Value::Null),
            Outcome::Failed(error) => ("failed", error.body()["error"].clone(), Value::Null),
        };
        json!({
            "id": self.id,
            "game": self.game,
            "status": status,
            "done": self.done.load(Ordering::Relaxed),
            "total": self.total(),
            "games": self.games,
            "rules": self.rules[0],
            "compare_rules": self.rules.get(1),
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            // The seed as text too: a JavaScript number holds a whole number exactly only up to
            // 2^53 - 1, and a seed may be up to 2^64 - 1.
            "seed_text": self.seed.to_string(),
            "rotate_seats": self.rotate_seats,
            "started": self.started,
            "elapsed_ms": if matches!(outcome, Outcome::Running) {
                self.clock.elapsed().as_millis() as u64
            } else {
                self.took_ms.load(Ordering::Relaxed)
            },
            "cancelling": matches!(outcome, Outcome::Running) && self.cancel.load(Ordering::Relaxed),
            "error": error,
            "reports": reports,
            "comparison": (status == "done" && self.rules.len() > 1).then(|| {
                let at = format!("/api/lab/runs/{}/comparison", self.id);
                json!({"json": at, "html": format!("{at}/html")})
            }),
        })
    }
}

/// The lab's runs: those running and the last finished ones, oldest first.
#[derive(Default)]
pub struct Lab {
    runs: Mutex<VecDeque<Arc<Run>>>,
}

impl Lab {
    fn lock(&self) -> MutexGuard<'_, VecDeque<Arc<Run>>> {
        self.runs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The run `id` of `player` (another player's run is not found either).
    fn find(&self, player: &str, id: &str) -> Result<Arc<Run>, ApiError> {
        self.lock().iter().find(|run| run.id == id && run.owner == player).cloned().ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, "unknown_run", format!("no lab run {:?} of yours", echo(id)))
        })
    }

    /// Registers `run` when its player has none running and the server has room.
    fn admit(&self, run: Arc<Run>, limit: usize) -> Result<(), ApiError> {
        let mut runs = self.lock();
        if let Some(mine) = runs.iter().find(|r| r.owner == run.owner && r.running()) {
            return Err(ApiError::conflict(
                "already_running",
                format!(
                    "you already have a lab run going ({}, {} of {} games played): wait for it to end or cancel it",
                    mine.id,
                    mine.done.load(Ordering::Relaxed),
                    mine.total()
                ),
            ));
        }
        let running = runs.iter().filter(|r| r.running()).count();
        if running >= limit {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                format!(
                    "the lab runs at most {} at once on this server and is full now: try again in a minute",
                    plural(limit, "run")
                ),
            ));
        }
        runs.push_back(run);
        Ok(())
    }

    /// Records how `run` ended and forgets its player's oldest finished runs beyond
    /// [`KEPT_PER_PLAYER`], then the oldest finished runs beyond `kept`.
    fn finish(&self, run: &Run, outcome: Outcome, kept: usize) {
        run.took_ms.store(run.clock.elapsed().as_millis() as u64, Ordering::Relaxed);
        *run.outcome() = outcome;
        let mut runs = self.lock();
        let mine = |r: &Run| r.owner == run.owner && !r.running();
        let mut theirs = runs.iter().filter(|r| mine(r)).count();
        runs.retain(|r| {
            if theirs > KEPT_PER_PLAYER && mine(r) {
                theirs -= 1;
                return false;
            }
            true
        });
        let mut finished = runs.iter().filter(|r| !r.running()).count();
        runs.retain(|r| {
            if finished > kept && !r.running() {
                finished -= 1;
                return false;
            }
            true
        });
        drop(runs);
        run.ended.send_replace(true);
    }

    /// Asks every running run to stop (the server is shutting down).
    pub fn cancel_all(&self) {
        for run in self.lock().iter() {
            run.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// The bot names a lab run may use for `game` under its rules: the game's named bots and
/// levels that it builds as they are (so not `expectimax:D`, whose depth is open, nor
/// `perfect` without a solved table for these rules).
pub fn lab_bots<G: Describe>(game: &G) -> Vec<&'static str> {
    G::bot_names().iter().copied().filter(|name| game.bot(name).is_ok()).collect()
}

/// What a request's rule set gives: its seat names and the refusal of a bot, if any.
struct Check<'a> {
    bots: &'a [String],
    /// `rules` or `compare_rules`, for messages.
    field: &'a str,
}

impl Visitor for Check<'_> {
    /// The rule set's seats, and the refusal of its bots if any.
    type Output = (Vec<String>, Result<(), ApiError>);

    fn visit<G: Describe>(self, game: G) -> Self::Output {
        let seats = game.seat_names();
        let bots = self.bots_for(&game, &seats);
        (seats, bots)
    }
}

impl Check<'_> {
    fn bots_for<G: Describe>(&self, game: &G, seats: &[String]) -> Result<(), ApiError> {
        if self.bots.len() != seats.len() {
            return Err(ApiError::unprocessable(
                "bad_bots",
                format!(
                    "`bots` lists {} but the game under `{}` has {} ({}): give one bot per seat",
                    plural(self.bots.len(), "bot"),
                    self.field,
                    plural(seats.len(), "seat"),
                    seats.join(", ")
                ),
            ));
        }
        let offered = lab_bots(game);
        for (seat, name) in seats.iter().zip(self.bots) {
            if offered.contains(&name.as_str()) {
                continue;
            }
            let why = match game.bot(name) {
                // A bot with an open parameter (`expectimax:7`): its cost has no bound.
                Ok(_) => "the lab plays only the named bots and levels, whose cost is known".to_owned(),
                Err(error) => error.to_string(),
            };
            return Err(ApiError::unprocessable(
                "bad_level",
                format!("bot {:?} for seat {seat}: {why} (the lab offers {})", echo(name), offered.join(", ")),
            ));
        }
        Ok(())
    }
}

/// `count` and `noun`, the noun plural unless the count is one: `1 bot`, `2 seats`.
fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// Checks a rule set of the request (`field` names it in messages): the game, the rules, the
/// players and the bots.
fn check(request: &RunRequest, rules: &Value, field: &str) -> Result<(Vec<String>, Result<(), ApiError>), ApiError> {
    madang_games::visit(&request.game, rules, request.players, Check { bots: &request.bots, field }).map_err(
        |e| match e {
            RecordError::UnknownGame(_) => ApiError::unprocessable("unknown_game", e.to_string()),
            other => ApiError::unprocessable("bad_rules", format!("`{field}`: {other}")),
        },
    )
}

/// Plays one rule set of a run (the visitor gives the concrete game).
struct Play<'a> {
    run: &'a Run,
    rules: Value,
    pool: &'a rayon::ThreadPool,
    limits: &'a LabLimits,
}

/// Why a rule set's games stopped before the end.
enum Stop {
    Cancelled,
    Failed(ApiError),
}

impl Play<'_> {
    /// Stops a run that has taken, or at its pace would take, longer than the time limit.
    fn check_time(&self) -> Result<(), Stop> {
        let run = self.run;
        let elapsed = run.clock.elapsed();
        let done = run.done.load(Ordering::Relaxed);
        let limit = self.limits.run_time;
        let projected = (done > 0).then(|| elapsed.mul_f64(run.total() as f64 / done as f64));
        let too_slow = elapsed > limit || (elapsed >= ESTIMATE_AFTER && projected.is_some_and(|p| p > limit));
        if !too_slow {
            return Ok(());
        }
        let pace = match projected {
            Some(p) => format!("at its pace it would take about {} s", p.as_secs().max(1)),
            None => format!("it played no game in {} s", elapsed.as_secs()),
        };
        Err(Stop::Failed(ApiError::unprocessable(
            "too_slow",
            format!(
                "the run was stopped after {done} of {} games: {pace}, and the lab runs at most {} s; choose fewer games or faster bots",
                run.total(),
                limit.as_secs()
            ),
        )))
    }
}

impl Visitor for Play<'_> {
    type Output = Result<SimReport, Stop>;

    fn visit<G: Describe>(self, game: G) -> Self::Output {
        let run = self.run;
        let shards = run.games.min(MAX_SHARDS);
        let mut reports = Vec::with_capacity(shards as usize);
        for k in 1..=shards {
            self.check_time()?;
            let shard =
                Shard::new(k, shards, run.games).map_err(|e| Stop::Failed(ApiError::internal(e.to_string())))?;
            let config = SimConfig {
                games: run.games,
                seed: run.seed,
                bots: run.bots.clone(),
                rotate_seats: run.rotate_seats,
                rules: self.rules.clone(),
                players: run.players,
                shard: Some(shard),
                cancel: Some(run.cancel.clone()),
                ..SimConfig::default()
            };
            let report = self
                .pool
                .install(|| {
                    madang_sim::simulate(&game, &config, &|n| {
                        run.done.fetch_add(n, Ordering::Relaxed);
                    })
                })
                .map_err(|e| match e {
                    SimError::Cancelled => Stop::Cancelled,
                    other => Stop::Failed(ApiError::internal(format!("lab run {}: {other}", run.id))),
                })?;
            reports.push(report);
        }
        // The shards' statistics added up: the report of the run played at once.
        madang_sim::merge(reports).map_err(|e| Stop::Failed(ApiError::internal(format!("lab run {}: {e}", run.id))))
    }
}

/// Plays every rule set of `run` (off the async workers, on a pool of one thread).
fn play(run: &Run, limits: &LabLimits) -> Outcome {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).thread_name(|_| "madang-lab".to_owned()).build() {
        Ok(pool) => pool,
        Err(e) => return Outcome::Failed(ApiError::internal(format!("the lab's thread could not start: {e}"))),
    };
    let mut reports = Vec::with_capacity(run.rules.len());
    // Each rule set is a run of its own with the same seed, bots and games, so the reports
    // compare game for game (`madang sim --compare`); the comparison is computed from them when
    // asked for (`comparison`).
    for rules in &run.rules {
        let played =
            madang_games::visit(&run.game, rules, run.players, Play { run, rules: rules.clone(), pool: &pool, limits });
        match played {
            Ok(Ok(report)) => reports.push(report),
            Ok(Err(Stop::Cancelled)) => return Outcome::Cancelled,
            Ok(Err(Stop::Failed(error))) => return Outcome::Failed(error),
            Err(e) => return Outcome::Failed(ApiError::internal(format!("lab run {}: {e}", run.id))),
        }
    }
    Outcome::Done(reports)
}

/// `GET /api/lab`: the lab's limits and the requester's runs, newest first.
pub async fn overview(State(state): State<AppState>, Extension(PlayerId(player)): Extension<PlayerId>) -> Json<Value> {
    let limits = &state.limits.lab;
    let runs: Vec<Value> =
        state.lab.lock().iter().rev().filter(|run| run.owner == player).map(|run| run.view()).collect();
    Json(json!({
        "limits": {
            "max_games": limits.max_games,
            "running": limits.running,
            "run_seconds": limits.run_time.as_secs(),
            "kept": limits.kept,
        },
        "runs": runs,
    }))
}

/// `POST /api/lab/runs`: checks the request and starts the run (`202`, the run's view).
///
/// # Errors
/// A bad request (named); `already_running` when the player has a run going; `busy` when the
/// server runs as many as it may.
pub async fn start(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    JsonBody(request): JsonBody<RunRequest>,
) -> Result<Response, ApiError> {
    let limits = state.limits.lab.clone();
    if request.games == 0 || request.games > limits.max_games {
        return Err(ApiError::unprocessable(
            "bad_games",
            format!("`games` must be from 1 to {} (per rule set), got {}", limits.max_games, request.games),
        ));
    }
    let mut rules = vec![request.rules.clone().unwrap_or_else(|| json!({}))];
    rules.extend(request.compare_rules.clone());
    // The two rule sets' seats are compared before the bots are: with different seats no list
    // of bots fits both, and the message names why.
    let (seats, bots) = check(&request, &rules[0], "rules")?;
    let other_bots = match rules.get(1) {
        Some(second) => {
            let (other, other_bots) = check(&request, second, "compare_rules")?;
            if other != seats {
                return Err(ApiError::unprocessable(
                    "bad_rules",
                    format!(
                        "the game under `compare_rules` has the seats {} but the one under `rules` has {}: two rule sets are compared with the same seats",
                        other.join(", "),
                        seats.join(", ")
                    ),
                ));
            }
            other_bots
        }
        None => Ok(()),
    };
    bots?;
    other_bots?;
    let seed = match request.seed {
        Some(seed) => seed,
        // 48 bits: exact in a JavaScript number.
        None => u64::from_str_radix(&random_hex(6)?, 16).map_err(|e| ApiError::internal(e.to_string()))?,
    };
    // On a cluster a run's id starts with its node's lock key (8 hex digits): any node routes
    // the run's requests to the node playing it (`cluster.rs`).
    let id = match &state.cluster {
        Some(cluster) => format!("{:08x}{}", cluster.lock_key, random_hex(4)?),
        None => random_hex(8)?,
    };
    let run = Arc::new(Run {
        id,
        owner: player,
        game: request.game,
        rules,
        players: request.players,
        bots: request.bots,
        games: request.games,
        seed,
        rotate_seats: request.rotate_seats,
        started: now_ms(),
        clock: Instant::now(),
        done: AtomicU64::new(0),
        cancel: Arc::new(AtomicBool::new(false)),
        took_ms: AtomicU64::new(0),
        outcome: Mutex::new(Outcome::Running),
        ended: tokio::sync::watch::Sender::new(false),
    });
    state.lab.admit(run.clone(), limits.running)?;
    tracing::info!(run = %run.id, game = %run.game, games = run.games, sets = run.rules.len(), "lab run started");
    // The answer is the run as it was accepted (`running`, nothing played): taken before the
    // games start, so a short run that ends at once still answers the same way.
    let accepted = run.view();
    let app = state.clone();
    let job = run.clone();
    tokio::task::spawn_blocking(move || {
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| play(&job, &limits)))
            .unwrap_or_else(|_| Outcome::Failed(ApiError::internal(format!("lab run {} failed", job.id))));
        let status = match &outcome {
            Outcome::Done(_) => "done",
            Outcome::Cancelled => "cancelled",
            Outcome::Failed(_) | Outcome::Running => "failed",
        };
        tracing::info!(run = %job.id, status, "lab run ended");
        app.lab.finish(&job, outcome, limits.kept);
    });
    Ok((StatusCode::ACCEPTED, Json(accepted)).into_response())
}

/// `GET /api/lab/runs/{id}`: the run's progress, and its reports once done.
///
/// # Errors
/// `unknown_run`.
pub async fn show(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.lab.find(&player, &id)?.view()))
}

/// `POST …/cancel`'s body: empty or `{}` (anything else is refused, as every route refuses a
/// field it does not have).
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelBody {}

/// How long `POST …/cancel` waits for the run to stop before answering.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// `POST /api/lab/runs/{id}/cancel`: stops the run (within a few games) and answers its view.
///
/// # Errors
/// `unknown_run`; `not_running` for a run that has ended.
pub async fn cancel(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    OptionalJsonBody(CancelBody {}): OptionalJsonBody<CancelBody>,
) -> Result<Json<Value>, ApiError> {
    let run = state.lab.find(&player, &id)?;
    if !run.running() {
        let view = run.view();
        let status = view["status"].as_str().unwrap_or("ended");
        return Err(ApiError::conflict(
            "not_running",
            format!("lab run {} has already ended ({status}): there is nothing to cancel", run.id),
        ));
    }
    run.cancel.store(true, Ordering::Relaxed);
    let mut ended = run.ended.subscribe();
    let _ = tokio::time::timeout(CANCEL_WAIT, ended.wait_for(|ended| *ended)).await;
    Ok(Json(run.view()))
}

/// The query of a report: `lang` (`ko` or `en`, the HTML page's language, default `en`) and
/// `download` (`1`: as a file; `0` or absent: inline).
struct ReportQuery {
    lang: madang_sim::html::Lang,
    download: bool,
}

impl ReportQuery {
    /// Reads the query; `html` says whether `lang` is taken.
    ///
    /// # Errors
    /// `bad_request` naming an unknown key or a bad value.
    fn parse(query: &HashMap<String, String>, html: bool) -> Result<ReportQuery, ApiError> {
        let bad = |message: String| Err(ApiError::bad_request("bad_request", message));
        let mut parsed = ReportQuery { lang: madang_sim::html::Lang::En, download: false };
        for (key, value) in query {
            match key.as_str() {
                "lang" if html => match madang_sim::html::Lang::parse(value) {
                    Some(lang) => parsed.lang = lang,
                    None => return bad(format!("`lang` is ko or en, got {:?}", echo(value))),
                },
                "download" => match value.as_str() {
                    "1" | "true" => parsed.download = true,
                    "0" | "false" => parsed.download = false,
                    other => return bad(format!("`download` is 1 or 0, got {:?}", echo(other))),
                },
                other => {
                    let known = if html { "`lang` and `download`" } else { "`download`" };
                    return bad(format!("a report's query takes {known}, not {:?}", echo(other)));
                }
            }
        }
        Ok(parsed)
    }
}

/// The report `n` (0: `rules`, 1: `compare_rules`) of a finished run.
fn report(state: &AppState, player: &str, id: &str, n: &str) -> Result<(Arc<Run>, usize, SimReport), ApiError> {
    let n: usize = n.parse().map_err(|_| {
        ApiError::bad_request("bad_request", format!("a report is numbered 0, 1, …, got {:?}", echo(n)))
    })?;
    // A number beyond the run's rule sets is unknown whether or not the run has finished.
    let run = state.lab.find(player, id)?;
    let count = run.rules.len();
    let unknown = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_report",
            format!("lab run {} has {count} report(s), numbered from 0", run.id),
        )
    };
    if n >= count {
        return Err(unknown());
    }
    let report = finished(&run)?.into_iter().nth(n).ok_or_else(unknown)?;
    Ok((run, n, report))
}

/// The comparison of a finished run with two rule sets (`madang_sim::compare`).
fn comparison(state: &AppState, player: &str, id: &str) -> Result<(Arc<Run>, Comparison), ApiError> {
    let run = state.lab.find(player, id)?;
    if run.rules.len() < 2 {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_report",
            format!("lab run {} has one rule set: there is no comparison (start it with `compare_rules`)", run.id),
        ));
    }
    let comparison = madang_sim::compare::compare(finished(&run)?);
    Ok((run, comparison))
}

/// The reports of a finished run, one per rule set.
fn finished(run: &Run) -> Result<Vec<SimReport>, ApiError> {
    let outcome = run.outcome().clone();
    let reports = match outcome {
        Outcome::Done(reports) => reports,
        Outcome::Running => {
            return Err(ApiError::conflict(
                "not_finished",
                format!("lab run {} is still running: its report comes when it is done", run.id),
            ));
        }
        Outcome::Cancelled | Outcome::Failed(_) => {
            return Err(ApiError::conflict(
                "not_finished",
                format!("lab run {} did not finish (cancelled or stopped): it has no report", run.id),
            ));
        }
    };
    Ok(reports)
}

fn attach(response: &mut Response, attachment: bool, name: &str) {
    let disposition =
        if attachment { format!("attachment; filename=\"{name}\"") } else { format!("inline; filename=\"{name}\"") };
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
    }
}

/// `GET /api/lab/runs/{id}/reports/{n}`: report `n` as JSON (`?download=1`: as a file).
///
/// # Errors
/// `unknown_run`, `unknown_report`, `not_finished`, a bad query.
pub async fn report_json(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let query = ReportQuery::parse(&crate::http::unique_keys(query)?, false)?;
    let (run, n, report) = report(&state, &player, &id, &n)?;
    let mut response = Json(report).into_response();
    attach(&mut response, query.download, &format!("madang-lab-{}-{}-{n}.json", run.game, run.id));
    Ok(response)
}

/// The report page's Content-Security-Policy: its own inline styles and SVG, nothing else, no
/// script (sandboxed), and only this origin may frame it (the lab page shows it in a frame).
const REPORT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
                          frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox";

/// `GET /api/lab/runs/{id}/reports/{n}/html`: report `n` as the self-contained HTML page
/// (`madang_sim::html`; `?lang=ko|en`, default `en`; `?download=1`: as a file).
///
/// # Errors
/// `unknown_run`, `unknown_report`, `not_finished`, a bad query.
pub async fn report_html(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let query = ReportQuery::parse(&crate::http::unique_keys(query)?, true)?;
    let (run, n, report) = report(&state, &player, &id, &n)?;
    let page = madang_sim::html::html(&report, query.lang);
    Ok(html_page(page, query.download, &format!("madang-lab-{}-{}-{n}.html", run.game, run.id)))
}

/// A report page: its type, its Content-Security-Policy, inline or as the file `name`.
fn html_page(page: String, download: bool, name: &str) -> Response {
    let mut response = (StatusCode::OK, page).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(REPORT_CSP));
    attach(&mut response, download, name);
    response
}

/// `GET /api/lab/runs/{id}/comparison`: the two rule sets side by side with the tests of their
/// differences (`madang_sim::compare::Comparison`) as JSON (`?download=1`: as a file).
///
/// # Errors
/// `unknown_run`, `unknown_report` (one rule set), `not_finished`, a bad query.
pub async fn comparison_json(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let query = ReportQuery::parse(&crate::http::unique_keys(query)?, false)?;
    let (run, comparison) = comparison(&state, &player, &id)?;
    let mut response = Json(comparison).into_response();
    attach(&mut response, query.download, &format!("madang-lab-{}-{}-compare.json", run.game, run.id));
    Ok(response)
}

/// `GET /api/lab/runs/{id}/comparison/html`: the comparison as one self-contained page
/// (`madang_sim::html::compare_html`, as `madang sim --compare --report`; `?lang=ko|en`,
/// `?download=1`).
///
/// # Errors
/// `unknown_run`, `unknown_report` (one rule set), `not_finished`, a bad query.
pub async fn comparison_html(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let query = ReportQuery::parse(&crate::http::unique_keys(query)?, true)?;
    let (run, comparison) = comparison(&state, &player, &id)?;
    let page = madang_sim::html::compare_html(&comparison, query.lang);
    Ok(html_page(page, query.download, &format!("madang-lab-{}-{}-compare.html", run.game, run.id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(bots: &[&str]) -> RunRequest {
        RunRequest {
            game: "ur".to_owned(),
            rules: None,
            compare_rules: None,
            players: None,
            bots: bots.iter().map(|b| (*b).to_owned()).collect(),
            games: 10,
            seed: None,
            rotate_seats: false,
        }
    }

    #[test]
    fn the_lab_offers_named_bots_not_open_parameters() {
        let game: madang_ur::Ur = madang_games::build(&json!({}), None).expect("default Ur");
        let bots = lab_bots(&game);
        assert!(bots.contains(&"random") && bots.contains(&"hard"), "{bots:?}");
        assert!(!bots.iter().any(|b| b.contains(':')), "{bots:?}");
        let bots_of = |bots: &[&str]| check(&request(bots), &json!({}), "rules").map(|(_, bots)| bots);
        let refused = bots_of(&["random", "expectimax:7"]).expect("Ur's rules").expect_err("open depth");
        assert_eq!(refused.code, "bad_level");
        assert!(refused.message.contains("seat dark"), "{}", refused.message);
        let refused = bots_of(&["random"]).expect("Ur's rules").expect_err("one bot for two seats");
        assert_eq!(refused.code, "bad_bots");
        assert!(
            refused.message.starts_with("`bots` lists 1 bot but the game under `rules` has 2 seats (light, dark)"),
            "{}",
            refused.message
        );
    }
}
