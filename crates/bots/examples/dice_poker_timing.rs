//! Decision times of a Seven Dice Poker bot over whole games: p50, p99 and the maximum.
//!
//! `cargo run --release -p madang-bots --example dice_poker_timing -- [BOT] [GAMES] [a|b] [tokens]`
//! (defaults: `hard`, 200 games, board `a`, no tokens). The bot plays both seats against itself; every decision
//! with more than one legal action is timed.

#![allow(missing_docs, clippy::print_stdout)]

use std::time::Instant;

use madang_bots::dice_poker::{Adaptive, HARD_LEAF_BUDGET};
use madang_bots::{Bot, Roster};
use madang_core::{Game, Turn};
use madang_dice_poker::{BoardKind, DicePoker, PokerOptions};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("hard", String::as_str);
    let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(200);
    let board = if args.get(3).is_some_and(|b| b == "b") { BoardKind::B } else { BoardKind::A };
    let tokens = args.get(4).is_some_and(|t| t == "tokens");
    let rules = format!("board {board:?}, tokens {tokens}");
    let options = PokerOptions { board: Some(board), tokens: Some(tokens), ..PokerOptions::default() };
    let game = match DicePoker::new(&options, None) {
        Ok(game) => game,
        Err(e) => return println!("bad rules: {e}"),
    };
    // `hard` and `adaptive:N` are built directly so the example can also count search nodes.
    let budget = match name {
        "hard" => Some(HARD_LEAF_BUDGET),
        _ => name.strip_prefix("adaptive:").and_then(|n| n.parse::<u64>().ok()).map(|n| n * 1000),
    };
    let mut adaptive = budget.map(|b| Adaptive::new(&game, b));
    let mut bot = match game.bot(name) {
        Ok(bot) => bot,
        Err(e) => return println!("{e}"),
    };
    let mut nodes = Vec::new();
    let mut times = Vec::new();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for i in 0..games {
        let seed = sim_game_seed(99, i);
        let mut chance = seed.stream(CHANCE);
        let mut stream = seed.stream("bot:white");
        let mut state = game.initial_state();
        loop {
            let action = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    let i = draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).unwrap_or(0);
                    outcomes[i].0
                }
                Turn::Seat(_) => {
                    game.legal_actions(&state, &mut legal);
                    let started = Instant::now();
                    let action = match adaptive.as_mut() {
                        Some(a) => a.choose(&game, &state, &legal, &mut stream),
                        None => bot.choose(&game, &state, &legal, &mut stream),
                    };
                    if legal.len() > 1 {
                        times.push(started.elapsed().as_secs_f64() * 1e3);
                        if let Some(a) = &adaptive {
                            nodes.push(a.search.nodes);
                        }
                    }
                    action
                }
            };
            if let Err(e) = game.apply_quiet(&mut state, action) {
                println!("REFUSED {action}: {e} at {state:?}");
                return;
            }
        }
    }
    if !nodes.is_empty() {
        nodes.sort_unstable();
        let at = |q: f64| nodes[((nodes.len() - 1) as f64 * q).round() as usize];
        let total: u64 = nodes.iter().sum();
        let seconds: f64 = times.iter().sum::<f64>() / 1e3;
        println!(
            "search nodes per decision: p50 {}, p99 {}, max {}; {:.0} ns per node",
            at(0.5),
            at(0.99),
            at(1.0),
            seconds * 1e9 / total.max(1) as f64
        );
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times.get(((times.len().saturating_sub(1)) as f64 * q).round() as usize).copied().unwrap_or(0.0);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    println!(
        "{name} ({rules}): {} decisions in {games} games: mean {mean:.2} ms, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}
