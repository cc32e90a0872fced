//! Computer players for Ludo (spec `ludo.md`, "CPU levels"). None searches ahead: each judges
//! only the moves available for the current roll.
//!
//! | name | what it does |
//! |---|---|
//! | `easy` = `random` | a uniformly random legal move |
//! | `normal` | by priority: capture (5; more pieces sent home first), finish (4), leave base (3), land on a safe square (2), advance (1) |
//! | `hard` | each move valued as its priority minus [`capture_risk`] of its destination |
//! | `advance` | always the most advanced movable piece (a baseline; never draws) |
//!
//! `normal` and `hard` break ties by one `uniform_below(number of tied moves)` draw from the
//! bot's `bot:SEAT` stream, made only when two or more moves tie.

use madang_core::Game;
use madang_ludo::{
    BASE, GOAL, LAST_TRACK, Ludo, LudoAction, LudoState, MoveEffect, PIECES, SEATS, TRACK_LEN, is_safe, progress_on,
    track_square,
};
use madang_seed::{Stream, uniform_below};

use crate::{Bot, BotError, Evaluation, RandomBot, Roster};

/// The priority values of `normal` and `hard` (ludo.md "CPU levels").
pub mod priority {
    /// The move captures at least one enemy piece.
    pub const CAPTURE: u32 = 5;
    /// The move reaches the goal.
    pub const FINISH: u32 = 4;
    /// The move takes a piece out of base.
    pub const LEAVE_BASE: u32 = 3;
    /// The move lands on one of the 8 safe track squares (a start or a star).
    pub const SAFE_SQUARE: u32 = 2;
    /// Any other move.
    pub const ADVANCE: u32 = 1;
}

/// The priority value of a move: the first of capture, finish, leave base, safe square that
/// applies, else advance.
pub fn priority_of(effect: &MoveEffect) -> u32 {
    if effect.captures() > 0 {
        priority::CAPTURE
    } else if effect.finishes() {
        priority::FINISH
    } else if effect.leaves_base() {
        priority::LEAVE_BASE
    } else if effect.lands_on_safe_square() {
        priority::SAFE_SQUARE
    } else {
        priority::ADVANCE
    }
}

/// The denominator of one seat's threat: probabilities are counted in 216ths (1/6 = 36/216,
/// 1/36 = 6/216, 1/216).
pub const THREAT_DENOMINATOR: u32 = 216;
/// The denominator of [`capture_risk_exact`]: 216³, one factor per opponent seat.
pub const RISK_DENOMINATOR: u64 = 216 * 216 * 216;

/// Seat `opponent`'s chance, in 216ths, that its next turn ends a piece exactly on track square
/// `square` (ludo.md "Hard"): for each distinct distance d (1-17) at which it has a piece behind
/// the square that can reach it without turning into its home column, 36 for d = 1-6, 6 for
/// 7-12, 1 for 13-17; plus 6 when it has a piece in base and the square is 1-6 past its start
/// square; capped at 216. Safe squares are not special-cased here (see [`capture_risk_exact`]).
pub fn seat_threat(progress: &[[i8; PIECES]; SEATS], opponent: usize, square: u8) -> u32 {
    // Distances already counted, bit d.
    let mut distances = 0u32;
    let mut in_base = false;
    for &p in &progress[opponent] {
        let Some(from) = track_square(opponent, p) else {
            in_base |= p == madang_ludo::BASE;
            continue;
        };
        let d = (u32::from(square) + 52 - u32::from(from)) % 52;
        // Only squares the piece may legally reach: it leaves the track after progress 50.
        if (1..=17).contains(&d) && i32::from(p) + d as i32 <= i32::from(madang_ludo::LAST_TRACK) {
            distances |= 1 << d;
        }
    }
    let mut threat = 36 * (distances & 0b111_1110).count_ones()
        + 6 * (distances & (0b11_1111 << 7)).count_ones()
        + (distances & (0b1_1111 << 13)).count_ones();
    if in_base {
        // A 6 to leave onto the start square, then the exact roll 1-6.
        let past_start = progress_on(opponent, square).unwrap_or(0);
        if (1..=6).contains(&past_start) {
            threat += 6;
        }
    }
    threat.min(THREAT_DENOMINATOR)
}

/// The estimated probability, as a numerator over [`RISK_DENOMINATOR`], that a piece of `seat`
/// on track square `square` is captured before `seat` moves again: 0 on a safe square, else
/// `1 − Π(1 − pᵢ)` over the three opponent seats with `pᵢ` = [`seat_threat`] / 216. Exact in
/// integers, so equal risks compare equal.
pub fn capture_risk_exact(progress: &[[i8; PIECES]; SEATS], seat: usize, square: u8) -> u64 {
    if is_safe(square) {
        return 0;
    }
    let mut survive = 1u64;
    for opponent in (0..SEATS).filter(|&o| o != seat) {
        survive *= u64::from(THREAT_DENOMINATOR - seat_threat(progress, opponent, square));
    }
    RISK_DENOMINATOR - survive
}

/// [`capture_risk_exact`] as a probability: the hard CPU's estimate that a piece of `seat` on
/// track square `square` (0-51) is captured before `seat` moves again, in the position
/// `progress` (`progress[seat][piece]`, as in [`LudoState`]).
pub fn capture_risk(progress: &[[i8; PIECES]; SEATS], seat: usize, square: u8) -> f64 {
    capture_risk_exact(progress, seat, square) as f64 / RISK_DENOMINATOR as f64
}

/// The risk of a move's destination, over [`RISK_DENOMINATOR`], judged in the position after the
/// move (captured pieces back in base): 0 in the home column and the goal.
pub fn destination_risk_exact(state: &LudoState, effect: &MoveEffect) -> u64 {
    let seat = usize::from(state.to_move);
    match effect.square {
        Some(square) if !is_safe(square) => capture_risk_exact(&effect.apply_to(seat, &state.progress), seat, square),
        _ => 0,
    }
}

/// Picks among `legal` the moves with the greatest key, breaking ties with one draw.
fn best_by<K: Ord>(
    game: &Ludo,
    state: &LudoState,
    legal: &[LudoAction],
    stream: &mut Stream,
    key: impl Fn(&MoveEffect) -> K,
) -> LudoAction {
    let mut best: Option<K> = None;
    let mut tied = [legal[0]; PIECES];
    let mut n = 0;
    for &action in legal {
        let LudoAction::Move(piece) = action else { continue };
        let Some(effect) = game.move_effect(state, piece) else { continue };
        let k = key(&effect);
        match &best {
            Some(b) if k < *b => {}
            Some(b) if k == *b => {
                if n < PIECES {
                    tied[n] = action;
                    n += 1;
                }
            }
            _ => {
                best = Some(k);
                tied[0] = action;
                n = 1;
            }
        }
    }
    match n {
        0 => legal[0],
        1 => tied[0],
        _ => tied[uniform_below(stream, n as u32) as usize],
    }
}

/// `normal`: the highest priority; among captures the one sending more pieces home.
#[derive(Clone, Copy, Debug, Default)]
pub struct Normal;

impl Bot<Ludo> for Normal {
    fn choose(&mut self, game: &Ludo, state: &LudoState, legal: &[LudoAction], stream: &mut Stream) -> LudoAction {
        best_by(game, state, legal, stream, |e| (priority_of(e), e.captures()))
    }
}

/// `hard`: priority value minus the capture risk of the destination. Among moves of exactly equal
/// value, the one sending more pieces home (as for `normal`), then a draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hard;

/// The hard CPU's value of a move, over [`RISK_DENOMINATOR`]: priority × 216³ − risk.
pub fn hard_value(state: &LudoState, effect: &MoveEffect) -> i64 {
    (u64::from(priority_of(effect)) * RISK_DENOMINATOR) as i64 - destination_risk_exact(state, effect) as i64
}

impl Bot<Ludo> for Hard {
    fn choose(&mut self, game: &Ludo, state: &LudoState, legal: &[LudoAction], stream: &mut Stream) -> LudoAction {
        best_by(game, state, legal, stream, |e| (hard_value(state, e), e.captures()))
    }
}

/// `advance`: the movable piece with the greatest progress (the lowest piece id among equals, which
/// stand on the same square, so the choice is the same move). Never draws.
#[derive(Clone, Copy, Debug, Default)]
pub struct Advance;

impl Bot<Ludo> for Advance {
    fn choose(&mut self, _game: &Ludo, state: &LudoState, legal: &[LudoAction], _stream: &mut Stream) -> LudoAction {
        let progress = &state.progress[usize::from(state.to_move)];
        let mut best = legal[0];
        let mut best_progress = i8::MIN;
        for &action in legal {
            if let LudoAction::Move(piece) = action
                && let Some(&p) = progress.get(usize::from(piece))
                && p > best_progress
            {
                best = action;
                best_progress = p;
            }
        }
        best
    }
}

/// Ludo's evaluation (`Roster::evaluation`): the features of a seat, their weights fitted on
/// games between `normal` bots (`docs/analysis.md`, "A faster estimator").
pub const EVALUATION: Evaluation = Evaluation {
    names: &["steps", "race", "base", "exposed", "threatened", "column", "wait"],
    weights: &[4.3878, -0.8965, 0.0374, -0.0542, -0.0941, 0.1457, -0.0205],
    horizon: 120,
    bias: 0.45,
};

/// Steps a piece at `progress` still has to go to the goal; one more than from the start square
/// for a piece in base (it needs a 6 to come out).
fn steps_to_go(progress: i8) -> f64 {
    f64::from(GOAL - progress.max(BASE))
}

/// The features of [`EVALUATION`] for each seat, in seat order: its steps to go (hundreds),
/// the same over the square root of the seats' mean steps to go plus 20 (a race is decided by
/// differences of the order of its spread, which shrinks as the race shortens), pieces in base,
/// pieces on unsafe track squares, those of them with an enemy piece 1-6 squares behind that
/// can reach them, pieces in the home column (they need an exact roll), and how many turns
/// before the seat rolls (0 for the seat to roll).
pub fn features(state: &LudoState, out: &mut Vec<f64>) {
    out.clear();
    let steps: Vec<f64> = state.progress.iter().map(|pieces| pieces.iter().map(|&p| steps_to_go(p)).sum()).collect();
    let mean = steps.iter().sum::<f64>() / SEATS as f64;
    let scale = (mean + 20.0).sqrt();
    for (seat, pieces) in state.progress.iter().enumerate() {
        let (mut base, mut exposed, mut threatened, mut column) = (0.0, 0.0, 0.0, 0.0);
        for &p in pieces {
            if p == BASE {
                base += 1.0;
            } else if p > LAST_TRACK && p < GOAL {
                column += 1.0;
            } else if let Some(square) = track_square(seat, p)
                && !is_safe(square)
            {
                exposed += 1.0;
                if threatened_on(state, seat, square) {
                    threatened += 1.0;
                }
            }
        }
        let wait = (seat + SEATS - usize::from(state.to_move)) % SEATS;
        out.extend([steps[seat] / 100.0, steps[seat] / scale, base, exposed, threatened, column, wait as f64]);
    }
}

/// Whether an enemy of `seat` has a piece 1-6 squares behind track square `square` that can
/// reach it (it would not turn into its home column first).
fn threatened_on(state: &LudoState, seat: usize, square: u8) -> bool {
    state.progress.iter().enumerate().filter(|&(enemy, _)| enemy != seat).any(|(enemy, pieces)| {
        pieces.iter().any(|&p| {
            track_square(enemy, p).is_some_and(|at| {
                let distance = (i16::from(square) - i16::from(at)).rem_euclid(i16::from(TRACK_LEN));
                (1..=6).contains(&distance) && i16::from(p) + distance <= i16::from(LAST_TRACK)
            })
        })
    })
}

impl Roster for Ludo {
    fn rollout_bot() -> &'static str {
        "normal"
    }

    fn evaluation(&self) -> Option<Evaluation> {
        Some(EVALUATION)
    }

    fn evaluation_features(&self, state: &LudoState, out: &mut Vec<f64>) {
        features(state, out);
    }

    fn bot_names() -> &'static [&'static str] {
        &["random", "easy", "normal", "hard", "advance"]
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Ludo>>, BotError> {
        match name {
            "random" | "easy" => Ok(Box::new(RandomBot)),
            "normal" => Ok(Box::new(Normal)),
            "hard" => Ok(Box::new(Hard)),
            "advance" => Ok(Box::new(Advance)),
            other => {
                Err(BotError::Unknown { name: other.to_owned(), game: Ludo::NAME, known: Self::bot_names().join(", ") })
            }
        }
    }
}
