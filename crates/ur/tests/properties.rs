//! Property tests of the Ur engine (spec `README.md`, "Shared engine model": applying an action
//! "either succeeds or returns an error that names why; it never panics on any input").

use madang_conformance::{Step, check_step};
use std::str::FromStr;

use madang_core::Game;
use madang_ur::{Dice, PathKind, Preset, Side, Ur, UrAction, UrOptions, UrState};
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
    /// `UrAction::from_str` never panics; whatever it accepts is written back identically by
    /// `Display` (notation has one spelling per action: no sign, no leading zeros, one space).
    #[test]
    fn parsing_never_panics_and_round_trips(text in notation_like()) {
        if let Ok(action) = UrAction::from_str(&text) {
            let shown = action.to_string();
            prop_assert_eq!(&shown, &text);
            prop_assert_eq!(UrAction::from_str(&shown), Ok(action));
        }
    }

    /// Every action's `Display` parses back to itself.
    #[test]
    fn display_parses_back(n in any::<u8>(), roll in any::<bool>()) {
        let action = if roll { UrAction::Roll(n) } else { UrAction::Move(n) };
        prop_assert_eq!(UrAction::from_str(&action.to_string()), Ok(action));
    }
}

fn step() -> impl Strategy<Value = Step<UrAction>> {
    prop_oneof![
        2 => any::<u8>().prop_map(|n| Step::Arbitrary(UrAction::Roll(n))),
        2 => any::<u8>().prop_map(|n| Step::Arbitrary(UrAction::Move(n))),
        1 => (0u8..=4).prop_map(|n| Step::Arbitrary(UrAction::Roll(n))),
        1 => (0u8..=17).prop_map(|n| Step::Arbitrary(UrAction::Move(n))),
        6 => any::<u8>().prop_map(Step::Listed),
    ]
}

fn options() -> impl Strategy<Value = UrOptions> {
    (
        prop_oneof![Just(None), Just(Some(Preset::Finkel)), Just(Some(Preset::Blitz)), Just(Some(Preset::Masters))],
        prop_oneof![Just(None), (1i64..=7).prop_map(Some)],
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(prop_oneof![Just(Dice::FourBinary), Just(Dice::ThreeBinaryZeroIsFour)]),
        proptest::option::of(prop_oneof![Just(PathKind::Bell), Just(PathKind::Masters)]),
    )
        .prop_map(|(preset, pieces, capture_extra_roll, safe_rosettes, dice, path)| UrOptions {
            preset,
            pieces,
            capture_extra_roll,
            safe_rosettes,
            dice,
            path,
        })
}

/// The pieces invariants: `pieces` entries per side in the summary, each a square 0 ..= len + 1,
/// sorted; in hand + on the board + borne off = pieces; board bits only on path squares 1 ..= len.
fn check_pieces(game: &Ur, state: &UrState) -> Result<(), TestCaseError> {
    let pieces = game.settings().pieces;
    let len = game.path_len();
    let summary = game.pieces(state);
    for (side, list) in state.sides.iter().zip([&summary.light, &summary.dark]) {
        let Side { in_hand, board, borne_off } = *side;
        prop_assert_eq!(list.len(), usize::from(pieces), "summary {:?} of {:?}", list, state);
        prop_assert!(list.windows(2).all(|w| w[0] <= w[1]), "summary not sorted: {:?}", list);
        prop_assert!(list.iter().all(|&k| k <= len + 1), "square off the path in {:?}", list);
        prop_assert_eq!(
            u32::from(in_hand) + board.count_ones() + u32::from(borne_off),
            u32::from(pieces),
            "{:?}",
            side
        );
        prop_assert_eq!(board & !(((1u32 << (len + 1)) - 1) & !1), 0, "board bits off the path: {:#b}", board);
        prop_assert_eq!(list.iter().filter(|&&k| k == 0).count(), usize::from(in_hand));
        prop_assert_eq!(list.iter().filter(|&&k| k == len + 1).count(), usize::from(borne_off));
    }
    // The two sides never share a tile.
    for square in 1..=len {
        if state.sides[0].board & (1 << square) != 0 {
            let other = game.geometry().opponent_square[0][usize::from(square)];
            prop_assert!(
                other == 0 || state.sides[1].board & (1 << other) == 0,
                "both sides on light's {} in {:?}",
                square,
                state
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// From the start, random steps: `apply` never panics; an `Err` leaves the state unchanged;
    /// an arbitrary action succeeds exactly when it is listed (legal move, or chance outcome with
    /// a positive weight); the pieces invariants hold throughout.
    #[test]
    fn random_actions_never_panic_and_keep_the_pieces_invariants(
        options in options(),
        steps in proptest::collection::vec(step(), 0..400),
    ) {
        let game = Ur::new(&options, None).expect("options in range");
        let mut state = game.initial_state();
        check_pieces(&game, &state)?;
        for step in steps {
            check_step(&game, &mut state, step, UrAction::Roll(0)).map_err(TestCaseError::fail)?;
            check_pieces(&game, &state)?;
        }
    }
}

#[test]
fn a_rolls_weight_is_the_one_its_dice_list() {
    // Spec `ur.md`, "Dice": four binary dice 0-4 weighted 1, 4, 6, 4, 1; three binary dice
    // with 0 counting as 4: 1-4 weighted 3, 3, 1, 1.
    for (dice, weights) in [(Dice::FourBinary, [1, 4, 6, 4, 1]), (Dice::ThreeBinaryZeroIsFour, [0, 3, 3, 1, 1])] {
        for roll in 0..=u8::MAX {
            let expected = weights.get(usize::from(roll)).copied().unwrap_or(0);
            assert_eq!(dice.weight(roll), expected, "{dice:?} roll {roll}");
            let listed = dice.outcomes().iter().find(|(r, _)| *r == roll).map_or(0, |(_, w)| *w);
            assert_eq!(listed, expected, "{dice:?} roll {roll}");
        }
        // A chance node offers exactly the possible rolls, ascending, with those weights.
        let options = UrOptions { dice: Some(dice), ..UrOptions::default() };
        let game = Ur::new(&options, None).expect("rules with these dice");
        let mut offered = Vec::new();
        game.chance_outcomes(&game.initial_state(), &mut offered);
        let wanted: Vec<(UrAction, u64)> = (0..=4u8)
            .filter(|&r| weights[usize::from(r)] > 0)
            .map(|r| (UrAction::Roll(r), weights[usize::from(r)]))
            .collect();
        assert_eq!(offered, wanted, "{dice:?}");
    }
}

/// `Game::mover`: whose roll each chance node is — the other side's after an ordinary move or a
/// roll of 0 (spec `ur.md`: a roll with no move passes), the same side's after landing on a
/// rosette (square 4 here; "landing on any rosette gives the mover another roll"). Light starts.
#[test]
fn the_mover_owns_each_roll() {
    use madang_core::Turn;
    let game = Ur::new(&UrOptions::default(), None).expect("the default rules");
    let mut state = game.initial_state();
    let mut events = Vec::new();
    let mut play = |state: &mut UrState, text: &str| {
        game.apply(state, UrAction::from_str(text).expect("notation"), &mut events).expect("legal");
    };
    assert_eq!((game.turn(&state), game.mover(&state)), (Turn::Chance, Some(0)));
    play(&mut state, "roll 0");
    assert_eq!((game.turn(&state), game.mover(&state)), (Turn::Chance, Some(1)));
    play(&mut state, "roll 4");
    assert_eq!((game.turn(&state), game.mover(&state)), (Turn::Seat(1), Some(1)));
    play(&mut state, "move 0");
    assert_eq!((game.turn(&state), game.mover(&state)), (Turn::Chance, Some(1)), "dark's rosette roll");
    play(&mut state, "roll 1");
    play(&mut state, "move 4");
    assert_eq!((game.turn(&state), game.mover(&state)), (Turn::Chance, Some(0)), "4 → 5 is no rosette");
}

#[test]
fn a_made_up_position_with_a_huge_roll_refuses_every_move_without_panicking() {
    // A position made up outside the rules (the engine never awaits a move with a roll above
    // 4): with a roll of 200 or 255 every piece would pass the bear-off square, and with 40 the
    // shift of the whole side by the roll runs past 32 bits. No move is listed; each one asked
    // for is refused as past the bear-off (the exact roll needed is 15 − square on the Bell
    // path of 14 squares), not a panic.
    let game = Ur::new(&UrOptions::default(), None).expect("default rules");
    for roll in [40u8, 200, 255] {
        let side = Side { in_hand: 3, board: 1 << 3 | 1 << 9, borne_off: 0 };
        let state = UrState { sides: [side; 2], to_move: 0, phase: madang_ur::Phase::Move { roll } };
        let mut legal = Vec::new();
        game.legal_actions(&state, &mut legal);
        assert!(legal.is_empty(), "roll {roll}: {legal:?}");
        for from in [0u8, 3, 9] {
            let mut after = state;
            let error = game.apply_quiet(&mut after, UrAction::Move(from)).expect_err("refused");
            assert_eq!(error, madang_ur::UrError::PastBearOff { square: from, roll, needed: 15 - from });
            assert_eq!(after, state);
        }
    }
}
