//! Yut Nori through the real `madang replay` binary: a handful of end-to-end rule situations
//! (`to_move`, `legal`, `pieces`, `pool`, `result.stats`) and every kind of bad input.
//!
//! Every record is written by hand and every expected value is worked out from the spec
//! (`yut.md`, `README.md` "Game records", `pitfalls.md` "Yut Nori"), never copied from the
//! program's output. Comments track the position: `A[..]` / `B[..]` are each side's pieces by id
//! (−1 in hand, a station, 99 finished). "B passes" is a back-do thrown with no piece of one's own
//! on the board, which is discarded and ends the turn.

mod common;

use common::{Run, legal, replay_text, set};
use serde_json::{Value, json};

/// `madang replay -` of a Yut record.
fn yut(rules: Value, players: Option<u64>, actions: &[&str]) -> Run {
    let mut record = json!({ "game": "yut", "rules": rules, "actions": actions });
    if let Some(p) = players {
        record["players"] = json!(p);
    }
    replay_text(&record.to_string())
}

/// The view of a record that must replay without error.
#[track_caller]
fn view(rules: Value, players: Option<u64>, actions: &[&str]) -> Value {
    yut(rules, players, actions).view()
}

/// `pieces.WHO` (−1 in hand, a station, 99 finished).
#[track_caller]
fn pieces(view: &Value, who: &str) -> Vec<i64> {
    view["pieces"][who]
        .as_array()
        .unwrap_or_else(|| panic!("no `pieces.{who}` in {view}"))
        .iter()
        .map(|p| p.as_i64().expect("a station is a number"))
        .collect()
}

/// The `pool` field.
#[track_caller]
fn pool(view: &Value) -> Vec<String> {
    view["pool"]
        .as_array()
        .unwrap_or_else(|| panic!("no `pool` in {view}"))
        .iter()
        .map(|r| r.as_str().expect("a result is a string").to_owned())
        .collect()
}

fn then<'a>(prefix: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut all = prefix.to_vec();
    all.extend_from_slice(more);
    all
}

/// `{"order": "seated"}`: turn order = seat order, no ceremony.
fn seated() -> Value {
    json!({ "order": "seated" })
}

// ---------------------------------------------------------------------------------------------
// End to end
// ---------------------------------------------------------------------------------------------

/// yut.md "Who goes first": the seed's worked example. A geol, B yut, C gae, D gae; C and D
/// rethrow C mo, D yut; rank B, A, C, D; B picks 2, A 4, C 3, D gets 1: turn order D, B, C, A.
#[test]
fn replay_ceremony_seed_example_asks_b_a_c_and_d_throws_first() {
    let thrown = ["throw geol", "throw yut", "throw gae", "throw gae", "throw mo", "throw yut"];
    for n in 0..thrown.len() {
        let v = view(json!({}), Some(4), &thrown[..n]);
        assert_eq!(v["to_move"], "chance");
        assert_eq!(v["awaiting"], "throw");
        assert_eq!(pool(&v), Vec::<String>::new(), "ceremony throws do not enter the pool");
    }
    let v = view(json!({}), Some(4), &thrown);
    assert_eq!((v["to_move"].as_str(), v["awaiting"].as_str()), (Some("B"), Some("slot")));
    assert_eq!(legal(&v), set(&["slot 1", "slot 2", "slot 3", "slot 4"]));
    let v = view(json!({}), Some(4), &then(&thrown, &["slot 2"]));
    assert_eq!(v["to_move"], "A");
    assert_eq!(legal(&v), set(&["slot 1", "slot 3", "slot 4"]));
    let v = view(json!({}), Some(4), &then(&thrown, &["slot 2", "slot 4"]));
    assert_eq!(v["to_move"], "C");
    assert_eq!(legal(&v), set(&["slot 1", "slot 3"]));
    let picked = then(&thrown, &["slot 2", "slot 4", "slot 3"]);
    let v = view(json!({}), Some(4), &picked);
    assert_eq!((v["to_move"].as_str(), v["awaiting"].as_str()), (Some("chance"), Some("throw")));
    // The ceremony as data (docs/yut.md, "Events"): the tie, the rank, the slots, the order.
    let kinds = |v: &Value, kind: &str| -> Vec<Value> {
        v["events"].as_array().expect("events").iter().filter(|e| e["kind"] == kind).cloned().collect()
    };
    assert_eq!(kinds(&v, "tie").len(), 1);
    assert_eq!(kinds(&v, "tie")[0]["sides"], json!(["C", "D"]));
    assert_eq!(kinds(&v, "rank")[0]["sides"], json!(["B", "A", "C", "D"]));
    let slots: Vec<(Value, Value, Value)> = v["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["kind"] == "takes_slot" || e["kind"] == "gets_slot")
        .map(|e| (e["kind"].clone(), e["side"].clone(), e["slot"].clone()))
        .collect();
    assert_eq!(
        slots,
        [
            (json!("takes_slot"), json!("B"), json!(2)),
            (json!("takes_slot"), json!("A"), json!(4)),
            (json!("takes_slot"), json!("C"), json!(3)),
            (json!("gets_slot"), json!("D"), json!(1)),
        ]
    );
    assert_eq!(kinds(&v, "order")[0]["sides"], json!(["D", "B", "C", "A"]));
    assert_eq!(
        kinds(&v, "ceremony_throw")[0],
        json!({"kind": "ceremony_throw", "side": "A", "throw": "geol", "text": "A throws geol in the ceremony"})
    );
    assert_eq!(pool(&v), Vec::<String>::new());
    // D throws first, then B, C, A (D do → 1, B gae → 2, C geol → 3).
    let order = [("throw do", "D"), ("throw gae", "B"), ("throw geol", "C"), ("throw yut", "chance")];
    let mut actions = picked.clone();
    for (throw, who) in order {
        actions.push(throw);
        let v = view(json!({}), Some(4), &actions);
        assert_eq!(v["to_move"], who, "after {actions:?}");
        actions.push(match throw {
            "throw do" => "enter do",
            "throw gae" => "enter gae",
            "throw geol" => "enter geol",
            _ => "throw do",
        });
    }
    // The last two: A threw yut (throws again) and do: A is to move.
    let v = view(json!({}), Some(4), &actions);
    assert_eq!(v["to_move"], "A");
    assert_eq!(pool(&v), ["yut", "do"]);
}

/// yut.md "Throwing": with p = 1/2 and the default nak 1/100, `legal` lists the seven outcomes
/// with integer weights proportional to back-do 99, do 297, gae 594, geol 396, yut 99, mo 99,
/// nak 16 (over 1600); with nak "0" back-do 1, do 3, gae 6, geol 4, yut 1, mo 1 and no nak.
#[test]
fn replay_lists_chance_weights() {
    let check = |v: &Value, expected: &[(&str, u64)]| {
        assert_eq!(v["to_move"], "chance");
        let got: Vec<(String, u64)> = v["legal"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|o| (o["action"].as_str().expect("action").to_owned(), o["weight"].as_u64().expect("weight")))
            .collect();
        let names: Vec<&str> = got.iter().map(|(a, _)| a.as_str()).collect();
        let mut sorted_names = names.clone();
        sorted_names.sort_unstable();
        let mut expected_names: Vec<&str> = expected.iter().map(|(a, _)| *a).collect();
        expected_names.sort_unstable();
        assert_eq!(sorted_names, expected_names);
        let total: u64 = got.iter().map(|(_, w)| w).sum();
        let expected_total: u64 = expected.iter().map(|(_, w)| w).sum();
        for (action, weight) in &got {
            let e = expected.iter().find(|(a, _)| a == action).map(|(_, w)| *w).expect("listed");
            assert_eq!(weight * expected_total, e * total, "{action}: {weight}/{total} vs {e}/{expected_total}");
        }
    };
    check(
        &view(seated(), None, &[]),
        &[
            ("throw backdo", 99),
            ("throw do", 297),
            ("throw gae", 594),
            ("throw geol", 396),
            ("throw yut", 99),
            ("throw mo", 99),
            ("throw nak", 16),
        ],
    );
    check(
        &view(json!({ "nak": "0" }), None, &[]),
        &[("throw backdo", 1), ("throw do", 3), ("throw gae", 6), ("throw geol", 4), ("throw yut", 1), ("throw mo", 1)],
    );
    // p = 3/5 without back-do: do 4·3·8 = 96, gae 216, geol 216, yut 81, mo 16 (over 625).
    check(
        &view(json!({ "order": "seated", "stick_flat": "3/5", "backdo": false, "nak": "0" }), None, &[]),
        &[("throw do", 96), ("throw gae", 216), ("throw geol", 216), ("throw yut", 81), ("throw mo", 16)],
    );
}

/// yut.md "A turn" and "Notation": `pool` holds the unspent results in the order thrown; the
/// set yut → mo → geol is spent in any order (geol, yut, mo here).
#[test]
fn replay_shows_the_pool_as_a_set_is_spent() {
    let steps: [(&str, &[&str]); 6] = [
        ("throw yut", &["yut"]),
        ("throw mo", &["yut", "mo"]),
        ("throw geol", &["yut", "mo", "geol"]),
        ("enter geol", &["yut", "mo"]), // A[3]
        ("move 0 yut", &["mo"]),        // A 3 → 7 (over 모)
        ("enter mo", &[]),              // A[7, 5]: route question
    ];
    let mut actions = Vec::new();
    for (action, expected) in steps {
        actions.push(action);
        let v = view(seated(), None, &actions);
        assert_eq!(pool(&v), expected, "after {actions:?}");
    }
    let v = view(seated(), None, &actions);
    assert_eq!(pieces(&v, "A"), [7, 5, -1, -1]);
    assert_eq!((v["to_move"].as_str(), v["awaiting"].as_str()), (Some("A"), Some("route")));
    assert_eq!(legal(&v), set(&["route 6", "route 20"]));
}

/// A whole game (2 pieces each) with every results figure (yut.md "End of game": results), in
/// `result.stats`:
/// A captures B with do, takes a bonus gae that stacks on the capture station, runs the stack
/// 2 → 5 (over B's pieces on 3 and 4) → 22 → past 참먹이 with yut. B ends with pieces on 1 and 4.
#[test]
fn replay_reports_results_figures_in_result_stats() {
    let actions = [
        "throw do",
        "enter do", //                      A[1, -1]
        "throw gae",
        "enter gae", //                    B[2, -1]
        "throw do",
        "move 0 do", //                     A 1 → 2 captures B: bonus
        "throw gae",
        "enter gae", //                    A[2, 2]: a stack
        "throw yut",
        "throw geol",
        "enter geol",
        "enter yut", // B[3, 4]
        "throw geol",
        "move 0 geol",
        "route 20", //     A stack 3, 4, 5 (passing B)
        "throw backdo",
        "move 0 backdo", //             B 3 → 2
        "throw geol",
        "move 1 geol",
        "route 27", //     A stack 20, 21, 22
        "throw backdo",
        "move 0 backdo", //             B 2 → 1
        "throw yut",
        "throw do",   //                     A pool [yut, do]
        "move 0 yut", //                                A stack 27, 28, 0, past: A wins
    ];
    let rules = json!({ "order": "seated", "pieces": 2 });
    let v = view(rules.clone(), None, &actions[..6]);
    assert_eq!(pieces(&v, "B"), [-1, -1]);
    assert_eq!((v["to_move"].as_str(), v["awaiting"].as_str()), (Some("chance"), Some("throw")));

    let v = view(rules.clone(), None, &actions[..14]);
    assert_eq!(pieces(&v, "A"), [5, 5]);
    assert_eq!(pieces(&v, "B"), [3, 4], "passing over B does nothing");
    assert_eq!(v["awaiting"], "route");

    let v = view(rules.clone(), None, &actions[..24]);
    assert_eq!(pieces(&v, "A"), [22, 22]);
    assert_eq!(pieces(&v, "B"), [1, 4]);
    assert_eq!(v["to_move"], "A");
    assert_eq!(pool(&v), ["yut", "do"]);
    assert_eq!(legal(&v), set(&["move 0 yut", "move 0 do"]));
    assert!(v["result"].is_null());

    let v = view(rules.clone(), None, &actions);
    assert_eq!(v["status"], "finished");
    assert!(v["to_move"].is_null());
    assert!(v["awaiting"].is_null());
    assert_eq!(v["legal"], json!([]));
    assert_eq!(pool(&v), Vec::<String>::new(), "the unspent do is discarded");
    assert_eq!(pieces(&v, "A"), [99, 99]);
    assert_eq!(v["result"]["winner"], "A");
    // A: 2 finished; captures 1; extra throws: the capture bonus and the yut; 1 stack.
    // B: piece on 1: 4 to 모 + 6 + 1 = 11; on 4: 1 + 6 + 1 = 8; extra throws: its yut.
    assert_eq!(
        v["result"]["stats"],
        json!({
            "A": { "finished": 2, "steps_left": 0, "captures": 1, "extra_throws": 2, "stacks": 1 },
            "B": { "finished": 0, "steps_left": 19, "captures": 0, "extra_throws": 1, "stacks": 0 },
        })
    );

    // The same record from a file.
    let record = json!({ "game": "yut", "rules": rules, "actions": actions });
    let path = std::env::temp_dir().join(format!("madang-yut-replay-{}.json", std::process::id()));
    std::fs::write(&path, record.to_string()).expect("writing a temporary record");
    let run = common::madang(&["replay", path.to_str().expect("a UTF-8 path")], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(run.view()["result"], v["result"]);
}

/// yut.md results `steps_left` ("1 on 참먹이, 2 on 19, 7 on 모, 12 for a piece in hand", ignoring
/// any route already chosen), `extra_throws` and `stacks` in `result.stats`; a finishing stack
/// meets nothing on 참먹이. 5 pieces each: A enters all five with mo onto 모 (four joining moves)
/// and takes the stack to the centre; A's later naks pass the turn; B spreads its pieces.
#[test]
fn replay_results_steps_left_examples_in_result_stats() {
    let rules = json!({ "order": "seated", "pieces": 5 });
    let actions = [
        // A: pool [mo ×5, geol]: all five onto 모 (route 20 each time), then 20, 21, 22.
        "throw mo",
        "throw mo",
        "throw mo",
        "throw mo",
        "throw mo",
        "throw geol", //
        "enter mo",
        "route 20",
        "enter mo",
        "route 20",
        "enter mo",
        "route 20",
        "enter mo",
        "route 20", //
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 27", //
        // B: pool [mo, mo, mo, yut, do]: piece 0 round the ring: 5 → 10 → 15 → 19 → 0.
        "throw mo",
        "throw mo",
        "throw mo",
        "throw yut",
        "throw do", //
        "enter mo",
        "route 6",
        "move 0 mo",
        "route 11",
        "move 0 mo",
        "move 0 yut",
        "move 0 do", //
        "throw nak", // A: void, the turn passes
        // B: piece 1 the same way to 19; piece 2 enters with do on 1.
        "throw mo",
        "throw mo",
        "throw mo",
        "throw yut",
        "throw do", //
        "enter mo",
        "route 6",
        "move 1 mo",
        "route 11",
        "move 1 mo",
        "move 1 yut",
        "enter do",  //
        "throw nak", // A passes
        // B: piece 3 onto 모 (route 6 chosen); piece 2 1 → 2.
        "throw mo",
        "throw do",
        "enter mo",
        "route 6",
        "move 2 do", //
        // A: the stack of five 27, 28, 0 (over B's piece) and past: all finished.
        "throw yut",
        "throw do",
        "move 0 yut",
    ];
    let v = view(rules.clone(), None, &actions[..actions.len() - 3]);
    assert_eq!(pieces(&v, "A"), [22, 22, 22, 22, 22]);
    assert_eq!(pieces(&v, "B"), [0, 19, 2, 5, -1]);
    let v = view(rules, None, &actions);
    assert_eq!(v["result"]["winner"], "A");
    assert_eq!(pieces(&v, "A"), [99, 99, 99, 99, 99]);
    assert_eq!(pieces(&v, "B"), [0, 19, 2, 5, -1], "the finishing stack meets nothing on 참먹이");
    // B: 1 (참먹이) + 2 (19) + 10 (2: 3 to 모, 6, 1) + 7 (모) + 12 (hand) = 32.
    // Extra throws: A five mo and one yut; B 3 mo + yut, 3 mo + yut, mo.
    assert_eq!(
        v["result"]["stats"],
        json!({
            "A": { "finished": 5, "steps_left": 0, "captures": 0, "extra_throws": 6, "stacks": 4 },
            "B": { "finished": 0, "steps_left": 32, "captures": 0, "extra_throws": 9, "stacks": 0 },
        })
    );
    // One piece each, A finishes: B's piece in hand needs 12 (5 + 6 + 1).
    let done = ["throw mo", "throw yut", "throw geol", "enter mo", "route 20", "move 0 geol", "route 27", "move 0 yut"];
    let v = view(json!({ "order": "seated", "pieces": 1 }), None, &done);
    assert_eq!(v["result"]["stats"]["B"]["steps_left"], 12);
    assert_eq!(v["result"]["stats"]["A"]["extra_throws"], 2);
}

/// yut.md "Exit" `reach` and results `steps_left` (11 for a piece in hand): 5 + 3 + 3 steps
/// reach 참먹이 and finish.
#[test]
fn replay_exit_reach_and_steps_left() {
    let actions = [
        "throw mo",
        "throw geol",
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 27",     // A[22]
        "throw backdo", //                                                          B passes
        "throw geol",
        "move 0 geol", //                                             27, 28, 0: finished
    ];
    let v = view(json!({ "order": "seated", "exit": "reach", "pieces": 1 }), None, &actions);
    assert_eq!(v["result"]["winner"], "A");
    assert_eq!(v["result"]["stats"]["A"]["extra_throws"], 1);
    assert_eq!(v["result"]["stats"]["B"]["steps_left"], 11);
    // With exit "pass" the same moves stop on 참먹이.
    let v = view(json!({ "order": "seated", "pieces": 1 }), None, &actions);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(pieces(&v, "A"), [0]);
}

/// yut.md "End of game" `ranking` with 3 sides: A finishes (an unspent yut discarded) and leaves
/// the rotation; C finishes next; B is last.
#[test]
fn replay_ranking_with_three_sides() {
    let rules = json!({ "order": "seated", "finish": "ranking", "pieces": 1 });
    let a_done = [
        "throw mo",
        "throw yut",
        "throw yut",
        "throw geol",
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 27",
        "move 0 yut",
    ];
    let actions = then(
        &a_done,
        &[
            "throw do",
            "enter do",     //  B[1]
            "throw backdo", //          C passes
            "throw do",     //              B again (A has left the rotation)
        ],
    );
    let v = view(rules.clone(), Some(3), &actions);
    assert_eq!(v["to_move"], "B");
    assert_eq!(pieces(&v, "A"), [99]);
    let actions = then(
        &actions,
        &[
            "move 0 do",
            "throw mo",
            "throw yut",
            "throw geol",
            "enter mo",
            "route 20",
            "move 0 geol",
            "route 27",
            "move 0 yut",
        ],
    );
    let v = view(rules, Some(3), &actions);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"]["ranking"], json!(["A", "C", "B"]));
    assert!(v["result"].get("winner").is_none());
    assert_eq!(
        v["result"]["stats"]["B"],
        json!({ "finished": 0, "steps_left": 10, "captures": 0, "extra_throws": 0, "stacks": 0 })
    );
    assert_eq!(v["result"]["stats"]["A"]["extra_throws"], 3);
}

/// yut.md "Sides, teams and modes": `to_move` names the player; `pieces` names the team in
/// `team-shared` and the player in `team-separate`; `winner` and stats name the team.
#[test]
fn replay_team_modes_name_players_and_teams() {
    // team-shared: A1 enters, B1 passes, A2 moves the team's piece.
    let actions = ["throw do", "enter do", "throw backdo", "throw gae"];
    let v = view(json!({ "mode": "team-shared", "order": "seated" }), None, &actions);
    assert_eq!(v["to_move"], "A2");
    assert_eq!(legal(&v), set(&["enter gae", "move 0 gae"]));
    assert_eq!(v["pieces"], json!({ "A": [1, -1, -1, -1], "B": [-1, -1, -1, -1] }));

    // team-separate, 2 pieces each: A2 may only enter its own piece (team id 2).
    let rules = json!({ "mode": "team-separate", "order": "seated", "pieces": 2 });
    let v = view(rules.clone(), None, &actions);
    assert_eq!(v["to_move"], "A2");
    assert_eq!(legal(&v), set(&["enter gae"]));
    let v = view(rules.clone(), None, &then(&actions, &["enter gae"]));
    assert_eq!(v["pieces"], json!({ "A1": [1, -1], "A2": [2, -1], "B1": [-1, -1], "B2": [-1, -1] }));
    yut(rules, None, &then(&actions, &["move 0 gae"])).refused(&["action 4", "\"move 0 gae\""]);

    // team-shared, one piece: A2 finishes it and team A wins.
    let actions = [
        "throw backdo",
        "throw backdo", // A1, B1 pass
        "throw mo",
        "throw yut",
        "throw geol",
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 27",
        "move 0 yut",
    ];
    let v = view(json!({ "mode": "team-shared", "order": "seated", "pieces": 1 }), None, &actions);
    assert_eq!(v["result"]["winner"], "A");
    let stats = v["result"]["stats"].as_object().expect("stats");
    assert_eq!(stats.keys().cloned().collect::<Vec<_>>(), ["A", "B"]);
}

// ---------------------------------------------------------------------------------------------
// Bad input (README.md "Game records": exit status 2, the action's index, text and why)
// ---------------------------------------------------------------------------------------------

/// `move` of a piece still in hand.
#[test]
fn bad_move_of_a_piece_in_hand() {
    yut(seated(), None, &["throw do", "move 0 do"]).refused(&[
        "action 1",
        "\"move 0 do\"",
        "piece 0",
        "not on the board",
    ]);
    // Piece 1 is in hand while piece 0 is on the board.
    yut(seated(), None, &["throw yut", "throw do", "enter do", "move 1 yut"]).refused(&[
        "action 3",
        "\"move 1 yut\"",
        "piece 1",
    ]);
    // A piece id that does not exist.
    yut(seated(), None, &["throw do", "move 7 do"]).refused(&["action 1", "\"move 7 do\""]);
    yut(seated(), None, &["throw do", "move 200 do"]).refused(&["action 1", "\"move 200 do\""]);
}

/// A result not in the pool (never thrown, already spent, or a nak).
#[test]
fn bad_result_not_in_the_pool() {
    yut(seated(), None, &["throw do", "enter gae"]).refused(&["action 1", "\"enter gae\"", "not in the pool"]);
    yut(seated(), None, &["throw yut", "throw do", "enter do", "move 0 do"]).refused(&[
        "action 3",
        "\"move 0 do\"",
        "not in the pool",
    ]);
    yut(seated(), None, &["throw yut", "throw backdo", "enter backdo"]).refused(&["action 2", "\"enter backdo\""]);
    yut(seated(), None, &["throw gae", "enter nak"]).refused(&["action 1", "\"enter nak\""]);
}

/// `route` when not on a branch (a move or a throw is awaited), and a route that is not one of
/// the branch's two choices.
#[test]
fn bad_route_when_not_on_a_branch() {
    yut(seated(), None, &["throw do", "route 6"]).refused(&["action 1", "\"route 6\"", "move"]);
    yut(seated(), None, &["throw gae", "enter gae", "route 6"]).refused(&["action 2", "\"route 6\"", "throw"]);
    yut(seated(), None, &["throw mo", "throw do", "enter mo", "route 21"]).refused(&[
        "action 3",
        "\"route 21\"",
        "not a choice",
    ]);
    yut(json!({ "order": "seated", "shortcuts": "forced" }), None, &["throw mo", "throw do", "enter mo", "route 20"])
        .refused(&["action 3", "\"route 20\""]);
}

/// `slot N` already taken (or not a slot), and `stack` without optional stacking.
#[test]
fn bad_slot_already_taken() {
    // 3 sides: A yut, B geol, C do: A picks 2, B may not pick 2.
    let thrown = ["throw yut", "throw geol", "throw do", "slot 2"];
    yut(json!({}), Some(3), &then(&thrown, &["slot 2"])).refused(&["action 4", "\"slot 2\"", "not free"]);
    yut(json!({}), Some(3), &then(&thrown, &["slot 4"])).refused(&["action 4", "\"slot 4\""]);
    yut(json!({}), Some(3), &then(&thrown, &["slot 0"])).refused(&["action 4", "\"slot 0\""]);
    yut(json!({}), Some(3), &["throw yut", "slot 1"]).refused(&["action 1", "\"slot 1\"", "throw"]);
    yut(seated(), None, &["throw do", "enter do", "throw backdo", "throw do", "enter do", "stack yes"])
        .refused(&["action 5", "\"stack yes\""]);
}

/// A throw when a move is awaited, and a move when a throw is awaited.
#[test]
fn bad_throw_when_a_move_is_awaited() {
    yut(seated(), None, &["throw do", "throw gae"]).refused(&["action 1", "\"throw gae\"", "move"]);
    yut(seated(), None, &["enter do"]).refused(&["action 0", "\"enter do\"", "throw"]);
    yut(seated(), None, &["throw mo", "throw do", "enter mo", "throw do"]).refused(&[
        "action 3",
        "\"throw do\"",
        "route",
    ]);
    // After the game is over nothing is accepted.
    let done = ["throw mo", "throw yut", "throw geol", "enter mo", "route 20", "move 0 geol", "route 27", "move 0 yut"];
    yut(json!({ "order": "seated", "pieces": 1 }), None, &then(&done, &["throw do"])).refused(&[
        "action 8",
        "\"throw do\"",
        "over",
    ]);
    // With back-do off, a back-do cannot be thrown.
    yut(json!({ "order": "seated", "backdo": false }), None, &["throw backdo"])
        .refused(&["action 0", "\"throw backdo\""]);
    yut(json!({ "order": "seated", "nak": "0" }), None, &["throw nak"]).refused(&["action 0", "\"throw nak\""]);
}

/// Malformed notation names the action and the offending word.
#[test]
fn bad_notation() {
    yut(seated(), None, &["throw do", "move x do"]).refused(&["action 1", "\"move x do\"", "x"]);
    yut(seated(), None, &["throw six"]).refused(&["action 0", "\"throw six\"", "six"]);
    for bad in [
        "",
        "throw",
        "throw  do",
        "Throw do",
        "move 0",
        "move -1 do",
        "move 01 do",
        "enter",
        "stack maybe",
        "slot",
        "route x",
        "pass",
    ] {
        yut(seated(), None, &[bad]).refused(&["action 0"]);
    }
}

/// yut.md "Notation": `stick_flat` strictly between 0 and 1, `nak` at least 0 and below 1, each a
/// fraction with a denominator of at most 1000; other values are errors naming the key.
#[test]
fn bad_fraction_rule_values_name_the_key() {
    for bad in ["0", "1", "1/1001", "abc", "2/1", "1/0", "-1/2", "0/3", "3/3", ""] {
        yut(json!({ "stick_flat": bad }), None, &[]).refused(&["stick_flat"]);
    }
    yut(json!({ "stick_flat": 0.5 }), None, &[]).refused(&["stick_flat"]);
    for bad in ["1", "2/2", "1/1001", "x", "-1/100"] {
        yut(json!({ "nak": bad }), None, &[]).refused(&["nak"]);
    }
    // Valid edges replay.
    view(json!({ "stick_flat": "1/1000", "nak": "999/1000" }), None, &[]);
    view(json!({ "stick_flat": "999/1000", "nak": "0" }), None, &[]);
}

/// yut.md "Sides, teams and modes": `pieces` 1-5; 2-4 players individual, 4/6/8 in team modes;
/// `teammate` only with `team-separate`; unknown keys and bad values name the key.
#[test]
fn bad_rule_values_and_keys_name_the_key() {
    for bad in [json!(0), json!(6), json!(-1), json!("4"), json!(2.5)] {
        yut(json!({ "pieces": bad }), None, &[]).refused(&["pieces"]);
    }
    for players in [0, 1, 5] {
        yut(json!({}), Some(players), &[]).refused(&["players"]);
    }
    for mode in ["team-shared", "team-separate"] {
        for players in [2, 3, 5, 7, 10] {
            yut(json!({ "mode": mode }), Some(players), &[]).refused(&["players"]);
        }
    }
    yut(json!({ "teammate": "capture" }), None, &[]).refused(&["teammate"]);
    yut(json!({ "mode": "team-shared", "teammate": "stack" }), None, &[]).refused(&["teammate"]);
    yut(json!({ "mode": "team-separate", "teammate": "eat" }), None, &[]).refused(&["teammate"]);
    yut(json!({ "speed": 3 }), None, &[]).refused(&["speed"]);
    yut(json!({ "order": "seated", "shortcut": "forced" }), None, &[]).refused(&["shortcut"]);
    for (key, bad) in [
        ("nak_rule", json!("void_all")),
        ("shortcuts", json!("never")),
        ("stacking", json!(true)),
        ("exit", json!("exact")),
        ("mode", json!("solo")),
        ("order", json!("random")),
        ("finish", json!("last")),
        ("backdo", json!("yes")),
    ] {
        yut(json!({ key: bad }), None, &[]).refused(&[key]);
    }
    // The good values of each replay.
    view(json!({ "mode": "team-separate", "teammate": "capture" }), Some(8), &[]);
    view(json!({ "pieces": 5, "mode": "team-shared" }), Some(6), &[]);
    view(json!({}), Some(4), &[]);
}
