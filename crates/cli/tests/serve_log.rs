//! `madang serve`'s log at the default level (`info,sqlx=warn`, no `RUST_LOG`): one line per
//! HTTP request with method, path, status and latency (docs/server.md, "Running it"), and none
//! for the messages of a WebSocket.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_is_one_log_line_at_the_default_level() {
    let dir = std::env::temp_dir().join(format!("madang-serve-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_madang"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let base = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_owned();

    let http = reqwest::Client::new();
    assert_eq!(http.get(format!("{base}/api/health")).send().await.unwrap().status(), 200);
    let created = http
        .post(format!("{base}/api/games"))
        .header("content-type", "application/json")
        .body(r#"{"game": "ur"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let cookie = created.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let state: Value = created.json().await.unwrap();
    assert_eq!(http.get(format!("{base}/api/nothing")).send().await.unwrap().status(), 404);
    // A WebSocket: its upgrade is a request; its messages are not.
    let id = state["id"].as_str().unwrap();
    let mut request = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://")).into_client_request().unwrap();
    request.headers_mut().insert("cookie", cookie.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    for message in [json!({"type": "hello"}), json!({"type": "ping"}), json!({"type": "ping"})] {
        ws.send(Message::Text(message.to_string().into())).await.unwrap();
        assert!(matches!(ws.next().await.unwrap().unwrap(), Message::Text(_)));
    }
    ws.close(None).await.unwrap();
    // The last request's line is written before its response is sent.
    assert_eq!(http.get(format!("{base}/api/health")).send().await.unwrap().status(), 200);

    child.kill().unwrap();
    child.wait().unwrap();
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let requests: Vec<&str> = log.lines().filter(|l| l.contains("finished processing request")).collect();
    let expected = [
        ("GET", "/api/health", "200"),
        ("POST", "/api/games", "201"),
        ("GET", "/api/nothing", "404"),
        ("GET", &format!("/api/games/{id}/ws"), "101"),
        ("GET", "/api/health", "200"),
    ];
    assert_eq!(requests.len(), expected.len(), "one line per request:\n{log}");
    for (line, (method, path, status)) in requests.iter().zip(expected) {
        assert!(line.contains(" INFO "), "{line}");
        assert!(line.contains(&format!("method={method}")), "{line}");
        assert!(line.contains(&format!("uri={path} ")), "{line}");
        assert!(line.contains(&format!("status={status}")), "{line}");
        assert!(line.contains("latency="), "{line}");
    }
}
