//! Seven Dice Poker through the real `madang replay` binary: hand-written records, expected
//! values worked out from the spec (`dice-poker.md`, `README.md` "Game records"), and bad input
//! (exit status 2, a message naming the action's index, its text and the reason).
//!
//! Cells of the default board, in reading order:
//!
//! ```text
//!  0  1  2  3
//!  4  5  6  7
//!  8  9 10 11
//! 12 13 14 15
//! ```

mod common;

use common::{chance, events, events_of, legal, replay_text, set, weights};
use serde_json::{Value, json};

fn record(rules: Value, actions: &[&str]) -> String {
    json!({ "game": "dice-poker", "rules": rules, "actions": actions }).to_string()
}

#[track_caller]
fn view(rules: Value, actions: &[&str]) -> Value {
    replay_text(&record(rules, actions)).view()
}

/// White wins the roll-off 5 against 2.
const WHITE_FIRST: [&str; 2] = ["roll 5", "roll 2"];

fn then<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut all = WHITE_FIRST.to_vec();
    all.extend_from_slice(more);
    all
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

#[test]
fn the_roll_off_is_ordinary_roll_actions() {
    let v = view(json!({}), &[]);
    assert_eq!(v["game"], "dice-poker");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["awaiting"], "roll");
    let dice = [("roll 1", 1), ("roll 2", 1), ("roll 3", 1), ("roll 4", 1), ("roll 5", 1), ("roll 6", 1)];
    assert_eq!(chance(&v), weights(&dice));
    assert_eq!(v["pieces"], json!(vec![Value::Null; 16]));
    // A tie rolls again: white rolls first once more.
    let v = view(json!({}), &["roll 3", "roll 3"]);
    assert_eq!(chance(&v), weights(&dice));
    assert!(events(&v).iter().any(|e| e.contains("tied at 3")), "{v}");
    // Black 4 against white 3: black starts and rolls.
    let v = view(json!({}), &["roll 3", "roll 3", "roll 3", "roll 4"]);
    assert!(events(&v).contains(&"black starts (4 against 3)".to_owned()), "{v}");
    let v = view(json!({}), &["roll 3", "roll 4", "roll 6"]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["awaiting"], "place");
}

#[test]
fn a_placement_changes_neighbours_and_the_view_shows_the_board() {
    // W3@0; B4@10; W6@5: neighbours 0 1 2 4 6 8 9 10 → own W3@0 → 4, black's B4@10 → 3.
    let v = view(json!({}), &then(&["roll 3", "place 0", "roll 4", "place 10", "roll 6", "place 5"]));
    let mut pieces = vec![Value::Null; 16];
    pieces[0] = json!({ "white": 4 });
    pieces[5] = json!({ "white": 6 });
    pieces[10] = json!({ "black": 3 });
    assert_eq!(v["pieces"], json!(pieces));
    assert_eq!(v["to_move"], "chance");
    let ev = events(&v);
    assert!(ev.contains(&"white raises own die on cell 0 from 3 to 4".to_owned()), "{ev:?}");
    assert!(ev.contains(&"white lowers black's die on cell 10 from 4 to 3".to_owned()), "{ev:?}");
    // As data (docs/dice-poker.md, "Events").
    assert_eq!(events_of(&v, "raise"), [json!({"kind": "raise", "seat": "white", "cell": 0, "from": 3, "to": 4})]);
    assert_eq!(
        events_of(&v, "lower"),
        [json!({"kind": "lower", "seat": "white", "owner": "black", "cell": 10, "from": 4, "to": 3})]
    );
    assert_eq!(events_of(&v, "place").last(), Some(&json!({"kind": "place", "seat": "white", "cell": 5, "value": 6})));
    // Black to place a 2: every empty cell.
    let v = view(json!({}), &then(&["roll 3", "place 0", "roll 4", "place 10", "roll 6", "place 5", "roll 2"]));
    let expected: Vec<String> = (0..16).filter(|c| ![0, 5, 10].contains(c)).map(|c| format!("place {c}")).collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_eq!(legal(&v), set(&expected));
}

#[test]
fn with_tokens_the_token_is_listed_and_shown() {
    let rules = json!({ "tokens": true, "board": "b" });
    let v = view(rules.clone(), &then(&["roll 3", "place 0", "roll 5"]));
    let l = legal(&v);
    assert_eq!(l.len(), 30, "15 places and 15 tokens");
    assert!(l.contains("token 1") && l.contains("place 15") && !l.contains("token 0"));
    // Black's token on 1 next to W3@0: nothing changes, the 5 is not used.
    let v = view(rules, &then(&["roll 3", "place 0", "roll 5", "token 1"]));
    assert_eq!(v["pieces"][0], json!({ "white": 3 }));
    assert_eq!(v["pieces"][1], json!({ "black": "token" }));
    assert_eq!(v["to_move"], "chance");
}

/// The checkerboard layout on type B: no two cells are orthogonal neighbours, so every die keeps
/// its rolled value and the hands can be read off the rolls.
const CHECKERBOARD: [&str; 4] = ["#.#.#.#.", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#"];

/// White starts; turn i: white rolls `white[i]` onto cell 2i, black `black[i]` onto 2i + 1.
fn checkerboard_record(white: [u8; 7], black: [u8; 7]) -> Vec<String> {
    let mut actions: Vec<String> = WHITE_FIRST.iter().map(|s| (*s).to_owned()).collect();
    for i in 0..7 {
        for (k, roll) in [white[i], black[i]].into_iter().enumerate() {
            actions.push(format!("roll {roll}"));
            actions.push(format!("place {}", 2 * i + k));
        }
    }
    actions
}

#[test]
fn a_finished_game_names_both_hands_and_their_dice() {
    let rules = json!({ "board": "b", "layout": CHECKERBOARD });
    // White 6 6 6 3 3 1 2: full house 6 6 6 3 3. Black 5 5 5 5 2 2 1: four of a kind 5 5 5 5 2.
    let actions = checkerboard_record([6, 6, 6, 3, 3, 1, 2], [5, 5, 5, 5, 2, 2, 1]);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let v = view(rules.clone(), &refs);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["awaiting"], Value::Null);
    assert_eq!(v["legal"], json!([]));
    assert_eq!(v["result"]["winner"], "black");
    let hands = &v["result"]["hands"];
    assert_eq!(hands["white"], json!({ "hand": "full house", "dice": [6, 6, 6, 3, 3] }));
    assert_eq!(hands["black"], json!({ "hand": "four of a kind", "dice": [5, 5, 5, 5, 2] }));
    assert_eq!(v["result"]["first"], "white");
    assert_eq!(v["pieces"][14], Value::Null);
    assert_eq!(v["pieces"][15], Value::Null);
    // Straights: white 1 2 3 4 6 6 6 → 6 4 3 2 1 beats black 1 2 3 4 5 1 1 → 5 4 3 2 1.
    let actions = checkerboard_record([1, 2, 3, 4, 6, 6, 6], [1, 2, 3, 4, 5, 1, 1]);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let v = view(rules.clone(), &refs);
    assert_eq!(v["result"]["winner"], "white");
    assert_eq!(v["result"]["hands"]["white"], json!({ "hand": "straight", "dice": [6, 4, 3, 2, 1] }));
    // Equal best hands draw: 6 6 6 3 3 (+ 1 1) against 6 6 6 3 3 (+ 2 4).
    let actions = checkerboard_record([6, 6, 6, 3, 3, 1, 1], [6, 3, 6, 3, 6, 2, 4]);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let v = view(rules, &refs);
    assert_eq!(v["result"]["draw"], true);
    assert_eq!(v["result"].get("winner"), None);
    assert!(events(&v).contains(&"the hands are equal: a draw".to_owned()));
}

#[test]
fn a_resigned_game_is_finished_with_the_other_seat_winning() {
    let text = json!({
        "game": "dice-poker",
        "actions": ["roll 5", "roll 2", "roll 3", "place 0"],
        "end": { "reason": "resign", "by": "white" },
    })
    .to_string();
    let v = replay_text(&text).view();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"]["winner"], "black");
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit status 2 naming the index, the action and the reason
// ---------------------------------------------------------------------------------------------

#[test]
fn placing_on_an_occupied_cell_is_refused() {
    let actions = then(&["roll 3", "place 0", "roll 4", "place 0"]);
    replay_text(&record(json!({}), &actions)).refused(&[
        "action 5",
        "\"place 0\"",
        "cell 0 is occupied by white's die showing 3",
    ]);
    // A token's cell too.
    let actions = then(&["roll 3", "token 0", "roll 4", "place 0"]);
    replay_text(&record(json!({ "tokens": true }), &actions)).refused(&["action 5", "occupied by white's token"]);
}

#[test]
fn a_cell_out_of_range_is_refused() {
    replay_text(&record(json!({}), &then(&["roll 3", "place 16"]))).refused(&[
        "action 3",
        "\"place 16\"",
        "cell 16 is not on the board (cells 0-15)",
    ]);
    replay_text(&record(json!({}), &then(&["roll 3", "place 300"]))).refused(&[
        "action 3",
        "\"place 300\"",
        "out of range",
    ]);
}

#[test]
fn a_token_without_the_token_rule_is_refused() {
    replay_text(&record(json!({}), &then(&["roll 3", "token 4"]))).refused(&[
        "action 3",
        "\"token 4\"",
        "the token rule is off",
    ]);
    replay_text(&record(json!({ "tokens": false }), &then(&["roll 3", "token 4"]))).refused(&["action 3", "`tokens`"]);
}

#[test]
fn a_second_token_is_refused() {
    let actions = then(&["roll 3", "token 4", "roll 2", "place 0", "roll 6", "token 5"]);
    replay_text(&record(json!({ "tokens": true }), &actions)).refused(&[
        "action 7",
        "\"token 5\"",
        "white has already placed its token",
    ]);
}

#[test]
fn a_roll_when_a_placement_is_awaited_is_refused() {
    replay_text(&record(json!({}), &then(&["roll 3", "roll 4"]))).refused(&[
        "action 3",
        "\"roll 4\"",
        "white has rolled 3 and must place it",
    ]);
}

#[test]
fn other_illegal_actions_are_refused() {
    replay_text(&record(json!({}), &["roll 5", "place 0"])).refused(&["action 1", "roll-off"]);
    replay_text(&record(json!({}), &then(&["place 0"]))).refused(&["action 2", "white must roll first"]);
    replay_text(&record(json!({}), &["roll 7"])).refused(&["action 0", "a die cannot roll 7"]);
    replay_text(&record(json!({}), &["roll 5", "roll 2", "move 3"])).refused(&["action 2", "\"move 3\""]);
    replay_text(&record(json!({}), &["roll 5", "roll 2", "roll 03"])).refused(&["action 2", "leading zeros"]);
    let finished = checkerboard_record([1; 7], [2; 7]);
    let mut refs: Vec<&str> = finished.iter().map(String::as_str).collect();
    refs.push("roll 1");
    let rules = json!({ "board": "b", "layout": CHECKERBOARD });
    replay_text(&record(rules, &refs)).refused(&["action 30", "the game is over"]);
}

#[test]
fn bad_rules_are_refused_naming_the_key() {
    replay_text(&record(json!({ "board": "c" }), &[])).refused(&["board"]);
    replay_text(&record(json!({ "straight": "wrapped" }), &[])).refused(&["straight"]);
    replay_text(&record(json!({ "tokens": "yes" }), &[])).refused(&["tokens"]);
    replay_text(&record(json!({ "token": true }), &[])).refused(&["token"]);
    replay_text(&record(json!({ "layout": ["####", "####", "####"] }), &[])).refused(&[
        "layout",
        "exactly 16",
        "got 12",
    ]);
    replay_text(&record(json!({ "layout": ["####", "#o##", "####", "####"] }), &[])).refused(&["layout", "row 1"]);
    replay_text(&record(json!({ "layout": "####" }), &[])).refused(&["layout"]);
    let text = json!({ "game": "dice-poker", "players": 3, "actions": [] }).to_string();
    replay_text(&text).refused(&["players"]);
}
