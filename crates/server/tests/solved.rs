//! The solved Royal Game of Ur on the server, with a 3-piece Finkel table solved in the test:
//! the table found in `<data-dir>/ur/` at start, the `perfect` CPU level, `win_chance` in the
//! state, the game review, and the refusals without a table or with a misnamed one.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod common;

use std::path::Path;
use std::sync::OnceLock;

use common::{TempDir, TestServer, assert_refused};
use madang_ur::{Preset, UrSettings};
use madang_ur_solver::{SolveOptions, Table, solve, write_table};
use serde_json::{Value, json};

fn three_piece_table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let settings = UrSettings { pieces: 3, ..Preset::Finkel.settings() };
        solve(settings, &SolveOptions::default()).unwrap().table
    })
}

fn put_table(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir.join("ur")).unwrap();
    write_table(three_piece_table(), &dir.join("ur").join(name)).unwrap();
}

/// Whether `value` holds a -0.0 anywhere (a float sum of nothing; it prints as such).
fn negative_zero(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_f64().is_some_and(|f| f == 0.0 && f.is_sign_negative()),
        Value::Array(items) => items.iter().any(negative_zero),
        Value::Object(map) => map.values().any(negative_zero),
        _ => false,
    }
}

fn chance(value: &Value) -> f64 {
    let c = value.as_f64().unwrap_or_else(|| panic!("not a chance: {value}"));
    assert!((0.0..=1.0).contains(&c), "{c}");
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_perfect_cpu_plays_and_the_game_is_reviewed() {
    let dir = TempDir::new("solved");
    put_table(&dir.0, "finkel-3pieces.table");
    let server = TestServer::start(&dir, None, true).await;
    let mut client = server.client();

    let (_, catalogue) = client.get("/api/catalogue").await;
    let ur = catalogue["games"].as_array().unwrap().iter().find(|g| g["game"] == "ur").unwrap();
    assert_eq!(ur["solved"], json!([{"preset": "finkel", "pieces": 3}]));
    // No table for the default (7-piece) rules: no `perfect` level offered.
    assert_eq!(ur["levels"], json!(["easy", "normal", "hard"]));

    let seed = "07".repeat(32);
    let mut state = client
        .create(json!({"game": "ur", "rules": {"pieces": 3}, "seed": seed,
                       "seats": [{"kind": "human"}, {"kind": "cpu", "level": "perfect"}]}))
        .await;
    // Light has rolled: its chance is that of its best move with this roll.
    chance(&state["win_chance"]);
    let id = state["id"].as_str().unwrap().to_owned();
    // Before anyone has moved: no decisions, and no loss is a plain 0 (not -0.0, the sum of
    // nothing in floating point). Exact with the table: answered at once.
    let (status, body) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["status"].clone(), body["review"]["exact"].clone()), (json!("done"), json!(true)));
    let review = &body["review"];
    for side in review["summary"].as_array().unwrap() {
        assert_eq!((side["decisions"].clone(), side["loss"].clone()), (json!(0), json!(0.0)), "{side}");
        assert!(side["loss"].as_f64().unwrap().is_sign_positive(), "{side}");
    }
    assert!(!negative_zero(review), "{review}");
    let mut human_moves = 0;
    while state["status"] != "finished" {
        chance(&state["win_chance"]);
        // The person's own rolls are not decisions; their moves are.
        human_moves += usize::from(state["to_move"] != "chance");
        state = client.play_first(&state).await["state"].clone();
    }
    assert!(state["win_chance"] == json!(1.0) || state["win_chance"] == json!(0.0), "{}", state["win_chance"]);

    let (status, body) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, 200, "{body}");
    let review = &body["review"];
    assert_eq!(review["sides"], json!(["light", "dark"]));
    let moves = review["moves"].as_array().unwrap();
    let light: Vec<&Value> = moves.iter().filter(|m| m["seat"] == "light").collect();
    assert_eq!(light.len(), human_moves, "one review entry per decision of the human");
    assert!(moves.iter().any(|m| m["seat"] == "dark"), "the CPU's decisions are reviewed too");
    let (_, record) = client.get(&format!("/api/games/{id}/record")).await;
    let actions = record["actions"].as_array().unwrap();
    // docs/analysis.md, "Grades": the bands in percentage points.
    let by_loss = |loss: f64| match loss {
        l if l < 0.01 => "best",
        l if l < 1.0 => "excellent",
        l if l < 2.5 => "good",
        l if l < 5.0 => "inaccuracy",
        l if l < 10.0 => "mistake",
        _ => "blunder",
    };
    for m in moves {
        let (best, chosen, loss) = (chance(&m["best_chance"]), chance(&m["chance"]), m["loss"].as_f64().unwrap());
        assert_eq!(m["action"], actions[m["index"].as_u64().unwrap() as usize], "{m}");
        // The mover's chances, exact: the loss is their difference.
        assert!(loss >= 0.0 && (100.0 * (best - chosen) - loss).abs() < 1e-9, "{m}");
        assert_eq!(m["margin"], json!(0.0));
        assert_eq!(m["grade"].as_str().unwrap(), by_loss(loss), "{m}");
        if m["seat"] == "dark" {
            assert_eq!(m["grade"], "best", "the perfect CPU plays the best move: {m}");
            assert_eq!(m["best"], m["action"]);
        }
        assert!(m["best"].as_str().unwrap().starts_with("move "));
    }
    let dark = &review["summary"][1];
    assert_eq!(
        (dark["side"].clone(), dark["loss"].clone(), dark["accuracy"].clone()),
        (json!("dark"), json!(0.0), json!(100.0))
    );
    assert!(!negative_zero(review), "no negative zero: {review}");
    assert_eq!(
        review["summary"][0]["decisions"].as_u64().unwrap() as usize,
        light.iter().filter(|m| m["choices"] != 1).count()
    );
    // The account adds up (exact values): result = initial + luck − loss + gains.
    for side in review["summary"].as_array().unwrap() {
        let f = |k: &str| side[k].as_f64().unwrap();
        assert!((f("result") - (f("initial") + f("outcome_luck") - f("loss") + f("gains"))).abs() < 0.05, "{side}");
    }
    assert_eq!(review["finished"], true);
    // Each move that lost something has its best move's events, the same as a replay of the
    // record cut there with the best move in its place gives.
    let lost: Vec<&Value> =
        moves.iter().filter(|m| m["loss"].as_f64().unwrap() > 0.0 && m["best"] != m["action"]).collect();
    assert!(!lost.is_empty(), "the person here plays the first legal move, which loses something at times");
    let best_moves = body["best_moves"].as_array().unwrap();
    assert_eq!(best_moves.len(), lost.len(), "{}", body["best_moves"]);
    for (m, best) in lost.iter().zip(best_moves) {
        assert_eq!((&best["index"], &best["seat"], &best["action"]), (&m["index"], &m["seat"], &m["best"]));
        let index = m["index"].as_u64().unwrap() as usize;
        let mut cut = record.clone();
        cut["actions"] = Value::Array(actions[..index].iter().cloned().chain([m["best"].clone()]).collect());
        cut.as_object_mut().unwrap().remove("end");
        let (status, replayed) = client.post("/api/replay", json!({"record": cut})).await;
        assert_eq!(status, 200, "{replayed}");
        assert_eq!(best["events"], replayed["entries"][index]["events"], "{m}");
    }
    // Stored: the second view is the same answer.
    let (_, again) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(again, body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_table_there_is_no_win_chance_no_perfect_level_and_the_review_is_estimated() {
    let dir = TempDir::new("unsolved");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(json!({"game": "ur"})).await;
    assert!(state.get("win_chance").is_none(), "{state}");
    let answer = client.get("/api/games/0123456789abcdef/review").await;
    assert_eq!(answer.0, 404, "{}", answer.1);
    let answer = client
        .post("/api/games", json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "perfect"}]}))
        .await;
    assert_refused(&answer, 422, "bad_level", "madang ur solve");
    // A record longer than a review covers (5,000 actions: docs/api.md) is refused at once,
    // legal as it is (light and dark rolling 0 in turn).
    let long = json!({"game": "ur", "rules": {}, "actions": vec!["roll 0"; 5_001]});
    assert_refused(&client.post("/api/review", json!({"record": long})).await, 422, "too_long", "5001");
    // Without a table a review is estimated: started, then polled while it runs (202 with its
    // progress), then done; a second game meanwhile finds the server busy.
    let mut game = client
        .create(json!({"game": "dice-poker", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]}))
        .await;
    while game["status"] != "finished" {
        game = client.play_first(&game).await["state"].clone();
    }
    let other = client.create(json!({"game": "ur", "rules": {"pieces": 1}})).await;
    let id = game["id"].as_str().unwrap();
    let (status, first) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!((status, first["status"].clone()), (202, json!("running")), "{first}");
    let busy = client.get(&format!("/api/games/{}/review", other["id"].as_str().unwrap())).await;
    assert_refused(&busy, 503, "busy", "reviewing");
    let mut body = first;
    for _ in 0..600 {
        let (status, answer) = client.get(&format!("/api/games/{id}/review")).await;
        body = answer;
        if status == 200 {
            break;
        }
        assert_eq!(status, 202, "{body}");
        let progress = body["progress"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&progress), "{body}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(body["status"], "done", "{body}");
    let review = &body["review"];
    assert_eq!(review["exact"], false);
    assert!(review["method"].as_str().unwrap().contains("playouts"), "{review}");
    // Every decision of both sides (Seven Dice Poker: 14 placements, no forced one before the last).
    let decisions = review["moves"].as_array().unwrap();
    assert!(decisions.len() >= 14, "{}", decisions.len());
    assert!(decisions.iter().all(|m| m["margin"].as_f64().unwrap() >= 0.0));
    // The account adds up by construction: luck is what the decisions do not explain.
    for side in review["summary"].as_array().unwrap() {
        let f = |k: &str| side[k].as_f64().unwrap();
        assert!((f("result") - (f("initial") + f("luck") - f("loss") + f("gains"))).abs() < 1e-9, "{side}");
    }
    server.stop().await;
}

#[test]
fn a_table_named_for_other_rules_is_refused_at_start() {
    let dir = TempDir::new("misnamed");
    put_table(&dir.0, "finkel.table");
    let error = madang_server::solved::load_tables(&dir.0).unwrap_err().to_string();
    assert!(error.contains("finkel.table") && error.contains("finkel with 3 pieces"), "{error}");
    assert!(error.contains("finkel-3pieces.table"), "{error}");
}
