//! What each game offers, declared in one place per game: the ways it is played (against the
//! computer, on one screen, in online rooms), the endings a person may choose, its seat counts,
//! its rule options (type, allowed values or range, default, the message key of the label), and
//! its board data. The server's catalogue (`GET /api/catalogue`) and set-up (`POST /api/setup`)
//! and the browser client read these; nothing outside [`crate::visit`] and each game's own
//! client module names a game.

use madang_bots::Roster;
use madang_core::Game;
use madang_dice_poker::{BoardKind, DicePoker, StraightRule};
use madang_ludo::Ludo;
use madang_ur::{Dice, PathKind, Preset, Ur, UrOptions};
use madang_yut::{Exit, Finish, Mode, NakRule, Order, Shortcuts, Stacking, Teammate, Yut, YutOptions};
use serde::Serialize;

use crate::skins::Skins;
use serde_json::{Value, json};

/// A way to play a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayMode {
    /// A person against the computer.
    Computer,
    /// Several people passing one screen.
    SameScreen,
    /// Online rooms: each player on their own device.
    Room,
}

/// An ending a person may choose before the rules end the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Resigning: a loss.
    Resign,
    /// Leaving: played, neither won nor lost.
    Leave,
    /// Offering a draw in a room (recorded as a draw when accepted).
    DrawOffer,
}

/// The seat counts a game allows (`players` of a record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Players {
    /// The count used when `players` is omitted.
    pub default: usize,
    /// Every allowed count, ascending.
    pub allowed: Vec<usize>,
    /// What the counts depend on, for people (`null` when nothing does).
    pub note: Option<&'static str>,
}

/// What a game offers ([`Describe::info`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameInfo {
    /// The game's name in English (the clients have their own, translated).
    pub title: &'static str,
    /// How it can be played.
    pub modes: Vec<PlayMode>,
    /// The endings a person may choose.
    pub endings: Vec<Ending>,
    /// The seat counts over all rule sets.
    pub players: Players,
    /// Whether `pieces` lists pieces by id (so annotated moves can name them).
    pub pieces_by_id: bool,
    /// Every rule option, in the order a set-up offers them: `{"key", "label", "type",
    /// "values"` (enum) or `"min", "max"` (integer, fraction), `"default", "depends_on"?,
    /// "note"?}` (`docs/api.md`, "Catalogue").
    pub options: Vec<Value>,
    /// The looks its sides and board can be given (`None`: the game has none).
    pub skins: Option<Skins>,
    /// Whether a finished game earns experience, coins and achievements (`crate::progression`;
    /// Ludo's seed: "no levels or streaks", so Ludo keeps its stats only).
    pub progression: bool,
}

/// One game's declaration: its [`GameInfo`], the seat counts its rules allow, its board data.
pub trait Describe: Roster {
    /// What the game offers.
    fn info() -> GameInfo;

    /// The seat counts these rules allow (Yut: 2-4 sides, or 4, 6, 8 players in teams).
    fn players_for(_options: &Self::Options) -> Players {
        Self::info().players
    }

    /// The board as clients draw it, under these rules (`GET /api/games/{id}/board`).
    fn board_value(&self) -> Value;
}

fn to_json(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A rule option of `game` as the catalogue lists it, with its label's message key.
fn option(game: &str, key: &str, mut schema: Value) -> Value {
    let mut out = json!({"key": key, "label": format!("opt.{game}.{key}")});
    if let (Some(out), Some(schema)) = (out.as_object_mut(), schema.as_object_mut()) {
        out.append(schema);
    }
    out
}

fn enumeration<T: Serialize>(variants: &[T], default: impl Serialize) -> Value {
    json!({"type": "enum", "values": variants.iter().map(to_json).collect::<Vec<_>>(), "default": to_json(default)})
}

fn boolean(default: bool) -> Value {
    json!({"type": "boolean", "default": default})
}

fn integer(min: i64, max: i64, default: impl Serialize) -> Value {
    json!({"type": "integer", "min": min, "max": max, "default": to_json(default)})
}

fn with(mut schema: Value, key: &str, value: Value) -> Value {
    schema[key] = value;
    schema
}

impl Describe for Ur {
    fn info() -> GameInfo {
        let defaults = UrOptions::default().settings().map(to_json).unwrap_or(Value::Null);
        let preset = |schema: Value| with(schema, "depends_on", json!("preset"));
        let name = Ur::NAME;
        GameInfo {
            title: "Royal Game of Ur",
            modes: vec![PlayMode::Computer, PlayMode::SameScreen, PlayMode::Room],
            endings: vec![Ending::Resign, Ending::Leave, Ending::DrawOffer],
            players: Players { default: 2, allowed: vec![2], note: None },
            pieces_by_id: false,
            skins: None,
            progression: true,
            options: vec![
                option(
                    name,
                    "preset",
                    enumeration(&[Preset::Finkel, Preset::Blitz, Preset::Masters], Preset::default()),
                ),
                option(name, "pieces", preset(integer(1, 7, &defaults["pieces"]))),
                option(
                    name,
                    "capture_extra_roll",
                    preset(json!({"type": "boolean", "default": defaults["capture_extra_roll"]})),
                ),
                option(name, "safe_rosettes", preset(json!({"type": "boolean", "default": defaults["safe_rosettes"]}))),
                option(
                    name,
                    "dice",
                    preset(enumeration(&[Dice::FourBinary, Dice::ThreeBinaryZeroIsFour], &defaults["dice"])),
                ),
                option(name, "path", preset(enumeration(&[PathKind::Bell, PathKind::Masters], &defaults["path"]))),
            ],
        }
    }

    fn board_value(&self) -> Value {
        to_json(self.board_data())
    }
}

impl Describe for Yut {
    fn info() -> GameInfo {
        let s = YutOptions::default().settings(None).ok();
        let fraction = |f: Option<madang_yut::Fraction>| f.map(|f| format!("{}/{}", f.numerator, f.denominator));
        let name = Yut::NAME;
        GameInfo {
            title: "Yut Nori",
            modes: vec![PlayMode::Computer, PlayMode::SameScreen, PlayMode::Room],
            endings: vec![Ending::Resign, Ending::Leave],
            players: Players {
                default: 2,
                allowed: vec![2, 3, 4, 6, 8],
                note: Some("2-4 with mode \"individual\"; 4, 6 or 8 (teams of 2) in the team modes, default 4"),
            },
            pieces_by_id: true,
            skins: Some(crate::skins::yut()),
            progression: true,
            options: vec![
                option(
                    name,
                    "mode",
                    enumeration(&[Mode::Individual, Mode::TeamShared, Mode::TeamSeparate], Mode::default()),
                ),
                option(
                    name,
                    "teammate",
                    with(
                        enumeration(&[Teammate::Stack, Teammate::Capture], Teammate::default()),
                        "note",
                        json!("only with mode \"team-separate\""),
                    ),
                ),
                option(name, "pieces", integer(1, 5, s.map_or(4, |s| s.pieces))),
                option(name, "order", enumeration(&[Order::Ceremony, Order::Seated], Order::default())),
                option(name, "shortcuts", enumeration(&[Shortcuts::Optional, Shortcuts::Forced], Shortcuts::default())),
                option(name, "stacking", enumeration(&[Stacking::Auto, Stacking::Optional], Stacking::default())),
                option(name, "exit", enumeration(&[Exit::Pass, Exit::Reach], Exit::default())),
                option(name, "finish", enumeration(&[Finish::First, Finish::Ranking], Finish::default())),
                option(name, "backdo", boolean(s.is_none_or(|s| s.backdo))),
                option(
                    name,
                    "nak",
                    json!({"type": "fraction", "min": "0", "max": "1", "default": fraction(s.map(|s| s.nak)),
                           "note": "a string \"a/b\" at least 0 and below 1, denominator at most 1000"}),
                ),
                option(name, "nak_rule", enumeration(&[NakRule::VoidSet, NakRule::VoidThrow], NakRule::default())),
                option(
                    name,
                    "stick_flat",
                    json!({"type": "fraction", "min": "0", "max": "1", "default": fraction(s.map(|s| s.stick_flat)),
                           "note": "a string \"a/b\" strictly between 0 and 1, denominator at most 1000"}),
                ),
            ],
        }
    }

    fn players_for(options: &YutOptions) -> Players {
        match options.mode.unwrap_or_default() {
            Mode::Individual => Players { default: 2, allowed: vec![2, 3, 4], note: None },
            Mode::TeamShared | Mode::TeamSeparate => Players { default: 4, allowed: vec![4, 6, 8], note: None },
        }
    }

    fn board_value(&self) -> Value {
        to_json(self.board_data())
    }
}

impl Describe for Ludo {
    fn info() -> GameInfo {
        GameInfo {
            title: "Ludo",
            // Its seed seats one person against three computers.
            modes: vec![PlayMode::Computer],
            endings: vec![Ending::Leave],
            players: Players { default: 4, allowed: vec![4], note: None },
            pieces_by_id: true,
            skins: None,
            // Seed 003: "no daily games, no level list, no streaks"; Ludo keeps its stats only.
            progression: false,
            options: Vec::new(),
        }
    }

    fn board_value(&self) -> Value {
        to_json(self.board_data())
    }
}

impl Describe for DicePoker {
    fn info() -> GameInfo {
        let name = DicePoker::NAME;
        GameInfo {
            title: "Seven Dice Poker",
            modes: vec![PlayMode::Computer, PlayMode::SameScreen, PlayMode::Room],
            endings: vec![Ending::Resign, Ending::Leave],
            players: Players { default: 2, allowed: vec![2], note: None },
            pieces_by_id: false,
            skins: None,
            progression: true,
            options: vec![
                option(name, "board", enumeration(&[BoardKind::A, BoardKind::B], BoardKind::default())),
                option(name, "tokens", boolean(false)),
                option(
                    name,
                    "straight",
                    enumeration(&[StraightRule::Distinct, StraightRule::Consecutive], StraightRule::default()),
                ),
                option(
                    name,
                    "layout",
                    json!({"type": "layout", "default": madang_dice_poker::default_layout(),
                           "note": "rows of `#` (cell) and `.` (no cell) with exactly 16 cells, numbered in reading order"}),
                ),
            ],
        }
    }

    fn board_value(&self) -> Value {
        to_json(DicePoker::board(self))
    }
}
