//! `madang review FILE`: a game record reviewed (`docs/analysis.md`): each decision's winning
//! chances, loss and grade, each chance outcome's luck, accuracy, and luck against skill —
//! the same figures as the web page's review (`GET /api/games/{id}/review`), exact with a
//! solved Ur table, else estimated by playouts.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use madang_games::{Precision, Review};

use crate::Failure;

/// `madang review`'s arguments.
#[derive(Args)]
pub(crate) struct ReviewArgs {
    /// The record file, or `-` for standard input.
    file: PathBuf,
    /// Print the review as JSON, as the web API answers it: `{"status", "id", "game", "rules",
    /// "version", "review", "best_moves"}` (docs/api.md, "Review").
    #[arg(long)]
    json: bool,
    /// Ur: a solved table for the record's rules (default: `<data-dir>/ur/`, where `madang ur
    /// solve` writes it); without one the review is estimated.
    #[arg(long)]
    table: Option<PathBuf>,
    /// Where `madang ur solve` keeps its tables [default: the user's data directory].
    #[arg(long)]
    data_dir: Option<PathBuf>,
}

pub(crate) fn run(args: ReviewArgs) -> Result<(), Failure> {
    let record = crate::read_record(&args.file)?;
    // A solved table when there is one for the record's rules (`--table` must be there).
    crate::solve::install_table_for(
        &record.game,
        (&record.rules.to_string(), "the record's rules"),
        args.table.as_deref(),
        args.data_dir.clone(),
        (false, "--table is"),
    )?;
    let (game, _) = madang_games::play_record(&record).map_err(anyhow::Error::from)?;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(record.actions.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("reviewing {bar:40} {pos}/{len} actions, {elapsed} ({eta} left)")
                .context("progress bar")?,
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = std::time::Instant::now();
    let review = game
        .review(Precision::default(), &mut |done, _| bar.set_position(done as u64))
        .context("the record does not replay")?;
    let took = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if args.json {
        let body =
            madang_games::review_document(game.as_ref(), &record.rules, None, record.actions.len() as u64, &review);
        outln!("{}", serde_json::to_string_pretty(&body)?)?;
    } else {
        out!("{}", text(&review))?;
        let how = if review.exact {
            "from the solved table".to_owned()
        } else {
            format!("with {} playouts", review.playouts)
        };
        outln!("\n{} actions reviewed in {took:.3} s {how}", record.actions.len())?;
    }
    Ok(())
}

/// The review for a terminal: the method, each side's grades and account (with its 95 %
/// intervals when estimated, and in words as the web page says it), every decision that lost
/// something, the key moments.
fn text(review: &Review) -> String {
    let mut out = String::new();
    let estimate = if review.exact { "" } else { " (estimates)" };
    // A figure with its 95 % interval when estimated.
    let pm = |value: f64, margin: f64| {
        if review.exact { format!("{value:+.1}") } else { format!("{value:+.1} ±{margin:.1}") }
    };
    out.push_str(&format!("method: {}\n\n", review.method));
    out.push_str(&format!(
        "{:<10} {:>9} {:>8} {:>5} {:>9} {:>5} {:>10} {:>7} {:>7}\n",
        "side", "decisions", "accuracy", "best", "excellent", "good", "inaccuracy", "mistake", "blunder"
    ));
    for s in &review.summary {
        let accuracy = s.accuracy.map_or_else(|| "-".to_owned(), |a| format!("{a:.1}"));
        let g = s.grades;
        out.push_str(&format!(
            "{:<10} {:>9} {:>8} {:>5} {:>9} {:>5} {:>10} {:>7} {:>7}\n",
            s.side, s.decisions, accuracy, g[0], g[1], g[2], g[3], g[4], g[5]
        ));
    }
    out.push_str(&format!(
        "\nthe account{estimate}, points of winning chance: result = initial + luck − loss + gains\n"
    ));
    out.push_str(&format!(
        "{:<10} {:>13} {:>13} {:>7} {:>7} {:>7} {:>13}\n",
        "side", "initial", "luck", "loss", "gains", "result", "outcome luck"
    ));
    for s in &review.summary {
        out.push_str(&format!(
            "{:<10} {:>13} {:>13} {:>7.1} {:>+7.1} {:>7.1} {:>+13.1}\n",
            s.side,
            pm(s.initial, s.initial_margin).trim_start_matches('+'),
            pm(s.luck, s.luck_margin),
            s.loss,
            s.gains,
            s.result,
            s.outcome_luck
        ));
    }
    out.push('\n');
    for s in &review.summary {
        let about = if review.exact { String::new() } else { format!(" (±{:.0})", s.luck_margin) };
        out.push_str(&format!(
            "{}: luck {} {:.0} points{about}; the moves cost {:.0}; the others' moves gave {:+.0}.\n",
            s.side,
            if s.luck < 0.0 { "cost" } else { "gave" },
            s.luck.abs(),
            s.loss,
            s.gains
        ));
    }
    out.push_str(&format!(
        "\nmoves that gave something away{estimate} (points; step n is the record's n-th action):\n"
    ));
    for m in review.moves.iter().filter(|m| m.loss >= review.thresholds.best) {
        let margin = if review.exact { String::new() } else { format!(" ±{:.1}", m.margin) };
        out.push_str(&format!(
            "  step {:<4} {:<6} {:<16} loss {:>5.1}{margin} {:<11} best {}\n",
            m.index + 1,
            m.seat,
            m.action,
            m.loss,
            format!("{:?}", m.grade).to_lowercase(),
            m.best
        ));
    }
    out.push_str("\nkey moments:\n");
    for k in &review.key_moments {
        let side = review.sides.get(k.side).map_or("", String::as_str);
        // A loss is points given away; luck is signed (+ for the side, − against it).
        let points = if k.kind == "loss" {
            format!("{:.1} points given away", k.points)
        } else {
            format!("{:+.1} points", k.points)
        };
        out.push_str(&format!("  step {:<4} {:<5} {:<8} {points}\n", k.index + 1, k.kind, side));
    }
    out
}
