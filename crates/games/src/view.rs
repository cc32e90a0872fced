//! The `madang replay` view of a state (spec `README.md`, "Game records").

use madang_core::{Game, Outcome, Turn};
use serde::Serialize;
use serde_json::{Value, json};

use crate::record::{End, EndReason};

/// A chance outcome with its integer weight, as `legal` lists them at a chance node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChanceOption {
    /// The outcome in notation.
    pub action: String,
    /// Its integer weight.
    pub weight: u64,
}

/// What `madang replay` prints: one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The game's name.
    pub game: &'static str,
    /// `"ongoing"` or `"finished"`.
    pub status: &'static str,
    /// The seat to decide, `"chance"`, or null when finished.
    pub to_move: Option<String>,
    /// The kind of the next action, or null when finished.
    pub awaiting: Option<&'static str>,
    /// Legal actions (strings) at a decision node, `{action, weight}` objects at a chance node.
    pub legal: Vec<Value>,
    /// The game's piece summary.
    pub pieces: Value,
    /// The result when finished.
    pub result: Option<Value>,
    /// What happened, in order.
    pub events: Vec<crate::Event>,
    /// Game-specific extra fields (Yut's `pool`), flattened into the object.
    #[serde(flatten)]
    pub extras: serde_json::Map<String, Value>,
}

pub(crate) fn build<G: Game>(game: &G, state: &G::State, events: Vec<crate::Event>, end: Option<&End>) -> View {
    let seats = game.seat_names();
    let pieces = serde_json::to_value(game.pieces(state)).unwrap_or(Value::Null);
    // The figures appear only in a result, so they are worked out only for one.
    let stats = || serde_json::to_value(game.figures(state)).unwrap_or(Value::Null);
    let extras: serde_json::Map<String, Value> =
        game.extra_fields(state).into_iter().map(|(k, v)| (k.to_owned(), json!(v))).collect();
    if let Some(end) = end {
        return View {
            game: G::NAME,
            status: "finished",
            to_move: None,
            awaiting: None,
            legal: Vec::new(),
            pieces,
            result: Some(end_result(game, end, &seats, stats())),
            events,
            extras,
        };
    }
    let (to_move, legal) = match game.turn(state) {
        Turn::Seat(seat) => {
            let mut legal = Vec::new();
            game.legal_actions(state, &mut legal);
            (Some(seats[seat].clone()), legal.iter().map(|a| Value::String(a.to_string())).collect())
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes);
            let legal =
                outcomes.iter().map(|(a, w)| json!(ChanceOption { action: a.to_string(), weight: *w })).collect();
            (Some("chance".to_owned()), legal)
        }
        Turn::Terminal => (None, Vec::new()),
    };
    let sides = game.side_names();
    let side = |i: usize| sides.get(i).cloned().unwrap_or_default();
    let result = game.outcome(state).map(|outcome| {
        let stats = stats();
        let mut result = match outcome {
            Outcome::Winner(s) => json!({ "winner": side(s) }),
            Outcome::Ranking(order) => json!({ "ranking": order.iter().map(|s| side(*s)).collect::<Vec<_>>() }),
            Outcome::Draw => json!({ "draw": true }),
            Outcome::NoResult(reason) => json!({ "no_result": reason }),
        };
        match stats {
            Value::Object(fields) if G::FIGURES_IN_RESULT => {
                for (key, value) in fields {
                    result[key] = value;
                }
            }
            stats => result["stats"] = stats,
        }
        result
    });
    View {
        game: G::NAME,
        status: if result.is_some() { "finished" } else { "ongoing" },
        to_move,
        awaiting: game.awaiting(state),
        legal,
        pieces,
        result,
        events,
        extras,
    }
}

/// The result of a game ended by a person: a resignation with two sides makes the other side
/// the winner (in a team game the whole team resigns: docs/api.md, "Rooms"), named as the rules
/// name a winner (by side).
fn end_result<G: Game>(game: &G, end: &End, seats: &[String], stats: Value) -> Value {
    let mut result = json!({ "end": end, "stats": stats });
    match end.reason {
        EndReason::Resign => {
            let sides = game.side_names();
            if sides.len() == 2
                && let Some(seat) = seats.iter().position(|s| *s == end.by)
                && let Some(other) = sides.get(1 - game.side_of_seat(seat).min(1))
            {
                result["winner"] = Value::String(other.clone());
            }
        }
        EndReason::DrawAgreed => result["draw"] = Value::Bool(true),
        EndReason::Abandoned => result["no_result"] = Value::String("abandoned".to_owned()),
    }
    result
}
