//! What the server needs of a game beyond `madang_games::Match`: cloning a match in progress,
//! its sides, checking a bot name, and annotating a legal action for the board. Implemented once
//! for every game through `madang_games::visit`, so no game is named here.

use madang_bots::{BotError, Roster};
use madang_core::Turn;
use madang_games::{GameMatch, Match, RecordError, Visitor};
use serde_json::{Map, Value, json};

/// A game in progress, of any kind, as the server holds it.
pub trait LiveMatch: Match {
    /// A copy of the match (rules, state and history).
    fn boxed(&self) -> Box<dyn LiveMatch>;
    /// The names of the sides that win or are ranked (teams in Yut's team modes).
    fn side_names(&self) -> Vec<String>;
    /// The side seat `seat` plays for.
    fn side_of_seat(&self, seat: usize) -> usize;
    /// Checks that `name` is a bot this game knows.
    ///
    /// # Errors
    /// [`BotError`] naming the bots the game knows.
    fn check_bot(&self, name: &str) -> Result<(), BotError>;
    /// Whether the bot called `name` searches ([`madang_bots::Bot::searches`]); `false` for a
    /// name the game does not know.
    fn bot_searches(&self, name: &str) -> bool;
    /// Each of `actions` (legal at the current decision node) annotated for the board, in order:
    /// `action`, `kind`, and where it moves something `from`, `to` and (with `by_id`) `pieces`.
    /// The pieces before the move and the mover's names are found once for all of them.
    fn annotate(&self, actions: &[String], by_id: bool) -> Vec<Value>;
}

impl Clone for Box<dyn LiveMatch> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

impl<G: Roster> LiveMatch for GameMatch<G> {
    fn boxed(&self) -> Box<dyn LiveMatch> {
        Box::new(self.clone())
    }

    fn side_names(&self) -> Vec<String> {
        self.game.side_names()
    }

    fn side_of_seat(&self, seat: usize) -> usize {
        self.game.side_of_seat(seat)
    }

    fn check_bot(&self, name: &str) -> Result<(), BotError> {
        self.game.bot(name).map(|_| ())
    }

    fn bot_searches(&self, name: &str) -> bool {
        self.game.bot(name).is_ok_and(|bot| bot.searches())
    }

    fn annotate(&self, actions: &[String], by_id: bool) -> Vec<Value> {
        let plain = |text: &str| {
            let mut out = Map::new();
            out.insert("action".into(), json!(text));
            out.insert("kind".into(), json!(text.split(' ').next().unwrap_or_default()));
            out
        };
        let Turn::Seat(seat) = self.game.turn(&self.state) else {
            return actions.iter().map(|text| Value::Object(plain(text))).collect();
        };
        let before = serde_json::to_value(self.game.pieces(&self.state)).ok();
        let seat_name = self.game.seat_names().get(seat).cloned().unwrap_or_default();
        let side_name = self.game.side_names().get(self.game.side_of_seat(seat)).cloned().unwrap_or_default();
        let mut after = self.state.clone();
        actions
            .iter()
            .map(|text| {
                let mut out = plain(text);
                if let (Ok(action), Some(before)) = (text.parse::<G::Action>(), &before) {
                    after.clone_from(&self.state);
                    if self.game.apply_quiet(&mut after, action).is_ok()
                        && let Ok(after) = serde_json::to_value(self.game.pieces(&after))
                    {
                        diff_pieces(before, &after, &seat_name, &side_name, by_id, &mut out);
                    }
                }
                Value::Object(out)
            })
            .collect()
    }
}

/// Compares the mover's pieces before and after an action (see `docs/api.md`, "State").
fn diff_pieces(before: &Value, after: &Value, seat: &str, side: &str, by_id: bool, out: &mut Map<String, Value>) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let own = if b.contains_key(seat) { seat } else { side };
            // The mover's own pieces; when they did not move, a teammate's (Yut's team-separate
            // mode, where a player may move the partner's pieces), named in `owner`.
            let key = if b.get(own) != a.get(own) {
                own
            } else {
                match b.keys().find(|k| k.as_str() != own && k.starts_with(side) && b.get(*k) != a.get(*k)) {
                    Some(k) => {
                        out.insert("owner".into(), json!(k));
                        k.as_str()
                    }
                    None => own,
                }
            };
            let (Some(Value::Array(b)), Some(Value::Array(a))) = (b.get(key), a.get(key)) else { return };
            let mut removed: Vec<&Value> = b.iter().collect();
            let mut added = Vec::new();
            for v in a {
                match removed.iter().position(|r| *r == v) {
                    Some(i) => {
                        removed.remove(i);
                    }
                    None => added.push(v),
                }
            }
            if let (Some(from), Some(to)) = (removed.first(), added.first())
                && removed.iter().all(|r| r == from)
                && added.iter().all(|x| x == to)
            {
                out.insert("from".into(), (*from).clone());
                out.insert("to".into(), (*to).clone());
            }
            if by_id && a.len() == b.len() {
                let ids: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                if !ids.is_empty() {
                    out.insert("pieces".into(), json!(ids));
                }
            }
        }
        (Value::Array(b), Value::Array(a)) if a.len() == b.len() => {
            let to = (0..a.len()).find(|&i| b[i].is_null() && !a[i].is_null());
            if let Some(cell) = to {
                out.insert("to".into(), json!(cell));
            }
            // What the action does to the other cells (Seven Dice Poker's neighbour rule), so a
            // board can preview it without a rules engine of its own.
            let changes: Vec<Value> = (0..a.len())
                .filter(|&i| Some(i) != to && a[i] != b[i])
                .map(|i| json!({"cell": i, "from": b[i], "to": a[i]}))
                .collect();
            if !changes.is_empty() {
                out.insert("changes".into(), Value::Array(changes));
            }
        }
        _ => {}
    }
}

/// Opens a [`LiveMatch`] at the initial position of `game` under `rules` and `players`.
///
/// # Errors
/// An unknown game or bad rules, named.
pub fn open_live(game: &str, rules: &Value, players: Option<usize>) -> Result<Box<dyn LiveMatch>, RecordError> {
    struct Open;
    impl Visitor for Open {
        type Output = Box<dyn LiveMatch>;
        fn visit<G: madang_games::Describe>(self, game: G) -> Box<dyn LiveMatch> {
            Box::new(GameMatch::new(game))
        }
    }
    madang_games::visit(game, rules, players, Open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ur_moves_are_annotated_with_from_and_to_squares() {
        let mut game = open_live("ur", &json!({}), None).expect("ur opens");
        game.apply("roll 2").expect("roll");
        let note = &game.annotate(&["move 0".into()], false)[0];
        assert_eq!(*note, json!({"action": "move 0", "kind": "move", "from": 0, "to": 2}));
    }

    #[test]
    fn ludo_moves_name_the_piece() {
        let mut game = open_live("ludo", &json!({}), None).expect("ludo opens");
        game.apply("roll 6").expect("roll");
        let note = &game.annotate(&["move 2".into()], true)[0];
        assert_eq!(*note, json!({"action": "move 2", "kind": "move", "from": -1, "to": 0, "pieces": [2]}));
    }

    #[test]
    fn a_teammates_pieces_are_annotated_with_their_owner() {
        // Yut team-separate: A1 brings home the partner's last piece (A2's piece 3, on the
        // starting corner) while B2's piece stays where it is.
        let before =
            json!({"A1": [99, 99, 99, 99], "A2": [99, 99, 99, 0], "B1": [99, 99, 99, 99], "B2": [99, 99, 5, -1]});
        let after =
            json!({"A1": [99, 99, 99, 99], "A2": [99, 99, 99, 99], "B1": [99, 99, 99, 99], "B2": [99, 99, 5, -1]});
        let mut out = Map::new();
        diff_pieces(&before, &after, "A1", "A", true, &mut out);
        assert_eq!(Value::Object(out), json!({"owner": "A2", "from": 0, "to": 99, "pieces": [3]}));
        // The mover's own move names no owner, even when it captures (the other side changes).
        let after =
            json!({"A1": [99, 99, 99, 99], "A2": [99, 99, 99, 5], "B1": [99, 99, 99, 99], "B2": [99, 99, -1, -1]});
        let mut out = Map::new();
        diff_pieces(&before, &after, "A2", "A", true, &mut out);
        assert_eq!(Value::Object(out), json!({"from": 0, "to": 5, "pieces": [3]}));
    }

    #[test]
    fn dice_poker_placements_preview_their_neighbour_changes() {
        // The worked example of crates/cli/tests/dice_poker_replay.rs (spec dice-poker.md, type
        // a): W3@0, B4@10, then white places a 6 on cell 5: its eight neighbours include its own
        // 3 on cell 0 (raised to 4) and black's 4 on cell 10 (lowered to 3).
        let mut game = open_live("dice-poker", &json!({}), None).expect("dice poker opens");
        for action in ["roll 5", "roll 2", "roll 3", "place 0", "roll 4", "place 10", "roll 6"] {
            game.apply(action).expect("an action of the example");
        }
        let note = &game.annotate(&["place 5".into()], false)[0];
        assert_eq!(note["to"], 5);
        assert_eq!(
            note["changes"],
            json!([{"cell": 0, "from": {"white": 3}, "to": {"white": 4}}, {"cell": 10, "from": {"black": 4}, "to": {"black": 3}}])
        );
    }

    #[test]
    fn a_copy_is_independent() {
        let game = open_live("ur", &json!({}), None).expect("ur opens");
        let mut copy = game.clone();
        copy.apply("roll 2").expect("roll");
        assert_eq!(game.history().len(), 0);
        assert_eq!(copy.history().len(), 1);
    }
}
