//! `GET /api/catalogue` and `POST /api/setup`: what each game offers, read from its declaration
//! in `madang-games` (`Describe`: modes, endings, seat counts, rule options with their labels'
//! message keys, board data) and its bots (levels, bot names, solved rules). No game is named
//! here: every answer comes through `madang_games::visit`.

use madang_games::{Describe, Ending, GameInfo, PlayMode, RecordError, Skins, Visitor};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// A game's declaration, as the server needs it without the game's type.
struct Info;

impl Visitor for Info {
    type Output = GameInfo;
    fn visit<G: Describe>(self, _game: G) -> GameInfo {
        G::info()
    }
}

/// The declaration of `game` (`None` for an unknown game).
///
/// Declarations are built once per process: a room's snapshot asks for them on every move, and
/// building one constructs the game's engine from default rules.
fn info(game: &str) -> Option<&'static GameInfo> {
    static INFOS: OnceLock<Vec<(&'static str, GameInfo)>> = OnceLock::new();
    let infos = INFOS.get_or_init(|| {
        madang_games::GAMES
            .iter()
            .filter_map(|&name| madang_games::visit(name, &json!({}), None, Info).ok().map(|info| (name, info)))
            .collect()
    });
    infos.iter().find(|(name, _)| *name == game).map(|(_, info)| info)
}

/// Whether a game's `pieces` lists pieces by id (so annotated moves can name them).
pub fn pieces_by_id(game: &str) -> bool {
    info(game).is_some_and(|i| i.pieces_by_id)
}

/// The skins `game` offers (`None` for a game without, or an unknown game).
pub fn skins(game: &str) -> Option<Skins> {
    info(game).and_then(|i| i.skins.clone())
}

/// Whether a finished game of `game` earns experience, coins and achievements (its declaration's
/// `progression`; `false` for an unknown game).
pub fn progression(game: &str) -> bool {
    info(game).is_some_and(|i| i.progression)
}

/// Whether a person may choose `ending` in `game`.
pub fn offers(game: &str, ending: Ending) -> bool {
    info(game).is_some_and(|i| i.endings.contains(&ending))
}

/// Whether `game` can be played in `mode`.
pub fn playable(game: &str, mode: PlayMode) -> bool {
    info(game).is_some_and(|i| i.modes.contains(&mode))
}

/// The games that can be played in `mode`, in catalogue order.
pub fn games_in(mode: PlayMode) -> Vec<&'static str> {
    madang_games::GAMES.iter().copied().filter(|g| playable(g, mode)).collect()
}

/// The board geometry of `game` under `rules` and `players`, from the engine crate.
///
/// # Errors
/// An unknown game or bad rules.
pub fn board(game: &str, rules: &Value, players: Option<usize>) -> Result<Value, RecordError> {
    struct Board;
    impl Visitor for Board {
        type Output = Value;
        fn visit<G: Describe>(self, game: G) -> Value {
            game.board_value()
        }
    }
    madang_games::visit(game, rules, players, Board)
}

/// One game's catalogue entry (`docs/api.md`, "Catalogue").
struct Entry;

impl Visitor for Entry {
    type Output = Value;
    fn visit<G: Describe>(self, game: G) -> Value {
        let info = G::info();
        let solved: Vec<Value> = G::solved_rules().iter().filter_map(|text| serde_json::from_str(text).ok()).collect();
        json!({
            "game": G::NAME,
            "name": info.title,
            "seats": game.seat_names(),
            "players": info.players,
            "modes": info.modes,
            "options": info.options,
            "levels": G::levels(),
            "progression": info.progression,
            "bots": G::bot_names(),
            "lab_bots": crate::lab::lab_bots(&game),
            "solved": solved,
            "endings": info.endings,
            "pieces_by_id": info.pieces_by_id,
            "skins": info.skins,
            "board": game.board_value(),
        })
    }
}

/// The whole catalogue, in `madang_games::GAMES` order.
pub fn catalogue() -> Value {
    let games: Vec<Value> =
        madang_games::GAMES.iter().filter_map(|game| madang_games::visit(game, &json!({}), None, Entry).ok()).collect();
    json!({ "games": games })
}

/// `POST /api/setup`'s answer for a set-up in progress (`docs/api.md`, "Set-up"): the seat counts
/// the rules allow, the seats (names and sides) for `players` — or the rules' default count when
/// `players` is not allowed with them —, and the board under these rules.
///
/// # Errors
/// An unknown game or bad rules, named as for a record.
pub fn setup(game: &str, rules: &Value, players: Option<usize>) -> Result<Value, RecordError> {
    struct Allowed<'a>(&'a Value);
    impl Visitor for Allowed<'_> {
        type Output = Result<madang_games::Players, RecordError>;
        fn visit<G: Describe>(self, _game: G) -> Self::Output {
            Ok(G::players_for(&madang_games::options::<G>(self.0)?))
        }
    }
    let allowed = madang_games::visit(game, &json!({}), None, Allowed(rules))??;
    let players = players.filter(|p| allowed.allowed.contains(p)).unwrap_or(allowed.default);
    struct Seats;
    impl Visitor for Seats {
        type Output = (Vec<Value>, Value);
        fn visit<G: Describe>(self, game: G) -> Self::Output {
            let sides = game.side_names();
            let seats = game
                .seat_names()
                .into_iter()
                .enumerate()
                .map(|(i, name)| json!({"name": name, "side": sides.get(game.side_of_seat(i))}))
                .collect();
            (seats, game.board_value())
        }
    }
    let (seats, board) = madang_games::visit(game, rules, Some(players), Seats)?;
    Ok(json!({"game": game, "rules": rules, "players": players, "allowed": allowed, "seats": seats, "board": board}))
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
            assert!(!game["modes"].as_array().expect("modes").is_empty());
        }
    }

    #[test]
    fn ur_defaults_come_from_the_engine() {
        let catalogue = catalogue();
        let games = catalogue["games"].as_array().expect("games");
        let ur = games.iter().find(|g| g["game"] == "ur").expect("ur");
        let pieces = ur["options"].as_array().expect("options").iter().find(|o| o["key"] == "pieces").cloned();
        // spec ur.md, "Presets": Finkel plays seven pieces a side.
        assert_eq!(pieces.expect("pieces option")["default"], 7);
        assert_eq!(ur["options"][0]["values"], json!(["finkel", "blitz", "masters"]));
        assert_eq!(ur["options"][0]["label"], "opt.ur.preset");
    }

    #[test]
    fn the_setup_names_the_seats_the_rules_give() {
        // spec yut.md, "Teams": 2 teams of 2 are seated A1, B1, A2, B2; sides are the teams.
        let teams = setup("yut", &json!({"mode": "team-shared"}), Some(4)).expect("team set-up");
        assert_eq!(teams["allowed"]["allowed"], json!([4, 6, 8]));
        let names: Vec<&str> =
            teams["seats"].as_array().expect("seats").iter().map(|s| s["name"].as_str().unwrap_or("")).collect();
        assert_eq!(names, ["A1", "B1", "A2", "B2"]);
        assert_eq!(teams["seats"][2]["side"], "A");
        // Three players are not a team game: the rules' default (4) is used.
        assert_eq!(setup("yut", &json!({"mode": "team-shared"}), Some(3)).expect("set-up")["players"], 4);
        assert!(setup("yut", &json!({"mode": "duel"}), None).is_err());
    }
}
