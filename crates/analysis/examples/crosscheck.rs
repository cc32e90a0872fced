//! The estimator against the exact answer: Ur's winning chances estimated by playouts (the
//! generic estimator, as for games without a table) compared with the solved table, over random
//! positions (`docs/analysis.md`, "Is the estimator honest?").
//!
//! ```text
//! cargo run --release -p madang-analysis --example crosscheck -- [--pieces 7] [--table FILE] \
//!     [--positions 1000] [--playouts 256] [--bot NAME] [--sample 7]
//! ```
//!
//! With `--table` the table is read from the file (`madang ur solve` writes it); without, the
//! rules with `--pieces` are solved first (seconds for 3 pieces, minutes for 7). Positions are
//! taken from games between random players at a random point (chance and decision nodes alike).
//! It prints the mean absolute error of the estimate and the share of exact values inside its
//! 95 % interval (sampling error alone, and with the model margin as a review states it); and,
//! at decisions with two moves or more, a random move reviewed as the review does
//! (`review_decision`): the share where the review's best move is the table's best or within 1
//! point of it, the loss's error against the table's, and how often the table's loss lies
//! inside the stated ± and has the same grade. `--sample` picks another set of positions.

#![allow(clippy::unwrap_used, clippy::print_stdout, missing_docs)]

use std::sync::Arc;
use std::time::Instant;

use madang_analysis::{Decided, Grade, MODEL_MARGIN, Playouts, Precision, Values, review_decision};
use madang_bots::Roster;
use madang_core::{Game, Turn, Weight};
use madang_seed::{Seed, draw_weighted, uniform_below};
use madang_ur::{Preset, Ur, UrOptions, UrSettings};

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_owned())
}

fn main() {
    let pieces: u8 = arg("--pieces", "7").parse().unwrap();
    let positions: usize = arg("--positions", "1000").parse().unwrap();
    let playouts: usize = arg("--playouts", "256").parse().unwrap();
    let table = arg("--table", "");
    let settings = UrSettings { pieces, ..Preset::Finkel.settings() };
    let started = Instant::now();
    let table = if table.is_empty() {
        madang_ur_solver::solve(settings, &madang_ur_solver::SolveOptions::default()).unwrap().table
    } else {
        madang_ur_solver::read_table(std::path::Path::new(&table)).unwrap()
    };
    println!("table for {} pieces ready in {:.1} s", table.settings().pieces, started.elapsed().as_secs_f64());
    let settings = *table.settings();
    madang_bots::ur::install_table(Arc::new(table));
    let options = UrOptions { pieces: Some(i64::from(settings.pieces)), ..UrOptions::default() };
    let game = Ur::new(&options, None).unwrap();
    let mut estimator = Playouts::new::<Ur>();
    let bot = arg("--bot", "");
    if !bot.is_empty() {
        estimator.bot = bot;
    }
    // Which random positions: another seed gives another sample (to check a margin measured on
    // one sample against another).
    let sample: u8 = arg("--sample", "7").parse().unwrap();
    let mut stream = Seed([sample; 32]).stream("crosscheck");
    let (mut errors, mut inside, mut inside_stated, mut decisions, mut agree, mut within) = (Vec::new(), 0, 0, 0, 0, 0);
    let (mut loss_errors, mut loss_inside, mut same_grade, mut decision_playouts) = (Vec::new(), 0, 0, 0);
    let precision = Precision::default();
    let mut margins = Vec::new();
    let started = Instant::now();
    let mut legal = Vec::new();
    let mut outcomes: Vec<(_, Weight)> = Vec::new();
    while errors.len() < positions {
        // A random game to a random point.
        let mut state = game.initial_state();
        let steps = uniform_below(&mut stream, 120);
        for _ in 0..steps {
            let action = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    outcomes[draw_weighted(&mut stream, outcomes.iter().map(|(_, w)| *w)).unwrap()].0
                }
                Turn::Seat(_) => {
                    game.legal_actions(&state, &mut legal);
                    legal[uniform_below(&mut stream, legal.len() as u32) as usize]
                }
            };
            game.apply_quiet(&mut state, action).unwrap();
        }
        if game.turn(&state) == Turn::Terminal {
            continue;
        }
        let key = errors.len() as u64;
        let exact = game.win_chance(&state).unwrap();
        let estimate = estimator.compare(&game, std::slice::from_ref(&state), playouts, key);
        let margin = estimate.margin(0, &[(0, 1.0)]);
        let error = (estimate.means[0][0] - exact).abs();
        errors.push(error);
        margins.push(margin);
        if error <= margin {
            inside += 1;
        }
        if error <= margin.hypot(MODEL_MARGIN) {
            inside_stated += 1;
        }
        if let Turn::Seat(seat) = game.turn(&state) {
            game.legal_actions(&state, &mut legal);
            if legal.len() > 1 {
                // A random player's move, reviewed as the review does.
                let played = legal[uniform_below(&mut stream, legal.len() as u32) as usize];
                let exact_after = game.win_chances_after(&state, &legal).unwrap();
                let mover = |c: f64| if seat == 0 { c } else { 1.0 - c };
                let best_exact = exact_after.iter().map(|c| mover(*c)).fold(f64::MIN, f64::max);
                let exact_loss_of = |a: &str| {
                    100.0 * (best_exact - mover(exact_after[legal.iter().position(|l| l.to_string() == a).unwrap()]))
                };
                if let Some(Decided::Valued(review, used)) =
                    review_decision(&game, &estimator, &state, played, precision, 1_000_000 + key)
                {
                    decisions += 1;
                    decision_playouts += used;
                    let best_loss = exact_loss_of(&review.best);
                    if best_loss < 1e-9 {
                        agree += 1;
                    }
                    if best_loss < 1.0 {
                        within += 1;
                    }
                    let exact_loss = exact_loss_of(&review.action);
                    loss_errors.push((review.loss - exact_loss).abs());
                    if (review.loss - exact_loss).abs() <= review.margin.max(0.01) {
                        loss_inside += 1;
                    }
                    if Grade::of(exact_loss) == review.grade {
                        same_grade += 1;
                    }
                }
            }
        }
    }
    let n = errors.len() as f64;
    let mean = errors.iter().sum::<f64>() / n;
    let mut sorted = errors.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{} positions, {playouts} playouts each ({:.1} s): mean absolute error {:.2} points (median {:.2}, 95th percentile {:.2}); \
         mean sampling margin (95 %) ±{:.2} points; exact value inside the sampling interval {:.1} %, inside the stated interval \
         (with the model margin ±{:.0}) {:.1} %",
        errors.len(),
        started.elapsed().as_secs_f64(),
        100.0 * mean,
        100.0 * sorted[sorted.len() / 2],
        100.0 * sorted[sorted.len() * 95 / 100],
        100.0 * margins.iter().sum::<f64>() / n,
        100.0 * inside as f64 / n,
        100.0 * MODEL_MARGIN,
        100.0 * inside_stated as f64 / n,
    );
    // The model margin that would put 95 % of the exact values inside the stated interval on
    // this sample: each position needs √(error² − sampling margin²).
    let mut needed: Vec<f64> = errors.iter().zip(&margins).map(|(e, m)| (e * e - m * m).max(0.0).sqrt()).collect();
    needed.sort_by(f64::total_cmp);
    println!(
        "a model margin of ±{:.1} points would put 95 % of these exact values inside the stated interval",
        100.0 * needed[needed.len() * 95 / 100]
    );
    let d = decisions.max(1) as f64;
    let mut sorted = loss_errors.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{decisions} decisions with two positions or more, a random move played and reviewed as the review does ({:.0} playouts each on average): \
         the review's best move is the table's best in {:.1} %, within 1 point of it in {:.1} %; the loss's mean absolute error {:.2} points \
         (95th percentile {:.2}), the exact loss inside the stated ± in {:.1} %, the same grade in {:.1} %",
        decision_playouts as f64 / d,
        100.0 * agree as f64 / d,
        100.0 * within as f64 / d,
        loss_errors.iter().sum::<f64>() / d,
        sorted.get(sorted.len() * 95 / 100).copied().unwrap_or(0.0),
        100.0 * loss_inside as f64 / d,
        100.0 * same_grade as f64 / d,
    );
}
