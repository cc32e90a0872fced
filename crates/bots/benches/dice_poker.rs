//! Speed targets (issue 5): ≥ 200,000 random Seven Dice Poker games per second per core; the
//! hard bot decides in < 100 ms (p99 over whole games: `examples/dice_poker_timing.rs`).
//!
//! `random_game` plays a whole game the way `madang sim` does (a fresh game seed, its `chance`
//! and `bot:SEAT` streams, weighted draws, `RandomBot` through the `Bot` trait) and evaluates both
//! hands; the per-game figures JSON that `madang sim` also builds is not included.

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use madang_bots::dice_poker::PokerEvaluator;
use madang_bots::{Bot, Evaluator, RandomBot, Roster};
use madang_core::{Game, Turn};
use madang_dice_poker::{DicePoker, PokerAction, PokerOptions, PokerState};
use madang_seed::{CHANCE, Stream, draw_weighted, sim_game_seed};

type Buffers = (Vec<PokerAction>, Vec<(PokerAction, u64)>);

/// Plays one game between `bots`, returning the number of actions.
fn play(game: &DicePoker, bots: &mut [Box<dyn Bot<DicePoker>>; 2], seed: u64, buffers: &mut Buffers) -> usize {
    let s = sim_game_seed(1, seed);
    let mut chance = s.stream(CHANCE);
    let mut streams: [Stream; 2] = [s.stream("bot:white"), s.stream("bot:black")];
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

fn game(rules: &str) -> DicePoker {
    let options = match rules {
        "b_tokens" => {
            PokerOptions { board: Some(madang_dice_poker::BoardKind::B), tokens: Some(true), ..Default::default() }
        }
        _ => PokerOptions::default(),
    };
    DicePoker::new(&options, None).expect("valid rules")
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice_poker");
    group.throughput(Throughput::Elements(1));
    for rules in ["default", "b_tokens"] {
        let game = game(rules);
        let mut bots: [Box<dyn Bot<DicePoker>>; 2] = [Box::new(RandomBot), Box::new(RandomBot)];
        let mut buffers = (Vec::new(), Vec::new());
        let mut seed = 0;
        group.bench_function(format!("random_game/{rules}"), |b| {
            b.iter(|| {
                seed += 1;
                play(&game, &mut bots, seed, &mut buffers)
            })
        });
    }
    group.finish();
}

/// The position after `placements` random placements from seeded play, at a decision.
fn position(game: &DicePoker, placements: usize) -> PokerState {
    let mut state = game.initial_state();
    let mut stream = sim_game_seed(7, 7).stream(CHANCE);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut placed = 0;
    loop {
        match game.turn(&state) {
            Turn::Terminal => return state,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                let i = draw_weighted(&mut stream, outcomes.iter().map(|(_, w)| *w)).unwrap_or(0);
                let _ = game.apply_quiet(&mut state, outcomes[i].0);
            }
            Turn::Seat(_) if placed == placements => return state,
            Turn::Seat(_) => {
                game.legal_actions(&state, &mut legal);
                let _ = game.apply_quiet(&mut state, legal[legal.len() / 2]);
                placed += 1;
            }
        }
    }
}

fn decisions(c: &mut Criterion) {
    for rules in ["default", "b_tokens"] {
        let game = game(rules);
        // The first decision is the widest (16 cells, with tokens 32 actions); after 4 and 8
        // placements the hard bot searches deeper.
        for placements in [0, 4, 8] {
            let state = position(&game, placements);
            let mut legal = Vec::new();
            game.legal_actions(&state, &mut legal);
            let mut stream = sim_game_seed(3, 3).stream("bot:white");
            for level in ["greedy", "easy", "normal", "hard"] {
                let mut bot = game.bot(level).expect("level exists");
                c.bench_function(&format!("dice_poker/{rules}/{level}_decision/after_{placements}"), |b| {
                    b.iter(|| bot.choose(&game, &state, &legal, &mut stream))
                });
            }
        }
        let evaluator = PokerEvaluator::new(&game);
        let state = position(&game, 8);
        c.bench_function(&format!("dice_poker/{rules}/evaluate"), |b| b.iter(|| evaluator.evaluate(&game, &state, 0)));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = random_games, decisions
}
criterion_main!(benches);
