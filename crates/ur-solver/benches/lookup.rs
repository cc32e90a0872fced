//! Lookup speed and perfect self-play speed (`docs/ur-solver.md`, "Figures").
//!
//! With `MADANG_UR_TABLE=FILE` the benches use that table (the full Finkel table for the real
//! figures: `madang ur solve` writes it to `<data-dir>/ur/finkel.table`); without it they solve
//! the 4-piece Finkel game first (a few seconds), whose table fits in cache and so flatters the
//! lookup figure.

#![allow(missing_docs, clippy::unwrap_used, clippy::print_stderr)]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed, uniform_below};
use madang_ur::{Preset, UrSettings};
use madang_ur_solver::{After, Position, SolveOptions, Table, read_table, solve};

fn table() -> Table {
    match std::env::var("MADANG_UR_TABLE") {
        Ok(path) => read_table(std::path::Path::new(&path)).unwrap(),
        Err(_) => {
            eprintln!("MADANG_UR_TABLE is not set: solving the 4-piece Finkel game for the benches");
            let settings = UrSettings { pieces: 4, ..Preset::Finkel.settings() };
            solve(settings, &SolveOptions::default()).unwrap().table
        }
    }
}

/// `n` positions spread uniformly over the table.
fn positions(table: &Table, n: usize) -> Vec<Position> {
    let mut stream = sim_game_seed(1, 1).stream("bench");
    let count = table.index().count();
    (0..n)
        .map(|_| {
            let hi = u64::from(uniform_below(&mut stream, u32::MAX));
            let lo = u64::from(uniform_below(&mut stream, u32::MAX));
            table.index().position(((hi << 32) | lo) % count).unwrap()
        })
        .collect()
}

/// One game between two perfect players, dice from the seed's chance stream; returns the rolls.
fn self_play(table: &Table, game: u64) -> u32 {
    let rules = table.rules();
    let rolls = rules.rolls();
    let weights: Vec<u64> = table.settings().dice.outcomes().iter().map(|(_, w)| *w).collect();
    let mut chance = sim_game_seed(9, game).stream(CHANCE);
    let mut pos = Position { me: 0, opp: 0, me_off: 0, opp_off: 0 };
    let mut turns = 0;
    loop {
        turns += 1;
        let roll = rolls[draw_weighted(&mut chance, weights.iter().copied()).unwrap()].0;
        let best = if roll == 0 { None } else { table.best_move(&pos, roll) };
        pos = match best {
            None => pos.swapped(),
            Some((from, _)) => match rules.after(&pos, from, roll) {
                After::Win => return turns,
                After::Again(next) => next,
                After::Swap(next) => next,
            },
        };
    }
}

fn benches(c: &mut Criterion) {
    let table = table();
    let batch = positions(&table, 4096);
    let mut out = vec![0.0; batch.len()];
    let mut group = c.benchmark_group("ur_table");
    group.throughput(Throughput::Elements(batch.len() as u64));
    group.bench_function("lookup_batch_4096", |b| {
        b.iter(|| {
            table.lookup_many(&batch, &mut out);
            out[0]
        })
    });
    let many = positions(&table, 1 << 20);
    group.throughput(Throughput::Elements(4096));
    group.bench_function("lookup_batch_4096_of_1M_positions", |b| {
        let mut start = 0usize;
        b.iter_batched(
            || {
                start = (start + 4096) % many.len();
                start
            },
            |s| {
                table.lookup_many(&many[s..s + 4096], &mut out);
                out[0]
            },
            BatchSize::SmallInput,
        )
    });
    group.throughput(Throughput::Elements(100));
    let mut game = 0u64;
    group.bench_function("perfect_self_play_100_games", |b| {
        b.iter(|| {
            let mut turns = 0;
            for _ in 0..100 {
                game += 1;
                turns += self_play(&table, game);
            }
            turns
        })
    });
    group.finish();
}

criterion_group! {
    name = lookup;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(lookup);
