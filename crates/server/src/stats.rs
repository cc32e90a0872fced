//! Per-player statistics: one row per game, mode and CPU level(s) (`docs/api.md`, "History and
//! stats"). The outcome of each game for the player is decided when the game ends
//! (`LiveGame::outcome_for`) and stored; this module only counts.

use std::collections::BTreeMap;

use serde::Serialize;

/// One game of a player, as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct StatsRow {
    /// The game's id.
    pub id: String,
    /// The game's name.
    pub game: String,
    /// `computer` or `same_screen`.
    pub mode: String,
    /// CPU level(s).
    pub cpu: Option<String>,
    /// `ongoing` or `finished`.
    pub status: String,
    /// `won`, `lost`, `drawn`, `no_result` or `played` once finished.
    pub outcome: Option<String>,
    /// Time played, ms.
    pub play_ms: i64,
}

/// One line of `GET /api/stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatsLine {
    /// The game.
    pub game: String,
    /// The mode.
    pub mode: String,
    /// The CPU level(s), null on one screen.
    pub cpu: Option<String>,
    /// Ended games.
    pub played: u64,
    /// Won.
    pub won: u64,
    /// Lost (resignations included).
    pub lost: u64,
    /// Drawn.
    pub drawn: u64,
    /// Ended without a result: left games, Ludo's roll limit.
    pub no_result: u64,
    /// Not ended yet.
    pub ongoing: u64,
    /// Time played over all these games, ms.
    pub time_played_ms: i64,
}

/// Counts `rows` by game, mode and CPU level(s), in that order.
pub fn aggregate(rows: &[StatsRow]) -> Vec<StatsLine> {
    let mut lines: BTreeMap<(String, String, Option<String>), StatsLine> = BTreeMap::new();
    for row in rows {
        let key = (row.game.clone(), row.mode.clone(), row.cpu.clone());
        let line = lines.entry(key).or_insert_with(|| StatsLine {
            game: row.game.clone(),
            mode: row.mode.clone(),
            cpu: row.cpu.clone(),
            ..StatsLine::default()
        });
        line.time_played_ms += row.play_ms;
        if row.status != "finished" {
            line.ongoing += 1;
            continue;
        }
        line.played += 1;
        match row.outcome.as_deref() {
            Some("won") => line.won += 1,
            Some("lost") => line.lost += 1,
            Some("drawn") => line.drawn += 1,
            Some("no_result") => line.no_result += 1,
            _ => {}
        }
    }
    lines.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str, status: &str, outcome: Option<&str>, ms: i64) -> StatsRow {
        StatsRow {
            id: String::new(),
            game: game.into(),
            mode: "computer".into(),
            cpu: Some("hard".into()),
            status: status.into(),
            outcome: outcome.map(Into::into),
            play_ms: ms,
        }
    }

    #[test]
    fn ludo_roll_limit_and_left_games_count_as_played_but_neither_won_nor_lost() {
        let lines = aggregate(&[
            row("ludo", "finished", Some("won"), 10),
            row("ludo", "finished", Some("lost"), 20),
            row("ludo", "finished", Some("no_result"), 30), // roll limit
            row("ludo", "finished", Some("no_result"), 40), // left
            row("ludo", "ongoing", None, 5),
        ]);
        assert_eq!(
            lines,
            vec![StatsLine {
                game: "ludo".into(),
                mode: "computer".into(),
                cpu: Some("hard".into()),
                played: 4,
                won: 1,
                lost: 1,
                drawn: 0,
                no_result: 2,
                ongoing: 1,
                time_played_ms: 105,
            }]
        );
    }

    #[test]
    fn same_screen_games_where_one_player_held_every_side_count_as_played_only() {
        let mut same = row("ur", "finished", Some("played"), 1);
        same.mode = "same_screen".into();
        same.cpu = None;
        let lines = aggregate(&[same, row("ur", "finished", Some("drawn"), 1)]);
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].played, lines[0].drawn), (1, 1));
        assert_eq!((lines[1].mode.as_str(), lines[1].played, lines[1].won, lines[1].lost), ("same_screen", 1, 0, 0));
    }
}
