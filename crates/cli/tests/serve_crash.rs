//! `madang serve` killed with SIGKILL loses no acknowledged action: the real binary on a
//! temporary data directory plays part of a game, is killed (once between commands, once in
//! the middle of one), restarts on the same directory and finishes the game, which is then
//! identical to the same seed played without interruption.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::path::PathBuf;

use serde_json::{Value, json};

#[path = "common/serve.rs"]
mod serve;
use serve::Serve;

struct Client {
    http: reqwest::Client,
    base: String,
    cookie: Option<String>,
}

impl Client {
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

    async fn play_first(&mut self, state: &Value) -> Value {
        let id = state["id"].as_str().unwrap();
        let body = json!({"action": state["moves"][0]["action"], "version": state["version"]});
        let (status, message) = self.call(reqwest::Method::POST, &format!("/api/games/{id}/actions"), Some(body)).await;
        assert_eq!(status, 200, "{message}");
        message["state"].clone()
    }

    async fn state(&mut self, id: &str) -> Value {
        let (status, state) = self.call(reqwest::Method::GET, &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{state}");
        state
    }

    async fn actions(&mut self, id: &str) -> Vec<Value> {
        let (_, record) = self.call(reqwest::Method::GET, &format!("/api/games/{id}/record"), None).await;
        record["actions"].as_array().unwrap().clone()
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("madang-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_killed_with_sigkill_loses_no_acknowledged_action() {
    let dir = temp_dir();
    let game = json!({
        "game": "ludo",
        "seats": [{"kind": "human"}, {"kind": "cpu", "level": "normal"}, {"kind": "cpu", "level": "hard"}, {"kind": "cpu", "level": "easy"}],
        "seed": "c0ffee".repeat(10) + "c0ff",
    });

    let server = Serve::start(&dir);
    let mut client = Client { http: reqwest::Client::new(), base: server.base.clone(), cookie: None };
    let (status, mut state) = client.call(reqwest::Method::POST, "/api/games", Some(game.clone())).await;
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_owned();
    for _ in 0..10 {
        state = client.play_first(&state).await;
    }
    let acknowledged = client.actions(&id).await;
    assert_eq!(acknowledged.len() as u64, state["version"].as_u64().unwrap());

    // Killed between commands: everything acknowledged is there, and the state is the same.
    server.kill();
    let server = Serve::start(&dir);
    client.base = server.base.clone();
    assert_eq!(client.state(&id).await, state);
    assert_eq!(client.actions(&id).await, acknowledged);
    for _ in 0..10 {
        state = client.play_first(&state).await;
    }
    let acknowledged = client.actions(&id).await;

    // Killed in the middle of a command: it is either stored whole or not at all.
    let body = json!({"action": state["moves"][0]["action"], "version": state["version"]});
    let request = client
        .http
        .post(format!("{}/api/games/{id}/actions", client.base))
        .header("cookie", client.cookie.clone().unwrap())
        .header("content-type", "application/json")
        .body(body.to_string())
        .send();
    let in_flight = tokio::spawn(request);
    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    server.kill();
    let _ = in_flight.await;
    let server = Serve::start(&dir);
    client.base = server.base.clone();
    let mut state = client.state(&id).await;
    let after = client.actions(&id).await;
    assert_eq!(after[..acknowledged.len()], acknowledged[..], "an acknowledged action was lost");
    assert!(state["version"].as_u64().unwrap() as usize == after.len());
    eprintln!("the command in flight was {}", if after.len() > acknowledged.len() { "stored" } else { "not stored" });

    while state["status"] != "finished" {
        state = client.play_first(&state).await;
    }
    let interrupted = client.actions(&id).await;

    // The same seed, uninterrupted.
    let (status, mut other) = client.call(reqwest::Method::POST, "/api/games", Some(game)).await;
    assert_eq!(status, 201);
    while other["status"] != "finished" {
        other = client.play_first(&other).await;
    }
    let uninterrupted = client.actions(other["id"].as_str().unwrap()).await;
    assert_eq!(interrupted, uninterrupted, "the continuation differs from an uninterrupted game");
    assert_eq!(state["result"], other["result"]);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
