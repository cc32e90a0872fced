//! The designer's lab beyond one `madang sim` run: the **balance search** (`madang lab search`,
//! issue 17, `docs/lab.md`, "Balance search").
//!
//! A search walks the rule options a game declares ([`madang_games::Describe::info`]'s
//! `options`): [`rule_sets`] turns the options to vary into the rule sets to compare (every
//! value of an enum, both of a boolean, each integer of a range). [`plan`] checks them against
//! the game's rules, and [`run`] plays them under the chosen bots through [`madang_sim::simulate`]
//! in batches, ranking them by how close the first mover's edge is to 0
//! ([`madang_sim::FirstMoverEdge`], the score edge) and dropping, after each batch, every rule
//! set that is clearly less balanced than another ([`eliminated`]: successive elimination with
//! simultaneous Wilson intervals, Bonferroni over rule sets and looks).
//!
//! Game `i` of every rule set is game `i` of a `madang sim` run with the search's seed, so a
//! rule set's games after `k` batches are exactly the first games of that run, whatever the
//! number of threads. Nothing here names a game: the option schema and the [`madang_bots::Roster`]
//! (the bots, and an exact winning chance where the game has a solved table loaded) say it all.

mod options;
mod search;

pub use options::{MAX_RULE_SETS, rule_sets};
pub use search::{
    Plan, Progress, SearchConfig, SearchReport, Skipped, Status, VariantResult, eliminated, normal_quantile, plan, run,
};

/// Why a balance search cannot be set up or run, in the terms of `madang lab search`'s options.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LabError {
    /// `--options` is empty.
    #[error("--options names no option to vary; the game declares: {declared}")]
    NothingToVary {
        /// The declared option keys, comma-separated.
        declared: String,
    },
    /// A key the game does not declare.
    #[error("--options: {game} has no rule option `{key}`; it declares: {declared}")]
    UnknownOption {
        /// The game.
        game: String,
        /// The key given.
        key: String,
        /// The declared option keys, comma-separated (or "none").
        declared: String,
    },
    /// A key listed twice in `--options`.
    #[error("--options lists `{0}` twice")]
    Repeated(String),
    /// A key both fixed by `--rules` and varied.
    #[error("`{0}` is fixed by --rules and varied by --options: drop it from one of them")]
    FixedAndVaried(String),
    /// An option with no finite list of values and none given.
    #[error(
        "rule option `{key}` ({kind}) has no finite list of values to walk: give the values to try with --values '{{\"{key}\": [A, B, …]}}'"
    )]
    NotEnumerable {
        /// The key.
        key: String,
        /// Its declared type (`fraction`, `layout`, …).
        kind: String,
    },
    /// `--values` is malformed or names an option that is not varied.
    #[error("--values: {0}")]
    Values(String),
    /// More rule sets than a search takes.
    #[error(
        "the options give {count} rule sets; a search takes at most {max}: vary fewer options or give fewer --values"
    )]
    TooMany {
        /// Rule sets the options give (saturating).
        count: u128,
        /// [`MAX_RULE_SETS`].
        max: usize,
    },
    /// The base rules are not a JSON object.
    #[error("--rules must be a JSON object, got {0}")]
    BaseNotObject(String),
    /// A value the game refuses on its own (with the base rules).
    #[error("--values: the rules refuse {rules}: {reason}")]
    RefusedValue {
        /// The rule set with that value alone.
        rules: String,
        /// The game's reason.
        reason: String,
    },
    /// The game refuses every rule set of the walk.
    #[error("the rules refuse every rule set of the walk, e.g. {rules}: {reason}")]
    AllRefused {
        /// The first rule set.
        rules: String,
        /// The game's reason.
        reason: String,
    },
    /// An unknown game or base rules the game refuses.
    #[error(transparent)]
    Record(#[from] madang_games::RecordError),
    /// A bad search setting (`--batch`, `--max-games`, `--alpha`).
    #[error("{0}")]
    Setting(String),
    /// The bots do not fit the game, or a run could not start.
    #[error(transparent)]
    Sim(#[from] madang_sim::SimError),
}
