//! The conformance kit over a matrix of Yut options.

use madang_conformance::{PlayoutConfig, PlayoutStats, check_random_playouts};
use madang_core::Game;
use madang_yut::{Yut, YutOptions};
use serde_json::{Value, json};

fn run(rules: Value, players: Option<usize>, games: u64) -> PlayoutStats {
    let options: YutOptions = serde_json::from_value(rules.clone()).expect("valid options");
    let game = Yut::new(&options, players).unwrap_or_else(|e| panic!("{rules}: {e}"));
    check_random_playouts(&game, PlayoutConfig { games, max_actions: 50_000, ..PlayoutConfig::default() })
}

#[test]
fn default_rules_conform() {
    let stats = run(json!({}), None, 1000);
    assert_eq!(stats.wins.iter().sum::<u64>(), 1000);
    for kind in ["capture", "bonus", "again", "takes_slot", "discard", "stack", "finish", "ceremony_throw"] {
        assert!(stats.event_kinds.keys().any(|k| k.starts_with(kind)), "no {kind:?} in {:?}", stats.event_kinds.keys());
    }
}

#[test]
fn every_option_conforms() {
    let variants = [
        json!({"nak_rule": "void_throw"}),
        json!({"shortcuts": "forced"}),
        json!({"stacking": "optional"}),
        json!({"exit": "reach"}),
        json!({"backdo": false, "nak": "0"}),
        json!({"stick_flat": "3/5", "nak": "1/7"}),
        json!({"stick_flat": "1/999", "nak": "1/1000"}),
        json!({"pieces": 1, "order": "seated"}),
        json!({"pieces": 5, "stacking": "optional", "shortcuts": "forced", "exit": "reach"}),
    ];
    for rules in variants {
        run(rules, None, 60);
    }
    for players in [3, 4] {
        run(json!({}), Some(players), 60);
        run(json!({"finish": "ranking", "stacking": "optional"}), Some(players), 60);
    }
    for mode in ["team-shared", "team-separate"] {
        for players in [4, 6, 8] {
            run(json!({"mode": mode}), Some(players), 30);
            run(json!({"mode": mode, "finish": "ranking", "nak_rule": "void_throw"}), Some(players), 30);
        }
    }
    run(json!({"mode": "team-separate", "teammate": "capture", "stacking": "optional"}), Some(4), 60);
    run(json!({"mode": "team-separate", "teammate": "capture", "pieces": 2}), Some(6), 60);
}
