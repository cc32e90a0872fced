//! `madang ur solve`: solves the Royal Game of Ur for a rule set and writes its table
//! (`docs/ur-solver.md`).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use madang_ur::{Ur, UrSettings};
use madang_ur_solver::{
    DEFAULT_MOVE_CACHE, DEFAULT_TOLERANCE, MAX_TOLERANCE, MIN_TOLERANCE, Progress, SolveOptions, ValueType,
};

use crate::Failure;

/// `madang ur …`
#[derive(Subcommand)]
pub enum UrCommand {
    /// Solve the game for a rule set (value iteration) and write its table of winning chances.
    Solve(SolveArgs),
}

/// Options of `madang ur solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The rules as the record's JSON `rules` object, e.g. '{"preset":"blitz"}' or
    /// '{"pieces":3}'.
    #[arg(long, default_value = "{}")]
    rules: String,
    /// Where to write the table; its folder must exist [default: <data-dir>/ur/<rules>.table,
    /// where `madang serve` and `madang sim` look for it; that folder is created].
    #[arg(long)]
    out: Option<PathBuf>,
    /// The data directory for the default --out [default: the user's data directory, e.g.
    /// ~/.local/share/madang].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = crate::parse_threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Stop sweeping a layer pair when no value changes by more than this (win-probability
    /// units, from 1e-14 to 1e-6).
    #[arg(long, default_value_t = DEFAULT_TOLERANCE, value_parser = parse_tolerance, allow_hyphen_values = true)]
    tolerance: f64,
    /// How the table stores values: `u16` (16-bit fixed point) or `f32`.
    #[arg(long, default_value = "u16", value_parser = parse_value_type)]
    value_type: ValueType,
    /// MiB the solver may use to keep each block row's moves from one sweep to the next (up to
    /// about twice as fast where they fit; 0 works them out at every sweep).
    #[arg(long, default_value_t = (DEFAULT_MOVE_CACHE >> 20) as u64, allow_negative_numbers = true)]
    move_cache_mib: u64,
    /// Sweep plainly: never extrapolate a layer pair's values from the steady decay of its
    /// sweeps' changes (extrapolating takes fewer sweeps to the same tolerance; `docs/ur-solver.md`).
    #[arg(long)]
    no_extrapolation: bool,
}

fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if (MIN_TOLERANCE..=MAX_TOLERANCE).contains(&t) => Ok(t),
        Ok(t) if t > 0.0 && t < MIN_TOLERANCE => Err(format!(
            "{text:?} is below {MIN_TOLERANCE:e}, the smallest change f64 sweeps are sure to settle under \
             (their own rounding is about 1e-16); the default is {DEFAULT_TOLERANCE:e}"
        )),
        Ok(t) if t > MAX_TOLERANCE && t.is_finite() => Err(format!(
            "{text:?} is above {MAX_TOLERANCE:e}: values would be off by more than half a step of a u16 table; \
             the default is {DEFAULT_TOLERANCE:e}"
        )),
        _ => Err(format!(
            "expected a number from {MIN_TOLERANCE:e} to {MAX_TOLERANCE:e} (win-probability units, e.g. 1e-12), got {text:?}"
        )),
    }
}

fn parse_value_type(text: &str) -> Result<ValueType, String> {
    text.parse()
}

/// The rules of `--rules`.
pub(crate) fn settings_of(rules: &str, flag: &str) -> anyhow::Result<UrSettings> {
    let value: serde_json::Value =
        serde_json::from_str(rules).with_context(|| format!("{flag} is not JSON: {rules}"))?;
    let game = madang_games::build::<Ur>(&value, None).with_context(|| format!("{flag} {rules}"))?;
    Ok(*game.settings())
}

/// The default table path for `settings` in `data_dir`.
pub(crate) fn table_path(data_dir: &std::path::Path, settings: &UrSettings) -> PathBuf {
    data_dir.join("ur").join(format!("{}.table", madang_ur_solver::table_name(settings)))
}

/// The `madang ur solve` command that writes the table of `settings` where it is looked for:
/// `--out FILE` for a file named by the user, `--data-dir DIR` for a data directory named by the
/// user, neither for the default one (a solve creates `<data-dir>/ur` when it writes there; it
/// refuses an `--out` whose folder is missing, so the default path is not spelt out).
fn solve_command(settings: &UrSettings, out: Option<&std::path::Path>, data_dir: Option<&std::path::Path>) -> String {
    let mut command = format!("madang ur solve --rules '{}'", madang_ur_solver::rules_json(settings));
    match (out, data_dir) {
        (Some(file), _) => command += &format!(" --out {}", file.display()),
        (None, Some(dir)) => command += &format!(" --data-dir {}", dir.display()),
        (None, None) => {}
    }
    command
}

/// Peak resident memory of this process (`VmHWM`), in bytes.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

pub(crate) fn run(command: UrCommand) -> Result<(), Failure> {
    match command {
        UrCommand::Solve(args) => solve(args),
    }
}

fn solve(args: SolveArgs) -> Result<(), Failure> {
    let settings = settings_of(&args.rules, "--rules")?;
    // Every flag is checked before anything is created on disk.
    let pool = crate::thread_pool(args.threads)?;
    let explicit = args.out.is_some();
    let out = match args.out {
        Some(out) => out,
        None => table_path(&crate::data_dir(args.data_dir)?, &settings),
    };
    if out.is_dir() {
        return Err(anyhow::anyhow!(
            "--out {} is a directory: name the table file, e.g. {}",
            out.display(),
            out.join(format!("{}.table", madang_ur_solver::table_name(&settings))).display()
        )
        .into());
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        // The default path's folders are ours to make; a named file's folder must exist, so
        // that a mistyped --out is an error, not a new directory tree.
        if explicit && !parent.is_dir() {
            return Err(anyhow::anyhow!("--out {}: no directory {}", out.display(), parent.display()).into());
        }
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    // Check that the table's folder takes a file before the solve, which may take minutes.
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let probe = folder.join(format!(".madang-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("--out {}: cannot write in {}", out.display(), folder.display()))?;
    let _ = std::fs::remove_file(&probe);
    let name = madang_ur_solver::table_name(&settings);
    let terminal = std::io::stderr().is_terminal();
    let steps = (-args.tolerance.log10() * 10.0).ceil().max(1.0) as u64;
    let bar = Mutex::new(ProgressBar::hidden());
    let pair_label = Mutex::new(String::new());
    let on_progress = |p: &Progress| {
        let Ok(mut bar) = bar.lock() else { return };
        match *p {
            Progress::Pair { done, total, layer: (m, o), states } => {
                let label = if m == o { format!("({m},{o})") } else { format!("({m},{o})+({o},{m})") };
                *bar = if terminal { ProgressBar::new(steps) } else { ProgressBar::hidden() };
                bar.set_style(
                    ProgressStyle::with_template("{prefix} {bar:30} {msg}  {elapsed}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar.set_prefix(format!("pair {}/{total} {label} {states} states", done + 1));
                if let Ok(mut l) = pair_label.lock() {
                    *l = format!("pair {}/{total} {label}: {states} states", done + 1);
                }
            }
            Progress::Sweep { sweep, change } => {
                bar.set_position(((-change.max(1e-300).log10() * 10.0).max(0.0) as u64).min(steps));
                bar.set_message(format!("sweep {sweep}, change {change:.1e}"));
            }
            Progress::PairDone { sweeps, residual } => {
                let elapsed = bar.elapsed().as_secs_f64();
                bar.finish_and_clear();
                if terminal && let Ok(l) = pair_label.lock() {
                    eprintln!("{l}, {sweeps} sweeps, residual {residual:.1e}, {elapsed:.1} s");
                }
            }
        }
    };
    let options = SolveOptions {
        tolerance: args.tolerance,
        value_type: args.value_type,
        keep_exact: false,
        move_cache: usize::try_from(args.move_cache_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        extrapolate: !args.no_extrapolation,
        progress: Some(&on_progress),
    };
    let solution = pool.install(|| madang_ur_solver::solve(settings, &options))?;
    madang_ur_solver::write_table(&solution.table, &out)?;
    let r = &solution.report;
    let size = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    outln!(
        "solved {name}: {} states, {} sweeps ({:.1} full-table, {} extrapolations), start {:.10} %, residual {:.1e}, {:.1} s on {}, peak memory {}; wrote {} ({:.1} MB, {})",
        r.states,
        r.sweeps,
        r.full_sweeps,
        r.extrapolations,
        100.0 * r.start_value,
        r.residual,
        r.seconds,
        crate::threads(pool.current_num_threads()),
        peak_memory().map_or_else(|| "unknown".to_owned(), gib),
        out.display(),
        size as f64 / 1e6,
        args.value_type.name(),
    )?;
    Ok(())
}

/// Installs the solved Ur table for a game of `game` under `rules` (a rules object as JSON,
/// named `rules_name` in errors) for `madang sim` and `madang review`: `table` when given,
/// else the one `madang ur solve` keeps in the data directory. Returns whether a table is
/// installed.
///
/// # Errors
/// A game other than Ur with `table` given or a table `required` (`needs` says what wanted
/// one); no table there when `table` is given or one is `required`; a table that cannot be
/// read or solves other rules.
pub(crate) fn install_table_for(
    game: &str,
    (rules, rules_name): (&str, &str),
    table: Option<&std::path::Path>,
    data_dir: Option<PathBuf>,
    (required, needs): (bool, &str),
) -> anyhow::Result<bool> {
    if game != <Ur as madang_core::Game>::NAME {
        if table.is_some() || required {
            anyhow::bail!("{needs} for ur only (solved tables exist for ur)");
        }
        return Ok(false);
    }
    let settings = settings_of(rules, rules_name)?;
    let path = match table {
        Some(path) => path.to_path_buf(),
        None => table_path(&crate::data_dir(data_dir.clone())?, &settings),
    };
    if !path.exists() {
        if table.is_some() || required {
            anyhow::bail!(
                "no solved table at {}: write it with `{}` (or pass --table FILE)",
                path.display(),
                solve_command(&settings, table, data_dir.as_deref())
            );
        }
        return Ok(false);
    }
    let table = madang_ur_solver::read_table_for(&path, &settings)?;
    madang_bots::ur::install_table(std::sync::Arc::new(table));
    Ok(true)
}

/// The most positions `madang lab search --solve` solves on the fly: Finkel with 4 pieces has
/// 2,604,884 (8.4 s on 2 cores, `docs/ur-solver.md`); 5 pieces and the full game take minutes.
pub(crate) const SOLVE_ON_THE_FLY: u64 = 3_000_000;

/// Whether a rule set of a balance search has a solved table loaded, so that its first
/// mover's exact winning chance can be read (`Roster::win_chance` of the start).
pub(crate) enum Exact {
    /// The game has no solved tables (every game but Ur).
    NotSolvable,
    /// A table for these rules is loaded: it was already, or it was read from `path`.
    Loaded {
        /// The file read, when one was.
        path: Option<PathBuf>,
    },
    /// Solved on the fly (`--solve`) in `seconds`, not written anywhere.
    Solved {
        /// Positions solved.
        states: u64,
        /// Wall time of the solve.
        seconds: f64,
    },
    /// No table: how to make one.
    Missing {
        /// Positions a solve would take.
        states: u64,
        /// The command that writes the table where the search looks for it.
        command: String,
    },
}

/// Loads (or with `solve`, for at most [`SOLVE_ON_THE_FLY`] positions, solves in memory) the
/// solved table of `game` under `rules` for `madang lab search`: from `<data-dir>/ur/<rules>.table`,
/// where `madang ur solve` writes it.
///
/// # Errors
/// Rules Ur refuses; a table file that cannot be read or solves other rules.
pub(crate) fn exact_table(
    game: &str,
    rules: &serde_json::Value,
    data_dir: Option<PathBuf>,
    solve: bool,
) -> anyhow::Result<Exact> {
    if game != <Ur as madang_core::Game>::NAME {
        return Ok(Exact::NotSolvable);
    }
    let ur = madang_games::build::<Ur>(rules, None).with_context(|| format!("rules {rules}"))?;
    let settings = *ur.settings();
    if madang_bots::ur::table_for(&settings).is_some() {
        return Ok(Exact::Loaded { path: None });
    }
    let path = crate::data_dir(data_dir.clone()).ok().map(|dir| table_path(&dir, &settings));
    if let Some(path) = path.as_ref().filter(|p| p.exists()) {
        let table = madang_ur_solver::read_table_for(path, &settings)?;
        madang_bots::ur::install_table(std::sync::Arc::new(table));
        return Ok(Exact::Loaded { path: Some(path.clone()) });
    }
    let states = madang_ur_solver::Index::new(&settings).count();
    if solve && states <= SOLVE_ON_THE_FLY {
        // f32 values: the start's chance to about 1e-7 (u16 would round it to 1/65535).
        let options = SolveOptions { value_type: ValueType::F32, ..SolveOptions::default() };
        let solution = madang_ur_solver::solve(settings, &options)?;
        madang_bots::ur::install_table(std::sync::Arc::new(solution.table));
        return Ok(Exact::Solved { states, seconds: solution.report.seconds });
    }
    // No data directory is known here (no home): the table can only be named.
    let command = match path {
        Some(_) => solve_command(&settings, None, data_dir.as_deref()),
        None => solve_command(&settings, Some(std::path::Path::new("FILE")), None),
    };
    Ok(Exact::Missing { states, command })
}
