//! Property tests of the Dice Poker engine (spec `README.md`, "Shared engine model": applying an
//! action "either succeeds or returns an error that names why; it never panics on any input").

use madang_conformance::{Step, check_step};
use std::str::FromStr;

use madang_core::Game;
use madang_dice_poker::{BoardKind, Cell, DicePoker, PokerAction, PokerOptions, PokerState, StraightRule};
use proptest::prelude::*;

/// Text that looks like notation often enough to reach every parser branch.
fn notation_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "(roll|place|token|Roll|PLACE|tok|places)?[ ]{0,2}[-+]?[0-9]{0,4}[ ]?",
        "(roll|place|token) (0|[1-9][0-9]{0,3}|0[0-9]{1,2})",
        "(roll|place|token)[ \t\u{a0}\u{3000}][\u{660}-\u{669}0-9]{1,2}",
    ]
}

proptest! {
    /// Parsing never panics; whatever it accepts is written back identically.
    #[test]
    fn parsing_never_panics_and_round_trips(text in notation_like()) {
        if let Ok(action) = PokerAction::from_str(&text) {
            let shown = action.to_string();
            prop_assert_eq!(&shown, &text);
            prop_assert_eq!(PokerAction::from_str(&shown), Ok(action));
        }
    }

    /// Every action's `Display` parses back to itself.
    #[test]
    fn display_parses_back(n in any::<u8>(), kind in 0u8..3) {
        let action = match kind {
            0 => PokerAction::Roll(n),
            1 => PokerAction::Place(n),
            _ => PokerAction::Token(n),
        };
        prop_assert_eq!(PokerAction::from_str(&action.to_string()), Ok(action));
    }
}

fn step() -> impl Strategy<Value = Step<PokerAction>> {
    prop_oneof![
        1 => any::<u8>().prop_map(|n| Step::Arbitrary(PokerAction::Roll(n))),
        1 => any::<u8>().prop_map(|n| Step::Arbitrary(PokerAction::Place(n))),
        1 => any::<u8>().prop_map(|n| Step::Arbitrary(PokerAction::Token(n))),
        1 => (0u8..=7).prop_map(|n| Step::Arbitrary(PokerAction::Roll(n))),
        2 => (0u8..=16).prop_map(|n| Step::Arbitrary(PokerAction::Place(n))),
        2 => (0u8..=16).prop_map(|n| Step::Arbitrary(PokerAction::Token(n))),
        8 => any::<u8>().prop_map(Step::Listed),
    ]
}

fn options() -> impl Strategy<Value = PokerOptions> {
    (
        proptest::option::of(prop_oneof![Just(BoardKind::A), Just(BoardKind::B)]),
        proptest::option::of(any::<bool>()),
        proptest::option::of(prop_oneof![Just(StraightRule::Distinct), Just(StraightRule::Consecutive)]),
    )
        .prop_map(|(board, tokens, straight)| PokerOptions { board, layout: None, tokens, straight })
}

/// Every seat's dice on the board plus those in hand are 7; a token is on the board exactly when
/// it is no longer in hand (with the token rule); `pieces` has 16 entries matching the cells.
fn check_pieces(game: &DicePoker, state: &PokerState) -> Result<(), TestCaseError> {
    let tokens = game.settings().tokens;
    for seat in 0..2u8 {
        let on_board = state.cells.iter().filter(|c| matches!(c, Cell::Die { seat: s, .. } if *s == seat)).count();
        prop_assert_eq!(on_board + usize::from(state.dice_left[usize::from(seat)]), 7, "{:?}", state);
        let token = state.cells.iter().filter(|c| matches!(c, Cell::Token { seat: s } if *s == seat)).count();
        let expected = usize::from(tokens && !state.token_left[usize::from(seat)]);
        prop_assert_eq!(token, expected, "{:?}", state);
    }
    for cell in &state.cells {
        if let Cell::Die { value, .. } = cell {
            prop_assert!((1..=6).contains(value), "{:?}", state);
        }
    }
    let pieces = serde_json::to_value(game.pieces(state)).expect("pieces serialize");
    prop_assert_eq!(pieces.as_array().map(Vec::len), Some(16));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// From the start, random steps: `apply` never panics; an `Err` leaves the state unchanged;
    /// an arbitrary action succeeds exactly when it is listed; the pieces invariants hold.
    #[test]
    fn random_actions_never_panic_and_keep_the_pieces_invariants(
        options in options(),
        steps in proptest::collection::vec(step(), 0..120),
    ) {
        let game = DicePoker::new(&options, None).expect("options are valid");
        let mut state = game.initial_state();
        check_pieces(&game, &state)?;
        for step in steps {
            check_step(&game, &mut state, step, PokerAction::Roll(1)).map_err(TestCaseError::fail)?;
            check_pieces(&game, &state)?;
        }
    }
}
