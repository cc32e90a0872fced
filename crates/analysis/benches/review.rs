//! Speed targets (issue 16, `docs/analysis.md` "Speed"): a whole game reviewed on 2 cores in
//! ≤ 0.1 s for Ur with a solved table, ≤ 10 s for Yut, Ludo and Seven Dice Poker estimated at
//! the default precision (each loss within ±2 points, 95 %).
//!
//! Each game is played between the game's `normal` bots from a fixed seed and reviewed as the
//! web page and `madang review` do (`Precision::default()`). Ur's table is the 4-piece Finkel
//! table solved at start (seconds), or the file named by `MADANG_BENCH_UR_TABLE` (the 7-piece
//! one that `madang ur solve` writes, 276 MB) with the rules it was solved for. Ludo and
//! 4-player Yut are estimated with cut playouts (their fitted evaluations).

#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use madang_analysis::{Exact, Playouts, Precision, Values, review};
use madang_bots::Roster;
use madang_core::Game;
use madang_seed::Seed;

fn bench_review<G: Roster>(c: &mut Criterion, name: &str, game: &G, values: &dyn Values<G>, actions: usize) {
    let history = madang_bots::play_game(game, &["normal"], &Seed([1; 32]), actions).unwrap();
    c.bench_function(&format!("review/{name}/{}_actions", history.len()), |b| {
        b.iter(|| review(game, &history, values, Precision::default(), &mut |_, _| {}).unwrap())
    });
}

fn ur_exact(c: &mut Criterion) {
    use madang_ur::{Preset, Ur, UrOptions, UrSettings};
    let table = match std::env::var("MADANG_BENCH_UR_TABLE") {
        Ok(path) => madang_ur_solver::read_table(std::path::Path::new(&path)).unwrap(),
        Err(_) => {
            let settings = UrSettings { pieces: 4, ..Preset::Finkel.settings() };
            madang_ur_solver::solve(settings, &madang_ur_solver::SolveOptions::default()).unwrap().table
        }
    };
    let pieces = table.settings().pieces;
    madang_bots::ur::install_table(Arc::new(table));
    let game = Ur::new(&UrOptions { pieces: Some(i64::from(pieces)), ..UrOptions::default() }, None).unwrap();
    bench_review(c, &format!("ur_{pieces}_pieces_exact"), &game, &Exact, usize::MAX);
}

fn estimated(c: &mut Criterion) {
    let dice_poker = madang_dice_poker::DicePoker::new(&Default::default(), None).unwrap();
    bench_review(c, "dice_poker_estimated", &dice_poker, &Playouts::new::<madang_dice_poker::DicePoker>(), usize::MAX);
    let yut = madang_yut::Yut::new(&Default::default(), None).unwrap();
    bench_review(c, "yut_estimated", &yut, &Playouts::new::<madang_yut::Yut>(), usize::MAX);
    let yut = madang_yut::Yut::new(&Default::default(), Some(4)).unwrap();
    bench_review(c, "yut_4_players_estimated", &yut, &Playouts::new::<madang_yut::Yut>(), usize::MAX);
    let ludo = madang_ludo::Ludo::new(&Default::default(), None).unwrap();
    bench_review(c, "ludo_estimated", &ludo, &Playouts::new::<madang_ludo::Ludo>(), usize::MAX);
}

criterion_group! {
    name = exact;
    config = Criterion::default();
    targets = ur_exact
}
criterion_group! {
    name = playouts;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(20));
    targets = estimated
}
criterion_main!(exact, playouts);
