//! Test support: a real server on 127.0.0.1 with an ephemeral port, in a temporary data
//! directory, over SQLite or the PostgreSQL named by `MADANG_TEST_POSTGRES`; an HTTP client
//! that keeps its player cookie; a WebSocket client.

#![allow(dead_code, clippy::unwrap_used, clippy::print_stderr)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::{SinkExt, StreamExt};
use madang_server::{Config, Limits, Quotas, Server, Synchronous};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The databases the storage tests run on: SQLite always, PostgreSQL when
/// `MADANG_TEST_POSTGRES` is set (and it must be under CI).
pub fn backends() -> Vec<Option<String>> {
    let mut backends = vec![None];
    match std::env::var("MADANG_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => backends.push(Some(url)),
        _ => assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but MADANG_TEST_POSTGRES is not set: the PostgreSQL suite must run under CI (scripts/test sets it)"
        ),
    }
    backends
}

/// A temporary folder removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let dir = std::env::temp_dir().join(format!("madang-{name}-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A test server's configuration: loopback on a free port, the data in `dir`, no quotas (a test
/// makes many games and rooms from one address), the browser client's files, a single node.
pub fn config(
    dir: &TempDir,
    database: Option<String>,
    allow_fixed_seed: bool,
    rooms: madang_server::rooms::RoomConfig,
) -> Config {
    Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.0.clone(),
        database,
        allow_fixed_seed,
        synchronous: Synchronous::Normal,
        public_url: None,
        rooms,
        limits: Limits { quotas: Quotas::off(), ..Limits::default() },
        files: Some(files),
        cluster: None,
    }
}

/// A running server.
pub struct TestServer {
    pub base: String,
    pub addr: std::net::SocketAddr,
    pub probe: madang_server::Probe,
    stop: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

impl TestServer {
    pub async fn start(dir: &TempDir, database: Option<String>, allow_fixed_seed: bool) -> TestServer {
        Self::start_with(dir, database, allow_fixed_seed, madang_server::rooms::RoomConfig::default()).await
    }

    /// Starts with these room limits and timings (and no quotas: a test makes many games and
    /// rooms from one address).
    pub async fn start_with(
        dir: &TempDir,
        database: Option<String>,
        allow_fixed_seed: bool,
        rooms: madang_server::rooms::RoomConfig,
    ) -> TestServer {
        Self::start_config(config(dir, database, allow_fixed_seed, rooms)).await
    }

    /// Starts with this configuration.
    pub async fn start_config(config: Config) -> TestServer {
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr().unwrap();
        let probe = server.probe();
        let (stop, stopped) = oneshot::channel::<()>();
        let handle = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        TestServer { base: format!("http://{addr}"), addr, probe, stop: Some(stop), handle: Some(handle) }
    }

    /// Stops gracefully and waits.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(handle) = self.handle.take() {
            handle.await.unwrap();
        }
    }

    pub fn client(&self) -> Client {
        Client { base: self.base.clone(), http: reqwest::Client::new(), cookie: None }
    }
}

/// An HTTP client for one player (it keeps the cookie the server sets).
pub struct Client {
    pub base: String,
    pub http: reqwest::Client,
    pub cookie: Option<String>,
}

impl Client {
    /// Sends a request; returns status and JSON body (every answer must be JSON).
    pub async fn send(&mut self, method: reqwest::Method, path: &str, body: Option<String>) -> (u16, Value) {
        let mut request = self.http.request(method.clone(), format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body);
        }
        let response = request.send().await.unwrap();
        if let Some(set) = response.headers().get("set-cookie") {
            let set = set.to_str().unwrap();
            assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "cookie flags: {set}");
            self.cookie = Some(set.split(';').next().unwrap().to_owned());
        }
        let status = response.status().as_u16();
        let content_type =
            response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        let text = response.text().await.unwrap();
        assert!(content_type.starts_with("application/json"), "{method} {path}: {status} {content_type:?} {text}");
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}")))
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body.to_string())).await
    }

    pub async fn post_raw(&mut self, path: &str, body: &str) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body.to_owned())).await
    }

    /// Creates a game; panics unless 201.
    pub async fn create(&mut self, body: Value) -> Value {
        let (status, state) = self.post("/api/games", body.clone()).await;
        assert_eq!(status, 201, "create {body}: {state}");
        state
    }

    /// The game's state.
    pub async fn state(&mut self, id: &str) -> Value {
        let (status, state) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{state}");
        state
    }

    /// Plays the first legal action; returns the events message.
    pub async fn play_first(&mut self, state: &Value) -> Value {
        let id = state["id"].as_str().unwrap();
        let action = state["moves"][0]["action"].as_str().unwrap_or_else(|| panic!("no moves in {state}"));
        let (status, message) = self
            .post(&format!("/api/games/{id}/actions"), json!({"action": action, "version": state["version"]}))
            .await;
        assert_eq!(status, 200, "{action}: {message}");
        message
    }
}

/// Asserts a refusal: status, code, and the message containing `needle`.
pub fn assert_refused(answer: &(u16, Value), status: u16, code: &str, needle: &str) {
    let (got, body) = answer;
    assert_eq!(*got, status, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(needle), "message {message:?} should name {needle:?}");
}

/// A WebSocket client.
pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
}

impl Ws {
    pub async fn connect(server: &TestServer, client: &Client, id: &str) -> Ws {
        let mut request = format!("ws://{}/api/games/{id}/ws", server.addr).into_client_request().unwrap();
        if let Some(cookie) = &client.cookie {
            request.headers_mut().insert("cookie", cookie.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Ws { stream }
    }

    pub async fn send(&mut self, value: Value) {
        self.stream.send(Message::Text(value.to_string().into())).await.unwrap();
    }

    /// Every JSON text answer until the server closes the connection, and its close frame.
    pub async fn answers_until_close(&mut self) -> (Vec<Value>, tokio_tungstenite::tungstenite::protocol::CloseFrame) {
        let mut answers = Vec::new();
        loop {
            let message = tokio::time::timeout(std::time::Duration::from_secs(10), self.stream.next())
                .await
                .expect("an answer within 10 s")
                .expect("a close frame before the end of the stream")
                .unwrap();
            match message {
                Message::Text(text) => answers.push(serde_json::from_str(&text).unwrap()),
                Message::Close(frame) => return (answers, frame.expect("a close code")),
                _ => {}
            }
        }
    }

    pub async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(std::time::Duration::from_secs(10), self.stream.next())
                .await
                .expect("a message within 10 s")
                .expect("stream open")
                .unwrap();
            if let Message::Text(text) = message {
                return serde_json::from_str(&text).unwrap();
            }
        }
    }
}

/// A text frame "hi" without the mask every client frame must carry (RFC 6455 §5.3).
pub const UNMASKED_TEXT_FRAME: &[u8] = &[0x81, 0x02, b'h', b'i'];

/// A masked (key 0) text frame whose two bytes are not UTF-8.
pub const NOT_UTF8_TEXT_FRAME: &[u8] = &[0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe];

/// A masked (key 0) close frame with code 1000: the server answers with its own (RFC 6455
/// §5.5.1), echoing the code.
pub const NORMAL_CLOSE_FRAME: &[u8] = &[0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe8];

/// Writes `bytes` to a WebSocket's TCP connection as they are (a frame the client library would
/// never send), then reads until the server's close frame: its code and reason.
pub async fn close_after_raw_frame(
    stream: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    bytes: &[u8],
) -> (u16, String) {
    use tokio::io::AsyncWriteExt;
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = stream.get_mut() else { panic!("a plain TCP connection") };
    tcp.write_all(bytes).await.unwrap();
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(10), stream.next())
            .await
            .expect("an answer within 10 s")
            .expect("a close frame before the end of the stream")
            .expect("a frame the client reads");
        if let Message::Close(frame) = message {
            let frame = frame.expect("a close code and reason");
            return (u16::from(frame.code), frame.reason.to_string());
        }
    }
}

/// Replays the downloaded record and compares it with the final state; checks the seed.
pub fn check_record(record: &Value, state: &Value) {
    let parsed = madang_games::Record::from_json(&record.to_string()).unwrap();
    let view = serde_json::to_value(madang_games::replay(&parsed).unwrap()).unwrap();
    for key in ["status", "to_move", "awaiting", "legal", "pieces", "result"] {
        assert_eq!(view[key], state[key], "{key} differs between the replayed record and the server's state");
    }
    if state["status"] == "finished" {
        assert_eq!(record["seed"], state["seed"]);
        let checked = madang_games::verify(&parsed).unwrap();
        assert!(checked > 0, "no chance action verified");
    } else {
        assert!(record.get("seed").is_none(), "the seed must stay secret during play");
    }
}

/// The browser client's files (`madang-web`), as `madang serve` hands them to the server.
pub fn files(path: &str) -> Option<madang_server::web::StaticFile> {
    madang_web::get(path).map(|f| madang_server::web::StaticFile { data: f.data, mime: f.mime, etag: f.etag })
}
