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
    #[arg(long, default_value_t = 1000, value_parser = crate::parse_count, allow_hyphen_values = true)]
    games: u64,
    /// The run's seed S: game i uses SHA-256("S:i").
    #[arg(long, default_value_t = 0, value_parser = crate::parse_whole, allow_hyphen_values = true)]
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
    #[arg(long, value_parser = crate::parse_players, allow_hyphen_values = true)]
    players: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::parse_threads, allow_hyphen_values = true)]
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
    /// Review the run's first N games for luck against skill, decisiveness, lead changes and
    /// drama: exact for Ur with its solved table, else estimated by playouts (1-8 s a game).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::parse_whole, allow_hyphen_values = true)]
    analyse: u64,
    /// Play the same seeds under each of these rule sets (JSON `rules` objects, two or more)
    /// and report them side by side, with tests of the differences against the first.
    #[arg(long, num_args = 2.., value_name = "RULES", conflicts_with_all = ["rules", "shard"])]
    compare: Vec<String>,
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

    /// Checks `--lang` and where `--report` goes before a run starts (a run can take minutes).
    fn check(&self) -> anyhow::Result<()> {
        if madang_sim::html::Lang::parse(&self.lang).is_none() {
            anyhow::bail!("--lang takes ko or en, got {:?}", self.lang);
        }
        if let Some(path) = &self.report {
            if path.is_dir() {
                anyhow::bail!("--report {} is a directory: name the HTML file to write", path.display());
            }
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            if !parent.is_dir() {
                anyhow::bail!("--report {}: the directory {} does not exist", path.display(), parent.display());
            }
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
/// With --analyse the table is used where there is one (exact reviews), and not needed.
fn load_table(args: &SimArgs, rules: &str, bots: &[String]) -> anyhow::Result<()> {
    let required = args.table.is_some() || args.review || bots.iter().any(|b| b == "perfect");
    if required || args.analyse > 0 {
        crate::solve::install_table_for(
            args.game.as_deref().unwrap_or_default(),
            (rules, "--rules"),
            args.table.as_deref(),
            args.data_dir.clone(),
            (required, "--table, --review and the perfect bot are"),
        )?;
    }
    Ok(())
}

struct RunSim<'a> {
    config: SimConfig,
    default_bots: bool,
    bar: &'a ProgressBar,
}

impl Visitor for RunSim<'_> {
    type Output = anyhow::Result<SimReport>;

    fn visit<G: madang_games::Describe>(mut self, game: G) -> anyhow::Result<SimReport> {
        if self.default_bots {
            self.config.bots = vec!["random".to_owned(); game.seat_names().len()];
        }
        Ok(simulate(&game, &self.config, &|n| self.bar.inc(n))?)
    }
}

/// A progress bar of `games` games on a terminal (hidden otherwise, or with --json).
fn progress_bar(games: u64, json: bool) -> ProgressBar {
    if !std::io::stderr().is_terminal() || json {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

pub(crate) fn run(args: SimArgs) -> Result<(), Failure> {
    if let Some(SimCommand::Merge { files, json, report }) = &args.command {
        report.check()?;
        return merge(files, *json, report);
    }
    args.report.check()?;
    if args.analyse > args.games {
        return Err(anyhow::anyhow!(
            "--analyse {} is more than --games {}: it reviews the run's first N games",
            args.analyse,
            args.games
        )
        .into());
    }
    if !args.compare.is_empty() {
        return compare(&args);
    }
    let game = args.game.clone().unwrap_or_default();
    let rules: serde_json::Value =
        serde_json::from_str(&args.rules).with_context(|| format!("--rules is not JSON: {}", args.rules))?;
    let shard = args.shard.as_deref().map(|text| parse_shard(text, args.games)).transpose()?;
    let config = SimConfig { shard, ..config(&args, &rules)? };
    load_table(&args, &args.rules, &config.bots)?;
    let bar = progress_bar(config.games, args.json);
    let visitor = RunSim { config, default_bots: args.bots.is_none(), bar: &bar };
    let pool = crate::thread_pool(args.threads)?;
    let report = pool.install(|| madang_games::visit(&game, &rules, args.players, visitor))??;
    bar.finish_and_clear();
    print_report(&report, args.json)?;
    Ok(args.report.write(&report)?)
}

/// The run the arguments ask for under `rules` (the whole run: `run` adds `--shard`). The bots
/// are empty when `--bots` is not given (every seat gets `random` once the game is known).
fn config(args: &SimArgs, rules: &serde_json::Value) -> anyhow::Result<SimConfig> {
    let bots = match &args.bots {
        Some(list) => expand_bot_list(list).map_err(anyhow::Error::msg).context("--bots")?,
        None => Vec::new(),
    };
    Ok(SimConfig {
        games: args.games,
        seed: args.seed,
        bots,
        rotate_seats: args.rotate_seats,
        time_decisions: args.time_decisions,
        review: args.review,
        rules: rules.clone(),
        players: args.players,
        shard: None,
        analyse: args.analyse,
        cancel: None,
    })
}

/// `madang sim GAME --compare RULES_A RULES_B …`: one run per rule set on the same seeds.
fn compare(args: &SimArgs) -> Result<(), Failure> {
    let game = args.game.clone().unwrap_or_default();
    let mut rule_sets = Vec::new();
    for (k, text) in args.compare.iter().enumerate() {
        let rules: serde_json::Value =
            serde_json::from_str(text).with_context(|| format!("--compare: rule set {} is not JSON: {text}", k + 1))?;
        rule_sets.push((text, rules));
    }
    let pool = crate::thread_pool(args.threads)?;
    let bar = progress_bar(args.games * rule_sets.len() as u64, args.json);
    let mut reports = Vec::new();
    for (k, (text, rules)) in rule_sets.iter().enumerate() {
        let config = config(args, rules)?;
        load_table(args, text, &config.bots)?;
        let visitor = RunSim { config, default_bots: args.bots.is_none(), bar: &bar };
        let report = pool
            .install(|| madang_games::visit(&game, rules, args.players, visitor))
            .with_context(|| format!("--compare: rule set {}", k + 1))??;
        let seats = |r: &SimReport| r.by_seat.iter().map(|s| s.name.clone()).collect::<Vec<_>>().join(", ");
        if let Some(first) = reports.first()
            && seats(first) != seats(&report)
        {
            return Err(anyhow::anyhow!(
                "--compare: rule set {} seats {} but rule set 1 seats {}: rule sets are compared with the same seats",
                k + 1,
                seats(&report),
                seats(first)
            )
            .into());
        }
        reports.push(report);
    }
    bar.finish_and_clear();
    let comparison = madang_sim::compare::compare(reports);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&comparison)?)?;
    } else {
        out!("{}", compare_text(&comparison))?;
    }
    if let Some(path) = &args.report.report {
        let lang = madang_sim::html::Lang::parse(&args.report.lang)
            .with_context(|| format!("--lang takes ko or en, got {:?}", args.report.lang))?;
        std::fs::write(path, madang_sim::html::compare_html(&comparison, lang))
            .with_context(|| format!("writing the report to {}", path.display()))?;
    }
    Ok(())
}

/// A comparison as text: one column per rule set, then the tests.
fn compare_text(c: &madang_sim::compare::Comparison) -> String {
    let Some(first) = c.reports.first() else { return String::new() };
    let mut out = format!(
        "{}: {} games per rule set on the same seeds, seed {}, bots {}{}\n",
        first.game,
        first.games,
        first.seed,
        first.bots.join(","),
        if first.rotate_seats { " (seats rotated)" } else { "" }
    );
    for (k, r) in c.reports.iter().enumerate() {
        out += &format!("  [{}] {}\n", k + 1, serde_json::to_string(&r.rules).unwrap_or_default());
    }
    let row = |label: &str, cells: Vec<String>| {
        let mut line = format!("{label:<30}");
        for cell in cells {
            line += &format!(" {cell:>18}");
        }
        line + "\n"
    };
    out += &row("", (1..=c.reports.len()).map(|k| format!("[{k}]")).collect());
    let rate = |r: &Rate| format!("{:.2}% ±{:.2}", 100.0 * r.win_rate, 50.0 * (r.interval.high - r.interval.low));
    for (title, of) in [
        ("win rate by seat", (|r: &SimReport| &r.by_seat) as fn(&SimReport) -> &Vec<Rate>),
        ("by position", |r: &SimReport| &r.by_position),
        ("by bot", |r: &SimReport| &r.by_bot),
    ] {
        out += title;
        out += "\n";
        for (i, name) in of(first).iter().enumerate() {
            out += &row(
                &format!("  {}", name.name),
                c.reports.iter().map(|r| of(r).get(i).map(rate).unwrap_or_default()).collect(),
            );
        }
    }
    let cells = |f: &dyn Fn(&SimReport) -> String| c.reports.iter().map(f).collect::<Vec<String>>();
    out += &row("draws / no result", cells(&|r| format!("{} / {}", r.draws, r.no_result)));
    out += &row("length (rolls): mean", cells(&|r| format!("{:.2}", r.length.mean)));
    out += &row("  sd", cells(&|r| format!("{:.2}", r.length.sd)));
    out += &row("  median", cells(&|r| r.length.median.to_string()));
    let mut paths: Vec<&String> = c.reports.iter().flat_map(|r| r.figures.keys()).collect();
    paths.sort();
    paths.dedup();
    for path in paths {
        let figure = |r: &SimReport| r.figures.get(path).cloned();
        match c.reports.iter().find_map(figure) {
            Some(Figure::Mean { .. }) => {
                out += &row(
                    path,
                    cells(&|r| match figure(r) {
                        Some(Figure::Mean { mean }) => format!("{mean:.3}"),
                        _ => "-".to_owned(),
                    }),
                );
            }
            Some(Figure::Frequencies { .. }) => {
                let mut keys: Vec<String> = c
                    .reports
                    .iter()
                    .filter_map(|r| match figure(r) {
                        Some(Figure::Frequencies { frequencies }) => Some(frequencies.into_keys()),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                keys.sort();
                keys.dedup();
                out += path;
                out += "\n";
                for key in keys {
                    out += &row(
                        &format!("  {key}"),
                        cells(&|r| match figure(r) {
                            Some(Figure::Frequencies { frequencies }) => {
                                format!("{:.2}%", 100.0 * frequencies.get(&key).copied().unwrap_or(0.0))
                            }
                            _ => "-".to_owned(),
                        }),
                    );
                }
            }
            None => {}
        }
    }
    out += &row("balance", cells(&|r| format!("{:.3}", r.quality.balance)));
    out += &row("drawishness", cells(&|r| format!("{:.3}", r.quality.drawishness)));
    out +=
        &row("branching factor", cells(&|r| r.quality.branching_factor.map_or("-".to_owned(), |b| format!("{b:.2}"))));
    let analysis = |f: &dyn Fn(&madang_sim::Analysis) -> Option<f64>, scale: f64| {
        cells(&|r| r.quality.analysis.as_ref().and_then(f).map_or("-".to_owned(), |v| format!("{:.3}", scale * v)))
    };
    if c.reports.iter().any(|r| r.quality.analysis.is_some()) {
        out += &row("dice's share", analysis(&|a| a.dice_share, 1.0));
        out += &row("choices' share", analysis(&|a| a.choices_share, 1.0));
        out += &row("decisiveness", analysis(&|a| a.decisiveness, 1.0));
        out += &row("lead changes per game", analysis(&|a| Some(a.lead_changes), 1.0));
        out += &row("winner behind (share)", analysis(&|a| a.behind_share, 1.0));
        out += &row("drama (points)", analysis(&|a| a.drama, 1.0));
    }
    let p = madang_sim::html::p_text;
    out += "tests against [1] (two-proportion z-test; chi-square tests of homogeneity)\n";
    for d in &c.differences {
        let f = &d.first_mover;
        out += &format!(
            "  [{}] first mover {:.2}% -> {:.2}%: {:+.2} points (95% {:+.2} … {:+.2}), z = {:.2}, {}\n",
            d.index + 1,
            100.0 * f.first,
            100.0 * f.second,
            100.0 * f.difference,
            100.0 * f.low,
            100.0 * f.high,
            f.z,
            p(f.p_value)
        );
        for (what, test) in
            [("winner's position", &d.by_position), ("winner's seat", &d.by_seat), ("winner's bot", &d.by_bot)]
        {
            if let Some(t) = test {
                out += &format!("      {what}: chi-square {:.2}, df {}, {}\n", t.statistic, t.df, p(t.p_value));
            }
        }
    }
    out
}

fn print_report(report: &SimReport, json: bool) -> Result<(), Failure> {
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        out!("{}", text_report(report))?;
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
    print_report(&report, json)?;
    Ok(html.write(&report)?)
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
        "{}: {}, seed {}, bots {}{}{}\n",
        r.game,
        crate::count(r.games, "game", "games"),
        r.seed,
        r.bots.join(","),
        if r.rotate_seats { " (seats rotated)" } else { "" },
        r.shard.map_or(String::new(), |s| format!(
            " (shard {}/{} of a run of {}: games {}-{})",
            s.shard.index,
            s.shard.of,
            crate::count(s.run_games, "game", "games"),
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
    out += &quality_lines(&r.quality);
    let t = &r.timing;
    out += &format!("timing: {:.3} s, {:.0} games/s on {}\n", t.seconds, t.games_per_second, crate::threads(t.threads));
    for d in &t.decisions {
        out += &format!(
            "  {}: {} decisions, mean {:.1} µs, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs\n",
            d.bot, d.decisions, d.mean_us, d.p50_us, d.p99_us, d.max_us
        );
    }
    out
}

fn quality_lines(q: &madang_sim::Quality) -> String {
    let mut out = format!("quality: balance {:.3}, drawishness {:.3}", q.balance, q.drawishness);
    if let Some(b) = q.branching_factor {
        out += &format!(", branching factor {b:.2}");
    }
    out += "\n";
    let Some(a) = &q.analysis else { return out };
    let share = |s: Option<f64>| s.map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s));
    out += &format!(
        "luck against skill ({} games reviewed, {}): dice {}, choices {} of the variance of result − initial chance; mean |luck| {:.1} points, mean loss {:.1} points per side and game\n",
        a.games,
        if a.exact { "exact" } else { "estimated" },
        share(a.dice_share),
        share(a.choices_share),
        a.mean_abs_luck,
        a.mean_loss
    );
    let opt = |v: Option<f64>, scale: f64| v.map_or("-".to_owned(), |v| format!("{:.3}", scale * v));
    out += &format!(
        "  decisiveness {}, lead changes {:.2} per game ({:.3} per action), winner behind {} of positions, drama {} points\n",
        opt(a.decisiveness, 1.0),
        a.lead_changes,
        a.lead_change_rate,
        share(a.behind_share),
        opt(a.drama, 1.0)
    );
    out
}
