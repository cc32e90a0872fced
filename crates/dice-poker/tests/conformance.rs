//! The conformance kit over board a/b × tokens off/on × both straight rules, plus a custom
//! layout.

use madang_conformance::{PlayoutConfig, PlayoutStats, check_random_playouts};
use madang_core::Game;
use madang_dice_poker::{BoardKind, DicePoker, PokerOptions, StraightRule};

fn run(options: PokerOptions, games: u64) -> PlayoutStats {
    let game = DicePoker::new(&options, None).expect("valid options");
    // A game is 14 or 16 placements with their rolls plus the roll-off; ties repeat the
    // roll-off with probability 1/6 each time, so 1,000 actions is never reached in practice.
    check_random_playouts(&game, PlayoutConfig { games, max_actions: 1_000, ..PlayoutConfig::default() })
}

#[test]
fn default_rules_random_playouts_conform() {
    let stats = run(PokerOptions::default(), 2000);
    assert_eq!(stats.games, 2000);
    // Every game ends with a winner or a draw; both seats win some.
    assert!(stats.wins.iter().all(|&w| w > 500), "{:?}", stats.wins);
    for kind in ["roll", "place", "raise", "lower", "roll_off_tie", "final_hand", "win", "win_on_dice", "draw"] {
        assert!(stats.event_kinds.contains_key(kind), "no {kind:?} event in {:?}", stats.event_kinds);
    }
    // Without tokens: roll-off (2 or more) + 14 rolls + 14 placements.
    assert!(stats.longest >= 30);
}

#[test]
fn every_board_token_and_straight_combination_conforms() {
    for board in [BoardKind::A, BoardKind::B] {
        for tokens in [false, true] {
            for straight in [StraightRule::Distinct, StraightRule::Consecutive] {
                let options =
                    PokerOptions { board: Some(board), layout: None, tokens: Some(tokens), straight: Some(straight) };
                let stats = run(options, 300);
                if tokens {
                    assert!(stats.event_kinds.contains_key("token_keep"), "no token placed: {:?}", stats.event_kinds);
                    assert!(
                        stats.event_kinds.contains_key("token_only"),
                        "no token-only turn: {:?}",
                        stats.event_kinds
                    );
                }
            }
        }
    }
}

#[test]
fn a_custom_layout_conforms() {
    let layout = [".##.", "####", "####", "####", ".##."].map(String::from).to_vec();
    for board in [BoardKind::A, BoardKind::B] {
        let options =
            PokerOptions { board: Some(board), layout: Some(layout.clone()), tokens: Some(true), straight: None };
        run(options, 200);
    }
}
