//! `madang review`: a record reviewed on the command line (`docs/analysis.md`), as the web page
//! shows it; bad input refused with exit status 2.

#![allow(clippy::unwrap_used)]

mod common;

use common::madang;
use serde_json::json;

/// The spec's worked example (`README.md`, "Game records"): light rolls 2 and enters, dark
/// rolls 3 and enters, light rolls 0 and passes, dark rolls 4. Both moves are forced (one piece
/// in hand, one legal move each).
const WORKED: &str = r#"{"game": "ur", "rules": {"preset": "finkel"}, "actions": ["roll 2", "move 0", "roll 3", "move 0", "roll 0", "roll 4"]}"#;

#[test]
fn a_record_is_reviewed_with_every_decision_and_roll() {
    // An empty data directory: no table, so the review is estimated.
    let dir = std::env::temp_dir().join(format!("madang-review-{}", std::process::id()));
    let data = dir.to_str().unwrap();
    let run = madang(&["review", "-", "--json", "--data-dir", data], WORKED);
    let body = run.view();
    assert_eq!(
        (body["status"].clone(), body["game"].clone(), body["version"].clone()),
        (json!("done"), json!("ur"), json!(6))
    );
    let review = &body["review"];
    assert_eq!(review["exact"], false);
    assert_eq!(review["sides"], json!(["light", "dark"]));
    // Two decisions, both forced: no loss, graded best, not counted in accuracy.
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(
        moves.iter().map(|m| (m["index"].as_u64().unwrap(), m["seat"].as_str().unwrap())).collect::<Vec<_>>(),
        [(1, "light"), (3, "dark")]
    );
    assert!(moves.iter().all(|m| m["choices"] == 1 && m["loss"] == 0.0 && m["grade"] == "best"));
    assert!(review["summary"].as_array().unwrap().iter().all(|s| s["decisions"] == 0 && s["accuracy"].is_null()));
    // Four rolls, each with its luck for both sides, summing to zero (two sides).
    let chance = review["chance"].as_array().unwrap();
    assert_eq!(
        chance.iter().map(|c| c["action"].as_str().unwrap()).collect::<Vec<_>>(),
        ["roll 2", "roll 3", "roll 0", "roll 4"]
    );
    for c in chance {
        let luck: Vec<f64> = c["luck"].as_array().unwrap().iter().map(|l| l.as_f64().unwrap()).collect();
        assert!((luck[0] + luck[1]).abs() < 1e-9, "{c}");
    }
    // The graph: the start and after each of the six actions.
    assert_eq!(review["graph"].as_array().unwrap().len(), 7);
    // The same review every time (fixed seeds), in text too.
    assert_eq!(madang(&["review", "-", "--json", "--data-dir", data], WORKED).view(), body);
    let text = madang(&["review", "-", "--data-dir", data], WORKED);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert!(text.stdout.contains("method: estimated") && text.stdout.contains("light"), "{}", text.stdout);
    // No progress bar when standard error is not a terminal.
    assert_eq!(text.stderr, "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_records_and_flags_are_refused() {
    madang(&["review", "-"], "{\"game\": \"chess\", \"actions\": []}").refused(&["chess"]);
    madang(&["review", "-"], r#"{"game": "ur", "actions": ["roll 2", "move 9"]}"#).refused(&["action 1", "move 9"]);
    madang(&["review", "-", "--table", "/nonexistent.table"], r#"{"game": "yut", "actions": []}"#)
        .refused(&["ur only"]);
}
