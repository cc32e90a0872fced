//! Named Yut Nori rule tests at the engine level.
//!
//! Every record here is written by hand and every expected value is worked out from the spec
//! (`yut.md`, `README.md`, `pitfalls.md` "Yut Nori"), never copied from the program's output.
//! Comments beside the actions track the position: `A[..]` / `B[..]` list each side's pieces by
//! id (−1 in hand, a station 0-28, 99 finished); `pool [..]` is the unspent results.
//!
//! Most tests use `{"order": "seated"}` (turn order = seat order, no ceremony) so A throws first.
//! "B backdo" means B throws a back-do with no piece of its own on the board: it is discarded and
//! the turn passes (tested on its own below) — a way to hand the turn back to A.

use std::collections::{BTreeMap, BTreeSet};

use madang_core::{Game, Outcome, Turn};
use madang_yut::{SideFigures, Yut, YutAction, YutError, YutOptions, YutState};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The rules for `rules` and `players`.
fn yut(rules: Value, players: Option<usize>) -> Yut {
    let options: YutOptions = serde_json::from_value(rules.clone()).unwrap_or_else(|e| panic!("{rules}: {e}"));
    Yut::new(&options, players).unwrap_or_else(|e| panic!("{rules}: {e}"))
}

/// 2 sides, seated order, plus `more` rules.
fn seated(more: Value) -> Yut {
    let mut rules = json!({ "order": "seated" });
    if let (Some(r), Some(m)) = (rules.as_object_mut(), more.as_object()) {
        r.extend(m.clone());
    }
    yut(rules, None)
}

/// Applies `actions` from the initial position; panics naming the first refused action.
#[track_caller]
fn play(game: &Yut, actions: &[&str]) -> YutState {
    play_events(game, actions).0
}

/// As [`play`], also returning the events.
#[track_caller]
fn play_events(game: &Yut, actions: &[&str]) -> (YutState, Vec<String>) {
    let mut state = game.initial_state();
    let mut events = Vec::new();
    for (i, text) in actions.iter().enumerate() {
        let action: YutAction = text.parse().unwrap_or_else(|e| panic!("action {i} {text:?}: {e}"));
        game.apply(&mut state, action, &mut events).unwrap_or_else(|e| panic!("action {i} {text:?}: {e}"));
    }
    (state, events.iter().map(ToString::to_string).collect())
}

/// Applies `actions`, then `bad`, which must be refused without changing the state.
#[track_caller]
fn refused(game: &Yut, actions: &[&str], bad: &str) -> YutError {
    let state = play(game, actions);
    let mut after = state.clone();
    let action: YutAction = bad.parse().unwrap_or_else(|e| panic!("{bad:?}: {e}"));
    let error = game.apply(&mut after, action, &mut ()).expect_err(bad);
    assert_eq!(after, state, "a refused {bad:?} changed the state");
    error
}

/// Legal actions as a set; also checks they have no duplicates.
fn legal(game: &Yut, state: &YutState) -> BTreeSet<String> {
    let mut out = Vec::new();
    game.legal_actions(state, &mut out);
    let set: BTreeSet<String> = out.iter().map(ToString::to_string).collect();
    assert_eq!(set.len(), out.len(), "duplicate legal actions: {out:?}");
    set
}

fn set(actions: &[&str]) -> BTreeSet<String> {
    actions.iter().map(|a| (*a).to_owned()).collect()
}

/// One side's (or, in team-separate, one player's) pieces.
fn pieces(game: &Yut, state: &YutState, who: &str) -> Vec<i8> {
    game.pieces(state).get(who).cloned().unwrap_or_else(|| panic!("no pieces for {who}"))
}

/// The pool, in the order thrown.
fn pool(game: &Yut, state: &YutState) -> Vec<String> {
    let extras: BTreeMap<&str, Vec<String>> = game.extra_fields(state).into_iter().collect();
    extras.get("pool").cloned().expect("a `pool` field")
}

/// The seat name at a decision node, `"chance"`, or `"terminal"`.
fn to_move(game: &Yut, state: &YutState) -> String {
    match game.turn(state) {
        Turn::Seat(s) => game.seat_names()[s].clone(),
        Turn::Chance => "chance".to_owned(),
        Turn::Terminal => "terminal".to_owned(),
    }
}

/// Who moves after a `throw gae` now (a result that ends the chain and is always usable while
/// the thrower has an unfinished piece): the player whose turn it is.
fn next_thrower(game: &Yut, state: &YutState) -> String {
    assert_eq!(game.turn(state), Turn::Chance, "not at a throw");
    assert_eq!(game.awaiting(state), Some("throw"));
    let mut s = state.clone();
    game.apply(&mut s, YutAction::Throw(madang_yut::Stick::Gae), &mut ()).expect("a gae can be thrown");
    to_move(game, &s)
}

fn figures(game: &Yut, state: &YutState, side: &str) -> SideFigures {
    game.figures(state).get(side).cloned().unwrap_or_else(|| panic!("no figures for {side}"))
}

fn fig(finished: u32, steps_left: u32, captures: u32, extra_throws: u32, stacks: u32) -> SideFigures {
    SideFigures { finished, steps_left, captures, extra_throws, stacks }
}

/// `prefix` followed by `more`.
fn then<'a>(prefix: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut all = prefix.to_vec();
    all.extend_from_slice(more);
    all
}

/// Chance outcomes compared as probabilities: `expected` gives weights over any denominator;
/// the engine's weights must be proportional (spec: integer weights over a common denominator).
#[track_caller]
fn assert_chance(game: &Yut, state: &YutState, expected: &[(&str, u64)]) {
    let mut out = Vec::new();
    game.chance_outcomes(state, &mut out);
    let got: BTreeMap<String, u64> = out.iter().map(|(a, w)| (a.to_string(), *w)).collect();
    assert_eq!(got.len(), out.len(), "duplicate outcomes: {out:?}");
    let names: BTreeSet<String> = expected.iter().map(|(a, _)| (*a).to_owned()).collect();
    assert_eq!(got.keys().cloned().collect::<BTreeSet<_>>(), names, "outcomes listed: {got:?}");
    let total: u64 = got.values().sum();
    let expected_total: u64 = expected.iter().map(|(_, w)| w).sum();
    for (action, weight) in expected {
        assert_eq!(
            u128::from(got[*action]) * u128::from(expected_total),
            u128::from(*weight) * u128::from(total),
            "{action}: {}/{total} is not {weight}/{expected_total} ({got:?})",
            got[*action]
        );
    }
}

/// A's piece 0 from hand to 19 along the outer ring in one turn, `last` being the chain's last
/// throw (still in the pool afterwards). pool [mo, mo, mo, yut, last]: mo enters on 모 (5) and
/// goes on to 6; mo 6→10 (뒷모) and on to 11; mo 11→15; yut 15→19.
fn ring_to_19(last: &'static str) -> Vec<&'static str> {
    vec![
        "throw mo",
        "throw mo",
        "throw mo",
        "throw yut",
        last, //
        "enter mo",
        "route 6", //   A[5]
        "move 0 mo",
        "route 11",   // A[10]
        "move 0 mo",  //             A[15]
        "move 0 yut", //            A[19], pool [last]
    ]
}

/// A's one piece from hand to finished in one turn: mo enters on 모 → 20; geol 20, 21, 22 stops
/// on the centre → 27; yut 27, 28, 0 and past it (5 + 3 + 4 = 12 steps, the fewest).
const FINISH_ONE: &[&str] =
    &["throw mo", "throw yut", "throw geol", "enter mo", "route 20", "move 0 geol", "route 27", "move 0 yut"];

// ---------------------------------------------------------------------------------------------
// Who goes first (yut.md "Who goes first")
// ---------------------------------------------------------------------------------------------

/// yut.md "Who goes first": the seed's worked example. A geol, B yut, C gae, D gae; C and D
/// rethrow: C mo, D yut. Rank B, A, C, D. B picks slot 2, A picks 4, C picks 3, D gets 1.
/// Turn order D, B, C, A.
#[test]
fn ceremony_seed_example_gives_turn_order_d_b_c_a() {
    let game = yut(json!({}), Some(4));
    let s = game.initial_state();
    assert_eq!(to_move(&game, &s), "chance");
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert!(pool(&game, &s).is_empty(), "ceremony throws do not enter the pool");

    // First round in seat order: A geol (3), B yut (4), C gae (2), D gae (2): C and D tie.
    let first = ["throw geol", "throw yut", "throw gae", "throw gae"];
    let s = play(&game, &first);
    assert_eq!(to_move(&game, &s), "chance", "C and D must throw again");
    assert!(pool(&game, &s).is_empty());

    // The rethrow only orders C and D: C mo (5) > D yut (4). Rank: B, A, C, D.
    let thrown = then(&first, &["throw mo", "throw yut"]);
    let s = play(&game, &thrown);
    assert_eq!(game.awaiting(&s), Some("slot"));
    assert_eq!(to_move(&game, &s), "B", "B ranks first and picks first");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 2", "slot 3", "slot 4"]));
    assert!(pool(&game, &s).is_empty());

    let s = play(&game, &then(&thrown, &["slot 2"]));
    assert_eq!(to_move(&game, &s), "A", "A ranks second");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 3", "slot 4"]));

    let s = play(&game, &then(&thrown, &["slot 2", "slot 4"]));
    assert_eq!(to_move(&game, &s), "C", "C ranks third");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 3"]));

    // D gets the last slot (1) without an action; play starts with D's throw.
    let picked = then(&thrown, &["slot 2", "slot 4", "slot 3"]);
    let s = play(&game, &picked);
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert!(pool(&game, &s).is_empty());
    assert_eq!(game.turn_order(&s), vec![3, 1, 2, 0], "D, B, C, A");
    assert_eq!(next_thrower(&game, &s), "D");

    // The rotation: D, B, C, then A. Each enters a piece on a different station (no captures):
    // D do → 1, B gae → 2, C geol → 3; then A throws.
    let round = then(&picked, &["throw do", "enter do", "throw gae", "enter gae", "throw geol", "enter geol"]);
    for (n, who) in [(1, "D"), (3, "B"), (5, "C")] {
        let s = play(&game, &round[..picked.len() + n]);
        assert_eq!(to_move(&game, &s), who);
    }
    let s = play(&game, &round);
    assert_eq!(pieces(&game, &s, "D"), [1, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [2, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "C"), [3, -1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "A");
}

/// yut.md "Who goes first": "a nak is thrown again at once"; values "do 1 > back-do −1".
/// A naks and throws again (back-do), B throws do: B ranks first, picks, A gets the other slot.
#[test]
fn ceremony_nak_is_thrown_again_and_backdo_ranks_below_do() {
    let game = yut(json!({}), None);
    let s = play(&game, &["throw nak"]);
    assert_eq!(to_move(&game, &s), "chance", "A throws again after a nak");
    let s = play(&game, &["throw nak", "throw backdo", "throw do"]);
    assert_eq!(game.awaiting(&s), Some("slot"), "back-do and do are not a tie");
    assert_eq!(to_move(&game, &s), "B");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 2"]));
    let s = play(&game, &["throw nak", "throw backdo", "throw do", "slot 2"]);
    assert_eq!(game.turn_order(&s), vec![0, 1]);
    assert_eq!(next_thrower(&game, &s), "A");
    assert_eq!(figures(&game, &s, "A").extra_throws, 0, "ceremony throws earn nothing");
}

/// yut.md "Who goes first": "With several tied groups, the groups are settled one at a time, the
/// highest-ranked group first, each in seat order." A gae, B yut, C gae, D yut: groups {B, D}
/// (yut) then {A, C} (gae). B do, D geol → D, B; then A mo, C do → A, C. Rank D, B, A, C.
/// (Had {A, C} thrown first, A do, C geol, B mo, D do would rank B first.)
#[test]
fn ceremony_several_tied_groups_settle_highest_group_first() {
    let game = yut(json!({}), Some(4));
    let thrown = ["throw gae", "throw yut", "throw gae", "throw yut", "throw do", "throw geol", "throw mo", "throw do"];
    let s = play(&game, &thrown);
    assert_eq!(to_move(&game, &s), "D");
    let s = play(&game, &then(&thrown, &["slot 4"]));
    assert_eq!(to_move(&game, &s), "B");
    let s = play(&game, &then(&thrown, &["slot 4", "slot 3"]));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 2"]));
    let s = play(&game, &then(&thrown, &["slot 4", "slot 3", "slot 2"]));
    // C gets slot 1: order C, A, B, D.
    assert_eq!(game.turn_order(&s), vec![2, 0, 1, 3]);
    assert_eq!(next_thrower(&game, &s), "C");
}

/// yut.md "Notation": `slot N` must be a free slot.
#[test]
fn ceremony_slot_already_taken_is_refused() {
    let game = yut(json!({}), Some(3));
    // A yut, B geol, C do: rank A, B, C. A takes 2; B may not take 2.
    let thrown = ["throw yut", "throw geol", "throw do", "slot 2"];
    let error = refused(&game, &thrown, "slot 2");
    assert!(matches!(error, YutError::BadSlot(2, _)), "{error}");
    refused(&game, &thrown, "slot 4");
    refused(&game, &thrown, "slot 0");
}

// ---------------------------------------------------------------------------------------------
// Chance weights (yut.md "Throwing")
// ---------------------------------------------------------------------------------------------

/// yut.md "Throwing": with p = 1/2 each of the 16 stick patterns has weight 1: mo (0 flat) 1,
/// do (1 flat) 4 of which the marked stick is 1 (back-do) and 3 (do), gae C(4,2) = 6,
/// geol C(4,3) = 4, yut 1. With nak "0" no nak is listed.
#[test]
fn chance_weights_with_half_sticks_and_no_nak() {
    let game = seated(json!({ "nak": "0" }));
    let expected =
        [("throw backdo", 1), ("throw do", 3), ("throw gae", 6), ("throw geol", 4), ("throw yut", 1), ("throw mo", 1)];
    assert_chance(&game, &game.initial_state(), &expected);
    // The same weights at the ceremony's throws and later in the game.
    let ceremony = yut(json!({ "nak": "0" }), None);
    assert_chance(&ceremony, &ceremony.initial_state(), &expected);
    let s = play(&game, &["throw yut"]);
    assert_chance(&game, &s, &expected);
}

/// yut.md "Throwing": nak 1/100 (the default) and the other outcomes share 99/100 in proportion:
/// over 1600, back-do 99, do 297, gae 594, geol 396, yut 99, mo 99 (= 16ths × 99), nak 16.
#[test]
fn chance_weights_with_default_nak_one_in_a_hundred() {
    let game = seated(json!({}));
    let expected = [
        ("throw backdo", 99),
        ("throw do", 297),
        ("throw gae", 594),
        ("throw geol", 396),
        ("throw yut", 99),
        ("throw mo", 99),
        ("throw nak", 16),
    ];
    assert_chance(&game, &game.initial_state(), &expected);
    let ceremony = yut(json!({}), Some(3));
    assert_chance(&ceremony, &ceremony.initial_state(), &expected);
}

/// yut.md "Throwing" / "Notation": with `backdo: false` every do is a do (4/16) and back-do is not
/// listed (weight 0).
#[test]
fn chance_weights_without_backdo() {
    let game = seated(json!({ "backdo": false, "nak": "0" }));
    let expected = [("throw do", 4), ("throw gae", 6), ("throw geol", 4), ("throw yut", 1), ("throw mo", 1)];
    assert_chance(&game, &game.initial_state(), &expected);
    let error = refused(&game, &[], "throw backdo");
    assert!(matches!(error, YutError::ImpossibleThrow(_)), "{error}");
}

/// yut.md "Throwing": p = 3/5, q = 2/5, over 5^4 = 625: mo q^4 = 16; one flat 4·3·2^3 = 96, the
/// marked one 3·8 = 24 (back-do) and 72 (do); gae 6·9·4 = 216; geol 4·27·2 = 216; yut 81.
/// With nak 1/7 the others take 6/7: ×6 over 625·7 = 4375, nak 625.
#[test]
fn chance_weights_with_stick_flat_three_fifths() {
    let game = seated(json!({ "stick_flat": "3/5", "nak": "0" }));
    let expected = [
        ("throw backdo", 24),
        ("throw do", 72),
        ("throw gae", 216),
        ("throw geol", 216),
        ("throw yut", 81),
        ("throw mo", 16),
    ];
    assert_chance(&game, &game.initial_state(), &expected);

    let game = seated(json!({ "stick_flat": "3/5", "nak": "1/7" }));
    let expected = [
        ("throw backdo", 144),
        ("throw do", 432),
        ("throw gae", 1296),
        ("throw geol", 1296),
        ("throw yut", 486),
        ("throw mo", 96),
        ("throw nak", 625),
    ];
    assert_chance(&game, &game.initial_state(), &expected);
}

// ---------------------------------------------------------------------------------------------
// A turn: throw sets (yut.md "A turn")
// ---------------------------------------------------------------------------------------------

/// yut.md "A turn" 1-2: yut and mo throw again; the chain yut → mo → geol is one set of three,
/// spent one result at a time in any order.
#[test]
fn yut_mo_geol_build_one_set_spent_in_any_order() {
    let game = seated(json!({}));
    let s = play(&game, &["throw yut"]);
    assert_eq!(to_move(&game, &s), "chance", "yut throws again");
    assert_eq!(pool(&game, &s), ["yut"]);
    let s = play(&game, &["throw yut", "throw mo"]);
    assert_eq!(to_move(&game, &s), "chance", "mo throws again");
    assert_eq!(pool(&game, &s), ["yut", "mo"]);

    let set3 = ["throw yut", "throw mo", "throw geol"];
    let s = play(&game, &set3);
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(game.awaiting(&s), Some("move"));
    assert_eq!(pool(&game, &s), ["yut", "mo", "geol"]);
    assert_eq!(legal(&game, &s), set(&["enter yut", "enter mo", "enter geol"]));

    // geol first (the last thrown): A[3], pool [yut, mo].
    let s = play(&game, &then(&set3, &["enter geol"]));
    assert_eq!(pieces(&game, &s, "A"), [3, -1, -1, -1]);
    assert_eq!(pool(&game, &s), ["yut", "mo"]);
    assert_eq!(legal(&game, &s), set(&["enter yut", "enter mo", "move 0 yut", "move 0 mo"]));

    // then mo: 3 → 4, 5 (passed), 6, 7, 8. pool [yut].
    let s = play(&game, &then(&set3, &["enter geol", "move 0 mo"]));
    assert_eq!(pieces(&game, &s, "A"), [8, -1, -1, -1]);
    assert_eq!(pool(&game, &s), ["yut"]);
    assert_eq!(legal(&game, &s), set(&["enter yut", "move 0 yut"]));

    // then yut: piece 1 enters on 4. Pool empty: the turn passes to B.
    let s = play(&game, &then(&set3, &["enter geol", "move 0 mo", "enter yut"]));
    assert_eq!(pieces(&game, &s, "A"), [8, 4, -1, -1]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(next_thrower(&game, &s), "B");
    assert_eq!(figures(&game, &s, "A").extra_throws, 2, "yut and mo each earned a throw");
}

/// yut.md "A turn" 2: "The pool keeps results in the order thrown; spending one of two equal
/// results removes the earlier."
#[test]
fn spending_one_of_two_equal_results_removes_the_earlier() {
    let game = seated(json!({}));
    let thrown = ["throw yut", "throw mo", "throw yut", "throw do"];
    assert_eq!(pool(&game, &play(&game, &thrown)), ["yut", "mo", "yut", "do"]);
    let s = play(&game, &then(&thrown, &["enter yut"]));
    assert_eq!(pool(&game, &s), ["mo", "yut", "do"]);
}

/// yut.md "A turn" 2: every result must be spent while a legal move exists: no pass, and a
/// result not in the pool cannot be used.
#[test]
fn a_result_not_in_the_pool_is_refused() {
    let game = seated(json!({}));
    let error = refused(&game, &["throw do"], "enter gae");
    assert!(matches!(error, YutError::NotInPool { .. }), "{error}");
    // The do was spent: pool [yut].
    refused(&game, &["throw yut", "throw do", "enter do"], "enter do");
    refused(&game, &["throw gae"], "enter nak");
    refused(&game, &["throw yut", "throw backdo"], "enter backdo");
}

// ---------------------------------------------------------------------------------------------
// Branches (yut.md "Moving": "Branches")
// ---------------------------------------------------------------------------------------------

/// yut.md "Moving": entering with mo stops on 모 (5) — "by any move, including entering with mo"
/// — and asks for the route: 6 or 20. The choice then decides the next move.
#[test]
fn entering_with_mo_stops_on_mo_corner_and_asks_for_a_route() {
    let game = seated(json!({}));
    let entered = ["throw mo", "throw do", "enter mo"];
    let s = play(&game, &entered);
    assert_eq!(pieces(&game, &s, "A"), [5, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["route 6", "route 20"]));
    assert_eq!(pool(&game, &s), ["do"]);
    refused(&game, &entered, "route 21");
    refused(&game, &entered, "move 0 do");

    let s = play(&game, &then(&entered, &["route 20"]));
    assert_eq!(game.awaiting(&s), Some("move"));
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
    let s = play(&game, &then(&entered, &["route 20", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [20, -1, -1, -1]);
    let s = play(&game, &then(&entered, &["route 6", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [6, -1, -1, -1]);
}

/// yut.md "Moving": "A piece that passes a branch without stopping goes straight on: along the
/// outer ring". 3 + geol passes 모 to 6 (not 20/21); 8 + geol passes 뒷모 to 11 (not 25/26).
#[test]
fn a_piece_passing_a_corner_stays_on_the_outer_ring() {
    let game = seated(json!({}));
    let actions = [
        "throw geol",
        "enter geol", // A[3]
        "throw do",
        "enter do", //     B[1]
        "throw geol",
        "move 0 geol", // A 3 → 4, 5, 6
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [6, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"), "no route question when passing 모");
    let actions = then(
        &actions,
        &[
            "throw do",
            "move 0 do", //     B[2]
            "throw gae",
            "move 0 gae", //   A[8]
            "throw do",
            "move 0 do", //     B[3]
            "throw geol",
            "move 0 geol", // A 8 → 9, 10, 11
        ],
    );
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [11, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [3, -1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B", "no route question when passing 뒷모");
}

/// yut.md "Moving": stopping on the centre (22) offers 27 (towards 참먹이) or 23 (towards 찌모),
/// arriving from either diagonal; the choice decides the next move. pitfalls.md "Yut Nori": the
/// centre needs tests for stopping and passing, arriving from each direction.
#[test]
fn stopping_on_the_centre_offers_27_or_23_from_either_diagonal() {
    let game = seated(json!({}));
    // From 모: mo enters on 5 → 20; geol 20, 21, 22 stops.
    let from_mo = ["throw mo", "throw geol", "enter mo", "route 20", "move 0 geol"];
    let s = play(&game, &from_mo);
    assert_eq!(pieces(&game, &s, "A"), [22, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(legal(&game, &s), set(&["route 23", "route 27"]));
    // route 27, B passes, A do → 27.
    let s = play(&game, &then(&from_mo, &["route 27", "throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [27, -1, -1, -1]);

    // From 뒷모: mo enters on 5 → 6; mo 6..10 stops on 뒷모 → 25; geol 25, 26, 22 stops.
    let from_dwitmo =
        ["throw mo", "throw mo", "throw geol", "enter mo", "route 6", "move 0 mo", "route 25", "move 0 geol"];
    let s = play(&game, &from_dwitmo);
    assert_eq!(pieces(&game, &s, "A"), [22, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(legal(&game, &s), set(&["route 23", "route 27"]));
    // route 23 (turning towards 찌모), B passes, A do → 23.
    let s = play(&game, &then(&from_dwitmo, &["route 23", "throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [23, -1, -1, -1]);
}

/// yut.md "Moving": passing the centre goes "straight through the centre (21 → 22 → 23)".
#[test]
fn passing_the_centre_from_21_goes_straight_on_to_23() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw do",
        "enter mo",
        "route 20",
        "move 0 do",    // A[20]
        "throw backdo", //                                             B passes
        "throw do",
        "move 0 do",    //                                    A[21]
        "throw backdo", //                                             B passes
        "throw gae",
        "move 0 gae", //                                  A 21 → 22, 23
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [23, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"), "passing the centre asks nothing");
    assert_eq!(next_thrower(&game, &s), "B");
    // And from 20 with geol: 21, 22, 23.
    let s = play(
        &game,
        &["throw mo", "throw do", "enter mo", "route 20", "move 0 do", "throw backdo", "throw geol", "move 0 geol"],
    );
    assert_eq!(pieces(&game, &s, "A"), [23, -1, -1, -1]);
}

/// yut.md "Moving": passing the centre goes "straight through the centre (26 → 22 → 27)".
#[test]
fn passing_the_centre_from_26_goes_straight_on_to_27() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw mo",
        "throw do",
        "enter mo",
        "route 6",
        "move 0 mo",
        "route 25",
        "move 0 do",    // A[25]
        "throw backdo", //                                                                                 B passes
        "throw do",
        "move 0 do",    //                                                                        A[26]
        "throw backdo", //                                                                                 B passes
        "throw gae",
        "move 0 gae", //                                                                      A 26 → 22, 27
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [27, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
}

/// yut.md "Moving": `shortcuts: "forced"` always takes the shortcut (5 → 20, 22 → 27) and asks
/// nothing.
#[test]
fn forced_shortcuts_take_the_shortcut_without_a_route_question() {
    let game = seated(json!({ "shortcuts": "forced" }));
    let entered = ["throw mo", "throw do", "enter mo"];
    let s = play(&game, &entered);
    assert_eq!(game.awaiting(&s), Some("move"), "no route question");
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
    refused(&game, &entered, "route 20");
    let actions = then(
        &entered,
        &[
            "move 0 do",    //              A[20]
            "throw backdo", //           B passes
            "throw gae",
            "move 0 gae", // A 21, 22: stops on the centre, no question
        ],
    );
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [22, -1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B");
    let s = play(&game, &then(&actions, &["throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [27, -1, -1, -1], "22 → 27, the shortcut");
}

/// yut.md "Moving": with forced shortcuts a piece passing 모 still goes straight on; stopping on
/// 뒷모 (10) takes 25.
#[test]
fn forced_shortcuts_apply_only_when_stopping_on_the_branch() {
    let game = seated(json!({ "shortcuts": "forced" }));
    let actions = [
        "throw geol",
        "enter geol",   //                    A[3]
        "throw backdo", //                                B passes
        "throw geol",
        "move 0 geol",  //                   A 4, 5, 6: passes 모
        "throw backdo", //                                B passes
        "throw yut",
        "throw do",
        "move 0 yut", //          A 7..10: stops on 뒷모
        "move 0 do",  //                                   A → 25
    ];
    let s = play(&game, &actions[..5]);
    assert_eq!(pieces(&game, &s, "A"), [6, -1, -1, -1]);
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [25, -1, -1, -1]);
}

// ---------------------------------------------------------------------------------------------
// Finishing (yut.md "Moving": "Finishing", "Exit")
// ---------------------------------------------------------------------------------------------

/// yut.md "Finishing": "from 19 a do stops on 참먹이 and a gae or more finishes"; a piece on
/// 참먹이 "finishes with any later forward move".
#[test]
fn do_from_19_stops_on_chammeogi_then_any_forward_result_finishes() {
    let game = seated(json!({}));
    let at_19 = ring_to_19("throw do");
    let s = play(&game, &at_19);
    assert_eq!(pieces(&game, &s, "A"), [19, -1, -1, -1]);
    assert_eq!(pool(&game, &s), ["do"]);
    let at_0 = then(&at_19, &["move 0 do"]);
    let s = play(&game, &at_0);
    assert_eq!(pieces(&game, &s, "A"), [0, -1, -1, -1], "on 참먹이, not finished");
    assert_eq!(figures(&game, &s, "A").finished, 0);
    assert_eq!(next_thrower(&game, &s), "B");
    // B passes; A do (the smallest forward result) finishes the piece.
    let s = play(&game, &then(&at_0, &["throw backdo", "throw do"]));
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
    let s = play(&game, &then(&at_0, &["throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
    assert_eq!(figures(&game, &s, "A").finished, 1);
}

/// yut.md "Finishing": from 19 a gae (19 → 0 → past) finishes.
#[test]
fn gae_from_19_finishes() {
    let game = seated(json!({}));
    let s = play(&game, &then(&ring_to_19("throw gae"), &["move 0 gae"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
    assert_eq!(figures(&game, &s, "A").finished, 1);
    // Extra steps are lost: geol from 19 finishes too.
    let s = play(&game, &then(&ring_to_19("throw geol"), &["move 0 geol"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
}

/// pitfalls.md "Yut Nori": 참먹이 → 모 → centre → 참먹이 is 5 + 3 + 3 = 11 steps and the piece
/// must still pass 참먹이 to finish. yut.md "steps_left": 12 in hand, 7 on 모, 4 on the centre
/// (3 + 1), 1 on 참먹이.
#[test]
fn eleven_step_route_via_mo_and_centre_stops_on_chammeogi_and_must_pass() {
    let game = seated(json!({ "pieces": 1 }));
    assert_eq!(figures(&game, &game.initial_state(), "A").steps_left, 12);
    let s = play(&game, &["throw mo", "throw geol", "enter mo"]);
    assert_eq!(figures(&game, &s, "A").steps_left, 7);
    let at_centre = ["throw mo", "throw geol", "enter mo", "route 20", "move 0 geol", "route 27"];
    let s = play(&game, &at_centre);
    assert_eq!(pieces(&game, &s, "A"), [22]);
    assert_eq!(figures(&game, &s, "A").steps_left, 4);
    let at_0 = then(&at_centre, &["throw backdo", "throw geol", "move 0 geol"]); // 27, 28, 0
    let s = play(&game, &at_0);
    assert_eq!(pieces(&game, &s, "A"), [0], "11 steps end on 참먹이, not past it");
    assert_eq!(figures(&game, &s, "A").steps_left, 1);
    assert_eq!(game.outcome(&s), None);
    let s = play(&game, &then(&at_0, &["throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [99]);
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(0)));
}

/// yut.md "Exit": with `exit: "reach"` any forward move that reaches 참먹이 finishes: 19 + do,
/// and the 11-step route; steps_left 11 in hand and 1 on 19.
#[test]
fn exit_reach_finishes_on_reaching_chammeogi() {
    let game = seated(json!({ "exit": "reach" }));
    assert_eq!(figures(&game, &game.initial_state(), "A").steps_left, 4 * 11);
    let at_19 = ring_to_19("throw do");
    let s = play(&game, &at_19);
    assert_eq!(figures(&game, &s, "A").steps_left, 1 + 3 * 11);
    let s = play(&game, &then(&at_19, &["move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);

    let s = play(
        &game,
        &[
            "throw mo",
            "throw geol",
            "enter mo",
            "route 20",
            "move 0 geol",
            "route 27",
            "throw backdo",
            "throw geol",
            "move 0 geol",
        ],
    );
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1], "5 + 3 + 3 reaches 참먹이");

    // A piece stands on 참먹이 only after a back-do from 1, and then finishes with any forward move.
    let actions = ["throw do", "enter do", "throw backdo", "throw backdo", "move 0 backdo"];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [0, -1, -1, -1]);
    assert_eq!(figures(&game, &s, "A").steps_left, 1 + 3 * 11);
    let s = play(&game, &then(&actions, &["throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
}

// ---------------------------------------------------------------------------------------------
// Back-do (yut.md "Moving": "Back-do"; pitfalls.md "Yut Nori")
// ---------------------------------------------------------------------------------------------

/// yut.md "Back-do": "A piece on 도 (1) goes back to 참먹이 (0) and then finishes with any forward
/// move." pitfalls.md: back-do from the first station finishing the piece at once.
#[test]
fn backdo_from_1_goes_to_chammeogi_and_the_next_forward_move_finishes() {
    let game = seated(json!({}));
    let actions = [
        "throw do",
        "enter do", //             A[1]
        "throw gae",
        "enter gae", //           B[2]
        "throw backdo",
        "move 0 backdo", //    A 1 → 0
    ];
    let s = play(&game, &actions[..5]);
    assert_eq!(legal(&game, &s), set(&["move 0 backdo"]));
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [0, -1, -1, -1], "on 참먹이, not finished");
    let actions = then(&actions, &["throw gae", "move 0 gae", "throw do", "move 0 do"]); // B 2 → 4; A 0 → past
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [4, -1, -1, -1]);
}

/// yut.md "Back-do": the piece returns along its own trail. pitfalls.md: back-do from 참먹이
/// sending the piece to station 1. A piece that came 18 → 19 → 0 goes back to 19 — and not to 1,
/// where B's piece stands (which would be a capture).
#[test]
fn backdo_from_chammeogi_after_arriving_from_19_returns_to_19() {
    let game = seated(json!({}));
    let actions = then(
        &ring_to_19("throw do"),
        &[
            "move 0 do", //                         A[0]
            "throw do",
            "enter do", //              B[1]
            "throw backdo",
            "move 0 backdo", //     A 0 → 19
        ],
    );
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [19, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [1, -1, -1, -1]);
    assert_eq!(figures(&game, &s, "A").captures, 0);
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "A turn" 2: "a lone back-do with no piece on the board is discarded and the turn ends".
/// Only the thrower's own pieces count.
#[test]
fn lone_backdo_with_no_piece_on_the_board_is_discarded_and_ends_the_turn() {
    let game = seated(json!({}));
    let s = play(&game, &["throw backdo"]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(next_thrower(&game, &s), "B");
    // A's piece on the board does not let B spend B's back-do.
    let s = play(&game, &["throw do", "enter do", "throw backdo"]);
    assert_eq!(pieces(&game, &s, "A"), [1, -1, -1, -1]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(next_thrower(&game, &s), "A");
}

/// yut.md "A turn" 2: "with [yut, back-do] and no piece on the board, the yut enters a piece and
/// the back-do must then move that piece back."
#[test]
fn yut_and_backdo_with_an_empty_board_enter_then_move_back() {
    let game = seated(json!({}));
    let thrown = ["throw yut", "throw backdo"];
    let s = play(&game, &thrown);
    assert_eq!(pool(&game, &s), ["yut", "backdo"]);
    assert_eq!(legal(&game, &s), set(&["enter yut"]));
    let s = play(&game, &then(&thrown, &["enter yut"]));
    assert_eq!(pool(&game, &s), ["backdo"]);
    assert_eq!(legal(&game, &s), set(&["move 0 backdo"]));
    let s = play(&game, &then(&thrown, &["enter yut", "move 0 backdo"]));
    assert_eq!(pieces(&game, &s, "A"), [3, -1, -1, -1]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "Back-do": "at a merge it returns the way it came". 찌모 (15) reached from 24 (the
/// diagonal from 모) goes back to 24; reached from 14 (the ring) goes back to 14.
#[test]
fn backdo_at_jjimo_returns_the_way_the_piece_came() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw mo",
        "throw do",
        "enter mo",
        "route 20",     // A[5] → 20
        "move 0 mo",    //                                             A 20, 21, 22 (passed), 23, 24
        "move 0 do",    //                                             A[15]
        "throw backdo", //                                          B passes
        "throw backdo",
        "move 0 backdo", //                         A 15 → 24
    ];
    let s = play(&game, &actions[..7]);
    assert_eq!(pieces(&game, &s, "A"), [15, -1, -1, -1]);
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [24, -1, -1, -1]);

    let actions = [
        "throw mo",
        "throw mo",
        "throw mo",
        "throw do",
        "enter mo",
        "route 6", // A[5] → 6
        "move 0 mo",
        "route 11",     //                                           A[10] → 11
        "move 0 mo",    //                                                       A[15]
        "enter do",     //                                                        A[15, 1]
        "throw backdo", //                                                    B passes
        "throw backdo",
        "move 0 backdo", //                                   A 15 → 14
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [14, 1, -1, -1]);
}

/// yut.md "Back-do": 참먹이 reached from 28 (the diagonal from 뒷모 via the centre) goes back to
/// 28, not 19.
#[test]
fn backdo_at_chammeogi_arriving_from_28_returns_to_28() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw geol",
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 27",     // A[22] → 27
        "throw backdo", //                                                          B passes
        "throw geol",
        "move 0 geol",  //                                             A 27, 28, 0
        "throw backdo", //                                                          B passes
        "throw backdo",
        "move 0 backdo", //                                         A 0 → 28
    ];
    let s = play(&game, &actions[..9]);
    assert_eq!(pieces(&game, &s, "A"), [0, -1, -1, -1]);
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [28, -1, -1, -1]);
}

/// yut.md "Back-do"; pitfalls.md: the centre is a merge too. Arrived from 26 it goes back to 26,
/// arrived from 21 back to 21 — whatever route was chosen there.
#[test]
fn backdo_at_the_centre_returns_the_way_the_piece_came() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw mo",
        "throw geol",
        "enter mo",
        "route 6", // A[5] → 6
        "move 0 mo",
        "route 25", //                                 A[10] → 25
        "move 0 geol",
        "route 27",     //                               A 25, 26, 22 → 27
        "throw backdo", //                                          B passes
        "throw backdo",
        "move 0 backdo", //                         A 22 → 26
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [26, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"), "26 is not a branch: no question");

    let actions = [
        "throw mo",
        "throw geol",
        "enter mo",
        "route 20",
        "move 0 geol",
        "route 23",     // A 20, 21, 22
        "throw backdo", //                                                          B passes
        "throw backdo",
        "move 0 backdo", //                                         A 22 → 21
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [21, -1, -1, -1]);
}

/// yut.md "Back-do": "a back-do that stops on a branch station asks for the route like any other
/// stop".
#[test]
fn backdo_onto_a_branch_asks_for_the_route() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw do",
        "enter mo",
        "route 6",
        "move 0 do",    // A[6]
        "throw backdo", //                                          B passes
        "throw backdo",
        "move 0 backdo", //                         A 6 → 5
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [5, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(legal(&game, &s), set(&["route 6", "route 20"]));
    let s = play(&game, &then(&actions, &["route 20", "throw backdo", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [20, -1, -1, -1]);
}

/// yut.md "Back-do": "When the trail has no previous station, the piece steps back along the
/// outer ring instead (0 → 19, 19 → 18, …) and its trail starts again from there."
#[test]
fn backdo_with_no_trail_left_steps_back_along_the_ring() {
    let game = seated(json!({}));
    let actions = [
        "throw do",
        "enter do",
        "throw backdo", //          A[1]; B passes
        "throw backdo",
        "move 0 backdo",
        "throw backdo", // A 1 → 0 (trail [0]); B passes
        "throw backdo",
        "move 0 backdo",
        "throw backdo", // A 0 → 19; B passes
        "throw backdo",
        "move 0 backdo",
        "throw backdo", // A 19 → 18; B passes
        "throw gae",
        "move 0 gae",
        "throw backdo", //       A 18 → 19, 0: stops on 참먹이
        "throw do",
        "move 0 do", //                         A finishes
    ];
    for (n, station) in [(5, 0), (8, 19), (11, 18), (14, 0), (17, 99)] {
        let s = play(&game, &actions[..n]);
        assert_eq!(pieces(&game, &s, "A"), [station, -1, -1, -1], "after {:?}", &actions[..n]);
    }
}

// ---------------------------------------------------------------------------------------------
// Capture (yut.md "A turn" 3; pitfalls.md "Yut Nori")
// ---------------------------------------------------------------------------------------------

/// yut.md "A turn" 3: "a stack is captured whole; they return to hand" and the capture "earns
/// one bonus throw". B stacks two pieces on 2; A enters on 2 with gae.
#[test]
fn capturing_a_stack_sends_every_piece_home_and_gives_one_bonus_throw() {
    let game = seated(json!({}));
    let actions = [
        "throw backdo", //              A passes
        "throw gae",
        "enter gae",    //    B[2]
        "throw backdo", //              A passes
        "throw gae",
        "enter gae", //    B[2, 2]: a stack
        "throw gae",
        "enter gae", //    A[2] captures the stack
    ];
    let s = play(&game, &actions[..6]);
    assert_eq!(pieces(&game, &s, "B"), [2, 2, -1, -1]);
    assert_eq!(figures(&game, &s, "B").stacks, 1);
    let (s, events) = play_events(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [2, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [-1, -1, -1, -1], "both stacked pieces go home");
    assert_eq!(game.awaiting(&s), Some("throw"), "the bonus throw");
    assert!(pool(&game, &s).is_empty());
    assert_eq!(events.iter().filter(|e| e.contains("captures")).count(), 1);
    let f = figures(&game, &s, "A");
    assert_eq!((f.captures, f.extra_throws), (1, 1));
    // The bonus throw is A's; after it is spent the turn passes: one bonus, not two.
    let s = play(&game, &then(&actions, &["throw do"]));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
    let s = play(&game, &then(&actions, &["throw do", "enter do"]));
    assert_eq!(pieces(&game, &s, "A"), [2, 1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "A turn" 3: "Every capture earns its own bonus throw"; each bonus is its own chain (yut
/// in it chains again) and its results are kept with the earlier ones. pitfalls.md: bonus throws
/// from several captures in one turn lost or merged.
#[test]
fn two_captures_in_one_turn_give_two_bonus_throws() {
    let game = seated(json!({}));
    let setup = [
        "throw backdo", //              A passes
        "throw gae",
        "enter gae",    //    B[2]
        "throw backdo", //              A passes
        "throw geol",
        "enter geol", //  B[2, 3]
        "throw yut",
        "throw gae", //    A pool [yut, gae]
        "enter gae", //                 A[2] captures B's piece 0: bonus
    ];
    let s = play(&game, &setup);
    assert_eq!(pieces(&game, &s, "B"), [-1, 3, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(pool(&game, &s), ["yut"]);
    // First bonus chain: geol, kept with the unspent yut.
    let s = play(&game, &then(&setup, &["throw geol"]));
    assert_eq!(pool(&game, &s), ["yut", "geol"]);
    assert_eq!(to_move(&game, &s), "A");
    // enter geol onto 3 captures B's piece 1: a second bonus.
    let second = then(&setup, &["throw geol", "enter geol"]);
    let s = play(&game, &second);
    assert_eq!(pieces(&game, &s, "A"), [2, 3, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [-1, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(pool(&game, &s), ["yut"]);
    // Second bonus chain: yut chains again, then do.
    let s = play(&game, &then(&second, &["throw yut"]));
    assert_eq!(game.awaiting(&s), Some("throw"), "a yut in a bonus chain throws again");
    let s = play(&game, &then(&second, &["throw yut", "throw do"]));
    assert_eq!(pool(&game, &s), ["yut", "yut", "do"]);
    // Spend all three: A1 3 → 4, A0 2 → 6, A1 4 → 8; then the turn passes.
    let (s, events) =
        play_events(&game, &then(&second, &["throw yut", "throw do", "move 1 do", "move 0 yut", "move 1 yut"]));
    assert_eq!(pieces(&game, &s, "A"), [6, 8, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B");
    assert_eq!(events.iter().filter(|e| e.contains("captures")).count(), 2);
    let f = figures(&game, &s, "A");
    assert_eq!(f.captures, 2);
    assert_eq!(f.extra_throws, 4, "yut, bonus, bonus, yut");
}

/// pitfalls.md "Yut Nori": "a capture with the last result of a set not giving its bonus throw".
#[test]
fn capture_with_the_last_result_of_a_set_still_gives_its_bonus_throw() {
    let game = seated(json!({}));
    let actions = [
        "throw backdo", //                          A passes
        "throw gae",
        "enter gae", //                B[2]
        "throw yut",
        "throw gae",
        "enter yut", //   A[4], pool [gae]
        "enter gae", //                             A[4, 2] captures with the last result
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "B"), [-1, -1, -1, -1]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(game.awaiting(&s), Some("throw"), "the bonus throw, not B's turn");
    let s = play(&game, &then(&actions, &["throw do"]));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do", "move 1 do"]));
}

/// yut.md "A turn" 3: "Every capture earns its own bonus throw, also a capture by back-do."
#[test]
fn capture_by_backdo_gives_a_bonus_throw() {
    let game = seated(json!({}));
    let actions = [
        "throw gae",
        "enter gae", //            A[2]
        "throw do",
        "enter do", //              B[1]
        "throw backdo",
        "move 0 backdo", //     A 2 → 1 captures B
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [1, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [-1, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    let s = play(&game, &then(&actions, &["throw do"]));
    assert_eq!(to_move(&game, &s), "A");
    let f = figures(&game, &s, "A");
    assert_eq!((f.captures, f.extra_throws), (1, 1));
}

/// yut.md "Moving": "A piece waiting on 참먹이 can be captured."
#[test]
fn a_piece_waiting_on_chammeogi_can_be_captured() {
    let game = seated(json!({}));
    let actions = [
        "throw do",
        "enter do",     //              A[1]
        "throw backdo", //                      B passes
        "throw backdo",
        "move 0 backdo", //     A 1 → 0
        "throw do",
        "enter do", //              B[1]
        "throw gae",
        "enter gae", //            A[0, 2]
        "throw backdo",
        "move 0 backdo", //     B 1 → 0 captures A's piece 0
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [-1, 2, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [0, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(next_thrower(&game, &s), "B", "B's bonus throw");
}

/// yut.md "Moving": "Only the station where it stops matters: passing over pieces does nothing."
/// pitfalls.md: passing over an opponent treated as a capture. A's piece 0 goes 1 → 4 over its
/// own piece on 2 and B's stack on 3: no capture, no stack, no bonus.
#[test]
fn passing_over_pieces_neither_captures_nor_stacks() {
    let game = seated(json!({}));
    let actions = [
        "throw do",
        "enter do", //          A[1]
        "throw geol",
        "enter geol", //      B[3]
        "throw gae",
        "enter gae", //        A[1, 2]
        "throw geol",
        "enter geol", //      B[3, 3] (a stack)
        "throw geol",
        "move 0 geol", //     A 1 → 2, 3, 4
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [4, 2, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [3, 3, -1, -1]);
    let f = figures(&game, &s, "A");
    assert_eq!((f.captures, f.stacks, f.extra_throws), (0, 0, 0));
    assert_eq!(next_thrower(&game, &s), "B", "no bonus throw");
}

/// yut.md "After a move": the capture, then the route question, then the bonus throw. A enters
/// with mo onto B's piece on 모.
#[test]
fn capture_on_a_branch_asks_the_route_before_the_bonus_throw() {
    let game = seated(json!({}));
    let actions = [
        "throw backdo", //                                          A passes
        "throw mo",
        "throw do",
        "enter mo",
        "route 6",
        "enter do", // B[5, 1]
        "throw mo",
        "throw gae",
        "enter mo", //                     A[5] captures B's piece 0
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "B"), [-1, 1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    let s = play(&game, &then(&actions, &["route 20"]));
    assert_eq!(game.awaiting(&s), Some("throw"), "now the bonus throw");
    assert_eq!(pool(&game, &s), ["gae"]);
    let s = play(&game, &then(&actions, &["route 20", "throw do", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [20, -1, -1, -1]);
    assert_eq!(pool(&game, &s), ["gae"]);
}

// ---------------------------------------------------------------------------------------------
// Stacking (yut.md "Moving": "Stacking"; pitfalls.md "Yut Nori")
// ---------------------------------------------------------------------------------------------

/// yut.md "Stacking" (auto) and "Branches": a unit joining a stack resting on a branch asks
/// again and its choice replaces the stack's; the stack moves and finishes as one, named by any
/// of its pieces. pitfalls.md: stack order and membership lost when a stack moves or finishes.
#[test]
fn stack_membership_is_kept_when_the_stack_moves_and_finishes() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw mo",
        "throw geol", //
        "enter mo",
        "route 6",  //   A[5] (route 6 chosen)
        "enter mo", //              A[5, 5]: joins, asks again
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [5, 5, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    let actions = then(
        &actions,
        &[
            "route 20", //                  replaces route 6
            "move 1 geol",
            "route 27", //   the stack 20, 21, 22 (named by piece 1)
        ],
    );
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [22, 22, -1, -1]);
    let actions = then(&actions, &["throw backdo", "throw yut", "throw do"]); // B passes; A [yut, do]
    let s = play(&game, &actions);
    assert_eq!(legal(&game, &s), set(&["enter yut", "enter do", "move 0 yut", "move 0 do"]));
    // yut: 27, 28, 0 and past: both pieces finish.
    let s = play(&game, &then(&actions, &["move 0 yut"]));
    assert_eq!(pieces(&game, &s, "A"), [99, 99, -1, -1]);
    assert_eq!(figures(&game, &s, "A").finished, 2);
    assert_eq!(legal(&game, &s), set(&["enter do"]));
    let s = play(&game, &then(&actions, &["move 0 yut", "enter do"]));
    assert_eq!(pieces(&game, &s, "A"), [99, 99, 1, -1]);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
}

/// yut.md "Stacking": `"optional"`: `stack yes` joins the units, which then move as one.
#[test]
fn optional_stacking_yes_joins_the_units() {
    let game = seated(json!({ "stacking": "optional" }));
    let actions = ["throw do", "enter do", "throw backdo", "throw do", "enter do"]; // A[1, 1]
    let s = play(&game, &actions);
    assert_eq!(game.awaiting(&s), Some("stack"));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["stack yes", "stack no"]));
    let yes = then(&actions, &["stack yes", "throw backdo", "throw do"]);
    let s = play(&game, &yes);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]), "one unit");
    let s = play(&game, &then(&yes, &["move 1 do"]));
    assert_eq!(pieces(&game, &s, "A"), [2, 2, -1, -1]);
}

/// yut.md "Stacking": `stack no`: the pieces share the station but move separately; a capture
/// there takes all of them (with one bonus throw).
#[test]
fn optional_stacking_no_keeps_units_apart_and_a_capture_takes_both() {
    let game = seated(json!({ "stacking": "optional" }));
    let no = ["throw do", "enter do", "throw backdo", "throw do", "enter do", "stack no"]; // A[1, 1] apart
    let s = play(&game, &no);
    assert_eq!(figures(&game, &s, "A").stacks, 0);
    let s = play(&game, &then(&no, &["throw backdo", "throw do"]));
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do", "move 1 do"]), "two units");
    let s = play(&game, &then(&no, &["throw backdo", "throw do", "move 1 do"]));
    assert_eq!(pieces(&game, &s, "A"), [1, 2, -1, -1]);

    // B enters on 1 and captures both unstacked units.
    let s = play(&game, &then(&no, &["throw do", "enter do"]));
    assert_eq!(pieces(&game, &s, "A"), [-1, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [1, -1, -1, -1]);
    let f = figures(&game, &s, "B");
    assert_eq!((f.captures, f.extra_throws), (1, 1));
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "After a move": the stack question comes before the route question, and the joined
/// stack chooses the route as a whole.
#[test]
fn optional_stacking_question_comes_before_the_route_question() {
    let game = seated(json!({ "stacking": "optional" }));
    let actions = ["throw mo", "throw mo", "throw do", "enter mo", "route 6", "enter mo"];
    let s = play(&game, &actions);
    assert_eq!(game.awaiting(&s), Some("stack"));
    let s = play(&game, &then(&actions, &["stack yes"]));
    assert_eq!(game.awaiting(&s), Some("route"));
    assert_eq!(legal(&game, &s), set(&["route 6", "route 20"]));
    let s = play(&game, &then(&actions, &["stack yes", "route 20", "move 0 do"]));
    assert_eq!(pieces(&game, &s, "A"), [20, 20, -1, -1]);
}

// ---------------------------------------------------------------------------------------------
// Nak (yut.md "Nak")
// ---------------------------------------------------------------------------------------------

/// yut.md "Nak" `void_set` (default): yut → mo → nak voids all three and ends the turn; the yut
/// and mo still count as earned throws (results figures).
#[test]
fn nak_void_set_voids_the_whole_chain_and_ends_the_turn() {
    let game = seated(json!({}));
    let s = play(&game, &["throw yut", "throw mo", "throw nak"]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(pieces(&game, &s, "A"), [-1, -1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B");
    assert_eq!(figures(&game, &s, "A").extra_throws, 2);
}

/// yut.md "Nak" `void_set`: "Moves already made stand; unspent results of earlier sets in the
/// turn are forfeited." A's capture stands; the unspent yut of the first set is lost with the
/// bonus chain mo → nak.
#[test]
fn nak_void_set_forfeits_earlier_unspent_sets() {
    let game = seated(json!({}));
    let actions = [
        "throw backdo", //                          A passes
        "throw gae",
        "enter gae", //                B[2]
        "throw yut",
        "throw gae",
        "enter gae", //   A[2] captures; pool [yut]
        "throw mo",
        "throw nak", //                 bonus chain: mo, nak
    ];
    let s = play(&game, &actions[..7]);
    assert_eq!(pool(&game, &s), ["yut", "mo"]);
    let s = play(&game, &actions);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(pieces(&game, &s, "A"), [2, -1, -1, -1], "the move stands");
    assert_eq!(pieces(&game, &s, "B"), [-1, -1, -1, -1]);
    assert_eq!(next_thrower(&game, &s), "B");
    assert_eq!(figures(&game, &s, "A").extra_throws, 3, "yut, capture bonus, mo");
}

/// yut.md "Nak" `void_throw`: a nak as the turn's first throw passes the turn.
#[test]
fn nak_void_throw_on_the_first_throw_passes_the_turn() {
    let game = seated(json!({ "nak_rule": "void_throw" }));
    let s = play(&game, &["throw nak"]);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "Nak" `void_throw`: a later nak voids only itself; the banked results are spent —
/// also when the nak is the first throw of a bonus chain (it is not the turn's first throw).
#[test]
fn nak_void_throw_later_keeps_the_banked_results() {
    let game = seated(json!({ "nak_rule": "void_throw" }));
    let s = play(&game, &["throw yut", "throw mo", "throw nak"]);
    assert_eq!(pool(&game, &s), ["yut", "mo"]);
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(game.awaiting(&s), Some("move"));
    assert_eq!(legal(&game, &s), set(&["enter yut", "enter mo"]));

    let actions = [
        "throw backdo", //                          A passes
        "throw gae",
        "enter gae", //                B[2]
        "throw yut",
        "throw gae",
        "enter gae", //   A[2] captures; pool [yut]
        "throw nak", //                             the bonus throw is a nak
    ];
    let s = play(&game, &actions);
    assert_eq!(pool(&game, &s), ["yut"]);
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["enter yut", "move 0 yut"]));
}

// ---------------------------------------------------------------------------------------------
// End of game (yut.md "End of game")
// ---------------------------------------------------------------------------------------------

/// yut.md "End of game" `ranking` with 3 sides: finished sides leave the rotation (their unspent
/// results discarded); play continues until one side remains; sides are ranked in finishing
/// order. One piece each: A finishes (a yut left over), B moves, C passes, B again (A skipped),
/// then C finishes: ranking A, C, B.
#[test]
fn finish_ranking_with_three_sides() {
    let game = yut(json!({ "order": "seated", "finish": "ranking", "pieces": 1 }), Some(3));
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
    let s = play(&game, &a_done[..8]);
    assert_eq!(pool(&game, &s), ["yut", "yut"]);
    let s = play(&game, &a_done);
    assert_eq!(pieces(&game, &s, "A"), [99]);
    assert!(pool(&game, &s).is_empty(), "A's unspent yut is discarded");
    assert_eq!(game.outcome(&s), None, "play continues");
    assert_eq!(next_thrower(&game, &s), "B");

    let actions = then(
        &a_done,
        &[
            "throw do",
            "enter do",     //  B[1]
            "throw backdo", //          C passes
        ],
    );
    let s = play(&game, &actions);
    assert_eq!(next_thrower(&game, &s), "B", "A has left the rotation");
    let actions = then(&actions, &["throw do", "move 0 do"]); // B[2]
    let s = play(&game, &actions);
    assert_eq!(next_thrower(&game, &s), "C");
    let s = play(&game, &then(&actions, FINISH_ONE));
    assert_eq!(pieces(&game, &s, "C"), [99]);
    assert_eq!(game.turn(&s), Turn::Terminal);
    assert_eq!(game.awaiting(&s), None);
    assert!(pool(&game, &s).is_empty());
    assert_eq!(game.outcome(&s), Some(Outcome::Ranking(vec![0, 2, 1])));
    // B on 2: 3 to 모, 6 to 참먹이 via the centre, 1 to pass.
    assert_eq!(figures(&game, &s, "A"), fig(1, 0, 0, 3, 0));
    assert_eq!(figures(&game, &s, "B"), fig(0, 10, 0, 0, 0));
    assert_eq!(figures(&game, &s, "C"), fig(1, 0, 0, 2, 0));
}

/// yut.md "End of game" `first` (default): the game ends the moment one side's pieces have all
/// finished; unspent results are discarded.
#[test]
fn finish_first_ends_the_game_at_once() {
    let game = seated(json!({ "pieces": 1 }));
    let actions = [
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
    let s = play(&game, &actions);
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(0)));
    assert_eq!(game.turn(&s), Turn::Terminal);
    assert!(pool(&game, &s).is_empty());
    assert!(legal(&game, &s).is_empty());
    let error = refused(&game, &actions, "throw do");
    assert!(matches!(error, YutError::GameOver), "{error}");
    assert_eq!(figures(&game, &s, "A"), fig(1, 0, 0, 3, 0));
    assert_eq!(figures(&game, &s, "B"), fig(0, 12, 0, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// Teams (yut.md "Sides, teams and modes")
// ---------------------------------------------------------------------------------------------

/// yut.md "Sides, teams and modes" `team-shared`: rotation A1 → B1 → A2 → B2; a team's pieces are
/// moved by either teammate; `pieces` is keyed by team.
#[test]
fn team_shared_rotation_and_pieces_moved_by_either_teammate() {
    let game = yut(json!({ "mode": "team-shared", "order": "seated" }), None);
    assert_eq!(game.seat_names(), ["A1", "B1", "A2", "B2"]);
    assert_eq!(game.side_names(), ["A", "B"]);
    let actions = [
        "throw do",
        "enter do", //        A1: A[1]
        "throw gae",
        "enter gae", //      B1: B[2]
        "throw geol",
        "move 0 geol", //   A2 moves A1's piece 1 → 4 (over B on 2)
        "throw do",
        "enter do", //        B2: B[2, 1]
    ];
    for (n, who) in [(1, "A1"), (3, "B1"), (5, "A2"), (7, "B2")] {
        let s = play(&game, &actions[..n]);
        assert_eq!(to_move(&game, &s), who, "after {:?}", &actions[..n]);
    }
    let s = play(&game, &actions[..5]);
    assert_eq!(legal(&game, &s), set(&["enter geol", "move 0 geol"]));
    let s = play(&game, &actions);
    assert_eq!(next_thrower(&game, &s), "A1");
    let map = game.pieces(&s);
    assert_eq!(map.keys().cloned().collect::<Vec<_>>(), ["A", "B"]);
    assert_eq!(map["A"], [4, -1, -1, -1]);
    assert_eq!(map["B"], [2, 1, -1, -1]);
}

/// yut.md "Sides, teams and modes": 3 teams: A1 → B1 → C1 → A2 → B2 → C2; results name the team.
#[test]
fn team_shared_three_teams_rotation_and_team_winner() {
    let game = yut(json!({ "mode": "team-shared", "order": "seated", "pieces": 1 }), Some(6));
    assert_eq!(game.seat_names(), ["A1", "B1", "C1", "A2", "B2", "C2"]);
    let s = game.initial_state();
    assert_eq!(game.turn_order(&s), vec![0, 1, 2, 3, 4, 5]);
    // Three back-dos pass A1, B1, C1; A2 finishes team A's only piece: team A wins.
    let passes = ["throw backdo", "throw backdo", "throw backdo"];
    let s = play(&game, &passes);
    assert_eq!(next_thrower(&game, &s), "A2");
    let s = play(&game, &then(&passes, FINISH_ONE));
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(0)));
    assert_eq!(game.side_names()[0], "A");
    assert_eq!(game.figures(&s).keys().cloned().collect::<Vec<_>>(), ["A", "B", "C"]);
    assert_eq!(figures(&game, &s, "A"), fig(1, 0, 0, 2, 0));
}

/// yut.md "Sides, teams and modes" `team-separate`: piece ids per team (A1 0…n−1, A2 n…2n−1);
/// `pieces` keyed by player; a player moves only units holding their own pieces; a teammate's
/// unit stacks (`teammate: "stack"`, default) and the mixed stack moves whole for either.
#[test]
fn team_separate_players_move_their_own_units_and_teammates_stack() {
    let game = yut(json!({ "mode": "team-separate", "order": "seated", "pieces": 2 }), None);
    let actions = [
        "throw do",
        "enter do", //          A1: team A piece 0 on 1
        "throw gae",
        "enter gae", //        B1: team B piece 0 on 2
        "throw geol",
        "enter geol",   //      A2: team A piece 2 on 3 (may not move piece 0)
        "throw backdo", //                  B2: no own piece on the board: discarded
        "throw gae",
        "move 0 gae", //       A1: 1 → 2 (over B), 3: joins A2's piece
        "throw backdo",
        "move 0 backdo", // B1: 2 → 1
        "throw do",
        "move 2 do", //         A2 moves the mixed stack 3 → 4
    ];
    let s = play(&game, &actions[..2]);
    let map = game.pieces(&s);
    assert_eq!(map.keys().cloned().collect::<Vec<_>>(), ["A1", "A2", "B1", "B2"]);
    assert_eq!(map["A1"], [1, -1]);
    assert_eq!(map["A2"], [-1, -1]);
    let s = play(&game, &actions[..5]);
    assert_eq!(to_move(&game, &s), "A2");
    assert_eq!(legal(&game, &s), set(&["enter geol"]), "A2 may not move A1's piece");
    refused(&game, &actions[..5], "move 0 geol");
    let s = play(&game, &actions[..7]);
    assert_eq!(pieces(&game, &s, "B1"), [2, -1]);
    assert_eq!(next_thrower(&game, &s), "A1", "B2's back-do was discarded");
    let s = play(&game, &actions[..8]);
    assert_eq!(legal(&game, &s), set(&["enter gae", "move 0 gae"]), "A1 may not move A2's piece");
    let s = play(&game, &actions[..9]);
    assert_eq!(pieces(&game, &s, "A1"), [3, -1]);
    assert_eq!(pieces(&game, &s, "A2"), [3, -1]);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    let s = play(&game, &actions[..12]);
    assert_eq!(to_move(&game, &s), "A2");
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]), "the mixed stack, named by piece 0");
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A1"), [4, -1]);
    assert_eq!(pieces(&game, &s, "A2"), [4, -1]);
    assert_eq!(pieces(&game, &s, "B1"), [1, -1]);
    assert_eq!(game.figures(&s).keys().cloned().collect::<Vec<_>>(), ["A", "B"], "figures name the team");
}

/// yut.md `team-separate`: "once all their own pieces have finished, they play for their
/// teammate: they enter the teammate's pieces and move the teammate's units." One piece each:
/// A1 finishes piece 0; later A1 enters A2's piece 1 and moves it.
#[test]
fn team_separate_player_plays_for_teammate_once_own_pieces_finished() {
    let game = yut(json!({ "mode": "team-separate", "order": "seated", "pieces": 1 }), None);
    let actions = then(
        FINISH_ONE, // A1: piece 0 finished
        &[
            "throw backdo", //          B1 passes
            "throw backdo", //          A2 passes (no piece on the board)
            "throw backdo", //          B2 passes
            "throw do",
            "enter do",     //  A1 enters A2's piece 1 on 1
            "throw backdo", //          B1 passes
            "throw gae",
            "move 1 gae",   // A2: 1 → 3
            "throw backdo", //          B2 passes
            "throw do",
            "move 1 do", // A1 moves A2's piece: 3 → 4
        ],
    );
    let s = play(&game, &actions[..8]);
    assert_eq!(pieces(&game, &s, "A1"), [99]);
    assert_eq!(pieces(&game, &s, "A2"), [-1]);
    assert_eq!(game.outcome(&s), None, "team A has not finished");
    let s = play(&game, &actions[..12]);
    assert_eq!(to_move(&game, &s), "A1");
    assert_eq!(legal(&game, &s), set(&["enter do"]));
    let s = play(&game, &actions[..13]);
    assert_eq!(pieces(&game, &s, "A2"), [1]);
    let s = play(&game, &actions[..15]);
    assert_eq!(to_move(&game, &s), "A2");
    let s = play(&game, &actions[..18]);
    assert_eq!(to_move(&game, &s), "A1");
    assert_eq!(legal(&game, &s), set(&["move 1 do"]));
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A2"), [4]);
}

/// yut.md `team-separate` with `teammate: "capture"`: "capturing a teammate is a capture like any
/// other, bonus throw included", and the bonus stays with the player who earned it.
#[test]
fn team_separate_teammate_capture_gives_a_bonus_throw() {
    let game = yut(json!({ "mode": "team-separate", "teammate": "capture", "order": "seated", "pieces": 2 }), None);
    let actions = [
        "throw do",
        "enter do",     //  A1: piece 0 on 1
        "throw backdo", //          B1 passes
        "throw do",
        "enter do", //  A2: piece 2 on 1 captures piece 0
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A1"), [-1, -1]);
    assert_eq!(pieces(&game, &s, "A2"), [1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    assert_eq!(next_thrower(&game, &s), "A2");
    let f = figures(&game, &s, "A");
    assert_eq!((f.captures, f.extra_throws, f.stacks), (1, 1, 0));
}

// ---------------------------------------------------------------------------------------------
// Results figures (yut.md "End of game": results)
// ---------------------------------------------------------------------------------------------

/// yut.md results `steps_left` with exit "pass": 12 for a piece in hand, 7 on 모 (ignoring the
/// route already chosen there), 2 on 19, 1 on 참먹이.
#[test]
fn figures_steps_left_examples() {
    let game = seated(json!({ "pieces": 1 }));
    assert_eq!(figures(&game, &game.initial_state(), "A"), fig(0, 12, 0, 0, 0));
    let s = play(&game, &["throw mo", "throw do", "enter mo", "route 6"]);
    assert_eq!(figures(&game, &s, "A").steps_left, 7, "the route 6 already chosen is ignored");
    let at_19 = ring_to_19("throw do");
    let s = play(&game, &at_19);
    assert_eq!(figures(&game, &s, "A"), fig(0, 2, 0, 4, 0), "mo, mo, mo, yut earned 4 throws");
    let s = play(&game, &then(&at_19, &["move 0 do"]));
    assert_eq!(figures(&game, &s, "A").steps_left, 1);
    assert_eq!(figures(&game, &s, "B").steps_left, 12);
}

/// README.md "Shared engine model": actions of the wrong kind are refused with a reason.
#[test]
fn wrong_kind_of_action_is_refused() {
    let game = seated(json!({}));
    let error = refused(&game, &["throw do"], "throw gae");
    assert!(matches!(error, YutError::WrongKind { .. }), "{error}");
    refused(&game, &["throw do"], "route 6");
    refused(&game, &["throw do"], "stack yes");
    refused(&game, &["throw do"], "slot 1");
    refused(&game, &[], "enter do");
    refused(&game, &["throw do"], "move 0 do");
    let error = refused(&game, &["throw do", "enter do", "throw do"], "move 1 do");
    assert!(matches!(error, YutError::NotMovable(_)), "{error}");
}

// ---------------------------------------------------------------------------------------------
// More spec points
// ---------------------------------------------------------------------------------------------

/// yut.md "Stacking": the group "keeps the arriving piece's trail". A's piece 0 reaches 찌모 from
/// 24; piece 1 arrives there from 14 and joins: a back-do takes the stack to 14.
#[test]
fn a_stack_keeps_the_arriving_pieces_trail() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw mo",
        "throw do",
        "enter mo",
        "route 20",
        "move 0 mo",
        "move 0 do",    // A[15] via 24
        "throw backdo", //                                                                   B passes
        "throw mo",
        "throw mo",
        "throw mo",
        "throw do",
        "enter mo",
        "route 6", //             A[15, 5]
        "move 1 mo",
        "route 11",
        "move 1 mo",    //                                             A[15, 15] via 14
        "enter do",     //                                                                       A[15, 15, 1]
        "throw backdo", //                                                                   B passes
        "throw backdo",
        "move 0 backdo", //                                                  the stack 15 → 14
    ];
    let s = play(&game, &actions[..18]);
    assert_eq!(pieces(&game, &s, "A"), [15, 15, 1, -1]);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [14, 14, 1, -1]);
}

/// yut.md "Branches": the route choice "stands until the piece leaves the branch". Route 20 chosen
/// on 모, then a back-do to 4: the next move passes 모 and goes straight on to 6, 7.
#[test]
fn a_route_choice_is_forgotten_once_the_piece_leaves_the_branch() {
    let game = seated(json!({}));
    let actions = [
        "throw mo",
        "throw backdo",
        "enter mo",
        "route 20",      // A[5] → 20
        "move 0 backdo", //                                 A 5 → 4
        "throw backdo",  //                                  B passes
        "throw geol",
        "move 0 geol", //                     A 4 → 5, 6, 7
    ];
    let s = play(&game, &actions[..5]);
    assert_eq!(pieces(&game, &s, "A"), [4, -1, -1, -1]);
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [7, -1, -1, -1]);
}

/// yut.md "Stacking" optional: `stack yes` joins "the arriving unit and every own unit on the
/// station"; results `stacks`: "one move that joins several units counts once".
#[test]
fn optional_stacking_yes_joins_every_own_unit_and_counts_once() {
    let game = seated(json!({ "stacking": "optional" }));
    let actions = [
        "throw do",
        "enter do",
        "throw backdo", //              A[1]; B passes
        "throw do",
        "enter do",
        "stack no",
        "throw backdo", //  A[1, 1] apart; B passes
        "throw do",
        "enter do",
        "stack yes",
        "throw backdo", // A[1, 1, 1] one unit; B passes
        "throw do",
    ];
    let s = play(&game, &actions);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
    let s = play(&game, &then(&actions, &["move 2 do"]));
    assert_eq!(pieces(&game, &s, "A"), [2, 2, 2, -1]);
}

/// The stacking question names its pieces (`madang replay`'s `stacking`): the arriving unit,
/// then each own unit on the station. Piece 2 enters onto station 1, where pieces 0 and 1 stand
/// apart (the first question was answered "no").
#[test]
fn the_stacking_question_names_the_arriving_unit_and_the_units_there() {
    let game = seated(json!({ "stacking": "optional" }));
    let stacking = |actions: &[&str]| {
        let s = play(&game, actions);
        game.extra_fields(&s).into_iter().find(|(k, _)| *k == "stacking").map(|(_, v)| v)
    };
    let first = ["throw do", "enter do", "throw backdo", "throw do", "enter do"];
    assert_eq!(stacking(&first), Some(vec!["1".to_owned(), "0".to_owned()]));
    let third = then(&first, &["stack no", "throw backdo", "throw do", "enter do"]);
    assert_eq!(stacking(&third), Some(vec!["2".to_owned(), "0".to_owned(), "1".to_owned()]));
    // Answered: no question, no field.
    assert_eq!(stacking(&then(&third, &["stack yes"])), None);
    assert_eq!(stacking(&["throw do"]), None);
}

/// yut.md "Exit": "A finishing piece leaves the board and meets nothing on 참먹이." B waits on
/// 참먹이; A's piece passes it from 19 with gae: no capture, no bonus.
#[test]
fn a_finishing_piece_meets_nothing_on_chammeogi() {
    let game = seated(json!({}));
    let setup = [
        "throw backdo", //                      A passes
        "throw do",
        "enter do",     //              B[1]
        "throw backdo", //                      A passes
        "throw backdo",
        "move 0 backdo", //     B 1 → 0
    ];
    let s = play(&game, &then(&then(&setup, &ring_to_19("throw gae")), &["move 0 gae"]));
    assert_eq!(pieces(&game, &s, "A"), [99, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "B"), [0, -1, -1, -1]);
    assert_eq!(figures(&game, &s, "A").captures, 0);
    assert_eq!(next_thrower(&game, &s), "B");
}

/// yut.md "Who goes first" in team games: "every team, by its first player" throws and picks;
/// the rotation then follows the team order: B1 → A1 → B2 → A2.
#[test]
fn team_ceremony_is_thrown_and_picked_by_first_players() {
    let game = yut(json!({ "mode": "team-shared" }), None);
    let s = play(&game, &["throw do", "throw yut"]); // team A do, team B yut
    assert_eq!(to_move(&game, &s), "B1");
    assert_eq!(legal(&game, &s), set(&["slot 1", "slot 2"]));
    let picked = ["throw do", "throw yut", "slot 1"]; // A gets slot 2
    let s = play(&game, &picked);
    assert_eq!(game.turn_order(&s), vec![1, 0, 3, 2]);
    assert_eq!(next_thrower(&game, &s), "B1");
    let actions = then(&picked, &["throw do", "enter do", "throw gae", "enter gae", "throw geol"]);
    let s = play(&game, &actions[..4]);
    assert_eq!(to_move(&game, &s), "B1");
    let s = play(&game, &actions[..6]);
    assert_eq!(to_move(&game, &s), "A1");
    let s = play(&game, &actions);
    assert_eq!(to_move(&game, &s), "B2");
}

/// yut.md "End of game": `ranking` "With 2 sides it is the same as `first`".
#[test]
fn finish_ranking_with_two_sides_is_the_same_as_first() {
    let game = seated(json!({ "finish": "ranking", "pieces": 1 }));
    let s = play(&game, FINISH_ONE);
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(0)));
}

/// yut.md "Who goes first": "Sides that tie throw again among themselves until untied". All
/// three throw gae; the rethrow A yut, B yut, C do leaves A and B tied above C; their next
/// rethrow A do, B geol puts B first. Rank B, A, C.
#[test]
fn ceremony_ties_rethrow_until_untied() {
    let game = yut(json!({}), Some(3));
    let thrown = ["throw gae", "throw gae", "throw gae", "throw yut", "throw yut", "throw do"];
    let s = play(&game, &thrown);
    assert_eq!(to_move(&game, &s), "chance", "A and B are still tied");
    let thrown = then(&thrown, &["throw do", "throw geol"]);
    let s = play(&game, &thrown);
    assert_eq!(to_move(&game, &s), "B");
    let s = play(&game, &then(&thrown, &["slot 1"]));
    assert_eq!(to_move(&game, &s), "A");
    assert_eq!(legal(&game, &s), set(&["slot 2", "slot 3"]));
    let s = play(&game, &then(&thrown, &["slot 1", "slot 3"]));
    assert_eq!(game.turn_order(&s), vec![1, 2, 0], "B, C, A");
}

/// yut.md "Branches": with forced shortcuts a back-do onto 모 takes the shortcut again without
/// a question.
#[test]
fn forced_shortcuts_after_a_backdo_onto_the_branch() {
    let game = seated(json!({ "shortcuts": "forced" }));
    let actions = [
        "throw mo",
        "throw do",
        "enter mo",
        "move 0 do",    // A[5] → 20
        "throw backdo", //                                B passes
        "throw backdo",
        "move 0 backdo", //               A 20 → 5, no question
        "throw backdo",  //                                B passes
        "throw do",
        "move 0 do", //                       A 5 → 20
    ];
    let s = play(&game, &actions[..7]);
    assert_eq!(pieces(&game, &s, "A"), [5, -1, -1, -1]);
    assert_eq!(game.awaiting(&s), Some("throw"));
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [20, -1, -1, -1]);
}

/// yut.md "Back-do": "Back-do can capture and stack like any move."
#[test]
fn backdo_onto_an_own_piece_stacks() {
    let game = seated(json!({}));
    let actions = [
        "throw geol",
        "enter geol",
        "throw backdo", //     A[3]; B passes
        "throw gae",
        "enter gae",
        "throw backdo", //       A[3, 2]; B passes
        "throw backdo",
        "move 0 backdo",
        "throw backdo", // A 3 → 2 joins piece 1; B passes
        "throw do",
    ];
    let s = play(&game, &actions);
    assert_eq!(pieces(&game, &s, "A"), [2, 2, -1, -1]);
    assert_eq!(figures(&game, &s, "A").stacks, 1);
    assert_eq!(legal(&game, &s), set(&["enter do", "move 0 do"]));
}

/// yut.md `team-separate`: with `teammate: "stack"` "a teammate's unit counts as one's own for
/// stacking (… the `stack` question when stacking is optional)"; with `teammate: "capture"` it
/// is captured instead, no question.
#[test]
fn team_separate_teammate_stacking_with_optional_stacking() {
    let actions = ["throw do", "enter do", "throw backdo", "throw do", "enter do"]; // A1 piece 0, A2 piece 2 on 1
    let game = yut(json!({ "mode": "team-separate", "order": "seated", "stacking": "optional" }), None);
    let s = play(&game, &actions);
    assert_eq!(game.awaiting(&s), Some("stack"));
    assert_eq!(to_move(&game, &s), "A2");
    let s = play(&game, &then(&actions, &["stack yes"]));
    assert_eq!(figures(&game, &s, "A").stacks, 1);

    let game =
        yut(json!({ "mode": "team-separate", "teammate": "capture", "order": "seated", "stacking": "optional" }), None);
    let s = play(&game, &actions);
    assert_eq!(game.awaiting(&s), Some("throw"), "a capture and its bonus, no stack question");
    assert_eq!(pieces(&game, &s, "A1"), [-1, -1, -1, -1]);
    assert_eq!(pieces(&game, &s, "A2"), [1, -1, -1, -1]);
}

/// yut.md "Finishing": a piece on 참먹이 "finishes with any later forward move": do, gae, geol,
/// yut and mo each finish it.
#[test]
fn any_forward_result_finishes_a_piece_on_chammeogi() {
    let game = seated(json!({}));
    let at_0 = then(&ring_to_19("throw do"), &["move 0 do", "throw backdo"]); // A[0]; B passes
    let cases: [(&[&str], &str); 5] = [
        (&["throw do"], "move 0 do"),
        (&["throw gae"], "move 0 gae"),
        (&["throw geol"], "move 0 geol"),
        (&["throw yut", "throw do"], "move 0 yut"),
        (&["throw mo", "throw do"], "move 0 mo"),
    ];
    for (throws, spend) in cases {
        let actions = then(&then(&at_0, throws), &[spend]);
        let s = play(&game, &actions);
        assert_eq!(pieces(&game, &s, "A")[0], 99, "{spend}");
    }
}

/// yut.md "End of game" `ranking` in a team game: a finished team leaves the rotation with both
/// its players. 3 teams of 2, one piece each: A1 finishes team A; B1 and C1 pass; A2 is skipped.
#[test]
fn finish_ranking_team_leaves_the_rotation_with_both_players() {
    let game = yut(json!({ "mode": "team-shared", "order": "seated", "finish": "ranking", "pieces": 1 }), Some(6));
    let actions = then(FINISH_ONE, &["throw backdo", "throw backdo"]); // B1, C1 pass
    let s = play(&game, &actions);
    assert_eq!(game.outcome(&s), None);
    assert_eq!(next_thrower(&game, &s), "B2", "A2 is skipped");
    // B2 and C2 pass; A1 is skipped too.
    let s = play(&game, &then(&actions, &["throw backdo", "throw backdo"]));
    assert_eq!(next_thrower(&game, &s), "B1");
    // B1 finishes team B: only C is left; ranking A, B, C.
    let s = play(&game, &then(&then(&actions, &["throw backdo", "throw backdo"]), FINISH_ONE));
    assert_eq!(game.outcome(&s), Some(Outcome::Ranking(vec![0, 1, 2])));
}

/// yut.md "Notation": `stick_flat` strictly between 0 and 1, `nak` at least 0 and below 1, each a
/// fraction with a denominator of at most 1000. Each refusal names the problem the value has: a
/// fraction over 1 is out of range, not a denominator problem.
#[test]
fn fraction_rule_values_are_refused_for_the_problem_they_have() {
    let refusal = |key: &str, value: &str| {
        let options: YutOptions = serde_json::from_value(json!({ key: value })).expect("options of the right type");
        let error = Yut::new(&options, None).err().unwrap_or_else(|| panic!("{key} {value:?} was accepted"));
        assert_eq!(error.key, key);
        error.reason
    };
    for value in ["3/2", "1/1", "2/1", "0", "0/3", "1"] {
        assert_eq!(refusal("stick_flat", value), format!("must be strictly between 0 and 1, got {value:?}"));
    }
    // 2^64 = 18446744073709551616: a numerator past 64 bits is still a fraction over 1.
    for value in ["1", "2/2", "3/2", "1001/1000", "18446744073709551616/3", "99999999999999999999"] {
        assert_eq!(refusal("nak", value), format!("must be at least 0 and below 1, got {value:?}"));
    }
    for value in ["1/1001", "1/0", "5/2000", "99999999999999999999/99999999999999999999999"] {
        assert_eq!(refusal("stick_flat", value), format!("must have a denominator from 1 to 1000, got {value:?}"));
    }
    // One spelling per fraction, as the spec writes them: no spaces, sign or leading zeros.
    for value in
        ["abc", "-1/2", "", "1/2/3", "½", " 1/2", "1/2 ", "\t1/2", "1 /2", "1/ 2", "+1/2", "01/2", "1/02", "00"]
    {
        assert_eq!(refusal("nak", value), format!("must be a fraction such as \"1/2\", got {value:?}"));
    }
}

/// A fraction given as a JSON number (`0.5`) is refused saying how a fraction is written, and
/// `null` is an option left out, as for every option.
#[test]
fn a_fraction_written_as_a_number_is_refused_saying_how_to_write_it() {
    for (value, shown) in
        [(json!(0.5), "floating point `0.5`"), (json!(1), "integer `1`"), (json!(true), "boolean `true`")]
    {
        for key in ["nak", "stick_flat"] {
            let error = serde_json::from_value::<YutOptions>(json!({ key: value })).expect_err("a number is refused");
            assert_eq!(
                error.to_string(),
                format!("invalid type: {shown}, expected a fraction written as a string, such as \"1/2\""),
                "{key}"
            );
        }
    }
    let options: YutOptions = serde_json::from_value(json!({"nak": null, "stick_flat": "3/5"})).expect("null and text");
    assert_eq!((options.nak, options.stick_flat.as_deref()), (None, Some("3/5")));
}

/// Seeds 000 and 001: every player presses the throw button, in the ceremony too; spec yut.md
/// "Who goes first": a team throws "by its first player". The thrower is who throws: in the
/// seed example's first round A, B, C, D in seat order, then only the tied C and D; during play
/// the player whose turn it is; nobody at a decision.
#[test]
fn each_side_throws_its_own_ceremony_throws_and_turns() {
    let game = yut(json!({}), Some(4));
    let thrower = |actions: &[&str]| game.thrower(&play(&game, actions)).map(|s| game.seat_names()[s].clone());
    let first = ["throw geol", "throw yut", "throw gae", "throw gae"];
    for (n, who) in ["A", "B", "C", "D"].iter().enumerate() {
        assert_eq!(thrower(&first[..n]).as_deref(), Some(*who), "throw {n} of the first round");
        // The ceremony is nobody's turn yet.
        assert_eq!(game.mover(&play(&game, &first[..n])), None);
    }
    // C and D tied at gae: C throws, then D.
    assert_eq!(thrower(&first).as_deref(), Some("C"));
    assert_eq!(thrower(&then(&first, &["throw mo"])).as_deref(), Some("D"));
    // Slot picks are decisions: no thrower.
    let thrown = then(&first, &["throw mo", "throw yut"]);
    assert_eq!(thrower(&thrown), None);
    // Play starts with D's throw (the seed example's order D, B, C, A).
    let picked = then(&thrown, &["slot 2", "slot 4", "slot 3"]);
    assert_eq!(thrower(&picked).as_deref(), Some("D"));
    assert_eq!(thrower(&then(&picked, &["throw do"])), None, "D decides where the do goes");
    assert_eq!(thrower(&then(&picked, &["throw do", "enter do"])).as_deref(), Some("B"));

    // Two teams of two (seats A1, B1, A2, B2): each team throws by its first player.
    let teams = yut(json!({"mode": "team-shared"}), Some(4));
    let s = teams.initial_state();
    assert_eq!(teams.thrower(&s).map(|i| teams.seat_names()[i].clone()).as_deref(), Some("A1"));
    let s = play(&teams, &["throw do"]);
    assert_eq!(teams.thrower(&s).map(|i| teams.seat_names()[i].clone()).as_deref(), Some("B1"));
}

#[test]
fn a_state_read_with_its_units_out_of_order_is_read_in_order() {
    // Every move keeps a side's units sorted by lowest piece id; a state read from outside with
    // them in another order is put in that order as it is read (the engine relies on it).
    let game = seated(json!({ "pieces": 4 }));
    let mut state = game.initial_state();
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    // A fixed pseudo-random walk (a 64-bit LCG) until a side has three units on the board.
    let mut lcg = 7u64;
    let mut pick = |n: usize| {
        lcg = lcg.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (lcg >> 33) as usize % n
    };
    for _ in 0..5000 {
        if state.sides.iter().any(|side| side.units.len() >= 3) {
            break;
        }
        let action = match game.turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                outcomes[pick(outcomes.len())].0
            }
            Turn::Seat(_) => {
                game.legal_actions(&state, &mut legal);
                legal[pick(legal.len())]
            }
        };
        game.apply_quiet(&mut state, action).expect("a listed action applies");
    }
    let side = state.sides.iter().position(|side| side.units.len() >= 3).expect("a side with three units");
    let lowest: Vec<u32> = state.sides[side].units.iter().map(|u| u.pieces.trailing_zeros()).collect();
    assert!(lowest.is_sorted(), "{lowest:?}");
    let mut text = serde_json::to_value(&state).expect("a state is JSON");
    let Some(Value::Array(units)) = text.pointer_mut(&format!("/sides/{side}/units")) else {
        panic!("units are a list: {text}");
    };
    units.reverse();
    let read: YutState = serde_json::from_value(text).expect("the state reads back");
    assert_eq!(read, state);
}

/// A result word's refusal repeats at most 64 of its characters (docs/api.md, "Errors").
#[test]
fn a_long_result_word_is_repeated_cut() {
    let word = "x".repeat(3000);
    let error = format!("throw {word}").parse::<YutAction>().expect_err("not a result");
    assert_eq!(error.reason, format!("\"{}…\" is not a result (backdo, do, gae, geol, yut, mo, nak)", "x".repeat(64)));
}
