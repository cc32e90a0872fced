//! Random games per second per core, through the same code `madang sim` runs, on one thread.
//! Targets: Ur ≥ 100,000/s (issue 2), Yut ≥ 50,000/s (issue 3).

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use madang_bots::Roster;
use madang_core::Game;
use madang_sim::{SimConfig, simulate};

const GAMES: u64 = 1024;

fn bench_game<G: Roster>(c: &mut Criterion, name: &str, game: G) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("one thread");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(GAMES));
    let mut seed = 0;
    group.bench_function("random_games", |b| {
        b.iter(|| {
            seed += 1;
            let bots = vec!["random".to_owned(); game.seat_names().len()];
            let config = SimConfig { games: GAMES, seed, bots, ..SimConfig::default() };
            pool.install(|| simulate(&game, &config, &|_| {})).map(|r| r.games).unwrap_or(0)
        })
    });
    group.finish();
}

fn random_games(c: &mut Criterion) {
    bench_game(c, "ur", madang_ur::Ur::new(&Default::default(), None).expect("default rules"));
    bench_game(c, "yut", madang_yut::Yut::new(&Default::default(), None).expect("default rules"));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = random_games
}
criterion_main!(benches);
