//! `madang sim GAME`: the designer tool's command line.

use std::io::IsTerminal;

use anyhow::Context;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use madang_games::Visitor;
use madang_sim::{Figure, Rate, Shard, SimConfig, SimReport, expand_bot_list, simulate};

use crate::Failure;

/// Arguments of `madang sim`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SimArgs {
    #[command(subcommand)]
    command: Option<SimCommand>,
    /// The game: ur, yut, ludo or dice-poker.
    #[arg(required = true)]
    game: Option<String>,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The run's seed S: game i uses SHA-256("S:i").
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// One bot per seat in turn order, comma-separated; NAME*N repeats (default: random for every seat).
    #[arg(long)]
    bots: Option<String>,
    /// Rotate the bot list across games so every bot plays every seat equally.
    #[arg(long)]
    rotate_seats: bool,
    /// The rules as the record's JSON `rules` object, e.g. '{"preset":"blitz"}'.
    #[arg(long, default_value = "{}")]
    rules: String,
    /// Number of seats, where the game allows a choice.
    #[arg(long)]
    players: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Time every bot decision and report the mean per bot.
    #[arg(long)]
    time_decisions: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Ur: the solved table for the `perfect` bot and --review [default:
    /// <data-dir>/ur/<rules>.table, written by `madang ur solve`].
    #[arg(long)]
    table: Option<std::path::PathBuf>,
    /// The data directory for the default --table [default: the user's data directory].
    #[arg(long)]
    data_dir: Option<std::path::PathBuf>,
    /// Ur: value every decision with the solved table and report each bot's mean loss per move
    /// (percentage points of winning chance).
    #[arg(long)]
    review: bool,
    /// Play only the K-th of N equal ranges of the games (K from 1), for `madang sim merge`;
    /// use with --json.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    #[command(flatten)]
    report: ReportArgs,
}

/// Where and how to write the HTML report.
#[derive(Args, Debug)]
struct ReportArgs {
    /// Also write the report as one self-contained HTML page (charts, no outside files).
    #[arg(long, value_name = "FILE.html")]
    report: Option<std::path::PathBuf>,
    /// The HTML report's language: ko or en.
    #[arg(long, default_value = "en")]
    lang: String,
}

impl ReportArgs {
    /// Writes the HTML report when asked for.
    fn write(&self, report: &SimReport) -> anyhow::Result<()> {
        let Some(path) = &self.report else { return Ok(()) };
        let lang = madang_sim::html::Lang::parse(&self.lang)
            .with_context(|| format!("--lang takes ko or en, got {:?}", self.lang))?;
        std::fs::write(path, madang_sim::html::html(report, lang))
            .with_context(|| format!("writing the report to {}", path.display()))
    }

    /// Checks `--lang` before a run starts.
    fn check(&self) -> anyhow::Result<()> {
        if madang_sim::html::Lang::parse(&self.lang).is_none() {
            anyhow::bail!("--lang takes ko or en, got {:?}", self.lang);
        }
        Ok(())
    }
}

/// `madang sim merge`.
#[derive(Subcommand, Debug)]
enum SimCommand {
    /// Merge the JSON reports of every shard of one run (`madang sim … --shard K/N --json`)
    /// into the report of the whole run: the same statistics as the run played at once.
    Merge {
        /// The shards' JSON reports (K/N for every K from 1 to N, any order).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        report: ReportArgs,
    },
}

/// Parses `K/N`.
fn parse_shard(text: &str, games: u64) -> anyhow::Result<Shard> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    let Some((k, n)) = parsed else { anyhow::bail!("--shard takes K/N (two whole numbers, e.g. 2/8), got {text:?}") };
    Ok(Shard::new(k, n, games)?)
}

/// Loads the solved Ur table `madang sim` needs: with --table, --review or a `perfect` bot.
fn load_table(args: &SimArgs, bots: &[String]) -> anyhow::Result<()> {
    let wanted = args.table.is_some() || args.review || bots.iter().any(|b| b == "perfect");
    if wanted {
        crate::solve::install_table_for(
            args.game.as_deref().unwrap_or_default(),
            (&args.rules, "--rules"),
            args.table.as_deref(),
            args.data_dir.clone(),
            (true, "--table, --review and the perfect bot are"),
        )?;
    }
    Ok(())
}

struct RunSim {
    config: SimConfig,
    default_bots: bool,
    json: bool,
}

impl Visitor for RunSim {
    type Output = anyhow::Result<SimReport>;

    fn visit<G: madang_games::Describe>(mut self, game: G) -> anyhow::Result<SimReport> {
        if self.default_bots {
            self.config.bots = vec!["random".to_owned(); game.seat_names().len()];
        }
        let bar = if std::io::stderr().is_terminal() && !self.json {
            let bar = ProgressBar::new(self.config.games);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        let report = simulate(&game, &self.config, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        Ok(report)
    }
}

pub(crate) fn run(args: SimArgs) -> Result<(), Failure> {
    if let Some(SimCommand::Merge { files, json, report }) = &args.command {
        report.check()?;
        return merge(files, *json, report);
    }
    args.report.check()?;
    let game = args.game.clone().unwrap_or_default();
    let rules: serde_json::Value =
        serde_json::from_str(&args.rules).with_context(|| format!("--rules is not JSON: {}", args.rules))?;
    let bots = match &args.bots {
        Some(list) => expand_bot_list(list).map_err(anyhow::Error::msg).context("--bots")?,
        None => Vec::new(),
    };
    let shard = args.shard.as_deref().map(|text| parse_shard(text, args.games)).transpose()?;
    let config = SimConfig {
        games: args.games,
        seed: args.seed,
        bots,
        rotate_seats: args.rotate_seats,
        time_decisions: args.time_decisions,
        review: args.review,
        rules: rules.clone(),
        players: args.players,
        shard,
        cancel: None,
    };
    load_table(&args, &config.bots)?;
    let visitor = RunSim { config, default_bots: args.bots.is_none(), json: args.json };
    let pool = crate::thread_pool(args.threads)?;
    let report = pool.install(|| madang_games::visit(&game, &rules, args.players, visitor))??;
    args.report.write(&report)?;
    print_report(&report, args.json)
}

fn print_report(report: &SimReport, json: bool) -> Result<(), Failure> {
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", text_report(report));
    }
    Ok(())
}

/// `madang sim merge FILES`.
fn merge(files: &[std::path::PathBuf], json: bool, html: &ReportArgs) -> Result<(), Failure> {
    let mut reports = Vec::new();
    for file in files {
        let text = crate::read_text(file)?;
        let report: SimReport = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a `madang sim --shard K/N --json` report", file.display()))?;
        reports.push(report);
    }
    let report = madang_sim::merge(reports)?;
    html.write(&report)?;
    print_report(&report, json)
}

fn rate_lines(title: &str, rates: &[Rate]) -> String {
    let mut out = format!("{title:<14} {:>9} {:>9} {:>9}  95% CI\n", "games", "wins", "win rate");
    for r in rates {
        out += &format!(
            "  {:<12} {:>9} {:>9} {:>8.2}%  {:.2}-{:.2}%\n",
            r.name,
            r.games,
            r.wins,
            100.0 * r.win_rate,
            100.0 * r.interval.low,
            100.0 * r.interval.high
        );
    }
    out
}

fn text_report(r: &SimReport) -> String {
    let mut out = format!(
        "{}: {} games, seed {}, bots {}{}{}\n",
        r.game,
        r.games,
        r.seed,
        r.bots.join(","),
        if r.rotate_seats { " (seats rotated)" } else { "" },
        r.shard.map_or(String::new(), |s| format!(
            " (shard {}/{} of a run of {} games: games {}-{})",
            s.shard.index,
            s.shard.of,
            s.run_games,
            s.shard.from,
            s.shard.to.saturating_sub(1)
        ))
    );
    out += &rate_lines("by seat", &r.by_seat);
    out += &rate_lines("by position", &r.by_position);
    out += &rate_lines("by bot", &r.by_bot);
    out += &format!("draws {}, no result {}\n", r.draws, r.no_result);
    if !r.review.is_empty() {
        out += "loss per move against the solved table (percentage points of winning chance)\n";
        for b in &r.review {
            out += &format!(
                "  {:<12} {:>9} decisions, mean loss {:.3}, best {:.1}%, blunders {:.2}%\n",
                b.bot,
                b.decisions,
                b.mean_loss,
                100.0 * b.best,
                100.0 * b.blunders
            );
        }
    }
    let l = &r.length;
    out += &format!(
        "length (rolls): mean {:.2}, sd {:.2}, min {}, p10 {}, median {}, p90 {}, max {}\n",
        l.mean, l.sd, l.min, l.p10, l.median, l.p90, l.max
    );
    if !r.figures.is_empty() {
        out += "figures (mean per game, or share of games)\n";
        for (path, figure) in &r.figures {
            match figure {
                Figure::Mean { mean } => out += &format!("  {path:<28} {mean:.3}\n"),
                Figure::Frequencies { frequencies } => {
                    let shares: Vec<String> =
                        frequencies.iter().map(|(k, v)| format!("{k} {:.2}%", 100.0 * v)).collect();
                    out += &format!("  {path:<28} {}\n", shares.join(", "));
                }
            }
        }
    }
    let t = &r.timing;
    out += &format!("timing: {:.3} s, {:.0} games/s on {} threads\n", t.seconds, t.games_per_second, t.threads);
    for d in &t.decisions {
        out += &format!(
            "  {}: {} decisions, mean {:.1} µs, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs\n",
            d.bot, d.decisions, d.mean_us, d.p50_us, d.p99_us, d.max_us
        );
    }
    out
}
