//! Cut playouts (scored by a game's fitted evaluation after a horizon) against whole playouts:
//! both estimate the same chances, so at a position they must agree within their sampling
//! errors; and their differences between moves are far more precise for the same playouts.

#![allow(clippy::unwrap_used)]

use madang_analysis::{Playouts, Values};
use madang_bots::Roster;
use madang_core::Game;
use madang_ludo::{Ludo, LudoState};
use madang_seed::Seed;

/// A Ludo position some way into a game between `normal` bots, and its legal moves' results.
fn ludo_decision() -> (Ludo, Vec<LudoState>, usize) {
    let game = Ludo::new(&Default::default(), None).unwrap();
    let history = madang_bots::play_game(&game, &["normal"], &Seed([3; 32]), 100_000).unwrap();
    let mut state = game.initial_state();
    let mut legal = Vec::new();
    for action in history {
        if let madang_core::Turn::Seat(seat) = game.turn(&state) {
            game.legal_actions(&state, &mut legal);
            let mut after: Vec<LudoState> = Vec::new();
            for a in &legal {
                let mut next = state;
                game.apply_quiet(&mut next, *a).unwrap();
                if !after.contains(&next) {
                    after.push(next);
                }
            }
            // The first decision between three different moves or more.
            if after.len() >= 3 {
                return (game, after, seat);
            }
        }
        game.apply_quiet(&mut state, action).unwrap();
    }
    unreachable!("a Ludo game between normal bots has a decision with three moves")
}

#[test]
fn cut_and_whole_playouts_agree_and_cut_ones_are_more_precise() {
    let (game, positions, seat) = ludo_decision();
    assert!(game.evaluation().is_some());
    let mut whole = Playouts::new::<Ludo>();
    whole.cut = false;
    let cut = Playouts::new::<Ludo>();
    let n = 3000;
    let w = whole.compare(&game, &positions, n, 7);
    let c = cut.compare(&game, &positions, n, 7);
    assert_eq!(w.floor(), 0.0);
    // The evaluation's documented bias (0.45 points rms), as a 95 % half-width.
    assert!((c.floor() - 1.959_964 * 0.0045).abs() < 1e-9);
    for p in 0..positions.len() {
        // Chances sum to 1 either way, a cut playout's result being the evaluation's chances.
        assert!((w.means[p].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((c.means[p].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        for side in 0..4 {
            // The same chance, estimated twice independently enough: within the combined
            // sampling error (at 99.9 %: z = 3.29 against 1.96) and the bias's margin.
            let (mw, mc) = (w.sampling_margin(side, &[(p, 1.0)]), c.sampling_margin(side, &[(p, 1.0)]));
            let allowed = (3.29 / 1.96) * mw.hypot(mc) + c.floor();
            let gap = (w.means[p][side] - c.means[p][side]).abs();
            assert!(
                gap <= allowed,
                "position {p}, side {side}: whole {:.4}, cut {:.4}, allowed {allowed:.4}",
                w.means[p][side],
                c.means[p][side]
            );
        }
    }
    // The differences between the moves, for the mover: cut playouts halve the sampling margin at
    // least (Ludo measured: ±0.37 against ±1.23 points at 4,000 playouts).
    for p in 1..positions.len() {
        let weights = [(p, 1.0), (0, -1.0)];
        assert!(
            2.0 * c.sampling_margin(seat, &weights) < w.sampling_margin(seat, &weights),
            "cut ±{:.4}, whole ±{:.4}",
            c.sampling_margin(seat, &weights),
            w.sampling_margin(seat, &weights)
        );
    }
}

#[test]
fn games_without_an_evaluation_play_playouts_to_the_end() {
    // Two-player Yut has none: every playout ends the game, so a result is one side's win (or a
    // draw's shares), never a fraction of an evaluation.
    let game = madang_yut::Yut::new(&Default::default(), None).unwrap();
    assert!(game.evaluation().is_none());
    let compared = Playouts::new::<madang_yut::Yut>().compare(&game, &[game.initial_state()], 64, 1);
    assert_eq!(compared.floor(), 0.0);
    let wins = compared.means[0][0] * 64.0;
    assert!((wins - wins.round()).abs() < 1e-9, "{wins}");
}
