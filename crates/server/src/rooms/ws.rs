//! A room's WebSocket (`GET /api/rooms/{code}/ws`): checks the origin, then relays messages
//! between the socket and the room's task, enforcing the per-connection size and rate limits.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::RoomConfig;
use super::protocol::ClientMessage;
use super::room::{Msg, Out, Shared};
use crate::app::AppState;
use crate::error::ApiError;
use crate::ws::{Limiter, close};

/// `GET /api/rooms/{code}/ws`.
///
/// # Errors
/// `bad_origin` (403), `unknown_room` (404).
pub async fn upgrade(
    State(state): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // A WebSocket another node forwarded had its origin checked there.
    if !state.forwarded(&headers) {
        state.origins.check_origin(&headers)?;
    }
    let (tx, shared) = state.rooms.open(&state, &code).await?;
    let crowd = shared.connections.load(Ordering::Relaxed);
    if crowd >= state.rooms.config.max_connections {
        return Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "room_crowded",
            format!("room {} already has {crowd} connections, its limit: try again later", madang_core::echo(&code)),
        ));
    }
    let config = state.rooms.config.clone();
    let conn = state.rooms.next_connection();
    Ok(ws
        .read_buffer_size(crate::limits::SOCKET_READ_BUFFER)
        .max_message_size(config.hard_message_bytes)
        .max_frame_size(config.hard_message_bytes)
        .on_upgrade(move |socket| session(state, tx, shared, config, conn, socket)))
}

/// An `error` answered by the session itself (before the room sees the message); `command` is
/// the message's `type` when it is a string, `id` its `id` when that is a valid one.
fn error_text(code: &str, message: &str, command: Option<&str>, id: Option<&Value>, shared: &Shared) -> Message {
    let version = shared.version.load(Ordering::Relaxed);
    // 0: no game; otherwise its version plus one (`Shared::game_version`).
    let game_version = shared.game_version.load(Ordering::Relaxed).checked_sub(1);
    Message::Text(
        json!({"type": "error", "code": code, "message": message, "status": 400, "command": command, "id": id,
               "version": version, "game_version": game_version})
        .to_string()
        .into(),
    )
}

/// Sends what the room has already queued for this connection (it answers within
/// milliseconds; 100 ms of quiet ends the wait).
async fn drain(socket: &mut WebSocket, outbox: &mut mpsc::Receiver<Out>) {
    while let Ok(Some(Out::Text(text))) =
        tokio::time::timeout(std::time::Duration::from_millis(100), outbox.recv()).await
    {
        if socket.send(Message::Text(text)).await.is_err() {
            return;
        }
    }
}

async fn session(
    state: AppState,
    tx: mpsc::Sender<Msg>,
    shared: Arc<Shared>,
    config: RoomConfig,
    conn: u64,
    mut socket: WebSocket,
) {
    let (out, mut outbox) = mpsc::channel(config.outbox);
    if tx.send(Msg::Connect { conn, out }).await.is_err() {
        close(&mut socket, 1001, "the room has closed").await;
        return;
    }
    let mut shutdown = std::pin::pin!(crate::ws::shutting_down(state.shutdown.clone()));
    let mut limiter = Limiter::new(config.rate_limit());
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                // `control`: a WebSocket ping or pong (the library answers pings), which counts
                // against the rate like any message and is otherwise ignored.
                let (text, binary, control) = match incoming {
                    Some(Ok(Message::Text(text))) => (text, false, false),
                    Some(Ok(Message::Binary(_))) => (Utf8Bytes::from_static(""), true, false),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => (Utf8Bytes::from_static(""), false, true),
                    Some(Err(e)) => {
                        // Over the hard limit 1009, not UTF-8 1007, against the protocol 1002.
                        if let Some((code, reason)) =
                            crate::ws::close_for_read_error(&e, "a message or frame over the hard size limit")
                        {
                            crate::ws::close_after_read_error(&mut socket, code, &reason).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Close(_))) => {
                        crate::ws::answer_close(&mut socket).await;
                        break;
                    }
                    None => break,
                };
                let refusal = if !limiter.take() {
                    Some(("rate_limited", config.rate_limit().refusal()))
                } else if text.len() > config.max_message_bytes {
                    Some(("message_too_large", format!(
                        "a message has at most {} bytes, this one has {}", config.max_message_bytes, text.len())))
                } else if binary {
                    Some(("malformed_json", "send JSON text frames, not binary ones".to_owned()))
                } else {
                    None
                };
                if let Some((code, message)) = refusal {
                    if socket.send(error_text(code, &message, None, None, &shared)).await.is_err() { break }
                    if limiter.strike() {
                        // Answers to the messages already accepted go out first: never silence.
                        drain(&mut socket, &mut outbox).await;
                        close(&mut socket, 1008, "too many refused messages (rate or size limit)").await;
                        break;
                    }
                    continue;
                }
                if control {
                    continue;
                }
                match crate::body::require_string_member(text.as_bytes(), "type").and_then(|()| crate::body::parse_message::<ClientMessage>(text.as_bytes())) {
                    Ok(message) => {
                        if tx.send(Msg::Incoming { conn, message }).await.is_err() {
                            close(&mut socket, 1001, "the room has closed").await;
                            break;
                        }
                    }
                    Err(error) => {
                        // A JSON object whose fields are wrong still gets its `type` and `id` back.
                        let object = serde_json::from_str::<Value>(&text).ok();
                        let member = |key| object.as_ref().and_then(|o| o.get(key));
                        let command = member("type").and_then(Value::as_str).map(|t| madang_core::echo(t).into_owned());
                        let id = super::room::valid_id(member("id"));
                        let mut message = error.message;
                        if message.contains("unknown field") {
                            message.push_str("; every message may also carry `id`, and a command `token`");
                        }
                        if socket.send(error_text(error.code, &message, command.as_deref(), id, &shared)).await.is_err() { break }
                    }
                }
            }
            out = outbox.recv() => match out {
                Some(Out::Text(text)) => {
                    if socket.send(Message::Text(text)).await.is_err() { break }
                }
                Some(Out::Close(code, reason)) => {
                    close(&mut socket, code, &reason).await;
                    break;
                }
                None => {
                    close(&mut socket, 1008, "too slow: reconnect and catch up").await;
                    break;
                }
            },
            () = &mut shutdown => {
                close(&mut socket, 1001, "the server is shutting down").await;
                break;
            }
        }
    }
    let _ = tx.send(Msg::Disconnect { conn }).await;
}
