//! Bad input to `madang replay` and `madang verify`: every case exits with status 2 and a message
//! naming the problem, and nothing panics (spec `README.md`, "Game records": "A malformed record
//! (bad JSON, unknown game, unknown rule key) exits with status 2 and a message naming the
//! problem. Nothing panics."; "An unknown key or a bad value is an error that names the key").

mod common;

use common::{madang, replay, replay_text};
use serde_json::json;

#[test]
fn bad_json_is_refused() {
    replay_text("{\"game\": \"ur\", \"actions\": [").refused(&["malformed"]);
    replay_text("").refused(&["malformed", "the record is empty"]);
    replay_text(" \n").refused(&["malformed", "the record is empty"]);
    // A byte order mark before a good record is named, not called "not an object".
    replay_text("\u{feff}{\"game\": \"ur\", \"actions\": []}").refused(&["malformed", "byte order mark"]);
    replay_text("not json at all").refused(&["malformed"]);
    // JSON, but not a record.
    replay_text("[1, 2, 3]").refused(&["malformed"]);
    replay_text("{\"actions\": []}").refused(&["game"]);
    // Trailing garbage after the record.
    replay_text("{\"game\": \"ur\"} {}").refused(&["malformed"]);
}

#[test]
fn unknown_game_is_refused() {
    replay_text(r#"{"game": "chess", "actions": []}"#).refused(&["unknown game", "chess"]);
}

#[test]
fn unknown_rule_key_is_refused_naming_the_key() {
    replay(json!({ "speed": 3 }), &[]).refused(&["speed"]);
    replay(json!({ "preset": "finkel", "capture_roll": true }), &[]).refused(&["capture_roll"]);
    replay_text(r#"{"game": "ur", "rules": [], "actions": []}"#).refused(&["rules"]);
}

/// ur.md "Presets": `pieces` is an integer 1-7; `preset` is `finkel`, `blitz` or `masters`.
#[test]
fn bad_rule_values_are_refused_naming_the_key() {
    replay(json!({ "pieces": 0 }), &[]).refused(&["pieces", "0"]);
    replay(json!({ "pieces": 8 }), &[]).refused(&["pieces", "8"]);
    replay(json!({ "pieces": -1 }), &[]).refused(&["pieces"]);
    replay(json!({ "pieces": "x" }), &[]).refused(&["pieces"]);
    replay(json!({ "pieces": 2.5 }), &[]).refused(&["pieces"]);
    replay(json!({ "preset": "foo" }), &[]).refused(&["preset", "foo"]);
    replay(json!({ "dice": "d6" }), &[]).refused(&["dice", "d6"]);
    replay(json!({ "path": "spiral" }), &[]).refused(&["path", "spiral"]);
    replay(json!({ "safe_rosettes": "yes" }), &[]).refused(&["safe_rosettes"]);
    replay(json!({ "capture_extra_roll": 1 }), &[]).refused(&["capture_extra_roll"]);
    // An option's default is had by leaving it out, not by `null`.
    replay(json!({ "preset": null }), &[]).refused(&["preset", "null is not a value"]);
}

/// README.md "Game records": "For Ur and Dice Poker it may only be 2".
#[test]
fn players_other_than_two_are_refused() {
    for players in [json!(3), json!(1), json!(0), json!(-2), json!("two")] {
        let record = json!({ "game": "ur", "players": players, "actions": [] });
        replay_text(&record.to_string()).refused(&["players"]);
    }
    let record = json!({ "game": "ur", "players": 2, "actions": ["roll 1"] });
    assert_eq!(replay_text(&record.to_string()).view()["to_move"], "light");
}

#[test]
fn non_string_action_is_refused() {
    for action in [json!(5), json!(null), json!(["roll", 1]), json!({ "roll": 1 })] {
        let record = json!({ "game": "ur", "actions": ["roll 1", action] });
        replay_text(&record.to_string()).refused(&["actions"]);
    }
    replay_text(r#"{"game": "ur", "actions": "roll 1"}"#).refused(&["actions"]);
}

/// ur.md "Notation": `roll N`, `move K` with K a path square number.
#[test]
fn malformed_action_text_is_refused_naming_index_and_text() {
    for text in [
        "move",
        "move -1",
        "move 08",
        "jump 3",
        "roll",
        "roll x",
        "move  1",
        "move 1 ",
        " move 1",
        "Move 1",
        "move 1000",
        "",
    ] {
        let run = replay(json!({}), &["roll 2", text]);
        run.refused(&["action 1", &format!("{text:?}")]);
    }
}

/// pitfalls.md "Royal Game of Ur": "the server, not the client, decides when a roll or move is
/// allowed".
#[test]
fn roll_where_a_move_is_awaited_is_refused() {
    replay(json!({}), &["roll 2", "roll 3"]).refused(&["action 1", "\"roll 3\"", "must move"]);
}

#[test]
fn move_where_a_roll_is_awaited_is_refused() {
    replay(json!({}), &["move 0"]).refused(&["action 0", "\"move 0\"", "must roll"]);
    // After a move the next action is the other seat's roll.
    replay(json!({}), &["roll 3", "move 0", "move 3"]).refused(&["action 2", "\"move 3\"", "must roll"]);
}

/// ur.md "Notation": rolls are 0-4 (four binary dice) or 1-4 (three binary dice, 0 counts as 4).
#[test]
fn impossible_roll_is_refused() {
    replay(json!({}), &["roll 5"]).refused(&["action 0", "\"roll 5\"", "cannot roll 5"]);
    replay(json!({}), &["roll 0", "roll 255"]).refused(&["action 1", "\"roll 255\""]);
    replay(json!({ "preset": "masters" }), &["roll 0"]).refused(&["action 0", "\"roll 0\"", "cannot roll 0"]);
    replay(json!({ "dice": "three_binary_zero_is_four" }), &["roll 0"]).refused(&["action 0", "\"roll 0\""]);
}

/// A move naming a square that holds no piece of the mover, or no piece in hand.
#[test]
fn move_of_a_piece_that_is_not_there_is_refused() {
    replay(json!({}), &["roll 2", "move 3"]).refused(&["action 1", "\"move 3\"", "no piece"]);
    replay(json!({}), &["roll 2", "move 15"]).refused(&["action 1", "\"move 15\"", "not on light's path"]);
    // Pieces 1: once the piece is entered there is none left in hand.
    replay(json!({ "pieces": 1 }), &["roll 4", "move 0", "roll 1", "move 0"]).refused(&["action 3", "in hand"]);
}

#[test]
fn replay_of_a_missing_file_is_refused() {
    let missing = std::env::temp_dir().join("madang-no-such-record-3f9c2a.json");
    let path = missing.to_str().expect("a UTF-8 path");
    madang(&["replay", path], "").refused(&["madang-no-such-record-3f9c2a.json"]);
}

/// README.md "Seeds and random streams": verify checks a record that carries its `seed`.
#[test]
fn verify_of_a_record_without_seed_is_refused() {
    let record = json!({ "game": "ur", "actions": ["roll 2", "move 0"] });
    madang(&["verify", "-"], &record.to_string()).refused(&["seed"]);
}

#[test]
fn verify_of_a_record_with_a_malformed_seed_is_refused() {
    let record = json!({ "game": "ur", "seed": "1234", "actions": [] });
    madang(&["verify", "-"], &record.to_string()).refused(&["seed"]);
}

/// A record `madang replay` refuses for its `end` is not verified either: the ending names a
/// seat of the game (Ur's are light and dark) and ends a game still in play.
#[test]
fn verify_refuses_an_ending_replay_refuses() {
    let zero = "0".repeat(64);
    let record = json!({ "game": "ur", "seed": zero, "actions": [], "end": {"reason": "resign", "by": "purple"} });
    madang(&["replay", "-"], &record.to_string()).refused(&["`end.by`", "light, dark", "purple"]);
    madang(&["verify", "-"], &record.to_string()).refused(&["`end.by`", "light, dark", "purple"]);
    let resigned = json!({ "game": "ur", "seed": zero, "actions": [], "end": {"reason": "resign", "by": "dark"} });
    let run = madang(&["verify", "-"], &resigned.to_string());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// A platform record carries the `commitment` shown during the game: verify refuses a seed that
/// is not the committed one (exit 1, like a forged roll). SHA-256 of 32 zero bytes, computed
/// independently (Python's hashlib): 66687aad…2925.
#[test]
fn verify_checks_the_commitment_against_the_seed() {
    let zero = "0".repeat(64);
    let good = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925";
    let record = json!({ "game": "ur", "seed": zero, "commitment": good, "actions": [] });
    let run = madang(&["verify", "-"], &record.to_string());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bad = json!({ "game": "ur", "seed": zero, "commitment": "ab".repeat(32), "actions": [] });
    let run = madang(&["verify", "-"], &bad.to_string());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("commitment") && run.stderr.contains(good), "{}", run.stderr);
}

/// A platform record states its `result`; verify checks it against the one its actions and
/// `end` give: dark resigned before a roll, so light won (spec README, "Game records"). A
/// record that names dark the winner is refused (exit 1, like a forged roll) naming both.
#[test]
fn verify_checks_a_stated_result_against_the_actions() {
    let zero = "0".repeat(64);
    let end = json!({"reason": "resign", "by": "dark"});
    let stated = |winner: &str| json!({"winner": winner, "end": end, "stats": {"borne_off": [0, 0]}});
    let record = json!({ "game": "ur", "seed": zero, "actions": [], "end": end, "result": stated("light") });
    let run = madang(&["verify", "-"], &record.to_string());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("`result` is the one its actions give"), "{}", run.stdout);
    let lie = json!({ "game": "ur", "seed": zero, "actions": [], "end": end, "result": stated("dark") });
    let run = madang(&["verify", "-"], &lie.to_string());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("`result` is not the one its actions give"), "{}", run.stderr);
    assert!(run.stderr.contains(r#""winner":"dark""#) && run.stderr.contains(r#""winner":"light""#), "{}", run.stderr);
}

/// Output piped into a reader that stops early (`madang sim … | head`): the closed pipe ends
/// the run quietly, exit status 0, instead of a panic on printing (status 101 and a backtrace,
/// as `println!` does). The reader goes away before the run prints anything: 2,000 games take
/// tens of milliseconds, and the pipe is closed as soon as the process starts.
#[test]
fn a_closed_output_pipe_ends_the_run_quietly() {
    for args in [&["sim", "ur", "--games", "2000", "--threads", "1"][..], &["events"][..]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_madang"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("madang starts");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("madang ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
