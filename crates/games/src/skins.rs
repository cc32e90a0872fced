//! Skins: how a game's sides and board look, declared as data (spec `yut.md`, "Interface notes
//! from the seed": "team colours, piece and board skins"). A game that offers skins lists them
//! in its [`crate::GameInfo`]; the server's catalogue hands the lists to the browser client,
//! which draws them, and a room checks its players' choices against them. A skin changes
//! nothing in the rules, the dice or the record.
//!
//! Every side has a colour and a piece set, and no two sides share either (a colour-blind player
//! tells the sides apart by the pieces' shapes); the board skin is one for the whole game.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One choice of a skin list: its id, its label's message key, and for a colour its CSS colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skin {
    /// The id a choice names (`red`, `horse`, `mat`).
    pub id: &'static str,
    /// The message key of its name in the clients' catalogues (`skin.yut.colour.red`).
    pub label: String,
    /// A colour's CSS value (`#c0392b`); absent for piece sets and boards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<&'static str>,
}

/// What a game offers to choose from: colours and piece sets for each side, boards for the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skins {
    /// The sides' colours, in the order the sides get them by default.
    pub colours: Vec<Skin>,
    /// The piece sets (each a different shape), in the order the sides get them by default.
    pub pieces: Vec<Skin>,
    /// The board skins (mat and board drawing); the first is the default.
    pub boards: Vec<Skin>,
}

/// One side's look.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSkin {
    /// A colour id of [`Skins::colours`].
    pub colour: String,
    /// A piece set id of [`Skins::pieces`].
    pub pieces: String,
}

/// The looks chosen for one game: each side's, by side name, and the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkinChoice {
    /// Each side's look, by side name (`A`, `B`; the team in team games).
    pub sides: BTreeMap<String, SideSkin>,
    /// A board id of [`Skins::boards`].
    pub board: String,
}

/// A change to one side's look or to the board; `None` leaves that part as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkinChange {
    /// The side's new colour.
    pub colour: Option<String>,
    /// The side's new piece set.
    pub pieces: Option<String>,
    /// The new board.
    pub board: Option<String>,
}

/// Why a skin choice is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SkinError {
    /// The game offers no skins.
    #[error("this game has no skins to choose")]
    NoSkins,
    /// An id that is not in the game's list.
    #[error("no {what} {id:?} (the choices: {choices})")]
    Unknown {
        /// `colour`, `piece set` or `board`.
        what: &'static str,
        /// The id asked for (at most 64 characters of it).
        id: String,
        /// The ids offered, comma-separated.
        choices: String,
    },
    /// Another side has it already.
    #[error("side {side} already has the {what} {id}: no two sides alike")]
    Taken {
        /// `colour` or `piece set`.
        what: &'static str,
        /// The id.
        id: String,
        /// The side that has it.
        side: String,
    },
    /// More sides than the lists can tell apart.
    #[error("{sides} sides, but only {offered} {what}s to tell them apart")]
    TooManySides {
        /// How many sides.
        sides: usize,
        /// `colour` or `piece set`.
        what: &'static str,
        /// How many are offered.
        offered: usize,
    },
    /// The change names a side the game does not have.
    #[error("no side {0:?} in this game")]
    UnknownSide(String),
    /// The change changes nothing.
    #[error("choose a colour, a piece set or a board")]
    Empty,
}

impl Skins {
    /// The default looks for `sides` (in seat order): side i gets the i-th colour and piece set,
    /// and the board is the first.
    ///
    /// # Errors
    /// More sides than colours or piece sets.
    pub fn defaults(&self, sides: &[String]) -> Result<SkinChoice, SkinError> {
        for (what, offered) in [("colour", self.colours.len()), ("piece set", self.pieces.len())] {
            if sides.len() > offered {
                return Err(SkinError::TooManySides { sides: sides.len(), what, offered });
            }
        }
        let board = self.boards.first().map(|b| b.id.to_owned()).unwrap_or_default();
        let sides = sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                (side.clone(), SideSkin { colour: self.colours[i].id.to_owned(), pieces: self.pieces[i].id.to_owned() })
            })
            .collect();
        Ok(SkinChoice { sides, board })
    }

    /// `choice` with `change` made to `side`'s look (and the board), if every id is offered and
    /// no other side has the new colour or piece set; `choice` itself is left as it was.
    ///
    /// # Errors
    /// An empty change, an unknown side or id, or a colour or piece set another side has.
    pub fn change(&self, choice: &SkinChoice, side: &str, change: &SkinChange) -> Result<SkinChoice, SkinError> {
        if change.colour.is_none() && change.pieces.is_none() && change.board.is_none() {
            return Err(SkinError::Empty);
        }
        let mut next = choice.clone();
        if let Some(board) = &change.board {
            next.board = known("board", &self.boards, board)?.to_owned();
        }
        if change.colour.is_some() || change.pieces.is_some() {
            let Some(mine) = next.sides.get_mut(side) else {
                return Err(SkinError::UnknownSide(madang_core::echo(side).into_owned()));
            };
            if let Some(colour) = &change.colour {
                mine.colour = known("colour", &self.colours, colour)?.to_owned();
            }
            if let Some(pieces) = &change.pieces {
                mine.pieces = known("piece set", &self.pieces, pieces)?.to_owned();
            }
            let mine = mine.clone();
            // A clash names the other side, which had it first.
            for (other, look) in next.sides.iter().filter(|(other, _)| *other != side) {
                for (what, theirs, id) in
                    [("colour", &look.colour, &mine.colour), ("piece set", &look.pieces, &mine.pieces)]
                {
                    if theirs == id {
                        return Err(SkinError::Taken { what, id: id.clone(), side: other.clone() });
                    }
                }
            }
        }
        self.check(&next)?;
        Ok(next)
    }

    /// Checks a whole choice: every id offered, no two sides with the same colour or piece set.
    ///
    /// # Errors
    /// The first unknown id or clash, naming it.
    pub fn check(&self, choice: &SkinChoice) -> Result<(), SkinError> {
        known("board", &self.boards, &choice.board)?;
        let mut colours: BTreeMap<&str, &str> = BTreeMap::new();
        let mut pieces: BTreeMap<&str, &str> = BTreeMap::new();
        for (side, look) in &choice.sides {
            known("colour", &self.colours, &look.colour)?;
            known("piece set", &self.pieces, &look.pieces)?;
            for (what, seen, id) in [("colour", &mut colours, &look.colour), ("piece set", &mut pieces, &look.pieces)] {
                if let Some(other) = seen.insert(id, side) {
                    return Err(SkinError::Taken { what, id: id.clone(), side: other.to_owned() });
                }
            }
        }
        Ok(())
    }
}

/// `id` if `list` offers it.
fn known<'a>(what: &'static str, list: &[Skin], id: &'a str) -> Result<&'a str, SkinError> {
    if list.iter().any(|s| s.id == id) {
        Ok(id)
    } else {
        Err(SkinError::Unknown {
            what,
            id: madang_core::echo(id).into_owned(),
            choices: list.iter().map(|s| s.id).collect::<Vec<_>>().join(", "),
        })
    }
}

/// Yut Nori's skins (seed 000's set-up: "팀 색상, 말, 윷판 스킨 선택"): six colours, four piece
/// sets of different shapes (four, so that four sides all differ by shape), three boards.
pub(crate) fn yut() -> Skins {
    let list = |kind: &str, ids: &[&'static str]| -> Vec<Skin> {
        ids.iter().map(|&id| Skin { id, label: format!("skin.yut.{kind}.{id}"), colour: None }).collect()
    };
    let colours = [
        ("red", "#c0392b"),
        ("blue", "#1f5fa8"),
        ("green", "#2e8b57"),
        ("yellow", "#d4a017"),
        ("purple", "#7d3c98"),
        ("black", "#2d2d34"),
    ]
    .into_iter()
    .map(|(id, css)| Skin { id, label: format!("skin.yut.colour.{id}"), colour: Some(css) })
    .collect();
    Skins {
        colours,
        pieces: list("pieces", &["disc", "horse", "flower", "tile"]),
        boards: list("board", &["wood", "mat", "hanji"]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(n: usize) -> Vec<String> {
        ["A", "B", "C", "D"][..n].iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn yut_offers_the_issues_minimum_and_every_side_differs_by_colour_and_shape() {
        // Issue 18: at least four colours, three piece sets, three boards; four sides (spec
        // yut.md: 2-4 sides) must each get a shape of their own, so four piece sets.
        let skins = yut();
        assert!(skins.colours.len() >= 4);
        assert_eq!(skins.pieces.len(), 4);
        assert_eq!(skins.boards.len(), 3);
        assert!(skins.colours.iter().all(|c| c.colour.is_some_and(|css| css.starts_with('#') && css.len() == 7)));
        let four = skins.defaults(&sides(4)).expect("four sides");
        assert_eq!(four.sides["A"], SideSkin { colour: "red".into(), pieces: "disc".into() });
        assert_eq!(four.sides["D"], SideSkin { colour: "yellow".into(), pieces: "tile".into() });
        assert_eq!(four.board, "wood");
        assert_eq!(skins.check(&four), Ok(()));
        assert!(matches!(
            skins.defaults(&[sides(4), sides(4)].concat()),
            Err(SkinError::TooManySides { sides: 8, .. })
        ));
    }

    #[test]
    fn a_side_may_not_take_another_sides_colour_or_pieces() {
        let skins = yut();
        let two = skins.defaults(&sides(2)).expect("two sides");
        let colour = |c: &str| SkinChange { colour: Some(c.into()), ..SkinChange::default() };
        let pieces = |p: &str| SkinChange { pieces: Some(p.into()), ..SkinChange::default() };
        // B has blue and horses by default.
        assert_eq!(
            skins.change(&two, "A", &colour("blue")),
            Err(SkinError::Taken { what: "colour", id: "blue".into(), side: "B".into() })
        );
        assert_eq!(
            skins.change(&two, "A", &pieces("horse")),
            Err(SkinError::Taken { what: "piece set", id: "horse".into(), side: "B".into() })
        );
        let changed = skins.change(&two, "A", &colour("purple")).expect("a free colour");
        assert_eq!(changed.sides["A"].colour, "purple");
        assert_eq!(changed.sides["A"].pieces, "disc");
        // The choice it was made from is unchanged; red is free again for B.
        assert_eq!(two.sides["A"].colour, "red");
        assert!(skins.change(&changed, "B", &colour("red")).is_ok());
        // A side's own colour again is no clash.
        assert!(skins.change(&two, "A", &colour("red")).is_ok());
    }

    #[test]
    fn unknown_ids_sides_and_empty_changes_are_refused_by_name() {
        let skins = yut();
        let two = skins.defaults(&sides(2)).expect("two sides");
        let err = skins.change(&two, "A", &SkinChange { colour: Some("pink".into()), ..SkinChange::default() });
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("no colour \"pink\" (the choices: red, blue, green, yellow, purple, black)".into())
        );
        let err = skins.change(&two, "A", &SkinChange { board: Some("marble".into()), ..SkinChange::default() });
        assert_eq!(err.map_err(|e| e.to_string()), Err("no board \"marble\" (the choices: wood, mat, hanji)".into()));
        let err = skins.change(&two, "C", &SkinChange { pieces: Some("tile".into()), ..SkinChange::default() });
        assert_eq!(err, Err(SkinError::UnknownSide("C".into())));
        assert_eq!(skins.change(&two, "A", &SkinChange::default()), Err(SkinError::Empty));
        // The board alone needs no side.
        let board = skins.change(&two, "", &SkinChange { board: Some("hanji".into()), ..SkinChange::default() });
        assert_eq!(board.expect("a board").board, "hanji");
    }

    #[test]
    fn a_whole_choice_with_a_clash_is_refused() {
        let skins = yut();
        let mut choice = skins.defaults(&sides(3)).expect("three sides");
        if let Some(c) = choice.sides.get_mut("C") {
            c.pieces = "disc".into();
        }
        assert_eq!(
            skins.check(&choice),
            Err(SkinError::Taken { what: "piece set", id: "disc".into(), side: "A".into() })
        );
    }
}
