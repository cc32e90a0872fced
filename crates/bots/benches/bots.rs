//! Decision time of the Ur levels (issue 2: hard well under 50 ms per move). Random games per
//! second are benchmarked in `crates/sim/benches/random_games.rs`.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use madang_bots::Roster;
use madang_core::{Game, Turn};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed};
use madang_ur::{Ur, UrAction, UrOptions, UrState};

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
    targets = hard_decision
}
criterion_main!(benches);
