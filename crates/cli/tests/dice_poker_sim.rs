//! `madang sim dice-poker` hand frequencies against the exact probabilities for seven
//! independent fair dice (spec issue 5: "computed by enumeration in a test and compared with
//! `madang sim` frequencies").
//!
//! What is compared: on the default boards the final dice are not independent fair dice (every
//! placement changes its neighbours), so the comparison uses the one board where they are: type
//! B on a checkerboard layout, where no two cells are orthogonal neighbours and every die keeps
//! its rolled value. Each seat's seven dice are then seven independent fair rolls, and the
//! frequency of each best hand must match the exact probability within sampling error. The exact
//! counts out of 6^7 = 279,936 are derived by hand and checked by enumeration in
//! `crates/dice-poker/tests/hands.rs`.

mod common;

use common::madang;
use serde_json::{Value, json};

const CHECKERBOARD: [&str; 4] = ["#.#.#.#.", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#"];

/// `[two pair, three of a kind, straight, full house, four of a kind, five of a kind]` of 279,936.
const DISTINCT: [(&str, u64); 6] = [
    ("two pair", 37_800),
    ("three of a kind", 0),
    ("straight", 115_920),
    ("full house", 96_600),
    ("four of a kind", 26_250),
    ("five of a kind", 3_366),
];
const CONSECUTIVE: [(&str, u64); 6] = [
    ("two pair", 88_200),
    ("three of a kind", 16_800),
    ("straight", 48_720),
    ("full house", 96_600),
    ("four of a kind", 26_250),
    ("five of a kind", 3_366),
];

fn sim(rules: &Value, games: u64) -> Value {
    let rules = rules.to_string();
    let games = games.to_string();
    let run = madang(&["sim", "dice-poker", "--games", &games, "--seed", "17", "--rules", &rules, "--json"], "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("the report is JSON")
}

#[test]
fn sim_hand_frequencies_match_the_exact_probabilities_for_independent_dice() {
    let games = 20_000u64;
    for (straight, exact) in [("distinct", DISTINCT), ("consecutive", CONSECUTIVE)] {
        let rules = json!({ "board": "b", "layout": CHECKERBOARD, "straight": straight });
        let report = sim(&rules, games);
        for seat in ["white", "black"] {
            let path = format!("hands.{seat}.hand");
            let frequencies = &report["figures"][&path]["frequencies"];
            assert!(frequencies.is_object(), "no {path} frequencies in {}", report["figures"]);
            for (hand, count) in exact {
                let p = count as f64 / 279_936.0;
                let f = frequencies[hand].as_f64().unwrap_or(0.0);
                let sd = (p * (1.0 - p) / games as f64).sqrt();
                assert!(
                    (f - p).abs() <= 4.5 * sd + 1e-12,
                    "{straight} {seat} {hand}: sim {f:.5}, exact {p:.5} (sd {sd:.5})"
                );
            }
        }
    }
}

#[test]
fn sim_reports_positions_from_the_roll_off() {
    let report = sim(&json!({}), 2_000);
    let first = &report["figures"]["first"]["frequencies"];
    // The roll-off is fair: white starts about half the time (2,000 games: sd 1.1 %).
    let white = first["white"].as_f64().expect("white starts sometimes");
    assert!((white - 0.5).abs() < 0.05, "white starts in {white}");
    let positions = report["by_position"].as_array().expect("by_position");
    assert_eq!(positions.len(), 2);
    assert_eq!(positions[0]["name"], "first");
    // Every game is 14 placements plus at least two roll-off rolls: 16 or more rolls.
    assert!(report["length"]["min"].as_u64().expect("min") >= 16);
}
