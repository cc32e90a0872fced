//! `GET /api/catalogue`: per game its seats, players choices, rule options (type, allowed
//! values or range, default — derived from the engine crates' option types), CPU levels and
//! bot names, endings, and board geometry from the engine crates.

use madang_bots::Roster;
use madang_dice_poker::{BoardKind, DicePoker, PokerOptions, StraightRule};
use madang_games::RecordError;
use madang_ludo::Ludo;
use madang_ur::{Dice, PathKind, Preset, Ur, UrOptions};
use madang_yut::{Exit, Finish, Mode, NakRule, Order, Shortcuts, Stacking, Teammate, Yut, YutOptions};
use serde::Serialize;
use serde_json::{Value, json};

/// The difficulty levels every game offers.
pub const LEVELS: &[&str] = &["easy", "normal", "hard"];

/// The CPU levels of `game`: [`LEVELS`], and for Ur `perfect` when a solved table for the
/// default rules is loaded (`docs/ur-solver.md`).
pub fn levels(game: &str) -> Vec<&'static str> {
    let mut levels = LEVELS.to_vec();
    if game == "ur" && crate::solved::default_rules_solved() {
        levels.push("perfect");
    }
    levels
}

/// Whether a game's `pieces` lists pieces by id (so annotated moves can name them).
pub fn pieces_by_id(game: &str) -> bool {
    matches!(game, "ludo" | "yut")
}

/// The endings a person may choose in `game`.
pub fn endings(game: &str) -> &'static [&'static str] {
    if game == "ludo" { &["leave"] } else { &["resign", "leave"] }
}

/// The board geometry of `game` under `rules` and `players`, from the engine crate.
///
/// # Errors
/// An unknown game or bad rules.
pub fn board(game: &str, rules: &Value, players: Option<usize>) -> Result<Value, RecordError> {
    let value = match game {
        "ur" => to_json(madang_games::build::<Ur>(rules, players)?.board_data()),
        "yut" => to_json(madang_games::build::<Yut>(rules, players)?.board_data()),
        "ludo" => to_json(madang_games::build::<Ludo>(rules, players)?.board_data()),
        "dice-poker" => to_json(madang_games::build::<DicePoker>(rules, players)?.board()),
        other => return Err(RecordError::UnknownGame(other.to_owned())),
    };
    Ok(value)
}

fn to_json(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn values<T: Serialize>(variants: &[T]) -> Value {
    Value::Array(variants.iter().map(to_json).collect())
}

fn enumeration<T: Serialize>(key: &str, variants: &[T], default: impl Serialize) -> Value {
    json!({"key": key, "type": "enum", "values": values(variants), "default": to_json(default)})
}

fn boolean(key: &str, default: bool) -> Value {
    json!({"key": key, "type": "boolean", "default": default})
}

fn integer(key: &str, min: i64, max: i64, default: i64) -> Value {
    json!({"key": key, "type": "integer", "min": min, "max": max, "default": default})
}

fn ur_options() -> Vec<Value> {
    let defaults = UrOptions::default().settings().map(to_json).unwrap_or(Value::Null);
    let preset_dependent = |mut option: Value| {
        option["depends_on"] = json!("preset");
        option
    };
    vec![
        enumeration("preset", &[Preset::Finkel, Preset::Blitz, Preset::Masters], Preset::default()),
        preset_dependent(
            json!({"key": "pieces", "type": "integer", "min": 1, "max": 7, "default": defaults["pieces"]}),
        ),
        preset_dependent(
            json!({"key": "capture_extra_roll", "type": "boolean", "default": defaults["capture_extra_roll"]}),
        ),
        preset_dependent(json!({"key": "safe_rosettes", "type": "boolean", "default": defaults["safe_rosettes"]})),
        preset_dependent(enumeration("dice", &[Dice::FourBinary, Dice::ThreeBinaryZeroIsFour], &defaults["dice"])),
        preset_dependent(enumeration("path", &[PathKind::Bell, PathKind::Masters], &defaults["path"])),
    ]
}

fn yut_options() -> Vec<Value> {
    let d = YutOptions::default();
    let s = d.settings(None).ok();
    let fraction = |f: Option<madang_yut::Fraction>| f.map(|f| format!("{}/{}", f.numerator, f.denominator));
    vec![
        json!({"key": "stick_flat", "type": "fraction", "min": "0", "max": "1", "default": fraction(s.map(|s| s.stick_flat)),
               "note": "a string \"a/b\" strictly between 0 and 1, denominator at most 1000"}),
        boolean("backdo", s.is_none_or(|s| s.backdo)),
        json!({"key": "nak", "type": "fraction", "min": "0", "max": "1", "default": fraction(s.map(|s| s.nak)),
               "note": "a string \"a/b\" at least 0 and below 1, denominator at most 1000"}),
        enumeration("nak_rule", &[NakRule::VoidSet, NakRule::VoidThrow], NakRule::default()),
        enumeration("shortcuts", &[Shortcuts::Optional, Shortcuts::Forced], Shortcuts::default()),
        enumeration("stacking", &[Stacking::Auto, Stacking::Optional], Stacking::default()),
        enumeration("exit", &[Exit::Pass, Exit::Reach], Exit::default()),
        enumeration("mode", &[Mode::Individual, Mode::TeamShared, Mode::TeamSeparate], Mode::default()),
        {
            let mut option = enumeration("teammate", &[Teammate::Stack, Teammate::Capture], Teammate::default());
            option["note"] = json!("only with mode \"team-separate\"");
            option
        },
        integer("pieces", 1, 5, s.map_or(4, |s| i64::from(s.pieces))),
        enumeration("order", &[Order::Ceremony, Order::Seated], Order::default()),
        enumeration("finish", &[Finish::First, Finish::Ranking], Finish::default()),
    ]
}

fn dice_poker_options() -> Vec<Value> {
    let _ = PokerOptions::default();
    vec![
        enumeration("board", &[BoardKind::A, BoardKind::B], BoardKind::default()),
        json!({"key": "layout", "type": "layout", "default": madang_dice_poker::default_layout(),
               "note": "rows of `#` (cell) and `.` (no cell) with exactly 16 cells, numbered in reading order"}),
        boolean("tokens", false),
        enumeration("straight", &[StraightRule::Distinct, StraightRule::Consecutive], StraightRule::default()),
    ]
}

fn entry<G: Roster>(name: &str, players: Value, options: Vec<Value>) -> Value {
    let rules = json!({});
    let seats = madang_games::build::<G>(&rules, None).map(|g| g.seat_names()).unwrap_or_default();
    json!({
        "game": G::NAME,
        "name": name,
        "seats": seats,
        "players": players,
        "options": options,
        "levels": levels(G::NAME),
        "bots": G::bot_names(),
        "solved": if G::NAME == "ur" { crate::solved::solved_rules() } else { Vec::new() },
        "endings": endings(G::NAME),
        "pieces_by_id": pieces_by_id(G::NAME),
        "board": board(G::NAME, &rules, None).unwrap_or(Value::Null),
    })
}

/// The whole catalogue, in `madang_games::GAMES` order.
pub fn catalogue() -> Value {
    let games: Vec<Value> = madang_games::GAMES
        .iter()
        .filter_map(|&game| match game {
            "ur" => Some(entry::<Ur>("Royal Game of Ur", json!({"default": 2, "allowed": [2]}), ur_options())),
            "yut" => Some(entry::<Yut>(
                "Yut Nori",
                json!({"default": 2, "allowed": [2, 3, 4, 6, 8],
                       "note": "2-4 with mode \"individual\"; 4, 6 or 8 (teams of 2) in the team modes, default 4"}),
                yut_options(),
            )),
            "ludo" => Some(entry::<Ludo>("Ludo", json!({"default": 4, "allowed": [4]}), Vec::new())),
            "dice-poker" => Some(entry::<DicePoker>(
                "Seven Dice Poker",
                json!({"default": 2, "allowed": [2]}),
                dice_poker_options(),
            )),
            _ => None,
        })
        .collect();
    json!({ "games": games })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_listed_with_a_board() {
        let catalogue = catalogue();
        let games = catalogue["games"].as_array().expect("games");
        assert_eq!(games.len(), madang_games::GAMES.len());
        for game in games {
            assert!(!game["board"].is_null(), "{} has no board", game["game"]);
            assert!(!game["seats"].as_array().expect("seats").is_empty());
        }
    }

    #[test]
    fn ur_defaults_come_from_the_engine() {
        let catalogue = catalogue();
        let ur = &catalogue["games"][0];
        assert_eq!(ur["game"], "ur");
        let pieces = ur["options"].as_array().expect("options").iter().find(|o| o["key"] == "pieces").cloned();
        assert_eq!(pieces.expect("pieces option")["default"], 7);
        assert_eq!(ur["options"][0]["values"], json!(["finkel", "blitz", "masters"]));
    }
}
