//! Named rule tests for Seven Dice Poker (spec `dice-poker.md`). Every expected value is worked
//! out by hand from the spec, never copied from the program's output.
//!
//! The default 4 × 4 board numbers its cells in reading order:
//!
//! ```text
//!  0  1  2  3
//!  4  5  6  7
//!  8  9 10 11
//! 12 13 14 15
//! ```
//!
//! Comments beside the actions track the board as `W3@0` (white die showing 3 on cell 0),
//! `B4@10`, `Wt@1` (white's token on cell 1).

use madang_core::{Game, Outcome, Turn};
use madang_dice_poker::{
    Cell, DicePoker, Hand, HandKind, Phase, PokerAction, PokerError, PokerEvent, PokerOptions, PokerState,
};
use serde_json::{Value, json};

fn game(rules: Value) -> DicePoker {
    let options: PokerOptions = serde_json::from_value(rules).expect("valid rules JSON");
    DicePoker::new(&options, None).expect("valid rules")
}

/// Applies `actions` (notation) from the start; panics naming the first refused one.
fn play(game: &DicePoker, actions: &[&str]) -> (PokerState, Vec<PokerEvent>) {
    let mut state = game.initial_state();
    let mut events = Vec::new();
    for (i, text) in actions.iter().enumerate() {
        let action: PokerAction = text.parse().expect("valid notation");
        if let Err(e) = game.apply(&mut state, action, &mut events) {
            panic!("action {i} {text:?} refused: {e}");
        }
    }
    (state, events)
}

/// The error for `action` after `actions`, checking that the state is unchanged.
fn refused(game: &DicePoker, actions: &[&str], action: &str) -> PokerError {
    let (mut state, _) = play(game, actions);
    let before = state;
    let error = game
        .apply(&mut state, action.parse().expect("valid notation"), &mut ())
        .expect_err("the action must be refused");
    assert_eq!(state, before, "a refused action changed the state");
    error
}

fn w(value: u8) -> Cell {
    Cell::Die { seat: 0, value }
}

fn b(value: u8) -> Cell {
    Cell::Die { seat: 1, value }
}

/// Asserts the listed cells and that every other cell is empty.
#[track_caller]
fn assert_board(state: &PokerState, expected: &[(usize, Cell)]) {
    for cell in 0..16 {
        let want = expected.iter().find(|(c, _)| *c == cell).map_or(Cell::Empty, |(_, v)| *v);
        assert_eq!(state.cells[cell], want, "cell {cell} in {:?}", state.cells);
    }
}

/// White wins the roll-off 5 against 2 and moves first.
const WHITE_FIRST: [&str; 2] = ["roll 5", "roll 2"];

fn with_white_first<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut all = WHITE_FIRST.to_vec();
    all.extend_from_slice(more);
    all
}

// ---------------------------------------------------------------------------------------------
// Roll-off (spec "Play" 1)
// ---------------------------------------------------------------------------------------------

#[test]
fn roll_off_white_rolls_then_black_and_the_higher_starts() {
    let g = game(json!({}));
    let start = g.initial_state();
    assert_eq!(g.turn(&start), Turn::Chance);
    assert_eq!(g.awaiting(&start), Some("roll"));
    assert_eq!(start.to_move, 0, "white rolls first in the roll-off");
    let (state, _) = play(&g, &["roll 3"]);
    assert_eq!(state.to_move, 1, "then black");
    assert_eq!(g.turn(&state), Turn::Chance);
    // Black 6 against white 3: black starts and rolls.
    let (state, events) = play(&g, &["roll 3", "roll 6"]);
    assert_eq!(state.first, Some(1));
    assert_eq!(state.to_move, 1);
    assert_eq!(state.phase, Phase::Roll);
    assert_eq!(g.turn_order(&state), vec![1, 0]);
    assert!(events.contains(&PokerEvent::Starts { seat: 1, high: 6, low: 3 }));
    // White 5 against black 2: white starts.
    let (state, _) = play(&g, &WHITE_FIRST);
    assert_eq!((state.first, state.to_move), (Some(0), 0));
    assert_eq!(g.turn_order(&state), vec![0, 1]);
}

/// Each player rolls their own roll-off die (white, then black) and every die of their turns;
/// the roll-off is nobody's turn yet, and a placement has no thrower.
#[test]
fn each_player_rolls_their_own_roll_off_die_and_turns() {
    let g = game(json!({}));
    let thrower = |actions: &[&str]| g.thrower(&play(&g, actions).0);
    assert_eq!((thrower(&[]), g.mover(&g.initial_state())), (Some(0), None));
    assert_eq!(thrower(&["roll 3"]), Some(1));
    assert_eq!(thrower(&["roll 3", "roll 6"]), Some(1), "black won the roll-off and rolls first");
    assert_eq!(thrower(&with_white_first(&[])), Some(0));
    assert_eq!(thrower(&with_white_first(&["roll 4"])), None, "white places: a decision");
    assert_eq!(thrower(&with_white_first(&["roll 4", "place 0"])), Some(1));
}

#[test]
fn roll_off_ties_roll_again() {
    let g = game(json!({}));
    let (state, events) = play(&g, &["roll 4", "roll 4"]);
    assert_eq!(state, g.initial_state(), "after a tie the roll-off starts over with white");
    assert!(events.contains(&PokerEvent::RollOffTie { roll: 4 }));
    // Two ties, then black 2 against white 1.
    let (state, _) = play(&g, &["roll 4", "roll 4", "roll 6", "roll 6", "roll 1", "roll 2"]);
    assert_eq!((state.first, state.to_move), (Some(1), 1));
}

#[test]
fn roll_off_rolls_are_chance_actions_with_weight_one_each() {
    let g = game(json!({}));
    let mut outcomes = Vec::new();
    g.chance_outcomes(&g.initial_state(), &mut outcomes);
    let expected: Vec<(PokerAction, u64)> = (1..=6).map(|n| (PokerAction::Roll(n), 1)).collect();
    assert_eq!(outcomes, expected);
    assert!(matches!(refused(&g, &[], "place 0"), PokerError::RollOffAwaited { .. }));
    assert!(matches!(refused(&g, &["roll 2"], "place 0"), PokerError::RollOffAwaited { .. }));
    assert!(matches!(refused(&g, &[], "roll 7"), PokerError::ImpossibleRoll { roll: 7 }));
    assert!(matches!(refused(&g, &[], "roll 0"), PokerError::ImpossibleRoll { roll: 0 }));
}

// ---------------------------------------------------------------------------------------------
// One roll, then one placement (spec "Play" 2)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_turn_is_one_roll_then_one_placement_on_any_empty_cell() {
    let g = game(json!({}));
    let (state, _) = play(&g, &with_white_first(&["roll 3"]));
    assert_eq!(g.turn(&state), Turn::Seat(0));
    assert_eq!(g.awaiting(&state), Some("place"));
    let mut legal = Vec::new();
    g.legal_actions(&state, &mut legal);
    let all: Vec<PokerAction> = (0..16).map(PokerAction::Place).collect();
    assert_eq!(legal, all, "every empty cell, ascending");
    let (state, _) = play(&g, &with_white_first(&["roll 3", "place 7", "roll 2"]));
    assert_eq!(g.turn(&state), Turn::Seat(1), "black's turn after white placed");
    g.legal_actions(&state, &mut legal);
    assert_eq!(legal.len(), 15);
    assert!(!legal.contains(&PokerAction::Place(7)));
}

#[test]
fn rolling_when_a_placement_is_awaited_is_an_error() {
    let g = game(json!({}));
    let error = refused(&g, &with_white_first(&["roll 3"]), "roll 4");
    assert_eq!(error, PokerError::PlaceAwaited { seat: "white", roll: 3 });
    assert!(error.to_string().contains("must place"), "{error}");
}

#[test]
fn placing_before_rolling_is_an_error() {
    let g = game(json!({}));
    assert_eq!(refused(&g, &WHITE_FIRST, "place 0"), PokerError::RollAwaited { seat: "white" });
    let g = game(json!({ "tokens": true }));
    assert_eq!(refused(&g, &WHITE_FIRST, "token 0"), PokerError::RollAwaited { seat: "white" });
}

#[test]
fn placing_on_an_occupied_cell_is_an_error() {
    let g = game(json!({ "tokens": true }));
    // W3@5, then black's token on 6.
    let before = with_white_first(&["roll 3", "place 5", "roll 1", "token 6", "roll 2"]);
    let error = refused(&g, &before, "place 5");
    assert_eq!(error, PokerError::Occupied { cell: 5, what: "white's die showing 3".to_owned() });
    assert_eq!(error.to_string(), "cell 5 is occupied by white's die showing 3");
    let error = refused(&g, &before, "place 6");
    assert_eq!(error.to_string(), "cell 6 is occupied by black's token");
    assert!(matches!(refused(&g, &before, "token 5"), PokerError::Occupied { cell: 5, .. }));
}

#[test]
fn a_cell_off_the_board_is_an_error() {
    let g = game(json!({}));
    let error = refused(&g, &with_white_first(&["roll 3"]), "place 16");
    assert_eq!(error, PokerError::NoSuchCell { cell: 16 });
    assert_eq!(error.to_string(), "cell 16 is not on the board (cells 0-15)");
}

// ---------------------------------------------------------------------------------------------
// Neighbour changes (spec "Play" 3)
// ---------------------------------------------------------------------------------------------

/// Type A: the eight surrounding cells. Cell 5's neighbours are 0 1 2 4 6 8 9 10; cell 15's are
/// 10 11 14; cell 3 is two columns from 5 and is not one.
#[test]
fn type_a_changes_the_eight_surrounding_cells() {
    let g = game(json!({ "board": "a" }));
    let (state, _) = play(
        &g,
        &with_white_first(&[
            "roll 3", "place 0", // W3@0
            "roll 4", "place 10", // B4@10 (no neighbour occupied)
            "roll 2", "place 3", // W2@3 (neighbours 2 6 7 empty)
            "roll 5", "place 12", // B5@12 (neighbours 8 9 13 empty)
            "roll 6", "place 5", // W6@5: own W3@0 → 4, black's B4@10 → 3; W2@3 and B5@12 are not neighbours
        ]),
    );
    assert_board(&state, &[(0, w(4)), (3, w(2)), (5, w(6)), (10, b(3)), (12, b(5))]);
    // Black places on 15: only 10 11 14 are neighbours; its own B3@10 → 4.
    let (state, _) = play(
        &g,
        &with_white_first(&[
            "roll 3", "place 0", "roll 4", "place 10", "roll 2", "place 3", "roll 5", "place 12", "roll 6", "place 5",
            "roll 1", "place 15",
        ]),
    );
    assert_board(&state, &[(0, w(4)), (3, w(2)), (5, w(6)), (10, b(4)), (12, b(5)), (15, b(1))]);
}

/// Type A wrap-around both ways, for both seats: 6 + 1 = 1 and 1 − 1 = 6.
#[test]
fn type_a_changes_wrap_around_in_both_directions() {
    let g = game(json!({}));
    let start = with_white_first(&[
        "roll 6", "place 0", // W6@0
        "roll 1", "place 2", // B1@2 (neighbours 1 3 5 6 7 empty)
        "roll 2", "place 1", // W2@1: own W6@0 → 1 (6 + 1), black's B1@2 → 6 (1 − 1)
    ]);
    let (state, _) = play(&g, &start);
    assert_board(&state, &[(0, w(1)), (1, w(2)), (2, b(6))]);
    let mut more = start.clone();
    // B5@6: neighbours 1 2 3 5 7 9 10 11: white's W2@1 → 1, own B6@2 → 1 (6 + 1).
    more.extend(["roll 5", "place 6"]);
    let (state, _) = play(&g, &more);
    assert_board(&state, &[(0, w(1)), (1, w(1)), (2, b(1)), (6, b(5))]);
    // W4@5: neighbours 0 1 2 4 6 8 9 10: own W1@0 → 2, own W1@1 → 2, black's B1@2 → 6 (1 − 1),
    // black's B5@6 → 4.
    more.extend(["roll 4", "place 5"]);
    let (state, _) = play(&g, &more);
    assert_board(&state, &[(0, w(2)), (1, w(2)), (2, b(6)), (5, w(4)), (6, b(4))]);
}

/// Type B: only up, down, left and right; diagonal dice keep their values.
#[test]
fn type_b_changes_only_the_four_orthogonal_neighbours() {
    let g = game(json!({ "board": "b" }));
    let start = with_white_first(&[
        "roll 3", "place 0", // W3@0
        "roll 4", "place 6", // B4@6 (neighbours 2 5 7 10 empty)
        "roll 2", "place 5", // W2@5: neighbours 1 4 6 9: B4@6 → 3; W3@0 is diagonal, unchanged
    ]);
    let (state, _) = play(&g, &start);
    assert_board(&state, &[(0, w(3)), (5, w(2)), (6, b(3))]);
    let mut more = start.clone();
    // B6@1: neighbours 0 2 5: W3@0 → 2, W2@5 → 1; B3@6 is diagonal to 1, unchanged.
    more.extend(["roll 6", "place 1"]);
    let (state, _) = play(&g, &more);
    assert_board(&state, &[(0, w(2)), (1, b(6)), (5, w(1)), (6, b(3))]);
}

#[test]
fn type_b_changes_wrap_around_in_both_directions() {
    let g = game(json!({ "board": "b" }));
    let start = with_white_first(&[
        "roll 6", "place 0", // W6@0
        "roll 1", "place 5", // B1@5 (neighbours 1 4 6 9 empty; 0 is diagonal)
        "roll 3", "place 1", // W3@1: neighbours 0 2 5: own W6@0 → 1, black's B1@5 → 6
    ]);
    let (state, _) = play(&g, &start);
    assert_board(&state, &[(0, w(1)), (1, w(3)), (5, b(6))]);
    let mut more = start.clone();
    // B2@4: neighbours 0 5 8: white's W1@0 → 6 (1 − 1), own B6@5 → 1 (6 + 1).
    more.extend(["roll 2", "place 4"]);
    let (state, _) = play(&g, &more);
    assert_board(&state, &[(0, w(6)), (1, w(3)), (4, b(2)), (5, b(1))]);
}

#[test]
fn the_placed_die_keeps_its_rolled_value() {
    let g = game(json!({}));
    // W2@5 surrounded: the placed die is not its own neighbour and shows the roll, 2.
    let (state, events) = play(
        &g,
        &with_white_first(&[
            "roll 1", "place 0", "roll 1", "place 1", "roll 1", "place 4", "roll 1", "place 6", "roll 2", "place 5",
        ]),
    );
    // W1@0; B1@1 (W1@0 → 6); W1@4 (own W6@0 → 1, B1@1 → 6); B1@6 (own B6@1 → 1; cells 0 and
    // 4 are two columns away). W2@5: own W1@0 → 2, own W1@4 → 2, B1@1 → 6, B1@6 → 6.
    assert_eq!(state.cells[5], w(2));
    assert_board(&state, &[(0, w(2)), (1, b(6)), (4, w(2)), (5, w(2)), (6, b(6))]);
    assert!(events.contains(&PokerEvent::Placed { seat: 0, cell: 5, value: 2 }));
}

/// Custom layouts: cells numbered in reading order; adjacency by grid position.
#[test]
fn a_custom_layout_numbers_cells_in_reading_order() {
    let rows = [".##.", "####", "####", "####", ".##."];
    // Cells: row 0 → 0 (col 1), 1 (col 2); row 1 → 2-5; row 2 → 6-9; row 3 → 10-13;
    // row 4 → 14 (col 1), 15 (col 2).
    let a = game(json!({ "board": "a", "layout": rows }));
    assert_eq!(a.board().neighbours_of(0), vec![1, 2, 3, 4]);
    assert_eq!(a.board().neighbours_of(14), vec![10, 11, 12, 15]);
    let b = game(json!({ "board": "b", "layout": rows }));
    assert_eq!(b.board().neighbours_of(0), vec![1, 3]);
    assert_eq!(b.board().neighbours_of(2), vec![3, 6]);
    assert_eq!(b.board().neighbours_of(15), vec![12, 14]);
    // The default board, for comparison: cell 5 on type a and b.
    assert_eq!(game(json!({})).board().neighbours_of(5), vec![0, 1, 2, 4, 6, 8, 9, 10]);
    assert_eq!(game(json!({ "board": "b" })).board().neighbours_of(5), vec![1, 4, 6, 9]);
}

#[test]
fn an_invalid_layout_is_an_error_naming_the_problem() {
    let error = |rows: Value| {
        let options: PokerOptions = serde_json::from_value(json!({ "layout": rows })).expect("JSON");
        DicePoker::new(&options, None).expect_err("invalid layout").to_string()
    };
    let e = error(json!(["####", "####", "####", "###."]));
    assert!(e.contains("layout") && e.contains("exactly 16 cells") && e.contains("got 15"), "{e}");
    let e = error(json!(["####", "####", "####", "####", "#..."]));
    assert!(e.contains("got 17"), "{e}");
    let e = error(json!(["####", "##x#", "####", "####"]));
    assert!(e.contains("row 1") && e.contains("'x'") && e.contains("column 2"), "{e}");
    let e = error(json!(["####", "#####", "####", "###"]));
    assert!(e.contains("row 1 has 5 characters but row 0 has 4"), "{e}");
    let e = error(json!([]));
    assert!(e.contains("at least one row"), "{e}");
    let e = error(json!(["#".repeat(16) + &".".repeat(30)]));
    assert!(e.contains("at most 32"), "{e}");
}

/// Every placement of random games, checked cell by cell against the rule: the placed cell shows
/// the roll; each neighbour holding a die moves +1 (placer's) or −1 (opponent's) with
/// wrap-around; every other cell is unchanged.
#[test]
fn only_the_placed_dies_neighbours_change() {
    use madang_seed::{CHANCE, sim_game_seed, uniform_below};
    for rules in [json!({ "board": "a" }), json!({ "board": "b" }), json!({ "board": "a", "tokens": true })] {
        let g = game(rules.clone());
        let mut legal = Vec::new();
        let mut changes = 0;
        for i in 0..300 {
            let seed = sim_game_seed(11, i);
            let mut chance = seed.stream(CHANCE);
            let mut bot = seed.stream("bot");
            let mut state = g.initial_state();
            while g.turn(&state) != Turn::Terminal {
                let action = match g.turn(&state) {
                    Turn::Chance => PokerAction::Roll(1 + uniform_below(&mut chance, 6) as u8),
                    _ => {
                        g.legal_actions(&state, &mut legal);
                        legal[uniform_below(&mut bot, legal.len() as u32) as usize]
                    }
                };
                let before = state;
                g.apply(&mut state, action, &mut ()).expect("a listed action applies");
                let PokerAction::Place(cell) = action else { continue };
                let Phase::Place { roll: Some(roll) } = before.phase else { panic!("placed without a roll") };
                let placer = before.to_move;
                let neighbours = g.board().neighbours_of(usize::from(cell));
                for c in 0..16 {
                    let want = if c == usize::from(cell) {
                        Cell::Die { seat: placer, value: roll }
                    } else {
                        match before.cells[c] {
                            Cell::Die { seat, value } if neighbours.contains(&c) => {
                                changes += 1;
                                let to = match (seat == placer, value) {
                                    (true, 6) => 1,
                                    (true, v) => v + 1,
                                    (false, 1) => 6,
                                    (false, v) => v - 1,
                                };
                                Cell::Die { seat, value: to }
                            }
                            other => other,
                        }
                    };
                    assert_eq!(state.cells[c], want, "{rules}: cell {c} after {action} in game {i}");
                }
            }
        }
        assert!(changes > 1000, "{rules}: only {changes} neighbour changes seen");
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens (spec "Play" 5)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_token_changes_nothing() {
    let g = game(json!({ "tokens": true }));
    let start = with_white_first(&[
        "roll 3", "place 0", // W3@0
        "roll 4", "token 1", // Bt@1 next to W3@0: nothing changes
    ]);
    let (state, events) = play(&g, &start);
    assert_board(&state, &[(0, w(3)), (1, Cell::Token { seat: 1 })]);
    assert!(events.contains(&PokerEvent::TokenPlaced { seat: 1, cell: 1, kept: Some(4) }));
    assert!(!events.iter().any(|e| matches!(e, PokerEvent::Changed { .. })));
    // W2@5 next to the token on 1 and W3@0: the die changes, the token does not.
    let mut more = start.clone();
    more.extend(["roll 2", "place 5"]);
    let (state, _) = play(&g, &more);
    assert_board(&state, &[(0, w(4)), (1, Cell::Token { seat: 1 }), (5, w(2))]);
}

#[test]
fn the_token_rule_keeps_the_rolled_die_for_later() {
    let g = game(json!({ "tokens": true }));
    let (state, _) = play(&g, &with_white_first(&["roll 6", "token 3"]));
    // The 6 was not used: white still has all 7 dice; its token is spent; black's turn.
    assert_eq!(state.dice_left, [7, 7]);
    assert_eq!(state.token_left, [false, true]);
    assert_eq!((state.to_move, state.phase), (1, Phase::Roll));
    let mut legal = Vec::new();
    // With the token: place C and token C for every empty cell.
    let (state, _) = play(&g, &with_white_first(&["roll 6", "token 3", "roll 2"]));
    g.legal_actions(&state, &mut legal);
    assert_eq!(legal.len(), 30);
    assert_eq!(legal[0], PokerAction::Place(0));
    assert_eq!(legal[15], PokerAction::Token(0));
    assert!(!legal.contains(&PokerAction::Place(3)) && !legal.contains(&PokerAction::Token(3)));
    // Without a token: placements only.
    let (state, _) = play(&g, &with_white_first(&["roll 6", "token 3", "roll 2", "place 0", "roll 5"]));
    g.legal_actions(&state, &mut legal);
    assert_eq!(legal.len(), 14);
    assert!(legal.iter().all(|a| matches!(a, PokerAction::Place(_))));
}

#[test]
fn a_token_twice_or_without_the_token_rule_is_an_error() {
    let g = game(json!({ "tokens": true }));
    let error = refused(&g, &with_white_first(&["roll 6", "token 3", "roll 2", "place 0", "roll 5"]), "token 4");
    assert_eq!(error, PokerError::TokenUsed { seat: "white" });
    assert_eq!(error.to_string(), "white has already placed its token");
    let g = game(json!({}));
    let error = refused(&g, &with_white_first(&["roll 6"]), "token 3");
    assert_eq!(error, PokerError::TokensOff);
    assert!(error.to_string().contains("`tokens`"), "{error}");
}

/// The checkerboard layout on type B: no two cells are orthogonal neighbours, so no placement
/// changes any die and the final dice are the rolled values.
const CHECKERBOARD: [&str; 4] = ["#.#.#.#.", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#"];

#[test]
fn a_player_whose_only_piece_left_is_the_token_does_not_roll() {
    let g = game(json!({ "board": "b", "layout": CHECKERBOARD, "tokens": true }));
    // White starts; both place 7 dice on cells 0-13 (white even cells, black odd cells), then
    // white's only piece is its token: no roll, the turn is the token.
    let mut actions = WHITE_FIRST.to_vec();
    for place in &PLACES[..14] {
        actions.push("roll 1");
        actions.push(place);
    }
    let (state, events) = play(&g, &actions);
    assert_eq!(state.dice_left, [0, 0]);
    assert_eq!((state.to_move, state.phase), (0, Phase::Place { roll: None }));
    assert_eq!(g.turn(&state), Turn::Seat(0));
    assert_eq!(g.awaiting(&state), Some("place"));
    assert!(events.contains(&PokerEvent::TokenOnly { seat: 0 }));
    let mut legal = Vec::new();
    g.legal_actions(&state, &mut legal);
    assert_eq!(legal, vec![PokerAction::Token(14), PokerAction::Token(15)]);
    assert!(matches!(refused(&g, &actions, "roll 3"), PokerError::TokenOnlyTurn { seat: "white" }));
    assert!(matches!(refused(&g, &actions, "place 14"), PokerError::TokenOnlyTurn { .. }));
    // White's token, then black's token-only turn, and all 16 cells are full: the game ends.
    actions.push("token 15");
    let (state, _) = play(&g, &actions);
    assert_eq!((state.to_move, state.phase), (1, Phase::Place { roll: None }));
    actions.push("token 14");
    let (state, _) = play(&g, &actions);
    assert!(state.cells.iter().all(|c| *c != Cell::Empty));
    assert_eq!(g.turn(&state), Turn::Terminal);
    // Seven 1s each: five of a kind for both, a draw; the tokens are not dice.
    assert_eq!(g.outcome(&state), Some(Outcome::Draw));
    assert_eq!(g.hand(&state, 0), Some(Hand { kind: HandKind::FiveOfAKind, dice: [1; 5] }));
}

const PLACES: [&str; 16] = [
    "place 0", "place 1", "place 2", "place 3", "place 4", "place 5", "place 6", "place 7", "place 8", "place 9",
    "place 10", "place 11", "place 12", "place 13", "place 14", "place 15",
];

/// Tokens are excluded from hands: white's seven dice 6 6 6 3 3 1 2 make a full house whatever
/// the token; black's 5 5 5 5 2 2 1 four of a kind.
#[test]
fn tokens_are_excluded_from_hands() {
    let g = game(json!({ "board": "b", "layout": CHECKERBOARD, "tokens": true }));
    let white = [6, 6, 6, 3, 3, 1, 2];
    let black = [5, 5, 5, 5, 2, 2, 1];
    // Black starts (6 against 3); black places its token on its first turn (its roll of 4 is
    // not used), white its token on its last turn. Cells: black's token 0, then dice in order.
    let mut actions = vec!["roll 3".to_owned(), "roll 6".to_owned(), "roll 4".to_owned(), "token 0".to_owned()];
    let mut cell = 1;
    for i in 0..7 {
        actions.push(format!("roll {}", white[i]));
        actions.push(format!("place {cell}"));
        cell += 1;
        actions.push(format!("roll {}", black[i]));
        actions.push(format!("place {cell}"));
        cell += 1;
    }
    actions.push("token 15".to_owned());
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let (state, events) = play(&g, &refs);
    assert_eq!(g.turn(&state), Turn::Terminal);
    assert_eq!(state.dice_of(0).len(), 7);
    assert_eq!(g.hand(&state, 0), Some(Hand { kind: HandKind::FullHouse, dice: [6, 6, 6, 3, 3] }));
    assert_eq!(g.hand(&state, 1), Some(Hand { kind: HandKind::FourOfAKind, dice: [5, 5, 5, 5, 2] }));
    assert_eq!(g.outcome(&state), Some(Outcome::Winner(1)));
    // The win names both hands: the kinds differ, so the kind decides.
    let won = events.last().expect("the game's last event");
    let (black_hand, white_hand) = (
        Hand { kind: HandKind::FourOfAKind, dice: [5, 5, 5, 5, 2] },
        Hand { kind: HandKind::FullHouse, dice: [6, 6, 6, 3, 3] },
    );
    assert_eq!(won, &PokerEvent::Won { seat: 1, hand: black_hand, over: white_hand });
    assert_eq!(
        serde_json::to_value(won).expect("an event serializes"),
        json!({ "kind": "win", "seat": "black", "hand": "four of a kind", "over": "full house" })
    );
    assert_eq!(won.to_string(), "black wins: four of a kind beats full house");
    let figures = serde_json::to_value(g.figures(&state)).expect("figures serialize");
    assert_eq!(
        figures,
        json!({
            "first": "black",
            "hands": {
                "white": { "hand": "full house", "dice": [6, 6, 6, 3, 3] },
                "black": { "hand": "four of a kind", "dice": [5, 5, 5, 5, 2] },
            },
            "hands_by_position": { "first": "four of a kind", "second": "full house" },
        })
    );
    // `pieces`: 16 entries, tokens as "token".
    let pieces = serde_json::to_value(g.pieces(&state)).expect("pieces serialize");
    assert_eq!(pieces[0], json!({ "black": "token" }));
    assert_eq!(pieces[1], json!({ "white": 6 }));
    assert_eq!(pieces[2], json!({ "black": 5 }));
    assert_eq!(pieces[15], json!({ "white": "token" }));
}

// ---------------------------------------------------------------------------------------------
// The end and the result (spec "Play" 4, 6)
// ---------------------------------------------------------------------------------------------

/// Plays a checkerboard game (no neighbour changes) where white starts and the seats roll these
/// values, placing on cells 0, 1, 2, … in turn.
fn checkerboard_game(rules: Value, white: [u8; 7], black: [u8; 7]) -> (DicePoker, PokerState, Vec<PokerEvent>) {
    let mut rules = rules;
    rules["board"] = json!("b");
    rules["layout"] = json!(CHECKERBOARD);
    let g = game(rules);
    let mut actions: Vec<String> = WHITE_FIRST.iter().map(|s| (*s).to_owned()).collect();
    for i in 0..7 {
        for (k, roll) in [white[i], black[i]].into_iter().enumerate() {
            actions.push(format!("roll {roll}"));
            actions.push(format!("place {}", 2 * i + k));
        }
    }
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let (state, events) = play(&g, &refs);
    (g, state, events)
}

#[test]
fn the_game_ends_when_all_fourteen_dice_are_placed() {
    let (g, state, _) = checkerboard_game(json!({}), [6, 6, 6, 3, 3, 1, 2], [5, 5, 5, 5, 2, 2, 1]);
    assert_eq!(g.turn(&state), Turn::Terminal);
    assert_eq!(g.awaiting(&state), None);
    assert_eq!(state.cells.iter().filter(|c| **c == Cell::Empty).count(), 2, "two cells stay empty");
    assert_eq!(g.outcome(&state), Some(Outcome::Winner(1)), "four of a kind beats a full house");
    let mut legal = Vec::new();
    g.legal_actions(&state, &mut legal);
    assert!(legal.is_empty());
    let mut outcomes = Vec::new();
    g.chance_outcomes(&state, &mut outcomes);
    assert!(outcomes.is_empty());
    let mut copy = state;
    assert_eq!(g.apply(&mut copy, PokerAction::Roll(1), &mut ()), Err(PokerError::GameOver));
}

#[test]
fn equal_best_hands_draw_even_when_the_other_dice_differ() {
    // White 6 6 6 3 3 1 1 and black 6 6 6 3 3 2 4: both full house 6 6 6 3 3; the dice outside
    // the best five never count.
    let (g, state, _) = checkerboard_game(json!({}), [6, 6, 6, 3, 3, 1, 1], [6, 3, 6, 3, 6, 2, 4]);
    assert_eq!(g.hand(&state, 0), g.hand(&state, 1));
    assert_eq!(g.outcome(&state), Some(Outcome::Draw));
    let figures = serde_json::to_value(g.figures(&state)).expect("figures serialize");
    assert_eq!(figures["hands"]["black"], json!({ "hand": "full house", "dice": [6, 6, 6, 3, 3] }));
}

#[test]
fn the_higher_hand_wins_and_a_tie_break_decides_equal_kinds() {
    // Straights (distinct): white 1 2 3 4 6 + 6 6 → 6 4 3 2 1 (no pair beside the triple, so no
    // full house); black 1 2 3 4 5 + 1 1 → 5 4 3 2 1. White's highest die 6 beats 5.
    let (g, state, events) = checkerboard_game(json!({}), [1, 2, 3, 4, 6, 6, 6], [1, 2, 3, 4, 5, 1, 1]);
    assert_eq!(g.hand(&state, 0), Some(Hand { kind: HandKind::Straight, dice: [6, 4, 3, 2, 1] }));
    assert_eq!(g.hand(&state, 1), Some(Hand { kind: HandKind::Straight, dice: [5, 4, 3, 2, 1] }));
    assert_eq!(g.outcome(&state), Some(Outcome::Winner(0)));
    // The win says what decided it: both straights, the first dice that differ are 6 and 5.
    let won = events.last().expect("the game's last event");
    assert_eq!(
        serde_json::to_value(won).expect("an event serializes"),
        json!({ "kind": "win_on_dice", "seat": "white", "hand": "straight", "high": 6, "low": 5 })
    );
    assert_eq!(won.to_string(), "white wins: both hands are straight, and 6 beats 5");
    // Two pair decided by the odd die: white 6 6 3 3 5, black 6 6 3 3 4 (each with 1 2 left
    // over, which only makes smaller hands).
    let (_, _, events) = checkerboard_game(json!({}), [6, 6, 3, 3, 5, 1, 1], [6, 6, 3, 3, 4, 2, 2]);
    assert_eq!(
        serde_json::to_value(events.last().expect("the last event")).expect("an event serializes"),
        json!({ "kind": "win_on_dice", "seat": "white", "hand": "two pair", "high": 5, "low": 4 })
    );
    // The same dice with `straight: consecutive`: white 6 6 6 4 3 three of a kind, black still a
    // straight 5 4 3 2 1, which ranks higher.
    let (g, state, _) =
        checkerboard_game(json!({ "straight": "consecutive" }), [1, 2, 3, 4, 6, 6, 6], [1, 2, 3, 4, 5, 1, 1]);
    assert_eq!(g.hand(&state, 0), Some(Hand { kind: HandKind::ThreeOfAKind, dice: [6, 6, 6, 4, 3] }));
    assert_eq!(g.outcome(&state), Some(Outcome::Winner(1)));
}

#[test]
fn rule_options_are_checked() {
    assert!(DicePoker::new(&PokerOptions::default(), Some(3)).expect_err("3 players").to_string().contains("players"));
    assert!(DicePoker::new(&PokerOptions::default(), Some(2)).is_ok());
    let bad = serde_json::from_value::<PokerOptions>(json!({ "board": "c" }));
    assert!(bad.is_err());
    let bad = serde_json::from_value::<PokerOptions>(json!({ "straight": "wrapped" }));
    assert!(bad.is_err());
    let bad = serde_json::from_value::<PokerOptions>(json!({ "token": true }));
    assert!(bad.expect_err("unknown key").to_string().contains("token"));
}

#[test]
fn notation_round_trips_and_rejects_other_spellings() {
    for text in ["roll 1", "roll 6", "place 0", "place 15", "token 7"] {
        let action: PokerAction = text.parse().expect("valid notation");
        assert_eq!(action.to_string(), text);
    }
    for text in ["roll", "roll  1", "roll 01", "place -1", "place +3", "Place 3", "token3", "move 1", "place 256", ""] {
        assert!(text.parse::<PokerAction>().is_err(), "{text:?} parsed");
    }
}

#[test]
fn the_standard_board_is_the_default_layout() {
    use madang_dice_poker::{Board, BoardKind, PokerSettings};
    for kind in [BoardKind::A, BoardKind::B] {
        let parsed = Board::new(kind, None).expect("the default layout is valid");
        assert_eq!(Board::standard(kind), parsed);
        let g = DicePoker::from_settings(PokerSettings { board: kind, ..PokerSettings::default() });
        assert_eq!(g.board(), &parsed);
    }
}
