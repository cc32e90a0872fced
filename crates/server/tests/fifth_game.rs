//! A fifth game added only to the games registry (`madang-games`'s test fixture *Coin*, one
//! chance node: the `heads` seat flips, the side shown wins) is offered, played, stored,
//! counted and replayed by the server with no change to the server (issue 15, "Games describe
//! themselves"; `tests/names.rs` checks the server names no game).

#![allow(clippy::unwrap_used)]

mod common;

use common::{TempDir, TestServer};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_made_up_fifth_game_is_offered_played_stored_and_counted() {
    let dir = TempDir::new("fifth-game");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    // The catalogue lists it from its declaration: modes, endings, seats, its board.
    let (_, catalogue) = client.get("/api/catalogue").await;
    let coin = catalogue["games"].as_array().unwrap().iter().find(|g| g["game"] == "coin").cloned().unwrap();
    assert_eq!(coin["modes"], json!(["computer", "same_screen", "room"]));
    assert_eq!(coin["seats"], json!(["heads", "tails"]));
    assert_eq!(coin["board"], json!({"sides": ["heads", "tails"]}));
    // Played against the computer: the person's own flip waits for them, as any roll does.
    let state =
        client.create(json!({"game": "coin", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]})).await;
    assert_eq!((state["to_move"].clone(), state["to_act"].clone()), (json!("chance"), json!("heads")));
    assert_eq!(state["moves"], json!([{"action": "flip", "seat": "heads", "kind": "flip"}]));
    let message = client.play_first(&state).await;
    let end = &message["state"];
    assert_eq!(end["status"], "finished");
    let winner = end["result"]["winner"].as_str().unwrap();
    assert_eq!(end["pieces"], json!(winner));
    assert_eq!(message["events"][0]["events"][0]["kind"], "flip");
    // Stored and counted, and its record replays to the same end.
    let id = end["id"].as_str().unwrap();
    let (_, record) = client.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record["actions"], json!([format!("flip {winner}")]));
    common::check_record(&record, end);
    let (_, stats) = client.get("/api/stats").await;
    let line = stats["stats"].as_array().unwrap().iter().find(|l| l["game"] == "coin").cloned().unwrap();
    assert_eq!(line["played"], 1);
    assert_eq!(line[if winner == "heads" { "won" } else { "lost" }], 1);
    // Offered in rooms too (its modes say so).
    let (status, room) = client.post("/api/rooms", json!({"game": "coin"})).await;
    assert_eq!(status, 201, "{room}");
    // The set-up reads its seats from its declaration.
    let (status, setup) = client.post("/api/setup", json!({"game": "coin"})).await;
    assert_eq!(status, 200, "{setup}");
    assert_eq!(setup["seats"], json!([{"name": "heads", "side": "heads"}, {"name": "tails", "side": "tails"}]));
    server.stop().await;
}
