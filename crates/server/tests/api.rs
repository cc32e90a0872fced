//! Refusals, identity, the WebSocket protocol, stats, history and resuming, over real HTTP and
//! WebSocket on 127.0.0.1 (SQLite, and PostgreSQL when `MADANG_TEST_POSTGRES` is set).

#![allow(clippy::unwrap_used)]

mod common;

use common::{
    NORMAL_CLOSE_FRAME, NOT_UTF8_TEXT_FRAME, TempDir, TestServer, UNMASKED_TEXT_FRAME, Ws, assert_refused, backends,
    close_after_raw_frame,
};
use serde_json::{Value, json};

const UR_VS_CPU: &str =
    r#"{"game": "ur", "rules": {"pieces": 2}, "seats": [{"kind": "human"}, {"kind": "cpu", "level": "hard"}]}"#;

fn ur_vs_cpu() -> Value {
    serde_json::from_str(UR_VS_CPU).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_requests_name_the_problem_and_change_nothing() {
    for database in backends() {
        let dir = TempDir::new("refusals");
        let server = TestServer::start(&dir, database, false).await;
        let mut client = server.client();
        let state = client.create(ur_vs_cpu()).await;
        let id = state["id"].as_str().unwrap().to_owned();
        let version = state["version"].clone();
        let actions = format!("/api/games/{id}/actions");

        // An illegal action: the engine's reason is named.
        let answer = client.post(&actions, json!({"action": "move 9", "version": version})).await;
        assert_refused(&answer, 422, "illegal_action", "move 9");
        assert_eq!(answer.1["error"]["version"], version);
        // Not notation at all.
        assert_refused(
            &client.post(&actions, json!({"action": "jump", "version": version})).await,
            422,
            "illegal_action",
            "jump",
        );
        // A chance outcome chosen by the client: the server alone rolls.
        assert_refused(
            &client.post(&actions, json!({"action": "roll 4", "version": version})).await,
            422,
            "illegal_action",
            "roll 4",
        );
        // A move while the person's own roll is awaited: the roll comes first.
        assert_eq!((state["to_move"].clone(), state["to_act"].clone()), (json!("chance"), json!("light")));
        assert_refused(
            &client.post(&actions, json!({"action": "move 0", "version": version})).await,
            422,
            "illegal_action",
            "send the action \"roll\"",
        );
        // An action for the CPU's seat.
        let legal = state["moves"][0]["action"].clone();
        assert_eq!(legal, "roll");
        assert_refused(
            &client.post(&actions, json!({"action": legal, "version": version, "seat": "dark"})).await,
            403,
            "cpu_seat",
            "dark",
        );
        // A stale version.
        assert_eq!(version, 0, "nothing happened before light's first roll");
        let answer = client.post(&actions, json!({"action": legal, "version": 7})).await;
        assert_refused(&answer, 409, "stale_version", "version");
        assert_eq!(answer.1["error"]["version"], version);
        // A malformed body and a body of the wrong shape (the field is named).
        assert_refused(&client.post_raw(&actions, "{\"action\": ").await, 400, "malformed_json", "EOF");
        assert_refused(
            &client.post(&actions, json!({"action": 3, "version": version})).await,
            400,
            "malformed_json",
            "action",
        );
        assert_refused(&client.post(&actions, json!({"version": version})).await, 400, "malformed_json", "action");
        // An array where an object is expected (serde alone would read the fields in order).
        assert_refused(
            &client.post_raw(&actions, &format!("[{legal}, {version}]")).await,
            400,
            "malformed_json",
            "object",
        );
        // Another player.
        let mut stranger = server.client();
        assert_refused(
            &stranger.post(&actions, json!({"action": legal, "version": version})).await,
            403,
            "not_your_seat",
            "light",
        );
        // Nothing changed.
        let after = client.state(&id).await;
        assert_eq!(after, state);

        // Unknown game id, unknown game, bad rule value (the key is named), bad seats, bad level,
        // a fixed seed without --allow-fixed-seed.
        assert_refused(&client.get("/api/games/0123456789abcdef").await, 404, "unknown_game_id", "0123456789abcdef");
        assert_refused(&client.get("/api/games/nonsense").await, 404, "unknown_game_id", "nonsense");
        assert_refused(
            &client.post("/api/games/0123456789abcdef/actions", json!({"action": "move 0", "version": 0})).await,
            404,
            "unknown_game_id",
            "0123456789abcdef",
        );
        assert_refused(&client.post("/api/games", json!({"game": "chess"})).await, 422, "unknown_game", "chess");
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "rules": {"pieces": 9}})).await,
            422,
            "bad_rules",
            "pieces",
        );
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "rules": {"colour": "red"}})).await,
            422,
            "bad_rules",
            "colour",
        );
        assert_refused(
            &client.post("/api/games", json!({"game": "yut", "rules": {"nak": "2/1"}})).await,
            422,
            "bad_rules",
            "nak",
        );
        // A seat's kind is a word: a number (a tagged enum's variant index to serde) is refused.
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "seats": [{"kind": 0}, {"kind": 1}]})).await,
            400,
            "malformed_json",
            "seats",
        );
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "seats": [{"kind": "robot"}, {"kind": "cpu"}]})).await,
            400,
            "malformed_json",
            "robot",
        );
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "seats": [{"kind": "human"}]})).await,
            422,
            "bad_seats",
            "2 seats",
        );
        // Ludo's seed seats one person against three computers (its catalogue `modes` are
        // `computer` only): two or four people at its one screen are refused.
        let cpu = json!({"kind": "cpu", "level": "easy"});
        let human = json!({"kind": "human"});
        for (seats, given) in
            [(json!([human, human, human, human]), "4 were given"), (json!([human, cpu, human, cpu]), "2 were given")]
        {
            assert_refused(
                &client.post("/api/games", json!({"game": "ludo", "seats": seats})).await,
                422,
                "bad_seats",
                &format!(
                    "ludo is not played by several people on one screen: exactly one seat is {{\"kind\": \"human\"}}, but {given}"
                ),
            );
        }
        let (status, body) = client.post("/api/games", json!({"game": "ludo", "seats": [human, cpu, cpu, cpu]})).await;
        assert_eq!(status, 201, "{body}");
        // Ur is played on one screen: two people there are a game.
        let (status, body) = client.post("/api/games", json!({"game": "ur", "seats": [human, human]})).await;
        assert_eq!((status, body["mode"].as_str()), (201, Some("same_screen")), "{body}");
        // An explicit empty list is a wrong number of seats, not the default.
        let answer = client.post("/api/games", json!({"game": "ur", "seats": []})).await;
        assert_refused(&answer, 422, "bad_seats", "has 2 seats (light, dark), but 0 were given");
        let answer = client.post("/api/games", json!({"game": "ur", "seats": [human]})).await;
        assert_refused(&answer, 422, "bad_seats", "has 2 seats (light, dark), but 1 was given");
        // A level belongs to a CPU seat: on a human seat it is refused, naming the seat.
        assert_refused(
            &client
                .post(
                    "/api/games",
                    json!({"game": "ur", "seats": [{"kind": "human", "level": "hard"}, {"kind": "cpu"}]}),
                )
                .await,
            422,
            "bad_seats",
            "seats[0] is human but has a level (\"hard\")",
        );
        // A seat is an object of known fields, named in the person's terms.
        assert_refused(
            &client
                .post(
                    "/api/games",
                    json!({"game": "ur", "seats": [{"kind": "human", "colour": "red"}, {"kind": "cpu"}]}),
                )
                .await,
            400,
            "malformed_json",
            "unknown field `colour`",
        );
        let answer = client.post("/api/games", json!({"game": "ur", "seats": [5, {"kind": "cpu"}]})).await;
        assert_refused(&answer, 400, "malformed_json", "seats[0]");
        assert!(!answer.1["error"]["message"].as_str().unwrap().contains("struct"), "{}", answer.1);
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "seats": [{"kind": "cpu"}, {"kind": "cpu"}]})).await,
            422,
            "bad_seats",
            "human",
        );
        assert_refused(
            &client
                .post(
                    "/api/games",
                    json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "godlike"}]}),
                )
                .await,
            422,
            "bad_level",
            "godlike",
        );
        assert_refused(
            &client.post("/api/games", json!({"game": "ur", "seed": "00".repeat(32)})).await,
            403,
            "fixed_seed_disabled",
            "seed",
        );
        assert_refused(&client.post_raw("/api/games", &"x".repeat(20_000)).await, 413, "body_too_large", "16 KiB");
        assert_refused(&client.get("/no-such-file.js").await, 404, "not_found", "/no-such-file.js");
        assert_refused(&client.get("/api/nothing").await, 404, "not_found", "/api/nothing");
        assert_refused(
            &client.send(reqwest::Method::DELETE, "/api/games", None).await,
            405,
            "method_not_allowed",
            "DELETE",
        );
        assert_refused(&client.get(&format!("/api/games/{id}/steps/abc")).await, 400, "bad_request", "abc");
        // One spelling per step: no sign, no leading zeros.
        for odd in ["01", "%2B1", "00"] {
            assert_refused(&client.get(&format!("/api/games/{id}/steps/{odd}")).await, 400, "bad_request", "a step is");
        }
        assert_refused(&client.get(&format!("/api/games/{id}/steps/999")).await, 404, "unknown_step", "999");
        // A WebSocket route without the upgrade's headers: the missing header is named.
        assert_refused(&client.get(&format!("/api/games/{id}/ws")).await, 400, "bad_request", "upgrade");
        // A path segment that is not UTF-8 once decoded (`%ff`) is named as such, on any route.
        for path in ["/api/games/%ff", "/api/games/%ff/record"] {
            let answer = client.get(path).await;
            assert_refused(&answer, 400, "bad_request", "UTF-8");
            assert!(!answer.1["error"]["message"].as_str().unwrap_or_default().contains("WebSocket"), "{answer:?}");
        }
        // Still nothing changed.
        assert_eq!(client.state(&id).await["version"], version);
        server.stop().await;
    }
}

/// A person's own text (an id, a code, a path, a name, an action) is repeated in a refusal only
/// up to 64 characters, then `…`: a 5,000-character id does not come back in full.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echoed_input_is_cut_to_64_characters() {
    let dir = TempDir::new("echo");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap().to_owned();
    let long = "a".repeat(5000);
    let cut = format!("{}…", "a".repeat(64));
    let check = |answer: &(u16, Value), status: u16, code: &str| {
        assert_refused(answer, status, code, &cut);
        let message = answer.1["error"]["message"].as_str().unwrap();
        assert!(!message.contains(&"a".repeat(65)), "{message}");
        assert!(message.chars().count() < 400, "{message}");
    };
    check(&client.get(&format!("/api/games/{long}")).await, 404, "unknown_game_id");
    // Room codes are case-insensitive: the code is named in capitals.
    let answer = client.get(&format!("/api/rooms/{long}")).await;
    assert_refused(&answer, 404, "unknown_room", &format!("{}…", "A".repeat(64)));
    assert!(!answer.1["error"]["message"].as_str().unwrap().contains(&"A".repeat(65)), "{}", answer.1);
    // A path is cut as a whole.
    let answer = client.get(&format!("/api/{long}")).await;
    assert_refused(&answer, 404, "not_found", &format!("GET /api/{}…", "a".repeat(59)));
    assert!(!answer.1["error"]["message"].as_str().unwrap().contains(&"a".repeat(60)), "{}", answer.1);
    check(&client.get(&format!("/api/games/{id}/steps/{long}")).await, 400, "bad_request");
    check(&client.post("/api/games", json!({"game": long})).await, 422, "unknown_game");
    check(&client.post("/api/rooms", json!({"game": long})).await, 422, "unknown_game");
    let seats = json!([{"kind": "human"}, {"kind": "cpu", "level": long}]);
    check(&client.post("/api/games", json!({"game": "ur", "seats": seats})).await, 422, "bad_level");
    let seats = json!([{"kind": "human", "level": long}, {"kind": "cpu"}]);
    check(&client.post("/api/games", json!({"game": "ur", "seats": seats})).await, 422, "bad_seats");
    let actions = format!("/api/games/{id}/actions");
    check(&client.post(&actions, json!({"action": long, "version": state["version"]})).await, 422, "illegal_action");
    check(&client.post(&format!("/api/games/{id}/resign"), json!({"seat": long})).await, 422, "bad_seats");
    // serde's own messages repeat the input too: an unknown field, an unknown rule option, an
    // unknown value, in a body, its `rules` and a record's (docs/api.md, "Errors").
    let mut body = json!({"game": "ur"});
    body[&long] = json!(1);
    check(&client.post("/api/games", body).await, 400, "malformed_json");
    check(&client.post("/api/games", json!({"game": "ur", "rules": {&long: 1}})).await, 422, "bad_rules");
    check(&client.post("/api/games", json!({"game": "ur", "rules": {"preset": long}})).await, 422, "bad_rules");
    // A backtick or a quote in the input does not end what is repeated of it.
    let mut body = json!({"game": "ur"});
    body[format!("{long}`, expected `game`")] = json!(1);
    check(&client.post("/api/games", body).await, 400, "malformed_json");
    check(
        &client.post("/api/rooms", json!({"game": "ur", "public": format!("{long}\"")})).await,
        400,
        "malformed_json",
    );
    let record = json!({"record": {"game": "ur", "actions": [], "end": {format!("{long}`"): 1}}});
    check(&client.post("/api/replay", record).await, 422, "bad_record");
    let record = json!({"record": {"game": "ur", "actions": [], "rules": {&long: 1}}});
    check(&client.post("/api/replay", record).await, 422, "bad_record");
    let answer = client.post("/api/games", json!({"game": "ur", "rules": long})).await;
    assert_refused(&answer, 422, "bad_rules", "`rules` must be a JSON object");
    assert!(answer.1["error"]["message"].as_str().unwrap().chars().count() < 400, "{}", answer.1);
    // A multi-byte text is cut at a character, not a byte.
    let korean = "윷".repeat(100);
    let answer = client.get(&format!("/api/rooms/{korean}")).await;
    assert_refused(&answer, 404, "unknown_room", &format!("\"{}…\"", "윷".repeat(64)));
    assert_eq!(client.state(&id).await, state);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_out_of_turn_on_one_screen_is_refused() {
    let dir = TempDir::new("out-of-turn");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(state["mode"], "same_screen");
    let id = state["id"].as_str().unwrap();
    // Light rolls first: the server waits for the person's tap, for light's seat only.
    assert_eq!((state["to_move"].clone(), state["to_act"].clone()), (json!("chance"), json!("light")));
    assert_eq!(state["moves"], json!([{"action": "roll", "seat": "light", "kind": "roll"}]));
    let answer = client
        .post(
            &format!("/api/games/{id}/actions"),
            json!({"action": "roll", "version": state["version"], "seat": "dark"}),
        )
        .await;
    assert_refused(&answer, 409, "not_your_turn", "light's turn");
    assert_eq!(client.state(id).await, state);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cpu_moves_until_a_human_must_act() {
    let dir = TempDir::new("cpu-first");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    // The human plays dark: light (the CPU) moves first, and the dice roll for both.
    // The computer's roll is drawn at once; the person's own roll waits for them.
    let state =
        client.create(json!({"game": "ur", "seats": [{"kind": "cpu", "level": "easy"}, {"kind": "human"}]})).await;
    assert_eq!((state["to_move"].clone(), state["to_act"].clone()), (json!("chance"), json!("dark")));
    assert_eq!(state["moves"], json!([{"action": "roll", "seat": "dark", "kind": "roll"}]));
    assert_eq!(state["my_seats"], json!(["dark"]));
    let id = state["id"].as_str().unwrap();
    let (_, record) = client.get(&format!("/api/games/{id}/record")).await;
    let actions = record["actions"].as_array().unwrap();
    assert_eq!(actions.len() as u64, state["version"].as_u64().unwrap());
    assert!(actions[0].as_str().unwrap().starts_with("roll"), "light rolled first: {actions:?}");
    // Light's roll of 0 passes with nothing else; any other roll is followed by its move (light
    // has a piece to enter with 1-4; a 4 lands on a rosette and light rolls again).
    let expected = match actions[0].as_str().unwrap() {
        "roll 0" => 1..=1,
        "roll 4" => 3..=usize::MAX,
        _ => 2..=2,
    };
    assert!(expected.contains(&actions.len()), "light rolled and moved (or passed) before dark: {actions:?}");
    assert!(actions.iter().step_by(2).all(|a| a.as_str().unwrap().starts_with("roll ")), "{actions:?}");
    // Dark taps: the server draws dark's roll (by chance), then dark decides or passes.
    let message = client.play_first(&state).await;
    let first = &message["events"][0];
    assert_eq!((first["by"].clone(), first["seat"].clone()), (json!("chance"), json!("dark")));
    assert!(first["action"].as_str().unwrap().starts_with("roll "), "{first}");
    assert_eq!(message["state"]["to_act"], "dark");
    // Ludo: three CPUs after the human; after one human action they all play until seat 0 again.
    let ludo = client
        .create(json!({"game": "ludo", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "hard"}, {"kind": "cpu", "level": "hard"}, {"kind": "cpu", "level": "hard"}]}))
        .await;
    let mut state = ludo;
    for _ in 0..20 {
        if state["status"] == "finished" {
            break;
        }
        assert_eq!(state["to_act"], "0");
        let message = client.play_first(&state).await;
        state = message["state"].clone();
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identity_is_a_signed_cookie_and_the_nickname_can_change() {
    let dir = TempDir::new("identity");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let (status, me) = client.get("/api/me").await;
    assert_eq!(status, 200);
    assert!(client.cookie.is_some());
    let id = me["id"].as_str().unwrap().to_owned();
    let (_, again) = client.get("/api/me").await;
    assert_eq!(again["id"], id);
    let (status, renamed) =
        client.send(reqwest::Method::PUT, "/api/me", Some(json!({"nickname": " 윷 장인 "}).to_string())).await;
    assert_eq!((status, renamed["nickname"].as_str()), (200, Some("윷 장인")));
    let bad = client.send(reqwest::Method::PUT, "/api/me", Some(json!({"nickname": "<script>"}).to_string())).await;
    assert_refused(&bad, 422, "bad_nickname", "'<'");
    let long =
        client.send(reqwest::Method::PUT, "/api/me", Some(json!({"nickname": "가".repeat(25)}).to_string())).await;
    assert_refused(&long, 422, "bad_nickname", "24");
    // A tampered cookie is not accepted: a new guest is made.
    let mut forger = server.client();
    forger.cookie = Some(format!("madang_player={id}"));
    let (_, other) = forger.get("/api/me").await;
    assert_ne!(other["id"], id);
    // The key survives a restart: the same cookie still works.
    server.stop().await;
    let server = TestServer::start(&dir, None, false).await;
    client.base = server.base.clone();
    let (_, after) = client.get("/api/me").await;
    assert_eq!((after["id"].as_str(), after["nickname"].as_str()), (Some(id.as_str()), Some("윷 장인")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_answers_every_command_and_pushes_every_change() {
    let dir = TempDir::new("ws");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap().to_owned();
    let mut ws = Ws::connect(&server, &client, &id).await;
    let mut watcher = Ws::connect(&server, &client, &id).await;
    // A command before hello is refused, not ignored.
    ws.send(json!({"type": "resign"})).await;
    assert_eq!(ws.recv().await["code"], "hello_first");
    ws.send(json!({"type": "hello"})).await;
    let hello = ws.recv().await;
    assert_eq!(hello["type"], "state");
    assert_eq!(hello["state"], state);
    watcher.send(json!({"type": "hello", "version": state["version"]})).await;
    assert_eq!(watcher.recv().await["type"], "state");
    // An action: answered with the events, and pushed to the other connection.
    ws.send(json!({"type": "action", "action": state["moves"][0]["action"], "version": state["version"]})).await;
    let events = ws.recv().await;
    assert_eq!(events["type"], "events");
    assert_eq!(events["from"], state["version"]);
    let pushed = watcher.recv().await;
    assert_eq!(pushed, events);
    let current = events["state"].clone();
    // A stale command gets an explicit error with the current version.
    ws.send(json!({"type": "action", "action": state["moves"][0]["action"], "version": state["version"]})).await;
    let error = ws.recv().await;
    assert_eq!((error["type"].as_str(), error["code"].as_str()), (Some("error"), Some("stale_version")));
    assert_eq!(error["version"], current["version"]);
    // Bad JSON is answered too, as a message (not a request body).
    ws.send(json!({"type": "fly"})).await;
    let error = ws.recv().await;
    assert_eq!(error["code"], "malformed_json");
    assert!(error["message"].as_str().unwrap().starts_with("the message is not the expected JSON: "), "{error}");
    // A number for `type` (serde would take 0 as the first variant, `hello`) and an array.
    for bad in [json!({"type": 0}), json!({"type": 1, "action": "x", "version": 1}), json!(["ping"])] {
        ws.send(bad.clone()).await;
        assert_eq!(ws.recv().await["code"], "malformed_json", "{bad}");
    }
    // A field the message does not have is refused naming it, as over HTTP, and nothing is
    // applied: not even a legal action.
    let legal = current["moves"][0]["action"].clone();
    for (bad, field) in [
        (json!({"type": "action", "action": legal, "version": current["version"], "extra": 5}), "extra"),
        (json!({"type": "ping", "x": 1}), "x"),
        (json!({"type": "hello", "version": current["version"], "token": "t"}), "token"),
        (json!({"type": "resign", "seat": "light", "why": "bored"}), "why"),
    ] {
        ws.send(bad.clone()).await;
        let answer = ws.recv().await;
        assert_refused(
            &(400, json!({"error": answer.clone()})),
            400,
            "malformed_json",
            &format!("unknown field `{field}`"),
        );
        assert_eq!(answer["version"], current["version"], "{bad}");
    }
    assert_eq!(client.state(&id).await["version"], current["version"]);
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(ws.recv().await, json!({"type": "pong", "version": current["version"]}));
    // An HTTP action reaches both connections as events, in order.
    let message = client.play_first(&current).await;
    for socket in [&mut ws, &mut watcher] {
        let pushed = socket.recv().await;
        assert_eq!((pushed["from"].clone(), pushed["to"].clone()), (message["from"].clone(), message["to"].clone()));
    }
    // A client reconnecting from an old version gets what it missed.
    let mut late = Ws::connect(&server, &client, &id).await;
    late.send(json!({"type": "hello", "version": state["version"]})).await;
    let missed = late.recv().await;
    assert_eq!(missed["type"], "events");
    assert_eq!(missed["from"], state["version"]);
    assert_eq!(missed["to"], message["to"]);
    // Resign over the socket ends the game and reveals the seed.
    ws.send(json!({"type": "resign"})).await;
    let end = ws.recv().await;
    let entry = end["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(entry["type"], "end");
    assert_eq!(entry["end"], json!({"reason": "resign", "by": "light"}));
    assert_eq!(end["state"]["status"], "finished");
    assert_eq!(end["state"]["result"]["winner"], "dark");
    assert!(end["state"]["seed"].is_string());
    ws.send(json!({"type": "action", "action": "move 0", "version": end["to"]})).await;
    assert_eq!(ws.recv().await["code"], "game_over");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_websocket_over_its_message_rate_is_told_then_closed() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let dir = TempDir::new("ws-rate");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap().to_owned();
    let mut ws = Ws::connect(&server, &client, &id).await;
    // docs/api.md, "Limits and timings": 20 messages a second, bursts of 40; 20 refusals within
    // 10 s close the connection with 1008. A hundred pings at once: the burst (plus the tokens
    // refilled while they arrive) is answered, the rest refused until the twentieth refusal.
    let ping = Message::Text(json!({"type": "ping"}).to_string().into());
    for _ in 0..100 {
        ws.stream.feed(ping.clone()).await.unwrap();
    }
    ws.stream.flush().await.unwrap();
    let (answers, close) = ws.answers_until_close().await;
    let (mut pongs, mut refused) = (0, 0);
    for answer in answers {
        match answer["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_refused(&(400, json!({"error": answer.clone()})), 400, "rate_limited", "20 messages a second");
                assert_eq!(answer["version"], state["version"]);
                refused += 1;
            }
            _ => panic!("unexpected answer {answer}"),
        }
    }
    assert_eq!(refused, 20);
    assert!((40..80).contains(&pongs), "{pongs} pongs: the burst of 40 and what refilled meanwhile");
    assert_eq!(u16::from(close.code), 1008);
    // The game is untouched and a new connection plays on.
    let mut ws = Ws::connect(&server, &client, &id).await;
    ws.send(json!({"type": "hello"})).await;
    assert_eq!(ws.recv().await["state"], state);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_websocket_refuses_a_large_message_and_closes_on_a_huge_one() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let dir = TempDir::new("ws-size");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap().to_owned();
    let mut ws = Ws::connect(&server, &client, &id).await;
    ws.send(json!({"type": "hello"})).await;
    assert_eq!(ws.recv().await["state"], state);
    // docs/api.md, "WebSocket": a text message over 16 KiB is answered `message_too_large`
    // naming both sizes, and the connection stays.
    let action = state["moves"][0]["action"].clone();
    let big = json!({"type": "action", "action": action, "version": state["version"], "pad": "x".repeat(20_000)});
    let size = big.to_string().len();
    ws.send(big).await;
    let refused = ws.recv().await;
    assert_refused(&(400, json!({"error": refused.clone()})), 400, "message_too_large", "at most 16384 bytes");
    assert!(refused["message"].as_str().unwrap().contains(&format!("this one has {size}")), "{refused}");
    assert_eq!((refused["type"].clone(), refused["version"].clone()), (json!("error"), state["version"].clone()));
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(ws.recv().await, json!({"type": "pong", "version": state["version"]}));
    // Over 64 KiB: closed with 1009 and a reason.
    ws.stream.send(Message::Text("x".repeat(70 * 1024).into())).await.unwrap();
    let (answers, close) = ws.answers_until_close().await;
    assert_eq!(answers, Vec::<Value>::new());
    assert_eq!(u16::from(close.code), 1009);
    assert!(close.reason.contains("65536 bytes"), "{close:?}");
    // Nothing changed, and a new connection plays on.
    assert_eq!(client.state(&id).await, state);
    let mut ws = Ws::connect(&server, &client, &id).await;
    ws.send(json!({"type": "hello"})).await;
    assert_eq!(ws.recv().await["state"], state);
    // Refusals for size count like those for rate: 20 close the connection (1008).
    for _ in 0..20 {
        ws.send(json!({"type": "ping", "pad": "x".repeat(17_000)})).await;
    }
    let (answers, close) = ws.answers_until_close().await;
    assert!(answers.iter().all(|a| a["code"] == "message_too_large"), "{answers:?}");
    let too_large = answers.len();
    assert_eq!((too_large, u16::from(close.code)), (20, 1008));
    assert_eq!(client.state(&id).await, state);
    // So do binary frames (JSON comes in text frames).
    let mut ws = Ws::connect(&server, &client, &id).await;
    ws.send(json!({"type": "hello"})).await;
    assert_eq!(ws.recv().await["state"], state);
    for _ in 0..20 {
        ws.stream.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    }
    let (answers, close) = ws.answers_until_close().await;
    assert_eq!(answers.len(), 20);
    for answer in &answers {
        assert_refused(&(400, json!({"error": answer.clone()})), 400, "malformed_json", "text frames");
    }
    assert_eq!(u16::from(close.code), 1008);
    assert_eq!(client.state(&id).await, state);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_websocket_says_why_it_closes_on_a_frame_against_the_protocol() {
    // RFC 6455 §7.4.1: 1002 for a protocol error (a client frame must be masked, §5.3), 1007
    // for a text message that is not UTF-8 (§8.1); the game is untouched.
    let dir = TempDir::new("ws-protocol");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap().to_owned();
    // A client's own close is answered with the server's (§5.5.1), not a dropped connection.
    for (frame, code, words) in [
        (UNMASKED_TEXT_FRAME, 1002, "unmasked frame from client"),
        (NOT_UTF8_TEXT_FRAME, 1007, "UTF-8"),
        (NORMAL_CLOSE_FRAME, 1000, ""),
    ] {
        let mut ws = Ws::connect(&server, &client, &id).await;
        ws.send(json!({"type": "hello"})).await;
        assert_eq!(ws.recv().await["state"], state);
        let (got, reason) = close_after_raw_frame(&mut ws.stream, frame).await;
        assert_eq!(got, code, "{reason}");
        assert!(reason.contains(words), "{reason}");
    }
    assert_eq!(client.state(&id).await, state);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_from_another_origin_is_refused() {
    let dir = TempDir::new("origin");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(ur_vs_cpu()).await;
    let id = state["id"].as_str().unwrap();
    let response = client
        .http
        .get(format!("{}/api/games/{id}/ws", server.base))
        .header("cookie", client.cookie.clone().unwrap())
        .header("origin", "http://evil.example")
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_origin");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_games_resume_after_a_restart() {
    for database in backends() {
        let dir = TempDir::new("resume");
        let server = TestServer::start(&dir, database.clone(), true).await;
        let mut client = server.client();
        let seed = "5e".repeat(32);
        let body = json!({"game": "ur", "rules": {"pieces": 2}, "seats": [{"kind": "human"}, {"kind": "cpu", "level": "normal"}], "seed": seed});
        let mut state = client.create(body.clone()).await;
        for _ in 0..3 {
            state = client.play_first(&state).await["state"].clone();
        }
        let id = state["id"].as_str().unwrap().to_owned();
        server.stop().await;
        let server = TestServer::start(&dir, database.clone(), true).await;
        client.base = server.base.clone();
        assert_eq!(client.state(&id).await, state, "the game continues where it was");
        let (_, history) = client.get("/api/history").await;
        assert_eq!(
            (history["games"][0]["id"].as_str(), history["games"][0]["status"].as_str()),
            (Some(id.as_str()), Some("ongoing"))
        );
        // The history's query: `limit` 0-200 and `offset`; anything else is named.
        let (status, page) = client.get("/api/history?limit=1&offset=0").await;
        assert_eq!((status, page["games"].as_array().map(Vec::len)), (200, Some(1)), "{page}");
        let (status, page) = client.get("/api/history?limit=1&offset=1").await;
        assert_eq!((status, page["games"].as_array().map(Vec::len)), (200, Some(0)), "{page}");
        assert_refused(
            &client.get("/api/history?limit=201").await,
            400,
            "bad_request",
            "`limit` must be an integer from 0 to 200",
        );
        assert_refused(
            &client.get("/api/history?foo=bar").await,
            400,
            "bad_request",
            "takes `limit` and `offset`, not \"foo\"",
        );
        // A key given twice is named, not one of the two kept without a word.
        assert_refused(
            &client.get("/api/history?limit=1&limit=5").await,
            400,
            "bad_request",
            "the query gives \"limit\" more than once; give each key once",
        );
        while state["status"] != "finished" {
            state = client.play_first(&state).await["state"].clone();
        }
        // The same seed played without a restart gives the same game.
        let mut fresh = server.client();
        let mut other = fresh.create(body).await;
        while other["status"] != "finished" {
            other = fresh.play_first(&other).await["state"].clone();
        }
        let (_, a) = client.get(&format!("/api/games/{id}/record")).await;
        let (_, b) = fresh.get(&format!("/api/games/{}/record", other["id"].as_str().unwrap())).await;
        assert_eq!(a["actions"], b["actions"]);
        assert_eq!(a["seed"], seed.as_str());
        server.stop().await;
    }
}
