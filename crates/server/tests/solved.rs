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
    // nothing in floating point).
    let (status, review) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, 200, "{review}");
    for seat in ["light", "dark"] {
        let summary = &review["summary"][seat];
        assert_eq!((summary["moves"].clone(), summary["loss"].clone()), (json!(0), json!(0.0)), "{summary}");
        for key in ["loss", "mean_loss"] {
            assert!(summary[key].as_f64().unwrap().is_sign_positive(), "{seat} {key}: {summary}");
        }
    }
    assert!(!review.to_string().contains("-0.0"), "{review}");
    let mut human_moves = 0;
    while state["status"] != "finished" {
        chance(&state["win_chance"]);
        // The person's own rolls are not decisions; their moves are.
        human_moves += usize::from(state["to_move"] != "chance");
        state = client.play_first(&state).await["state"].clone();
    }
    assert!(state["win_chance"] == json!(1.0) || state["win_chance"] == json!(0.0), "{}", state["win_chance"]);

    let (status, review) = client.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, 200, "{review}");
    let moves = review["moves"].as_array().unwrap();
    let light: Vec<&Value> = moves.iter().filter(|m| m["seat"] == "light").collect();
    assert_eq!(light.len(), human_moves, "one review entry per decision of the human");
    assert!(moves.iter().any(|m| m["seat"] == "dark"), "the CPU's decisions are reviewed too");
    let (_, record) = client.get(&format!("/api/games/{id}/record")).await;
    let actions = record["actions"].as_array().unwrap();
    for m in moves {
        let (before, after, loss) = (chance(&m["before"]), chance(&m["after"]), m["loss"].as_f64().unwrap());
        assert_eq!(m["action"], actions[m["index"].as_u64().unwrap() as usize], "{m}");
        assert!(loss >= 0.0);
        // `before` and `after` are light's chances; the loss is the mover's.
        let expected = if m["seat"] == "light" { before - after } else { after - before };
        assert!((100.0 * expected - loss).abs() < 1e-9, "{m}");
        let grade = m["grade"].as_str().unwrap();
        let by_loss = match loss {
            l if l < 0.01 => "best",
            l if l < 1.0 => "good",
            l if l < 4.0 => "inaccuracy",
            l if l < 10.0 => "mistake",
            _ => "blunder",
        };
        assert_eq!(grade, by_loss, "{m}");
        if m["seat"] == "dark" {
            assert_eq!(grade, "best", "the perfect CPU plays the best move: {m}");
            assert_eq!(m["best"], m["action"]);
        }
        assert!(m["best"].as_str().unwrap().starts_with("move "));
    }
    assert_eq!(review["summary"]["dark"]["mean_loss"], json!(0.0));
    assert!(!review.to_string().contains("-0.0"), "no negative zero: {review}");
    assert_eq!(review["summary"]["light"]["moves"], json!(human_moves));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_table_there_is_no_win_chance_no_review_and_no_perfect_level() {
    let dir = TempDir::new("unsolved");
    let server = TestServer::start(&dir, None, false).await;
    let mut client = server.client();
    let state = client.create(json!({"game": "ur"})).await;
    assert!(state.get("win_chance").is_none(), "{state}");
    let id = state["id"].as_str().unwrap();
    let answer = client.get(&format!("/api/games/{id}/review")).await;
    assert_refused(&answer, 409, "no_table", r#"madang ur solve --rules '{"preset":"finkel"}'"#);
    let answer = client.get("/api/games/0123456789abcdef/review").await;
    assert_eq!(answer.0, 404, "{}", answer.1);
    let answer = client
        .post("/api/games", json!({"game": "ur", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "perfect"}]}))
        .await;
    assert_refused(&answer, 422, "bad_level", "madang ur solve");
    let ludo = client.create(json!({"game": "ludo"})).await;
    let answer = client.get(&format!("/api/games/{}/review", ludo["id"].as_str().unwrap())).await;
    assert_refused(&answer, 409, "no_table", "only ur");
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
