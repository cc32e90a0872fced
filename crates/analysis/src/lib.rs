//! Analysis for every madang game: the chance that each side wins from a position, a review of
//! every decision of a game, and luck against skill (`docs/analysis.md`).
//!
//! - [`chances`]: winning chances at sibling positions. [`Exact`] reads a solved table (Ur, with
//!   one loaded: perfect play by both sides); [`Playouts`] estimates by Monte Carlo playouts with
//!   the game's rollout bot, on **common random numbers** (the same dice at every position
//!   compared), with a 95 % interval.
//! - [`review()`]: each decision's chosen and best moves' chances, the loss in percentage points
//!   and its [`Grade`], each chance outcome's luck, the winning-chance graph, accuracy, key
//!   moments, and per side the decomposition *result = initial chance + luck − own losses +
//!   what the others' decisions gave* (exact with a table; the residual is estimation noise
//!   otherwise).
//!
//! Generic over the engine model (`madang_bots::Roster`); no I/O. Playouts run in parallel on
//! rayon.

pub mod chances;
pub mod review;

pub use chances::{Compared, Exact, MODEL_MARGIN, Playouts, Values, Z95, result_values};
pub use review::{
    ChanceReview, Decided, Grade, KeyMoment, MoveReview, Point, Precision, Review, SideSummary, THRESHOLDS, Thresholds,
    accuracy, review, review_decision,
};
