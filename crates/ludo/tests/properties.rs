//! Property tests of the Ludo engine (spec `README.md`, "Shared engine model": applying an action
//! "either succeeds or returns an error that names why; it never panics on any input").

use madang_conformance::{Step, check_step};
use std::str::FromStr;

use madang_core::Game;
use madang_ludo::{BASE, GOAL, Ludo, LudoAction, LudoState, Phase};
use proptest::prelude::*;

/// Text that looks like notation often enough to reach every parser branch.
fn notation_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "(roll|move|Roll|MOVE|jump|rol|moves)?[ ]{0,2}[-+]?[0-9]{0,4}[ ]?",
        "(roll|move) (0|[1-9][0-9]{0,3}|0[0-9]{1,2})",
        "(roll|move)[ \t\u{a0}\u{3000}][\u{660}-\u{669}0-9]{1,2}",
    ]
}

proptest! {
    /// Parsing never panics; whatever is accepted prints back identically.
    #[test]
    fn parsing_never_panics_and_round_trips(text in notation_like()) {
        if let Ok(action) = LudoAction::from_str(&text) {
            prop_assert_eq!(action.to_string(), text);
        }
    }
}

fn step() -> impl Strategy<Value = Step<LudoAction>> {
    prop_oneof![
        1 => any::<u8>().prop_map(|n| Step::Arbitrary(LudoAction::Roll(n))),
        1 => any::<u8>().prop_map(|n| Step::Arbitrary(LudoAction::Move(n))),
        2 => (0u8..=7).prop_map(|n| Step::Arbitrary(LudoAction::Roll(n))),
        2 => (0u8..=5).prop_map(|n| Step::Arbitrary(LudoAction::Move(n))),
        8 => any::<u8>().prop_map(Step::Listed),
    ]
}

/// The state invariants: progress in −1 … 56; a finished game has a seat with four home; the
/// sixes count is 0-2; a move is awaited only when some piece can move.
fn check(game: &Ludo, state: &LudoState) -> Result<(), TestCaseError> {
    for seat in &state.progress {
        prop_assert!(seat.iter().all(|p| (BASE..=GOAL).contains(p)), "{:?}", state);
    }
    prop_assert!(state.sixes <= 2, "{:?}", state);
    match state.phase {
        Phase::Won { winner } => prop_assert_eq!(state.progress[usize::from(winner)], [GOAL; 4]),
        Phase::Move { roll } => prop_assert!(game.movable_mask(state, roll) != 0),
        Phase::Roll | Phase::RollLimit => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// From the start, random steps: `apply` never panics; an `Err` leaves the state unchanged;
    /// an arbitrary action succeeds exactly when it is listed; the invariants hold throughout.
    #[test]
    fn random_actions_never_panic_and_keep_the_invariants(steps in proptest::collection::vec(step(), 0..600)) {
        let game = Ludo;
        let mut state = game.initial_state();
        for step in steps {
            check_step(&game, &mut state, step, LudoAction::Roll(1)).map_err(TestCaseError::fail)?;
            check(&game, &state)?;
        }
    }
}

proptest! {
    /// `movable_mask` (computed on the four bytes at once) agrees with the per-piece rule on any
    /// progress values and any roll, reachable or not.
    #[test]
    fn movable_mask_agrees_with_the_rule_on_any_input(pieces in any::<[i8; 4]>(), roll in any::<u8>(), seat in 0u8..4) {
        let mut state = LudoState::new();
        state.progress[usize::from(seat)] = pieces;
        state.to_move = seat;
        let mask = Ludo.movable_mask(&state, roll);
        for (k, &p) in pieces.iter().enumerate() {
            prop_assert_eq!(mask & (1 << k) != 0, madang_ludo::destination(p, roll).is_some(), "piece {} at {}", k, p);
        }
    }
}
