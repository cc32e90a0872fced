//! A bounded load generator for `madang serve`: N games in play at once (default 200), each
//! over its own loopback WebSocket, playing random legal actions as fast as the server answers;
//! reports the action round trip (send → the `events` message that answers it) as p50 / p90 /
//! p99 / max. Bounded by a number of actions and a time limit; loopback only.
//!
//! ```text
//! cargo run --release -p madang-server --example loadgen -- [--games 200] [--actions 40000]
//!     [--seconds 60] [--game ur] [--level easy] [--synchronous normal|full] [--think-ms 0]
//!     [--url http://127.0.0.1:8080]
//! ```
//!
//! `--think-ms T` makes each player wait a random 0-2T ms (mean T) before each action, as a
//! person would; the wait is not part of the measured round trip. With `0` (default) every game
//! acts as soon as it is answered, so the figures show the server saturated: with N games in
//! flight the round trip is about N / throughput (Little's law).
//!
//! Without `--url` it starts the server in-process on 127.0.0.1 (ephemeral port) with SQLite in
//! a temporary directory; with it, it drives a running server (which must be on loopback).

#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use madang_server::{Config, Server, Synchronous};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

struct Options {
    games: usize,
    actions: u64,
    seconds: u64,
    game: String,
    level: String,
    synchronous: Synchronous,
    think_ms: u64,
    url: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        games: 200,
        actions: 40_000,
        seconds: 60,
        game: "ur".into(),
        level: "easy".into(),
        synchronous: Synchronous::Normal,
        think_ms: 0,
        url: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--games" => o.games = value.parse().unwrap(),
            "--actions" => o.actions = value.parse().unwrap(),
            "--seconds" => o.seconds = value.parse().unwrap(),
            "--game" => o.game = value,
            "--level" => o.level = value,
            "--synchronous" => o.synchronous = value.parse().unwrap(),
            "--think-ms" => o.think_ms = value.parse().unwrap(),
            "--url" => o.url = Some(value.trim_end_matches('/').to_owned()),
            other => panic!("unknown option {other}"),
        }
    }
    o
}

/// xorshift64*: the load generator's own choices (not a game stream).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

struct Shared {
    done: AtomicU64,
    limit: u64,
    deadline: Instant,
}

impl Shared {
    fn more(&self) -> bool {
        self.done.load(Ordering::Relaxed) < self.limit && Instant::now() < self.deadline
    }
}

async fn player(base: String, o: Arc<Options>, shared: Arc<Shared>, seed: u64) -> (Vec<Duration>, u64) {
    let http = reqwest::Client::new();
    let me = http.get(format!("{base}/api/me")).send().await.unwrap();
    let cookie = me.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut samples = Vec::new();
    let mut games = 0;
    let host = base.trim_start_matches("http://").to_owned();
    while shared.more() {
        let seats: Vec<Value> = std::iter::once(json!({"kind": "human"}))
            .chain((1..if o.game == "ludo" { 4 } else { 2 }).map(|_| json!({"kind": "cpu", "level": o.level})))
            .collect();
        let created: Value = http
            .post(format!("{base}/api/games"))
            .header("cookie", &cookie)
            .header("content-type", "application/json")
            .body(json!({"game": o.game, "seats": seats}).to_string())
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        games += 1;
        let id = created["id"].as_str().unwrap().to_owned();
        let mut request = format!("ws://{host}/api/games/{id}/ws").into_client_request().unwrap();
        request.headers_mut().insert("cookie", cookie.parse().unwrap());
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        ws.send(Message::Text(json!({"type": "hello"}).to_string().into())).await.unwrap();
        let mut state = next_json(&mut ws).await["state"].clone();
        while state["status"] != "finished" && shared.more() {
            let moves = state["moves"].as_array().unwrap();
            let action = moves[rng.below(moves.len())]["action"].clone();
            if o.think_ms > 0 {
                let wait = rng.below(2 * o.think_ms as usize + 1) as u64;
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            let message = json!({"type": "action", "action": action, "version": state["version"]}).to_string();
            let start = Instant::now();
            ws.send(Message::Text(message.into())).await.unwrap();
            let answer = next_json(&mut ws).await;
            samples.push(start.elapsed());
            assert_eq!(answer["type"], "events", "{answer}");
            shared.done.fetch_add(1, Ordering::Relaxed);
            state = answer["state"].clone();
        }
        let _ = ws.close(None).await;
    }
    (samples, games)
}

async fn next_json(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    loop {
        match ws.next().await.unwrap().unwrap() {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            _ => continue,
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let o = Arc::new(options());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let dir = std::env::temp_dir().join(format!("madang-loadgen-{}", std::process::id()));
        let (base, stop) = match &o.url {
            Some(url) => (url.clone(), None),
            None => {
                let config = Config {
                    bind: "127.0.0.1:0".parse().unwrap(),
                    data_dir: dir.clone(),
                    database: None,
                    allow_fixed_seed: false,
                    synchronous: o.synchronous,
                    public_url: None,
                    rooms: madang_server::rooms::RoomConfig::default(),
                    limits: madang_server::Limits {
                        quotas: madang_server::Quotas::off(),
                        ..madang_server::Limits::default()
                    },
                    // The API alone: the load sends no page requests.
                    files: None,
                    cluster: None,
                };
                let server = Server::bind(config).await.unwrap();
                let addr = server.local_addr().unwrap();
                let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
                let handle = tokio::spawn(server.run(async {
                    let _ = stopped.await;
                }));
                (format!("http://{addr}"), Some((stop, handle)))
            }
        };
        assert!(base.starts_with("http://127.") || base.starts_with("http://localhost"), "loopback only: {base}");
        let shared = Arc::new(Shared {
            done: AtomicU64::new(0),
            limit: o.actions,
            deadline: Instant::now() + Duration::from_secs(o.seconds),
        });
        let started = Instant::now();
        let tasks: Vec<_> =
            (0..o.games).map(|i| tokio::spawn(player(base.clone(), o.clone(), shared.clone(), i as u64 + 1))).collect();
        let mut samples = Vec::new();
        let mut games = 0;
        for task in tasks {
            let (s, g) = task.await.unwrap();
            samples.extend(s);
            games += g;
        }
        let elapsed = started.elapsed();
        samples.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{} games in play ({} {} vs {}; {} games played; think {} ms), {} actions in {:.1} s ({:.0} actions/s), synchronous {:?}",
            o.games,
            o.games,
            o.game,
            o.level,
            games,
            o.think_ms,
            samples.len(),
            elapsed.as_secs_f64(),
            samples.len() as f64 / elapsed.as_secs_f64(),
            o.synchronous,
        );
        println!(
            "action round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(percentile(&samples, 0.50)),
            ms(percentile(&samples, 0.90)),
            ms(percentile(&samples, 0.99)),
            ms(*samples.last().unwrap()),
        );
        if let Some((stop, handle)) = stop {
            let _ = stop.send(());
            let _ = handle.await;
            let _ = std::fs::remove_dir_all(&dir);
        }
    });
}
