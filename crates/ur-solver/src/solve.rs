//! Value iteration over score layers.
//!
//! A move never lowers a side's borne-off count, so the positions split into layers `(m, o)`
//! that only lead to themselves, to their mirror `(o, m)` (the turn passes) and to the layers
//! one piece further on (a piece borne off). The layers with `m + o = t` form diagonal `t`; the
//! solver takes the diagonals from the last (`2N − 2`) to the first, and on each diagonal every
//! pair `{(m, o), (o, m)}` in turn: it sweeps the pair's positions in parallel (rayon, blocks of
//! one shared-lane configuration each) applying the Bellman operator in place, until a sweep
//! changes no value by more than the tolerance; then one more read-only pass measures the Bellman
//! residual. A diagonal's values are needed in `f64` only until the diagonal before it is
//! solved, then they are stored in the table's value type and freed.
//!
//! **Extrapolation** (first-order minimal polynomial extrapolation: one ratio, fitted by least
//! squares): every sweep records each value's change `d` (as `f32`) and estimates the factor by
//! which the changes shrink as `λ = ⟨d_k, d_{k−1}⟩ / ⟨d_{k−1}, d_{k−1}⟩`. When the estimate is
//! steady ([`Extrapolator`]), the rest of the geometric series, `d_k · λ / (1 − λ)`, is added to
//! every value at once. That only moves where the next sweeps start: a pair still ends on a plain
//! sweep that changes nothing by more than the tolerance. Why and how much: `docs/ur-solver.md`,
//! "Extrapolation".

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use madang_ur::UrSettings;
use rayon::prelude::*;

use crate::SolverError;
use crate::index::{Block, Index};
use crate::rules::{After, Position, Rules};
use crate::table::{Header, Table, ValueType, Values};

/// The default tolerance: the largest change a converged sweep may make, in win-probability
/// units. With it the start values agree with the published figures to better than 1e-11
/// (1e-9 percentage points).
pub const DEFAULT_TOLERANCE: f64 = 1e-13;

/// The smallest tolerance a solve accepts. Values are `f64` in `[0, 1]`, whose own rounding is
/// about 1e-16 per update; below about 5e-16 a sweep's largest change need never fall under the
/// tolerance (a 1-piece solve with 2e-16 sweeps forever), so a margin above that is required.
pub const MIN_TOLERANCE: f64 = 1e-14;

/// The largest tolerance a solve accepts. A solve's values end within about 3 tolerances of the
/// fixed point (the sweeps' changes shrink by about 0.75 a sweep: `docs/ur-solver.md`,
/// "Tolerance"), so with 1e-6 every value is within about 3e-6, under half a step of a `u16`
/// table (1/65535 ≈ 1.5e-5). A looser one writes a table that misleads its reader: with 0.5 a
/// 2-piece solve stopped after 3 sweeps at a start value of 50 %, and its `perfect` player won
/// 47.6 % of its games against `random` (the true table's: 73.3 %).
pub const MAX_TOLERANCE: f64 = 1e-6;

/// The default [`SolveOptions::move_cache`]: 1 GiB, more than any pair of the Finkel and Blitz
/// solves needs (their whole solves peak at 0.81 and 0.76 GiB); for Masters it bounds what the
/// kept moves add to the peak (`docs/ur-solver.md`, "Memory").
pub const DEFAULT_MOVE_CACHE: usize = 1 << 30;

/// Positions a thread takes at a time in a sweep: whole blocks, at least this many but for a
/// pair's last run ([`runs`]).
const RUN: usize = 1024;

/// What [`solve`] reports while it works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// A pair of layers starts: `(m, o)` and its mirror.
    Pair {
        /// Pairs solved so far.
        done: usize,
        /// Pairs in all.
        total: usize,
        /// Pieces borne off by the mover and the opponent in the first layer.
        layer: (u8, u8),
        /// Positions in the pair.
        states: u64,
    },
    /// A sweep of the current pair finished.
    Sweep {
        /// Sweeps of this pair so far.
        sweep: u32,
        /// The largest change of a value in it.
        change: f64,
    },
    /// The pair converged.
    PairDone {
        /// Sweeps it took.
        sweeps: u32,
        /// Its Bellman residual.
        residual: f64,
    },
}

/// How to solve.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    /// Stop a pair's sweeps when no value changes by more than this (win-probability units).
    pub tolerance: f64,
    /// The table's value type.
    pub value_type: ValueType,
    /// Keep every position's `f64` value ([`Solution::exact`]); costs 8 bytes per position.
    pub keep_exact: bool,
    /// Bytes the solver may spend keeping the successors of a layer pair's positions from one
    /// sweep to the next (8 bytes a move), which makes a sweep up to about twice as fast; positions
    /// beyond it work their successors out again at every sweep. [`DEFAULT_MOVE_CACHE`].
    pub move_cache: usize,
    /// Extrapolate a pair's values when its sweeps' changes shrink by a steady factor (module
    /// docs); costs 4 bytes per position of the largest pair. On by default.
    pub extrapolate: bool,
    /// Called as the work progresses.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            tolerance: DEFAULT_TOLERANCE,
            value_type: ValueType::U16,
            keep_exact: false,
            move_cache: DEFAULT_MOVE_CACHE,
            extrapolate: true,
            progress: None,
        }
    }
}

/// Figures of a solve.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// Positions solved.
    pub states: u64,
    /// Pairs of layers.
    pub pairs: usize,
    /// Sweeps over all pairs.
    pub sweeps: u64,
    /// Extrapolations over all pairs (module docs).
    pub extrapolations: u64,
    /// Position updates divided by positions: the work in full-table sweeps.
    pub full_sweeps: f64,
    /// The largest Bellman residual of any pair.
    pub residual: f64,
    /// The first player's winning chance at the start, in `f64`.
    pub start_value: f64,
    /// Wall time.
    pub seconds: f64,
}

/// A solved rule set: the table, its figures and, when asked for, the exact values.
pub struct Solution {
    /// The table.
    pub table: Table,
    /// Every position's `f64` value by index ([`SolveOptions::keep_exact`]).
    pub exact: Option<Vec<f64>>,
    /// Figures.
    pub report: SolveReport,
}

#[inline]
fn load(cell: &AtomicU64) -> f64 {
    f64::from_bits(cell.load(Ordering::Relaxed))
}

/// One successor of a block row (see [`Solver::term`]).
#[derive(Clone, Copy)]
struct Term<'a> {
    a: f64,
    sign: f64,
    cells: &'a [AtomicU64],
    start: usize,
    stride: usize,
}

impl Term<'_> {
    /// `best[rank] = max(best[rank], a + sign × cells[start + rank × stride])` (or `a` for a
    /// constant) for every opponent rank of a row: one term at a time, so each load walks one
    /// steady stride that the prefetcher follows.
    #[inline]
    fn max_into(&self, best: &mut [f64]) {
        if self.cells.is_empty() || self.stride == 0 {
            let v = if self.cells.is_empty() { self.a } else { self.a + self.sign * load(&self.cells[self.start]) };
            for b in best {
                *b = if v > *b { v } else { *b };
            }
            return;
        }
        // Every rank's cell exists (codes are built from valid successors), so the walk below
        // covers all of `best`.
        debug_assert!(
            best.is_empty() || self.start + (best.len() - 1) * self.stride < self.cells.len(),
            "a successor's cells end before the row's last rank"
        );
        let cells = self.cells[self.start..].iter().step_by(self.stride);
        for (b, cell) in best.iter_mut().zip(cells) {
            // Not `f64::max`: values are never NaN, and this is one `maxsd`.
            let v = self.a + self.sign * load(cell);
            *b = if v > *b { v } else { *b };
        }
    }
}

struct Solver<'a> {
    rules: &'a Rules,
    index: &'a Index,
    /// The layers' values by layer id; `None` before a layer is reached or after it is stored.
    layers: Vec<Option<Vec<AtomicU64>>>,
    /// The current pair's layers' last changes (`f32` bits) by layer id, when extrapolating.
    steps: Vec<Option<Vec<AtomicU32>>>,
    /// `orders[k]`: the private ranks `0 .. F(k)` by decreasing progress.
    orders: Vec<Vec<usize>>,
}

/// A successor's code: its value cell's index in its layer (bits 0-31), the index step per
/// opponent private rank (bits 32-39), the layer id (bits 40-47; [`CONSTANT`] for a successor
/// of fixed value), the turn passing (bit 48: the value counts as `1 − v`) and, for a constant,
/// its value (bit 49).
type Code = u64;

/// The layer field of a [`Code`] whose value is fixed: a win, or a terminal layer (the opponent
/// has won), which is never stored.
const CONSTANT: u64 = 0xFF;

impl Solver<'_> {
    #[inline]
    fn value(&self, pos: &Position) -> f64 {
        let layer = self.index.layer_id(pos.me_off, pos.opp_off);
        match &self.layers[layer] {
            Some(values) => load(&values[self.index.within(pos) as usize]),
            // Only terminal layers (the opponent has won) are never stored: worth 0.
            None => 0.0,
        }
    }

    /// The [`Code`] of a successor, for every opponent private rank of a block row: `a + sign ×
    /// value`, the value read at `start + rank × stride` in its layer. Moves never depend on the
    /// opponent's private pieces, so the successor's index is affine in that rank: after a turn
    /// passes they are the new mover's private pieces (stride `F(b)`), after an extra roll still
    /// the opponent's (stride 1).
    fn code(&self, kind: After) -> Code {
        let (pos, swap) = match kind {
            After::Win => return CONSTANT << 40 | 1 << 49,
            After::Again(pos) => (pos, false),
            After::Swap(pos) => (pos, true),
        };
        let layer = self.index.layer_id(pos.me_off, pos.opp_off);
        if self.layers[layer].is_none() {
            // A terminal layer (the opponent has won): worth 0 to the side to move there.
            return CONSTANT << 40 | u64::from(swap) << 49;
        }
        let start = self.index.within(&pos);
        let stride = if swap { self.index.mover_private_stride(&pos) } else { 1 };
        debug_assert!(start <= u64::from(u32::MAX) && stride <= 0xFF && layer < CONSTANT as usize);
        start | stride << 32 | (layer as u64) << 40 | u64::from(swap) << 48
    }

    /// The successor a [`Code`] stands for.
    #[inline]
    fn term(&self, code: Code) -> Term<'_> {
        let layer = (code >> 40 & 0xFF) as usize;
        let swap = code >> 48 & 1 == 1;
        if layer == CONSTANT as usize {
            return Term { a: (code >> 49 & 1) as f64, sign: 0.0, cells: &[], start: 0, stride: 0 };
        }
        // A code's layer is its pair's or the next diagonal's, both stored while the pair's
        // codes live (layers are freed between diagonals).
        debug_assert!(self.layers[layer].is_some(), "layer {layer} freed while its codes live");
        Term {
            a: if swap { 1.0 } else { 0.0 },
            sign: if swap { -1.0 } else { 1.0 },
            cells: self.layers[layer].as_deref().unwrap_or(&[]),
            start: (code & 0xFFFF_FFFF) as usize,
            stride: (code >> 32 & 0xFF) as usize,
        }
    }

    /// Appends a block row's successors to `out`: a header word holding, in byte `r`, how many
    /// codes roll `r` has (a pass counts as one), then the codes roll by roll.
    fn row(&self, block: &Block, me_rank: usize, out: &mut Vec<Code>) {
        let pos0 = self.index.block_position(block, me_rank, 0);
        let pass = self.code(After::Swap(pos0.swapped()));
        let header = out.len();
        out.push(0);
        let mut counts = 0u64;
        for (r, &(roll, _)) in self.rules.rolls().iter().enumerate() {
            let before = out.len();
            let mut mask = if roll == 0 { 0 } else { self.rules.movable(&pos0, roll) };
            if mask == 0 {
                out.push(pass);
            }
            while mask != 0 {
                let from = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                out.push(self.code(self.rules.after(&pos0, from, roll)));
            }
            counts |= ((out.len() - before) as u64) << (8 * r);
        }
        out[header] = counts;
    }

    /// One pass over a block: updates in place when `write`; returns the largest change and,
    /// when the pair records its steps, the sums `⟨d_k, d_{k−1}⟩` and `⟨d_{k−1}, d_{k−1}⟩`.
    /// `codes` holds the block's rows' successors ([`Solver::row`]) from an earlier pass of the
    /// same pair, or, when `fill`, is empty and is filled by this one: the successors stay the
    /// same from sweep to sweep, and working them out (the moves, the successors' indices) was
    /// most of a sweep's cost on the Masters path, whose blocks have few positions per row.
    fn block<'s>(
        &'s self,
        block: &Block,
        write: bool,
        terms: &mut Vec<Term<'s>>,
        codes: &mut Vec<Code>,
        fill: bool,
        row: &mut RowScratch,
    ) -> PassStats {
        let Some(values) = &self.layers[block.layer] else { return PassStats::default() };
        let steps = if write { self.steps[block.layer].as_deref() } else { None };
        let (mut dot, mut prev_sq) = (0.0f64, 0.0f64);
        let (_, fb) = self.index.block_dims(block);
        let rolls = self.rules.rolls();
        let mut change = 0.0f64;
        let start = block.start as usize;
        // Per roll: the end of its terms in `terms`.
        let mut ends = [0usize; 8];
        let mut at = 0;
        for &me_rank in &self.orders[block.a] {
            if fill {
                self.row(block, me_rank, codes);
            }
            let counts = codes[at];
            at += 1;
            terms.clear();
            for (r, end) in ends.iter_mut().enumerate().take(rolls.len()) {
                let count = (counts >> (8 * r) & 0xFF) as usize;
                terms.extend(codes[at..at + count].iter().map(|&code| self.term(code)));
                at += count;
                *end = terms.len();
            }
            // The row's new values, term by term over all opponent ranks (a row's cells are
            // read before any of them is written: a row is a Jacobi step inside a Gauss-Seidel
            // sweep, and the fixed point is the same).
            let RowScratch { best, totals } = row;
            totals.clear();
            totals.resize(fb, 0.0);
            let mut begin = 0;
            for (r, &(_, p)) in rolls.iter().enumerate() {
                best.clear();
                best.resize(fb, 0.0);
                for t in &terms[begin..ends[r]] {
                    t.max_into(best);
                }
                begin = ends[r];
                for (total, best) in totals.iter_mut().zip(best.iter()) {
                    *total += p * best;
                }
            }
            // Written in index order: the row is one run of cells.
            for (opp_rank, &total) in totals.iter().enumerate() {
                let at = start + me_rank * fb + opp_rank;
                let cell = &values[at];
                let step = total - load(cell);
                change = change.max(step.abs());
                if write {
                    cell.store(total.to_bits(), Ordering::Relaxed);
                }
                if let Some(steps) = steps {
                    let before = f64::from(f32::from_bits(steps[at].load(Ordering::Relaxed)));
                    dot += step * before;
                    prev_sq += before * before;
                    steps[at].store((step as f32).to_bits(), Ordering::Relaxed);
                }
            }
        }
        PassStats { change, dot, prev_sq }
    }

    /// One pass over a pair's blocks, in parallel. `kept[k]` is block `k`'s successors (see
    /// [`Solver::block`]) or empty; an empty one is worked out and kept if `budget` (bytes)
    /// still allows. The threads take runs of blocks ([`runs`]) in list order from one shared
    /// counter: a run starts only after every run before it has started, whichever thread
    /// takes it, and as many runs as threads are under way at a time.
    fn pass(
        &self,
        blocks: &[Block],
        runs: &[usize],
        kept: &mut [Vec<Code>],
        budget: &AtomicUsize,
        write: bool,
    ) -> PassStats {
        // Each run's kept moves, behind a lock its one taker never waits for.
        let mut rest = kept;
        let mut kept_by_run = Vec::with_capacity(runs.len().saturating_sub(1));
        for run in runs.windows(2) {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(run[1] - run[0]);
            kept_by_run.push(Mutex::new(head));
            rest = tail;
        }
        let next = AtomicUsize::new(0);
        let total = Mutex::new(PassStats::default());
        let work = || {
            let (mut terms, mut scratch, mut row) = (Vec::new(), Vec::new(), RowScratch::default());
            let mut stats = PassStats::default();
            loop {
                let run = next.fetch_add(1, Ordering::Relaxed);
                if run + 1 >= runs.len() {
                    let mut total = total.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    *total = total.merge(stats);
                    return;
                }
                let mut kept = kept_by_run[run].lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                for (b, codes) in blocks[runs[run]..runs[run + 1]].iter().zip(kept.iter_mut()) {
                    let block_stats = if codes.is_empty() {
                        scratch.clear();
                        let block_stats = self.block(b, write, &mut terms, &mut scratch, true, &mut row);
                        let bytes = std::mem::size_of_val(scratch.as_slice());
                        if budget
                            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(bytes))
                            .is_ok()
                        {
                            codes.clone_from(&scratch);
                        }
                        block_stats
                    } else {
                        self.block(b, write, &mut terms, codes, false, &mut row)
                    };
                    stats = stats.merge(block_stats);
                }
            }
        };
        // One task per thread, no more than there are runs: a pool of many threads (or a pair of
        // few blocks) wakes only as many as can have work.
        let tasks = rayon::current_num_threads().min(runs.len().saturating_sub(1)).max(1);
        rayon::scope(|scope| {
            for _ in 1..tasks {
                scope.spawn(|_| work());
            }
            work();
        });
        total.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds `factor × step` to every value of the layers `ids`, kept inside `[0, 1]`.
    fn extrapolate(&self, ids: &[usize], factor: f64) {
        for &id in ids {
            let (Some(values), Some(steps)) = (&self.layers[id], &self.steps[id]) else { continue };
            values.par_iter().zip(steps.par_iter()).with_min_len(1 << 14).for_each(|(cell, step)| {
                let step = f64::from(f32::from_bits(step.load(Ordering::Relaxed)));
                let value = (load(cell) + factor * step).clamp(0.0, 1.0);
                cell.store(value.to_bits(), Ordering::Relaxed);
            });
        }
    }
}

/// A block row's working values, kept between rows: per opponent rank, the best term of the
/// roll being summed and the roll-weighted total so far.
#[derive(Default)]
struct RowScratch {
    best: Vec<f64>,
    totals: Vec<f64>,
}

/// What one pass over blocks measured.
#[derive(Clone, Copy, Default)]
struct PassStats {
    /// The largest change of a value.
    change: f64,
    /// `⟨d_k, d_{k−1}⟩` over the recorded steps.
    dot: f64,
    /// `⟨d_{k−1}, d_{k−1}⟩`.
    prev_sq: f64,
}

impl PassStats {
    fn merge(self, other: PassStats) -> PassStats {
        PassStats {
            change: self.change.max(other.change),
            dot: self.dot + other.dot,
            prev_sq: self.prev_sq + other.prev_sq,
        }
    }
}

/// Decides when to extrapolate a pair (module docs), from its sweeps' estimates of λ: when the
/// last three agree to [`Extrapolator::AGREEMENT`], |λ| is below [`Extrapolator::MAX_RATIO`],
/// the pair is not in its last sweeps and has not used up [`Extrapolator::MAX_PER_PAIR`].
#[derive(Default)]
struct Extrapolator {
    /// The last three estimates at most, newest last; cleared when the values jump.
    estimates: Vec<f64>,
    /// The values jumped before the last sweep, whose step so measures the jump, not the decay.
    jumped: bool,
    /// Extrapolations so far.
    done: u32,
}

impl Extrapolator {
    /// Estimates agreeing to this relative difference are steady. Chosen by measurement
    /// (`docs/ur-solver.md`, "Extrapolation"): on the 4-piece Finkel solve 1 % saved 11 % of the
    /// position updates and 10 % saved 27 %, with no clear gain beyond (20 %: 29 %, 40 %: 28 %).
    const AGREEMENT: f64 = 0.1;
    /// Extrapolate only for `|λ|` below this: near ±1 the mode barely decays and the estimate is
    /// at its least reliable (near +1 the factor `λ / (1 − λ)` also magnifies its error).
    const MAX_RATIO: f64 = 0.98;
    /// At most this many per pair, so that plain sweeps always get the last word (the 7-piece
    /// Finkel solve uses about 8 per pair).
    const MAX_PER_PAIR: u32 = 64;
    /// No extrapolation once a sweep's largest change is within this many tolerances: a jump
    /// there could only cost a sweep.
    const LATE: f64 = 16.0;

    /// Records a sweep of a pair solved to `tolerance`; returns the factor to extrapolate with
    /// now, if any.
    fn sweep(&mut self, stats: &PassStats, tolerance: f64) -> Option<f64> {
        if std::mem::take(&mut self.jumped) || stats.prev_sq <= 0.0 {
            self.estimates.clear();
            return None;
        }
        let lambda = stats.dot / stats.prev_sq;
        if self.estimates.len() == 3 {
            self.estimates.remove(0);
        }
        self.estimates.push(lambda);
        if self.estimates.len() < 3 || stats.change <= Self::LATE * tolerance || self.done >= Self::MAX_PER_PAIR {
            return None;
        }
        let steady = self.estimates.windows(2).all(|w| (w[1] - w[0]).abs() <= Self::AGREEMENT * w[1].abs());
        if !steady || lambda.abs() >= Self::MAX_RATIO {
            return None;
        }
        self.estimates.clear();
        self.jumped = true;
        self.done += 1;
        Some(lambda / (1.0 - lambda))
    }
}

/// The runs of consecutive blocks a sweep hands out, from the blocks' sizes in positions: run
/// `r` is blocks `runs[r] .. runs[r + 1]`, of at least [`RUN`] positions but for the last. The
/// runs cover every block once; no blocks, no runs (`[0]`).
fn runs(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut runs = vec![0];
    let (mut size, mut blocks) = (0, 0);
    for s in sizes {
        blocks += 1;
        size += s;
        if size >= RUN {
            runs.push(blocks);
            size = 0;
        }
    }
    if runs.last() != Some(&blocks) {
        runs.push(blocks);
    }
    runs
}

/// Solves the rules `settings`.
///
/// Sweeps run on the current rayon pool (the global one outside [`rayon::ThreadPool::install`]),
/// a task per thread at most.
///
/// # Errors
/// [`SolverError::Unsupported`] for settings the index does not handle, [`SolverError::BadTolerance`]
/// for a tolerance that is not a number in `[MIN_TOLERANCE, MAX_TOLERANCE]`.
pub fn solve(settings: UrSettings, options: &SolveOptions<'_>) -> Result<Solution, SolverError> {
    if !(MIN_TOLERANCE..=MAX_TOLERANCE).contains(&options.tolerance) {
        return Err(SolverError::BadTolerance(options.tolerance));
    }
    let started = Instant::now();
    let rules = Rules::new(settings)?;
    let index = Index::new(&settings);
    // What a [`Code`] can hold: a layer's indices in 32 bits, each roll's moves in a byte of a
    // row's header. Every rule set today is far inside (Masters, the largest, has 501 M
    // positions in all, five rolls, at most eight moves a roll).
    if (0..index.layers()).any(|l| index.layer_len(l) > u64::from(u32::MAX)) || rules.rolls().len() > 8 {
        return Err(SolverError::Unsupported("a layer of over 2^32 positions or dice of over 8 rolls".into()));
    }
    let n = usize::from(settings.pieces);
    let progress = |p: Progress| {
        if let Some(f) = options.progress {
            f(&p);
        }
    };
    let orders = (0..=n)
        .map(|k| {
            let (fk, _) = index.block_dims(&Block { layer: 0, start: 0, me_tiles: 0, opp_tiles: 0, a: k, b: 0 });
            let mut ranks: Vec<usize> = (0..fk).collect();
            ranks.sort_by_key(|&r| std::cmp::Reverse(index.private_progress(r)));
            ranks
        })
        .collect();
    let mut solver = Solver {
        rules: &rules,
        index: &index,
        layers: (0..index.layers()).map(|_| None).collect(),
        steps: (0..index.layers()).map(|_| None).collect(),
        orders,
    };
    let mut values = Values::new(options.value_type, index.count() as usize);
    let mut exact = options.keep_exact.then(|| vec![0.0f64; index.count() as usize]);
    let mut store = |solver: &mut Solver<'_>, layer: usize| {
        if let Some(cells) = solver.layers[layer].take() {
            let start = index.layer_start(layer) as usize;
            let plain: Vec<f64> = cells.into_iter().map(|c| f64::from_bits(c.into_inner())).collect();
            values.fill(start, &plain);
            if let Some(exact) = &mut exact {
                exact[start..start + plain.len()].copy_from_slice(&plain);
            }
        }
    };
    let pairs: Vec<Vec<(u8, u8)>> = (0..=2 * n - 2)
        .rev()
        .map(|t| (0..n).filter(|&m| t >= m && t - m < n && m <= t - m).map(|m| (m as u8, (t - m) as u8)).collect())
        .collect();
    let total_pairs: usize = pairs.iter().map(Vec::len).sum();
    let mut report = SolveReport {
        states: index.count(),
        pairs: total_pairs,
        sweeps: 0,
        extrapolations: 0,
        full_sweeps: 0.0,
        residual: 0.0,
        start_value: 0.0,
        seconds: 0.0,
    };
    let mut updates = 0u64;
    let mut done = 0;
    for (d, diagonal) in pairs.iter().enumerate() {
        for &(m, o) in diagonal {
            let mut ids = vec![index.layer_id(m, o)];
            if m != o {
                ids.push(index.layer_id(o, m));
            }
            let mut blocks = Vec::new();
            let mut states = 0;
            for &id in &ids {
                let len = index.layer_len(id) as usize;
                states += len as u64;
                solver.layers[id] = Some((0..len).map(|_| AtomicU64::new(0.5f64.to_bits())).collect());
                if options.extrapolate {
                    solver.steps[id] = Some((0..len).map(|_| AtomicU32::new(0)).collect());
                }
                blocks.extend(index.blocks(id));
            }
            let runs = runs(blocks.iter().map(|b| {
                let (fa, fb) = index.block_dims(b);
                fa * fb
            }));
            progress(Progress::Pair { done, total: total_pairs, layer: (m, o), states });
            let mut kept = vec![Vec::new(); blocks.len()];
            let budget = AtomicUsize::new(options.move_cache);
            let mut sweeps = 0u32;
            let mut extrapolator = Extrapolator::default();
            loop {
                let stats = solver.pass(&blocks, &runs, &mut kept, &budget, true);
                let change = stats.change;
                sweeps += 1;
                progress(Progress::Sweep { sweep: sweeps, change });
                if change <= options.tolerance {
                    break;
                }
                if options.extrapolate
                    && let Some(factor) = extrapolator.sweep(&stats, options.tolerance)
                {
                    solver.extrapolate(&ids, factor);
                    report.extrapolations += 1;
                }
            }
            for &id in &ids {
                solver.steps[id] = None;
            }
            let residual = solver.pass(&blocks, &runs, &mut kept, &budget, false).change;
            progress(Progress::PairDone { sweeps, residual });
            report.sweeps += u64::from(sweeps);
            report.residual = report.residual.max(residual);
            updates += states * u64::from(sweeps);
            done += 1;
        }
        // Diagonal d is solved: the one after it (d − 1 in this order) is no longer read.
        if d > 0 {
            for &(m, o) in &pairs[d - 1] {
                store(&mut solver, index.layer_id(m, o));
                store(&mut solver, index.layer_id(o, m));
            }
        }
    }
    report.start_value = solver.value(&Position { me: 0, opp: 0, me_off: 0, opp_off: 0 });
    if let Some(last) = pairs.last() {
        for &(m, o) in last {
            store(&mut solver, index.layer_id(m, o));
            store(&mut solver, index.layer_id(o, m));
        }
    }
    report.full_sweeps = updates as f64 / index.count().max(1) as f64;
    report.seconds = started.elapsed().as_secs_f64();
    let header = Header::new(settings, options.value_type, options.tolerance, &report);
    let table = Table::from_parts(header, values)?;
    Ok(Solution { table, exact, report })
}

/// The largest Bellman residual of `values` (every position's value by index), for checking a
/// solution: the most any value changes under one more application of the rules.
///
/// # Errors
/// [`SolverError::Unsupported`] for settings the index does not handle, or [`SolverError::BadTable`]
/// when `values` has the wrong length.
pub fn residual(settings: UrSettings, values: &[f64]) -> Result<f64, SolverError> {
    let rules = Rules::new(settings)?;
    let index = Index::new(&settings);
    if values.len() as u64 != index.count() {
        return Err(SolverError::BadTable(format!("{} values for {} positions", values.len(), index.count())));
    }
    let n = index.pieces() as u8;
    let value = |pos: &Position| values[index.index(pos) as usize];
    let residual = (0..index.count())
        .into_par_iter()
        .map(|i| {
            let Some(pos) = index.position(i) else { return 0.0 };
            let new = if pos.opp_off == n { 0.0 } else { rules.bellman(&pos, value) };
            (new - values[i as usize]).abs()
        })
        .reduce(|| 0.0, f64::max);
    Ok(residual)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Far from the tolerance below.
    const TOLERANCE: f64 = 1e-13;

    /// The sums a sweep reports when every step is `lambda` times the one before (of size 1).
    fn geometric(lambda: f64) -> PassStats {
        PassStats { change: lambda.abs(), dot: lambda, prev_sq: 1.0 }
    }

    #[test]
    fn runs_cover_every_block_once_in_order_with_at_least_run_positions_but_the_last() {
        assert_eq!(runs(std::iter::empty()), [0]);
        // One block of any size is one run.
        assert_eq!(runs([1].into_iter()), [0, 1]);
        assert_eq!(runs([RUN * 3].into_iter()), [0, 1]);
        // Blocks of RUN / 2: two to a run; an odd one out is a short last run.
        assert_eq!(runs([RUN / 2; 4].into_iter()), [0, 2, 4]);
        assert_eq!(runs([RUN / 2; 5].into_iter()), [0, 2, 4, 5]);
        // A run closes at the block that reaches RUN: 1 + (RUN − 1), then RUN, then 1 left over.
        assert_eq!(runs([1, RUN - 1, RUN, 1].into_iter()), [0, 2, 3, 4]);
    }

    #[test]
    fn a_steady_decay_is_extrapolated_to_the_tail_of_its_geometric_series() {
        let mut e = Extrapolator::default();
        assert_eq!(e.sweep(&geometric(-0.75), TOLERANCE), None);
        assert_eq!(e.sweep(&geometric(-0.75), TOLERANCE), None);
        // λ / (1 − λ) for λ = −0.75: −0.75 / 1.75.
        assert_eq!(e.sweep(&geometric(-0.75), TOLERANCE), Some(-0.75 / 1.75));
        // The next sweep measures the jump: ignored, and three fresh estimates are needed.
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), None);
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), None);
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), None);
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), Some(1.0));
    }

    #[test]
    fn unsteady_slow_or_unmeasured_decays_are_left_alone() {
        let mut e = Extrapolator::default();
        for lambda in [0.5, 0.6, 0.5, 0.6, 0.5] {
            assert_eq!(e.sweep(&geometric(lambda), TOLERANCE), None, "estimates 20 % apart");
        }
        let mut e = Extrapolator::default();
        for _ in 0..5 {
            assert_eq!(e.sweep(&geometric(0.99), TOLERANCE), None, "|λ| ≥ 0.98: the factor magnifies noise");
        }
        let mut e = Extrapolator::default();
        e.sweep(&geometric(0.5), TOLERANCE);
        e.sweep(&geometric(0.5), TOLERANCE);
        // No earlier step (the first sweep, or nothing changed): no estimate, start again.
        assert_eq!(e.sweep(&PassStats::default(), TOLERANCE), None);
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), None);
        // After the most a pair may have, never again.
        let mut e = Extrapolator { done: Extrapolator::MAX_PER_PAIR, ..Extrapolator::default() };
        for _ in 0..5 {
            assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), None);
        }
        // Nor in a pair's last sweeps; their estimates still count, so a steady one acts at once.
        let mut e = Extrapolator::default();
        let late = PassStats { change: 10.0 * TOLERANCE, ..geometric(0.5) };
        for _ in 0..3 {
            assert_eq!(e.sweep(&late, TOLERANCE), None);
        }
        assert_eq!(e.sweep(&geometric(0.5), TOLERANCE), Some(1.0));
    }
}
