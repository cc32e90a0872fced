//! The review's figures against independent answers: with Ur's solved table (exact values) the
//! account *result = initial chance + luck − own losses + others' gains* holds for each side
//! to rounding; the estimator, run on Ur without the table, is compared with the table.

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, OnceLock};

use madang_analysis::{Exact, Grade, Playouts, Precision, Values, review};
use madang_bots::Roster;
use madang_core::{Game, Turn, Weight};
use madang_seed::{Seed, draw_weighted};
use madang_ur::{Preset, Ur, UrOptions, UrSettings};
use madang_ur_solver::{SolveOptions, ValueType, solve};

/// Finkel rules with 3 pieces, solved once in `f32` (values to about 1e-7) and installed.
fn three_pieces() -> Ur {
    static SOLVED: OnceLock<()> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let settings = UrSettings { pieces: 3, ..Preset::Finkel.settings() };
        let options = SolveOptions { value_type: ValueType::F32, ..SolveOptions::default() };
        madang_bots::ur::install_table(Arc::new(solve(settings, &options).unwrap().table));
    });
    Ur::new(&UrOptions { pieces: Some(3), ..UrOptions::default() }, None).unwrap()
}

/// A whole game between two bots with seed `n`: its actions.
fn game_between(game: &Ur, bots: [&str; 2], n: u8) -> Vec<<Ur as Game>::Action> {
    madang_bots::play_game(game, &bots, &Seed([n; 32]), 10_000).unwrap()
}

#[test]
fn with_the_table_the_result_is_the_initial_chance_plus_luck_minus_losses_plus_gains() {
    let game = three_pieces();
    for n in 0..6 {
        let history = game_between(&game, ["random", "greedy"], n);
        let review = review(&game, &history, &Exact, Precision::default(), &mut |_, _| {}).unwrap();
        assert!(review.exact);
        assert_eq!(review.summary.len(), 2);
        // The initial chance is the table's, light's and dark's summing to 100.
        let light = game.win_chance(&game.initial_state()).unwrap();
        assert!((review.summary[0].initial - 100.0 * light).abs() < 1e-9);
        assert!((review.summary[0].initial + review.summary[1].initial - 100.0).abs() < 1e-9);
        for side in &review.summary {
            // The luck measured outcome by outcome is the account's: f32 values round each
            // step to ~1e-7 of a chance (1e-5 points), and a game has about a hundred steps.
            let account = side.initial + side.outcome_luck - side.loss + side.gains;
            assert!((side.result - account).abs() < 0.01, "{side:?}: {} against {account}", side.result);
            assert!(side.residual.abs() < 0.01 && (side.luck - side.outcome_luck).abs() < 0.01, "{side:?}");
        }
        // Two sides: what one side's decisions lost, the other gained.
        let (a, b) = (&review.summary[0], &review.summary[1]);
        assert!((a.loss - b.gains).abs() < 1e-9 && (b.loss - a.gains).abs() < 1e-9, "{a:?} {b:?}");
        // Luck is zero-sum too: every outcome moves the sides' chances in opposite directions.
        assert!((a.outcome_luck + b.outcome_luck).abs() < 1e-6, "{} {}", a.outcome_luck, b.outcome_luck);
        // A decision's loss is the table's: best − chosen, from the mover's side.
        for m in &review.moves {
            assert!(m.loss >= 0.0 && m.margin == 0.0);
            assert!((m.loss - 100.0 * (m.best_chance - m.chance)).abs() < 1e-9);
            assert_eq!(m.grade == Grade::Best, m.loss < 0.01, "{m:?}");
        }
    }
}

#[test]
fn the_perfect_player_gives_nothing_away() {
    let game = three_pieces();
    let history = game_between(&game, ["perfect", "random"], 9);
    let review = review(&game, &history, &Exact, Precision::default(), &mut |_, _| {}).unwrap();
    let light: Vec<_> = review.moves.iter().filter(|m| m.side == 0).collect();
    assert!(!light.is_empty());
    assert!(light.iter().all(|m| m.grade == Grade::Best && m.loss < 0.01), "{light:?}");
    assert_eq!(review.summary[0].accuracy.map(|a| a.round()), Some(100.0));
}

#[test]
fn the_estimator_agrees_with_the_table_within_its_model() {
    // The estimator as it is used for games without a table, on Ur against the table: its
    // values are close, and its intervals hold the exact values as often as docs/analysis.md
    // says (the full measurement is the `crosscheck` example).
    let game = three_pieces();
    let estimator = Playouts::new::<Ur>();
    let history = game_between(&game, ["greedy", "greedy"], 3);
    let mut state = game.initial_state();
    let (mut errors, mut inside) = (Vec::new(), 0);
    for (i, action) in history.iter().enumerate() {
        if game.turn(&state) != Turn::Terminal {
            let exact = game.win_chance(&state).unwrap();
            let estimate = estimator.compare(&game, std::slice::from_ref(&state), 256, i as u64);
            let error = (estimate.means[0][0] - exact).abs();
            if error <= estimate.margin(0, &[(0, 1.0)]).hypot(madang_analysis::MODEL_MARGIN) {
                inside += 1;
            }
            errors.push(error);
        }
        game.apply_quiet(&mut state, *action).unwrap();
    }
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    assert!(mean < 0.08, "mean absolute error {mean}");
    // 95 % intervals: over a game's few dozen positions, at least 85 % inside.
    assert!(inside as f64 >= 0.85 * errors.len() as f64, "{inside} of {}", errors.len());
}

#[test]
fn estimated_the_account_balances_on_average() {
    // The statistical counterpart of the exact identity, on Seven Dice Poker (no table): the luck
    // measured outcome by outcome and the luck the account leaves after the decisions differ
    // game by game by estimation noise, but not on average.
    use madang_dice_poker::{DicePoker, PokerOptions};
    let game = DicePoker::new(&PokerOptions::default(), None).unwrap();
    let estimator = Playouts::new::<DicePoker>();
    let precision = Precision { start: 48, most: 768, target: 3.0 };
    let mut residuals = Vec::new();
    for n in 0..10u8 {
        let seed = Seed([n; 32]);
        let mut chance = seed.stream("chance");
        let mut streams = [seed.stream("bot:0"), seed.stream("bot:1")];
        let mut players = [game.bot("random").unwrap(), game.bot("greedy").unwrap()];
        let mut state = game.initial_state();
        let (mut legal, mut outcomes): (Vec<_>, Vec<(_, Weight)>) = (Vec::new(), Vec::new());
        let mut history = Vec::new();
        while game.turn(&state) != Turn::Terminal {
            let action = match game.turn(&state) {
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    outcomes[draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).unwrap()].0
                }
                Turn::Seat(s) => {
                    game.legal_actions(&state, &mut legal);
                    players[s].choose(&game, &state, &legal, &mut streams[s])
                }
                Turn::Terminal => unreachable!(),
            };
            game.apply_quiet(&mut state, action).unwrap();
            history.push(action);
        }
        let review = review(&game, &history, &estimator, precision, &mut |_, _| {}).unwrap();
        assert!(!review.exact);
        for side in &review.summary {
            let f = |v: f64| (side.result - (side.initial + v - side.loss + side.gains)).abs();
            assert!(f(side.luck) < 1e-9, "the account balances by construction: {side:?}");
        }
        residuals.push(review.summary[0].residual);
    }
    let n = residuals.len() as f64;
    let mean = residuals.iter().sum::<f64>() / n;
    let sd = (residuals.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    // Within three standard errors of zero.
    assert!(mean.abs() <= 3.0 * sd / n.sqrt(), "mean residual {mean:.2} points, sd {sd:.2}: {residuals:?}");
}

#[test]
fn a_game_ended_before_anything_was_played_has_no_luck_and_no_margin_on_it() {
    // Resigned at the start: the result is the initial chance itself (the game did not end by
    // its rules), so luck is exactly 0 and the initial estimate's error cancels out of it,
    // while the initial chance keeps its own margin (the model's 20 points at least).
    let game = Ur::new(&UrOptions::default(), None).unwrap();
    let estimator = Playouts::new::<Ur>();
    let precision = Precision { start: 64, most: 64, target: 2.0 };
    let reviewed = review(&game, &[], &estimator, precision, &mut |_, _| {}).unwrap();
    assert!(!reviewed.finished && reviewed.moves.is_empty() && reviewed.chance.is_empty());
    for side in &reviewed.summary {
        assert_eq!((side.luck, side.luck_margin, side.loss, side.gains), (0.0, 0.0, 0.0, 0.0), "{}", side.side);
        assert!(side.initial_margin >= 100.0 * madang_analysis::MODEL_MARGIN, "{}", side.initial_margin);
        assert_eq!(side.result, side.initial);
    }
}
