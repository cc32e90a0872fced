//! Ludo through the real `madang` binary: `replay` views, bad input (exit status 2 naming the
//! action's index and the reason), the roll limit, a whole game, and `sim`.
//!
//! Every record is written by hand (or built by a loop whose every step is reasoned out below)
//! and every expected value is worked out from the spec (`ludo.md`, `README.md` "Game
//! records"), never copied from the program's output.

mod common;

use common::{chance, count_events, events, events_of, legal, madang, replay_text, set, weights};
use serde_json::{Value, json};

fn record(actions: &[&str]) -> String {
    json!({ "game": "ludo", "actions": actions }).to_string()
}

#[track_caller]
fn view(actions: &[&str]) -> Value {
    replay_text(&record(actions)).view()
}

#[track_caller]
fn progress(view: &Value, seat: &str) -> Vec<i64> {
    view["pieces"][seat]
        .as_array()
        .unwrap_or_else(|| panic!("no pieces.{seat} in {view}"))
        .iter()
        .map(|p| p.as_i64().expect("a progress is an integer"))
        .collect()
}

/// README.md "Game records" and ludo.md "Notation": the starting view.
#[test]
fn starting_view_seat_zero_rolls_a_fair_die() {
    let v = view(&[]);
    assert_eq!(v["game"], "ludo");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "chance");
    assert_eq!(v["awaiting"], "roll");
    let fair = [("roll 1", 1), ("roll 2", 1), ("roll 3", 1), ("roll 4", 1), ("roll 5", 1), ("roll 6", 1)];
    assert_eq!(chance(&v), weights(&fair));
    assert_eq!(
        v["pieces"],
        json!({ "0": [-1, -1, -1, -1], "1": [-1, -1, -1, -1], "2": [-1, -1, -1, -1], "3": [-1, -1, -1, -1] })
    );
    assert_eq!(v["result"], Value::Null);
}

/// ludo.md: a 6 lets a piece leave; the view asks seat 0 to move, pieces listed by id.
#[test]
fn a_six_lets_a_piece_leave_and_the_same_seat_rolls_again() {
    let v = view(&["roll 6"]);
    assert_eq!(v["to_move"], "0");
    assert_eq!(v["awaiting"], "move");
    assert_eq!(legal(&v), set(&["move 0", "move 1", "move 2", "move 3"]));
    let v = view(&["roll 6", "move 3"]);
    assert_eq!(progress(&v, "0"), [-1, -1, -1, 0]);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(count_events(&v, "rolls again"), 1);
    // A 2 moves it to 2 and passes the turn; seat 1's 5 cannot move and passes.
    let v = view(&["roll 6", "move 3", "roll 2", "move 3", "roll 5"]);
    assert_eq!(progress(&v, "0"), [-1, -1, -1, 2]);
    assert_eq!(count_events(&v, "seat 1 has no move with 5 and passes"), 1);
    assert_eq!(v["to_move"], "chance");
    // As data (docs/ludo.md, "Events"): seat 0's piece 3 left base onto its start square, track
    // square 0 (ludo.md: seat k starts on 13k), moved 0 → 2 on track square 2, and seat 1's 5
    // passed.
    assert_eq!(events_of(&v, "leave_base"), [json!({"kind": "leave_base", "seat": "0", "piece": 3, "square": 0})]);
    assert_eq!(
        events_of(&v, "move"),
        [json!({"kind": "move", "seat": "0", "piece": 3, "from": 0, "to": 2, "square": 2, "place": "track"})]
    );
    assert_eq!(events_of(&v, "no_move"), [json!({"kind": "no_move", "seat": "1", "roll": 5})]);
    let v = view(&["roll 6", "move 3", "roll 2", "move 3", "roll 5", "roll 6"]);
    assert_eq!(v["to_move"], "2", "after seat 1 passed, seat 2 rolled the 6");
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit status 2 naming the index and the reason (README.md "Game records")
// ---------------------------------------------------------------------------------------------

/// Moving a piece that cannot move: piece 1 is in base and the roll is 3.
#[test]
fn moving_a_piece_that_cannot_move_is_refused() {
    let run = replay_text(&record(&["roll 6", "move 0", "roll 3", "move 1"]));
    run.refused(&["action 3", "\"move 1\"", "piece 1 of seat 0 is in base and needs a 6 to leave, not 3"]);
    // Overshooting the goal: piece 0 walks to 55 (see `seat_zero_walks_home`), then seat 0 rolls
    // a 6: 55 + 6 = 61 overshoots 56 (pieces 1-3 could leave base instead).
    let mut actions = seat_zero_walks_home(1);
    actions.truncate(2 + 11 * 5);
    let v = replay_text(&json!({ "game": "ludo", "actions": actions }).to_string()).view();
    assert_eq!(progress(&v, "0"), [55, -1, -1, -1]);
    actions.extend(["roll 6".to_owned(), "move 0".to_owned()]);
    let v = replay_text(&json!({ "game": "ludo", "actions": &actions[..actions.len() - 1] }).to_string()).view();
    assert_eq!(legal(&v), set(&["move 1", "move 2", "move 3"]));
    replay_text(&json!({ "game": "ludo", "actions": actions }).to_string()).refused(&[
        "action 58",
        "\"move 0\"",
        "piece 0 of seat 0 at 55 needs exactly 1 to reach the goal; 6 would overshoot",
    ]);
}

/// A second `roll` when a move is awaited.
#[test]
fn a_second_roll_when_a_move_is_awaited_is_refused() {
    replay_text(&record(&["roll 6", "roll 4"])).refused(&[
        "action 1",
        "\"roll 4\"",
        "seat 0 has rolled 6 and must move a piece",
    ]);
    // And a move when a roll is awaited.
    replay_text(&record(&["move 0"])).refused(&["action 0", "\"move 0\"", "seat 0 must roll first"]);
}

/// A piece id out of range.
#[test]
fn a_piece_id_out_of_range_is_refused() {
    replay_text(&record(&["roll 6", "move 4"])).refused(&["action 1", "\"move 4\"", "no piece 4", "0-3"]);
    replay_text(&record(&["roll 6", "move 300"])).refused(&["action 1", "\"move 300\"", "out of range"]);
    replay_text(&record(&["roll 7"])).refused(&["action 0", "\"roll 7\"", "cannot roll 7"]);
    replay_text(&record(&["roll 1", "roll 0"])).refused(&["action 1", "\"roll 0\"", "cannot roll 0"]);
}

/// README.md "Game records": `players` may only be 4 for Ludo; an unknown rule key is named.
#[test]
fn players_other_than_four_and_unknown_rule_keys_are_refused() {
    let text = json!({ "game": "ludo", "players": 2, "actions": [] }).to_string();
    replay_text(&text).refused(&["players", "4"]);
    let text = json!({ "game": "ludo", "players": 4, "actions": ["roll 1"] }).to_string();
    assert_eq!(replay_text(&text).view()["to_move"], "chance");
    let text = json!({ "game": "ludo", "rules": { "blockades": true }, "actions": [] }).to_string();
    replay_text(&text).refused(&["blockades"]);
}

// ---------------------------------------------------------------------------------------------
// A whole game and the roll limit
// ---------------------------------------------------------------------------------------------

/// Seat 0 brings its pieces home one after another while seats 1-3 roll 1s and pass (all their
/// pieces stay in base). For each piece: `roll 6, move k` (leave, roll again), then 11 turns of
/// `roll 5, move k` (0 → 5 → … → 55; only piece k can move a 5), then `roll 1, move k`
/// (55 → 56); after every seat-0 turn that does not win, seats 1-3 each `roll 1` and pass.
fn seat_zero_walks_home(pieces: usize) -> Vec<String> {
    let mut actions = Vec::new();
    let others = |actions: &mut Vec<String>| actions.extend(["roll 1"; 3].map(String::from));
    for k in 0..pieces {
        let mv = format!("move {k}");
        actions.extend(["roll 6".to_owned(), mv.clone()]);
        for _ in 0..11 {
            actions.extend(["roll 5".to_owned(), mv.clone()]);
            others(&mut actions);
        }
        actions.extend(["roll 1".to_owned(), mv.clone()]);
        if k + 1 < 4 {
            others(&mut actions);
        }
    }
    actions
}

/// ludo.md: the game ends the moment a seat has four pieces home; `result` is
/// `{"winner": "0"}` with the figures; nothing is legal afterwards (pitfalls.md: "Rolling allowed
/// after the game was already won").
#[test]
fn a_whole_game_ends_at_the_first_seat_with_four_home() {
    let three: Vec<String> = seat_zero_walks_home(3);
    let v = replay_text(&json!({ "game": "ludo", "actions": three }).to_string()).view();
    assert_eq!(v["status"], "ongoing");
    assert_eq!(progress(&v, "0"), [56, 56, 56, -1]);

    let all = seat_zero_walks_home(4);
    let text = json!({ "game": "ludo", "actions": all }).to_string();
    let v = replay_text(&text).view();
    assert_eq!(v["status"], "finished");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["awaiting"], Value::Null);
    assert_eq!(v["legal"], json!([]));
    assert_eq!(v["result"]["winner"], "0");
    assert_eq!(progress(&v, "0"), [56, 56, 56, 56]);
    assert_eq!(progress(&v, "1"), [-1, -1, -1, -1]);
    // Rolls: per piece seat 0 rolls 13 times (6, eleven 5s, 1) and 12 of its turns (all but the
    // game's last) are followed by 3 passing rolls: 4 × 13 + 3 × (4 × 12 − 1) = 52 + 141 = 193.
    // Turns: seat 0 has 12 turns per piece (the 6 and the first 5 are one turn), 48 in all, and
    // seats 1-3 one turn per roll, 141: 189.
    assert_eq!(v["result"]["stats"]["rolls"], 193);
    assert_eq!(v["result"]["stats"]["turns"], 189);
    assert_eq!(v["result"]["stats"]["captures"], json!([0, 0, 0, 0]));
    assert_eq!(count_events(&v, "seat 0 has all four pieces home and wins"), 1);

    let n = all.len();
    let mut more = all.clone();
    more.push("roll 1".to_owned());
    let text = json!({ "game": "ludo", "actions": more }).to_string();
    replay_text(&text).refused(&[&format!("action {n}"), "\"roll 1\"", "the game is over", "seat 0 has won"]);
}

/// ludo.md: "A game ends with no result once its 10,000th roll has been resolved … without a
/// winner." 10,000 rolls of 1: nobody leaves base, every roll passes.
#[test]
fn the_roll_limit_ends_the_game_with_no_result() {
    let ones = vec!["roll 1"; 10_000];
    let v = view(&ones[..9_999]);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "chance");
    let v = view(&ones);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["result"]["no_result"], "roll limit");
    assert_eq!(v["result"]["stats"]["rolls"], 10_000);
    assert_eq!(v["result"]["stats"]["turns"], 10_000);
    assert_eq!(
        events(&v).last().map(String::as_str),
        Some("the game ends with no result: 10000 rolls without a winner (roll limit)")
    );
    assert_eq!(events_of(&v, "roll_limit"), [json!({"kind": "roll_limit", "rolls": 10_000})]);
    let mut more = ones.clone();
    more.push("roll 6");
    replay_text(&record(&more)).refused(&["action 10000", "\"roll 6\"", "roll limit"]);
}

/// ludo.md: three 6s in a row — the third is void, the turn passes, earlier moves stand.
#[test]
fn three_sixes_in_a_row_void_the_third() {
    let v = view(&["roll 6", "move 0", "roll 6", "move 0", "roll 6"]);
    assert_eq!(progress(&v, "0"), [6, -1, -1, -1]);
    assert_eq!(v["to_move"], "chance");
    assert_eq!(count_events(&v, "third 6"), 1);
    let v = view(&["roll 6", "move 0", "roll 6", "move 0", "roll 6", "roll 6"]);
    assert_eq!(v["to_move"], "1", "seat 1 rolled next");
}

/// `madang sim ludo` runs every CPU and counts a result for every game.
#[test]
fn sim_plays_ludo_with_every_cpu() {
    let out =
        madang(&["sim", "ludo", "--games", "40", "--bots", "hard,normal,advance,easy", "--rotate-seats", "--json"], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let r: Value = serde_json::from_str(&out.stdout).expect("JSON report");
    assert_eq!(r["game"], "ludo");
    assert_eq!(r["games"], 40);
    let wins: u64 = r["by_seat"].as_array().expect("seats").iter().map(|s| s["wins"].as_u64().unwrap_or(0)).sum();
    let no_result = r["no_result"].as_u64().unwrap_or(0);
    assert_eq!(wins + no_result, 40);
    madang(&["sim", "ludo", "--bots", "hard*3"], "").refused(&["3 bots", "4 seats"]);
}
