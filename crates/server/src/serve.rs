//! Accepting connections: hyper's HTTP/1 server with a header-read timeout (which also closes
//! idle keep-alive connections), a limit on open connections below the process's file limit,
//! the peer's address in every request ([`axum::extract::ConnectInfo`]), and JSON bodies for
//! the refusals hyper writes by itself (a malformed request line, too many headers, a bad
//! `Content-Length`), which would otherwise have empty bodies.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::Service;

/// File descriptors kept for everything but client connections (the database and its WAL,
/// the rooms' writer, the listener, log files).
const RESERVED_FILES: u64 = 256;

/// The default connection limit: the process's soft file limit less `RESERVED_FILES`
/// (at least 64), so that `accept` never fails for want of a descriptor.
pub fn default_max_connections() -> usize {
    #[cfg(unix)]
    {
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        match limit.current {
            Some(files) => usize::try_from(files.saturating_sub(RESERVED_FILES).max(64)).unwrap_or(usize::MAX),
            // No limit: as many as a 2-core server can hold usefully.
            None => 16_384,
        }
    }
    #[cfg(not(unix))]
    1024
}

/// How connections are served.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A connection must send a complete request head within this long of opening, and of
    /// its previous answer (so an idle keep-alive connection closes after it too).
    pub header_read_timeout: Duration,
    /// Open connections at most (WebSockets included); further clients wait in the listen
    /// backlog until one closes.
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits { header_read_timeout: Duration::from_secs(10), max_connections: default_max_connections() }
    }
}

/// Serves `router` on `listener` until `stop` turns true, then stops accepting, asks every
/// connection to finish its current request, and waits for them.
pub async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits, mut stop: watch::Receiver<bool>) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let (closed_tx, closed_rx) = watch::channel(());
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = until_stopped(&mut stop) => break,
        };
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // A transient failure (the peer reset before accept, or descriptors out
                    // for another reason): wait a little rather than spin.
                    tracing::warn!(%error, "accept error");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = until_stopped(&mut stop) => break,
        };
        // Small messages go out at once: with Nagle's algorithm a WebSocket that only
        // receives (the player not moving) holds each event until the previous one is
        // acknowledged, and delayed ACKs make that tens of milliseconds.
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "setting TCP_NODELAY failed");
        }
        let router = router.clone();
        let timeout = limits.header_read_timeout;
        let mut stop = stop.clone();
        let closed = closed_rx.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                let mut router = router.clone();
                async move { router.call(request.map(axum::body::Body::new)).await }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(timeout);
            let connection =
                builder.serve_connection(TokioIo::new(JsonRefusals::new(tcp, Some(permit))), service).with_upgrades();
            let mut connection = std::pin::pin!(connection);
            let mut stopping = false;
            loop {
                tokio::select! {
                    result = connection.as_mut() => {
                        if let Err(error) = result {
                            tracing::trace!(%error, "connection ended with an error");
                        }
                        break;
                    }
                    () = until_stopped(&mut stop), if !stopping => {
                        stopping = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(closed);
        });
    }
    drop(closed_rx);
    drop(listener);
    closed_tx.closed().await;
}

/// A connection's transport that rewrites the answers hyper writes by itself for a request it
/// cannot parse (`400`, `414`, `431` with an empty body) into the JSON error body every other
/// answer has (`docs/api.md`, "Errors"). The application never sends a 4xx without a body (a
/// middleware turns every error into JSON), so a short `HTTP/1.1 4xx` head with
/// `content-length: 0` can only be one of hyper's; after a `101` (a WebSocket) nothing is
/// looked at any more.
///
/// It also holds the connection's place in the connection limit: a WebSocket keeps the
/// transport after hyper has handed it over, so it counts until the socket closes.
pub struct JsonRefusals<T> {
    inner: T,
    _permit: Option<OwnedSemaphorePermit>,
    /// Bytes of a rewritten answer still to write.
    pending: Vec<u8>,
    written: usize,
    upgraded: bool,
}

impl<T> JsonRefusals<T> {
    /// Wraps a transport, holding `permit` (its place in the connection limit) until dropped.
    pub fn new(inner: T, permit: Option<OwnedSemaphorePermit>) -> Self {
        JsonRefusals { inner, _permit: permit, pending: Vec::new(), written: 0, upgraded: false }
    }
}

/// The JSON answer replacing hyper's own refusal `head`, if it is one.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    if head.len() > 512 || !head.starts_with(b"HTTP/1.1 4") || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    if !text.to_ascii_lowercase().contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let status: u16 = text.get(9..12)?.parse().ok()?;
    let (code, message) = match status {
        414 => ("uri_too_long", "the request's path is too long"),
        431 => ("headers_too_large", "the request has too many headers or they are too large (at most 100)"),
        _ => (
            "bad_request",
            "the request could not be read as HTTP/1.1 (its request line, a header or Content-Length is malformed)",
        ),
    };
    let reason = text.lines().next().and_then(|line| line.get(13..)).unwrap_or("Bad Request");
    let body = serde_json::json!({"error": {"code": code, "message": message}}).to_string();
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncWrite + Unpin> JsonRefusals<T> {
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonRefusals<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if !self.upgraded {
            if buf.starts_with(b"HTTP/1.1 101") {
                self.upgraded = true;
            } else if let Some(answer) = rewrite(buf) {
                // The rewritten answer stands for hyper's bytes: written in full before any more.
                self.pending = answer;
                self.written = 0;
                let _ = self.poll_pending(cx)?;
                return Poll::Ready(Ok(buf.len()));
            }
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Resolves once `stop` is true (the guard it reads with is dropped before returning, so the
/// future is `Send`).
pub(crate) async fn until_stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await.map(|_| ());
}

/// The peer's address of a request (`ConnectInfo`), when served by [`serve`].
pub fn peer(request: &axum::extract::Request) -> Option<SocketAddr> {
    request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0)
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn hyper_refusals_become_json_and_other_answers_pass() {
        let answer = rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n").expect("a refusal");
        let text = String::from_utf8(answer).expect("utf-8");
        assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"), "{text}");
        let body = text.split("\r\n\r\n").nth(1).expect("a body");
        let value: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert_eq!(value["error"]["code"], "bad_request");
        assert!(text.contains(&format!("content-length: {}\r\n", body.len())));
        let big = rewrite(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n").expect("431");
        assert!(String::from_utf8(big).expect("utf-8").contains("headers_too_large"));
        // An answer with a body, a success, a WebSocket upgrade: untouched.
        assert!(rewrite(b"HTTP/1.1 404 Not Found\r\ncontent-length: 80\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n").is_none());
    }
}
