//! Fits and checks a game's calibrated evaluation, the one that cuts the analysis's playouts
//! short (`madang_bots::evaluation`; `docs/analysis.md`, "A faster estimator").
//!
//! ```text
//! cargo run --release -p madang-analysis --example evaluation -- fit GAME [--players N] [--games 20000]
//! cargo run --release -p madang-analysis --example evaluation -- record GAME [--players N] [--seed 1] > FILE
//! cargo run --release -p madang-analysis --example evaluation -- bias GAME [--players N] [--games 4] \
//!     [--playouts 4000] [--horizon H]
//! ```
//!
//! GAME is `ludo` or `yut` (with `--players 2|3|4`, or `--mode team-shared|team-separate` and
//! `--players 4|6|8`). `fit` plays games between the rollout bots
//! (seeded), takes every fourth position where a roll or throw is awaited (and the game's
//! features cover), labels it with the
//! side that won, and fits the conditional logit's weights by Newton's method on half of the
//! positions; it prints the weights, the other half's log loss (against the uniform guess and
//! the features' constant-free baseline) and a calibration table. `bias` reviews every
//! decision of a few games between `normal` bots twice on the same random numbers, with whole
//! playouts and with cut ones, and prints how far the cut playouts' differences between moves
//! are from the whole ones', against the sampling error of that comparison, and what a playout
//! costs each way. `record` prints a game between `normal` bots as a record file (for
//! `madang review`).

#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, clippy::needless_range_loop, missing_docs)]

use std::time::Instant;

use madang_analysis::{Playouts, Values};
use madang_bots::{Roster, chances_from};
use madang_core::{Game, Outcome, Turn, Weight};
use madang_seed::{Seed, draw_weighted};

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned()).unwrap_or_else(|| default.to_owned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (command, name) = (args.get(1).cloned().unwrap_or_default(), args.get(2).cloned().unwrap_or_default());
    let players: Option<usize> = arg("--players", "").parse().ok();
    match name.as_str() {
        "ludo" => run(
            &command,
            &madang_ludo::Ludo::new(&Default::default(), None).unwrap(),
            madang_bots::ludo::EVALUATION.names,
        ),
        "yut" => {
            // `--mode team-shared|team-separate` (players 4, 6 or 8).
            let mode = match arg("--mode", "individual").as_str() {
                "team-shared" => Some(madang_yut::Mode::TeamShared),
                "team-separate" => Some(madang_yut::Mode::TeamSeparate),
                _ => None,
            };
            let game = madang_yut::Yut::new(&madang_yut::YutOptions { mode, ..Default::default() }, players).unwrap();
            run(&command, &game, madang_bots::yut::FEATURE_NAMES)
        }
        _ => eprintln!("usage: evaluation fit|bias ludo|yut [--players N] …"),
    }
}

/// `names`: the game's feature names (a rule set without fitted weights yet has its features).
fn run<G: Roster>(command: &str, game: &G, names: &[&str]) {
    match command {
        "fit" => fit(game, names),
        "bias" => bias(game),
        "record" => {
            // A game between `normal` bots as a record file, for `madang review`.
            let seed: u8 = arg("--seed", "1").parse().unwrap();
            let history = madang_bots::play_game(game, &["normal"], &Seed([seed; 32]), 100_000).unwrap();
            let actions: Vec<String> = history.iter().map(|a| format!("\"{a}\"")).collect();
            let mode = arg("--mode", "individual");
            let rules = if mode == "individual" { "{}".to_owned() } else { format!(r#"{{"mode": "{mode}"}}"#) };
            println!(
                "{{\"game\": \"{}\", \"rules\": {rules}, \"players\": {}, \"actions\": [{}]}}",
                G::NAME,
                game.seat_names().len(),
                actions.join(", ")
            );
        }
        _ => eprintln!("usage: evaluation fit|bias ludo|yut [--players N] …"),
    }
}

/// The winning side of a finished game, if one won.
fn winner<G: Game>(game: &G, state: &G::State) -> Option<usize> {
    match game.outcome(state)? {
        Outcome::Winner(side) => Some(side),
        Outcome::Ranking(order) => order.first().copied(),
        _ => None,
    }
}

/// Positions (features, sides × k) where a roll is awaited, every `every`-th, from `games`
/// games between rollout bots, each with the side that won.
fn labelled<G: Roster>(game: &G, games: usize, every: usize) -> Vec<(Vec<f64>, usize)> {
    let seats = game.seat_names().len();
    let mut samples = Vec::new();
    let mut legal = Vec::new();
    let mut outcomes: Vec<(G::Action, Weight)> = Vec::new();
    for g in 0..games {
        let seed = Seed([0; 32]);
        let mut bots: Vec<_> = (0..seats).map(|_| game.bot(G::rollout_bot()).unwrap()).collect();
        let mut streams: Vec<_> = (0..seats).map(|s| seed.stream(&format!("fit:{g}:bot:{s}"))).collect();
        let mut chance = seed.stream(&format!("fit:{g}:chance"));
        let mut state = game.initial_state();
        let mut taken = Vec::new();
        let mut count = 0;
        loop {
            let action = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    count += 1;
                    if count % every == 0 {
                        let mut features = Vec::new();
                        game.evaluation_features(&state, &mut features);
                        if !features.is_empty() {
                            taken.push(features);
                        }
                    }
                    game.chance_outcomes(&state, &mut outcomes);
                    outcomes[draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).unwrap()].0
                }
                Turn::Seat(s) => {
                    game.legal_actions(&state, &mut legal);
                    bots[s].choose(game, &state, &legal, &mut streams[s])
                }
            };
            game.apply_quiet(&mut state, action).unwrap();
        }
        if let Some(side) = winner(game, &state) {
            samples.extend(taken.into_iter().map(|f| (f, side)));
        }
    }
    samples
}

/// Mean log loss of `weights` on `samples` (natural log).
fn log_loss(samples: &[(Vec<f64>, usize)], weights: &[f64]) -> f64 {
    let mut chances = Vec::new();
    samples
        .iter()
        .map(|(f, won)| {
            chances_from(f, weights, &mut chances);
            -chances[*won].max(1e-12).ln()
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// Maximum-likelihood weights of the conditional logit by Newton's method.
fn newton(samples: &[(Vec<f64>, usize)], k: usize) -> Vec<f64> {
    let mut w = vec![0.0; k];
    let mut chances = Vec::new();
    for _ in 0..30 {
        let mut gradient = vec![0.0; k];
        let mut hessian = vec![vec![0.0; k]; k];
        for (f, won) in samples {
            chances_from(f, &w, &mut chances);
            let sides = chances.len();
            let mut mean = vec![0.0; k];
            for s in 0..sides {
                for j in 0..k {
                    mean[j] += chances[s] * f[s * k + j];
                }
            }
            for j in 0..k {
                gradient[j] += f[won * k + j] - mean[j];
            }
            for s in 0..sides {
                for a in 0..k {
                    for b in 0..k {
                        hessian[a][b] += chances[s] * (f[s * k + a] - mean[a]) * (f[s * k + b] - mean[b]);
                    }
                }
            }
        }
        // w += H⁻¹ g (H is minus the log-likelihood's Hessian), by Gaussian elimination with
        // a little ridge for features that never vary.
        for (j, row) in hessian.iter_mut().enumerate() {
            row[j] += 1e-6;
        }
        let step = solve(hessian, gradient);
        let size: f64 = step.iter().map(|x| x * x).sum::<f64>().sqrt();
        w.iter_mut().zip(&step).for_each(|(w, s)| *w += s);
        if size < 1e-9 {
            break;
        }
    }
    w
}

fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let pivot = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap();
        a.swap(c, pivot);
        b.swap(c, pivot);
        for r in 0..n {
            if r != c && a[c][c] != 0.0 {
                let factor = a[r][c] / a[c][c];
                for j in c..n {
                    a[r][j] -= factor * a[c][j];
                }
                b[r] -= factor * b[c];
            }
        }
    }
    (0..n).map(|i| if a[i][i] == 0.0 { 0.0 } else { b[i] / a[i][i] }).collect()
}

fn fit<G: Roster>(game: &G, names: &[&str]) {
    let current = game.evaluation().map_or(&[][..], |e| e.weights);
    let games: usize = arg("--games", "20000").parse().unwrap();
    let started = Instant::now();
    let samples = labelled(game, games, 4);
    let (train, test): (Vec<_>, Vec<_>) = samples.iter().cloned().enumerate().partition(|(i, _)| i % 2 == 0);
    let train: Vec<_> = train.into_iter().map(|(_, s)| s).collect();
    let test: Vec<_> = test.into_iter().map(|(_, s)| s).collect();
    println!("{} positions from {games} games in {:.1} s", samples.len(), started.elapsed().as_secs_f64());
    let k = names.len();
    let weights = newton(&train, k);
    let sides = samples[0].0.len() / k;
    println!(
        "weights: {}",
        names.iter().zip(&weights).map(|(n, w)| format!("{n} {w:.4}")).collect::<Vec<_>>().join(", ")
    );
    println!("weights as code: &[{}]", weights.iter().map(|w| format!("{w:.4}")).collect::<Vec<_>>().join(", "));
    println!(
        "held-out log loss {:.4} (uniform guess {:.4}; the weights in the code now {})",
        log_loss(&test, &weights),
        (sides as f64).ln(),
        if current.is_empty() { "none".to_owned() } else { format!("{:.4}", log_loss(&test, current)) }
    );
    // Calibration: every side's predicted chance in tenths against how often it won.
    let mut bins = vec![(0.0, 0.0, 0usize); 10];
    let mut chances = Vec::new();
    for (f, won) in &test {
        chances_from(f, &weights, &mut chances);
        for (s, c) in chances.iter().enumerate() {
            let bin = &mut bins[((c * 10.0) as usize).min(9)];
            bin.0 += c;
            bin.1 += if s == *won { 1.0 } else { 0.0 };
            bin.2 += 1;
        }
    }
    for (i, (predicted, won, n)) in bins.iter().enumerate() {
        if *n > 0 {
            println!(
                "  predicted {:>3}-{:>3} %: mean {:5.1} %, won {:5.1} % ({n} cases)",
                i * 10,
                i * 10 + 10,
                100.0 * predicted / *n as f64,
                100.0 * won / *n as f64
            );
        }
    }
}

fn bias<G: Roster>(game: &G) {
    let games: usize = arg("--games", "4").parse().unwrap();
    let playouts: usize = arg("--playouts", "4000").parse().unwrap();
    let mut whole = Playouts::new::<G>();
    whole.cut = false;
    let mut cut = Playouts::new::<G>();
    cut.horizon = arg("--horizon", "").parse().ok();
    let (mut differences, mut noise, mut decisions) = (Vec::new(), Vec::new(), 0);
    let (mut whole_time, mut cut_time, mut whole_margin, mut cut_margin) = (0.0, 0.0, 0.0, 0.0);
    let mut legal = Vec::new();
    for g in 0..games {
        let history = madang_bots::play_game(game, &["normal"], &Seed([g as u8 + 1; 32]), 100_000).unwrap();
        let mut state = game.initial_state();
        for (index, action) in history.iter().enumerate() {
            if let Turn::Seat(seat) = game.turn(&state) {
                game.legal_actions(&state, &mut legal);
                let mut after: Vec<G::State> = Vec::new();
                for a in &legal {
                    let mut next = state.clone();
                    game.apply_quiet(&mut next, *a).unwrap();
                    if !after.contains(&next) {
                        after.push(next);
                    }
                }
                if after.len() > 1 {
                    decisions += 1;
                    let side = game.side_of_seat(seat);
                    let key = (g * 100_000 + index) as u64;
                    let started = Instant::now();
                    let w = whole.compare(game, &after, playouts, key);
                    whole_time += started.elapsed().as_secs_f64();
                    let started = Instant::now();
                    let c = cut.compare(game, &after, playouts, key);
                    cut_time += started.elapsed().as_secs_f64();
                    // Each move against the first, in points, both ways.
                    for p in 1..after.len() {
                        let weights = [(p, 1.0), (0, -1.0)];
                        let dw = 100.0 * (w.means[p][side] - w.means[0][side]);
                        let dc = 100.0 * (c.means[p][side] - c.means[0][side]);
                        let (mw, mc) =
                            (100.0 * w.sampling_margin(side, &weights), 100.0 * c.sampling_margin(side, &weights));
                        whole_margin += mw;
                        cut_margin += mc;
                        differences.push(dc - dw);
                        // The sampling error of dc − dw, as a standard deviation, if the cut
                        // playouts had no bias: the two share their dice up to the cut, and past
                        // it the whole playout adds a part uncorrelated with what the evaluation
                        // expected, so its variance is the difference of the two variances.
                        noise.push((mw * mw - mc * mc).max(0.0).sqrt() / 1.96);
                    }
                }
            }
            game.apply_quiet(&mut state, *action).unwrap();
        }
    }
    let n = differences.len() as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let mae = differences.iter().map(|d| d.abs()).sum::<f64>() / n;
    let rms = (differences.iter().map(|d| d * d).sum::<f64>() / n).sqrt();
    let noise_rms = (noise.iter().map(|s| s * s).sum::<f64>() / n).sqrt();
    println!(
        "{decisions} decisions, {} move differences, {playouts} playouts per position: cut − whole mean {mean:+.2} points, \
         mean absolute {mae:.2}, rms {rms:.2}; the sampling error alone would give rms {noise_rms:.2} \
         (so the bias's rms is about {:.2}); mean 95 % margin of a difference: whole ±{:.2}, cut ±{:.2}; \
         time: whole {whole_time:.1} s, cut {cut_time:.1} s",
        differences.len(),
        (rms * rms - noise_rms * noise_rms).max(0.0).sqrt(),
        whole_margin / n,
        cut_margin / n,
    );
}
