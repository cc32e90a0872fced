//! Solves the Royal Game of Ur: every position's winning chance under perfect play, by value
//! iteration over score layers (`docs/ur-solver.md`).
//!
//! - [`Rules`] and [`Position`]: the rules of `madang-ur` in the solver's form — positions at a
//!   roll with the side to move normalised, and a fast successor function checked against the
//!   engine in the tests.
//! - [`Index`]: the perfect index, a bijection between positions and `0 .. count`.
//! - [`solve`]: value iteration in `f64`, layer by layer from the end of the game backwards,
//!   each layer pair swept in parallel on the current rayon pool until converged.
//! - [`Table`]: the result as 16-bit fixed point (or `f32`), with O(1) [`Table::lookup`], the
//!   perfect player's [`Table::best_move`] and [`Table::win_chance`] for any engine state.
//! - [`file`](mod@file): the table file (header with rules, value type, tolerance, counts and checksum) —
//!   the crate's only I/O.
//!
//! Every preset and option combination of `madang-ur` is supported.

pub mod file;
mod index;
mod rules;
mod solve;
mod table;

use std::path::PathBuf;

use madang_ur::{Dice, PathKind, Preset, UrSettings};

pub use file::{read_header, read_table, read_table_for, write_table};
pub use index::{Block, Index};
pub use rules::{After, Position, Rules};
pub use solve::{
    DEFAULT_MOVE_CACHE, DEFAULT_TOLERANCE, MAX_TOLERANCE, MIN_TOLERANCE, Progress, Solution, SolveOptions, SolveReport,
    residual, solve,
};
pub use table::{Header, MoveValue, Table, ValueType, Values};

/// Everything that can go wrong solving, storing or using a table.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// Settings the solver does not handle.
    #[error("the solver does not handle these rules: {0}")]
    Unsupported(String),
    /// A tolerance that is not a number in `[MIN_TOLERANCE, MAX_TOLERANCE]`.
    #[error(
        "the tolerance must be a number from {min:e} to {max:e} (win-probability units; a smaller one is below what f64 sweeps can settle to, a larger one leaves values off by more than half a u16 step), got {0}",
        min = MIN_TOLERANCE,
        max = MAX_TOLERANCE
    )]
    BadTolerance(f64),
    /// A state that is not a position of the rules.
    #[error("not a position of these rules: {0}")]
    BadState(String),
    /// Values that do not fit the rules.
    #[error("the table does not fit its rules: {0}")]
    BadTable(String),
    /// A table used with a game of other rules.
    #[error("the table solves {} but the game is played under {}", describe(.table), describe(.wanted))]
    OtherRules {
        /// The table's rules.
        table: UrSettings,
        /// The game's rules.
        wanted: UrSettings,
    },
    /// A table file for other rules than expected.
    #[error("{} holds the table for {}, not for {}", .path.display(), describe(.table), describe(.wanted))]
    OtherRulesFile {
        /// The file.
        path: PathBuf,
        /// The rules in its header.
        table: UrSettings,
        /// The rules wanted.
        wanted: UrSettings,
    },
    /// A file that is not a valid table.
    #[error("{}: {reason}", .path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing a file failed. The message includes the operating system's error,
    /// which is therefore not also the error's `source()` (a report printing the chain would
    /// say it twice).
    #[error("{what} {}: {error}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// The operating system's error.
        error: std::io::Error,
    },
}

const PRESETS: [(Preset, &str); 3] =
    [(Preset::Finkel, "finkel"), (Preset::Blitz, "blitz"), (Preset::Masters, "masters")];

/// The table's file name stem for `settings`: the preset's name (`finkel`, `blitz`, `masters`),
/// with `-Npieces` when only the piece count differs from it, or a name spelling out every value
/// (`custom-bell-four_binary-capture_roll-safe-7pieces`).
pub fn table_name(settings: &UrSettings) -> String {
    for (preset, name) in PRESETS {
        let mut p = preset.settings();
        if p == *settings {
            return name.to_owned();
        }
        p.pieces = settings.pieces;
        if p == *settings {
            return format!("{name}-{}pieces", settings.pieces);
        }
    }
    let path = match settings.path {
        PathKind::Bell => "bell",
        PathKind::Masters => "masters",
    };
    let dice = match settings.dice {
        Dice::FourBinary => "four_binary",
        Dice::ThreeBinaryZeroIsFour => "three_binary_zero_is_four",
    };
    format!(
        "custom-{path}-{dice}-{}-{}-{}pieces",
        if settings.capture_extra_roll { "capture_roll" } else { "no_capture_roll" },
        if settings.safe_rosettes { "safe" } else { "unsafe" },
        settings.pieces
    )
}

/// The `rules` object (JSON) that gives `settings`, as `madang ur solve --rules` takes it.
pub fn rules_json(settings: &UrSettings) -> String {
    for (preset, name) in PRESETS {
        let mut p = preset.settings();
        if p == *settings {
            return format!("{{\"preset\":\"{name}\"}}");
        }
        p.pieces = settings.pieces;
        if p == *settings {
            return format!("{{\"preset\":\"{name}\",\"pieces\":{}}}", settings.pieces);
        }
    }
    let path = match settings.path {
        PathKind::Bell => "bell",
        PathKind::Masters => "masters",
    };
    let dice = match settings.dice {
        Dice::FourBinary => "four_binary",
        Dice::ThreeBinaryZeroIsFour => "three_binary_zero_is_four",
    };
    format!(
        "{{\"pieces\":{},\"path\":\"{path}\",\"dice\":\"{dice}\",\"capture_extra_roll\":{},\"safe_rosettes\":{}}}",
        settings.pieces, settings.capture_extra_roll, settings.safe_rosettes
    )
}

/// A short description of rules for messages: `finkel`, `finkel with 3 pieces`, or every value.
pub fn describe(settings: &UrSettings) -> String {
    let name = table_name(settings);
    match name.split_once('-') {
        Some((preset, rest)) if rest.ends_with("pieces") && !name.starts_with("custom") => {
            format!("{preset} with {} pieces", settings.pieces)
        }
        _ if name.starts_with("custom") => format!("the rules {}", rules_json(settings)),
        _ => format!("{name} rules"),
    }
}
