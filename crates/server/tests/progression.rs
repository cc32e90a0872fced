//! Progression (issue 18, `docs/progression.md`) over real HTTP, on SQLite and (when
//! `MADANG_TEST_POSTGRES` is set) PostgreSQL: awards computed by the server from the stored
//! record when a game ends, the figures of the formula worked out by hand, the totals equal to
//! the awards recomputed from every stored record, Ludo left out, and no client request that can
//! grant experience or an achievement.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TempDir, TestServer, assert_refused, backends};
use madang_server::db::Db;
use madang_server::game::LiveGame;
use madang_server::{Synchronous, progress};
use serde_json::{Value, json};

fn database_url(dir: &TempDir, database: &Option<String>) -> String {
    database.clone().unwrap_or_else(|| format!("sqlite://{}", dir.0.join("madang.db").display()))
}

async fn play_out(client: &mut Client, mut state: Value) -> Value {
    while state["status"] != "finished" {
        state = client.play_first(&state).await["state"].clone();
    }
    state
}

/// The experience of the formula, by hand: 20 for the finish, 30 more for a win (an `easy`
/// opponent adds no strength bonus) or 10 for a draw, 3 a capture of the player's up to 5.
fn expected_xp(won: bool, drawn: bool, captures: u64) -> u64 {
    20 + if won {
        30
    } else if drawn {
        10
    } else {
        0
    } + 3 * captures.min(5)
}

/// The captures `seat` made in the stored game `id`, counted from its typed events.
async fn captures_by(db: &Db, id: &str, seat: &str) -> u64 {
    let (row, actions) = db.load_game(id).await.unwrap().unwrap();
    let live = LiveGame::load(&row, &actions).unwrap();
    live.log
        .iter()
        .filter_map(|e| match &e.kind {
            madang_server::game::EntryKind::Action { events, .. } => Some(events),
            madang_server::game::EntryKind::End { .. } => None,
        })
        .flatten()
        .map(madang_games::Event::value)
        .filter(|e| e["kind"] == "capture" && e["seat"] == seat)
        .count() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn awards_follow_the_formula_and_recomputing_every_record_gives_the_stored_totals() {
    for database in backends() {
        let dir = TempDir::new("progression");
        let server = TestServer::start(&dir, database.clone(), true).await;
        let mut client = server.client();
        let mut other = server.client();
        let easy = json!({"kind": "cpu", "level": "easy"});

        // Two Ur games and a Dice Poker game played to the end against `easy`.
        let mut total = 0;
        let mut ids = Vec::new();
        for (game, seat) in [("ur", "light"), ("ur", "light"), ("dice-poker", "white")] {
            let state = client.create(json!({"game": game, "seats": [{"kind": "human"}, easy]})).await;
            let state = play_out(&mut client, state).await;
            let id = state["id"].as_str().unwrap().to_owned();
            let won = state["result"]["winner"] == seat;
            let drawn = state["result"]["draw"] == true;
            let (status, progress) = client.get(&format!("/api/games/{id}/progress")).await;
            assert_eq!(status, 200, "{progress}");
            let db = Db::connect(&database_url(&dir, &database), Synchronous::Normal).await.unwrap();
            let captures = captures_by(&db, &id, seat).await;
            db.close().await;
            let xp = expected_xp(won, drawn, captures);
            assert_eq!(progress["xp"], xp, "{game} won {won} captures {captures}: {progress}");
            assert_eq!(progress["played"], true);
            assert_eq!(progress["coins"], xp / 10);
            assert_eq!(progress["before"]["xp"], total);
            total += xp;
            assert_eq!(progress["level"]["xp"], total);
            if won && ids.iter().all(|(g, _)| *g != game) {
                let new: Vec<&str> =
                    progress["new"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
                assert!(new.contains(&format!("{game}-first-win").as_str()), "{progress}");
            }
            ids.push((game, id));
        }
        // A resigned game and an unfinished one give nothing.
        let state = client.create(json!({"game": "ur", "seats": [{"kind": "human"}, easy]})).await;
        let id = state["id"].as_str().unwrap().to_owned();
        assert_refused(&client.get(&format!("/api/games/{id}/progress")).await, 409, "not_finished", "not ended");
        let (status, _) = client.post_raw(&format!("/api/games/{id}/resign"), "").await;
        assert_eq!(status, 200);
        let (_, progress) = client.get(&format!("/api/games/{id}/progress")).await;
        assert_eq!((progress["xp"].as_u64(), progress["new"].as_array().map(Vec::len)), (Some(0), Some(0)));
        // Ludo offers no progression: its results get none, and it adds nothing.
        let ludo_seats = json!([{"kind": "human"}, easy, easy, easy]);
        let state = client.create(json!({"game": "ludo", "seats": ludo_seats})).await;
        let ludo = play_out(&mut client, state).await;
        let (_, progress) = client.get(&format!("/api/games/{}/progress", ludo["id"].as_str().unwrap())).await;
        assert_eq!(progress, json!({"progression": false}));
        // Another player's game on one screen, holding both sides: the finish only.
        let state = other.create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
        let state = play_out(&mut other, state).await;
        let (_, progress) = other.get(&format!("/api/games/{}/progress", state["id"].as_str().unwrap())).await;
        assert_eq!(
            (progress["xp"].as_u64(), progress["parts"].clone()),
            (Some(20), json!([{"part": "finish", "xp": 20}]))
        );
        // Someone who held no seat in it looks at that game: they played nothing, got nothing.
        let (status, viewer) = client.get(&format!("/api/games/{}/progress", state["id"].as_str().unwrap())).await;
        assert_eq!(status, 200, "{viewer}");
        assert_eq!((viewer["played"].as_bool(), viewer["xp"].as_u64()), (Some(false), Some(0)));

        let (status, profile) = client.get("/api/profile").await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["level"]["xp"], total);
        assert_eq!(profile["games"], 3);
        let achievements = profile["achievements"].as_array().unwrap();
        assert!(achievements.len() >= 20);
        let earned = achievements.iter().filter(|a| !a["earned"].is_null()).count();
        assert_eq!(profile["earned"], earned);
        assert!(achievements.iter().all(|a| a["game"] != "ludo" && a["name"]["ko"].is_string()));
        assert_eq!(profile["skins"][0]["game"], "yut");

        // Every award computed again from the stored records equals what was stored. (Other
        // tests share the PostgreSQL database and may be ending games meanwhile: this test's
        // two players are compared.)
        let db = Db::connect(&database_url(&dir, &database), Synchronous::Normal).await.unwrap();
        let (_, me) = client.get("/api/me").await;
        let (_, them) = other.get("/api/me").await;
        let ours = [me["id"].as_str().unwrap().to_owned(), them["id"].as_str().unwrap().to_owned()];
        let only_ours = |all: std::collections::BTreeMap<String, progress::Totals>| {
            all.into_iter().filter(|(player, _)| ours.contains(player)).collect::<std::collections::BTreeMap<_, _>>()
        };
        let stored = only_ours(progress::stored_totals(&db).await.unwrap());
        let recomputed = only_ours(progress::recompute(&db).await.unwrap());
        assert_eq!(stored, recomputed);
        let mine = &stored[&ours[0]];
        assert_eq!((mine.xp, mine.games), (total, 3));
        assert_eq!(mine.achievements.len() as u64, profile["earned"].as_u64().unwrap());
        assert_eq!((stored.len(), stored[&ours[1]].xp), (2, 20));
        db.close().await;
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_client_message_grants_no_experience_and_no_achievement() {
    for database in backends() {
        let dir = TempDir::new("forged");
        let server = TestServer::start(&dir, database.clone(), true).await;
        let mut client = server.client();
        let state =
            client.create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "hard"}]})).await;
        let id = state["id"].as_str().unwrap().to_owned();
        // Nothing accepts a claim: no route writes progression, a game's end is the server's,
        // the set-up and the nickname take no such fields, a chance outcome is never chosen.
        for path in ["/api/profile", &format!("/api/games/{id}/progress")] {
            let (status, _) = client.post(path, json!({"xp": 100_000, "achievements": ["ur-beat-hard"]})).await;
            assert_eq!(status, 405, "{path}");
        }
        let forged = client
            .post(&format!("/api/games/{id}/actions"), json!({"action": "roll 4", "version": state["version"]}))
            .await;
        assert_eq!(forged.0, 422, "{}", forged.1);
        let claim = json!({"action": "win", "version": state["version"], "xp": 500});
        assert_eq!(client.post(&format!("/api/games/{id}/actions"), claim).await.0, 400);
        let (status, _) =
            client.send(reqwest::Method::PUT, "/api/me", Some(json!({"nickname": "x", "xp": 9}).to_string())).await;
        assert_eq!(status, 400);
        let body = json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "hard"}], "result": {"winner": "light"}});
        assert_eq!(client.post("/api/games", body).await.0, 400);
        // Resigning the game is a loss by one's own hand: nothing either.
        client.post_raw(&format!("/api/games/{id}/resign"), "").await;
        let (_, progress) = client.get(&format!("/api/games/{id}/progress")).await;
        assert_eq!(progress["xp"], 0, "{progress}");
        let (_, profile) = client.get("/api/profile").await;
        assert_eq!((profile["level"]["xp"].as_u64(), profile["earned"].as_u64()), (Some(0), Some(0)), "{profile}");
        let db = Db::connect(&database_url(&dir, &database), Synchronous::Normal).await.unwrap();
        let (_, me) = client.get("/api/me").await;
        assert!(!progress::stored_totals(&db).await.unwrap().contains_key(me["id"].as_str().unwrap()));
        db.close().await;
        server.stop().await;
    }
}
