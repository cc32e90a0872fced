//! A bounded load generator for online rooms: N rooms of two players each, every player on its
//! own loopback WebSocket, playing random legal Ur moves as fast as the server answers (each
//! room has one move in flight: a closed loop), with a rematch whenever a game ends.
//!
//! ```text
//! cargo build --release -p madang-server --example rooms_load
//! target/release/examples/rooms_load --rooms 100 --seconds 20 [--warmup 3] [--think-ms T]
//!     [--database postgres://… [--nodes N]]
//! ```
//!
//! `--database` puts the server on that PostgreSQL instead of SQLite; `--nodes N` (1 included)
//! starts N nodes of a cluster on it (`docs/server.md`, "Running several nodes"), sets each room up
//! through three different nodes (created, joined, the players' WebSockets) and spreads the
//! games against the computer over them, so most requests are forwarded; the server CPU is
//! then the nodes' sum, and the CPU of the `postgres` processes is reported too.
//!
//! The players' sockets ask for `changes` in their `hello` (what changed in the room's snapshot
//! since the last broadcast, `docs/api.md`, "Versions"), as the browser client does;
//! `--whole-snapshots` asks for the whole snapshot in every `events` message instead.
//!
//! With `--think-ms T` each room waits 0.5-1.5 × T ms before each move (a paced load: the
//! round trips then measure the server below saturation instead of its queue; the spread keeps
//! the rooms that one storage batch answered from moving again together).
//!
//! The soak run of issue 19 adds, around the paced rooms: `--games G` games against the
//! computer (Ur against `easy`, each on its own game WebSocket, each waiting 0.5-1.5 × T ms
//! before each action and starting a new game when one ends), `--idle-rooms I` rooms created
//! and never joined, and `--slow-sockets S` connections that each send half a request head
//! and, once the server closes them, connect again. `--sample-secs N` prints a line every N
//! seconds of the measured window: server CPU, resident memory, WAL size, moves and actions,
//! and the p99 round trips of the games and rooms in that interval.
//!
//! ```text
//! target/release/examples/rooms_load --rooms 200 --games 500 --idle-rooms 2000 --slow-sockets 1000 \
//!     --think-ms 1000 --warmup 180 --seconds 600 --sample-secs 10
//! ```
//!
//! It starts the server as a child process (this same binary with `--serve`: the real server,
//! SQLite in a temporary directory, the room rate limit raised so a connection may send as fast
//! as the server answers), so that the server's CPU time (`/proc/PID/stat`, user + system) and
//! peak memory (`VmHWM` in `/proc/PID/status`) are its own. The generator runs on one thread
//! (a current-thread runtime), so it takes at most one core. It reports rooms held, moves and
//! game actions (moves plus the rolls the server draws) per second, server CPU per move and per
//! action, peak memory, and the move round trip (send → the `events` message answering it) as
//! p50 / p90 / p99 / max over the measured window.

#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

mod common;

/// The allocator of the `madang` binary, so that the server measured is the one users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_owned())
}

fn serve() {
    let database = std::env::args().any(|a| a == "--database").then(|| arg("--database", ""));
    let node = std::env::args().any(|a| a == "--node");
    let dir = std::env::temp_dir().join(format!("madang-rooms-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let config = madang_server::Config {
            bind: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.clone(),
            database,
            allow_fixed_seed: false,
            synchronous: madang_server::Synchronous::Normal,
            public_url: None,
            rooms: madang_server::rooms::RoomConfig {
                rate_per_second: 1_000_000,
                burst: 1_000_000,
                ..madang_server::rooms::RoomConfig::default()
            },
            limits: madang_server::Limits { quotas: madang_server::Quotas::off(), ..madang_server::Limits::default() },
            // The API alone: the load sends no page requests.
            files: None,
            cluster: node.then(|| madang_server::cluster::ClusterConfig::new("http://127.0.0.1:0")),
        };
        let server = madang_server::Server::bind(config).await.unwrap();
        println!("ADDR {}", server.local_addr().unwrap());
        let stop = async {
            // Stops when the parent closes our standard input.
            let _ = tokio::task::spawn_blocking(|| {
                let mut line = String::new();
                while std::io::stdin().read_line(&mut line).map(|n| n > 0).unwrap_or(false) {}
            })
            .await;
        };
        server.run(stop).await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    room: Option<RoomMin>,
    /// What changed since the last broadcast (the generator's connections ask for it unless
    /// `--whole-snapshots`).
    #[serde(default)]
    changes: Option<ChangesMin>,
}

/// The part of a room's snapshot the generator plays from.
#[derive(Deserialize, Default)]
struct RoomMin {
    status: String,
    #[serde(default)]
    state: Option<StateMin>,
}

#[derive(Deserialize)]
struct ChangesMin {
    set: SetMin,
}

/// The changed fields the generator reads (`docs/api.md`, "Versions"); those it does not read
/// are skipped, and none of these is ever removed.
#[derive(Deserialize)]
struct SetMin {
    #[serde(default)]
    status: Option<String>,
    #[serde(default, deserialize_with = "present")]
    state: Option<Option<StateMin>>,
    #[serde(default, rename = "state.to_act", deserialize_with = "present")]
    to_act: Option<Option<String>>,
    #[serde(default, rename = "state.moves")]
    moves: Option<Vec<MoveMin>>,
    #[serde(default, rename = "state.version")]
    version: Option<u64>,
}

/// A field that is there, `null` included (serde reads a `null` `Option<Option<T>>` as absent).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

impl RoomMin {
    /// The view after an `events` or `snapshot` message.
    fn apply(&mut self, msg: Msg) {
        if let Some(room) = msg.room {
            *self = room;
        } else if let Some(ChangesMin { set }) = msg.changes {
            if let Some(status) = set.status {
                self.status = status;
            }
            if let Some(state) = set.state {
                self.state = state;
            }
            if let Some(state) = &mut self.state {
                if let Some(to_act) = set.to_act {
                    state.to_act = to_act;
                }
                if let Some(moves) = set.moves {
                    state.moves = moves;
                }
                if let Some(version) = set.version {
                    state.version = version;
                }
            }
        }
    }
}

#[derive(Deserialize)]
struct StateMin {
    /// The seat to act: to decide, or to ask for its own roll.
    #[serde(default)]
    to_act: Option<String>,
    /// Its moves (a decision's actions, or `roll`).
    #[serde(default)]
    moves: Vec<MoveMin>,
    version: u64,
}

#[derive(Deserialize)]
struct MoveMin {
    action: String,
}

/// Bytes of text received by the generator.
static RECEIVED: AtomicU64 = AtomicU64::new(0);

struct Player {
    ws: Ws,
    seat: String,
    token: String,
}

async fn http_post(client: &reqwest::Client, cookie: &mut Option<String>, url: &str, body: Value) -> Value {
    let mut request = client.post(url).header("content-type", "application/json").body(body.to_string());
    if let Some(c) = cookie.as_ref() {
        request = request.header("cookie", c.as_str());
    }
    let response = request.send().await.unwrap();
    if let Some(set) = response.headers().get("set-cookie") {
        *cookie = Some(set.to_str().unwrap().split(';').next().unwrap().to_owned());
    }
    response.json().await.unwrap()
}

async fn next_text(ws: &mut Ws) -> String {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => {
                RECEIVED.fetch_add(text.len() as u64, Ordering::Relaxed);
                return text.to_string();
            }
            Some(Ok(_)) => {}
            other => panic!("connection lost: {other:?}"),
        }
    }
}

async fn send(ws: &mut Ws, value: Value) {
    ws.send(Message::Text(value.to_string().into())).await.unwrap();
}

/// Reads until a message of one of these `kinds` (an `error` ends the run); returns it parsed
/// as `T` (minimally), whose `type` `kind_of` reads.
async fn next_of<T: serde::de::DeserializeOwned>(ws: &mut Ws, kinds: &[&str], kind_of: fn(&T) -> &str) -> T {
    loop {
        let text = next_text(ws).await;
        let msg: T = serde_json::from_str(&text).unwrap();
        match kind_of(&msg) {
            "error" => panic!("refused: {text}"),
            kind if kinds.contains(&kind) => return msg,
            _ => {}
        }
    }
}

/// Reads a room socket until an `events` or `snapshot` message.
async fn next_events(ws: &mut Ws) -> Msg {
    next_of(ws, &["events", "snapshot"], |m: &Msg| m.kind.as_str()).await
}

/// Opens a room socket and says `hello` (asking for changes unless `--whole-snapshots`);
/// returns the socket and the catch-up.
async fn connect(addr: &str, code: &str, token: &str) -> (Ws, Msg) {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(8 * 1024);
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/api/rooms/{code}/ws"), Some(config), true)
            .await
            .unwrap();
    let changes = !std::env::args().any(|a| a == "--whole-snapshots");
    send(&mut ws, json!({"type": "hello", "token": token, "changes": changes})).await;
    let catch_up = next_events(&mut ws).await;
    (ws, catch_up)
}

/// Sets a room up. With several nodes the room is created on node `n`, joined through the
/// next, and each player's WebSocket goes through yet another: most requests reach a node that
/// does not own the room and are forwarded (a load balancer without stickiness).
async fn setup(addrs: &[String], n: usize) -> ([Player; 2], RoomMin) {
    let at = |k: usize| addrs[(n + k) % addrs.len()].as_str();
    let http = reqwest::Client::new();
    let (mut c1, mut c2) = (None, None);
    let created =
        http_post(&http, &mut c1, &format!("http://{}/api/rooms", at(0)), json!({"game": "ur", "nickname": "host"}))
            .await;
    let code = created["code"].as_str().unwrap_or_else(|| panic!("creating a room failed: {created}")).to_owned();
    let joined = http_post(&http, &mut c2, &format!("http://{}/api/rooms/{code}/join", at(1)), json!({})).await;
    let host_token = created["token"].as_str().unwrap().to_owned();
    let guest_token = joined["token"].as_str().unwrap_or_else(|| panic!("joining a room failed: {joined}")).to_owned();
    // The room as the host's socket shows it: every broadcast is read there, and the game
    // reads one copy of each from then on.
    let mut view = RoomMin::default();
    let (ws, catch_up) = connect(at(2), &code, &host_token).await;
    view.apply(catch_up);
    let mut host = Player { ws, seat: "light".into(), token: host_token };
    let mut guest = Player { ws: connect(at(1), &code, &guest_token).await.0, seat: "dark".into(), token: guest_token };
    view.apply(next_events(&mut host.ws).await); // the guest's presence
    send(&mut guest.ws, json!({"type": "ready", "token": guest.token})).await;
    next_events(&mut guest.ws).await;
    view.apply(next_events(&mut host.ws).await);
    send(&mut host.ws, json!({"type": "start", "token": host.token})).await;
    ([host, guest], view)
}

struct Stats {
    moves: AtomicU64,
    actions: AtomicU64,
    game_actions: AtomicU64,
    slow_closed: AtomicU64,
    measuring: AtomicBool,
    stop: AtomicBool,
}

/// A xorshift step (moves and think times; no need for a better generator).
fn next_random(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// `think` × a factor from 0.5 to 1.5, so that clients do not move in lockstep.
fn jitter(think: Duration, seed: &mut u64) -> Duration {
    think.mul_f64(0.5 + (next_random(seed) % 1000) as f64 / 1000.0)
}

#[derive(Deserialize)]
struct GameMsg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    state: Option<GameStateMin>,
}

#[derive(Deserialize)]
struct GameStateMin {
    status: String,
    /// The person's moves (a decision's actions, or `roll`).
    #[serde(default)]
    moves: Vec<MoveMin>,
    version: u64,
}

/// Reads a game socket until a `state` or `events` message.
async fn next_game_message(ws: &mut Ws) -> GameMsg {
    next_of(ws, &["state", "events"], |m: &GameMsg| m.kind.as_str()).await
}

/// One person against the computer (Ur, `easy`), game after game, over the game's WebSocket:
/// each action after 0.5-1.5 × `think`; the round trip is the send → the `events` answering it.
async fn play_computer(
    addr: String,
    stats: Arc<Stats>,
    rtts: Rc<std::cell::RefCell<Vec<u32>>>,
    mut seed: u64,
    think: Duration,
) {
    let http = reqwest::Client::new();
    let mut cookie = None;
    // Spread the first actions over the think time.
    tokio::time::sleep(jitter(think, &mut seed)).await;
    while !stats.stop.load(Ordering::Relaxed) {
        let body = json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]});
        let created = http_post(&http, &mut cookie, &format!("http://{addr}/api/games"), body).await;
        let id = created["id"].as_str().unwrap_or_else(|| panic!("creating a game failed: {created}")).to_owned();
        let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{addr}/api/games/{id}/ws"
        ))
        .unwrap();
        request.headers_mut().insert("cookie", cookie.clone().unwrap().parse().unwrap());
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        send(&mut ws, json!({"type": "hello", "version": created["version"]})).await;
        let mut state = next_game_message(&mut ws).await.state.unwrap();
        while state.status == "ongoing" && !stats.stop.load(Ordering::Relaxed) {
            tokio::time::sleep(jitter(think, &mut seed)).await;
            let action = &state.moves[(next_random(&mut seed) % state.moves.len() as u64) as usize].action;
            let start = Instant::now();
            send(&mut ws, json!({"type": "action", "action": action, "version": state.version})).await;
            let after = next_game_message(&mut ws).await.state.unwrap();
            let rtt = start.elapsed();
            if stats.measuring.load(Ordering::Relaxed) {
                stats.game_actions.fetch_add(after.version - state.version, Ordering::Relaxed);
                rtts.borrow_mut().push(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
            }
            state = after;
        }
        let _ = ws.close(None).await;
    }
}

/// A slow client: sends half a request head and waits; when the server closes the socket
/// (its header-read timeout), connects again.
async fn slow_socket(addr: String, stats: Arc<Stats>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    while !stats.stop.load(Ordering::Relaxed) {
        let Ok(mut socket) = tokio::net::TcpStream::connect(&addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = socket.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").await;
        let mut buf = [0u8; 256];
        while matches!(socket.read(&mut buf).await, Ok(n) if n > 0) {}
        stats.slow_closed.fetch_add(1, Ordering::Relaxed);
    }
}

async fn play(
    (mut players, mut view): ([Player; 2], RoomMin),
    stats: Arc<Stats>,
    rtts: Rc<std::cell::RefCell<Vec<u32>>>,
    mut seed: u64,
    think: Duration,
) {
    // The start's events message on both sockets.
    view.apply(next_events(&mut players[0].ws).await);
    next_text(&mut players[1].ws).await;
    while !stats.stop.load(Ordering::Relaxed) {
        let state = view.state.as_ref().unwrap();
        if view.status == "finished" {
            for i in 0..2 {
                let token = players[i].token.clone();
                send(&mut players[i].ws, json!({"type": "rematch", "token": token})).await;
                view.apply(next_events(&mut players[i].ws).await);
                next_text(&mut players[1 - i].ws).await;
            }
            continue;
        }
        if !think.is_zero() {
            tokio::time::sleep(jitter(think, &mut seed)).await;
        }
        let mover = usize::from(state.to_act.as_deref() != Some(players[0].seat.as_str()));
        let action = &state.moves[(next_random(&mut seed) % state.moves.len() as u64) as usize].action;
        let token = players[mover].token.clone();
        let before = state.version;
        let start = Instant::now();
        send(&mut players[mover].ws, json!({"type": "move", "action": action, "version": before, "token": token}))
            .await;
        view.apply(next_events(&mut players[mover].ws).await);
        let rtt = start.elapsed();
        let after = view.state.as_ref().map_or(before, |s| s.version);
        // The other player's copy of the same message, not parsed.
        next_text(&mut players[1 - mover].ws).await;
        if stats.measuring.load(Ordering::Relaxed) {
            stats.moves.fetch_add(1, Ordering::Relaxed);
            stats.actions.fetch_add(after - before, Ordering::Relaxed);
            rtts.borrow_mut().push(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
        }
    }
}

fn proc_cpu_ms(pid: u32) -> f64 {
    common::cpu_ms(&pid.to_string()).unwrap_or_else(|| common::fail(&format!("the server (process {pid}) is gone")))
}

fn proc_status(pid: u32, key: &str) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status.lines().find(|l| l.starts_with(key)).map(|l| l[key.len()..].trim().to_owned()).unwrap_or_default()
}

fn main() {
    if std::env::args().any(|a| a == "--serve") {
        serve();
        return;
    }
    let rooms: usize = arg("--rooms", "100").parse().unwrap();
    let seconds: u64 = arg("--seconds", "20").parse().unwrap();
    let warmup: u64 = arg("--warmup", "3").parse().unwrap();
    let think = Duration::from_millis(arg("--think-ms", "0").parse().unwrap());
    let games: usize = arg("--games", "0").parse().unwrap();
    let idle_rooms: usize = arg("--idle-rooms", "0").parse().unwrap();
    let slow_sockets: usize = arg("--slow-sockets", "0").parse().unwrap();
    let sample_secs: u64 = arg("--sample-secs", "0").parse().unwrap();
    let nodes: usize = arg("--nodes", "1").parse().unwrap();
    let database = std::env::args().any(|a| a == "--database").then(|| arg("--database", ""));
    // `--nodes N` (even 1) runs the nodes of a cluster; without it, one plain server.
    let clustered = std::env::args().any(|a| a == "--nodes");
    assert!(!clustered || database.is_some(), "--nodes needs --database postgres://… (the nodes share it)");
    let mut children = Vec::new();
    let mut addrs = Vec::new();
    for _ in 0..nodes {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.arg("--serve");
        if let Some(url) = &database {
            command.args(["--database", url]);
        }
        if clustered {
            command.arg("--node");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .env("RUST_LOG", "warn")
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        addrs.push(line.trim().strip_prefix("ADDR ").unwrap().to_owned());
        children.push(child);
    }
    let pids: Vec<u32> = children.iter().map(std::process::Child::id).collect();
    let pid = pids[0];
    let addr = addrs[0].clone();
    let servers_cpu = || pids.iter().map(|p| proc_cpu_ms(*p)).sum::<f64>();
    let wal = std::env::temp_dir().join(format!("madang-rooms-load-{pid}")).join("madang.db-wal");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let stats = Arc::new(Stats {
            moves: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            game_actions: AtomicU64::new(0),
            slow_closed: AtomicU64::new(0),
            measuring: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let rtts = Rc::new(std::cell::RefCell::new(Vec::with_capacity(1 << 20)));
        let set_up = Instant::now();
        let mut handles = Vec::new();
        let mut pending = futures_util::stream::iter(0..rooms).map(|n| setup(&addrs, n)).buffer_unordered(32);
        let mut n = 0u64;
        while let Some(players) = pending.next().await {
            n += 1;
            handles.push(tokio::task::spawn_local(play(
                players,
                stats.clone(),
                rtts.clone(),
                0x9E37_79B9 + n * 7919,
                think,
            )));
        }
        eprintln!("{rooms} rooms set up in {:.1} s", set_up.elapsed().as_secs_f64());
        let http = reqwest::Client::new();
        let mut idle = futures_util::stream::iter(0..idle_rooms)
            .map(|_| {
                let http = http.clone();
                let addr = addr.clone();
                async move {
                    let created = http_post(&http, &mut None, &format!("http://{addr}/api/rooms"), json!({"game": "ur"})).await;
                    assert!(created["code"].is_string(), "creating an idle room failed: {created}");
                }
            })
            .buffer_unordered(32);
        while idle.next().await.is_some() {}
        drop(idle);
        eprintln!("{idle_rooms} idle rooms created");
        let game_rtts = Rc::new(std::cell::RefCell::new(Vec::with_capacity(1 << 20)));
        for g in 0..games {
            handles.push(tokio::task::spawn_local(play_computer(
                addrs[g % addrs.len()].clone(),
                stats.clone(),
                game_rtts.clone(),
                0x2545_F491 + g as u64 * 104_729,
                think,
            )));
        }
        let slow: Vec<_> = (0..slow_sockets).map(|_| tokio::task::spawn_local(slow_socket(addr.clone(), stats.clone()))).collect();
        eprintln!("{games} games against the computer, {slow_sockets} slow sockets; warming up {warmup} s");
        tokio::time::sleep(Duration::from_secs(warmup)).await;
        let cpu0 = servers_cpu();
        let pg0 = postgres_cpu_ms();
        let own0 = proc_cpu_ms(std::process::id());
        let bytes0 = RECEIVED.load(Ordering::Relaxed);
        let t0 = Instant::now();
        stats.measuring.store(true, Ordering::Relaxed);
        let samples = seconds.checked_div(sample_secs);
        if let Some(samples) = samples {
            println!("| t (s) | server CPU | RSS | WAL | room moves/s | game actions/s | game p99 | room p99 | slow sockets closed |");
            println!("|---|---|---|---|---|---|---|---|---|");
            let (mut cpu_before, mut moves_before, mut actions_before, mut slow_before) = (cpu0, 0, 0, 0);
            let (mut games_seen, mut rooms_seen) = (0, 0);
            let p99 = |v: &mut Vec<u32>| {
                v.sort_unstable();
                v.get(((v.len() as f64 - 1.0) * 0.99) as usize).map_or(f64::NAN, |x| f64::from(*x) / 1000.0)
            };
            for i in 1..=samples {
                tokio::time::sleep_until(tokio::time::Instant::from_std(t0 + Duration::from_secs(i * sample_secs))).await;
                let cpu = servers_cpu();
                let moves = stats.moves.load(Ordering::Relaxed);
                let actions = stats.game_actions.load(Ordering::Relaxed);
                let slow = stats.slow_closed.load(Ordering::Relaxed);
                let mut g: Vec<u32> = game_rtts.borrow()[games_seen..].to_vec();
                let mut r: Vec<u32> = rtts.borrow()[rooms_seen..].to_vec();
                games_seen += g.len();
                rooms_seen += r.len();
                let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
                println!(
                    "| {} | {:.1} % | {} | {:.1} MiB | {:.0} | {:.0} | {:.2} ms | {:.2} ms | {} |",
                    i * sample_secs,
                    (cpu - cpu_before) / (sample_secs as f64) / 10.0,
                    proc_status(pid, "VmRSS:"),
                    wal_bytes as f64 / 1_048_576.0,
                    (moves - moves_before) as f64 / sample_secs as f64,
                    (actions - actions_before) as f64 / sample_secs as f64,
                    p99(&mut g),
                    p99(&mut r),
                    slow - slow_before,
                );
                (cpu_before, moves_before, actions_before, slow_before) = (cpu, moves, actions, slow);
            }
            let mut all: Vec<u32> = game_rtts.borrow().clone();
            all.sort_unstable();
            if !all.is_empty() {
                let pct = |p: f64| f64::from(all[((all.len() as f64 - 1.0) * p) as usize]) / 1000.0;
                println!(
                    "game action round trip over the window ({} actions): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                    all.len(),
                    pct(0.5),
                    pct(0.9),
                    pct(0.99),
                    pct(1.0)
                );
            }
            let alive = slow.iter().filter(|h| !h.is_finished()).count();
            println!("slow sockets still cycling: {alive} of {slow_sockets}");
        } else {
            tokio::time::sleep(Duration::from_secs(seconds)).await;
        }
        stats.measuring.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let cpu = servers_cpu() - cpu0;
        let pg = postgres_cpu_ms() - pg0;
        let own = proc_cpu_ms(std::process::id()) - own0;
        let bytes = RECEIVED.load(Ordering::Relaxed) - bytes0;
        let held = handles.iter().take(rooms).filter(|h| !h.is_finished()).count();
        stats.stop.store(true, Ordering::Relaxed);
        let moves = stats.moves.load(Ordering::Relaxed) as f64;
        let actions = stats.actions.load(Ordering::Relaxed) as f64;
        let mut rtts = rtts.borrow().clone();
        rtts.sort_unstable();
        let pct = |p: f64| rtts.get(((rtts.len() as f64 - 1.0) * p) as usize).map_or(f64::NAN, |x| f64::from(*x) / 1000.0);
        println!("rooms held: {held} of {rooms} (two players each, {} WebSockets)", 2 * rooms);
        println!("window: {elapsed:.1} s");
        println!(
            "moves: {moves:.0} ({:.0} /s); game actions incl. server rolls: {actions:.0} ({:.0} /s)",
            moves / elapsed,
            actions / elapsed
        );
        println!(
            "server CPU: {:.0} ms = {:.1} % of one core; {:.4} ms per move, {:.4} ms per action",
            cpu,
            cpu / elapsed / 10.0,
            cpu / moves,
            cpu / actions
        );
        if games > 0 {
            let game_actions = stats.game_actions.load(Ordering::Relaxed) as f64;
            let mut all: Vec<u32> = game_rtts.borrow().clone();
            all.sort_unstable();
            let pct = |p: f64| all.get(((all.len() as f64 - 1.0) * p) as usize).map_or(f64::NAN, |x| f64::from(*x) / 1000.0);
            println!(
                "games against the computer: {games}, {game_actions:.0} actions ({:.0} /s, the CPU's replies included); \
                 server CPU {:.4} ms per action of rooms and games together",
                game_actions / elapsed,
                cpu / (actions + game_actions),
            );
            // With `--sample-secs` the window's round trips were printed with the samples.
            if samples.is_none() {
                println!(
                    "game action round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                    pct(0.5),
                    pct(0.9),
                    pct(0.99),
                    pct(1.0)
                );
            }
        }
        println!(
            "generator CPU: {:.1} % of one core, {:.4} ms per move; received {:.0} bytes per move (both players)",
            own / elapsed / 10.0,
            own / moves,
            bytes as f64 / moves
        );
        if clustered {
            println!("cluster nodes: {nodes} (each room set up through three nodes in turn, most requests forwarded)");
        }
        for p in &pids {
            println!("server {p} peak memory (VmHWM): {}", proc_status(*p, "VmHWM:"));
        }
        if database.is_some() {
            println!(
                "PostgreSQL CPU (every postgres process): {:.0} ms = {:.1} % of one core; {:.4} ms per action",
                pg,
                pg / elapsed / 10.0,
                pg / actions
            );
        }
        println!(
            "move round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0)
        );
        println!("load average: {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    });
    for mut child in children {
        drop(child.stdin.take());
        let _ = child.wait();
    }
}

/// CPU time (ms) of every process named `postgres` on the machine (the database's share).
fn postgres_cpu_ms() -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0.0 };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "postgres"))
        // A backend may end between the listing and the read.
        .filter_map(|pid| common::cpu_ms(&pid.to_string()))
        .sum()
}
