//! Game review for every game (`docs/api.md`, "Review"): `GET /api/games/{id}/review` for a
//! stored game (against the computer, on one screen or in a room) and `POST /api/review` for a
//! record the client holds.
//!
//! A review with a solved table (Ur) is exact and takes milliseconds: it is answered at once.
//! Otherwise it is estimated by playouts and takes seconds: the first request starts it off the
//! async workers and is answered `202` with its progress, later requests the same, until it is
//! done; at most [`MAX_RUNNING`] run at once, beyond which a request is answered `503 busy`
//! (never queued). A finished game's review is stored (`reviews` table), so the second view
//! is instant; a record's is kept in memory for a while.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use madang_games::{Precision, Review};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{AppState, compute, now_ms};
use crate::body::JsonBody;
use crate::error::ApiError;

/// Estimated reviews running at once (each uses every core for its playouts).
pub const MAX_RUNNING: usize = 1;

/// The most actions a review covers. A real game has far fewer (a Ludo game some hundreds to a
/// few thousand, near its 10,000-roll limit at the very most); a longer history would hold the
/// one review slot for minutes and answer tens of megabytes.
pub const MAX_ACTIONS: usize = 5_000;

/// Finished reviews of records kept in memory (by the record's hash).
const RECORDS_KEPT: usize = 32;

/// The reviews running and the records' finished ones.
#[derive(Default)]
pub struct Reviews {
    state: std::sync::Mutex<Jobs>,
}

#[derive(Default)]
struct Jobs {
    /// Running, by key: progress in thousandths.
    running: HashMap<String, Arc<AtomicU32>>,
    /// Records' finished reviews, oldest first.
    done: VecDeque<(String, Value)>,
}

/// What a request finds.
enum Found {
    /// Running: its progress, 0-1.
    Running(f64),
    /// Done (a record's, from memory).
    Done(Value),
    /// Not there; started now (its progress counter).
    Started(Arc<AtomicU32>),
    /// Not there, and no room to start it.
    Busy,
}

impl Reviews {
    fn lock(&self) -> std::sync::MutexGuard<'_, Jobs> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Finds the review `key`, or starts it when there is room.
    fn find_or_start(&self, key: &str) -> Found {
        let mut jobs = self.lock();
        if let Some(progress) = jobs.running.get(key) {
            return Found::Running(f64::from(progress.load(Ordering::Relaxed)) / 1000.0);
        }
        if let Some((_, body)) = jobs.done.iter().find(|(k, _)| k == key) {
            return Found::Done(body.clone());
        }
        if jobs.running.len() >= MAX_RUNNING {
            return Found::Busy;
        }
        let progress = Arc::new(AtomicU32::new(0));
        jobs.running.insert(key.to_owned(), progress.clone());
        Found::Started(progress)
    }

    /// The job `key` has ended (its result is stored or kept by now).
    fn finish(&self, key: &str, keep: Option<Value>) {
        let mut jobs = self.lock();
        jobs.running.remove(key);
        if let Some(body) = keep {
            jobs.done.push_back((key.to_owned(), body));
            while jobs.done.len() > RECORDS_KEPT {
                jobs.done.pop_front();
            }
        }
    }
}

/// A review and its body (`madang_games::review_document`), worked out off the async workers.
fn reviewed(
    game: &dyn madang_games::Match,
    rules: &Value,
    id: Option<&str>,
    version: u64,
    progress: &AtomicU32,
) -> Option<Value> {
    let review = run(game, progress)?;
    Some(madang_games::review_document(game, rules, id, version, &review))
}

fn running(progress: f64) -> Response {
    (StatusCode::ACCEPTED, Json(json!({"status": "running", "progress": progress}))).into_response()
}

/// Refuses a review of more than [`MAX_ACTIONS`] actions.
fn check_length(actions: usize) -> Result<(), ApiError> {
    if actions > MAX_ACTIONS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_long",
            format!("a review covers at most {MAX_ACTIONS} actions; this game has {actions}"),
        ));
    }
    Ok(())
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the server is reviewing other games now: try again in a few seconds",
    )
}

/// Reviews `game` to the end of its history (off the async workers); `progress` in thousandths.
fn run(game: &dyn madang_games::Match, progress: &AtomicU32) -> Option<Review> {
    game.review(Precision::default(), &mut |done, total| {
        let share = (1000 * done).checked_div(total).map_or(1000, |s| s as u32);
        progress.store(share, Ordering::Relaxed);
    })
}

/// `GET /api/games/{id}/review`: the game's review (`200`), or its progress (`202`).
///
/// # Errors
/// An unknown game; `busy` when no review can start now; a storage failure.
pub async fn game(State(state): State<AppState>, UrlPath(id): UrlPath<String>) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let (game, version, rules) = {
        let live = slot.game.lock().await;
        (live.core.game.boxed(), live.version(), live.rules.clone())
    };
    if let Some(stored) = crate::db::reviews::load(&state.db, &id, version as i64).await? {
        return Ok(Json(stored).into_response());
    }
    check_length(game.history().len())?;
    if game.exact_chances() {
        let body = compute(|| reviewed(game.as_ref(), &rules, Some(&id), version, &AtomicU32::new(0)))
            .ok_or_else(|| ApiError::internal(format!("game {id} cannot be replayed for its review")))?;
        crate::db::reviews::store(&state.db, &id, version as i64, &body, now_ms()).await?;
        return Ok(Json(body).into_response());
    }
    let key = format!("game:{id}:{version}");
    let at = id.clone();
    let job = move |progress: &AtomicU32| reviewed(game.as_ref(), &rules, Some(&at), version, progress);
    find_or_spawn(&state, key, job, move |app, body| async move {
        let body = body?;
        match crate::db::reviews::store(&app.db, &id, version as i64, &body, now_ms()).await {
            Ok(()) => None,
            Err(error) => {
                tracing::error!(game = %id, %error, "storing a review failed");
                // Kept in memory instead, so the page still gets it.
                Some(body)
            }
        }
    })
}

/// The answer for the review `key`: its progress or its result when it is running or kept,
/// `busy` when another runs, else `job` started off the async workers and its progress (0).
/// When the job ends, `keep` stores its result where it belongs and returns what is to be
/// kept in memory instead (a record's review, or one that could not be stored).
fn find_or_spawn<J, K, F>(state: &AppState, key: String, job: J, keep: K) -> Result<Response, ApiError>
where
    J: FnOnce(&AtomicU32) -> Option<Value> + Send + 'static,
    K: FnOnce(AppState, Option<Value>) -> F + Send + 'static,
    F: std::future::Future<Output = Option<Value>> + Send,
{
    let progress = match state.reviews.find_or_start(&key) {
        Found::Running(progress) => return Ok(running(progress)),
        Found::Done(body) => return Ok(Json(body).into_response()),
        Found::Busy => return Err(busy()),
        Found::Started(progress) => progress,
    };
    let app = state.clone();
    tokio::spawn(async move {
        let body = tokio::task::spawn_blocking(move || job(&progress)).await.ok().flatten();
        if body.is_none() {
            tracing::error!(review = %key, "a review failed");
        }
        let kept = keep(app.clone(), body).await;
        app.reviews.finish(&key, kept);
    });
    Ok(running(0.0))
}

/// `POST /api/review`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordReview {
    /// (A key given twice anywhere in it is refused, as in `POST /api/replay`.)
    #[serde(deserialize_with = "madang_games::strict_value")]
    record: Value,
}

/// `POST /api/review`: the review of a record the client holds (`200`), or its progress
/// (`202`: post the same record again to ask).
///
/// # Errors
/// A malformed or illegal record (as `POST /api/replay`); `busy` when no review can start now.
pub async fn record(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RecordReview>,
) -> Result<Response, ApiError> {
    if !request.record.is_object() {
        return Err(crate::http::record_error(madang_games::RecordError::Malformed(
            "a record is a JSON object with `game`, `rules`, `players` and `actions`".to_owned(),
        )));
    }
    let record = madang_games::Record::from_value(&request.record).map_err(crate::http::record_error)?;
    check_length(record.actions.len())?;
    let game = crate::http::play_record(&record)?;
    let version = record.actions.len() as u64;
    if game.exact_chances() {
        let body = compute(|| reviewed(game.as_ref(), &record.rules, None, version, &AtomicU32::new(0)))
            .ok_or_else(|| ApiError::internal("the record cannot be replayed for its review"))?;
        return Ok(Json(body).into_response());
    }
    let key = {
        use sha2::{Digest, Sha256};
        format!("record:{}", hex::encode(Sha256::digest(request.record.to_string().as_bytes())))
    };
    let job = move |progress: &AtomicU32| reviewed(game.as_ref(), &record.rules, None, version, progress);
    find_or_spawn(&state, key, job, |_, body| async move { body })
}
