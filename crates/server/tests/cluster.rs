//! Several nodes on one PostgreSQL (`cluster.rs`, `docs/server.md` "Running several nodes"),
//! in one process: a request through any node reaches the owner (HTTP and WebSocket), the
//! public lobby list is every node's, a node whose lease was taken over cannot write, and a
//! node that stops hands its games over. (Killed processes: `crates/cli/tests/cluster.rs`.)
//! PostgreSQL only: skipped without `MADANG_TEST_POSTGRES` (which CI sets).

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod common;

use std::time::Duration;

use common::{Client, TempDir, TestServer, Ws};
use madang_server::Config;
use madang_server::cluster::ClusterConfig;
use serde_json::{Value, json};
use sqlx::Connection;

fn postgres() -> Option<String> {
    common::backends().into_iter().flatten().next()
}

async fn node(dir: &TempDir, database: &str) -> TestServer {
    TestServer::start_config(Config {
        cluster: Some(ClusterConfig::new("http://127.0.0.1:0")),
        ..common::config(dir, Some(database.to_owned()), true, madang_server::rooms::RoomConfig::default())
    })
    .await
}

/// The same player (cookie) on another node.
fn through(client: &Client, node: &TestServer) -> Client {
    Client { base: node.base.clone(), http: reqwest::Client::new(), cookie: client.cookie.clone() }
}

async fn lease(db: &mut sqlx::PgConnection, key: &str) -> Option<(String, i64)> {
    sqlx::query_as("SELECT n.url, l.epoch FROM leases l JOIN cluster_nodes n ON n.id = l.node WHERE l.key = $1")
        .bind(key)
        .fetch_optional(db)
        .await
        .unwrap()
}

async fn stored_version(db: &mut sqlx::PgConnection, id: &str) -> (i64, i64) {
    // A move of a game in play writes its action rows only: the version is the row's, or the
    // actions' count when that is past it.
    sqlx::query_as(
        "SELECT GREATEST(g.version, (SELECT count(*) FROM actions a WHERE a.game_id = g.id)), \
         (SELECT count(*) FROM actions a WHERE a.game_id = g.id) FROM games g WHERE g.id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}

fn new_game() -> Value {
    json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}], "seed": "07".repeat(32)})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_node_reaches_the_owner_and_a_node_that_lost_its_lease_cannot_write() {
    let Some(database) = postgres() else { return };
    let (dir_a, dir_b) = (TempDir::new("node-a"), TempDir::new("node-b"));
    let a = node(&dir_a, &database).await;
    let b = node(&dir_b, &database).await;
    let mut db = sqlx::PgConnection::connect(&database).await.unwrap();

    // A game created on A is A's; the same player reaches it through B (the cookie A signed
    // is good on B: the nodes share the key).
    let mut on_a = a.client();
    let created = on_a.create(new_game()).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let key = format!("game:{id}");
    assert_eq!(lease(&mut db, &key).await.map(|l| l.0), Some(a.base.clone()), "the creating node owns the game");
    let mut on_b = through(&on_a, &b);
    let state = on_b.state(&id).await;
    assert_eq!((state["id"].as_str(), &state["version"]), (Some(id.as_str()), &created["version"]));
    let message = on_b.play_first(&state).await;
    assert_eq!(message["type"], "events", "{message}");
    assert_eq!(lease(&mut db, &key).await.map(|l| l.0), Some(a.base.clone()), "B forwarded; A still owns it");

    // A WebSocket through B is joined to A's: hello, then an action, answered in order.
    let mut ws = Ws::connect(&b, &on_b, &id).await;
    let state = on_b.state(&id).await;
    ws.send(json!({"type": "hello", "version": state["version"]})).await;
    let caught_up = ws.recv().await;
    assert_eq!((caught_up["type"].as_str(), &caught_up["state"]["version"]), (Some("state"), &state["version"]));
    let action = state["moves"][0]["action"].as_str().unwrap();
    ws.send(json!({"type": "action", "action": action, "version": state["version"]})).await;
    let answer = ws.recv().await;
    assert_eq!((answer["type"].as_str(), &answer["from"]), (Some("events"), &state["version"]), "{answer}");

    // Fencing: another node takes the lease over while A still believes it holds it (a pause,
    // a split). A's next write is refused, nothing of it is stored, and A lets the game go:
    // its WebSocket closes with 1012 so that the client reconnects.
    let b_node: String = sqlx::query_scalar("SELECT id FROM cluster_nodes WHERE url = $1")
        .bind(&b.base)
        .fetch_one(&mut db)
        .await
        .unwrap();
    let mut direct = Ws::connect(&a, &on_a, &id).await;
    let state = on_a.state(&id).await;
    direct.send(json!({"type": "hello", "version": state["version"]})).await;
    let _ = direct.recv().await;
    let before = stored_version(&mut db, &id).await;
    sqlx::query("UPDATE leases SET node = $1, epoch = epoch + 1 WHERE key = $2")
        .bind(&b_node)
        .bind(&key)
        .execute(&mut db)
        .await
        .unwrap();
    let action = state["moves"][0]["action"].as_str().unwrap();
    let refused =
        on_a.post(&format!("/api/games/{id}/actions"), json!({"action": action, "version": state["version"]})).await;
    common::assert_refused(&refused, 503, "moved", "another server node");
    assert_eq!(stored_version(&mut db, &id).await, before, "the fenced write stored nothing");
    let (_, close) = direct.answers_until_close().await;
    assert_eq!(u16::from(close.code), 1012, "{close:?}");

    // Asked again through A, the request goes to B, which loads the game from storage and
    // applies the action once.
    let state_again = on_a.state(&id).await;
    assert_eq!(state_again["version"], state["version"], "B loaded the stored game");
    let message = on_a.play_first(&state_again).await;
    assert_eq!(message["from"], state["version"]);
    let after = stored_version(&mut db, &id).await;
    assert_eq!(after.0, message["to"].as_i64().unwrap(), "stored at the version answered");
    assert_eq!(lease(&mut db, &key).await.map(|l| l.0), Some(b.base.clone()));
    drop(ws);

    // A public lobby created on B is listed by A (rooms.listing, LISTEN/NOTIFY).
    let (status, room) = on_b.post("/api/rooms", json!({"game": "ur", "public": true})).await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    let mut listed = false;
    for _ in 0..50 {
        let (_, rooms) = on_a.get("/api/rooms").await;
        if rooms["rooms"].as_array().unwrap().iter().any(|r| r["code"] == code.as_str()) {
            listed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed, "A lists B's public room {code}");
    // Its snapshot and the join work through A.
    let mut guest = a.client();
    let (status, joined) = guest.post(&format!("/api/rooms/{code}/join"), json!({})).await;
    assert_eq!((status, joined["seat"].as_str()), (200, Some("dark")), "{joined}");

    // B stops (SIGTERM): it hands everything over, and the game continues through A.
    let (a_base, b_base) = (a.base.clone(), b.base.clone());
    b.stop().await;
    assert_eq!(lease(&mut db, &key).await, None, "the stopping node released its leases");
    let state = on_a.state(&id).await;
    assert_eq!(state["version"].as_i64(), Some(after.0));
    let (status, snapshot) = guest.get(&format!("/api/rooms/{code}")).await;
    assert_eq!((status, snapshot["room"]["seats"][1]["kind"].as_str()), (200, Some("human")), "{snapshot}");
    a.stop().await;
    // Nothing is left of either node.
    let nodes: i64 = sqlx::query_scalar("SELECT count(*) FROM cluster_nodes WHERE url = $1 OR url = $2")
        .bind(&a_base)
        .bind(&b_base)
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(nodes, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_needs_postgresql() {
    let dir = TempDir::new("node-sqlite");
    let config = Config {
        cluster: Some(ClusterConfig::new("http://127.0.0.1:0")),
        ..common::config(&dir, None, false, madang_server::rooms::RoomConfig::default())
    };
    let error = madang_server::Server::bind(config).await.err().expect("refused");
    assert!(error.to_string().contains("--node-url needs --database postgres://"), "{error}");
}
