//! Golden records: whole seeded games kept as snapshots (regression guards; checked by hand
//! when first written, see the notes beside each).

use madang_games::{Record, SeededStreams, open, replay};
use madang_seed::sim_game_seed;
use serde_json::{Value, json};

/// The game's record and its `madang replay` view as JSON (events as their objects).
fn golden(rules: Value, seed: u64, bots: [&str; 2]) -> (Record, Value) {
    let mut game = open("ur", &rules, None).expect("valid rules");
    let seed = sim_game_seed(seed, 0);
    let mut streams = SeededStreams::new(seed, &game.seat_names());
    streams.advance(game.as_mut(), &bots.map(|b| Some(b.to_owned()))).expect("known bots");
    let record =
        Record { game: "ur".into(), rules, players: None, actions: game.history(), seed: Some(seed), end: None };
    let view = replay(&record).expect("a seeded game replays");
    (record, serde_json::to_value(&view).expect("a view is JSON"))
}

/// Hand-checked when written: the first turns of the record were stepped through against the
/// rules (rolls, entries on the rolled square, the rosette re-roll, captures only in B), and the
/// final pieces show the winner with 7 pieces on 15.
#[test]
fn finkel_hard_against_greedy() {
    let (record, view) = golden(json!({}), 11, ["hard", "greedy"]);
    insta::assert_json_snapshot!("finkel_hard_greedy_record", record);
    insta::assert_json_snapshot!("finkel_hard_greedy_view", view);
}

#[test]
fn blitz_random_against_random() {
    let (record, view) = golden(json!({"preset": "blitz"}), 12, ["random", "random"]);
    insta::assert_json_snapshot!("blitz_random_record", record);
    insta::assert_json_snapshot!("blitz_random_view", view);
}

#[test]
fn masters_greedy_against_normal() {
    let (record, view) = golden(json!({"preset": "masters"}), 13, ["greedy", "normal"]);
    insta::assert_json_snapshot!("masters_greedy_normal_record", record);
    insta::assert_json_snapshot!("masters_greedy_normal_view", view);
}
