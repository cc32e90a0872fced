//! A bounded load generator for online rooms: N rooms of two players each, every player on its
//! own loopback WebSocket, playing random legal Ur moves as fast as the server answers (each
//! room has one move in flight: a closed loop), with a rematch whenever a game ends.
//!
//! ```text
//! cargo build --release -p madang-server --example rooms_load
//! target/release/examples/rooms_load --rooms 100 --seconds 20 [--warmup 3] [--think-ms T]
//! ```
//!
//! With `--think-ms T` each room waits T ms before each move (a paced load: the round trips
//! then measure the server below saturation instead of its queue).
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

/// The allocator of the `madang` binary, so that the server measured is the one users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_owned())
}

fn serve() {
    let dir = std::env::temp_dir().join(format!("madang-rooms-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let config = madang_server::Config {
            bind: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.clone(),
            database: None,
            allow_fixed_seed: false,
            synchronous: madang_server::Synchronous::Normal,
            public_url: None,
            rooms: madang_server::rooms::RoomConfig {
                rate_per_second: 1_000_000,
                burst: 1_000_000,
                ..madang_server::rooms::RoomConfig::default()
            },
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
}

#[derive(Deserialize)]
struct RoomMin {
    status: String,
    #[serde(default)]
    state: Option<StateMin>,
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

/// Reads until an `events` message; returns it parsed (minimally).
async fn next_events(ws: &mut Ws) -> Msg {
    loop {
        let text = next_text(ws).await;
        let msg: Msg = serde_json::from_str(&text).unwrap();
        match msg.kind.as_str() {
            "events" | "snapshot" => return msg,
            "error" => panic!("refused: {text}"),
            _ => {}
        }
    }
}

async fn connect(addr: &str, code: &str, token: &str) -> Ws {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(8 * 1024);
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/api/rooms/{code}/ws"), Some(config), true)
            .await
            .unwrap();
    send(&mut ws, json!({"type": "hello", "token": token})).await;
    next_events(&mut ws).await;
    ws
}

async fn setup(addr: &str) -> [Player; 2] {
    let http = reqwest::Client::new();
    let (mut c1, mut c2) = (None, None);
    let created =
        http_post(&http, &mut c1, &format!("http://{addr}/api/rooms"), json!({"game": "ur", "nickname": "host"})).await;
    let code = created["code"].as_str().unwrap_or_else(|| panic!("creating a room failed: {created}")).to_owned();
    let joined = http_post(&http, &mut c2, &format!("http://{addr}/api/rooms/{code}/join"), json!({})).await;
    let host_token = created["token"].as_str().unwrap().to_owned();
    let guest_token = joined["token"].as_str().unwrap_or_else(|| panic!("joining a room failed: {joined}")).to_owned();
    let mut host = Player { ws: connect(addr, &code, &host_token).await, seat: "light".into(), token: host_token };
    let mut guest = Player { ws: connect(addr, &code, &guest_token).await, seat: "dark".into(), token: guest_token };
    next_events(&mut host.ws).await; // the guest's presence
    send(&mut guest.ws, json!({"type": "ready", "token": guest.token})).await;
    next_events(&mut guest.ws).await;
    next_events(&mut host.ws).await;
    send(&mut host.ws, json!({"type": "start", "token": host.token})).await;
    [host, guest]
}

struct Stats {
    moves: AtomicU64,
    actions: AtomicU64,
    measuring: AtomicBool,
    stop: AtomicBool,
}

async fn play(
    mut players: [Player; 2],
    stats: Arc<Stats>,
    rtts: Rc<std::cell::RefCell<Vec<u32>>>,
    mut seed: u64,
    think: Duration,
) {
    // The start's events message on both sockets.
    let mut msg = next_events(&mut players[0].ws).await;
    next_text(&mut players[1].ws).await;
    while !stats.stop.load(Ordering::Relaxed) {
        let room = msg.room.take().unwrap();
        let state = room.state.unwrap();
        if room.status == "finished" {
            for i in 0..2 {
                let token = players[i].token.clone();
                send(&mut players[i].ws, json!({"type": "rematch", "token": token})).await;
                msg = next_events(&mut players[i].ws).await;
                next_text(&mut players[1 - i].ws).await;
            }
            continue;
        }
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        let mover = usize::from(state.to_act.as_deref() != Some(players[0].seat.as_str()));
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let action = &state.moves[(seed % state.moves.len() as u64) as usize].action;
        let token = players[mover].token.clone();
        let start = Instant::now();
        send(
            &mut players[mover].ws,
            json!({"type": "move", "action": action, "version": state.version, "token": token}),
        )
        .await;
        msg = next_events(&mut players[mover].ws).await;
        let rtt = start.elapsed();
        let after = msg.room.as_ref().and_then(|r| r.state.as_ref()).map_or(state.version, |s| s.version);
        // The other player's copy of the same message, not parsed.
        next_text(&mut players[1 - mover].ws).await;
        if stats.measuring.load(Ordering::Relaxed) {
            stats.moves.fetch_add(1, Ordering::Relaxed);
            stats.actions.fetch_add(after - state.version, Ordering::Relaxed);
            rtts.borrow_mut().push(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
        }
    }
}

fn proc_cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks * 1000.0 / 100.0 // CLK_TCK is 100 on Linux
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
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("--serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .env("RUST_LOG", "warn")
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("ADDR ").unwrap().to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let stats = Arc::new(Stats {
            moves: AtomicU64::new(0),
            actions: AtomicU64::new(0),
            measuring: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let rtts = Rc::new(std::cell::RefCell::new(Vec::with_capacity(1 << 20)));
        let set_up = Instant::now();
        let mut handles = Vec::new();
        let mut pending = futures_util::stream::iter(0..rooms).map(|_| setup(&addr)).buffer_unordered(32);
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
        eprintln!("{rooms} rooms set up in {:.1} s; warming up {warmup} s", set_up.elapsed().as_secs_f64());
        tokio::time::sleep(Duration::from_secs(warmup)).await;
        let cpu0 = proc_cpu_ms(pid);
        let own0 = proc_cpu_ms(std::process::id());
        let bytes0 = RECEIVED.load(Ordering::Relaxed);
        let t0 = Instant::now();
        stats.measuring.store(true, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        stats.measuring.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let cpu = proc_cpu_ms(pid) - cpu0;
        let own = proc_cpu_ms(std::process::id()) - own0;
        let bytes = RECEIVED.load(Ordering::Relaxed) - bytes0;
        let held = handles.iter().filter(|h| !h.is_finished()).count();
        stats.stop.store(true, Ordering::Relaxed);
        let moves = stats.moves.load(Ordering::Relaxed) as f64;
        let actions = stats.actions.load(Ordering::Relaxed) as f64;
        let mut rtts = rtts.borrow().clone();
        rtts.sort_unstable();
        let pct = |p: f64| f64::from(rtts[((rtts.len() as f64 - 1.0) * p) as usize]) / 1000.0;
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
        println!(
            "generator CPU: {:.1} % of one core, {:.4} ms per move; received {:.0} bytes per move (both players)",
            own / elapsed / 10.0,
            own / moves,
            bytes as f64 / moves
        );
        println!("server peak memory (VmHWM): {}", proc_status(pid, "VmHWM:"));
        println!(
            "move round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0)
        );
        println!("load average: {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    });
    drop(child.stdin.take());
    let _ = child.wait();
}
