//! Rule tests for the Royal Game of Ur through the real `madang replay` binary.
//!
//! Every record here is written by hand and every expected value is worked out from the spec
//! (`ur.md`, `README.md` "Game records", `pitfalls.md` "Royal Game of Ur"), never copied from the
//! program's output. Comments beside the actions track the position: `L[..] D[..]` are the
//! seats' own path squares, `ex` marks a rosette landing (the same seat rolls again).

mod common;

use common::{
    chance, count_events, events, events_of, legal, load_record, pieces, replay, replay_file, replay_text, set, then,
    view, weights,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// 1. The central rosette (ur.md "Rules"; pitfalls.md "Royal Game of Ur", first line)
// ---------------------------------------------------------------------------------------------

/// Pieces 2. Ends with light to roll, L[0,5] D[0,8]: dark stands on the central rosette B4.
const DARK_ON_B4: &[&str] = &[
    "roll 4", "move 0", // L 0→4 (A1) ex
    "roll 1", "move 4", // L 4→5 (B1); dark's turn
    "roll 4", "move 0", // D 0→4 (C1) ex
    "roll 4", "move 4", // D 4→8 (B4) ex; passes over light on 5, which is no capture
    "roll 0", //            dark passes; light to roll
];

/// ur.md "Rules": "The central rosette (path square 8, B4) is safe: a move onto an opponent who
/// stands there is illegal." README.md "Game records": the refusal names index, text and why.
#[test]
fn central_rosette_move_onto_opponent_on_b4_is_illegal() {
    // Light rolls 3: move 5 would land on 8 = B4 where dark stands; entering on 3 is fine.
    let v = view(json!({ "pieces": 2 }), &then(DARK_ON_B4, &["roll 3"]));
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "light");
    assert_eq!(v["awaiting"], "move");
    assert_eq!(legal(&v), set(&["move 0"]));
    assert_eq!(pieces(&v, "light"), [0, 5]);
    assert_eq!(pieces(&v, "dark"), [0, 8]);

    // The same record as a file (tests/records/ur/central_rosette_capture_refused.json).
    // The message names the action and why: the piece on B4 is safe.
    replay_file("ur/central_rosette_capture_refused.json").refused(&["action 10", "\"move 5\"", "B4", "safe"]);
}

/// ur.md "Rules": "Capture is decided on the destination square." pitfalls.md: safety checked on
/// the source square let a piece on B4 be captured. Here the piece ON B4 is the one moving: it
/// leaves B4 and captures, and an opponent passes over B4 freely.
#[test]
fn central_rosette_safety_is_decided_on_the_destination_square() {
    // Light rolls 4: move 5 goes 5→9 over dark's piece on B4 (passing is not landing).
    let v = view(json!({ "pieces": 2 }), &then(DARK_ON_B4, &["roll 4"]));
    assert_eq!(legal(&v), set(&["move 0", "move 5"]));
    let actions = then(DARK_ON_B4, &["roll 4", "move 5"]);
    let v = view(json!({ "pieces": 2 }), &actions);
    assert_eq!(pieces(&v, "light"), [0, 9]);
    assert_eq!(pieces(&v, "dark"), [0, 8], "passing over B4 leaves dark's piece where it is");
    assert_eq!(count_events(&v, "captures"), 0);

    // Dark rolls 1: its piece ON B4 moves 8→9 onto light's piece on B5 (not a rosette): legal,
    // a capture, light's piece goes back to hand.
    let v = view(json!({ "pieces": 2 }), &then(&actions, &["roll 1"]));
    assert_eq!(v["to_move"], "dark");
    assert_eq!(legal(&v), set(&["move 0", "move 8"]));
    let v = view(json!({ "pieces": 2 }), &then(&actions, &["roll 1", "move 8"]));
    assert_eq!(pieces(&v, "light"), [0, 0]);
    assert_eq!(pieces(&v, "dark"), [0, 9]);
    assert_eq!(count_events(&v, "captures"), 1);
    assert!(events(&v).iter().any(|e| e.contains("captures") && e.contains("B5")), "{v}");
    // The same as data (spec README, "events"; docs/ur.md, "Events"): dark moved 8 → 9 onto B5
    // and captured light's piece there.
    assert_eq!(
        events_of(&v, "move").last(),
        Some(&json!({"kind": "move", "seat": "dark", "from": 8, "to": 9, "tile": "B5"}))
    );
    assert_eq!(
        events_of(&v, "capture"),
        [json!({"kind": "capture", "seat": "dark", "captured": "light", "tile": "B5"})]
    );
}

/// ur.md "Presets": `safe_rosettes` is an option; with rosettes not safe the same move onto B4
/// captures, and the rosette still gives the mover another roll.
#[test]
fn central_rosette_capture_is_legal_when_rosettes_are_not_safe() {
    let v = view(json!({ "pieces": 2, "safe_rosettes": false }), &then(DARK_ON_B4, &["roll 3"]));
    assert_eq!(legal(&v), set(&["move 0", "move 5"]));

    let v = replay_file("ur/central_rosette_unsafe_option.json").view();
    assert_eq!(v["status"], "ongoing");
    assert_eq!(pieces(&v, "light"), [0, 8]);
    assert_eq!(pieces(&v, "dark"), [0, 0]);
    assert!(events(&v).iter().any(|e| e.contains("captures") && e.contains("B4")), "{v}");
    // Rosette landing: light rolls again.
    assert_eq!(v["to_move"], "chance");
    let mut record = load_record("ur/central_rosette_unsafe_option.json");
    record["actions"].as_array_mut().expect("actions").push(json!("roll 1"));
    let v = replay_text(&record.to_string()).view();
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 0", "move 8"]));
}

// ---------------------------------------------------------------------------------------------
// 2-4. Captures, private lanes, own pieces (ur.md "Board and paths", "Rules")
// ---------------------------------------------------------------------------------------------

/// ur.md "Board and paths": squares 1-4 and 13-14 are private lanes (different tiles for the two
/// players), so the same path square number there is no capture. Squares 2 and 4 here.
#[test]
fn same_square_number_in_the_private_entry_lane_is_no_capture() {
    // L 0→2 (A2); dark rolls 2 and enters on its own 2 (C2).
    let v = view(json!({ "pieces": 1 }), &["roll 2", "move 0", "roll 2"]);
    assert_eq!(v["to_move"], "dark");
    assert_eq!(legal(&v), set(&["move 0"]));
    let v = view(json!({ "pieces": 1 }), &["roll 2", "move 0", "roll 2", "move 0"]);
    assert_eq!(pieces(&v, "light"), [2]);
    assert_eq!(pieces(&v, "dark"), [2]);
    assert_eq!(count_events(&v, "captures"), 0);

    // Square 4: L 0→4 (A1) ex, light rolls 0; dark enters on its 4 (C1) ex.
    let v = view(json!({ "pieces": 1 }), &["roll 4", "move 0", "roll 0", "roll 4", "move 0"]);
    assert_eq!(pieces(&v, "light"), [4]);
    assert_eq!(pieces(&v, "dark"), [4]);
    assert_eq!(count_events(&v, "captures"), 0);
}

/// ur.md "Board and paths": squares 13 (A8 / C8) and 14 (A7 / C7) are private.
#[test]
fn same_square_number_in_the_private_exit_lane_is_no_capture() {
    let record = load_record("ur/private_lanes_do_not_capture.json");
    let actions: Vec<&str> = record["actions"].as_array().expect("actions").iter().filter_map(Value::as_str).collect();
    // After action 17 both stand on their own square 13.
    let v = view(json!({ "pieces": 1 }), &actions[..18]);
    assert_eq!(pieces(&v, "light"), [13]);
    assert_eq!(pieces(&v, "dark"), [13]);
    // After the whole record both stand on their own square 14, and dark rolls again.
    let v = replay_file("ur/private_lanes_do_not_capture.json").view();
    assert_eq!(pieces(&v, "light"), [14]);
    assert_eq!(pieces(&v, "dark"), [14]);
    assert_eq!(count_events(&v, "captures"), 0);
    assert_eq!(v["to_move"], "chance");
    let v = view(json!({ "pieces": 1 }), &then(&actions, &["roll 1"]));
    assert_eq!(v["to_move"], "dark");
}

/// Pieces 2. L 0→4 ex, 4→5 (B1); D 0→4 ex, then dark rolls 1.
const DARK_CAN_HIT_B1: &[&str] = &["roll 4", "move 0", "roll 1", "move 4", "roll 4", "move 0", "roll 1"];

/// ur.md "Rules": "Landing on an opponent's piece in the shared lane captures it: it returns to
/// its owner's hand."
#[test]
fn capture_in_the_shared_lane_returns_the_piece_to_hand() {
    let v = view(json!({ "pieces": 2 }), DARK_CAN_HIT_B1);
    assert_eq!(v["to_move"], "dark");
    assert_eq!(legal(&v), set(&["move 0", "move 4"]));
    let v = view(json!({ "pieces": 2 }), &then(DARK_CAN_HIT_B1, &["move 4"]));
    assert_eq!(pieces(&v, "light"), [0, 0], "light's piece is back in hand");
    assert_eq!(pieces(&v, "dark"), [0, 5]);
    assert!(events(&v).iter().any(|e| e.contains("captures") && e.contains("B1")), "{v}");
}

/// ur.md "Rules": "A piece may not land on a square holding a piece of its own colour."
#[test]
fn no_landing_on_own_piece() {
    // L 0→2, dark rolls 0, light rolls 2: entering would land on its own piece on 2.
    let actions = ["roll 2", "move 0", "roll 0", "roll 2"];
    let v = view(json!({ "pieces": 2 }), &actions);
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 2"]));
    replay(json!({ "pieces": 2 }), &then(&actions, &["move 0"])).refused(&[
        "action 4",
        "\"move 0\"",
        "already has a piece",
    ]);
}

// ---------------------------------------------------------------------------------------------
// 5. Exact bear-off (ur.md "Rules")
// ---------------------------------------------------------------------------------------------

/// Pieces 2. L 0→4 ex, 4→8 ex, 8→12; dark rolls 0. Light to roll, L[0,12] D[0,0].
const LIGHT_ON_12: &[&str] = &["roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 0"];

/// ur.md "Rules": "Bearing off needs the exact roll (from square 14 a 1 …); a larger roll cannot
/// move that piece." Borne off is path square 15 on the Bell path.
#[test]
fn bear_off_from_14_needs_exactly_1() {
    let on_14 = then(LIGHT_ON_12, &["roll 2", "move 12"]); // L 12→14 (A7) ex
    let v = view(json!({ "pieces": 2 }), &on_14);
    assert_eq!(pieces(&v, "light"), [0, 14]);
    assert_eq!(v["to_move"], "chance");

    let v = view(json!({ "pieces": 2 }), &then(&on_14, &["roll 1"]));
    assert_eq!(legal(&v), set(&["move 0", "move 14"]));
    let v = view(json!({ "pieces": 2 }), &then(&on_14, &["roll 1", "move 14"]));
    assert_eq!(pieces(&v, "light"), [0, 15]);
    assert_eq!(v["status"], "ongoing");

    for roll in ["roll 2", "roll 3", "roll 4"] {
        let v = view(json!({ "pieces": 2 }), &then(&on_14, &[roll]));
        assert_eq!(legal(&v), set(&["move 0"]), "after {roll} the piece on 14 cannot move");
    }
    replay(json!({ "pieces": 2 }), &then(&on_14, &["roll 2", "move 14"])).refused(&[
        "action 10",
        "\"move 14\"",
        "exactly 1",
    ]);
}

/// ur.md "Rules": "from 12 a 3" bears off; a 4 from 12 would overshoot.
#[test]
fn bear_off_from_12_needs_exactly_3() {
    let v = view(json!({ "pieces": 2 }), &then(LIGHT_ON_12, &["roll 3"]));
    assert_eq!(legal(&v), set(&["move 0", "move 12"]));
    let v = view(json!({ "pieces": 2 }), &then(LIGHT_ON_12, &["roll 3", "move 12"]));
    assert_eq!(pieces(&v, "light"), [0, 15]);
    assert_eq!(count_events(&v, "bears off"), 1);
    // Bearing off is not a rosette: dark rolls next.
    let v = view(json!({ "pieces": 2 }), &then(LIGHT_ON_12, &["roll 3", "move 12", "roll 1"]));
    assert_eq!(v["to_move"], "dark");

    let v = view(json!({ "pieces": 2 }), &then(LIGHT_ON_12, &["roll 4"]));
    assert_eq!(legal(&v), set(&["move 0"]));
    replay(json!({ "pieces": 2 }), &then(LIGHT_ON_12, &["roll 4", "move 12"])).refused(&["action 8", "exactly 3"]);
}

// ---------------------------------------------------------------------------------------------
// 6. Passing (ur.md "Rules"; pitfalls.md "Royal Game of Ur", second line)
// ---------------------------------------------------------------------------------------------

/// ur.md "Rules": "A roll of 0 … passes the turn. Two passes in a row never deadlock the game."
/// pitfalls.md: "a double roll of 0 not passing the turn because the pass branch skipped its
/// events".
#[test]
fn roll_of_zero_passes_the_turn_and_two_in_a_row_do_not_deadlock() {
    let v = view(json!({}), &["roll 0"]);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "chance");
    assert_eq!(v["awaiting"], "roll");
    assert_eq!(count_events(&v, "passes"), 1);
    // The next roll is dark's.
    let v = view(json!({}), &["roll 0", "roll 1"]);
    assert_eq!(v["to_move"], "dark");
    assert_eq!(legal(&v), set(&["move 0"]));

    let v = view(json!({}), &["roll 0", "roll 0"]);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(count_events(&v, "passes"), 2, "each pass is an event: {v}");
    let v = view(json!({}), &["roll 0", "roll 0", "roll 3"]);
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 0"]));
    // pitfalls.md: no move straight after a pass; the next action must be a roll.
    replay(json!({}), &["roll 0", "move 0"]).refused(&["action 1", "\"move 0\"", "roll"]);
}

/// Pieces 1. Both pieces end on their own square 14 (private, A7 / C7) with light to roll.
const BOTH_ON_14: &[&str] = &[
    "roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", // L 0→4 ex, →8 ex, →12
    "roll 4", "move 0", "roll 4", "move 4", "roll 3", "move 8", // D 0→4 ex, →8 ex, →11
    "roll 2", "move 12", "roll 0", //                              L 12→14 ex, rolls 0
    "roll 3", "move 11", "roll 0", //                              D 11→14 ex, rolls 0
];

/// ur.md "Rules": "a roll with no legal move, passes the turn. Two passes in a row never deadlock
/// the game." pitfalls.md: "A game stuck when both players can only pass (each holding one piece
/// on the last square with no exact roll)".
#[test]
fn roll_with_no_legal_move_passes_and_both_stuck_on_the_last_square_do_not_deadlock() {
    let v = view(json!({ "pieces": 1 }), BOTH_ON_14);
    assert_eq!(pieces(&v, "light"), [14]);
    assert_eq!(pieces(&v, "dark"), [14]);
    assert_eq!(v["to_move"], "chance");

    // Light 2, dark 3, light 4, dark 2: each is too big, each passes.
    let stuck = then(BOTH_ON_14, &["roll 2", "roll 3", "roll 4", "roll 2"]);
    let before = count_events(&view(json!({ "pieces": 1 }), BOTH_ON_14), "passes");
    for n in 1..=4 {
        let v = view(json!({ "pieces": 1 }), &stuck[..BOTH_ON_14.len() + n]);
        assert_eq!(v["status"], "ongoing");
        assert_eq!(v["to_move"], "chance", "after {n} passes a roll is awaited");
        assert_eq!(count_events(&v, "passes"), before + n);
        assert_eq!(count_events(&v, "no legal move"), n);
    }
    // A move is not accepted after a no-move pass.
    replay(json!({ "pieces": 1 }), &then(BOTH_ON_14, &["roll 2", "move 14"])).refused(&["action 19", "roll"]);
    // Light's turn again: a 1 bears off and wins.
    let v = view(json!({ "pieces": 1 }), &then(&stuck, &["roll 1"]));
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 14"]));
    let v = view(json!({ "pieces": 1 }), &then(&stuck, &["roll 1", "move 14"]));
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"]["winner"], "light");
}

// ---------------------------------------------------------------------------------------------
// 7-8. Extra rolls (ur.md "Rules", "Presets")
// ---------------------------------------------------------------------------------------------

/// ur.md "Rules": "Landing on any rosette (4, 8, 14) gives the mover another roll."
#[test]
fn landing_on_rosettes_4_8_14_gives_another_roll() {
    // Square 4 (A1), light.
    let v = view(json!({}), &["roll 4", "move 0"]);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(count_events(&v, "rolls again"), 1);
    assert_eq!(view(json!({}), &["roll 4", "move 0", "roll 2"])["to_move"], "light");
    // Square 4 (C1), dark.
    assert_eq!(view(json!({}), &["roll 0", "roll 4", "move 0", "roll 2"])["to_move"], "dark");
    // Square 8 (B4).
    let on_8 = ["roll 4", "move 0", "roll 4", "move 4"];
    let v = view(json!({}), &on_8);
    assert_eq!(count_events(&v, "rolls again"), 2);
    assert_eq!(view(json!({}), &then(&on_8, &["roll 2"]))["to_move"], "light");
    // Square 14 (A7).
    let on_14 = then(LIGHT_ON_12, &["roll 2", "move 12"]);
    let v = view(json!({}), &on_14);
    assert_eq!(count_events(&v, "rolls again"), 3);
    let v = view(json!({}), &then(&on_14, &["roll 1"]));
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 0", "move 14"]));

    // Squares that are not rosettes pass the turn: 3, and 12.
    assert_eq!(view(json!({}), &["roll 3", "move 0", "roll 2"])["to_move"], "dark");
    assert_eq!(
        view(json!({}), &["roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 2"])["to_move"],
        "dark"
    );
}

/// ur.md "Rules": "A capture gives no extra roll" (Finkel).
#[test]
fn capture_gives_no_extra_roll_in_finkel() {
    let captured = then(DARK_CAN_HIT_B1, &["move 4"]);
    let v = view(json!({}), &captured);
    assert_eq!(count_events(&v, "captures"), 1);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(view(json!({}), &then(&captured, &["roll 2"]))["to_move"], "light");
}

/// ur.md "Presets": in `blitz` a capture gives a roll; `capture_extra_roll` sets it alone.
#[test]
fn capture_gives_an_extra_roll_in_blitz_and_with_capture_extra_roll() {
    // On the Masters path squares 1-8 are the same tiles as on the Bell path: A1/C1 at 4, B1 at 5.
    let captured = then(DARK_CAN_HIT_B1, &["move 4"]);
    let v = view(json!({ "preset": "blitz" }), &captured);
    assert_eq!(count_events(&v, "captures"), 1);
    assert_eq!(pieces(&v, "light"), [0, 0, 0, 0, 0], "blitz has 5 pieces");
    assert_eq!(pieces(&v, "dark"), [0, 0, 0, 0, 5]);
    assert_eq!(view(json!({ "preset": "blitz" }), &then(&captured, &["roll 2"]))["to_move"], "dark");

    let rules = json!({ "capture_extra_roll": true });
    assert_eq!(view(rules.clone(), &captured)["to_move"], "chance");
    assert_eq!(view(rules, &then(&captured, &["roll 2"]))["to_move"], "dark");
}

/// ur.md "Rules": "Where rosettes are not safe … a capture on a rosette still earns the rosette's
/// roll; with `capture_extra_roll` it earns one extra roll, not two."
#[test]
fn capture_on_an_unsafe_rosette_with_capture_extra_roll_earns_one_roll_not_two() {
    let before = [
        "roll 4", "move 0", "roll 4", "move 4", "roll 0", // L 0→4 ex, →8 (B4) ex, rolls 0
        "roll 4", "move 0", "roll 4", // D 0→4 ex, rolls 4: 4→8 lands on light on B4
    ];
    let v = view(json!({ "preset": "blitz" }), &before);
    assert_eq!(legal(&v), set(&["move 4"]));
    let after = then(&before, &["move 4"]);
    let v = view(json!({ "preset": "blitz" }), &after);
    assert_eq!(count_events(&v, "captures"), 1);
    assert_eq!(
        count_events(&v, "rolls again") - count_events(&view(json!({ "preset": "blitz" }), &before), "rolls again"),
        1
    );
    // One roll: dark rolls 1 and moves 8→9 (B5, no rosette), then it is light's turn.
    let v = view(json!({ "preset": "blitz" }), &then(&after, &["roll 1", "move 8", "roll 1"]));
    assert_eq!(pieces(&v, "dark"), [0, 0, 0, 0, 9]);
    assert_eq!(v["to_move"], "light");
}

// ---------------------------------------------------------------------------------------------
// 9-10. Dice and the Masters path (ur.md "Rules", "Presets", "Notation")
// ---------------------------------------------------------------------------------------------

/// ur.md "Rules": four binary dice, rolls 0-4 with weights 1, 4, 6, 4, 1 out of 16.
#[test]
fn finkel_roll_weights_are_1_4_6_4_1() {
    let expected = weights(&[("roll 0", 1), ("roll 1", 4), ("roll 2", 6), ("roll 3", 4), ("roll 4", 1)]);
    for rules in [json!({}), json!({ "preset": "finkel" }), json!({ "preset": "blitz" })] {
        let v = view(rules.clone(), &[]);
        assert_eq!(v["status"], "ongoing");
        assert_eq!(v["awaiting"], "roll");
        assert_eq!(chance(&v), expected, "rules {rules}");
    }
    // Later in the game too (after a pass and after a move).
    assert_eq!(chance(&view(json!({}), &["roll 0"])), expected);
    assert_eq!(chance(&view(json!({}), &["roll 2", "move 0"])), expected);
}

/// ur.md "Presets": masters dice are three binary dice with 0 counting as 4: 1: 3/8, 2: 3/8,
/// 3: 1/8, 4: 1/8.
#[test]
fn masters_roll_weights_are_3_3_1_1() {
    let expected = weights(&[("roll 1", 3), ("roll 2", 3), ("roll 3", 1), ("roll 4", 1)]);
    assert_eq!(chance(&view(json!({ "preset": "masters" }), &[])), expected);
    assert_eq!(chance(&view(json!({ "dice": "three_binary_zero_is_four" }), &[])), expected);
    assert_eq!(chance(&view(json!({ "preset": "masters" }), &["roll 1", "move 0"])), expected);
}

/// ur.md "Presets": the Masters path has 16 squares, rosettes at 4, 8, 12, 16; borne off is 17.
#[test]
fn masters_path_has_16_squares_and_bears_off_to_17() {
    let rules = json!({ "preset": "masters", "pieces": 2 });
    // L 0→4 (A1) ex, →8 (B4) ex, →12 (C7) ex, →16 (A7) ex.
    let on_16 = ["roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 4", "move 12"];
    let v = view(rules.clone(), &on_16);
    assert_eq!(pieces(&v, "light"), [0, 16]);
    assert_eq!(count_events(&v, "rolls again"), 4);
    let v = view(rules.clone(), &then(&on_16, &["roll 1"]));
    assert_eq!(legal(&v), set(&["move 0", "move 16"]));
    let v = view(rules.clone(), &then(&on_16, &["roll 1", "move 16"]));
    assert_eq!(pieces(&v, "light"), [0, 17]);
    assert_eq!(count_events(&v, "bears off"), 1);
    let v = view(rules.clone(), &then(&on_16, &["roll 2"]));
    assert_eq!(legal(&v), set(&["move 0"]), "16 + 2 overshoots 17");

    // On the Bell path 12 + 3 bears off; on the Masters path it reaches 15 (B8 … A8).
    let v = view(rules.clone(), &["roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 3", "move 12"]);
    assert_eq!(pieces(&v, "light"), [0, 15]);
    assert_eq!(count_events(&v, "bears off"), 0);
    // 17 is not a path square to move from.
    replay(rules, &["roll 1", "move 17"]).refused(&["action 1", "\"move 17\"", "16"]);
}

/// ur.md "Presets": on the Masters path the far end is shared: light's 12 is C7, which is dark's
/// 16 (both rosettes, not safe in the masters preset).
#[test]
fn masters_capture_where_light_12_is_dark_16() {
    let rules = json!({ "preset": "masters", "pieces": 1 });
    let actions = [
        "roll 1", "move 0", // L 0→1 (A4)
        "roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 4",
        "move 12", // D →4 →8 →12 (A7) →16 (C7), all ex
        "roll 2",  //            D 16+2 overshoots: no legal move, dark passes
        "roll 3", "move 1", "roll 4", "move 4", // L 1→4 ex, 4→8 ex
        "roll 4", //            L 8→12 = C7 where dark stands
    ];
    let v = view(rules.clone(), &actions);
    assert_eq!(pieces(&v, "dark"), [16]);
    assert_eq!(pieces(&v, "light"), [8]);
    assert_eq!(count_events(&v, "no legal move"), 1);
    assert_eq!(legal(&v), set(&["move 8"]));
    let v = view(rules.clone(), &then(&actions, &["move 8"]));
    assert_eq!(pieces(&v, "light"), [12]);
    assert_eq!(pieces(&v, "dark"), [0]);
    assert!(events(&v).iter().any(|e| e.contains("captures") && e.contains("C7")), "{v}");
    // C7 is a rosette: light rolls again.
    assert_eq!(view(rules, &then(&actions, &["move 8", "roll 1"]))["to_move"], "light");
}

/// ur.md "Presets": light's 13 is C8, which is dark's 15.
#[test]
fn masters_capture_where_light_13_is_dark_15() {
    let rules = json!({ "preset": "masters", "pieces": 1 });
    let actions = [
        "roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 1",
        "move 12", // L →4 →8 →12 ex each, 12→13 (C8)
        "roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", // D →4 →8 →12 (A7), ex each
        "roll 3", //            D 12→15 = C8 where light stands
    ];
    let v = view(rules.clone(), &actions);
    assert_eq!(pieces(&v, "light"), [13]);
    assert_eq!(pieces(&v, "dark"), [12]);
    assert_eq!(legal(&v), set(&["move 12"]));
    let v = view(rules.clone(), &then(&actions, &["move 12"]));
    assert_eq!(pieces(&v, "light"), [0]);
    assert_eq!(pieces(&v, "dark"), [15]);
    assert!(events(&v).iter().any(|e| e.contains("captures") && e.contains("C8")), "{v}");
    // 15 is no rosette and masters gives no roll for a capture: light's turn.
    assert_eq!(view(rules, &then(&actions, &["move 12", "roll 1"]))["to_move"], "light");
}

// ---------------------------------------------------------------------------------------------
// 11. Winning (ur.md "Rules": "The first player to bear off all 7 pieces wins")
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn assert_won(v: &Value, winner: &str) {
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"]["winner"], winner);
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["awaiting"], Value::Null);
    assert_eq!(v["legal"], json!([]));
}

/// ur.md "Rules": bearing off the last piece wins; README.md "Game records": a finished game
/// has `to_move` null and `legal` []; nothing is legal afterwards.
#[test]
fn bearing_off_the_last_piece_wins_and_nothing_is_legal_after() {
    // Pieces 1: L →4 ex →8 ex →12, dark rolls 0, L 12→14 ex, 14→off.
    let light_wins = then(LIGHT_ON_12, &["roll 2", "move 12", "roll 1", "move 14"]);
    let v = view(json!({ "pieces": 1 }), &light_wins);
    assert_won(&v, "light");
    assert_eq!(pieces(&v, "light"), [15]);
    assert_eq!(pieces(&v, "dark"), [0]);
    for more in ["roll 1", "roll 0", "move 0", "move 14"] {
        let index = format!("action {}", light_wins.len());
        replay(json!({ "pieces": 1 }), &then(&light_wins, &[more])).refused(&[&index, &format!("{more:?}"), "over"]);
    }

    // Pieces 1, dark wins: L 0→1; D →4 ex →8 ex →12; light rolls 0; D 12→off with 3.
    let dark_wins =
        ["roll 1", "move 0", "roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8", "roll 0", "roll 3", "move 12"];
    let v = view(json!({ "pieces": 1 }), &dark_wins);
    assert_won(&v, "dark");
    assert_eq!(pieces(&v, "light"), [1]);
    assert_eq!(pieces(&v, "dark"), [15]);
}

/// Light brings one piece from hand to 12: 0→4 ex, 4→8 ex, 8→12 (turn passes).
const RUN_TO_12: [&str; 6] = ["roll 4", "move 0", "roll 4", "move 4", "roll 4", "move 8"];
/// The same seat, next turn: 12→14 ex, 14→off (turn passes).
const BEAR_OFF_FROM_12: [&str; 4] = ["roll 2", "move 12", "roll 1", "move 14"];

/// A full default game (7 pieces each) built from a hand-reasoned plan. Each round: light runs a
/// piece to 12, dark rolls 0, light bears it off; dark runs a piece to 12, light rolls 0, dark
/// bears it off. Every other piece is in hand or borne off during a trip, so no move is blocked
/// and nothing is captured. After six rounds both have 6 borne off; in the seventh round light
/// bears off its last piece first and wins, and dark's seventh piece never left hand.
#[test]
fn seven_pieces_default_game_is_won_by_the_first_to_bear_off_all_seven() {
    let mut actions: Vec<&str> = Vec::new();
    for _round in 0..6 {
        actions.extend(RUN_TO_12);
        actions.push("roll 0");
        actions.extend(BEAR_OFF_FROM_12);
        actions.extend(RUN_TO_12);
        actions.push("roll 0");
        actions.extend(BEAR_OFF_FROM_12);
    }
    assert_eq!(actions.len(), 6 * 22);
    let v = view(json!({}), &actions);
    assert_eq!(v["status"], "ongoing", "six each borne off is not a win");
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(pieces(&v, "light"), [0, 15, 15, 15, 15, 15, 15]);
    assert_eq!(pieces(&v, "dark"), [0, 15, 15, 15, 15, 15, 15]);

    actions.extend(RUN_TO_12);
    actions.push("roll 0");
    actions.extend(&BEAR_OFF_FROM_12[..3]);
    let v = view(json!({}), &actions);
    assert_eq!(v["to_move"], "light");
    assert_eq!(legal(&v), set(&["move 14"]), "no piece left in hand");

    actions.push(BEAR_OFF_FROM_12[3]);
    assert_eq!(actions.len(), 143);
    let v = view(json!({}), &actions);
    assert_won(&v, "light");
    assert_eq!(pieces(&v, "light"), [15; 7]);
    assert_eq!(pieces(&v, "dark"), [0, 15, 15, 15, 15, 15, 15]);
    // 13 pieces borne off (7 light, 6 dark); the win is its own event.
    let bear_offs = events(&v).iter().filter(|e| e.contains("bears off") && !e.contains("wins")).count();
    assert_eq!(bear_offs, 13);
    assert_eq!(count_events(&v, "captures"), 0);
    assert_eq!(count_events(&v, "wins"), 1);
}

// ---------------------------------------------------------------------------------------------
// 12. Ends other than by the rules (README.md "Game records": `end`)
// ---------------------------------------------------------------------------------------------

/// README.md "Game records": a record with `"end": {"reason": "resign", "by": SEAT}` replays as
/// finished with that end in `result`; resigning is a loss, so the other seat wins.
#[test]
fn resign_end_finishes_the_game_and_the_other_seat_wins() {
    let record = json!({
        "game": "ur",
        "actions": ["roll 2", "move 0"],
        "end": { "reason": "resign", "by": "dark" },
    });
    let v = replay_text(&record.to_string()).view();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["legal"], json!([]));
    assert_eq!(v["result"]["end"], json!({ "reason": "resign", "by": "dark" }));
    assert_eq!(v["result"]["winner"], "light");
    assert_eq!(pieces(&v, "light"), [0, 0, 0, 0, 0, 0, 2]);

    let record = json!({ "game": "ur", "actions": [], "end": { "reason": "resign", "by": "light" } });
    assert_eq!(replay_text(&record.to_string()).view()["result"]["winner"], "dark");
}

/// README.md "Game records": `by` is a seat; anything else is a malformed record.
#[test]
fn end_by_a_seat_that_does_not_exist_is_refused() {
    let record = json!({ "game": "ur", "actions": [], "end": { "reason": "resign", "by": "blue" } });
    replay_text(&record.to_string()).refused(&["by", "blue"]);
    let record = json!({ "game": "ur", "actions": [], "end": { "reason": "surrender", "by": "dark" } });
    replay_text(&record.to_string()).refused(&["reason", "surrender"]);
    // `end` is an object, as a record is; a reason is a string; what is echoed is clipped.
    let record = json!({ "game": "ur", "actions": [], "end": ["resign", "dark"] });
    replay_text(&record.to_string()).refused(&["`end`", "expected an object"]);
    for reason in [json!(null), json!(1), json!({})] {
        let record = json!({ "game": "ur", "actions": [], "end": { "reason": reason, "by": "dark" } });
        replay_text(&record.to_string()).refused(&["`end.reason`", "expected a string"]);
    }
    let record = json!({ "game": "ur", "actions": [], "end": { "reason": "resign", "by": "x".repeat(100_000) } });
    let run = replay_text(&record.to_string());
    let refused = run.refused(&["`end.by` must be a seat", "…"]);
    assert!(refused.len() < 400, "{} bytes", refused.len());
}

/// platform.md: "Every game can be ended by the player: resign (a loss), leave (Ludo: counts as
/// played …)" and "Ur online: resign, offer a draw": so a Ludo record cannot end by `resign`, and
/// only Ur's by `draw_agreed`. A record ending a game in a way it does not offer is refused,
/// naming the reason and the ones the game allows; the allowed ones replay.
#[test]
fn an_end_the_game_does_not_offer_is_refused() {
    let ludo_resign = json!({ "game": "ludo", "actions": [], "end": { "reason": "resign", "by": "0" } });
    replay_text(&ludo_resign.to_string()).refused(&["`end.reason`", "\"resign\"", "allows: abandoned"]);
    let yut_draw = json!({ "game": "yut", "actions": [], "end": { "reason": "draw_agreed", "by": "A" } });
    replay_text(&yut_draw.to_string()).refused(&["\"draw_agreed\"", "allows: resign, abandoned"]);
    let poker_draw = json!({ "game": "dice-poker", "actions": [], "end": { "reason": "draw_agreed", "by": "white" } });
    replay_text(&poker_draw.to_string()).refused(&["\"draw_agreed\"", "allows: resign, abandoned"]);

    let ludo_left = json!({ "game": "ludo", "actions": [], "end": { "reason": "abandoned", "by": "0" } });
    assert_eq!(
        replay_text(&ludo_left.to_string()).view()["result"]["end"],
        json!({ "reason": "abandoned", "by": "0" })
    );
    let ur_draw = json!({ "game": "ur", "actions": [], "end": { "reason": "draw_agreed", "by": "dark" } });
    assert_eq!(replay_text(&ur_draw.to_string()).view()["status"], "finished");
}

/// README.md "Game records": the example record and its explained output.
#[test]
fn readme_example_record_replays_as_documented() {
    let v = view(json!({ "preset": "finkel" }), &["roll 2", "move 0", "roll 3", "move 0", "roll 0", "roll 4"]);
    assert_eq!(v["game"], "ur");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "dark");
    assert_eq!(v["awaiting"], "move");
    assert_eq!(legal(&v), set(&["move 0", "move 3"]));
    assert_eq!(pieces(&v, "light"), [0, 0, 0, 0, 0, 0, 2]);
    assert_eq!(pieces(&v, "dark"), [0, 0, 0, 0, 0, 0, 3]);
    assert_eq!(v["result"], Value::Null);
}
