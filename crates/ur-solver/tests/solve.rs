//! The solver against the published solution (spec `ur.md`, "Facts for testing"), the table
//! and its file, the index, and the successor function against the engine.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::sync::OnceLock;

use madang_core::{Game, Turn};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed};
use madang_ur::{Phase, Preset, Ur, UrAction, UrOptions, UrSettings};
use madang_ur_solver::{
    After, Index, Position, Rules, Solution, SolveOptions, SolverError, ValueType, read_table, read_table_for,
    residual, solve, write_table,
};
use proptest::prelude::*;

fn finkel(pieces: u8) -> UrSettings {
    UrSettings { pieces, ..Preset::Finkel.settings() }
}

/// The 1-, 2- and 3-piece Finkel solutions, with exact values, solved once per test binary.
fn solved(pieces: u8) -> &'static Solution {
    static SOLUTIONS: [OnceLock<Solution>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    SOLUTIONS[usize::from(pieces) - 1]
        .get_or_init(|| solve(finkel(pieces), &SolveOptions { keep_exact: true, ..Default::default() }).unwrap())
}

struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        TempFile(std::env::temp_dir().join(format!("madang-ur-solver-{}-{nanos}-{name}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn finkel_with_1_2_3_pieces_matches_the_published_solution() {
    for (pieces, states, percent) in [(1, 232, 53.0049839525), (2, 12_990, 51.8572907496), (3, 263_712, 51.6201102238)]
    {
        let solution = solved(pieces);
        let exact = solution.exact.as_ref().unwrap();
        assert_eq!(solution.report.states, states);
        assert_eq!(exact.len() as u64, states);
        let start =
            100.0 * exact[solution.table.index().index(&Position { me: 0, opp: 0, me_off: 0, opp_off: 0 }) as usize];
        assert!((start - percent).abs() < 1e-9, "{pieces} pieces: start {start:.12} %, published {percent} %");
        assert!((100.0 * solution.report.start_value - percent).abs() < 1e-9);
    }
}

#[test]
fn the_bellman_residual_is_below_the_tolerance() {
    for pieces in 1..=3 {
        let solution = solved(pieces);
        let r = residual(finkel(pieces), solution.exact.as_ref().unwrap()).unwrap();
        assert!(r < madang_ur_solver::DEFAULT_TOLERANCE, "{pieces} pieces: residual {r:e}");
        assert!(solution.report.residual < madang_ur_solver::DEFAULT_TOLERANCE);
    }
}

/// Keeping a pair's moves from sweep to sweep (`SolveOptions::move_cache`) is a speed-up only:
/// with none kept, with part kept (a budget of 64 KiB, far below the pairs' needs) and with all
/// kept, the 3-piece Finkel solve gives the published start value and every solve (the Masters
/// path too) passes the Bellman residual check, which works the moves out on its own.
#[test]
fn moves_kept_in_part_or_not_at_all_give_the_same_solution() {
    let published = 51.6201102238;
    let blitz = UrSettings { pieces: 2, ..Preset::Blitz.settings() };
    for move_cache in [0, 64 << 10, madang_ur_solver::DEFAULT_MOVE_CACHE] {
        for settings in [finkel(3), blitz] {
            let solution =
                solve(settings, &SolveOptions { keep_exact: true, move_cache, ..Default::default() }).unwrap();
            let r = residual(settings, solution.exact.as_ref().unwrap()).unwrap();
            assert!(r < madang_ur_solver::DEFAULT_TOLERANCE, "move_cache {move_cache}: residual {r:e}");
            if settings == finkel(3) {
                let start = 100.0 * solution.report.start_value;
                assert!((start - published).abs() < 1e-9, "move_cache {move_cache}: start {start:.12} %");
            }
        }
    }
}

/// Extrapolation (`SolveOptions::extrapolate`) only moves where the sweeps start from: with and
/// without it the 3-piece Finkel solve and a 2-piece Masters-path solve give the same values to
/// within a few tolerances (each is within about 3 tolerances of the fixed point:
/// `docs/ur-solver.md`, "Tolerance"), and pass the Bellman residual check. It takes fewer position updates
/// (on one thread, so that the sweeps' order is fixed).
#[test]
fn extrapolated_sweeps_reach_the_same_solution_with_fewer_updates() {
    let blitz = UrSettings { pieces: 2, ..Preset::Blitz.settings() };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for settings in [finkel(3), blitz] {
        let [plain, extrapolated] = [false, true].map(|extrapolate| {
            pool.install(|| solve(settings, &SolveOptions { keep_exact: true, extrapolate, ..Default::default() }))
                .unwrap()
        });
        assert_eq!(plain.report.extrapolations, 0);
        assert!(extrapolated.report.extrapolations > 0);
        assert!(
            extrapolated.report.full_sweeps < plain.report.full_sweeps,
            "{} against {} full-table sweeps",
            extrapolated.report.full_sweeps,
            plain.report.full_sweeps
        );
        let (a, b) = (plain.exact.as_ref().unwrap(), extrapolated.exact.as_ref().unwrap());
        let worst = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        // Each within about 3 tolerances of the fixed point, errors carried from diagonal to
        // diagonal included: 1e-12 leaves room.
        assert!(worst < 1e-12, "largest difference {worst:e}");
        let r = residual(settings, b).unwrap();
        assert!(r < madang_ur_solver::DEFAULT_TOLERANCE, "residual {r:e}");
    }
}

#[test]
fn the_16_bit_table_is_within_its_quantisation_step_of_the_f64_values() {
    for pieces in 1..=3 {
        let solution = solved(pieces);
        let exact = solution.exact.as_ref().unwrap();
        let step = 1.0 / 65535.0;
        let worst = (0..exact.len()).map(|i| (solution.table.lookup(i as u64) - exact[i]).abs()).fold(0.0, f64::max);
        assert!(worst <= step / 2.0 + 1e-15, "{pieces} pieces: worst {worst:e}");
    }
}

#[test]
fn the_f32_table_is_within_single_precision_of_the_f64_values() {
    let settings = finkel(2);
    let solution =
        solve(settings, &SolveOptions { value_type: ValueType::F32, keep_exact: true, ..Default::default() }).unwrap();
    let exact = solution.exact.as_ref().unwrap();
    for (i, v) in exact.iter().enumerate() {
        assert!((solution.table.lookup(i as u64) - v).abs() <= ValueType::F32.max_error());
    }
}

#[test]
fn a_table_round_trips_through_its_file() {
    for value_type in [ValueType::U16, ValueType::F32] {
        let table = if value_type == ValueType::U16 {
            solved(2).table.clone()
        } else {
            solve(finkel(2), &SolveOptions { value_type, ..Default::default() }).unwrap().table
        };
        let file = TempFile::new(&format!("round-trip-{}.table", value_type.name()));
        write_table(&table, &file.0).unwrap();
        let size = std::fs::metadata(&file.0).unwrap().len();
        assert_eq!(size, 128 + 12_990 * value_type.size() as u64);
        let back = read_table(&file.0).unwrap();
        assert_eq!(back.header(), table.header());
        assert_eq!(back.values(), table.values());
        let back = read_table_for(&file.0, &finkel(2)).unwrap();
        assert_eq!(back.len(), 12_990);
    }
}

#[test]
fn a_table_for_other_rules_or_a_damaged_file_is_refused() {
    let file = TempFile::new("refusal.table");
    write_table(&solved(2).table, &file.0).unwrap();
    let error = read_table_for(&file.0, &finkel(3)).unwrap_err();
    assert!(matches!(error, SolverError::OtherRulesFile { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("finkel with 2 pieces") && message.contains("finkel with 3 pieces"), "{message}");
    let blitz = read_table_for(&file.0, &Preset::Blitz.settings()).unwrap_err().to_string();
    assert!(blitz.contains("blitz rules"), "{blitz}");

    let mut bytes = std::fs::read(&file.0).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file.0, &bytes).unwrap();
    let damaged = read_table(&file.0).unwrap_err().to_string();
    assert!(damaged.contains("SHA-256"), "{damaged}");
    bytes.truncate(last);
    std::fs::write(&file.0, &bytes).unwrap();
    let truncated = read_table(&file.0).unwrap_err().to_string();
    assert!(truncated.contains("truncated"), "{truncated}");
    // A position count whose size in bytes wraps round 64 bits to the file's own size (2^63 +
    // 6,495 values of 2 bytes: 12,990 bytes, as the file holds) is refused, not allocated.
    let mut bytes = std::fs::read(&file.0).unwrap();
    bytes.truncate(128 + 12_990);
    bytes[24..32].copy_from_slice(&(u64::MAX / 2 + 1 + 6_495).to_le_bytes());
    std::fs::write(&file.0, &bytes).unwrap();
    let wrapped = read_table(&file.0).unwrap_err().to_string();
    assert!(wrapped.contains("more than a file can hold"), "{wrapped}");
    bytes[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&file.0, &bytes).unwrap();
    let largest = read_table(&file.0).unwrap_err().to_string();
    assert!(largest.contains("more than a file can hold"), "{largest}");
    std::fs::write(&file.0, [b'x'; 200]).unwrap();
    let alien = read_table(&file.0).unwrap_err().to_string();
    assert!(alien.contains("MADANGUR"), "{alien}");
}

#[test]
fn blitz_and_masters_have_the_published_state_counts() {
    assert_eq!(Index::new(&Preset::Finkel.settings()).count(), 137_892_016);
    assert_eq!(Index::new(&Preset::Blitz.settings()).count(), 41_254_034);
    assert_eq!(Index::new(&Preset::Masters.settings()).count(), 500_981_472);
}

#[test]
fn every_index_of_small_games_unranks_and_ranks_back() {
    for settings in [finkel(1), finkel(2), UrSettings { pieces: 2, ..Preset::Masters.settings() }] {
        let index = Index::new(&settings);
        for i in 0..index.count() {
            let pos = index.position(i).unwrap();
            assert!(index.is_valid(&pos), "{pos:?}");
            assert_eq!(index.index(&pos), i, "{pos:?}");
        }
        assert_eq!(index.position(index.count()), None);
    }
}

fn all_settings() -> Vec<UrSettings> {
    let mut out = Vec::new();
    for preset in [Preset::Finkel, Preset::Blitz, Preset::Masters] {
        for pieces in [1, 3, 5, 7] {
            out.push(UrSettings { pieces, ..preset.settings() });
        }
    }
    out.push(UrSettings { safe_rosettes: true, capture_extra_roll: true, ..Preset::Masters.settings() });
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn ranking_and_unranking_are_inverse(which in 0usize..13, fraction in 0.0f64..1.0) {
        let settings = all_settings()[which];
        let index = Index::new(&settings);
        let i = ((index.count() as f64 * fraction) as u64).min(index.count() - 1);
        let pos = index.position(i).unwrap();
        prop_assert!(index.is_valid(&pos));
        prop_assert_eq!(index.index(&pos), i);
    }
}

/// Plays seeded random games with the engine and checks, at every roll, that the solver's
/// legal moves and successors are the engine's.
#[test]
fn the_successor_function_is_the_engines() {
    for (k, settings) in all_settings().into_iter().enumerate() {
        let game = Ur::from_settings(settings);
        let rules = Rules::new(settings).unwrap();
        let index = Index::new(&settings);
        let mut checked = 0;
        for g in 0..40 {
            let mut stream = sim_game_seed(k as u64, g).stream(CHANCE);
            let mut state = game.initial_state();
            let mut legal = Vec::new();
            let mut outcomes = Vec::new();
            while game.turn(&state) != Turn::Terminal {
                if state.phase == Phase::Roll {
                    let pos = rules.position(&state).unwrap().unwrap();
                    assert!(index.is_valid(&pos));
                    assert_eq!(rules.state(&pos, state.to_move), state);
                    for &(roll, _) in settings.dice.outcomes() {
                        let mut after_roll = state;
                        game.apply_quiet(&mut after_roll, UrAction::Roll(roll)).unwrap();
                        let mask = if roll == 0 { 0 } else { rules.movable(&pos, roll) };
                        if after_roll.phase != (Phase::Move { roll }) {
                            assert_eq!(mask, 0, "{state:?} roll {roll}: the engine passes");
                            continue;
                        }
                        game.legal_actions(&after_roll, &mut legal);
                        let engine: Vec<u8> = legal
                            .iter()
                            .map(|a| match a {
                                UrAction::Move(f) => *f,
                                UrAction::Roll(_) => 99,
                            })
                            .collect();
                        let solver: Vec<u8> = (0..32).filter(|b| mask & (1 << b) != 0).collect();
                        assert_eq!(engine, solver, "{state:?} roll {roll}");
                        for &from in &engine {
                            let mut next = after_roll;
                            game.apply_quiet(&mut next, UrAction::Move(from)).unwrap();
                            let expected = match next.phase {
                                Phase::Won { .. } => After::Win,
                                _ => {
                                    let p = rules.position(&next).unwrap().unwrap();
                                    if next.to_move == state.to_move { After::Again(p) } else { After::Swap(p) }
                                }
                            };
                            assert_eq!(rules.after(&pos, from, roll), expected, "{state:?} roll {roll} move {from}");
                            checked += 1;
                        }
                    }
                }
                let action = match game.turn(&state) {
                    Turn::Chance => {
                        game.chance_outcomes(&state, &mut outcomes);
                        outcomes[draw_weighted(&mut stream, outcomes.iter().map(|(_, w)| *w)).unwrap()].0
                    }
                    _ => {
                        game.legal_actions(&state, &mut legal);
                        legal[draw_weighted(&mut stream, legal.iter().map(|_| 1)).unwrap()]
                    }
                };
                game.apply_quiet(&mut state, action).unwrap();
            }
        }
        assert!(checked > 1000, "{settings:?}: only {checked} moves checked");
    }
}

#[test]
fn win_chances_of_engine_states_come_from_the_table() {
    let solution = solved(3);
    let table = &solution.table;
    let game = Ur::new(&UrOptions { pieces: Some(3), ..UrOptions::default() }, None).unwrap();
    let start = game.initial_state();
    let light = table.win_chance(&game, &start, 0).unwrap();
    assert!((light - solution.report.start_value).abs() <= ValueType::U16.max_error());
    assert!((table.win_chance(&game, &start, 1).unwrap() - (1.0 - light)).abs() < 1e-12);
    // After a roll the chance is the best move's; the roll's average is the value before it.
    let mut average = 0.0;
    for &(roll, weight) in game.settings().dice.outcomes() {
        let mut s = start;
        game.apply_quiet(&mut s, UrAction::Roll(roll)).unwrap();
        average += weight as f64 / 16.0 * table.win_chance(&game, &s, 0).unwrap();
    }
    assert!((average - light).abs() < 1e-4, "{average} vs {light}");
    let other = Ur::new(&UrOptions::default(), None).unwrap();
    assert!(matches!(table.win_chance(&other, &other.initial_state(), 0), Err(SolverError::OtherRules { .. })));
}

#[test]
fn bad_tolerances_are_refused() {
    // 2e-16 is below what f64 sweeps settle to: a 1-piece solve with it never stopped. Above
    // 1e-6 values could be off by more than half a u16 step.
    for tolerance in [0.0, -1.0, 1.0, f64::NAN, f64::INFINITY, 2e-16, 9.9e-15, 1.1e-6, 0.5] {
        let result = solve(finkel(1), &SolveOptions { tolerance, ..Default::default() });
        assert!(matches!(result, Err(SolverError::BadTolerance(_))));
    }
}
