//! The conformance kit over Ludo (it has no rule options, so one configuration), plus a check
//! that random playouts reach the rules that matter.

use madang_conformance::{PlayoutConfig, check_random_playouts};
use madang_core::{Game, Outcome, Turn};
use madang_ludo::{Ludo, LudoEvent, LudoOptions, ROLL_LIMIT};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed, uniform_below};

fn game() -> Ludo {
    Ludo::new(&LudoOptions::default(), None).expect("the default rules")
}

#[test]
fn random_playouts_conform() {
    // At most 10,000 rolls and one move per roll: 20,000 actions bound every game.
    let config = PlayoutConfig { games: 1200, max_actions: 2 * ROLL_LIMIT as usize, ..PlayoutConfig::default() };
    let stats = check_random_playouts(&game(), config);
    assert_eq!(stats.games, 1200);
    // Random games of Ludo all finish long before the roll limit.
    assert_eq!(stats.wins.iter().sum::<u64>(), 1200);
    for seat in 0..4 {
        assert!(stats.wins[seat] > 0, "seat {seat} never won: {:?}", stats.wins);
    }
    for kind in ["roll", "leave_base", "move", "capture", "no_move", "no_move_six", "extra_roll", "win"] {
        assert!(stats.event_kinds.contains_key(kind), "no {kind:?} event in {:?}", stats.event_kinds);
    }
}

/// Seeded random playouts that count the rarer rules by event, so the kit's games are known to
/// exercise them: a void third 6, an unusable 6, a capture of a stack, a piece finishing.
#[test]
fn random_playouts_reach_the_rare_rules() {
    let game = game();
    let (mut third_sixes, mut unusable_sixes, mut stacked_captures, mut finishes, mut wins) = (0, 0, 0, 0, 0);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for i in 0..300 {
        let seed = sim_game_seed(42, i);
        let mut chance = seed.stream(CHANCE);
        let mut bot = seed.stream("bot:any");
        let mut state = game.initial_state();
        let mut events = Vec::new();
        loop {
            let action = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    let k = draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).expect("weights");
                    outcomes[k].0
                }
                Turn::Seat(_) => {
                    game.legal_actions(&state, &mut legal);
                    legal[uniform_below(&mut bot, legal.len() as u32) as usize]
                }
            };
            events.clear();
            game.apply(&mut state, action, &mut events).expect("listed actions apply");
            for (j, event) in events.iter().enumerate() {
                match *event {
                    LudoEvent::ThirdSix { .. } => third_sixes += 1,
                    LudoEvent::NoMoveSix { .. } => {
                        unusable_sixes += 1;
                        assert!(matches!(
                            events.get(j + 1),
                            Some(LudoEvent::ExtraRoll { .. }) | Some(LudoEvent::RollLimit)
                        ));
                    }
                    LudoEvent::Captured { pieces, .. } if pieces.count_ones() >= 2 => stacked_captures += 1,
                    LudoEvent::Moved { to: 56, .. } => finishes += 1,
                    LudoEvent::Won { .. } => wins += 1,
                    _ => {}
                }
            }
        }
        assert!(matches!(game.outcome(&state), Some(Outcome::Winner(_))));
    }
    assert_eq!(wins, 300);
    assert!(finishes >= 4 * 300);
    assert!(
        third_sixes > 0 && unusable_sixes > 0 && stacked_captures > 0,
        "{third_sixes} {unusable_sixes} {stacked_captures}"
    );
}
