//! The embedded browser client is served at `/`, and `POST /api/replay` replays a record the
//! client holds; `last_chance` in states and steps.

#![allow(clippy::unwrap_used)]

mod common;

use common::{TempDir, TestServer, assert_refused};
use serde_json::{Value, json};

/// The worked example of the spec (`README.md`, "Game records"): light entered on square 2,
/// dark on 3, light rolled 0 and passed, dark rolled 4.
fn worked_example() -> Value {
    json!({"game": "ur", "rules": {"preset": "finkel"}, "players": 2,
           "actions": ["roll 2", "move 0", "roll 3", "move 0", "roll 0", "roll 4"]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_is_served_at_the_root() {
    let dir = TempDir::new("client-files");
    let server = TestServer::start(&dir, None, false).await;
    let http = reqwest::Client::new();
    let get = |path: &str| http.get(format!("{}{path}", server.base)).send();

    let index = get("/").await.unwrap();
    assert_eq!(index.status(), 200);
    let headers = index.headers().clone();
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(headers["content-security-policy"].to_str().unwrap().contains("script-src 'self'"));
    assert_eq!(headers["cache-control"], "no-cache");
    let html = index.text().await.unwrap();
    assert!(html.contains(r#"<script type="module" src="js/main.js">"#), "{html}");

    // Every module the page imports, and the styles, come with their types.
    for (path, mime) in [
        ("/js/main.js", "text/javascript"),
        ("/js/games/ur.js", "text/javascript"),
        ("/app.css", "text/css"),
        ("/css/ur.css", "text/css"),
        ("/icon.svg", "image/svg+xml"),
    ] {
        let response = get(path).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(content_type.starts_with(mime), "{path}: {content_type}");
        assert!(response.headers().contains_key("etag"), "{path}");
    }
    // A file the browser holds already is not sent again: its ETag in `If-None-Match` is
    // answered 304 with no body (the ETag repeated); another tag gets the file.
    let first = get("/js/app.js").await.unwrap();
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let body = first.bytes().await.unwrap();
    assert!(!body.is_empty());
    let again = http.get(format!("{}/js/app.js", server.base)).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let other =
        http.get(format!("{}/js/app.js", server.base)).header("if-none-match", "\"0000\"").send().await.unwrap();
    assert_eq!(other.status(), 200);
    assert_eq!(other.bytes().await.unwrap(), body);
    // The page's ETag is its own.
    let page = http.get(&server.base).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(page.status(), 200);

    // The API's 404 stays JSON, and a POST to a file is not served.
    let mut client = server.client();
    assert_refused(&client.get("/js/nothing.js").await, 404, "not_found", "/js/nothing.js");
    assert_refused(&client.post("/js/main.js", json!({})).await, 404, "not_found", "POST");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_the_client_holds_replays_step_by_step() {
    let dir = TempDir::new("client-replay");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();

    // The whole record: the spec's printed state.
    let (status, end) = client.post("/api/replay", json!({"record": worked_example()})).await;
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["to_move"], "dark");
    assert_eq!(end["pieces"], json!({"light": [0, 0, 0, 0, 0, 0, 2], "dark": [0, 0, 0, 0, 0, 0, 3]}));
    assert_eq!(end["legal"], json!(["move 0", "move 3"]));
    assert_eq!((end["step"].clone(), end["steps"].clone()), (json!(6), json!(6)));
    assert_eq!(end["action"], "roll 4");
    assert_eq!(end["last_chance"], "roll 4");
    // The board geometry of the record's rules: the Bell path starts at A4.
    assert_eq!(end["board"]["light_path"][0], "A4");
    // Every action as the game's log has it: whose it was (a roll's thrower), by whom, what it
    // caused — the replay's move list. Light rolls 2 and enters on 2, dark rolls 3 and enters
    // on 3, light's 0 passes, dark rolls 4 (spec README, the worked example).
    let entries = end["entries"].as_array().unwrap();
    let seen: Vec<(&str, &str, &str)> = entries
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["seat"].as_str().unwrap(), e["by"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [
            ("roll 2", "light", "chance"),
            ("move 0", "light", "human"),
            ("roll 3", "dark", "chance"),
            ("move 0", "dark", "human"),
            ("roll 0", "light", "chance"),
            ("roll 4", "dark", "chance"),
        ]
    );
    assert_eq!(
        entries[1]["events"],
        json!([{"kind": "enter", "seat": "light", "to": 2, "tile": "A3", "text": "light enters a piece on 2 (A3)"}])
    );
    assert_eq!((entries[5]["index"].clone(), entries[5]["version"].clone()), (json!(5), json!(6)));

    // After two actions: light has entered with its roll of 2.
    let (_, two) = client.post("/api/replay", json!({"record": worked_example(), "step": 2})).await;
    assert_eq!(two["pieces"]["light"], json!([0, 0, 0, 0, 0, 0, 2]));
    assert_eq!(two["action"], "move 0");
    assert_eq!(two["last_chance"], "roll 2");
    assert_eq!(two["action_events"][0]["text"], "light enters a piece on 2 (A3)");
    assert_eq!(two["action_events"][0]["kind"], "enter");
    // At the start nothing has been rolled.
    let (_, zero) = client.post("/api/replay", json!({"record": worked_example(), "step": 0})).await;
    assert_eq!(zero["action"], Value::Null);
    assert_eq!(zero["last_chance"], Value::Null);
    assert_eq!(zero["action_events"], Value::Null);
    assert_eq!(zero["to_move"], "chance");

    // Refusals name the problem.
    let mut bad = worked_example();
    bad["actions"][1] = json!("move 5");
    let answer = client.post("/api/replay", json!({"record": bad, "step": 1})).await;
    assert_refused(&answer, 422, "illegal_action", "action 1 \"move 5\"");
    // With what the game awaited instead, as data: after a 2 with every piece in hand light can
    // only enter (move 0).
    assert_eq!(
        answer.1["error"]["detail"],
        json!({"index": 1, "action": "move 5", "to_move": "light", "awaiting": "move", "legal": ["move 0"], "status": "ongoing"})
    );
    // A record that reveals its seed is checked as `madang verify` checks it. The seed
    // 000102…1f's first Finkel rolls are 3, 3, 2 (computed outside madang with Python's
    // `cryptography`, crates/games/tests/seeds.rs): light rolls 3 and enters, dark rolls 3.
    let seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let honest = json!({"game": "ur", "seed": seed, "actions": ["roll 3", "move 0", "roll 3"]});
    let (status, checked) = client.post("/api/replay", json!({"record": honest})).await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["seed_check"], json!({"ok": true, "checked": 2}), "{checked}");
    let forged = json!({"game": "ur", "seed": seed, "actions": ["roll 3", "move 0", "roll 2"]});
    let (status, checked) = client.post("/api/replay", json!({"record": forged})).await;
    assert_eq!(status, 200, "the forged roll is legal, so the record replays: {checked}");
    let check = &checked["seed_check"];
    assert_eq!(
        (&check["ok"], &check["problem"], &check["index"], &check["action"], &check["expected"]),
        (&json!(false), &json!("roll"), &json!(2), &json!("roll 2"), &json!("roll 3"))
    );
    let promised = json!({"game": "ur", "seed": seed, "commitment": "ab".repeat(32), "actions": ["roll 3"]});
    let (_, checked) = client.post("/api/replay", json!({"record": promised})).await;
    assert_eq!(
        (&checked["seed_check"]["ok"], &checked["seed_check"]["problem"]),
        (&json!(false), &json!("commitment"))
    );
    let (_, unseeded) = client.post("/api/replay", json!({"record": worked_example()})).await;
    assert_eq!(unseeded["seed_check"], Value::Null);
    // A key given twice in a record is refused, as the command line refuses it, not read as its
    // last value.
    let twice = r#"{"record": {"game": "ur", "actions": [], "game": "yut"}}"#;
    assert_refused(&client.post_raw("/api/replay", twice).await, 400, "malformed_json", r#"duplicate key "game""#);
    let twice = r#"{"record": {"game": "ur", "actions": [], "rules": {"pieces": 3, "pieces": 4}}}"#;
    assert_refused(&client.post_raw("/api/review", twice).await, 400, "malformed_json", r#"duplicate key "pieces""#);
    // A review refuses the same record the same way (`docs/api.md`, "Review"), detail included.
    let reviewed = client.post("/api/review", json!({"record": bad})).await;
    assert_refused(&reviewed, 422, "illegal_action", "action 1 \"move 5\"");
    assert_eq!(reviewed.1["error"], answer.1["error"]);
    let answer =
        client.post("/api/replay", json!({"record": {"game": "ur", "rules": {"pices": 3}, "actions": []}})).await;
    assert_refused(&answer, 422, "bad_record", "pices");
    let answer = client.post("/api/replay", json!({"record": {"game": "chess", "actions": []}})).await;
    assert_refused(&answer, 422, "bad_record", "chess");
    let answer = client.post("/api/replay", json!({"record": {"game": "ur", "actions": "roll 2"}})).await;
    assert_refused(&answer, 422, "bad_record", "actions");
    // A field of the record is named, without a line and column: they would count from the
    // record as the server wrote it again, not from the body sent.
    let record = json!({"record": {"game": "ur", "actions": ["roll 1"], "end": {"reason": null, "by": "light"}}});
    let answer = client.post("/api/replay", record).await;
    assert_eq!(
        answer.1["error"]["message"], "malformed record: `end.reason`: invalid type: null, expected a string",
        "{}",
        answer.1
    );
    let answer = client.post("/api/replay", json!({"record": [1, 2, 3]})).await;
    assert_refused(&answer, 422, "bad_record", "JSON object");
    // A misspelt field is named, not ignored.
    let answer = client.post("/api/replay", json!({"record": worked_example(), "stpe": 1})).await;
    assert_refused(&answer, 400, "malformed_json", "stpe");
    // More actions than any game has (a Ludo game stops at 10,000 rolls): 20,001 rolls of 0 in
    // Ur (each passes), which fit in the 1 MiB body, are refused before any is played.
    let long = json!({"record": {"game": "ur", "actions": vec!["roll 0"; 20_001]}});
    assert_refused(
        &client.post("/api/replay", long).await,
        422,
        "too_long",
        "at most 20000 actions; this record has 20001",
    );
    // A record may only end a game as the game allows (platform.md: Ludo has no resignation).
    let ludo = json!({"record": {"game": "ludo", "actions": [], "end": {"reason": "resign", "by": "0"}}});
    assert_refused(&client.post("/api/replay", ludo).await, 422, "bad_record", "allows: abandoned");
    // A record must list its actions (spec README, "Game records": only `rules` and `players`
    // may be left out); an empty list is a game at its start.
    let answer = client.post("/api/replay", json!({"record": {"game": "ur"}})).await;
    assert_refused(&answer, 422, "bad_record", "missing field `actions`");
    let (status, start) = client.post("/api/replay", json!({"record": {"game": "ur", "actions": []}})).await;
    assert_eq!((status, start["steps"].clone(), start["to_move"].clone()), (200, json!(0), json!("chance")));
    let answer = client.post("/api/replay", json!({"record": worked_example(), "step": 7})).await;
    assert_refused(&answer, 404, "unknown_step", "7");
    assert_refused(&client.post("/api/replay", json!({"step": 1})).await, 400, "malformed_json", "record");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn states_and_steps_name_the_latest_roll() {
    let dir = TempDir::new("client-last-chance");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let mut state = client.create(json!({"game": "ur", "rules": {"pieces": 3}})).await;
    for _ in 0..6 {
        let id = state["id"].as_str().unwrap().to_owned();
        let (_, record) = client.get(&format!("/api/games/{id}/record")).await;
        let actions: Vec<String> = serde_json::from_value(record["actions"].clone()).unwrap();
        // In Ur every chance action is a roll, and the state names the record's latest one
        // (none before light's first roll, which waits for the person).
        let latest = actions.iter().rev().find(|a| a.starts_with("roll "));
        assert_eq!(state["last_chance"], json!(latest));
        if !actions.is_empty() {
            // The step after the first action (light's opening roll) names that roll.
            let (_, step) = client.get(&format!("/api/games/{id}/steps/1")).await;
            assert_eq!(step["last_chance"], json!(actions[0]));
            // Its events begin with that roll (a 0 also passes the turn: a second event).
            assert_eq!(step["action_events"][0]["text"], json!(format!("light rolls {}", &actions[0][5..])));
            assert_eq!(step["action_events"][0]["roll"], json!(actions[0][5..].parse::<u8>().unwrap()));
        }
        if state["status"] == "finished" {
            break;
        }
        state = client.play_first(&state).await["state"].clone();
    }
    server.stop().await;
}
