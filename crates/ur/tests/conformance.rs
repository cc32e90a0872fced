//! The conformance kit over every Ur preset and option combination.

use madang_conformance::{PlayoutConfig, check_random_playouts};
use madang_core::Game;
use madang_ur::{Dice, PathKind, Preset, Ur, UrOptions};

fn run(options: UrOptions, games: u64) -> madang_conformance::PlayoutStats {
    let game = Ur::new(&options, None).expect("valid options");
    // Random games of Ur are long but finite; 20,000 actions is far beyond any seen.
    check_random_playouts(&game, PlayoutConfig { games, max_actions: 20_000, ..PlayoutConfig::default() })
}

#[test]
fn finkel_random_playouts_conform() {
    let stats = run(UrOptions::default(), 2000);
    assert_eq!(stats.games, 2000);
    assert_eq!(stats.wins.iter().sum::<u64>(), 2000);
    // The playouts reached the rules that matter.
    for kind in ["capture", "rosette_roll", "pass_zero", "no_move", "bear_off", "enter", "move", "win"] {
        assert!(stats.event_kinds.contains_key(kind), "no {kind:?} event in {:?}", stats.event_kinds);
    }
}

#[test]
fn every_preset_and_option_combination_conforms() {
    for preset in [Preset::Finkel, Preset::Blitz, Preset::Masters] {
        for pieces in [1, 3, 7] {
            for dice in [Dice::FourBinary, Dice::ThreeBinaryZeroIsFour] {
                for path in [PathKind::Bell, PathKind::Masters] {
                    for safe in [false, true] {
                        for capture_extra_roll in [false, true] {
                            let options = UrOptions {
                                preset: Some(preset),
                                pieces: Some(pieces),
                                capture_extra_roll: Some(capture_extra_roll),
                                safe_rosettes: Some(safe),
                                dice: Some(dice),
                                path: Some(path),
                            };
                            run(options, 8);
                        }
                    }
                }
            }
        }
    }
}
