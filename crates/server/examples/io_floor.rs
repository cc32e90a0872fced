//! The least CPU a server can spend on an online move, measured: the loopback TCP work the move
//! needs and nothing else (issue 20, `docs/server.md`, "The floor under any server").
//!
//! ```text
//! cargo build --release -p madang-server --example io_floor
//! target/release/examples/io_floor --pairs 100 --seconds 15 [--warmup 3] [--bytes 64] [--move-bytes 100]
//! ```
//!
//! N pairs of loopback TCP connections play a closed loop shaped like `rooms_load`'s rooms: in
//! each pair one connection at a time sends a message of `--move-bytes` bytes (a move; a room's
//! `move` command is about 100), the server sends `--bytes` bytes to both connections of the pair
//! (the move's result, to both players), and once both have it the other connection sends the
//! next move. The server is a child
//! process (this binary with `--serve`) on one thread with one `epoll` loop (`mio`); per move it
//! makes one `read` (a short read drains a TCP socket, so it does not read again for `EAGAIN`)
//! and two `write`s, with `TCP_NODELAY` as `madang serve` sets it. It parses nothing, stores
//! nothing, allocates nothing per move and keeps no game, so its CPU per move (`/proc/PID/stat`,
//! user + system, over the window) is a floor under any server that tells both players of a move
//! over TCP on this machine: what a real one spends besides is the protocol, the rules and the
//! storage. The generator runs on this process's one thread and reports its own CPU too: on a
//! machine the generator shares, the two together bound the throughput any server could show.
//!
//! It also times a system call that does nothing (`getppid`), for the part of each `read` and
//! `write` that is entering and leaving the kernel.
//!
//! `--stack axum` measures the same loop on the stack the project's server is built on (axum's
//! WebSocket over tokio's multi-threaded runtime with two workers, as `madang serve` starts it,
//! with its sockets' read buffer and mimalloc): moves and results are WebSocket text messages, and each connection is a task
//! that waits on its socket and on a channel (`tokio::select!`), as a room's connection does.
//! On a move the task sends the result on its own socket and hands it to the partner's task
//! through the channel: no room task, JSON, rules or storage, so it is a floor under any server
//! on that stack. `--stack axum-current` runs it on tokio's one-thread runtime instead.

#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token};

mod common;
use common::{fail, number};

const LISTENER: Token = Token(usize::MAX);

// As `madang serve`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The server under test (`--stack`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stack {
    /// One `epoll` loop over raw TCP (`mio`).
    Epoll,
    /// axum WebSockets on tokio's multi-threaded runtime (two workers).
    Axum,
    /// axum WebSockets on tokio's one-thread runtime.
    AxumCurrent,
}

impl Stack {
    const NAMES: [(&'static str, Stack); 3] =
        [("epoll", Stack::Epoll), ("axum", Stack::Axum), ("axum-current", Stack::AxumCurrent)];

    /// The value of `--stack` (`epoll` when not given); anything else, or the flag given twice,
    /// ends the run with a message.
    fn from_args() -> Stack {
        let args: Vec<String> = std::env::args().collect();
        if args.iter().filter(|a| *a == "--stack").count() > 1 {
            fail("--stack is given twice");
        }
        let Some(i) = args.iter().position(|a| a == "--stack") else { return Stack::Epoll };
        let text = args.get(i + 1).map_or("", String::as_str);
        Stack::NAMES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, stack)| *stack)
            .unwrap_or_else(|| fail(&format!("--stack must be epoll, axum or axum-current, got {text:?}")))
    }

    fn name(self) -> &'static str {
        Stack::NAMES.iter().find(|(_, s)| *s == self).map_or("epoll", |(name, _)| name)
    }

    /// The bytes on the wire of a message of `len` bytes the server sends (unmasked).
    fn server_frame(self, len: usize) -> usize {
        match self {
            Stack::Epoll => len,
            _ if len < 126 => len + 2,
            _ => len + 4,
        }
    }

    /// A message of `payload` as the generator sends it: as it is, or as a masked WebSocket
    /// text frame (a client's frames are masked; the mask here is zero, which leaves the
    /// payload as it is but is unmasked all the same).
    fn client_frame(self, payload: &[u8]) -> Vec<u8> {
        if self == Stack::Epoll {
            return payload.to_vec();
        }
        let mut frame = vec![0x81];
        match u16::try_from(payload.len()) {
            Ok(len) if len < 126 => frame.push(0x80 | len as u8),
            Ok(len) => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&len.to_be_bytes());
            }
            Err(_) => fail("a message over 65,535 bytes"),
        }
        frame.extend_from_slice(&[0; 4]);
        frame.extend_from_slice(payload);
        frame
    }
}

/// One server-side connection.
struct Conn {
    stream: TcpStream,
    /// Bytes of an unfinished message (or of the 4-byte pair number first).
    pending: Vec<u8>,
    /// The pair's other connection, once it has said its pair number.
    partner: Option<usize>,
    /// Output the socket did not take yet (never under this closed loop; kept for correctness).
    out: Vec<u8>,
    pair: Option<u32>,
}

/// Ends this process when the generator's end of its standard input closes, however the run
/// ended.
fn exit_with_the_generator() {
    std::thread::spawn(|| {
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        std::process::exit(0);
    });
}

/// The `axum` stacks' server: `/` upgrades to a WebSocket whose first message is the pair's
/// number; every later message is a move, answered with `bytes` bytes to both of the pair.
fn serve_axum(current: bool, bytes: usize) {
    use std::sync::{Arc, Mutex};

    use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
    use tokio::sync::mpsc;

    /// Connections that said their pair's number and wait for the other: the channel to hand
    /// it results, and where to learn the other's channel.
    type Waiting = Arc<Mutex<HashMap<u32, (mpsc::UnboundedSender<Utf8Bytes>, tokio::sync::oneshot::Sender<Partner>)>>>;
    type Partner = mpsc::UnboundedSender<Utf8Bytes>;

    async fn session(mut socket: WebSocket, waiting: Waiting, result: Utf8Bytes) {
        let Some(Ok(Message::Text(first))) = socket.recv().await else { return };
        let Ok(pair) = first.as_str().parse::<u32>() else { return };
        let (to_me, mut inbox) = mpsc::unbounded_channel();
        let partner = {
            let mut table = waiting.lock().unwrap();
            match table.remove(&pair) {
                Some((other, tell)) => {
                    let _ = tell.send(to_me);
                    Ok(other)
                }
                None => {
                    let (tell, learn) = tokio::sync::oneshot::channel();
                    table.insert(pair, (to_me, tell));
                    Err(learn)
                }
            }
        };
        let partner = match partner {
            Ok(other) => other,
            Err(learn) => match learn.await {
                Ok(other) => other,
                Err(_) => return,
            },
        };
        loop {
            tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(_))) => {
                        if socket.send(Message::Text(result.clone())).await.is_err() { return }
                        if partner.send(result.clone()).is_err() { return }
                    }
                    Some(Ok(_)) => {}
                    None | Some(Err(_)) => return,
                },
                out = inbox.recv() => match out {
                    Some(text) => if socket.send(Message::Text(text)).await.is_err() { return },
                    None => return,
                },
            }
        }
    }

    exit_with_the_generator();
    let runtime = if current {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    } else {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()
    }
    .unwrap_or_else(|e| fail(&format!("the server's runtime: {e}")));
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| fail(&format!("the server cannot listen: {e}")));
        println!("{}", listener.local_addr().unwrap().port());
        std::io::stdout().flush().unwrap();
        let waiting: Waiting = Arc::default();
        let result = Utf8Bytes::from("x".repeat(bytes));
        let app = axum::Router::new().route(
            "/",
            axum::routing::get(move |ws: WebSocketUpgrade| {
                let (waiting, result) = (waiting.clone(), result.clone());
                // The read buffer madang's sockets have: tungstenite zeroes its free space on
                // every read, and its 128 KiB default costs more than the rest of a move.
                let ws = ws.read_buffer_size(madang_server::limits::SOCKET_READ_BUFFER);
                async move { ws.on_upgrade(move |socket| session(socket, waiting, result)) }
            }),
        );
        // `madang serve` sets TCP_NODELAY on every connection; so does this.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app).await.unwrap_or_else(|e| fail(&format!("the server: {e}")));
    });
}

fn serve(move_bytes: usize, bytes: usize) {
    exit_with_the_generator();
    let mut poll = Poll::new().unwrap_or_else(|e| fail(&format!("the server's poll: {e}")));
    let mut listener = TcpListener::bind("127.0.0.1:0".parse().unwrap())
        .unwrap_or_else(|e| fail(&format!("the server cannot listen: {e}")));
    poll.registry().register(&mut listener, LISTENER, Interest::READABLE).unwrap();
    println!("{}", listener.local_addr().unwrap().port());
    std::io::stdout().flush().unwrap();
    let mut conns: Vec<Conn> = Vec::new();
    let mut waiting: HashMap<u32, usize> = HashMap::new();
    let mut events = Events::with_capacity(1024);
    let mut scratch = vec![0u8; 64 * 1024];
    let message = vec![7u8; bytes];
    loop {
        poll.poll(&mut events, None).unwrap();
        for event in &events {
            if event.token() == LISTENER {
                while let Ok((mut stream, _)) = listener.accept() {
                    let token = Token(conns.len());
                    if let Err(e) = stream.set_nodelay(true).and_then(|()| {
                        poll.registry().register(&mut stream, token, Interest::READABLE | Interest::WRITABLE)
                    }) {
                        fail(&format!("the server cannot take a connection: {e}"));
                    }
                    conns.push(Conn { stream, pending: Vec::new(), partner: None, out: Vec::new(), pair: None });
                }
                continue;
            }
            let id = event.token().0;
            if event.is_writable() && !conns[id].out.is_empty() {
                let conn = &mut conns[id];
                match conn.stream.write(&conn.out) {
                    Ok(n) => drop(conn.out.drain(..n)),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
            if !event.is_readable() {
                continue;
            }
            loop {
                let n = match conns[id].stream.read(&mut scratch) {
                    Ok(0) => return, // the generator closed: the run is over
                    Ok(n) => n,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(_) => return,
                };
                conns[id].pending.extend_from_slice(&scratch[..n]);
                if conns[id].pair.is_none() && conns[id].pending.len() >= 4 {
                    let pair = u32::from_le_bytes(conns[id].pending[..4].try_into().unwrap());
                    conns[id].pending.drain(..4);
                    conns[id].pair = Some(pair);
                    if let Some(other) = waiting.remove(&pair) {
                        conns[id].partner = Some(other);
                        conns[other].partner = Some(id);
                    } else {
                        waiting.insert(pair, id);
                    }
                }
                while conns[id].partner.is_some() && conns[id].pending.len() >= move_bytes {
                    conns[id].pending.drain(..move_bytes);
                    let partner = conns[id].partner.unwrap_or(id);
                    for to in [id, partner] {
                        let conn = &mut conns[to];
                        if !conn.out.is_empty() {
                            conn.out.extend_from_slice(&message);
                            continue;
                        }
                        match conn.stream.write(&message) {
                            Ok(n) if n == message.len() => {}
                            Ok(n) => conn.out.extend_from_slice(&message[n..]),
                            Err(e) if e.kind() == ErrorKind::WouldBlock => conn.out.extend_from_slice(&message),
                            Err(_) => return,
                        }
                    }
                }
                // A read shorter than the buffer emptied the socket: the next bytes raise a new
                // edge, so there is no read that would only say `EAGAIN`.
                if n < scratch.len() {
                    break;
                }
            }
        }
    }
}

/// The WebSocket opening handshake on `stream` (blocking): the request, then the server's
/// answer up to its blank line, which must be `101 Switching Protocols`.
fn upgrade(stream: &mut std::net::TcpStream, addr: std::net::SocketAddr) {
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap_or_else(|e| fail(&format!("the handshake: {e}")));
    // Byte by byte, so nothing after the blank line is taken from the stream (the server says
    // nothing before the first move).
    let mut answer = Vec::new();
    let mut byte = [0u8];
    while !answer.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => answer.push(byte[0]),
            _ => fail("the server closed the connection during the handshake"),
        }
    }
    if !answer.starts_with(b"HTTP/1.1 101") {
        fail(&format!("the server refused the WebSocket: {}", String::from_utf8_lossy(&answer)));
    }
}

fn proc_cpu_ms(pid: u32) -> f64 {
    common::cpu_ms(&pid.to_string()).unwrap_or_else(|| fail(&format!("process {pid} is gone")))
}

/// The generator's side of one pair.
struct Pair {
    conns: [TcpStream; 2],
    /// Bytes received by each connection, modulo the message size.
    received: [usize; 2],
    /// Whole messages each connection has had for the move in flight.
    got: [bool; 2],
    mover: usize,
    sent: Instant,
}

fn main() {
    let bytes = number("--bytes", 64, 1..=16_384) as usize;
    let move_bytes = number("--move-bytes", 100, 1..=16_384) as usize;
    let stack = Stack::from_args();
    if std::env::args().any(|a| a == "--serve") {
        match stack {
            Stack::Epoll => serve(move_bytes, bytes),
            Stack::Axum | Stack::AxumCurrent => serve_axum(stack == Stack::AxumCurrent, bytes),
        }
        return;
    }
    let pairs = number("--pairs", 100, 1..=10_000) as usize;
    let seconds = number("--seconds", 15, 1..=3_600);
    let warmup = number("--warmup", 3, 0..=600);
    if let Some(unknown) = std::env::args().skip(1).enumerate().find_map(|(i, a)| {
        (i % 2 == 0
            && !["--bytes", "--move-bytes", "--pairs", "--seconds", "--warmup", "--stack"].contains(&a.as_str()))
        .then_some(a)
    }) {
        fail(&format!(
            "unknown flag {unknown:?}: the flags are --pairs, --seconds, --warmup, --bytes, --move-bytes and --stack"
        ));
    }

    // A system call that does nothing, for scale.
    let t = Instant::now();
    let calls = 1_000_000u32;
    let mut sum = 0u32;
    for _ in 0..calls {
        sum = sum.wrapping_add(std::os::unix::process::parent_id());
    }
    let null_call_ns = t.elapsed().as_nanos() as f64 / f64::from(calls);
    std::hint::black_box(sum);

    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args(["--serve", "--bytes", &bytes.to_string(), "--move-bytes", &move_bytes.to_string()])
        .args(["--stack", stack.name()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| fail(&format!("starting the server: {e}")));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port: u16 = line.trim().parse().unwrap_or_else(|_| fail("the server did not say its port"));
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();

    let mut poll = Poll::new().unwrap();
    let mut set = Vec::with_capacity(pairs);
    for p in 0..pairs {
        let connect = || {
            let mut s = std::net::TcpStream::connect(addr).unwrap_or_else(|e| fail(&format!("connecting: {e}")));
            s.set_nodelay(true).unwrap();
            if stack == Stack::Epoll {
                s.write_all(&(p as u32).to_le_bytes()).unwrap();
            } else {
                upgrade(&mut s, addr);
                s.write_all(&stack.client_frame(p.to_string().as_bytes())).unwrap();
            }
            s.set_nonblocking(true).unwrap();
            TcpStream::from_std(s)
        };
        let mut conns = [connect(), connect()];
        for (side, conn) in conns.iter_mut().enumerate() {
            poll.registry().register(conn, Token(p * 2 + side), Interest::READABLE).unwrap();
        }
        set.push(Pair { conns, received: [0; 2], got: [false; 2], mover: 0, sent: Instant::now() });
    }
    // Every pair's partner is known once both said their number; a short pause lets the server
    // read them all before the first moves.
    std::thread::sleep(Duration::from_millis(200));
    let message = stack.client_frame(&vec![b'm'; move_bytes]);
    // What one result is on the wire.
    let result_bytes = stack.server_frame(bytes);
    for pair in &mut set {
        pair.sent = Instant::now();
        pair.conns[0].write_all(&message).unwrap();
    }

    let start = Instant::now();
    let window_start = start + Duration::from_secs(warmup);
    let end = window_start + Duration::from_secs(seconds);
    let (mut moves, mut round_trips) = (0u64, Vec::<u32>::new());
    let (mut server0, mut own0) = (None, 0.0);
    let mut events = Events::with_capacity(1024);
    let mut scratch = vec![0u8; 64 * 1024];
    loop {
        let now = Instant::now();
        if now >= end {
            break;
        }
        if server0.is_none() && now >= window_start {
            server0 = Some(proc_cpu_ms(child.id()));
            own0 = proc_cpu_ms(std::process::id());
            moves = 0;
            round_trips.clear();
        }
        poll.poll(&mut events, Some(Duration::from_millis(100))).unwrap();
        for event in &events {
            let (p, side) = (event.token().0 / 2, event.token().0 % 2);
            let pair = &mut set[p];
            loop {
                let n = match pair.conns[side].read(&mut scratch) {
                    Ok(0) => fail("the server closed a connection"),
                    Ok(n) => n,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) => fail(&format!("reading: {e}")),
                };
                pair.received[side] += n;
                if pair.received[side] >= result_bytes {
                    pair.received[side] -= result_bytes;
                    pair.got[side] = true;
                }
                if n < scratch.len() {
                    break;
                }
            }
            if pair.got == [true, true] {
                pair.got = [false, false];
                moves += 1;
                round_trips.push(pair.sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                pair.mover = 1 - pair.mover;
                pair.sent = Instant::now();
                let mover = pair.mover;
                pair.conns[mover].write_all(&message).unwrap_or_else(|e| fail(&format!("writing: {e}")));
            }
        }
    }
    let window = Instant::now().duration_since(window_start).as_secs_f64();
    let server_ms = proc_cpu_ms(child.id()) - server0.unwrap_or(0.0);
    let own_ms = proc_cpu_ms(std::process::id()) - own0;
    drop(set);
    let _ = child.kill();
    let _ = child.wait();
    round_trips.sort_unstable();
    let q = |f: f64| round_trips.get(((round_trips.len() as f64 - 1.0) * f) as usize).copied().unwrap_or(0);
    println!(
        "stack: {}; pairs: {pairs}, moves of {move_bytes} bytes, results of {bytes} bytes to both; window {window:.1} s",
        stack.name()
    );
    println!("moves: {moves} ({:.0} /s)", moves as f64 / window);
    println!(
        "server CPU: {server_ms:.0} ms = {:.1} % of one core; {:.2} µs per move (one read, two writes)",
        server_ms / window / 10.0,
        server_ms * 1000.0 / moves.max(1) as f64
    );
    println!(
        "generator CPU: {:.1} % of one core; {:.2} µs per move (one write, two reads)",
        own_ms / window / 10.0,
        own_ms * 1000.0 / moves.max(1) as f64
    );
    println!("round trip: p50 {} µs, p99 {} µs, max {} µs", q(0.5), q(0.99), q(1.0));
    println!("a system call that does nothing (getppid): {null_call_ns:.0} ns");
}
