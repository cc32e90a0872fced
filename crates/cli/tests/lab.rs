//! `madang lab search`: the ranked result's numbers, thread independence, Ur's exact
//! first-mover chance from a solved table, and bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn madang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_madang")).args(args).output().expect("madang runs")
}

fn report(args: &[&str]) -> Value {
    let out = madang(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

const POKER: &[&str] = &[
    "lab",
    "search",
    "dice-poker",
    "--bots",
    "random*2",
    "--options",
    "board,tokens",
    "--batch",
    "250",
    "--max-games",
    "1000",
    "--seed",
    "3",
    "--json",
];

#[test]
fn a_search_ranks_every_rule_set_and_its_edges_come_from_its_counts() {
    let r = report(POKER);
    let results = r["results"].as_array().expect("results");
    // board a/b × tokens off/on (docs/dice-poker.md).
    assert_eq!(results.len(), 4);
    let mut rules: Vec<String> = results.iter().map(|v| v["rules"].to_string()).collect();
    rules.sort();
    assert_eq!(
        rules,
        [
            r#"{"board":"a","tokens":false}"#,
            r#"{"board":"a","tokens":true}"#,
            r#"{"board":"b","tokens":false}"#,
            r#"{"board":"b","tokens":true}"#
        ]
    );
    assert_eq!(r["looks"], 4);
    let mut best = 0;
    for (i, v) in results.iter().enumerate() {
        assert_eq!(v["rank"], i + 1);
        let games = v["games"].as_u64().unwrap_or(0);
        assert!(games > 0 && games <= 1000 && games % 250 == 0, "{v}");
        let first = &v["first_mover"];
        assert_eq!(first["games"], games);
        // Two seats: score = (wins + draws / 2) / games, edge = score − 1/2.
        let wins = number(&first["wins"]);
        let draws = number(&first["draws"]);
        let edge = (wins + draws / 2.0) / games as f64 - 0.5;
        assert!((number(&first["edge"]) - edge).abs() < 1e-12, "{v}");
        let (low, high) = (number(&first["interval"]["low"]), number(&first["interval"]["high"]));
        assert!(low < edge && edge < high, "{v}");
        match v["status"].as_str() {
            Some("best") => best += 1,
            Some("still_in") => assert!(games == 1000, "{v}"),
            Some("eliminated") => assert_eq!(v["after_games"], games),
            other => panic!("status {other:?}"),
        }
    }
    assert_eq!(best, 1);
    assert_eq!(results[0]["status"], "best");
    assert_eq!(r["games_played"], results.iter().map(|v| v["games"].as_u64().unwrap_or(0)).sum::<u64>());
    assert_eq!(r["tables"], Value::Array(Vec::new()), "dice poker has no solved tables");
}

#[test]
fn a_search_is_the_same_whatever_the_thread_count() {
    let strip = |mut v: Value| {
        if let Some(o) = v.as_object_mut() {
            o.remove("seconds");
            o.remove("threads");
        }
        v.to_string()
    };
    let one = report(&[POKER, &["--threads", "1"]].concat());
    let two = report(&[POKER, &["--threads", "2"]].concat());
    assert_eq!(one["threads"], 1);
    assert_eq!(strip(one), strip(two));
}

#[test]
fn the_text_report_is_a_ranked_table() {
    let args: Vec<&str> = POKER.iter().copied().filter(|a| *a != "--json").collect();
    let out = madang(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "balance search: dice-poker, 4 rule sets varying board, tokens",
        "rank",
        "rule set",
        "first mover W/D/L %",
        "edge (95% CI), points",
        r#"{"board":"a","tokens":true}"#,
        "best",
        "Bonferroni over 4 rule sets × 4 looks",
        "games in",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from\n{text}");
    }
}

/// Two random bots seat only individual Yut: the team modes are skipped, not played, so the
/// one rule set left is not said to have outlasted others.
#[test]
fn a_search_left_with_one_rule_set_says_so() {
    let out = madang(&["lab", "search", "yut", "--bots", "random*2", "--options", "mode", "--max-games", "200"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r#"most balanced: {"mode":"individual"} (the only rule set played)"#), "{text}");
    assert!(!text.contains("was dropped"), "{text}");
    assert!(text.contains(r#"skipped {"mode":"team-shared"}"#), "{text}");
}

/// The first mover's chance with two pieces under Finkel's rules: 51.8572907496 %
/// (docs/ur-solver.md, "Smaller games").
const TWO_PIECES: f64 = 0.518_572_907_496;

#[test]
fn ur_reports_the_exact_first_mover_chance_from_a_table_solved_on_the_fly_or_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().to_str().expect("a path");
    let base = [
        "lab",
        "search",
        "ur",
        "--bots",
        "random*2",
        "--options",
        "pieces",
        "--values",
        r#"{"pieces":[1,2]}"#,
        "--batch",
        "100",
        "--max-games",
        "200",
        "--json",
        "--data-dir",
        data,
    ];
    let exact = |r: &Value, pieces: u64| {
        r["results"]
            .as_array()
            .and_then(|v| v.iter().find(|v| v["rules"]["pieces"] == pieces))
            .map(|v| v["exact_first_mover"].clone())
    };
    // No table and no --solve: no exact chance, and the command that makes the table.
    let r = report(&base);
    assert_eq!(exact(&r, 2), Some(Value::Null));
    assert_eq!(r["tables"][1]["table"], "missing");
    // The data directory named, not the file: `--out` refuses a folder that does not exist yet,
    // while a solve into the data directory creates `ur/` (run below, as printed).
    let command = r["tables"][1]["command"].as_str().unwrap_or_default();
    assert_eq!(command, format!(r#"madang ur solve --rules '{{"preset":"finkel","pieces":2}}' --data-dir {data}"#));
    // --solve: both are small, solved in memory (f32 values).
    let r = report(&[&base[..], &["--solve"]].concat());
    assert_eq!(r["tables"][1]["table"], "solved");
    let two = exact(&r, 2).map_or(f64::NAN, |v| number(&v));
    assert!((two - TWO_PIECES).abs() < 1e-6, "{two}");
    let one = exact(&r, 1).map_or(f64::NAN, |v| number(&v));
    assert!(one > 0.5 && one < 1.0, "the first mover is ahead with one piece too: {one}");
    // A table written by `madang ur solve` into the data directory is read (u16 values: a step
    // of 1/65535).
    let solved = madang(&["ur", "solve", "--rules", r#"{"preset":"finkel","pieces":2}"#, "--data-dir", data]);
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let r = report(&base);
    assert_eq!(r["tables"][1]["table"], "loaded");
    let two = exact(&r, 2).map_or(f64::NAN, |v| number(&v));
    assert!((two - TWO_PIECES).abs() < 1.0 / 65535.0, "{two}");
    assert_eq!(r["tables"][0]["table"], "missing");
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let search = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["lab", "search", "dice-poker", "--bots", "random*2", "--options", "board"];
        args.extend_from_slice(extra);
        args
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["lab", "search", "dice-poker", "--bots", "random*2", "--options", "colour"],
            "dice-poker has no rule option `colour`; it declares: board, tokens, straight, layout",
        ),
        (
            vec!["lab", "search", "dice-poker", "--bots", "random*2", "--options", "layout"],
            "rule option `layout` (layout) has no finite list of values",
        ),
        (
            vec!["lab", "search", "dice-poker", "--bots", "random*2", "--options", "board,,tokens"],
            "--options takes option keys separated by commas",
        ),
        (
            vec!["lab", "search", "dice-poker", "--bots", "random*2", "--options", "board,board"],
            "--options lists `board` twice",
        ),
        (
            vec!["lab", "search", "ludo", "--bots", "random*4", "--options", "board"],
            "ludo has no rule option `board`; it declares: none",
        ),
        (vec!["lab", "search", "chess", "--bots", "random*2", "--options", "board"], "unknown game \"chess\""),
        (search(&["--values", "[1]"]), "--values takes a JSON object of arrays"),
        (search(&["--values", r#"{"tokens":[true]}"#]), "`tokens` is not among the varied --options"),
        (search(&["--values", r#"{"board":["c"]}"#]), "--values: the rules refuse"),
        (search(&["--rules", r#"{"board":"b"}"#]), "`board` is fixed by --rules and varied by --options"),
        (search(&["--rules", "nope"]), "--rules is not JSON"),
        (
            vec!["lab", "search", "dice-poker", "--bots", "random", "--options", "board"],
            "lists 1 bot but the game has 2 seats",
        ),
        (
            vec!["lab", "search", "dice-poker", "--bots", "random,wizard", "--options", "board"],
            "unknown bot \"wizard\"",
        ),
        (search(&["--batch", "0"]), "'--batch <BATCH>': expected a whole number of 1 or more, got 0"),
        (search(&["--batch", "600", "--max-games", "500"]), "--batch 600 is more than --max-games 500"),
        (search(&["--alpha", "1.5"]), "--alpha is the chance of dropping the most balanced rule set"),
        (search(&["--threads", "0"]), "--threads must be at least 1"),
    ];
    for (args, needle) in cases {
        let out = madang(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {needle:?} not in {stderr:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_budget_smaller_than_the_default_batch_is_one_batch() {
    let result = report(&[
        "lab",
        "search",
        "ur",
        "--bots",
        "random*2",
        "--options",
        "capture_extra_roll",
        "--max-games",
        "10",
        "--json",
    ]);
    // One batch of the whole budget: one look.
    assert_eq!((result["max_games"].as_u64(), result["looks"].as_u64()), (Some(10), Some(1)), "{result}");
}
