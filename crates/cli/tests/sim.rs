//! `madang sim`: determinism across thread counts, the report's shape, and bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn madang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_madang")).args(args).output().expect("madang runs")
}

fn report(args: &[&str]) -> Value {
    let out = madang(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

#[test]
fn statistics_are_identical_whatever_the_thread_count() {
    let args = ["sim", "ur", "--games", "600", "--seed", "9", "--bots", "greedy,random", "--rotate-seats", "--json"];
    let mut one = report(&[&args[..], &["--threads", "1"]].concat());
    let mut two = report(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one["timing"]["threads"], 1);
    assert_eq!(two["timing"]["threads"], 2);
    one.as_object_mut().map(|o| o.remove("timing"));
    two.as_object_mut().map(|o| o.remove("timing"));
    assert_eq!(serde_json::to_string(&one).ok(), serde_json::to_string(&two).ok());
}

#[test]
fn report_counts_add_up_and_rotation_gives_every_bot_every_seat() {
    let r = report(&["sim", "ur", "--games", "100", "--bots", "greedy,random", "--rotate-seats", "--json"]);
    assert_eq!(r["games"], 100);
    let seat_wins: u64 = r["by_seat"].as_array().expect("seats").iter().map(|s| s["wins"].as_u64().unwrap_or(0)).sum();
    assert_eq!(seat_wins, 100, "every Ur game has one winner");
    for bot in r["by_bot"].as_array().expect("bots") {
        // 100 games, 2 seats, rotated: each bot plays 100 seat-games.
        assert_eq!(bot["games"], 100);
    }
    assert_eq!(r["by_position"][0]["name"], "first");
    assert!(r["length"]["mean"].as_f64().unwrap_or(0.0) > 0.0);
}

#[test]
fn text_report_names_seats_bots_and_timing() {
    let out = madang(&["sim", "ur", "--games", "50", "--bots", "random*2"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in ["by seat", "light", "dark", "by bot", "random", "95% CI", "games/s", "length (rolls)"] {
        assert!(text.contains(needle), "{needle:?} missing from\n{text}");
    }
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "ur", "--bots", "random"], "lists 1 bots but the game has 2 seats"),
        (&["sim", "ur", "--bots", "random,wizard"], "unknown bot \"wizard\""),
        (&["sim", "ur", "--bots", "random,expectimax:0"], "depth must be"),
        (&["sim", "ur", "--bots", "random*x"], "bad repeat count"),
        (&["sim", "ur", "--rules", "{\"pieces\":9}"], "pieces"),
        (&["sim", "ur", "--rules", "{\"bogus\":1}"], "bogus"),
        (&["sim", "ur", "--rules", "not json"], "--rules is not JSON"),
        (&["sim", "chess"], "unknown game \"chess\""),
        (&["sim", "ur", "--games", "0"], "--games must be at least 1"),
        (&["sim", "ur", "--threads", "0"], "--threads must be at least 1"),
    ];
    for (args, needle) in cases {
        let out = madang(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {needle:?} not in {stderr:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
}
