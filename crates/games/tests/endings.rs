//! Records ended by a person (spec `README.md`, "Game records": `"end": {"reason", "by"}`):
//! only a game still in play can be resigned, drawn or left, and a resignation with two sides
//! makes the other side the winner, teams included (docs/api.md, "Rooms": "with two sides the
//! other wins (in a team game, the whole team resigns)").

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use madang_core::Turn;
use madang_games::{End, EndReason, Record, RecordError, open, play_record, replay};
use madang_seed::sim_game_seed;
use serde_json::json;

/// The actions of one whole Ur game: chance drawn from a fixed seed, each decision the first
/// legal action.
fn finished_ur_game() -> Vec<String> {
    let mut game = open("ur", &json!({}), None).unwrap();
    let mut stream = sim_game_seed(7, 0).stream("chance");
    while game.outcome().is_none() {
        let action = match game.turn() {
            Turn::Chance => game.draw_chance(&mut stream).unwrap(),
            _ => game.legal()[0].clone(),
        };
        game.apply(&action).unwrap();
    }
    game.history()
}

fn record(game: &str, rules: serde_json::Value, players: Option<usize>, actions: Vec<String>, end: End) -> Record {
    Record { game: game.into(), rules, players, actions, seed: None, end: Some(end) }
}

#[test]
fn a_game_over_by_its_rules_cannot_then_be_resigned_or_drawn() {
    let actions = finished_ur_game();
    for reason in [EndReason::Resign, EndReason::DrawAgreed, EndReason::Abandoned] {
        let end = End { reason, by: "dark".into() };
        let whole = record("ur", json!({}), None, actions.clone(), end.clone());
        match play_record(&whole) {
            Err(RecordError::Malformed(message)) => assert!(message.contains("already over"), "{message}"),
            other => panic!("{reason:?}: expected a refusal, got {:?}", other.map(|_| ())),
        }
        // One action short of the end, the game is in play and the ending stands.
        let short = record("ur", json!({}), None, actions[..actions.len() - 1].to_vec(), end);
        assert_eq!(replay(&short).unwrap().status, "finished", "{reason:?}");
    }
}

#[test]
fn a_resignation_in_a_two_team_game_makes_the_other_team_the_winner() {
    // Yut team-shared with 4 players: seats A1, B1, A2, B2 on sides A and B.
    for (by, winner) in [("A1", "B"), ("B2", "A")] {
        let end = End { reason: EndReason::Resign, by: by.into() };
        let view = replay(&record("yut", json!({"mode": "team-shared"}), Some(4), Vec::new(), end)).unwrap();
        assert_eq!(view.result.as_ref().unwrap()["winner"], json!(winner), "{by}");
    }
    // Two sides of one seat each: the other seat's side.
    let end = End { reason: EndReason::Resign, by: "light".into() };
    assert_eq!(replay(&record("ur", json!({}), None, Vec::new(), end)).unwrap().result.unwrap()["winner"], "dark");
    // Three sides: nobody is the winner of a resignation.
    let end = End { reason: EndReason::Resign, by: "A".into() };
    let view = replay(&record("yut", json!({}), Some(3), Vec::new(), end)).unwrap();
    assert!(view.result.unwrap().get("winner").is_none());
}

/// A record writes each reason as the spec's README spells it, and reads it back.
#[test]
fn end_reasons_are_written_as_the_spec_spells_them() {
    let spelled =
        [(EndReason::Resign, "resign"), (EndReason::DrawAgreed, "draw_agreed"), (EndReason::Abandoned, "abandoned")];
    for (reason, text) in spelled {
        assert_eq!(serde_json::to_value(reason).ok(), Some(json!(text)));
        assert_eq!(serde_json::from_value::<EndReason>(json!(text)).ok(), Some(reason));
    }
    assert_eq!(EndReason::ALL.len(), spelled.len());
    let refused = serde_json::from_value::<EndReason>(json!("quit")).map_err(|e| e.to_string());
    assert_eq!(refused, Err(r#"unknown reason "quit": expected "resign", "draw_agreed" or "abandoned""#.to_owned()));
}
