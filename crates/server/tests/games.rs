//! Whole games over real HTTP on 127.0.0.1 against the real server, on SQLite and (when
//! `MADANG_TEST_POSTGRES` is set) PostgreSQL: creation, the CPU playing until a human must act,
//! the human seat choosing the first legal action each time, the end, the record replaying to
//! the same state and verifying against the revealed seed, history and stats.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod common;

use common::{Client, TempDir, TestServer, backends, check_record};
use serde_json::{Value, json};

/// Plays the game created by `body` to the end; returns the final state.
async fn play_to_end(client: &mut Client, body: Value) -> Value {
    let mut state = client.create(body).await;
    assert!(state["commitment"].as_str().unwrap().len() == 64);
    for _ in 0..20_000 {
        if state["status"] == "finished" {
            assert!(state["seed"].as_str().is_some_and(|s| s.len() == 64), "seed revealed at the end");
            assert!(state["moves"].as_array().unwrap().is_empty());
            return state;
        }
        assert!(state["seed"].is_null(), "the seed stays secret during play");
        // The CPU and the dice have played until a person must act: decide, or throw their own
        // roll (the server waits for it and draws it when asked).
        let to_act = state["to_act"].as_str().unwrap();
        assert!(state["my_seats"].as_array().unwrap().iter().any(|s| s == to_act), "{to_act} is not human: {state}");
        let moves = state["moves"].as_array().unwrap();
        let throws = state["to_move"] == "chance";
        if throws {
            // One move: the awaited kind's word (`roll`, `throw`); `legal` lists the outcomes
            // with their weights, as `madang replay` does.
            let word = state["awaiting"].as_str().unwrap();
            assert!(word == "roll" || word == "throw", "{state}");
            assert_eq!(moves, &vec![json!({"action": word, "seat": to_act, "kind": word})]);
            assert!(state["legal"][0]["weight"].as_u64().is_some(), "{state}");
        } else {
            assert_eq!(state["to_move"], to_act);
            assert!(!moves.is_empty() && moves.len() == state["legal"].as_array().unwrap().len());
        }
        for m in moves {
            assert_eq!(m["seat"], to_act);
        }
        let message = client.play_first(&state).await;
        assert_eq!(message["type"], "events");
        assert_eq!(message["from"], state["version"]);
        let (from, to) = (message["from"].as_u64().unwrap(), message["to"].as_u64().unwrap());
        let events = message["events"].as_array().unwrap();
        assert_eq!(events.len() as u64, to - from);
        if throws {
            // The outcome the server drew, by chance, in the awaited kind's notation.
            assert_eq!(events[0]["by"], "chance");
            let word = state["awaiting"].as_str().unwrap();
            assert!(events[0]["action"].as_str().unwrap().starts_with(&format!("{word} ")), "{}", events[0]);
        } else {
            assert_eq!(events[0]["by"], "human");
        }
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e["version"].as_u64().unwrap(), from + 1 + i as u64);
        }
        state = message["state"].clone();
        assert_eq!(state["version"].as_u64().unwrap(), to);
    }
    panic!("the game did not end");
}

async fn whole_game(body: Value) {
    for database in backends() {
        let dir = TempDir::new("whole-game");
        let server = TestServer::start(&dir, database.clone(), false).await;
        let mut client = server.client();
        let state = play_to_end(&mut client, body.clone()).await;
        let id = state["id"].as_str().unwrap();
        // The state reloaded equals the one answered.
        assert_eq!(client.state(id).await, state);
        let (status, record) = client.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(status, 200);
        check_record(&record, &state);
        // History and stats know it.
        let (_, history) = client.get("/api/history").await;
        assert_eq!(history["games"][0]["id"], id);
        assert_eq!(history["games"][0]["status"], "finished");
        let outcome = history["games"][0]["outcome"].as_str().unwrap().to_owned();
        let (_, stats) = client.get("/api/stats").await;
        let line = &stats["stats"][0];
        assert_eq!(
            (line["game"].clone(), line["played"].clone(), line["ongoing"].clone()),
            (body["game"].clone(), json!(1), json!(0))
        );
        let counted: u64 = ["won", "lost", "drawn", "no_result"].iter().map(|k| line[k].as_u64().unwrap()).sum();
        assert_eq!(counted, 1, "{outcome}: {line}");
        assert_eq!(line[outcome.as_str()], 1);
        // Replay steps: step 0 is the start, the last step is the end.
        let steps = record["actions"].as_array().unwrap().len();
        let (_, first) = client.get(&format!("/api/games/{id}/steps/0")).await;
        assert_eq!(
            (first["step"].clone(), first["steps"].clone(), first["action"].clone()),
            (json!(0), json!(steps), Value::Null)
        );
        let (_, last) = client.get(&format!("/api/games/{id}/steps/{steps}")).await;
        assert_eq!(last["pieces"], state["pieces"]);
        assert_eq!(last["result"], state["result"]);
        server.stop().await;
        eprintln!(
            "{} on {}: {} actions, {outcome}",
            body["game"],
            database.as_deref().map_or("sqlite", |_| "postgres"),
            steps
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_ur_game_against_the_computer() {
    whole_game(
        json!({"game": "ur", "rules": {"pieces": 1}, "seats": [{"kind": "human"}, {"kind": "cpu", "level": "hard"}]}),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_yut_game_against_the_computer() {
    whole_game(json!({"game": "yut", "rules": {"pieces": 1, "order": "seated"},
                      "seats": [{"kind": "human"}, {"kind": "cpu", "level": "normal"}]}))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_ludo_game_against_the_computer() {
    whole_game(json!({"game": "ludo", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"},
                      {"kind": "cpu", "level": "normal"}, {"kind": "cpu", "level": "hard"}]}))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_dice_poker_game_against_the_computer() {
    whole_game(json!({"game": "dice-poker", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "normal"}]})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_same_screen_game_counts_as_played_only() {
    for database in backends() {
        let dir = TempDir::new("same-screen");
        let server = TestServer::start(&dir, database, false).await;
        let mut client = server.client();
        let state = play_to_end(
            &mut client,
            json!({"game": "ur", "rules": {"pieces": 1}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
        assert_eq!(state["mode"], "same_screen");
        assert_eq!(state["my_seats"], json!(["light", "dark"]));
        let (_, stats) = client.get("/api/stats").await;
        let line = &stats["stats"][0];
        assert_eq!(
            (line["mode"].as_str(), line["played"].as_u64(), line["won"].as_u64(), line["lost"].as_u64()),
            (Some("same_screen"), Some(1), Some(0), Some(0))
        );
        server.stop().await;
    }
}
