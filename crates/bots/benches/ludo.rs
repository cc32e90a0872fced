//! Speed targets (issue 4): ≥ 50,000 random 4-player Ludo games per second per core; the hard
//! CPU's time per decision p99 < 1 ms.
//!
//! `cargo bench -p madang-bots --bench ludo`. Besides criterion's figures it prints the hard
//! CPU's decision-time percentiles over every decision of 2,000 hard-vs-hard games.

#![allow(missing_docs, clippy::print_stderr)]

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use madang_bots::{Bot, RandomBot, Roster};
use madang_core::{Game, Turn, Weight};
use madang_ludo::{Ludo, LudoAction, LudoState};
use madang_seed::{CHANCE, Stream, bot_stream_name, draw_weighted, sim_game_seed};

type Buffers = (Vec<LudoAction>, Vec<(LudoAction, Weight)>);

/// Plays one seeded game between `bots` (seat order), adding each bot decision's time to
/// `times` when given and each decision position to `positions` when given; returns the number
/// of actions.
fn play(
    game: &Ludo,
    bots: &mut [Box<dyn Bot<Ludo>>; 4],
    index: u64,
    buffers: &mut Buffers,
    mut times: Option<&mut Vec<Duration>>,
    mut positions: Option<&mut Vec<(LudoState, Vec<LudoAction>)>>,
) -> usize {
    let seed = sim_game_seed(1, index);
    let mut chance = seed.stream(CHANCE);
    let mut streams: [Stream; 4] = std::array::from_fn(|s| seed.stream(&bot_stream_name(&s.to_string())));
    let mut state = game.initial_state();
    let mut actions = 0;
    loop {
        let action = match game.turn(&state) {
            Turn::Terminal => return actions,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut buffers.1);
                let i = draw_weighted(&mut chance, buffers.1.iter().map(|(_, w)| *w)).unwrap_or(0);
                buffers.1[i].0
            }
            Turn::Seat(seat) => {
                game.legal_actions(&state, &mut buffers.0);
                if let Some(positions) = positions.as_deref_mut()
                    && buffers.0.len() >= 2
                {
                    positions.push((state, buffers.0.clone()));
                }
                match times.as_deref_mut() {
                    Some(times) => {
                        let t = Instant::now();
                        let action = bots[seat].choose(game, &state, &buffers.0, &mut streams[seat]);
                        times.push(t.elapsed());
                        action
                    }
                    None => bots[seat].choose(game, &state, &buffers.0, &mut streams[seat]),
                }
            }
        };
        let _ = game.apply_quiet(&mut state, action);
        actions += 1;
    }
}

fn random_games(c: &mut Criterion) {
    let game = Ludo;
    let mut bots: [Box<dyn Bot<Ludo>>; 4] = std::array::from_fn(|_| Box::new(RandomBot) as Box<dyn Bot<Ludo>>);
    let mut buffers = (Vec::new(), Vec::new());
    let mut group = c.benchmark_group("ludo");
    group.throughput(Throughput::Elements(1));
    let mut index = 0;
    group.bench_function("random_game", |b| {
        b.iter(|| {
            index += 1;
            play(&game, &mut bots, index, &mut buffers, None, None)
        })
    });
    group.finish();
}

/// Decision positions with at least two legal moves from hard-vs-hard games.
fn positions(game: &Ludo, count: usize) -> Vec<(LudoState, Vec<LudoAction>)> {
    let mut bots: [Box<dyn Bot<Ludo>>; 4] = std::array::from_fn(|_| game.bot("hard").expect("hard exists"));
    let mut buffers = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    let mut index = 0;
    while out.len() < count {
        index += 1;
        play(game, &mut bots, index, &mut buffers, None, Some(&mut out));
    }
    out.truncate(count);
    out
}

fn decisions(c: &mut Criterion) {
    let game = Ludo;
    let positions = positions(&game, 1000);
    let mut stream = sim_game_seed(3, 3).stream("bot:0");
    for level in ["easy", "normal", "hard", "advance"] {
        let mut bot = game.bot(level).expect("level exists");
        let mut i = 0;
        c.bench_function(&format!("ludo/{level}_decision"), |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                let (state, legal) = &positions[i];
                bot.choose(&game, state, legal, &mut stream)
            })
        });
    }
    hard_decision_percentiles(&game);
}

/// Every hard decision of 2,000 hard-vs-hard games, timed one by one.
fn hard_decision_percentiles(game: &Ludo) {
    let mut bots: [Box<dyn Bot<Ludo>>; 4] = std::array::from_fn(|_| game.bot("hard").expect("hard exists"));
    let mut buffers = (Vec::new(), Vec::new());
    let mut times: Vec<Duration> = Vec::new();
    for index in 0..2000 {
        play(game, &mut bots, 10_000 + index, &mut buffers, Some(&mut times), None);
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    eprintln!(
        "ludo/hard decision time over {} decisions: median {:?}, p99 {:?}, p99.9 {:?}, max {:?}",
        times.len(),
        at(0.5),
        at(0.99),
        at(0.999),
        times[times.len() - 1]
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = random_games, decisions
}
criterion_main!(benches);
