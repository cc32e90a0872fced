//! Seven Dice Poker bots: names, legal choices over every rule combination, greedy on a
//! position worked out by hand, the evaluator's table against the exact hand counts, and the
//! hard level's depth.

use madang_bots::dice_poker::{Adaptive, Greedy, HARD_LEAF_BUDGET, HandTable, PokerEvaluator, hand_value};
use madang_bots::{Bot, BotError, Evaluator, Roster};
use madang_core::{Game, Turn};
use madang_dice_poker::{BoardKind, Cell, DicePoker, Phase, PokerAction, PokerOptions, PokerState, StraightRule};
use madang_seed::{CHANCE, draw_weighted, sim_game_seed};

fn game(board: BoardKind, tokens: bool, straight: StraightRule) -> DicePoker {
    let options = PokerOptions { board: Some(board), layout: None, tokens: Some(tokens), straight: Some(straight) };
    DicePoker::new(&options, None).expect("valid rules")
}

#[test]
fn bot_names_build_and_bad_names_are_refused() {
    let g = game(BoardKind::A, false, StraightRule::Distinct);
    for name in ["random", "greedy", "easy", "normal", "hard", "expectimax:1", "expectimax:4", "adaptive:5"] {
        assert!(g.bot(name).is_ok(), "{name}");
    }
    assert!(matches!(g.bot("wizard"), Err(BotError::Unknown { .. })));
    for name in ["expectimax:0", "expectimax:5", "expectimax:x", "adaptive:0", "adaptive:-3", "adaptive:"] {
        assert!(matches!(g.bot(name), Err(BotError::BadParameter { .. })), "{name}");
    }
}

/// Plays one seeded game between two bots; every choice must be legal. Returns the final state.
fn play(g: &DicePoker, names: [&str; 2], seed: u64) -> PokerState {
    let s = sim_game_seed(seed, 0);
    let mut chance = s.stream(CHANCE);
    let mut streams = [s.stream("bot:white"), s.stream("bot:black")];
    let mut bots = names.map(|n| g.bot(n).expect("bot exists"));
    let mut state = g.initial_state();
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    loop {
        let action = match g.turn(&state) {
            Turn::Terminal => return state,
            Turn::Chance => {
                g.chance_outcomes(&state, &mut outcomes);
                outcomes[draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)).expect("weights")].0
            }
            Turn::Seat(seat) => {
                g.legal_actions(&state, &mut legal);
                let action = bots[seat].choose(g, &state, &legal, &mut streams[seat]);
                assert!(legal.contains(&action), "{} chose illegal {action}", names[seat]);
                action
            }
        };
        g.apply(&mut state, action, &mut ()).expect("a legal action applies");
    }
}

#[test]
fn every_level_finishes_games_under_every_rule_combination() {
    for board in [BoardKind::A, BoardKind::B] {
        for tokens in [false, true] {
            for straight in [StraightRule::Distinct, StraightRule::Consecutive] {
                let g = game(board, tokens, straight);
                for (i, pair) in [["random", "greedy"], ["easy", "normal"], ["hard", "random"]].iter().enumerate() {
                    let end = play(&g, *pair, i as u64);
                    assert!(matches!(end.phase, Phase::Over { .. }));
                    assert_eq!(end.dice_left, [0, 0]);
                    assert_eq!(end.token_left, [false, false]);
                }
            }
        }
    }
}

/// White to place a 6. White has W5@0, black B3@15. Placing next to cell 0 (cells 1, 4, 5)
/// raises the 5 to 6: white's dice 6 6 (one pair of 6s, value 1 + 6/7) against black's 3
/// (3/7). Placing next to 15 (10, 11, 14) lowers black's 3 to 2 but leaves white 5 6 (6/7):
/// difference 6/7 − 2/7 = 4/7, less than 1 + 6/7 − 3/7. Anywhere else: 6/7 − 3/7.
#[test]
fn greedy_takes_the_placement_with_the_best_hand_difference() {
    let g = game(BoardKind::A, false, StraightRule::Distinct);
    let mut cells = [Cell::Empty; 16];
    cells[0] = Cell::Die { seat: 0, value: 5 };
    cells[15] = Cell::Die { seat: 1, value: 3 };
    let state = PokerState {
        cells,
        dice_left: [6, 6],
        token_left: [false, false],
        to_move: 0,
        first: Some(0),
        phase: Phase::Place { roll: Some(6) },
    };
    assert!((hand_value(&[0, 0, 0, 0, 0, 2], StraightRule::Distinct) - (1.0 + 6.0 / 7.0)).abs() < 1e-12);
    assert!((hand_value(&[0, 0, 0, 0, 1, 1], StraightRule::Distinct) - 6.0 / 7.0).abs() < 1e-12);
    assert!((hand_value(&[0, 0, 1, 0, 0, 0], StraightRule::Distinct) - 3.0 / 7.0).abs() < 1e-12);
    let mut legal = Vec::new();
    g.legal_actions(&state, &mut legal);
    let scores = Greedy::scores(&g, &state, &legal);
    let score = |cell: u8| scores[legal.iter().position(|a| *a == PokerAction::Place(cell)).expect("legal")];
    assert!((score(1) - (1.0 + 6.0 / 7.0 - 3.0 / 7.0)).abs() < 1e-12);
    assert!((score(10) - 4.0 / 7.0).abs() < 1e-12);
    assert!((score(7) - 3.0 / 7.0).abs() < 1e-12);
    for seed in 0..20 {
        let mut stream = sim_game_seed(seed, 1).stream("bot:white");
        let choice = Greedy.choose(&g, &state, &legal, &mut stream);
        assert!([1, 4, 5].map(PokerAction::Place).contains(&choice), "{choice}");
    }
}

/// The table's distribution for no dice yet is seven fair dice: it must give the exact counts
/// out of 6^7 derived by hand in `crates/dice-poker/tests/hands.rs`.
#[test]
fn the_evaluator_table_matches_the_exact_hand_probabilities() {
    let exact = [
        (StraightRule::Distinct, [37_800.0, 0.0, 115_920.0, 96_600.0, 26_250.0, 3_366.0]),
        (StraightRule::Consecutive, [88_200.0, 16_800.0, 48_720.0, 96_600.0, 26_250.0, 3_366.0]),
    ];
    for (straight, counts) in exact {
        let table = HandTable::get(straight);
        let kinds = table.kind_distribution(&[0; 6]);
        for k in 0..6 {
            assert!((kinds[k] - counts[k] / 279_936.0).abs() < 1e-6, "{straight:?} kind {k}: {kinds:?}");
        }
        // One die short of seven 6s... six 6s and one die to roll: five of a kind for sure.
        assert!((table.kind_distribution(&[0, 0, 0, 0, 0, 6])[5] - 1.0).abs() < 1e-6);
        // Seats with nothing yet are even; the value is antisymmetric.
        assert!(table.value(&[0; 6], &[0; 6]).abs() < 1e-6);
        let (a, b) = ([0, 0, 0, 0, 2, 1], [1, 1, 0, 0, 0, 0]);
        assert!((table.value(&a, &b) + table.value(&b, &a)).abs() < 1e-6);
        // Five 6s already against nothing: at least five of a kind, so A never loses; B wins
        // only with a higher five of a kind, which cannot exist; B draws with five 6s.
        let sure = table.value(&[0, 0, 0, 0, 0, 5], &[0; 6]);
        assert!(sure > 0.99 && sure <= 1.0 + 1e-6, "{sure}");
    }
}

#[test]
fn the_evaluator_is_exact_at_the_end() {
    let g = game(BoardKind::A, false, StraightRule::Distinct);
    let end = play(&g, ["random", "random"], 3);
    let Phase::Over { winner } = end.phase else { panic!("finished") };
    let e = PokerEvaluator::new(&g);
    let (white, black) = (e.evaluate(&g, &end, 0), e.evaluate(&g, &end, 1));
    match winner {
        Some(0) => assert_eq!((white, black), (1.0, -1.0)),
        Some(_) => assert_eq!((white, black), (-1.0, 1.0)),
        None => assert_eq!((white, black), (0.0, 0.0)),
    }
}

/// Worked by hand: at the first placement (16 empty cells, no tokens) the leaves are 16 after
/// one turn, 16 · 6 · 15 = 1,440 after two, 1,440 · 6 · 14 = 120,960 after three and
/// 120,960 · 6 · 13 = 9,434,880 after four: with 250,000 the hard level searches 3 turns.
/// With tokens: 32, 32 · 6 · 30 = 5,760, 5,760 · 6 · 28 = 967,680: 2 turns.
#[test]
fn the_hard_level_searches_as_deep_as_its_budget_allows() {
    assert_eq!(HARD_LEAF_BUDGET, 250_000);
    for (tokens, depth) in [(false, 3), (true, 2)] {
        let g = game(BoardKind::A, tokens, StraightRule::Distinct);
        let hard = Adaptive::new(&g, HARD_LEAF_BUDGET);
        let mut state = g.initial_state();
        for roll in [5, 2, 4] {
            g.apply(&mut state, PokerAction::Roll(roll), &mut ()).expect("roll-off and a roll");
        }
        let mut legal = Vec::new();
        g.legal_actions(&state, &mut legal);
        assert_eq!(hard.depth_for(&state, legal.len()), depth, "tokens {tokens}");
    }
    // Near the end the search reaches the end of the game: 5 dice each placed (6 empty
    // cells), 2 each left, white to place: 6, then 6 · 6 · 5 = 180, 180 · 6 · 4 = 4,320 and
    // 4,320 · 6 · 3 = 77,760 leaves over the 4 turns that remain.
    let g = game(BoardKind::A, false, StraightRule::Distinct);
    let mut cells = [Cell::Empty; 16];
    for (c, cell) in cells.iter_mut().enumerate().take(10) {
        *cell = Cell::Die { seat: (c % 2) as u8, value: 3 };
    }
    let state = PokerState {
        cells,
        dice_left: [2, 2],
        token_left: [false, false],
        to_move: 0,
        first: Some(0),
        phase: Phase::Place { roll: Some(2) },
    };
    let hard = Adaptive::new(&g, HARD_LEAF_BUDGET);
    assert_eq!(hard.depth_for(&state, 6), 4);
}
