//! `madang lab search GAME`: the balance search over a game's declared rule options
//! (`madang_lab`, `docs/lab.md`, "Balance search").

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use madang_lab::{Progress, SearchConfig, SearchReport, Status};
use madang_sim::expand_bot_list;
use serde_json::{Map, Value, json};

use crate::Failure;
use crate::solve::Exact;

/// `madang lab …`
/// Games per rule set between two looks unless `--batch` says otherwise.
const DEFAULT_BATCH: u64 = 500;

#[derive(Subcommand)]
pub enum LabCommand {
    /// Balance search: walk the game's declared rule options, play each rule set under the
    /// chosen bots in batches, and rank the rule sets by how close the first mover's edge is to
    /// 0, dropping the clearly unbalanced ones as the batches come in (sequential testing).
    Search(Box<SearchArgs>),
}

/// Options of `madang lab search`.
#[derive(Args)]
pub struct SearchArgs {
    /// The game: ur, yut, ludo or dice-poker.
    game: String,
    /// One bot per seat in turn order, comma-separated; NAME*N repeats (e.g. hard*2).
    #[arg(long)]
    bots: String,
    /// The rule options to vary, comma-separated keys of the game's declared options (enum:
    /// every value; boolean: both; integer: every value from min to max).
    #[arg(long, value_name = "KEY,KEY…")]
    options: String,
    /// The values to try, as a JSON object of arrays: needed for options with no finite list
    /// (fraction, layout), optional for the others, e.g. '{"pieces":[3,5,7]}'.
    #[arg(long, value_name = "JSON")]
    values: Option<String>,
    /// The base rules as the record's JSON `rules` object; options not varied keep these values
    /// or the game's defaults.
    #[arg(long, default_value = "{}")]
    rules: String,
    /// Number of seats, where the game allows a choice.
    #[arg(long, value_parser = crate::parse_players, allow_hyphen_values = true)]
    players: Option<usize>,
    /// The run's seed S: game i of every rule set is game i of `madang sim --seed S`.
    #[arg(long, default_value_t = 0, value_parser = crate::parse_whole, allow_hyphen_values = true)]
    seed: u64,
    /// Games per rule set between two looks, at most (the budget is split into
    /// ⌈max-games / batch⌉ equal batches) [default: 500, or --max-games if that is less].
    #[arg(long, value_parser = crate::parse_count, allow_hyphen_values = true)]
    batch: Option<u64>,
    /// The budget: games per rule set, at most.
    #[arg(long, default_value_t = 10_000, value_parser = crate::parse_count, allow_hyphen_values = true)]
    max_games: u64,
    /// The chance of dropping a most balanced rule set, at most.
    // A negative value reaches the search's own check, not clap's "unexpected argument".
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true)]
    alpha: f64,
    /// Rotate the bot list across games so every bot plays every seat equally.
    #[arg(long)]
    rotate_seats: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::parse_threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Where solved tables are looked for (`<data-dir>/ur/<rules>.table`) [default: the user's
    /// data directory].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Solve rule sets that have no table on the fly when they are small (at most 3,000,000
    /// positions: Ur with up to 4 pieces), in memory, for their exact first-mover chance.
    #[arg(long)]
    solve: bool,
}

pub(crate) fn run(command: LabCommand) -> Result<(), Failure> {
    match command {
        LabCommand::Search(args) => search(*args),
    }
}

fn search(args: SearchArgs) -> Result<(), Failure> {
    let base: Value =
        serde_json::from_str(&args.rules).with_context(|| format!("--rules is not JSON: {}", args.rules))?;
    let vary: Vec<String> = args.options.split(',').map(|k| k.trim().to_owned()).collect();
    if vary.iter().any(String::is_empty) {
        return Err(anyhow::anyhow!("--options takes option keys separated by commas, got {:?}", args.options).into());
    }
    let explicit: Map<String, Value> = match &args.values {
        None => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            _ => {
                return Err(anyhow::anyhow!(
                    "--values takes a JSON object of arrays, e.g. '{{\"pieces\":[3,5]}}', got {text}"
                )
                .into());
            }
        },
    };
    let bots = expand_bot_list(&args.bots).map_err(anyhow::Error::msg).context("--bots")?;
    let config = SearchConfig {
        seed: args.seed,
        bots,
        rotate_seats: args.rotate_seats,
        players: args.players,
        batch: args.batch.unwrap_or(DEFAULT_BATCH.min(args.max_games.max(1))),
        max_games: args.max_games,
        alpha: args.alpha,
    };
    let pool = crate::thread_pool(args.threads)?;
    let plan = madang_lab::plan(&args.game, &base, &vary, &explicit, &config)?;
    let mut tables = Vec::new();
    for rules in &plan.rule_sets {
        let exact = pool.install(|| crate::solve::exact_table(&args.game, rules, args.data_dir.clone(), args.solve))?;
        tables.push((rules.clone(), exact));
    }
    let bar = if std::io::stderr().is_terminal() && !args.json {
        let bar = ProgressBar::new(plan.rule_sets.len() as u64 * config.max_games);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} games  {msg}  {per_sec}  eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let on_progress = |p: Progress| match p {
        Progress::Played(n) => bar.inc(n),
        Progress::Look { look, looks, survivors, games_left } => {
            bar.set_length(bar.position() + games_left);
            bar.set_message(format!("look {look}/{looks}, {survivors} rule sets in"));
        }
    };
    let report = pool.install(|| madang_lab::run(&plan, &config, &on_progress))?;
    bar.finish_and_clear();
    if args.json {
        let mut value = serde_json::to_value(&report)?;
        value["tables"] = tables.iter().filter_map(|(rules, exact)| table_json(rules, exact)).collect();
        outln!("{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        out!("{}", text(&report, &tables))?;
    }
    Ok(())
}

/// What the JSON says about a rule set's table (nothing for games without tables).
fn table_json(rules: &Value, exact: &Exact) -> Option<Value> {
    match exact {
        Exact::NotSolvable => None,
        Exact::Loaded { path } => Some(json!({"rules": rules, "table": "loaded", "path": path})),
        Exact::Solved { states, seconds } => {
            Some(json!({"rules": rules, "table": "solved", "states": states, "seconds": seconds}))
        }
        Exact::Missing { states, command } => {
            Some(json!({"rules": rules, "table": "missing", "states": states, "command": command}))
        }
    }
}

/// Percentage points with a sign.
fn points(share: f64) -> String {
    format!("{:+.2}", 100.0 * share)
}

/// The text report: the ranked table and what it means.
fn text(r: &SearchReport, tables: &[(Value, Exact)]) -> String {
    let rule_sets = r.results.len();
    let mut out = format!(
        "balance search: {}, {rule_sets} rule sets varying {} (base {}), bots {}{}, seed {}\n",
        r.game,
        r.vary.join(", "),
        r.base,
        r.bots.join(","),
        if r.rotate_seats { " (seats rotated)" } else { "" },
        r.seed,
    );
    out += &format!(
        "budget {} per rule set in {}; a rule set is dropped when its edge is clearly farther from 0 than another's \
         (α = {}: Wilson intervals at z = {:.3}, Bonferroni over {rule_sets} rule sets × {} looks)\n",
        crate::count(r.max_games, "game", "games"),
        crate::count(r.looks, "batch", "batches"),
        r.alpha,
        r.z,
        r.looks
    );
    let seats = r.bots.len().max(1);
    out += &format!(
        "edge: the first mover's score (a win 1, a draw 1/{seats}) minus 1/{seats}, in percentage points, with its 95% Wilson interval\n\n"
    );
    let width = r.results.iter().map(|v| v.rules.to_string().chars().count()).max().unwrap_or(8).max(8);
    let exact = r.results.iter().any(|v| v.exact_first_mover.is_some());
    out += &format!(
        "{:>4}  {:<width$}  {:>7}  {:>22}  {:>24}{}  status\n",
        "rank",
        "rule set",
        "games",
        "first mover W/D/L %",
        "edge (95% CI), points",
        if exact { "  exact first mover" } else { "" },
    );
    for v in &r.results {
        let (wdl, edge) = match &v.first_mover {
            Some(e) => {
                let loss = 1.0 - e.win_rate - e.draws as f64 / e.games as f64;
                (
                    format!(
                        "{:.1} / {:.1} / {:.1}",
                        100.0 * e.win_rate,
                        100.0 * e.draws as f64 / e.games as f64,
                        100.0 * loss
                    ),
                    format!("{} ({} … {})", points(e.edge), points(e.interval.low), points(e.interval.high)),
                )
            }
            None => ("-".to_owned(), "-".to_owned()),
        };
        let status = match v.status {
            Status::Best if r.separated => "best".to_owned(),
            Status::Best => "best so far".to_owned(),
            Status::StillIn => "still in".to_owned(),
            Status::Eliminated { after_games, .. } => format!("eliminated after {after_games} games"),
        };
        let exact_cell = match (exact, v.exact_first_mover) {
            (false, _) => String::new(),
            (true, Some(c)) => format!("  {:>17}", format!("{:.4}%", 100.0 * c)),
            (true, None) => format!("  {:>17}", "-"),
        };
        out += &format!(
            "{:>4}  {:<width$}  {:>7}  {wdl:>22}  {edge:>24}{exact_cell}  {status}\n",
            v.rank,
            v.rules.to_string(),
            v.games
        );
    }
    if let Some(best) = r.results.first() {
        let still_in = r.results.iter().filter(|v| v.status == Status::StillIn).count();
        out += &if r.results.len() == 1 {
            // The others, if any, were skipped (listed below), not played and dropped.
            format!("\nmost balanced: {} (the only rule set played)\n", best.rules)
        } else if r.separated {
            format!("\nmost balanced: {} (every other rule set was dropped)\n", best.rules)
        } else {
            format!(
                "\nmost balanced so far: {}; {still_in} other rule set(s) could not be told apart from it within {} games each\n",
                best.rules, r.max_games
            )
        };
    }
    for s in &r.skipped {
        out += &format!("skipped {}: {}\n", s.rules, s.reason);
    }
    for (rules, exact) in tables {
        match exact {
            Exact::Solved { states, seconds } => {
                out += &format!("solved {rules} on the fly: {states} positions, {seconds:.1} s\n");
            }
            Exact::Missing { states, command } => {
                out += &format!("no solved table for {rules} ({states} positions): `{command}`\n");
            }
            Exact::Loaded { path: Some(path) } => out += &format!("table for {rules}: {}\n", path.display()),
            Exact::Loaded { path: None } | Exact::NotSolvable => {}
        }
    }
    if exact {
        out += "exact first mover: its winning chance at the start under perfect play, from the solved table\n";
    }
    out += &format!(
        "{} in {}, {:.1} s on {}\n",
        crate::count(r.games_played, "game", "games"),
        crate::count(r.looks_made, "look", "looks"),
        r.seconds,
        crate::threads(r.threads)
    );
    out
}
