//! Seeded play and `verify`, checked against an independent ChaCha20 implementation.

use madang_core::Turn;
use madang_games::{Record, SeededStreams, VerifyError, open, verify};
use madang_seed::Seed;
use serde_json::json;

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// The first 20 Finkel rolls of `SEED`'s chance stream, computed outside madang with Python's
/// `cryptography` package: key = SHA-256(seed ‖ "chance"), ChaCha20 with a zero nonce and
/// counter, little-endian u32 words, `word mod 16` (no rejection below 16) mapped through the
/// cumulative weights 1, 5, 11, 15, 16.
const FIRST_ROLLS: [u8; 20] = [3, 3, 2, 3, 2, 1, 3, 2, 2, 3, 3, 3, 2, 2, 1, 2, 2, 3, 0, 2];

fn seeded_game(bots: &[&str]) -> Record {
    let seed: Seed = SEED.parse().expect("valid seed");
    let mut game = open("ur", &json!({}), None).expect("ur");
    let mut streams = SeededStreams::new(seed, &game.seat_names());
    let bots: Vec<Option<String>> = bots.iter().map(|b| Some((*b).to_owned())).collect();
    streams.advance(game.as_mut(), &bots).expect("known bots");
    assert_eq!(game.turn(), Turn::Terminal);
    Record { game: "ur".into(), rules: json!({}), players: None, actions: game.history(), seed: Some(seed), end: None }
}

#[test]
fn chance_stream_matches_an_independent_chacha20() {
    let record = seeded_game(&["random", "random"]);
    let rolls: Vec<u8> = record
        .actions
        .iter()
        .filter_map(|a| a.strip_prefix("roll ").map(|n| n.parse().expect("number")))
        .take(20)
        .collect();
    assert_eq!(rolls, FIRST_ROLLS);
}

#[test]
fn verify_accepts_a_seeded_game_and_names_the_first_forged_roll() {
    let record = seeded_game(&["greedy", "random"]);
    let rolls = record.actions.iter().filter(|a| a.starts_with("roll")).count();
    assert_eq!(verify(&record), Ok(rolls));

    // Forge the third roll (index of the third chance action): 2 becomes 1.
    let mut forged = record.clone();
    let index = forged
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.starts_with("roll"))
        .nth(2)
        .map(|(i, _)| i)
        .expect("three rolls");
    assert_eq!(forged.actions[index], "roll 2");
    forged.actions[index] = "roll 1".into();
    match verify(&forged) {
        Err(VerifyError::Mismatch { index: i, text, expected }) => {
            assert_eq!((i, text.as_str(), expected.as_str()), (index, "roll 1", "roll 2"));
        }
        other => panic!("expected a mismatch, got {other:?}"),
    }

    let mut unseeded = record;
    unseeded.seed = None;
    assert_eq!(verify(&unseeded), Err(VerifyError::NoSeed));
}

#[test]
fn the_same_seed_and_bots_give_the_same_record() {
    assert_eq!(seeded_game(&["hard", "greedy"]), seeded_game(&["hard", "greedy"]));
}

#[test]
fn changing_a_bot_does_not_change_the_chance_stream() {
    let a = seeded_game(&["random", "random"]);
    let b = seeded_game(&["greedy", "easy"]);
    let rolls = |r: &Record| r.actions.iter().filter(|a| a.starts_with("roll")).take(20).cloned().collect::<Vec<_>>();
    assert_eq!(rolls(&a), rolls(&b));
}
