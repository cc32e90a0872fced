//! `madang`: the one binary (spec `platform.md`, "One binary").
//!
//! Only this crate knows the terminal: it reads files and standard input, prints JSON and
//! progress bars, and maps errors to exit statuses (0 success, 1 a failed verification,
//! 2 bad input).

#![allow(clippy::print_stdout, clippy::print_stderr)]

/// `print!` that returns the write's `io::Result` instead of panicking: standard output closed
/// early (piped into `head`) is an error `main` ends on quietly.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `println!` as [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod lab;
mod review;
mod serve;
mod sim;
mod solve;

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use madang_games::{Record, VerifyError};

/// mimalloc: the server allocates many short-lived buffers per message (JSON, frames), and
/// glibc's allocator was a fifth of its CPU time under load (docs/server.md, "Load").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "madang",
    version,
    about = "Traditional dice and race games: Yut Nori, Ludo, the Royal Game of Ur, Seven Dice Poker"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply a game record and print the resulting state as JSON.
    Replay {
        /// The record file, or `-` for standard input.
        file: PathBuf,
    },
    /// Review a game record: each decision's winning chances, loss and grade, the luck of each
    /// roll or throw, accuracy, luck against skill (exact with a solved Ur table, else estimated).
    Review(review::ReviewArgs),
    /// Check every chance outcome of a record against its revealed `seed`.
    Verify {
        /// The record file, or `-` for standard input.
        file: PathBuf,
    },
    /// Play many seeded games between bots and report win rates and game lengths.
    Sim(Box<sim::SimArgs>),
    /// Run the web app and its HTTP and WebSocket API: games against the computer, on one screen and in
    /// rooms; the lab.
    Serve(serve::ServeArgs),
    /// List every kind of event each game reports, with its fields (for message catalogues).
    Events {
        /// Print JSON: `{"GAME": [{"kind", "fields"}, …], …}`.
        #[arg(long)]
        json: bool,
    },
    /// The designer's lab: `madang lab search`, the balance search over a game's rule options.
    Lab {
        #[command(subcommand)]
        command: lab::LabCommand,
    },
    /// The Royal Game of Ur's own tools: `madang ur solve`.
    Ur {
        #[command(subcommand)]
        command: solve::UrCommand,
    },
}

/// A failure with the exit status it maps to.
pub(crate) struct Failure {
    status: u8,
    error: anyhow::Error,
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure { status: 2, error: error.into() }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output went away (`madang replay … | head`): nothing more to say.
        Err(failure)
            if failure
                .error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("madang: {:#}", failure.error);
            ExitCode::from(failure.status)
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Replay { file } => {
            let record = read_record(&file)?;
            let view = madang_games::replay(&record)?;
            outln!("{}", serde_json::to_string_pretty(&view)?)?;
            Ok(())
        }
        Command::Events { json } => {
            let kinds = madang_games::event_kinds();
            if json {
                let map: serde_json::Map<String, serde_json::Value> =
                    kinds.iter().map(|(game, list)| ((*game).to_owned(), serde_json::json!(list))).collect();
                outln!("{}", serde_json::to_string_pretty(&map)?)?;
            } else {
                for (game, list) in kinds {
                    for kind in list {
                        outln!("{game}\t{}\t{}", kind.kind, kind.fields.join(", "))?;
                    }
                }
            }
            Ok(())
        }
        Command::Sim(args) => sim::run(*args),
        Command::Review(args) => review::run(args),
        Command::Serve(args) => serve::run(args).map_err(Failure::from),
        Command::Ur { command } => solve::run(command),
        Command::Lab { command } => lab::run(command),
        Command::Verify { file } => {
            let text = read_text(&file)?;
            let record = Record::from_json(&text).map_err(anyhow::Error::from)?;
            check_commitment(&text, &record)?;
            match madang_games::verify(&record) {
                Ok(checked) => {
                    let result = check_result(&text, &record)?;
                    outln!("ok: all {checked} chance outcomes are the ones the seed gives{result}")?;
                    Ok(())
                }
                Err(e @ VerifyError::Mismatch { .. }) => Err(Failure { status: 1, error: e.into() }),
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// The most worker threads `--threads` may ask for: far more than any machine's cores, and few
/// enough that starting them takes no noticeable time (100,000 took seconds and hundreds of MB).
const MAX_THREADS: usize = 1024;

/// `1 thread` or `N threads`, for the summaries.
pub(crate) fn threads(n: usize) -> String {
    count(n as u64, "thread", "threads")
}

/// `n` and the word for one or for several: `1 game`, `2 games`, `0 games`.
pub(crate) fn count(n: u64, one: &str, several: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {several}") }
}

/// `--threads N`: a whole number from 1 to [`MAX_THREADS`] (negative numbers reach this check
/// instead of being taken for a flag).
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 1 => Err(format!("--threads must be at least 1, got {text}")),
        Ok(n) if n > MAX_THREADS as i128 => Err(format!("--threads must be at most {MAX_THREADS}, got {text}")),
        Ok(n) => Ok(n as usize),
        Err(_) => Err(format!("expected a whole number of threads from 1 to {MAX_THREADS}, got {text:?}")),
    }
}

/// A count or seed flag (`--games`, `--seed`, `--analyse`): a whole number of 0 or more, at
/// most 2^64 - 1 (negative numbers reach this check instead of being taken for a flag). Whether
/// 0 is allowed is the flag's own check.
pub(crate) fn parse_whole(text: &str) -> Result<u64, String> {
    parse_at_least(text, 0)
}

/// A count that must be at least 1 (`madang sim --games`, `madang lab search --max-games` and
/// `--batch`): as [`parse_whole`], with 0 and negative numbers named as below 1, and a number
/// too large named with the same lower bound.
pub(crate) fn parse_count(text: &str) -> Result<u64, String> {
    parse_at_least(text, 1)
}

/// A whole number from `least` to 2^64 - 1; the error names that range whatever was wrong.
fn parse_at_least(text: &str, least: u64) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < i128::from(least) => Err(format!("expected a whole number of {least} or more, got {text}")),
        _ => text.trim().parse::<u64>().map_err(|_| {
            format!("expected a whole number from {least} to {}, got {:?}", u64::MAX, madang_core::echo(text))
        }),
    }
}

/// `--players N`: a seat count written as the notation writes numbers (digits, no sign, no
/// leading zero; negative numbers reach this check instead of being taken for a flag). Whether
/// the game allows it is the game's to say ("bad player count").
pub(crate) fn parse_players(text: &str) -> Result<usize, String> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return Err(format!(
            "--players must be a whole number of seats such as 2 or 4, without sign or leading zeros, got {:?}",
            madang_core::echo(text)
        ));
    }
    text.parse().map_err(|_| format!("--players {} is far more seats than any game has", madang_core::echo(text)))
}

/// The worker threads of `--threads` (default: every core), checked by [`parse_threads`].
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads.clamp(1, MAX_THREADS));
    }
    Ok(pool.build().context("starting worker threads")?)
}

/// `--data-dir`, or the user's data directory (`~/.local/share/madang` on Linux), where
/// `madang serve` keeps its database and `madang ur solve` its tables.
pub(crate) fn data_dir(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    match given {
        Some(dir) => Ok(dir),
        None => Ok(dirs::data_dir().context("no user data directory is known here: pass --data-dir")?.join("madang")),
    }
}

fn read_record(file: &PathBuf) -> anyhow::Result<Record> {
    Ok(Record::from_json(&read_text(file)?)?)
}

fn read_text(file: &PathBuf) -> anyhow::Result<String> {
    let mut text = String::new();
    if file.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).context("reading the record from standard input")?;
    } else {
        text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    }
    Ok(text)
}

/// A platform record's `commitment` (the SHA-256 of the seed shown while the game was played)
/// must be the revealed seed's: otherwise the seed is not the one committed to.
/// A record's `result`, when it states one (the server writes it), must be the one its actions
/// and `end` give, as `madang replay` works it out: exit 1 naming both when it is not. Returns
/// the words `verify` adds for a result checked.
fn check_result(text: &str, record: &Record) -> Result<&'static str, Failure> {
    let stated = serde_json::from_str::<serde_json::Value>(text).ok().and_then(|v| v.get("result").cloned());
    let Some(stated) = stated else { return Ok("") };
    let replayed = serde_json::to_value(madang_games::replay(record)?)?;
    let worked_out = replayed.get("result").cloned().unwrap_or_default();
    if stated != worked_out {
        return Err(Failure {
            status: 1,
            error: anyhow::anyhow!(
                "the record's `result` is not the one its actions give: it says {}, its actions give {}",
                madang_core::echo(&stated.to_string()),
                worked_out
            ),
        });
    }
    Ok(", and its `result` is the one its actions give")
}

fn check_commitment(text: &str, record: &Record) -> Result<(), Failure> {
    let Some(seed) = record.seed else { return Ok(()) };
    let committed = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("commitment").and_then(|c| c.as_str()).map(str::to_owned));
    match committed {
        Some(c) if !c.eq_ignore_ascii_case(&seed.commitment()) => Err(Failure {
            status: 1,
            error: anyhow::anyhow!(
                "the record's commitment {c} is not the SHA-256 of its seed ({}): the seed is not the one committed to",
                seed.commitment()
            ),
        }),
        _ => Ok(()),
    }
}
