//! Game review: every decision of a game valued with the perfect player's winning chances,
//! for games that have a solved table loaded for their rules (Ur, `docs/ur.md`, "Review").

use madang_bots::Roster;
use madang_core::Turn;
use serde::Serialize;

/// How much winning chance a move gave away (thresholds in `docs/ur.md`, "Review").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// The best move (or one as good, within 0.01 percentage points).
    Best,
    /// Gave away less than 1 percentage point.
    Good,
    /// Gave away 1 to 4 percentage points.
    Inaccuracy,
    /// Gave away 4 to 10 percentage points.
    Mistake,
    /// Gave away 10 percentage points or more.
    Blunder,
}

impl Grade {
    /// The grade of a move that gave away `loss` percentage points of winning chance.
    pub fn of(loss: f64) -> Grade {
        if loss < 0.01 {
            Grade::Best
        } else if loss < 1.0 {
            Grade::Good
        } else if loss < 4.0 {
            Grade::Inaccuracy
        } else if loss < 10.0 {
            Grade::Mistake
        } else {
            Grade::Blunder
        }
    }
}

/// One decision of a game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// 0-based index of the action in the game's history.
    pub index: usize,
    /// The seat that decided.
    pub seat: String,
    /// The move played.
    pub action: String,
    /// The first seat's winning chance before the move (with the best move), 0-1.
    pub before: f64,
    /// The first seat's winning chance after the move played, 0-1.
    pub after: f64,
    /// Winning chance the mover gave away, in percentage points (0 for the best move).
    pub loss: f64,
    /// The grade of the loss.
    pub grade: Grade,
    /// The best move (the first in legal order among equals).
    pub best: String,
    /// How many moves were legal.
    pub choices: usize,
}

/// Reviews every decision of the game `history` under `game`'s rules, or `None` when the game
/// has no solved table for them or the history does not apply.
pub fn review<G: Roster>(game: &G, history: &[G::Action]) -> Option<Vec<MoveReview>> {
    let seats = game.seat_names();
    let mut state = game.initial_state();
    game.win_chance(&state)?;
    let mut legal = Vec::new();
    let mut out = Vec::new();
    for (index, &action) in history.iter().enumerate() {
        if let Turn::Seat(seat) = game.turn(&state) {
            game.legal_actions(&state, &mut legal);
            let chances = game.win_chances_after(&state, &legal)?;
            // The mover's view: the first seat maximises its chance, the other minimises it.
            // `mover` turns the first seat's chance into the mover's and back (an involution).
            let mover = |c: f64| if seat == 0 { c } else { 1.0 - c };
            let (best_i, best) = chances.iter().enumerate().fold((0, f64::NEG_INFINITY), |(bi, bv), (i, c)| {
                if mover(*c) > bv { (i, mover(*c)) } else { (bi, bv) }
            });
            let played = legal.iter().position(|a| *a == action)?;
            let after = chances[played];
            // `+ 0.0` makes a -0.0 (which `max` may keep) a plain 0.
            let loss = (100.0 * (best - mover(after))).max(0.0) + 0.0;
            out.push(MoveReview {
                index,
                seat: seats.get(seat).cloned().unwrap_or_default(),
                action: action.to_string(),
                before: mover(best),
                after,
                loss,
                grade: Grade::of(loss),
                best: legal[best_i].to_string(),
                choices: legal.len(),
            });
        }
        game.apply_quiet(&mut state, action).ok()?;
    }
    Some(out)
}
