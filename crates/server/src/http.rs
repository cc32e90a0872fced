//! The HTTP routes (`docs/api.md`, "Routes").

use std::collections::HashMap;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use madang_core::echo;
use madang_games::EndReason;
use madang_seed::Seed;
use serde::Deserialize;
use serde_json::{Value, json};
use tower_http::LatencyUnit;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::app::{App, AppState, now_ms, random_hex};
use crate::body::{JsonBody, OptionalJsonBody};
use crate::error::ApiError;
use crate::game::{ActionRequest, LiveGame, NewGame};
use crate::identity::{ClientAddress, PlayerId, check_nickname, identify};
use crate::{catalogue, stats, ws};

/// Largest request body.
pub const BODY_LIMIT: usize = 16 * 1024;

/// Largest record accepted by `POST /api/replay` (a record file a person loads).
pub const RECORD_LIMIT: usize = 1024 * 1024;

/// Longest a request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The whole application.
pub fn router(state: AppState) -> Router {
    let identified = Router::new()
        .route("/api/me", get(me).put(set_me))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/board", get(game_board))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/leave", post(leave))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/steps/{n}", get(step))
        .route("/api/games/{id}/review", get(crate::review::game))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/games/{id}/progress", get(crate::progress::game))
        .route("/api/profile", get(crate::progress::profile))
        .route("/api/history", get(history))
        .route("/api/stats", get(player_stats))
        .route("/api/rooms", post(crate::rooms::create))
        .route("/api/rooms/{code}/join", post(crate::rooms::join))
        .route("/api/lab", get(crate::lab::overview))
        .route("/api/lab/runs", post(crate::lab::start))
        .route("/api/lab/runs/{id}", get(crate::lab::show))
        .route("/api/lab/runs/{id}/cancel", post(crate::lab::cancel))
        .route("/api/lab/runs/{id}/reports/{n}", get(crate::lab::report_json))
        .route("/api/lab/runs/{id}/reports/{n}/html", get(crate::lab::report_html))
        .route("/api/lab/runs/{id}/comparison", get(crate::lab::comparison_json))
        .route("/api/lab/runs/{id}/comparison/html", get(crate::lab::comparison_html))
        .route_layer(middleware::from_fn_with_state(state.clone(), identify));
    let small = Router::new()
        .route("/api/health", get(|| async { Json(json!({"status": "ok"})) }))
        .route("/api/catalogue", get(|| async { Json(catalogue::catalogue()) }))
        .route("/api/setup", post(setup))
        .route("/api/rooms", get(crate::rooms::list))
        .route("/api/rooms/{code}", get(crate::rooms::show))
        .route("/api/rooms/{code}/ws", get(crate::rooms::upgrade))
        .merge(identified)
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT));
    let records = Router::new()
        .route("/api/replay", post(replay_record))
        .route("/api/review", post(crate::review::record))
        .layer(RequestBodyLimitLayer::new(RECORD_LIMIT));
    Router::new()
        .merge(small)
        .merge(records)
        .fallback(crate::web::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state.clone())
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, REQUEST_TIMEOUT))
        // On a cluster, a game's, room's or lab run's request goes to the node that owns it.
        .layer(middleware::from_fn_with_state(state.clone(), crate::cluster::route_requests))
        .layer(middleware::from_fn_with_state(state, crate::origin::guard))
        .layer(middleware::from_fn(json_errors))
        // Every answer: no MIME sniffing, no referrer, and a policy that lets an API answer
        // opened as a page run nothing (`index.html` sets its own, `web.rs`).
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::overriding(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'; base-uri 'none'"),
        ))
        // One line per request at INFO (the default log level): the span carries the method and
        // path, the response line the status and latency. A WebSocket is one request (its
        // upgrade); its messages are not logged here.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request| {
                    tracing::info_span!("request", method = %request.method(), uri = %logged_uri(request.uri()),
                        version = ?request.version())
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO).latency_unit(LatencyUnit::Micros))
                // A 5xx answer is logged at WARN: `503 busy` is an answer, not a fault, and a
                // real fault (`internal error`, `storage error`) logs itself at ERROR.
                .on_failure(DefaultOnFailure::new().level(Level::WARN)),
        )
}

/// The most characters of a request's URI a log line holds: a path or query of 64 KiB (refused,
/// 414) would otherwise be a 64 KiB line.
const LOGGED_URI_CHARS: usize = 512;

/// A request's URI as its log line shows it: cut to [`LOGGED_URI_CHARS`] characters and `…`.
fn logged_uri(uri: &axum::http::Uri) -> String {
    let mut text = uri.to_string();
    if let Some((end, _)) = text.char_indices().nth(LOGGED_URI_CHARS) {
        text.truncate(end);
        text.push('…');
    }
    text
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not take {method}", echo(uri.path())),
    )
}

/// Turns any error response that is not JSON yet (a body-limit refusal, a timeout, a failed
/// WebSocket upgrade) into the JSON error body.
async fn json_errors(request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), echo(request.uri().path()).into_owned());
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (code, message) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            let limit = if path == "/api/replay" || path == "/api/review" { RECORD_LIMIT } else { BODY_LIMIT };
            ("body_too_large", format!("the request body is over {} KiB", limit / 1024))
        }
        StatusCode::REQUEST_TIMEOUT => {
            ("timeout", format!("{method} {path} took more than {} s", REQUEST_TIMEOUT.as_secs()))
        }
        StatusCode::NOT_FOUND => ("not_found", format!("no route {method} {path}")),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", format!("{path} does not take {method}")),
        s if s.is_server_error() => ("internal", format!("{method} {path} failed ({s})")),
        s => {
            // The refusal's own text names the problem (a path segment that is not UTF-8 once
            // decoded, an upgrade request without its headers); a refusal without one names
            // the likeliest cause.
            let text = axum::body::to_bytes(response.into_body(), 1024).await.ok();
            let reason = text.as_deref().and_then(|t| std::str::from_utf8(t).ok()).map(str::trim).unwrap_or_default();
            let message = if reason.is_empty() {
                format!("{method} {path} was refused ({s}); a WebSocket route needs an upgrade request")
            } else {
                format!("{method} {path} was refused ({s}): {}", echo(reason))
            };
            ("bad_request", message)
        }
    };
    ApiError::new(status, code, message).into_response()
}

async fn me(
    State(state): State<AppState>,
    Extension(PlayerId(id)): Extension<PlayerId>,
) -> Result<Json<Value>, ApiError> {
    // A guest who has stored nothing yet has no row: its default nickname, `created` null.
    Ok(Json(match state.stored_player(&id).await? {
        Some(player) => json!({"id": player.id, "nickname": player.nickname, "created": player.created}),
        None => json!({"id": id, "nickname": crate::app::guest_nickname(&id), "created": null}),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NicknameRequest {
    nickname: String,
}

async fn set_me(
    State(state): State<AppState>,
    Extension(PlayerId(id)): Extension<PlayerId>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
    JsonBody(body): JsonBody<NicknameRequest>,
) -> Result<Json<Value>, ApiError> {
    let nickname = check_nickname(&body.nickname)?;
    state.ensure_player(&id, &address).await?;
    state.set_nickname(&id, &nickname).await?;
    me(State(state), Extension(PlayerId(id))).await
}

/// A seat of `POST /api/games`: `{"kind": "human"}` or `{"kind": "cpu", "level"?}`. A level
/// given with a human seat is kept here and refused as `bad_seats` (a seat problem, not a
/// shape problem).
#[derive(Deserialize)]
#[serde(try_from = "SeatFields")]
enum SeatRequest {
    Human { level: Option<String> },
    Cpu { level: Option<String> },
}

/// [`SeatRequest`] as sent: `kind` must be a string (a tagged enum would take a number as the
/// variant's index).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a seat {\"kind\": \"human\"} or {\"kind\": \"cpu\", \"level\": …}")]
struct SeatFields {
    kind: String,
    #[serde(default)]
    level: Option<String>,
}

impl TryFrom<SeatFields> for SeatRequest {
    type Error = String;

    fn try_from(seat: SeatFields) -> Result<SeatRequest, String> {
        match seat.kind.as_str() {
            "human" => Ok(SeatRequest::Human { level: seat.level }),
            "cpu" => Ok(SeatRequest::Cpu { level: seat.level }),
            other => Err(format!("unknown seat kind `{}`, expected `human` or `cpu`", madang_core::echo(other))),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    game: String,
    #[serde(default)]
    rules: Option<Value>,
    #[serde(default)]
    players: Option<usize>,
    #[serde(default)]
    seats: Option<Vec<SeatRequest>>,
    #[serde(default)]
    seed: Option<String>,
}

async fn create_game(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
    JsonBody(body): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    let seed = match body.seed {
        Some(_) if !state.allow_fixed_seed => {
            return Err(ApiError::forbidden(
                "fixed_seed_disabled",
                "a client cannot choose the seed: the server draws it (tests start the server with --allow-fixed-seed)",
            ));
        }
        Some(text) => text.parse::<Seed>().map_err(|e| ApiError::unprocessable("bad_seed", e.to_string()))?,
        None => {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes)
                .map_err(|e| ApiError::internal(format!("operating system randomness failed: {e}")))?;
            Seed(bytes)
        }
    };
    let seats = match body.seats {
        None => None,
        Some(seats) => Some(
            seats
                .into_iter()
                .enumerate()
                .map(|(i, s)| match s {
                    SeatRequest::Human { level: None } => Ok(None),
                    SeatRequest::Human { level: Some(level) } => Err(ApiError::unprocessable(
                        "bad_seats",
                        format!(
                            "seats[{i}] is human but has a level ({:?}): only a {{\"kind\": \"cpu\"}} seat takes one",
                            madang_core::echo(&level)
                        ),
                    )),
                    SeatRequest::Cpu { level } => Ok(Some(level.unwrap_or_else(|| "normal".to_owned()))),
                })
                .collect::<Result<Vec<_>, ApiError>>()?,
        ),
    };
    let new = NewGame {
        id: random_hex(8)?,
        owner: player.clone(),
        game: body.game,
        rules: body.rules.unwrap_or_else(|| json!({})),
        players: body.players,
        seats,
        seed,
        now: now_ms(),
    };
    let live = if new.computer_searches() {
        crate::app::compute(move || LiveGame::create(new))
    } else {
        LiveGame::create(new)
    }?;
    state.quotas.new_game(&player, &address)?;
    state.ensure_player(&player, &address).await?;
    state.writer.create(live.new_rows()).await.map_err(|e| ApiError::storage(&e))?;
    if let Some(cluster) = &state.cluster {
        cluster.claim_new(&crate::cluster::game_key(&live.id)).await?;
    }
    tracing::info!(game = %live.id, kind = %live.game, mode = %live.mode, "game created");
    let body = live.state(&player, &state.nicknames());
    state.insert(live);
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn game_state(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = state.slot(&id).await?;
    let game = slot.game.lock().await;
    Ok(Json(game.state(&player, &state.nicknames())))
}

async fn game_board(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let slot = state.slot(&id).await?;
    let (game, rules, players) = {
        let game = slot.game.lock().await;
        (game.game.clone(), game.rules.clone(), game.players)
    };
    catalogue::board(&game, &rules, players).map(Json).map_err(|e| ApiError::internal(e.to_string()))
}

async fn act(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<ActionRequest>,
) -> Result<Json<Value>, ApiError> {
    let slot = state.slot(&id).await?;
    let now = now_ms();
    let who = player.clone();
    App::command(&state, slot, player, move |game| game.play(&who, &request, now)).await.map(Json)
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatBody {
    #[serde(default)]
    seat: Option<String>,
}

async fn resign(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    OptionalJsonBody(body): OptionalJsonBody<SeatBody>,
) -> Result<Json<Value>, ApiError> {
    end_game(state, player, id, EndReason::Resign, body.seat).await
}

async fn leave(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    OptionalJsonBody(body): OptionalJsonBody<SeatBody>,
) -> Result<Json<Value>, ApiError> {
    end_game(state, player, id, EndReason::Abandoned, body.seat).await
}

/// Ends a game by a person (shared by HTTP and the WebSocket).
pub async fn end_game(
    state: AppState,
    player: String,
    id: String,
    reason: EndReason,
    seat: Option<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = state.slot(&id).await?;
    let now = now_ms();
    let who = player.clone();
    App::command(&state, slot, player, move |game| game.end_by_person(&who, reason, seat.as_deref(), now))
        .await
        .map(Json)
}

async fn record(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let game = slot.game.lock().await;
    let record = game.record(&state.nicknames());
    let disposition = format!("attachment; filename=\"madang-{}-{}.json\"", game.game, game.id);
    let mut response = Json(record).into_response();
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

async fn step(State(state): State<AppState>, Path((id, n)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    // One spelling per step, as in the notation: digits, without a sign or leading zeros.
    let canonical = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n == "0" || !n.starts_with('0'));
    let n: usize = n.parse().ok().filter(|_| canonical).ok_or_else(|| {
        ApiError::bad_request("bad_request", format!("a step is a number of actions (0, 1, …), got {:?}", echo(&n)))
    })?;
    let slot = state.slot(&id).await?;
    let game = slot.game.lock().await;
    game.step(n).map(Json)
}

/// A request's query as a map, each key at most once: `?limit=5&limit=6` is refused naming
/// `limit`, where a map would keep one of the two without a word.
///
/// # Errors
/// `bad_request` naming the repeated key.
pub(crate) fn unique_keys(pairs: Vec<(String, String)>) -> Result<HashMap<String, String>, ApiError> {
    let mut query = HashMap::with_capacity(pairs.len());
    for (key, value) in pairs {
        if query.contains_key(&key) {
            return Err(ApiError::bad_request(
                "bad_request",
                format!("the query gives {:?} more than once; give each key once", echo(&key)),
            ));
        }
        query.insert(key, value);
    }
    Ok(query)
}

fn query_number(query: &HashMap<String, String>, key: &str, default: i64, max: i64) -> Result<i64, ApiError> {
    match query.get(key) {
        None => Ok(default),
        Some(text) => match text.parse::<i64>() {
            Ok(n) if (0..=max).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_request(
                "bad_request",
                format!("`{key}` must be an integer from 0 to {max}, got {:?}", echo(text)),
            )),
        },
    }
}

async fn history(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let query = unique_keys(query)?;
    // As a lab report's query: a key the route does not take is named, not ignored.
    if let Some(other) = query.keys().find(|k| !matches!(k.as_str(), "limit" | "offset")) {
        return Err(ApiError::bad_request(
            "bad_request",
            format!("the history's query takes `limit` and `offset`, not {:?}", echo(other)),
        ));
    }
    let limit = query_number(&query, "limit", 50, 200)?;
    let offset = query_number(&query, "offset", 0, i64::MAX)?;
    let rows = state.db.history(&player, limit, offset).await?;
    let games: Vec<Value> = rows
        .into_iter()
        .map(|row| {
            let g = row.game;
            let seats: Value = serde_json::from_str(&g.seats).unwrap_or(Value::Null);
            let seats: Vec<Value> = seats
                .as_array()
                .map(|seats| {
                    seats.iter().map(|s| json!({"name": s["name"], "kind": s["kind"], "level": s["level"]})).collect()
                })
                .unwrap_or_default();
            let end = g.end_reason.as_ref().map(|reason| json!({"reason": reason, "by": g.end_by}));
            json!({
                "id": g.id, "game": g.game, "mode": g.mode, "cpu": g.cpu, "seats": seats,
                "status": g.status,
                "result": g.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
                "end": end, "outcome": row.outcome, "version": g.version,
                "created": g.created, "updated": g.updated, "finished": g.finished,
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

async fn player_stats(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
) -> Result<Json<Value>, ApiError> {
    let rows = state.db.stats_rows(&player).await?;
    Ok(Json(json!({ "stats": stats::aggregate(&rows) })))
}

/// A set-up in progress (`POST /api/setup`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    game: String,
    #[serde(default = "empty_rules")]
    rules: Value,
    #[serde(default)]
    players: Option<usize>,
}

fn empty_rules() -> Value {
    json!({})
}

/// `POST /api/setup`: for a set-up page, the seat counts these rules allow, the seats and sides
/// they give and the board (`docs/api.md`, "Set-up"). Stateless.
async fn setup(JsonBody(request): JsonBody<SetupRequest>) -> Result<Json<Value>, ApiError> {
    catalogue::setup(&request.game, &request.rules, request.players).map(Json).map_err(|error| match error {
        madang_games::RecordError::UnknownGame(_) => ApiError::unprocessable("unknown_game", error.to_string()),
        other => ApiError::unprocessable("bad_rules", other.to_string()),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayRequest {
    /// (A key given twice anywhere in it is refused, as the command line's reader refuses it.)
    #[serde(deserialize_with = "madang_games::strict_value")]
    record: Value,
    step: Option<usize>,
}

/// The most actions `POST /api/replay` plays: a Ludo game, the longest the games allow, stops at
/// 10,000 rolls, so at most 20,000 actions. The answer lists every action with its events (about
/// 370 bytes each in JSON), so 100,000 one-word actions, which fit in the 1 MiB body, made a
/// 37 MB answer and took the server to 0.6 GB.
pub const MAX_REPLAY_ACTIONS: usize = 20_000;

/// `POST /api/replay`: the replay view of a record the client holds (a loaded file) after its
/// first `step` actions (default: all), with `step`, `steps`, `action`, `last_chance` and the
/// `board` geometry of its rules. Stateless: nothing is stored.
/// A record refused: `illegal_action` for an action that does not apply, else `bad_record`.
pub(crate) fn record_error(e: madang_games::RecordError) -> ApiError {
    match e {
        madang_games::RecordError::Action(a) => {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_action", a.to_string())
        }
        other => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_record", other.to_string()),
    }
}

/// A record's action `index` (`text`) refused by `game`, the game as it stood before it: the
/// engine's reason, with what the game awaited instead as `detail` (`docs/api.md`, "Replay"),
/// which the page explains in its language.
fn illegal_at(game: &dyn madang_games::Match, index: usize, text: &str, error: madang_games::ActionError) -> ApiError {
    let view = game.view(Vec::new(), None);
    let detail = json!({"index": index, "action": madang_core::echo(text), "to_move": view.to_move,
                        "awaiting": view.awaiting, "legal": view.legal, "status": view.status});
    record_error(error.into()).with_detail(detail)
}

/// Plays a record as `madang_games::play_record` does, refused as `POST /api/replay` refuses
/// it (an illegal action with its `detail`); the game after its last action.
pub(crate) fn play_record(record: &madang_games::Record) -> Result<Box<dyn madang_games::Match>, ApiError> {
    let mut game = madang_games::open(&record.game, &record.rules, record.players).map_err(record_error)?;
    if let Some(end) = &record.end {
        end.check(&game.seat_names(), &madang_games::endings(&record.game)).map_err(record_error)?;
    }
    for (index, text) in record.actions.iter().enumerate() {
        game.apply(text).map_err(|error| illegal_at(game.as_ref(), index, text, error))?;
    }
    madang_games::check_end_in_play(game.as_ref(), record.end.as_ref()).map_err(record_error)?;
    Ok(game)
}

async fn replay_record(JsonBody(request): JsonBody<ReplayRequest>) -> Result<Json<Value>, ApiError> {
    let bad = record_error;
    if !request.record.is_object() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "a record is a JSON object with `game`, `rules`, `players` and `actions`",
        ));
    }
    let mut record = madang_games::Record::from_value(&request.record).map_err(bad)?;
    let steps = record.actions.len();
    if steps > MAX_REPLAY_ACTIONS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_long",
            format!("a replay covers at most {MAX_REPLAY_ACTIONS} actions; this record has {steps}"),
        ));
    }
    let step = request.step.unwrap_or(steps);
    if step > steps {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_step",
            format!("step {step} is beyond this record's {steps} actions"),
        ));
    }
    let board = catalogue::board(&record.game, &record.rules, record.players).map_err(bad)?;
    // Play the whole record first, so that a bad action anywhere is reported whatever the step,
    // noting each action as the game's log would: whose it was, and what it caused.
    let mut game = madang_games::open(&record.game, &record.rules, record.players).map_err(bad)?;
    if let Some(end) = &record.end {
        end.check(&game.seat_names(), &madang_games::endings(&record.game)).map_err(bad)?;
    }
    let names = game.seat_names();
    let kinds: Vec<Option<String>> = names
        .iter()
        .map(|name| {
            let seats = request.record.get("seats").and_then(Value::as_array);
            let seat = seats.and_then(|list| list.iter().find(|s| s.get("name").and_then(Value::as_str) == Some(name)));
            seat.and_then(|s| s.get("kind")).and_then(Value::as_str).map(str::to_owned)
        })
        .collect();
    let mut entries = Vec::with_capacity(steps);
    let mut last_chance = None;
    let mut action_events = None;
    for (index, text) in record.actions.iter().enumerate() {
        let turn = game.turn();
        let (seat, by) = match turn {
            madang_core::Turn::Seat(s) => (Some(s), if kinds[s].as_deref() == Some("cpu") { "cpu" } else { "human" }),
            _ => (game.thrower(), "chance"),
        };
        let events = game.apply(text).map_err(|error| illegal_at(game.as_ref(), index, text, error))?;
        if index < step {
            if turn == madang_core::Turn::Chance {
                last_chance = Some(text.clone());
            }
            action_events = Some(events.clone());
        }
        entries.push(json!({"version": index + 1, "type": "action", "index": index, "action": text,
                            "seat": seat.map(|s| names[s].clone()), "by": by, "events": events}));
    }
    madang_games::check_end_in_play(game.as_ref(), record.end.as_ref()).map_err(bad)?;
    let seed_check = seed_check(&request.record, &record);
    let action = step.checked_sub(1).map(|i| record.actions[i].clone());
    record.actions.truncate(step);
    if step < steps {
        record.end = None;
    }
    let view = madang_games::replay(&record).map_err(bad)?;
    let mut value = serde_json::to_value(&view).map_err(|e| ApiError::internal(e.to_string()))?;
    value["step"] = json!(step);
    value["steps"] = json!(steps);
    value["action"] = json!(action);
    value["last_chance"] = json!(last_chance);
    value["action_events"] = json!(action_events);
    value["board"] = board;
    value["rules"] = record.rules.clone();
    value["entries"] = Value::Array(entries);
    value["seed_check"] = seed_check;
    Ok(Json(value))
}

/// What `madang verify` says of a record that reveals its seed, as data for the replay page
/// (`docs/api.md`, "Replay"): `null` without a seed; `{"ok": true, "checked": n}` when its
/// `commitment` (if any) is the seed's SHA-256 and every one of its n chance actions is the one
/// the seed's `chance` stream draws; else `{"ok": false, "problem": "commitment" | "roll", …}`
/// with `message` (English) and, for a roll, its `index`, `action` and the `expected` draw.
/// `record` has already been played through, so its actions are legal.
fn seed_check(raw: &Value, record: &madang_games::Record) -> Value {
    let Some(seed) = record.seed else { return Value::Null };
    if let Some(committed) = raw.get("commitment").and_then(Value::as_str)
        && !committed.eq_ignore_ascii_case(&seed.commitment())
    {
        let message = format!(
            "the record's commitment {} is not the SHA-256 of its seed ({}): the seed is not the one committed to",
            madang_core::echo(committed),
            seed.commitment()
        );
        return json!({"ok": false, "problem": "commitment", "message": message});
    }
    match madang_games::verify(record) {
        Ok(checked) => json!({"ok": true, "checked": checked}),
        Err(error) => {
            let message = error.to_string();
            match error {
                madang_games::VerifyError::Mismatch { index, text, expected } => {
                    json!({"ok": false, "problem": "roll", "index": index, "action": madang_core::echo(&text),
                           "expected": expected, "message": message})
                }
                _ => json!({"ok": false, "problem": "record", "message": message}),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_uri_is_logged_cut() {
        let long: axum::http::Uri = format!("/api/{}?q={}", "a".repeat(60_000), "b".repeat(10)).parse().expect("a URI");
        let logged = logged_uri(&long);
        assert_eq!(logged.chars().count(), LOGGED_URI_CHARS + 1);
        assert_eq!(logged, format!("/api/{}…", "a".repeat(LOGGED_URI_CHARS - 5)));
        let short: axum::http::Uri = "/api/games/0123456789abcdef?x=1".parse().expect("a URI");
        assert_eq!(logged_uri(&short), "/api/games/0123456789abcdef?x=1");
    }
}
