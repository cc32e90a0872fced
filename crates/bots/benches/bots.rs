//! Speed targets (issue 2): ≥ 100,000 random Ur games per second per core; the hard bot's time
//! per move well under 50 ms.

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use madang_bots::{Bot, RandomBot, Roster};
use madang_core::{Game, Turn};
use madang_seed::{CHANCE, Stream, draw_weighted, sim_game_seed};
use madang_ur::{Ur, UrAction, UrOptions, UrState};

/// Plays one game between `bots`, returning the number of actions.
fn play(
    game: &Ur,
    bots: &mut [Box<dyn Bot<Ur>>; 2],
    seed: u64,
    buffers: &mut (Vec<UrAction>, Vec<(UrAction, u64)>),
) -> usize {
    let s = sim_game_seed(1, seed);
    let mut chance = s.stream(CHANCE);
    let mut streams: [Stream; 2] = [s.stream("bot:light"), s.stream("bot:dark")];
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
                bots[seat].choose(game, &state, &buffers.0, &mut streams[seat])
            }
        };
        let _ = game.apply_quiet(&mut state, action);
        actions += 1;
    }
}

fn random_games(c: &mut Criterion) {
    let game = Ur::new(&UrOptions::default(), None).expect("default rules");
    let mut bots: [Box<dyn Bot<Ur>>; 2] = [Box::new(RandomBot), Box::new(RandomBot)];
    let mut buffers = (Vec::new(), Vec::new());
    let mut group = c.benchmark_group("ur");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random_game", |b| {
        b.iter(|| {
            seed += 1;
            play(&game, &mut bots, seed, &mut buffers)
        })
    });
    group.finish();
}

/// A mid-game position reached by random play, for the search benchmarks.
fn midgame(game: &Ur) -> UrState {
    let mut state = game.initial_state();
    let mut stream = sim_game_seed(7, 7).stream(CHANCE);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..60 {
        match game.turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                let i = draw_weighted(&mut stream, outcomes.iter().map(|(_, w)| *w)).unwrap_or(0);
                let _ = game.apply_quiet(&mut state, outcomes[i].0);
            }
            Turn::Seat(_) => {
                game.legal_actions(&state, &mut legal);
                let _ = game.apply_quiet(&mut state, legal[legal.len() / 2]);
            }
        }
    }
    while game.turn(&state) == Turn::Chance {
        let _ = game.apply_quiet(&mut state, UrAction::Roll(2));
    }
    state
}

fn hard_decision(c: &mut Criterion) {
    let game = Ur::new(&UrOptions::default(), None).expect("default rules");
    let state = midgame(&game);
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    let mut stream = sim_game_seed(3, 3).stream("bot:light");
    for level in ["easy", "normal", "hard"] {
        let mut bot = game.bot(level).expect("level exists");
        c.bench_function(&format!("ur/{level}_decision"), |b| {
            b.iter(|| bot.choose(&game, &state, &legal, &mut stream))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = random_games, hard_decision
}
criterion_main!(benches);
