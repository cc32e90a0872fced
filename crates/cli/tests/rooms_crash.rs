//! Online rooms survive `madang serve` killed with SIGKILL: the real binary on a temporary data
//! directory; two players create and join an Ur room over HTTP, play over WebSockets; the
//! server is killed (once between moves, once right after a move was sent), restarted on the
//! same directory, and both players reconnect with their stored tokens and finish the game.
//! The rebuilt room must be the room before the kill (every acknowledged move kept).

#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

#[path = "common/serve.rs"]
mod serve;
use serve::Serve;

type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player: cookie, seat, token, and a WebSocket that keeps the room as applied.
struct Player {
    http: reqwest::Client,
    base: String,
    cookie: Option<String>,
    seat: String,
    token: String,
    ws: Option<Stream>,
    version: u64,
    room: Value,
    /// When this connection may send again: the server allows 20 messages a second
    /// (docs/api.md, "Limits and timings"), and a whole game takes more than its burst of 40.
    next_send: tokio::time::Instant,
}

/// The gap between two messages of one connection that keeps it within the rate limit.
const SEND_GAP: Duration = Duration::from_millis(50);

impl Player {
    fn new(base: &str) -> Player {
        Player {
            http: reqwest::Client::new(),
            base: base.to_owned(),
            cookie: None,
            seat: String::new(),
            token: String::new(),
            ws: None,
            version: 0,
            room: Value::Null,
            next_send: tokio::time::Instant::now(),
        }
    }

    async fn call(&mut self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let response = request.send().await.unwrap();
        if let Some(set) = response.headers().get("set-cookie") {
            self.cookie = Some(set.to_str().unwrap().split(';').next().unwrap().to_owned());
        }
        let status = response.status().as_u16();
        (status, response.json().await.unwrap())
    }

    async fn room(&mut self, code: &str) -> Value {
        let (status, body) = self.call(reqwest::Method::GET, &format!("/api/rooms/{code}"), None).await;
        assert_eq!(status, 200, "{body}");
        body["room"].clone()
    }

    /// Opens the WebSocket and says hello with the token and the last version applied;
    /// returns the catch-up's type.
    async fn connect(&mut self, code: &str) -> String {
        let url = format!("{}/api/rooms/{code}/ws", self.base.replace("http://", "ws://"));
        let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        self.ws = Some(stream);
        let version = (self.version > 0).then_some(self.version);
        self.send(json!({"type": "hello", "token": self.token, "version": version})).await;
        let welcome = self.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        assert_eq!(welcome["seat"], self.seat.as_str(), "the stored token still holds the seat: {welcome}");
        let catch_up = self.recv().await;
        catch_up["type"].as_str().unwrap().to_owned()
    }

    async fn send(&mut self, value: Value) {
        tokio::time::sleep_until(self.next_send).await;
        self.next_send = tokio::time::Instant::now() + SEND_GAP;
        self.ws.as_mut().unwrap().send(Message::Text(value.to_string().into())).await.unwrap();
    }

    /// The next message, applied when it is `events` or `snapshot`.
    async fn recv(&mut self) -> Value {
        loop {
            let next = tokio::time::timeout(Duration::from_secs(10), self.ws.as_mut().unwrap().next())
                .await
                .expect("a message within 10 s");
            let Some(Ok(Message::Text(text))) = next else { continue };
            let message: Value = serde_json::from_str(&text).unwrap();
            match message["type"].as_str().unwrap() {
                "snapshot" => {
                    self.room = message["room"].clone();
                    self.version = self.room["version"].as_u64().unwrap();
                }
                "events" => {
                    assert_eq!(message["from"].as_u64().unwrap(), self.version, "{message}");
                    self.room = message["room"].clone();
                    self.version = message["to"].as_u64().unwrap();
                }
                "error" => panic!("refused: {message}"),
                _ => {}
            }
            return message;
        }
    }

    async fn catch_up(&mut self, version: u64) {
        while self.version < version {
            self.recv().await;
        }
    }
}

/// Brings both views to the server's and checks them; returns the room.
async fn sync(players: &mut [Player], code: &str) -> Value {
    let room = players[0].room(code).await;
    for p in players.iter_mut() {
        p.catch_up(room["version"].as_u64().unwrap()).await;
        assert_eq!(p.room, room, "{}'s view differs from the server's", p.seat);
    }
    room
}

/// The mover's first legal move; waits for its `events` unless `wait` is false.
async fn play(players: &mut [Player], code: &str, wait: bool) -> Value {
    let room = sync(players, code).await;
    let state = &room["state"];
    let mover = players.iter_mut().find(|p| p.seat == state["to_act"].as_str().unwrap()).unwrap();
    let token = mover.token.clone();
    mover
        .send(
            json!({"type": "move", "action": state["moves"][0]["action"], "version": state["version"], "token": token}),
        )
        .await;
    if wait {
        let before = mover.version;
        mover.catch_up(before + 1).await;
    }
    room
}

/// The snapshot without what a restart changes (the version jumps; nobody is connected).
fn durable(room: &Value) -> Value {
    let mut room = room.clone();
    room["version"] = Value::Null;
    for seat in room["seats"].as_array_mut().unwrap() {
        seat["connected"] = Value::Null;
        seat["away_since"] = Value::Null;
    }
    room
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("madang-rooms-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn restart(dir: &Path, server: Serve, players: &mut [Player]) -> Serve {
    server.kill();
    let server = Serve::start(dir);
    for p in players.iter_mut() {
        p.base = server.base.clone();
        p.ws = None;
    }
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_survive_sigkill_and_their_game_is_finished() {
    let dir = temp_dir();
    let mut server = Serve::start(&dir);
    let mut players = vec![Player::new(&server.base), Player::new(&server.base)];
    let (status, created) =
        players[0].call(reqwest::Method::POST, "/api/rooms", Some(json!({"game": "ur", "rules": {"pieces": 3}}))).await;
    assert_eq!(status, 201, "{created}");
    let code = created["code"].as_str().unwrap().to_owned();
    players[0].seat = created["seat"].as_str().unwrap().to_owned();
    players[0].token = created["token"].as_str().unwrap().to_owned();
    let (status, joined) =
        players[1].call(reqwest::Method::POST, &format!("/api/rooms/{code}/join"), Some(json!({}))).await;
    assert_eq!(status, 200, "{joined}");
    players[1].seat = joined["seat"].as_str().unwrap().to_owned();
    players[1].token = joined["token"].as_str().unwrap().to_owned();
    for p in &mut players {
        p.connect(&code).await;
    }
    let token = players[1].token.clone();
    players[1].send(json!({"type": "ready", "token": token})).await;
    sync(&mut players, &code).await;
    let token = players[0].token.clone();
    players[0].send(json!({"type": "start", "token": token})).await;
    sync(&mut players, &code).await;
    for _ in 0..10 {
        play(&mut players, &code, true).await;
    }
    // Killed between moves: the rebuilt room is the room every client last saw.
    let before = sync(&mut players, &code).await;
    assert_eq!(before["status"], "playing");
    server = restart(&dir, server, &mut players).await;
    let after = players[0].room(&code).await;
    assert_eq!(durable(&after), durable(&before));
    assert!(after["version"].as_u64().unwrap() > before["version"].as_u64().unwrap());
    for p in &mut players {
        assert_eq!(p.connect(&code).await, "snapshot");
    }
    for _ in 0..6 {
        play(&mut players, &code, true).await;
    }
    // Killed right after a move was sent: the move is kept whole or not at all.
    let before = play(&mut players, &code, false).await;
    server = restart(&dir, server, &mut players).await;
    let after = players[0].room(&code).await;
    let (b, a) = (before["state"]["version"].as_u64().unwrap(), after["state"]["version"].as_u64().unwrap());
    if a == b {
        assert_eq!(durable(&after), durable(&before));
    } else {
        assert!(a > b, "game version {a} after, {b} before");
    }
    for p in &mut players {
        assert_eq!(p.connect(&code).await, "snapshot");
    }
    let mut finished = None;
    for _ in 0..2_000 {
        let room = sync(&mut players, &code).await;
        if room["status"] == "finished" {
            finished = Some(room);
            break;
        }
        play(&mut players, &code, true).await;
    }
    let room = finished.expect("the game ends");
    assert_eq!(room["games"], before["games"], "the same game was finished");
    let id = room["games"][0].as_str().unwrap();
    let (_, record) = players[0].call(reqwest::Method::GET, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(record["actions"].as_array().unwrap().len() as u64, room["state"]["version"].as_u64().unwrap());
    for p in &mut players {
        let (_, stats) = p.call(reqwest::Method::GET, "/api/stats", None).await;
        let line = stats["stats"].as_array().unwrap().iter().find(|l| l["mode"] == "room").cloned().unwrap();
        assert_eq!(line["played"], 1, "{line}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
