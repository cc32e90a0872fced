//! Ludo's seeds (spec `ludo.md`, "Dice and seeds"): the dice are a pure function of the seed,
//! and the CPUs' tie-breaks come from separate `bot:SEAT` streams, so the same seed and CPU
//! levels give the same record byte for byte, and changing a level never changes the dice.

use madang_core::Turn;
use madang_games::{Record, SeededStreams, open, verify};
use madang_seed::{CHANCE, Seed, uniform_below};
use serde_json::json;

const SEED: &str = "4c75646f2073656564202d206d6164616e672d6c75646f2d7465737420303031";

fn seeded_game(bots: &[&str]) -> Record {
    let seed: Seed = SEED.parse().expect("valid seed");
    let mut game = open("ludo", &json!({}), None).expect("ludo is registered");
    let mut streams = SeededStreams::new(seed, &game.seat_names());
    let bots: Vec<Option<String>> = bots.iter().map(|b| Some((*b).to_owned())).collect();
    streams.advance(game.as_mut(), &bots).expect("known bots");
    assert_eq!(game.turn(), Turn::Terminal);
    Record {
        game: "ludo".into(),
        rules: json!({}),
        players: None,
        actions: game.history(),
        seed: Some(seed),
        end: None,
    }
}

fn rolls(record: &Record) -> Vec<u8> {
    record.actions.iter().filter_map(|a| a.strip_prefix("roll ").map(|n| n.parse().expect("a number"))).collect()
}

#[test]
fn the_same_seed_and_cpu_level_give_a_byte_identical_record() {
    for level in ["easy", "normal", "hard", "advance"] {
        let a = serde_json::to_string(&seeded_game(&[level; 4])).expect("serializes");
        let b = serde_json::to_string(&seeded_game(&[level; 4])).expect("serializes");
        assert_eq!(a, b, "level {level}");
    }
    let mixed = ["hard", "easy", "normal", "advance"];
    assert_eq!(
        serde_json::to_string(&seeded_game(&mixed)).expect("serializes"),
        serde_json::to_string(&seeded_game(&mixed)).expect("serializes")
    );
}

/// The k-th roll of a game is the k-th draw of the seed's chance stream (six outcomes of weight
/// 1: `1 + uniform_below(6)`), whoever plays.
#[test]
fn changing_a_cpu_level_does_not_change_the_dice_sequence() {
    let seed: Seed = SEED.parse().expect("valid seed");
    let mut chance = seed.stream(CHANCE);
    let expected: Vec<u8> = (0..20_000).map(|_| 1 + uniform_below(&mut chance, 6) as u8).collect();
    let games: Vec<Record> =
        [["easy"; 4], ["normal"; 4], ["hard"; 4], ["advance"; 4], ["hard", "easy", "easy", "easy"]]
            .iter()
            .map(|bots| seeded_game(bots))
            .collect();
    for record in &games {
        let rolls = rolls(record);
        assert!(rolls.len() > 100, "a whole game has many rolls");
        assert_eq!(rolls[..], expected[..rolls.len()]);
        assert_eq!(verify(record), Ok(rolls.len()));
    }
    // The games differ (the levels play differently), the dice do not.
    assert_ne!(games[0].actions, games[2].actions);
}
