//! Yut's fitted evaluations (`madang_bots::yut::EVALUATIONS`) apply where they were fitted and
//! measured: the default rules of a mode with three sides or more, or team-separate's two sides
//! of eight pieces, for that many players.

#![allow(clippy::unwrap_used)]

use madang_bots::Roster;
use madang_bots::yut::{EVALUATIONS, features};
use madang_core::{Game, Turn};
use madang_seed::Seed;
use madang_yut::{Mode, Yut, YutOptions};

#[test]
fn the_evaluation_is_for_the_default_rules_of_the_longer_formats() {
    let with = |options: YutOptions, players: usize| Yut::new(&options, Some(players)).unwrap().evaluation();
    let mode = |mode: Mode| YutOptions { mode: Some(mode), ..YutOptions::default() };
    let fitted = |mode: Mode, players: u8| EVALUATIONS.iter().find(|e| e.0 == mode && e.1 == players).map(|e| e.2);
    for (m, players) in [(Mode::Individual, 3), (Mode::Individual, 4), (Mode::TeamShared, 6), (Mode::TeamShared, 8)]
        .into_iter()
        .chain([(Mode::TeamSeparate, 4), (Mode::TeamSeparate, 6), (Mode::TeamSeparate, 8)])
    {
        assert!(fitted(m, players).is_some(), "{m:?} {players}");
        assert_eq!(with(mode(m), usize::from(players)), fitted(m, players), "{m:?} {players}");
    }
    // Two sides of four pieces: short games, played to the end.
    assert_eq!(with(YutOptions::default(), 2), None);
    assert_eq!(with(mode(Mode::TeamShared), 4), None);
    // Any rule changed: not what the weights were fitted on.
    assert_eq!(with(YutOptions { stick_flat: Some("1/3".to_owned()), ..YutOptions::default() }, 4), None);
    assert_eq!(with(YutOptions { pieces: Some(2), ..YutOptions::default() }, 3), None);
    assert_eq!(with(YutOptions { pieces: Some(3), ..mode(Mode::TeamShared) }, 8), None);
}

#[test]
fn features_cover_every_side_once_the_order_is_settled() {
    let game = Yut::new(&YutOptions::default(), Some(4)).unwrap();
    let k = madang_bots::yut::FEATURE_NAMES.len();
    let mut out = Vec::new();
    // While the ceremony decides the order there is nothing to evaluate.
    features(&game, &game.initial_state(), &mut out);
    assert!(out.is_empty());
    let history = madang_bots::play_game(&game, &["normal"], &Seed([2; 32]), 100_000).unwrap();
    let mut state = game.initial_state();
    let mut checked = 0;
    for action in history {
        features(&game, &state, &mut out);
        if game.turn(&state) == Turn::Chance && !out.is_empty() {
            assert_eq!(out.len(), 4 * k);
            for side in 0..4 {
                let f = &out[side * k..(side + 1) * k];
                // Steps left (hundreds) as the bots count them; pieces in hand as the state has them.
                assert!((f[0] - f64::from(madang_bots::yut::steps_left(&game, &state, side)) / 100.0).abs() < 1e-12);
                assert_eq!(f[2], f64::from(state.sides[side].hand.count_ones()));
                // Carried pieces: a stack of k pieces carries k − 1.
                let carried: u32 = state.sides[side].units.iter().map(|u| u.size() - 1).sum();
                assert_eq!(f[3], f64::from(carried));
            }
            // Exactly one side is about to throw (it waits 0 turns and is threatened by nobody).
            assert_eq!((0..4).filter(|s| out[s * k + 6] == 0.0).count(), 1);
            checked += 1;
        }
        game.apply_quiet(&mut state, action).unwrap();
    }
    assert!(checked > 20, "{checked}");
}
