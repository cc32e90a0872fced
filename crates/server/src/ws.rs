//! The WebSocket protocol (`docs/api.md`, "WebSocket").

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use madang_games::EndReason;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{App, AppState, Slot, now_ms};
use crate::error::ApiError;
use crate::game::ActionRequest;
use crate::http::{BODY_LIMIT, end_game};
use crate::identity::PlayerId;

/// A client more than this many versions behind gets a full snapshot instead of the events.
pub const MAX_CATCH_UP: u64 = 512;

/// The per-connection message rate limit of every WebSocket (games and rooms alike; the numbers
/// are `RoomConfig`'s, documented in `docs/api.md`, "Limits and timings").
#[derive(Clone, Copy, Debug)]
pub(crate) struct RateLimit {
    /// Messages a connection may send per second, sustained (a token bucket)…
    pub rate_per_second: u32,
    /// …and in a burst.
    pub burst: u32,
    /// Refused messages within `strike_window` that close the connection (1008).
    pub strikes_to_close: u32,
    /// See `strikes_to_close`.
    pub strike_window: Duration,
}

impl RateLimit {
    /// The `rate_limited` error's message.
    pub(crate) fn refusal(&self) -> String {
        format!(
            "more than {} messages a second (burst {}): this one was dropped; slow down or be disconnected",
            self.rate_per_second, self.burst
        )
    }
}

/// A token bucket with strikes: over the rate a message is refused; too many refusals within
/// the window close the connection.
pub(crate) struct Limiter {
    limit: RateLimit,
    tokens: f64,
    last: Instant,
    strikes: u32,
    first_strike: Instant,
}

impl Limiter {
    pub(crate) fn new(limit: RateLimit) -> Limiter {
        let now = Instant::now();
        Limiter { limit, tokens: f64::from(limit.burst), last: now, strikes: 0, first_strike: now }
    }

    /// Takes a token for one message; false when the connection is over its rate.
    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * f64::from(self.limit.rate_per_second);
        self.tokens = (self.tokens + refill).min(f64::from(self.limit.burst));
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Counts a refusal; true when the connection must close.
    pub(crate) fn strike(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.first_strike) > self.limit.strike_window {
            self.strikes = 0;
            self.first_strike = now;
        }
        self.strikes += 1;
        self.strikes >= self.limit.strikes_to_close
    }
}

/// The close frame that answers a receive error while the connection can still carry one
/// (RFC 6455 §7.4.1): a frame or message over the socket's hard size limit (tungstenite's
/// capacity error) 1009 with `too_long`; a text message that is not UTF-8 1007; a frame against
/// the protocol (unmasked, reserved bits or opcode, a fragmented or oversized control frame, a
/// stray continuation) 1002 with tungstenite's words for it. `None` when the connection itself
/// failed or was dropped without a close: nobody is left to tell.
pub(crate) fn close_for_read_error(error: &axum::Error, too_long: &str) -> Option<(u16, String)> {
    use tokio_tungstenite::tungstenite::error::{Error, ProtocolError};
    let error = std::error::Error::source(error)?.downcast_ref::<Error>()?;
    let (code, reason) = match error {
        Error::Capacity(_) => (1009, too_long.to_owned()),
        Error::Utf8(_) => (1007, "a text message must be UTF-8".to_owned()),
        Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => return None,
        Error::Protocol(fault) => (1002, format!("not the WebSocket protocol: {fault}")),
        _ => return None,
    };
    Some((code, clip_reason(reason)))
}

/// A close frame's reason holds at most 123 bytes of UTF-8 (RFC 6455 §5.5: a control frame's
/// payload is at most 125 bytes, two of them the code).
fn clip_reason(mut reason: String) -> String {
    if reason.len() > 123 {
        let end = (0..=123).rev().find(|&i| reason.is_char_boundary(i)).unwrap_or(0);
        reason.truncate(end);
    }
    reason
}

/// Resolves when the server starts shutting down (`AppState::shutdown` changes or its sender
/// is gone). A connection makes it once and waits on it in every turn of its loop: a watch's
/// `changed()` made afresh at each message registered and removed a waiter each time (about
/// 2 % of a room's CPU per move).
pub(crate) async fn shutting_down(mut shutdown: tokio::sync::watch::Receiver<bool>) {
    let _ = shutdown.changed().await;
}

/// Answers a client's close frame: the library queued the echo of its code when it read the
/// frame (RFC 6455 §5.5.1), and flushing sends it, so the client sees a clean close (1000)
/// instead of a dropped connection (1006). At most a second; errors ignored.
pub(crate) async fn answer_close(socket: &mut WebSocket) {
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), futures_util::SinkExt::flush(socket)).await;
}

/// Sends a close frame with `code` and `reason` (errors ignored: the connection ends anyway).
pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from(reason) };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Closes a connection after a frame the server could not read ([`close_for_read_error`]):
/// sends the close frame, then gives the client up to a second to read it before the
/// connection is dropped. The bytes of the frame the server stopped reading (a message over
/// the size limit) are still unread, and dropping a socket with unread bytes resets the
/// connection, which can take the close frame with it: a browser then saw 1006 and no reason
/// instead of 1009 and the limit. Waits for the client's answering close; when the socket can
/// no longer be read (the library ends the stream after its error), for the rest of the second.
pub(crate) async fn close_after_read_error(socket: &mut WebSocket, code: u16, reason: &str) {
    close(socket, code, reason).await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    let _ = tokio::time::timeout_at(deadline, async {
        loop {
            match futures_util::StreamExt::next(socket).await {
                Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
                None | Some(Err(_)) => return tokio::time::sleep_until(deadline).await,
            }
        }
    })
    .await;
}

/// A client message. A field its type does not have is refused (`malformed_json` naming it), as
/// in HTTP bodies; `Ping` is an empty struct variant because serde lets a unit variant of an
/// internally tagged enum ignore other fields.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Hello {
        #[serde(default)]
        version: Option<u64>,
    },
    Action {
        action: String,
        version: u64,
        #[serde(default)]
        seat: Option<String>,
    },
    Resign {
        #[serde(default)]
        seat: Option<String>,
    },
    Leave {
        #[serde(default)]
        seat: Option<String>,
    },
    Ping {},
}

/// `GET /api/games/{id}/ws`: checks the origin and the game, then upgrades.
///
/// # Errors
/// `bad_origin`, `unknown_game_id`.
pub async fn upgrade(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // A WebSocket another node forwarded had its origin checked there.
    if !state.forwarded(&headers) {
        state.origins.check_origin(&headers)?;
    }
    let slot = state.slot(&id).await?;
    // Up to the hard limit a message is read and, over `BODY_LIMIT`, refused with an answer;
    // over it tungstenite stops reading and the session closes with 1009.
    let hard = state.rooms.config.hard_message_bytes.max(BODY_LIMIT);
    Ok(ws
        .read_buffer_size(crate::limits::SOCKET_READ_BUFFER)
        .max_message_size(hard)
        .max_frame_size(hard)
        .on_upgrade(move |socket| session(state, slot, player, id, socket)))
}

fn current(slot: &Slot) -> u64 {
    *slot.changes.borrow()
}

async fn send(socket: &mut WebSocket, value: &Value) -> bool {
    socket.send(Message::Text(value.to_string().into())).await.is_ok()
}

async fn send_error(socket: &mut WebSocket, error: &ApiError, version: u64) -> bool {
    let version = error.version.unwrap_or(version);
    send(socket, &json!({"type": "error", "code": error.code, "message": error.message, "version": version})).await
}

/// What a client should get to reach the current version from `from` (`None`: a snapshot).
async fn catch_up(state: &AppState, slot: &Slot, player: &str, from: Option<u64>) -> (Value, u64) {
    let game = slot.game.lock().await;
    let version = game.version();
    let nicknames = state.nicknames();
    match from {
        Some(from) if from < version && version - from <= MAX_CATCH_UP => {
            (game.events_message(from, player, &nicknames), version)
        }
        _ => (json!({"type": "state", "state": game.state(player, &nicknames)}), version),
    }
}

async fn session(state: AppState, slot: Arc<Slot>, player: String, id: String, mut socket: WebSocket) {
    let mut changes = slot.changes.subscribe();
    let mut shutdown = std::pin::pin!(shutting_down(state.shutdown.clone()));
    let mut gone = slot.gone.subscribe();
    // Taken over between loading and the upgrade: the client reconnects to the new owner.
    if *gone.borrow_and_update() {
        close(&mut socket, 1012, "the game moved to another server node: reconnect").await;
        return;
    }
    // The version this client has been sent; `None` until `hello`.
    let mut sent: Option<u64> = None;
    let mut limiter = Limiter::new(state.rooms.config.rate_limit());
    tracing::debug!(game = %id, %player, "websocket open");
    loop {
        tokio::select! {
            message = socket.recv() => {
                let message = match message {
                    Some(Ok(message)) => message,
                    Some(Err(e)) => {
                        let too_long = format!(
                            "a message or frame over {} bytes closes the connection", state.rooms.config.hard_message_bytes.max(BODY_LIMIT));
                        if let Some((code, reason)) = close_for_read_error(&e, &too_long) {
                            close_after_read_error(&mut socket, code, &reason).await;
                        }
                        break;
                    }
                    None => break,
                };
                // Every frame a client sends counts, its WebSocket pings included.
                let refusal = match &message {
                    Message::Text(_) | Message::Binary(_) | Message::Ping(_) | Message::Pong(_) if !limiter.take() => {
                        Some(ApiError::bad_request("rate_limited", state.rooms.config.rate_limit().refusal()))
                    }
                    Message::Text(text) if text.len() > BODY_LIMIT => Some(ApiError::bad_request(
                        "message_too_large",
                        format!("a message has at most {BODY_LIMIT} bytes, this one has {}", text.len()),
                    )),
                    Message::Binary(_) => Some(ApiError::bad_request("malformed_json", "send JSON text frames, not binary ones")),
                    _ => None,
                };
                if let Some(error) = refusal {
                    if !send_error(&mut socket, &error, current(&slot)).await { break }
                    if limiter.strike() {
                        close(&mut socket, 1008, "too many refused messages (rate or size limit, binary frames)").await;
                        break;
                    }
                    continue;
                }
                let text = match message {
                    Message::Text(text) => text,
                    Message::Close(_) => {
                        answer_close(&mut socket).await;
                        break;
                    }
                    _ => continue,
                };
                let request = match crate::body::require_string_member(text.as_bytes(), "type").and_then(|()| crate::body::parse_message::<ClientMessage>(text.as_bytes())) {
                    Ok(request) => request,
                    Err(error) => {
                        if !send_error(&mut socket, &error, current(&slot)).await { break }
                        continue;
                    }
                };
                let result = match request {
                    ClientMessage::Hello { version } => {
                        let (message, version) = catch_up(&state, &slot, &player, version).await;
                        sent = Some(version);
                        if !send(&mut socket, &message).await { break }
                        continue;
                    }
                    ClientMessage::Ping {} => {
                        if !send(&mut socket, &json!({"type": "pong", "version": current(&slot)})).await { break }
                        continue;
                    }
                    _ if sent.is_none() => Err(ApiError::bad_request("hello_first", "send {\"type\": \"hello\", \"version\": n} first")),
                    ClientMessage::Action { action, version, seat } => {
                        let request = ActionRequest { action, version, seat };
                        let now = now_ms();
                        let who = player.clone();
                        App::command(&state, slot.clone(), player.clone(), move |game| game.play(&who, &request, now)).await
                    }
                    ClientMessage::Resign { seat } => {
                        end_game(state.clone(), player.clone(), id.clone(), EndReason::Resign, seat).await.map(|j| j.0)
                    }
                    ClientMessage::Leave { seat } => {
                        end_game(state.clone(), player.clone(), id.clone(), EndReason::Abandoned, seat).await.map(|j| j.0)
                    }
                };
                match result {
                    Ok(message) => {
                        let from = message["from"].as_u64().unwrap_or_default();
                        let to = message["to"].as_u64().unwrap_or_default();
                        if sent == Some(from) {
                            sent = Some(to);
                            if !send(&mut socket, &message).await { break }
                            // This connection has what it announced; catch up at once if more came.
                            let current = *changes.borrow_and_update();
                            if current > to {
                                let (message, version) = catch_up(&state, &slot, &player, sent).await;
                                sent = Some(version);
                                if !send(&mut socket, &message).await { break }
                            }
                        } else {
                            // Something else changed the game in between: catch up in order.
                            let (message, version) = catch_up(&state, &slot, &player, sent).await;
                            sent = Some(version);
                            if !send(&mut socket, &message).await { break }
                        }
                    }
                    Err(error) => {
                        if !send_error(&mut socket, &error, current(&slot)).await { break }
                    }
                }
            }
            changed = changes.changed(), if sent.is_some() => {
                if changed.is_err() { break }
                let current = *changes.borrow_and_update();
                if sent.is_some_and(|s| s < current) {
                    let (message, version) = catch_up(&state, &slot, &player, sent).await;
                    sent = Some(version);
                    if !send(&mut socket, &message).await { break }
                }
            }
            () = &mut shutdown => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            // Another node of the cluster took the game over: the client reconnects to it.
            changed = gone.changed() => {
                let moved = changed.is_ok() && *gone.borrow_and_update();
                if moved {
                    close(&mut socket, 1012, "the game moved to another server node: reconnect").await;
                    break;
                }
            }
        }
    }
    tracing::debug!(game = %id, %player, "websocket closed");
}
