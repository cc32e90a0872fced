//! Ur's expectimax works its last ply and the roll before it out without making the moves
//! (`UrEvaluator::last_ply`, `UrEvaluator::last_chance`):
//! it must give exactly what making each move and scoring the position gives, for every rule
//! set, and the search must then value (and so play) every position as before.

#![allow(clippy::unwrap_used)]

use madang_bots::ur::UrEvaluator;
use madang_bots::{Evaluator, Expectimax};
use madang_core::{Game, Turn};
use madang_seed::Seed;
use madang_ur::{Phase, Preset, Ur, UrAction, UrOptions, UrState};

/// Every preset, and the options that change what a move does (safe rosettes, a roll for a
/// capture), on both paths, with few pieces so that games reach bearing off and winning.
fn rule_sets() -> Vec<Ur> {
    let mut options = Vec::new();
    for preset in [Preset::Finkel, Preset::Blitz, Preset::Masters] {
        options.push(UrOptions { preset: Some(preset), ..UrOptions::default() });
        options.push(UrOptions { preset: Some(preset), pieces: Some(2), ..UrOptions::default() });
        options.push(UrOptions {
            preset: Some(preset),
            safe_rosettes: Some(preset != Preset::Finkel),
            capture_extra_roll: Some(preset == Preset::Finkel),
            ..UrOptions::default()
        });
    }
    options.into_iter().map(|o| Ur::new(&o, Some(2)).unwrap()).collect()
}

/// The positions of a few seeded games between random players (every position, in order).
fn positions(game: &Ur, games: u8) -> Vec<UrState> {
    let mut out = Vec::new();
    for g in 0..games {
        let history = madang_bots::play_game(game, &["random"], &Seed([g; 32]), 100_000).unwrap();
        let mut state = game.initial_state();
        out.push(state);
        for action in history {
            game.apply_quiet(&mut state, action).unwrap();
            out.push(state);
        }
    }
    out
}

/// Every `every`-th position of one seeded random game under each rule set where a seat is to
/// move, with its legal actions.
fn decisions(every: usize) -> Vec<(Ur, UrState, Vec<UrAction>)> {
    let mut out = Vec::new();
    for game in rule_sets() {
        for (i, state) in positions(&game, 1).into_iter().enumerate() {
            if i % every == 0 && matches!(game.turn(&state), Turn::Seat(_)) {
                let mut legal = Vec::new();
                game.legal_actions(&state, &mut legal);
                out.push((game.clone(), state, legal));
            }
        }
    }
    out
}

/// Values as their bits, for exact comparison.
fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|x| x.to_bits()).collect()
}

/// An evaluator that scores as [`UrEvaluator`] but leaves the last ply to the search.
struct Plain;

impl Evaluator<Ur> for Plain {
    fn evaluate(&self, game: &Ur, state: &UrState, seat: usize) -> f64 {
        UrEvaluator.evaluate(game, state, seat)
    }
}

/// A chance node's value with one turn left, by definition: make each roll, then each move,
/// score the positions for `root`, keep the mover's best after each roll, and take the mean
/// weighted by the rolls' chances.
fn last_chance_by_definition(game: &Ur, state: &UrState, root: usize) -> f64 {
    let (mut outcomes, mut legal) = (Vec::new(), Vec::new());
    game.chance_outcomes(state, &mut outcomes);
    let (mut sum, mut total) = (0.0, 0.0);
    for &(roll, weight) in &outcomes {
        let mut rolled = *state;
        game.apply_quiet(&mut rolled, roll).unwrap();
        let value = match game.turn(&rolled) {
            Turn::Seat(seat) => {
                game.legal_actions(&rolled, &mut legal);
                let scores = legal.iter().map(|&a| {
                    let mut child = rolled;
                    game.apply_quiet(&mut child, a).unwrap();
                    UrEvaluator.evaluate(game, &child, root)
                });
                if seat == root {
                    scores.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    scores.fold(f64::INFINITY, f64::min)
                }
            }
            _ => UrEvaluator.evaluate(game, &rolled, root),
        };
        total += weight as f64;
        sum += weight as f64 * value;
    }
    sum / total
}

#[test]
fn a_roll_with_one_turn_left_is_the_mean_of_the_rolls_last_plies() {
    let mut checked = 0;
    for game in rule_sets() {
        for state in positions(&game, 4) {
            if game.turn(&state) != Turn::Chance {
                assert_eq!(UrEvaluator.last_chance(&game, &state, 0), None);
                continue;
            }
            for root in 0..2 {
                let (value, _) = UrEvaluator.last_chance(&game, &state, root).unwrap();
                let expected = last_chance_by_definition(&game, &state, root);
                assert_eq!(value.to_bits(), expected.to_bits(), "{state:?} root {root}");
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn the_last_ply_is_the_best_score_of_the_moves_made() {
    let mut legal = Vec::new();
    let (mut checked, mut wins, mut captures) = (0, 0, 0);
    for game in rule_sets() {
        for state in positions(&game, 6) {
            let Turn::Seat(seat) = game.turn(&state) else {
                assert_eq!(UrEvaluator.last_ply(&game, &state, 0, 0), None);
                continue;
            };
            game.legal_actions(&state, &mut legal);
            for root in 0..2 {
                // By definition: make each move, score the position for the root seat, keep the
                // mover's best.
                let scores: Vec<f64> = legal
                    .iter()
                    .map(|&a| {
                        let mut child = state;
                        game.apply_quiet(&mut child, a).unwrap();
                        assert!(matches!(child.phase, Phase::Roll | Phase::Won { .. }));
                        UrEvaluator.evaluate(&game, &child, root)
                    })
                    .collect();
                let best = if seat == root {
                    scores.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                } else {
                    scores.iter().copied().fold(f64::INFINITY, f64::min)
                };
                let (value, children) = UrEvaluator.last_ply(&game, &state, seat, root).unwrap();
                assert_eq!(value.to_bits(), best.to_bits(), "{state:?} root {root}: {scores:?}");
                assert_eq!(children, legal.len() as u64);
                wins += usize::from(best.abs() == 1000.0);
                checked += 1;
            }
            let base = UrEvaluator.evaluate(&game, &state, seat);
            let Phase::Move { roll } = state.phase else { unreachable!() };
            captures += usize::from(legal.iter().any(|&a| {
                let mut child = state;
                game.apply_quiet(&mut child, a).unwrap();
                let score = UrEvaluator.evaluate(&game, &child, seat);
                score.abs() < 1000.0 && score > base + f64::from(roll)
            }));
        }
    }
    // The positions cover winning moves and captures, not just quiet moves.
    assert!(checked > 5_000, "{checked}");
    assert!(wins > 50, "{wins}");
    assert!(captures > 200, "{captures}");
}

#[test]
fn the_search_values_every_move_as_when_it_makes_the_last_moves() {
    let mut checked = 0;
    for (game, state, legal) in decisions(3) {
        // A decision with no depth left is the last ply itself.
        for root in 0..2 {
            let mut fast = Expectimax::new(1, UrEvaluator);
            let mut plain = Expectimax::new(1, Plain);
            let value = fast.value(&game, &state, 0, root);
            assert_eq!(value.to_bits(), plain.value(&game, &state, 0, root).to_bits(), "{state:?}");
            assert_eq!(fast.nodes, plain.nodes, "{state:?}");
        }
        // Depth 2 (`normal`) and 3: rolls with one turn left, below one and two decisions.
        for depth in [2, 3] {
            let mut fast = Expectimax::new(depth, UrEvaluator);
            let mut plain = Expectimax::new(depth, Plain);
            let values = fast.action_values(&game, &state, &legal);
            let expected = plain.action_values(&game, &state, &legal);
            assert_eq!(bits(&values), bits(&expected), "{state:?} depth {depth}");
            // The same nodes are counted, so a node budget cuts the search at the same place.
            assert_eq!(fast.nodes, plain.nodes, "{state:?} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_search_cut_short_by_its_node_budget_values_the_moves_as_before() {
    let mut cut = 0;
    for (game, state, legal) in decisions(7) {
        let mut fast = Expectimax::new(5, UrEvaluator);
        let mut plain = Expectimax::new(5, Plain);
        fast.max_nodes = 400;
        plain.max_nodes = 400;
        let values = fast.action_values(&game, &state, &legal);
        let expected = plain.action_values(&game, &state, &legal);
        assert_eq!(bits(&values), bits(&expected), "{state:?}");
        cut += usize::from(plain.nodes > plain.max_nodes);
    }
    // Most of these searches ran out of nodes at some level.
    assert!(cut > 50, "{cut}");
}
