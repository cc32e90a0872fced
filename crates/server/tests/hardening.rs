//! Issue 19, "Hardening the server": each way found to hurt the server from outside, tried
//! again against a real server on 127.0.0.1 (SQLite). The numbers asserted are the documented
//! limits (`docs/server.md`, "Limits") or the limits a test sets itself.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod common;

use std::time::{Duration, Instant};

use common::{Client, TempDir, TestServer, assert_refused};
use futures_util::{SinkExt, StreamExt};
use madang_server::rooms::RoomConfig;
use madang_server::{Config, Limits, Quotas, Synchronous};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn config(dir: &TempDir, limits: Limits) -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.0.clone(),
        database: None,
        allow_fixed_seed: false,
        synchronous: Synchronous::Normal,
        public_url: None,
        rooms: RoomConfig::default(),
        limits,
        files: Some(common::files),
        cluster: None,
    }
}

fn no_quotas() -> Limits {
    Limits { quotas: Quotas::off(), ..Limits::default() }
}

async fn create_room(client: &mut Client) -> (String, String) {
    let (status, created) = client.post("/api/rooms", json!({"game": "ur"})).await;
    assert_eq!(status, 201, "{created}");
    (created["code"].as_str().unwrap().to_owned(), created["token"].as_str().unwrap().to_owned())
}

async fn room_socket(server: &TestServer, code: &str, headers: &[(&str, &str)]) -> Result<Stream, u16> {
    let mut request = format!("ws://{}/api/rooms/{code}/ws", server.addr).into_client_request().unwrap();
    for (name, value) in headers {
        let name = tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap();
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((stream, _)) => Ok(stream),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(e) => panic!("connecting: {e}"),
    }
}

async fn send(stream: &mut Stream, value: Value) {
    stream.send(Message::Text(value.to_string().into())).await.unwrap();
}

/// The next text message as JSON, `None` once the server has closed the socket.
async fn next_text(stream: &mut Stream) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.next()).await.expect("a message within 10 s") {
            Some(Ok(Message::Text(text))) => return Some(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Lets the tasks woken by the clock run (on this current-thread runtime).
async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

// ------------------------------------------------------------------------- 1. idle rooms

/// An empty room's task sleeps until the room closes: no host to hand over to, nobody
/// connected (a room nobody ever joined, one whose host left, one with only a spectator), so
/// the timer has nothing to do before the idle close at 30 minutes, and wakes once then.
#[tokio::test(flavor = "current_thread")]
async fn an_empty_room_sleeps_until_it_closes_at_the_idle_time() {
    let dir = TempDir::new("idle-rooms");
    let server = TestServer::start_config(config(&dir, no_quotas())).await;
    let mut host = server.client();
    let (never, _) = create_room(&mut host).await;
    let (left, token) = create_room(&mut host).await;
    let (watched, _) = create_room(&mut host).await;
    {
        let mut socket = room_socket(&server, &left, &[]).await.unwrap();
        send(&mut socket, json!({"type": "hello", "token": token})).await;
        assert_eq!(next_text(&mut socket).await.unwrap()["type"], "welcome");
        socket.close(None).await.unwrap();
    }
    let mut spectator = room_socket(&server, &watched, &[]).await.unwrap();
    send(&mut spectator, json!({"type": "hello"})).await;
    assert_eq!(next_text(&mut spectator).await.unwrap()["spectator"], true);
    let _snapshot = next_text(&mut spectator).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    // From here the clock only moves when told (or when every task waits for it).
    tokio::time::pause();
    let start = tokio::time::Instant::now();
    let idle_close = RoomConfig::default().idle_close;
    assert_eq!(idle_close, Duration::from_secs(30 * 60));
    // Well past the grace period (30 s), short of the idle close.
    while start.elapsed() < idle_close - Duration::from_secs(120) {
        tokio::time::advance(Duration::from_secs(1)).await;
        settle().await;
    }
    for code in [&never, &left, &watched] {
        assert_eq!(server.probe.room_timer_wakes(code), Some(0), "room {code} woke with nothing to do");
    }
    // Past the idle close in one step, then the real clock again: closing writes to the
    // database, whose pool times out on the runtime's clock.
    tokio::time::advance(idle_close + Duration::from_secs(120) - start.elapsed()).await;
    settle().await;
    tokio::time::resume();
    // Closed (lobbies close for good), the spectator told so.
    for code in [&never, &left, &watched] {
        for _ in 0..250 {
            if server.probe.room_timer_wakes(code).is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(server.probe.room_timer_wakes(code), None, "room {code} is still in memory");
        let answer = host.get(&format!("/api/rooms/{code}")).await;
        assert_refused(&answer, 404, "unknown_room", code);
    }
    assert!(next_text(&mut spectator).await.is_none(), "the spectator's socket is closed");
    server.stop().await;
}

// ------------------------------------------------------------------------- 2. the WAL

/// Under a steady load of writes the WAL file stays near its limit: games against the
/// computer played as fast as the server answers, the WAL's size sampled all along.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_stays_bounded_under_a_steady_load() {
    const LIMIT: u64 = 512 * 1024;
    let dir = TempDir::new("wal");
    let limits = Limits { wal_max_bytes: LIMIT, ..no_quotas() };
    let server = TestServer::start_config(config(&dir, limits)).await;
    let wal = dir.0.join("madang.db-wal");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let actions = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut players = Vec::new();
    for _ in 0..6 {
        let mut client = server.client();
        let stop = stop.clone();
        let actions = actions.clone();
        players.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut state = client
                    .create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]}))
                    .await;
                while state["status"] == "ongoing" && !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    state = client.play_first(&state).await["state"].clone();
                    actions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }));
    }
    // Bounded by the amount written, not by time (a busy machine writes more slowly): until the
    // database has grown to 4 limits (every byte of it went through the WAL), at most 60 s.
    let started = Instant::now();
    let mut largest = 0;
    let db_file = dir.0.join("madang.db");
    while started.elapsed() < Duration::from_secs(60) && std::fs::metadata(&db_file).map_or(0, |m| m.len()) <= 4 * LIMIT
    {
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for player in players {
        player.await.unwrap();
    }
    let done = actions.load(std::sync::atomic::Ordering::Relaxed);
    let db = std::fs::metadata(dir.0.join("madang.db")).unwrap().len();
    eprintln!("{done} actions; WAL at most {largest} bytes (limit {LIMIT}); database {db} bytes");
    // The load wrote far more than the limit: several times the limit went through the WAL.
    assert!(db > 4 * LIMIT, "the load was too light to test anything in 60 s: database {db} bytes");
    // The background checkpoint starts the WAL over once it holds more than the limit, and a
    // writer finding the file over two limits empties it first: the file passes two limits by
    // what is written in a few transactions (a margin of one limit), never by the whole load.
    assert!(largest <= 3 * LIMIT, "the WAL reached {largest} bytes, limit {LIMIT}");
    server.stop().await;
}

// ------------------------------------------------------------------------- 3. slow sockets

/// Sockets that send half a request head, or nothing, or that stay idle after an answer are
/// closed after the header-read timeout; while the connection limit is held by them, a new
/// client waits and is served once they are gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_sockets_are_closed_and_the_connection_limit_holds() {
    let dir = TempDir::new("slow");
    let mut limits = no_quotas();
    limits.connections.header_read_timeout = Duration::from_millis(800);
    limits.connections.max_connections = 12;
    let server = TestServer::start_config(config(&dir, limits)).await;
    let opened = Instant::now();
    let mut slow = Vec::new();
    for i in 0..12 {
        let mut socket = TcpStream::connect(server.addr).await.unwrap();
        match i % 3 {
            0 => socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ").await.unwrap(),
            1 => {}
            _ => {
                // A whole request, answered; then the socket stays open and says nothing.
                socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await.unwrap();
                let mut buf = [0u8; 1024];
                let n = socket.read(&mut buf).await.unwrap();
                assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
            }
        }
        slow.push(socket);
    }
    // Every place is taken: a thirteenth client is answered only once slow sockets are closed.
    let health = reqwest::get(format!("{}/api/health", server.base)).await.unwrap();
    assert_eq!(health.status(), 200);
    let waited = opened.elapsed();
    assert!(waited >= Duration::from_millis(700), "answered after {waited:?}, before any slow socket was closed");
    // Each slow socket is closed by the server (end of stream), within the timeout and a margin.
    for mut socket in slow {
        let mut buf = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut buf)).await;
        assert!(read.is_ok(), "a slow socket is still open after {:?}", opened.elapsed());
    }
    server.stop().await;
}

// ------------------------------------------------------------------------- 4. quotas

async fn players_stored(dir: &TempDir) -> i64 {
    let url = format!("sqlite://{}", dir.0.join("madang.db").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let count = sqlx::query_scalar("SELECT COUNT(*) FROM players").fetch_one(&pool).await.unwrap();
    pool.close().await;
    count
}

/// Looking stores nobody; what one client creates is limited by the documented quotas: 30 new
/// players an hour per address, 120 games and 30 rooms an hour per player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_are_stored_only_when_needed_and_quotas_limit_one_client() {
    let dir = TempDir::new("quotas");
    let server = TestServer::start_config(config(&dir, Limits::default())).await;
    for _ in 0..50 {
        let (status, me) = server.client().get("/api/me").await;
        assert_eq!((status, me["created"].is_null()), (200, true), "{me}");
        let bad = server.client().post_raw("/api/games", "{\"game\": ").await;
        assert_eq!(bad.0, 400);
    }
    assert_eq!(players_stored(&dir).await, 0, "cookieless looks and malformed requests store no player");

    // New guests from one address: 30 an hour.
    for i in 0..30 {
        let (status, body) = server.client().post("/api/games", json!({"game": "ur"})).await;
        assert_eq!(status, 201, "guest {i}: {body}");
    }
    assert_eq!(players_stored(&dir).await, 30);
    let refused = server.client().post("/api/games", json!({"game": "ur"})).await;
    assert_refused(&refused, 429, "quota", "30 new players an hour per address");
    assert_eq!(players_stored(&dir).await, 30);

    server.stop().await;

    // One player's games and rooms: 120 and 30 an hour (a server of its own: a fresh address).
    let dir = TempDir::new("quotas-games");
    let server = TestServer::start_config(config(&dir, Limits::default())).await;
    let mut player = server.client();
    for i in 0..120 {
        let (status, body) = player.post("/api/games", json!({"game": "ur"})).await;
        assert_eq!(status, 201, "game {i}: {body}");
    }
    let refused = player.post("/api/games", json!({"game": "ur"})).await;
    assert_refused(&refused, 429, "quota", "120 games an hour per player");
    for i in 0..30 {
        let (status, body) = player.post("/api/rooms", json!({"game": "ur"})).await;
        assert_eq!(status, 201, "room {i}: {body}");
    }
    let refused = player.post("/api/rooms", json!({"game": "ur"})).await;
    assert_refused(&refused, 429, "quota", "30 rooms an hour per player");
    assert_eq!(players_stored(&dir).await, 1);
    server.stop().await;
}

/// A game nobody uses leaves memory after the idle time and comes back unchanged on its next
/// use; an open WebSocket keeps it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_reload_on_demand() {
    let dir = TempDir::new("evict");
    let limits = Limits { game_idle: Duration::from_millis(400), ..no_quotas() };
    let server = TestServer::start_config(config(&dir, limits)).await;
    let mut client = server.client();
    let state =
        client.create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]})).await;
    let state = client.play_first(&state).await["state"].clone();
    let watched = client.create(json!({"game": "ur"})).await;
    let mut socket = common::Ws::connect(&server, &client, watched["id"].as_str().unwrap()).await;
    socket.send(json!({"type": "hello", "version": watched["version"]})).await;
    assert_eq!(socket.recv().await["type"], "state");
    assert_eq!(server.probe.games_in_memory(), 2);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(server.probe.games_in_memory(), 1, "the idle game left, the watched one stayed");
    let id = state["id"].as_str().unwrap();
    let reloaded = client.state(id).await;
    assert_eq!(server.probe.games_in_memory(), 2);
    for key in ["version", "legal", "pieces", "moves", "status"] {
        assert_eq!(reloaded[key], state[key], "{key}");
    }
    let next = client.play_first(&reloaded).await;
    assert_eq!(next["from"], state["version"]);
    server.stop().await;
}

// ------------------------------------------------------------------------- 5. cross-site requests

/// With the player's cookie, a state-changing request from another origin, or with a body
/// that is not JSON, is refused and changes nothing; from the server's own origin it works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_and_non_json_bodies_change_nothing() {
    let dir = TempDir::new("csrf");
    let server = TestServer::start_config(config(&dir, no_quotas())).await;
    let mut victim = server.client();
    let state =
        victim.create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]})).await;
    let id = state["id"].as_str().unwrap().to_owned();
    let cookie = victim.cookie.clone().unwrap();
    let http = reqwest::Client::new();
    let action = json!({"action": state["moves"][0]["action"], "version": state["version"]}).to_string();
    let attempts = [
        ("/api/games".to_owned(), r#"{"game": "ur"}"#.to_owned()),
        (format!("/api/games/{id}/actions"), action.clone()),
        (format!("/api/games/{id}/resign"), "{}".to_owned()),
        ("/api/rooms".to_owned(), r#"{"game": "ur"}"#.to_owned()),
    ];
    let own = format!("http://{}", server.addr);
    for (path, body) in &attempts {
        for (origin, content_type, status, code) in [
            ("http://evil.example", "application/json", 403, "bad_origin"),
            ("http://evil.example", "text/plain", 403, "bad_origin"),
            (own.as_str(), "text/plain", 415, "unsupported_media_type"),
            (own.as_str(), "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ] {
            let response = http
                .post(format!("{}{path}", server.base))
                .header("cookie", &cookie)
                .header("origin", origin)
                .header("content-type", content_type)
                .body(body.clone())
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), status, "{path} from {origin} as {content_type}");
            let answer: Value = response.json().await.unwrap();
            assert_eq!(answer["error"]["code"], code, "{answer}");
        }
    }
    let (_, history) = victim.get("/api/history").await;
    assert_eq!(history["games"].as_array().unwrap().len(), 1, "no game was created");
    assert_eq!(victim.state(&id).await["version"], state["version"], "no action, no resignation");
    // From the server's own origin, as JSON, it works.
    let response = http
        .post(format!("{}/api/games/{id}/actions", server.base))
        .header("cookie", &cookie)
        .header("origin", &own)
        .header("content-type", "application/json; charset=utf-8")
        .body(action)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    server.stop().await;
}

// ------------------------------------------------------------------------- 6. Origin and Host

/// A WebSocket's Origin must be the server's own scheme, host and port; a Host that is not
/// the server's (DNS rebinding) is refused even with a matching Origin; invite links never
/// repeat a foreign Host.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn origins_must_match_exactly_and_foreign_hosts_are_refused() {
    let dir = TempDir::new("hosts");
    let server = TestServer::start_config(config(&dir, no_quotas())).await;
    let mut host = server.client();
    let (code, _) = create_room(&mut host).await;
    let addr = server.addr.to_string();
    for origin in [format!("https://{addr}"), format!("ws://{addr}"), addr.clone(), "null".to_owned()] {
        assert_eq!(room_socket(&server, &code, &[("origin", &origin)]).await.err(), Some(403), "{origin}");
    }
    assert!(room_socket(&server, &code, &[("origin", &format!("http://{addr}"))]).await.is_ok());
    let rebound = room_socket(&server, &code, &[("host", "evil.com"), ("origin", "http://evil.com")]).await;
    assert_eq!(rebound.err(), Some(403), "DNS rebinding: a foreign Host");
    // The Host header is not copied into invite links.
    let response = reqwest::Client::new()
        .post(format!("{}/api/rooms", server.base))
        .header("host", "evil.example/x?")
        .header("content-type", "application/json")
        .header("cookie", host.cookie.clone().unwrap())
        .body(r#"{"game": "ur"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["error"]["code"], "bad_host", "{answer}");
    let (_, shown) = host.get(&format!("/api/rooms/{code}")).await;
    assert_eq!(shown["link"], format!("http://{addr}/#/room/{code}"));
    server.stop().await;
}

// ------------------------------------------------------------------------- 7. smaller things

/// Behind an `https` public URL the cookie is `Secure` and links use the URL; every answer
/// has `nosniff`, `no-referrer` and a Content-Security-Policy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cookies_are_secure_behind_https_and_every_answer_has_the_security_headers() {
    let dir = TempDir::new("headers");
    let mut config = config(&dir, no_quotas());
    config.public_url = Some("https://madang.example.org".to_owned());
    let server = TestServer::start_config(config).await;
    let http = reqwest::Client::new();
    let response = http
        .post(format!("{}/api/rooms", server.base))
        .header("content-type", "application/json")
        .body(r#"{"game": "ur"}"#)
        .send()
        .await
        .unwrap();
    let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("Secure") && cookie.contains("HttpOnly"), "{cookie}");
    let created: Value = response.json().await.unwrap();
    assert!(created["link"].as_str().unwrap().starts_with("https://madang.example.org/#/room/"), "{created}");
    for path in ["/api/health", "/api/me", "/api/nothing", "/"] {
        let response = http.get(format!("{}{path}", server.base)).send().await.unwrap();
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert!(headers.contains_key("content-security-policy"), "{path}");
    }
    server.stop().await;
}

/// Sends raw bytes and returns the status and the JSON body of the answer.
async fn raw(server: &TestServer, request: &[u8]) -> (u16, Value) {
    let mut socket = TcpStream::connect(server.addr).await.unwrap();
    socket.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut buf)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status: {text:?}"));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no head: {text:?}"));
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}")))
}

/// What the HTTP library refuses by itself is answered in JSON like every other error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_the_http_library_refuses_get_json_errors() {
    let dir = TempDir::new("garbage");
    let server = TestServer::start_config(config(&dir, no_quotas())).await;
    let (status, body) = raw(&server, b"GARBAGE GARBAGE GARBAGE\r\n\r\n").await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    let mut many = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_vec();
    for i in 0..1000 {
        many.extend_from_slice(format!("X-{i}: y\r\n").as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    let (status, body) = raw(&server, &many).await;
    assert_eq!((status, body["error"]["code"].as_str()), (431, Some("headers_too_large")), "{body}");
    let (status, body) =
        raw(&server, b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n").await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    // Exactly one Host (RFC 9112): none, or a second one after an allowed one, is refused, and
    // a Host that is not text is not an allowed host.
    for (request, status_code, code, words) in [
        (&b"GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n"[..], 400, "bad_request", "has none"),
        (
            b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.com\r\nConnection: close\r\n\r\n",
            400,
            "bad_request",
            "has several",
        ),
        (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\xff\r\nConnection: close\r\n\r\n", 403, "bad_host", "host"),
        // At most one Origin: the server's own first and another after it is refused.
        (
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
            400,
            "bad_request",
            "at most one Origin header; this one has several",
        ),
        // A body without a Content-Type is said to have none.
        (
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
            415,
            "unsupported_media_type",
            "application/json, this one has no Content-Type",
        ),
    ] {
        let (status, body) = raw(&server, request).await;
        assert_eq!((status, body["error"]["code"].as_str()), (status_code, Some(code)), "{body}");
        assert!(body["error"]["message"].as_str().unwrap_or_default().contains(words), "{body}");
    }
    let (status, _) = raw(&server, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await;
    assert_eq!(status, 200);
    // A body whose chunks cannot be read is HTTP's fault, not JSON's.
    let (status, body) = raw(
        &server,
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    )
    .await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap_or_default().contains("could not be read"), "{body}");
    server.stop().await;
}

/// WebSocket pings count against the message rate (40 in a burst, then 20 refusals close the
/// socket); a room takes a limited number of sockets; chat refuses direction overrides and
/// invisible characters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pings_are_rate_limited_sockets_per_room_are_capped_and_chat_refuses_invisible_text() {
    let dir = TempDir::new("small");
    let mut config = config(&dir, no_quotas());
    config.rooms.max_connections = 3;
    let server = TestServer::start_config(config).await;
    let mut host = server.client();
    let (code, token) = create_room(&mut host).await;
    let mut player = room_socket(&server, &code, &[]).await.unwrap();
    send(&mut player, json!({"type": "hello", "token": token})).await;
    assert_eq!(next_text(&mut player).await.unwrap()["type"], "welcome");
    let _snapshot = next_text(&mut player).await.unwrap();
    for (text, ok) in [
        ("hi \u{202E}olleh", false),
        ("zero\u{200B}width", false),
        ("\u{2066}isolate\u{2069}", false),
        ("\u{200D}leading joiner", false),
        ("\u{3164}", false),
        ("family 👨\u{200D}👩\u{200D}👧", true),
        ("می\u{200C}خواهم", true),
    ] {
        send(&mut player, json!({"type": "chat", "text": text, "token": token})).await;
        let answer = next_text(&mut player).await.unwrap();
        if ok {
            assert_eq!(answer["type"], "events", "{text:?}: {answer}");
        } else {
            assert_eq!(
                (answer["type"].as_str(), answer["code"].as_str()),
                (Some("error"), Some("bad_chat")),
                "{text:?}"
            );
        }
    }
    // Two more sockets fill the room's three; a fourth is refused.
    let _a = room_socket(&server, &code, &[]).await.unwrap();
    let _b = room_socket(&server, &code, &[]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(room_socket(&server, &code, &[]).await.err(), Some(503));
    // Pings: the burst of 40 passes, then each is refused; the 20th refusal closes.
    for _ in 0..(40 + 20) {
        if player.send(Message::Ping(vec![1, 2, 3].into())).await.is_err() {
            break;
        }
    }
    let mut refusals = 0;
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(10), player.next()).await.expect("an answer") {
            Some(Ok(Message::Text(text))) => {
                let answer: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(answer["code"], "rate_limited", "{answer}");
                refusals += 1;
            }
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break None,
        }
    };
    assert_eq!((refusals, closed), (20, Some(1008)));
    // A game's socket likewise.
    let state = host.create(json!({"game": "ur"})).await;
    let mut game = common::Ws::connect(&server, &host, state["id"].as_str().unwrap()).await;
    for _ in 0..(40 + 20) {
        if game.stream.send(Message::Ping(vec![1].into())).await.is_err() {
            break;
        }
    }
    let (answers, frame) = game.answers_until_close().await;
    assert_eq!(answers.len(), 20);
    assert!(answers.iter().all(|a| a["code"] == "rate_limited"));
    assert_eq!(u16::from(frame.code), 1008);
    server.stop().await;
}
