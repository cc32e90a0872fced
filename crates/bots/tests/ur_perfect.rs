//! The perfect Ur player with the solved 3-piece Finkel table (solved in the test).

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use madang_bots::{BotError, Roster, ur};
use madang_core::{Game, Outcome, Turn};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed};
use madang_ur::{Ur, UrOptions};
use madang_ur_solver::{SolveOptions, solve};

fn three_pieces() -> Ur {
    Ur::new(&UrOptions { pieces: Some(3), ..UrOptions::default() }, None).unwrap()
}

/// Plays `games` seeded games, `first` against `second` with seats swapped every other game;
/// returns `first`'s wins.
fn play(game: &Ur, first: &str, second: &str, games: u64) -> u64 {
    let mut wins = 0;
    for i in 0..games {
        let seed = sim_game_seed(42, i);
        let names = if i % 2 == 0 { [first, second] } else { [second, first] };
        let mut bots = [game.bot(names[0]).unwrap(), game.bot(names[1]).unwrap()];
        let mut streams = [seed.stream("bot:light"), seed.stream("bot:dark")];
        let mut chance = seed.stream(CHANCE);
        let mut state = game.initial_state();
        let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
        loop {
            let action = match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    game.chance_outcomes(&state, &mut outcomes);
                    outcomes[draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).unwrap()].0
                }
                Turn::Seat(s) => {
                    game.legal_actions(&state, &mut legal);
                    bots[s].choose(game, &state, &legal, &mut streams[s])
                }
            };
            game.apply_quiet(&mut state, action).unwrap();
        }
        let first_seat = if i % 2 == 0 { 0 } else { 1 };
        wins += u64::from(game.outcome(&state) == Some(Outcome::Winner(first_seat)));
    }
    wins
}

#[test]
fn the_perfect_player_needs_its_table_and_then_beats_the_others() {
    let game = three_pieces();
    // Before a table is installed the bot names what to run.
    let Err(error) = game.bot("perfect") else { panic!("perfect without a table") };
    assert!(matches!(error, BotError::Unavailable { .. }));
    let message = error.to_string();
    assert!(
        message.contains(r#"madang ur solve --rules '{"preset":"finkel","pieces":3}'"#)
            && message.contains("finkel-3pieces.table"),
        "{message}"
    );
    assert_eq!(game.win_chance(&game.initial_state()), None);

    let solution = solve(*game.settings(), &SolveOptions::default()).unwrap();
    ur::install_table(Arc::new(solution.table));
    assert_eq!(ur::installed_tables(), vec![*game.settings()]);
    let start = game.win_chance(&game.initial_state()).unwrap();
    assert!((start - 0.516201102238).abs() < 1e-4, "{start}");
    // The 7-piece game still has no table.
    assert!(Ur::new(&UrOptions::default(), None).unwrap().bot("perfect").is_err());

    // Random loses clearly (≈ 89 % for perfect over many games: the 3-piece game is short).
    let wins = play(&game, "perfect", "random", 1000);
    assert!(wins >= 850, "perfect won {wins} of 1000 against random");
    let wins = play(&game, "perfect", "greedy", 1000);
    assert!(wins >= 550, "perfect won {wins} of 1000 against greedy");
}
