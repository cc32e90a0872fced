//! Named rule tests of the Ludo engine (spec `ludo.md`; `pitfalls.md`, "Ludo").
//!
//! Every expected value is worked out by hand from the spec, never copied from the program's
//! output. Positions are either reached by records from the start or built directly (the state's
//! fields are public). Track square of a piece: `(13 × seat + progress) mod 52`, so an enemy of
//! seat `s` stands on track square `t` with progress `(t − 13 s) mod 52`.

use madang_core::{Game, Outcome, Turn};
use madang_ludo::{
    BASE, GOAL, Ludo, LudoAction, LudoError, LudoEvent, LudoOptions, LudoState, Phase, ROLL_LIMIT, SEATS,
};

const B: i8 = BASE;
const G: i8 = GOAL;

fn game() -> Ludo {
    Ludo::new(&LudoOptions::default(), None).expect("the default rules")
}

fn action(text: &str) -> LudoAction {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// Applies `actions` to `state`, returning every event; panics on a refused action.
#[track_caller]
fn play_from(mut state: LudoState, actions: &[&str]) -> (LudoState, Vec<LudoEvent>) {
    let game = game();
    let mut events = Vec::new();
    for (i, text) in actions.iter().enumerate() {
        if let Err(e) = game.apply(&mut state, action(text), &mut events) {
            panic!("action {i} {text:?} refused: {e}");
        }
    }
    (state, events)
}

/// Applies `actions` from the starting position.
#[track_caller]
fn play(actions: &[&str]) -> (LudoState, Vec<LudoEvent>) {
    play_from(LudoState::new(), actions)
}

/// The error applying `text` at `state` gives; checks the state is unchanged.
#[track_caller]
fn refused(state: &LudoState, text: &str) -> LudoError {
    let mut copy = *state;
    let error = game().apply(&mut copy, action(text), &mut ()).expect_err("the action must be refused");
    assert_eq!(&copy, state, "a refused action changed the state");
    error
}

/// A position with these pieces, `seat` to roll (its first roll of the turn).
fn position(progress: [[i8; 4]; 4], seat: u8) -> LudoState {
    LudoState { progress, to_move: seat, ..LudoState::new() }
}

fn legal(state: &LudoState) -> Vec<String> {
    let mut out = Vec::new();
    game().legal_actions(state, &mut out);
    out.iter().map(ToString::to_string).collect()
}

fn count(events: &[LudoEvent], pred: impl Fn(&LudoEvent) -> bool) -> usize {
    events.iter().filter(|e| pred(e)).count()
}

fn to_roll(state: &LudoState, seat: u8) -> bool {
    state.phase == Phase::Roll && state.to_move == seat
}

// ---------------------------------------------------------------------------------------------
// Leaving base, the extra roll, three 6s
// ---------------------------------------------------------------------------------------------

/// ludo.md "Rolling and moving": "A 6 lets a piece leave base onto its start square."
#[test]
fn leaving_base_only_on_a_six() {
    // Every piece in base: rolls 1-5 move nothing and pass the turn to the next seat.
    for roll in 1..=5 {
        let (s, events) = play(&[&format!("roll {roll}")]);
        assert!(to_roll(&s, 1), "roll {roll}: {s:?}");
        assert_eq!(events, [LudoEvent::Rolled { seat: 0, roll }, LudoEvent::NoMove { seat: 0, roll }]);
    }
    // A 6: every piece may leave, listed by piece id.
    let (s, _) = play(&["roll 6"]);
    assert_eq!(s.phase, Phase::Move { roll: 6 });
    assert_eq!(legal(&s), ["move 0", "move 1", "move 2", "move 3"]);
    let (s, events) = play(&["roll 6", "move 2"]);
    assert_eq!(s.progress[0], [B, B, 0, B], "piece 2 on its start square");
    assert!(events.contains(&LudoEvent::Left { seat: 0, piece: 2 }));

    // With one piece out, a 3 moves only that piece; a piece in base is refused by name.
    let s = LudoState { phase: Phase::Move { roll: 3 }, ..position([[5, B, B, B], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(legal(&s), ["move 0"]);
    assert_eq!(refused(&s, "move 1"), LudoError::NeedsSix { seat: 0, piece: 1, roll: 3 });
    assert_eq!(refused(&s, "move 1").to_string(), "piece 1 of seat 0 is in base and needs a 6 to leave, not 3");
}

/// ludo.md: "After moving with a 6 the player rolls again"; any other roll passes the turn.
#[test]
fn extra_roll_after_a_six() {
    let (s, events) = play(&["roll 6", "move 0"]);
    assert!(to_roll(&s, 0), "seat 0 rolls again: {s:?}");
    assert_eq!(s.sixes, 1);
    assert!(events.contains(&LudoEvent::ExtraRoll { seat: 0 }));
    // The extra roll moves the piece on, 0 → 4; a 4 passes the turn to seat 1.
    let (s, _) = play(&["roll 6", "move 0", "roll 4", "move 0"]);
    assert_eq!(s.progress[0], [4, B, B, B]);
    assert!(to_roll(&s, 1));
    assert_eq!(s.sixes, 0);
    // A 6 moving a piece already out also rolls again.
    let (s, _) = play(&["roll 6", "move 0", "roll 6", "move 0"]);
    assert_eq!(s.progress[0], [6, B, B, B]);
    assert!(to_roll(&s, 0));
    assert_eq!(s.sixes, 2);
}

/// ludo.md: "Three 6s in a row: the third 6 is void — nothing moves and the turn passes. Moves
/// made with the first two stand, captures included."
#[test]
fn three_sixes_third_void_turn_passes_earlier_moves_and_capture_stand() {
    // From the start: 6 leaves, 6 moves 0 → 6, the third 6 is void.
    let (s, events) = play(&["roll 6", "move 0", "roll 6", "move 0", "roll 6"]);
    assert_eq!(s.progress[0], [6, B, B, B], "both moves stand");
    assert!(to_roll(&s, 1), "the turn passed to seat 1: {s:?}");
    assert_eq!(s.sixes, 0);
    assert_eq!(events.last(), Some(&LudoEvent::ThirdSix { seat: 0 }));

    // With a capture: seat 0's piece on track 8 and seat 2's piece on track 14 (progress
    // (14 − 26) mod 52 = 40). First 6: 8 → 14 captures it. Second 6: piece 1 leaves base.
    // Third 6: void.
    let start = position([[8, B, B, B], [B; 4], [40, B, B, B], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 6", "move 0", "roll 6", "move 1", "roll 6"]);
    assert_eq!(s.progress[0], [14, 0, B, B]);
    assert_eq!(s.progress[2], [B; 4], "the capture stands");
    assert_eq!(s.captures, [1, 0, 0, 0]);
    assert!(to_roll(&s, 1));
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ThirdSix { .. })), 1);
    assert_eq!(refused(&s, "move 2"), LudoError::RollAwaited { seat: 1 });

    // The count is per turn: seat 1 starts from zero and two 6s of its own are not void.
    let (s, events) = play_from(s, &["roll 6", "move 0", "roll 6", "move 0"]);
    assert_eq!(s.progress[1], [6, B, B, B]);
    assert!(to_roll(&s, 1));
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ThirdSix { .. })), 0);
}

/// ludo.md: "If no piece can move, the turn passes automatically; an unusable 6 still earns the
/// extra roll … and still counts towards three in a row."
#[test]
fn unusable_six_still_gives_the_extra_roll_and_counts_towards_three() {
    // Three pieces home, one on 52 (needs 4): a 6 moves nothing.
    let start = position([[G, G, G, 52], [B; 4], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 6"]);
    assert!(to_roll(&s, 0), "the 6 still earns the roll: {s:?}");
    assert_eq!(s.sixes, 1);
    assert_eq!(s.progress, start.progress);
    assert_eq!(
        events,
        [LudoEvent::Rolled { seat: 0, roll: 6 }, LudoEvent::NoMoveSix { seat: 0 }, LudoEvent::ExtraRoll { seat: 0 }]
    );
    // Two more 6s: the second is unusable too, the third is void and the turn passes.
    let (s, events) = play_from(start, &["roll 6", "roll 6", "roll 6"]);
    assert!(to_roll(&s, 1));
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::NoMoveSix { .. })), 2);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ExtraRoll { .. })), 2);
    assert_eq!(events.last(), Some(&LudoEvent::ThirdSix { seat: 0 }));

    // A used 6 then an unusable 6: pieces on 52 and 50. The first 6 takes 50 to the goal (52 + 6
    // overshoots); now only 52 is left and the second 6 cannot move it, yet it is the second 6
    // in a row: it rolls again, and the next 6 is the void third.
    let start = position([[G, G, 52, 50], [B; 4], [B; 4], [B; 4]], 0);
    let (s, _) = play_from(start, &["roll 6"]);
    assert_eq!(legal(&s), ["move 3"]);
    let (s, events) = play_from(start, &["roll 6", "move 3", "roll 6"]);
    assert_eq!(s.progress[0], [G, G, 52, G]);
    assert_eq!(s.sixes, 2, "the unusable 6 is the second in a row");
    assert!(to_roll(&s, 0));
    assert_eq!(events.last(), Some(&LudoEvent::ExtraRoll { seat: 0 }));
    assert_eq!(events[events.len() - 2], LudoEvent::NoMoveSix { seat: 0 });
    let (s, events) = play_from(s, &["roll 6"]);
    assert!(to_roll(&s, 1), "the third 6 is void and the turn passes: {s:?}");
    assert_eq!(s.progress[0], [G, G, 52, G]);
    assert_eq!(events.last(), Some(&LudoEvent::ThirdSix { seat: 0 }));
}

// ---------------------------------------------------------------------------------------------
// Finishing
// ---------------------------------------------------------------------------------------------

/// ludo.md: "Reaching the goal needs the exact roll; a roll that would overshoot cannot move
/// that piece." pitfalls.md: a game stuck when the only movable piece needs a smaller roll.
#[test]
fn exact_finish_and_overshoot() {
    let start = position([[53, B, B, B], [B; 4], [B; 4], [B; 4]], 0);
    // 53 + 3 = 56: the goal.
    let (s, _) = play_from(start, &["roll 3"]);
    assert_eq!(legal(&s), ["move 0"]);
    let (s, events) = play_from(start, &["roll 3", "move 0"]);
    assert_eq!(s.progress[0], [G, B, B, B]);
    assert!(events.contains(&LudoEvent::Moved { seat: 0, piece: 0, from: 53, to: G }));
    assert!(to_roll(&s, 1), "reaching the goal earns no roll");
    // 53 + 4 = 57 overshoots and nothing else can move: the turn passes (not stuck).
    let (s, events) = play_from(start, &["roll 4"]);
    assert!(to_roll(&s, 1));
    assert_eq!(s.progress[0], [53, B, B, B]);
    assert!(events.contains(&LudoEvent::NoMove { seat: 0, roll: 4 }));
    // With another piece that can move, the overshooting one is refused by name.
    let s = LudoState { phase: Phase::Move { roll: 4 }, ..position([[53, 10, B, B], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(legal(&s), ["move 1"]);
    let e = refused(&s, "move 0");
    assert_eq!(e, LudoError::Overshoot { seat: 0, piece: 0, progress: 53, roll: 4, needed: 3 });
    assert_eq!(e.to_string(), "piece 0 of seat 0 at 53 needs exactly 3 to reach the goal; 4 would overshoot");
    // A piece in the goal cannot move at all.
    let s = LudoState { phase: Phase::Move { roll: 1 }, ..position([[G, 10, B, B], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(refused(&s, "move 0"), LudoError::InGoal { seat: 0, piece: 0 });
}

/// ludo.md "Seats and board": progress 51-55 is the home column, 56 the goal; the piece leaves
/// the track after progress 50 (track square 13 × seat + 50).
#[test]
fn home_column_entry_from_50_to_51_and_on_to_56() {
    let start = position([[50, B, B, B], [B; 4], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 1", "move 0"]);
    assert_eq!(s.progress[0][0], 51);
    assert_eq!(events[1].to_string(), "seat 0 moves piece 0 from 50 to 51 (home column square 1)");
    // Each roll 1-6 from 50 lands on 50 + roll: 51 … 55 in the column, 56 the goal.
    for roll in 1..=6u8 {
        let (s, _) = play_from(start, &[&format!("roll {roll}"), "move 0"]);
        assert_eq!(s.progress[0][0], 50 + roll as i8);
    }
    // 51 … 55 step along the column; 55 + 1 is the goal.
    let (s, _) = play_from(position([[51, B, B, B], [B; 4], [B; 4], [B; 4]], 0), &["roll 4", "move 0"]);
    assert_eq!(s.progress[0][0], 55);
    let (s, _) = play_from(position([[55, B, B, B], [B; 4], [B; 4], [B; 4]], 0), &["roll 1", "move 0"]);
    assert_eq!(s.progress[0][0], G);
    // Seat 1 enters its column after track square 11 (13 + 50 − 52).
    let (s, _) = play_from(position([[B; 4], [48, B, B, B], [B; 4], [B; 4]], 1), &["roll 3", "move 0"]);
    assert_eq!(s.progress[1][0], 51);
}

/// pitfalls.md: "A piece near the end of the track wrapping past its home column entry, or a 6
/// sending a piece in the home column back to base (index overflow)."
#[test]
fn no_wrap_past_the_home_column_entry() {
    // Seat 0 at 48 rolls 5: 53 in its home column. Wrapping would give track (48 + 5) mod 52 = 1,
    // where seat 1's piece stands (progress (1 − 13) mod 52 = 40): it must not be captured.
    let start = position([[48, B, B, B], [40, B, B, B], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 5", "move 0"]);
    assert_eq!(s.progress[0][0], 53);
    assert_eq!(s.progress[1][0], 40);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
    // Seat 1 at 50 (track 11) rolls 1 → 51, its home column. Wrapping would give track
    // (13 + 51) mod 52 = 12, where seat 0's piece (progress 12) stands: it is not touched.
    let start = position([[12, B, B, B], [50, B, B, B], [B; 4], [B; 4]], 1);
    let (s, _) = play_from(start, &["roll 1", "move 0"]);
    assert_eq!(s.progress[1][0], 51);
    assert_eq!(s.progress[0][0], 12);
}

/// pitfalls.md: a 6 in the home column must neither wrap nor send the piece home: 51 + 6 and
/// 52 + 6 overshoot; 50 + 6 is the goal.
#[test]
fn six_in_the_home_column_is_an_overshoot_not_a_trip_home() {
    let start = position([[52, G, G, G], [B; 4], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 6"]);
    assert_eq!(s.progress[0], [52, G, G, G]);
    assert!(events.contains(&LudoEvent::NoMoveSix { seat: 0 }));
    let s = LudoState { phase: Phase::Move { roll: 6 }, ..position([[51, 10, B, B], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(legal(&s), ["move 1", "move 2", "move 3"]);
    assert_eq!(refused(&s, "move 0"), LudoError::Overshoot { seat: 0, piece: 0, progress: 51, roll: 6, needed: 5 });
    let (s, _) = play_from(position([[50, B, B, B], [B; 4], [B; 4], [B; 4]], 0), &["roll 6", "move 0"]);
    assert_eq!(s.progress[0][0], G);
}

// ---------------------------------------------------------------------------------------------
// Captures and safe squares
// ---------------------------------------------------------------------------------------------

/// ludo.md: "Landing on a non-safe square holding enemy pieces sends every one of them home to
/// base, however many. A capture never earns an extra roll." pitfalls.md: capturing only the
/// first enemy piece on a square.
#[test]
fn capture_of_two_stacked_enemies_sends_both_home_and_gives_no_extra_roll() {
    // Seat 1's pieces 0 and 2 on track 5 (progress (5 − 13) mod 52 = 44); seat 0 at 2 rolls 3.
    let start = position([[2, B, B, B], [44, 30, 44, B], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 3", "move 0"]);
    assert_eq!(s.progress[0][0], 5);
    assert_eq!(s.progress[1], [B, 30, B, B], "both stacked pieces went home; piece 1 elsewhere stays");
    assert_eq!(s.captures, [2, 0, 0, 0]);
    assert!(events.contains(&LudoEvent::Captured { seat: 0, victim: 1, pieces: 0b101, square: 5 }));
    assert!(to_roll(&s, 1), "no extra roll for a capture: {s:?}");
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ExtraRoll { .. })), 0);
}

/// pitfalls.md: "Capturing only the first enemy piece on a square": pieces of two different
/// enemy seats on one square are all sent home.
#[test]
fn capture_takes_every_enemy_piece_of_every_seat_on_the_square() {
    // Track 20: seat 1 progress 7, seat 2 progress (20 − 26) mod 52 = 46, seat 3 progress
    // (20 − 39) mod 52 = 33. Seat 0 at 16 rolls 4.
    let start = position([[16, B, B, B], [7, 7, B, B], [46, B, B, B], [33, 10, B, B]], 0);
    let (s, events) = play_from(start, &["roll 4", "move 0"]);
    assert_eq!(s.progress[0][0], 20);
    assert_eq!(s.progress[1], [B; 4]);
    assert_eq!(s.progress[2], [B; 4]);
    assert_eq!(s.progress[3], [B, 10, B, B]);
    assert_eq!(s.captures[0], 4);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 3);
}

/// ludo.md: "Pieces of different colours may share a safe square and nobody is captured there."
/// pitfalls.md: "A piece captured on a safe start square by a piece arriving from behind".
#[test]
fn different_colours_share_a_start_square_and_a_star_square() {
    // Seat 1's piece on its start square (track 13, progress 0); seat 0 at 10 rolls 3 → track 13.
    let start = position([[10, B, B, B], [0, B, B, B], [B; 4], [B; 4]], 0);
    let (s, events) = play_from(start, &["roll 3", "move 0"]);
    assert_eq!(s.progress[0][0], 13);
    assert_eq!(s.progress[1][0], 0, "safe on its start square");
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
    // Star square 21: seat 1 at progress 8, seat 3 at (21 − 39) mod 52 = 34; seat 0 at 18 rolls 3.
    let start = position([[18, B, B, B], [8, B, B, B], [B; 4], [34, 34, B, B]], 0);
    let (s, events) = play_from(start, &["roll 3", "move 0"]);
    assert_eq!(s.progress[0][0], 21);
    assert_eq!(s.progress[1][0], 8);
    assert_eq!(s.progress[3], [34, 34, B, B]);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
}

/// pitfalls.md: "Star squares placed … by grid position instead of by track index": every star
/// is safe for every colour, including the stars of other seats (track 8 is seat 2's progress 34).
#[test]
fn star_squares_are_safe_by_track_index_for_every_colour() {
    let mut cases = 0;
    for square in [8u8, 21, 34, 47] {
        for victim in 0..SEATS {
            for mover in (0..SEATS).filter(|&m| m != victim) {
                let victim_progress = ((square as usize + 52 * 4 - 13 * victim) % 52) as i8;
                let mover_progress = ((square as usize + 52 * 4 - 13 * mover) % 52) as i8;
                if !(1..=50).contains(&victim_progress) || !(3..=50).contains(&mover_progress) {
                    continue;
                }
                let mut progress = [[B; 4]; 4];
                progress[victim][0] = victim_progress;
                progress[mover][0] = mover_progress - 2;
                let (s, events) = play_from(position(progress, mover as u8), &["roll 2", "move 0"]);
                assert_eq!(s.progress[mover][0], mover_progress);
                assert_eq!(s.progress[victim][0], victim_progress, "star {square}, seat {victim} hit by {mover}");
                assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
                cases += 1;
            }
        }
    }
    // Stars are 13 apart, so every seat has progress 8, 21, 34 and 47 on the four stars: every
    // (star, victim, mover) case applies, 4 × 4 × 3.
    assert_eq!(cases, 48);
    // Square 9, one past a star, is not safe.
    let (s, _) = play_from(position([[7, B, B, B], [48, B, B, B], [B; 4], [B; 4]], 0), &["roll 2", "move 0"]);
    assert_eq!(s.progress[1][0], B, "track 9 is not safe: seat 1's piece (progress 48) is captured");
}

/// ludo.md: "Leaving base onto one's own start square never captures (it is safe)."
#[test]
fn leaving_base_onto_own_start_where_an_enemy_stands_captures_nothing() {
    // Seat 3's piece on track 0 (progress (0 − 39) mod 52 = 13).
    let start = position([[B; 4], [B; 4], [B; 4], [13, B, B, B]], 0);
    let (s, events) = play_from(start, &["roll 6", "move 0"]);
    assert_eq!(s.progress[0][0], 0);
    assert_eq!(s.progress[3][0], 13);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
}

/// ludo.md: "Several of one's own pieces may share a square. This has no effect: it blocks no
/// one and protects nothing."
#[test]
fn passing_through_enemy_and_own_stacks_is_legal() {
    // Seat 0: piece 0 on 2, pieces 1 and 2 stacked on 4. Seat 1's pieces stacked on track 5
    // (progress 44). A 5 takes piece 0 over both stacks to 7.
    let start = position([[2, 4, 4, B], [44, 44, B, B], [B; 4], [B; 4]], 0);
    let (s, _) = play_from(start, &["roll 5"]);
    assert_eq!(legal(&s), ["move 0", "move 1", "move 2"]);
    let (s, events) = play_from(start, &["roll 5", "move 0"]);
    assert_eq!(s.progress[0], [7, 4, 4, B]);
    assert_eq!(s.progress[1], [44, 44, B, B], "passing over is no capture");
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::Captured { .. })), 0);
    // Landing on one's own stack is legal too: 2 + 2 = 4.
    let (s, _) = play_from(start, &["roll 2", "move 0"]);
    assert_eq!(s.progress[0], [4, 4, 4, B]);
    // An enemy that passes through seat 0's stack on 4 does not block or capture: seat 3 from
    // track 3 (progress 16) rolls 4 → track 7 (progress 20).
    let start = position([[4, 4, B, B], [B; 4], [B; 4], [16, B, B, B]], 3);
    let (s, _) = play_from(start, &["roll 4", "move 0"]);
    assert_eq!(s.progress[3][0], 20);
    assert_eq!(s.progress[0], [4, 4, B, B]);
}

// ---------------------------------------------------------------------------------------------
// Ending
// ---------------------------------------------------------------------------------------------

/// ludo.md: "the game ends the moment any seat has all four pieces in the goal. Places 2-4 are
/// not played out." pitfalls.md: "Rolling allowed after the game was already won."
#[test]
fn game_ends_at_the_first_seat_with_four_home_and_nothing_is_legal_after() {
    // Seat 2 has three home and one on 55; seat 0 has three home too, but seat 2 finishes first.
    let start = position([[G, G, G, 50], [B; 4], [G, 55, G, G], [B; 4]], 2);
    let (s, events) = play_from(start, &["roll 1", "move 1"]);
    assert_eq!(s.phase, Phase::Won { winner: 2 });
    assert_eq!(events.last(), Some(&LudoEvent::Won { seat: 2 }));
    let game = game();
    assert_eq!(game.turn(&s), Turn::Terminal);
    assert_eq!(game.outcome(&s), Some(Outcome::Winner(2)));
    assert_eq!(game.awaiting(&s), None);
    assert_eq!(legal(&s), Vec::<String>::new());
    for more in ["roll 1", "roll 6", "move 0", "move 3"] {
        assert_eq!(refused(&s, more), LudoError::GameWon { winner: 2 });
    }
    assert_eq!(refused(&s, "roll 1").to_string(), "the game is over: seat 2 has won");
    // Winning with a 6 ends the game too: no extra roll.
    let (s, events) = play_from(position([[G, G, G, 50], [B; 4], [B; 4], [B; 4]], 0), &["roll 6", "move 3"]);
    assert_eq!(s.phase, Phase::Won { winner: 0 });
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ExtraRoll { .. })), 0);
    // Three home is not a win.
    let (s, _) = play_from(position([[G, G, 55, B], [B; 4], [B; 4], [B; 4]], 0), &["roll 1", "move 2"]);
    assert_eq!(s.phase, Phase::Roll);
    assert_eq!(s.to_move, 1);
}

/// ludo.md: "A game ends with no result once its 10,000th roll has been resolved … without a
/// winner. An extra roll earned by the 10,000th roll is not taken."
#[test]
fn roll_limit_ends_the_game_with_no_result() {
    // 10,000 rolls of 1 from the start: nobody ever leaves base, every roll passes.
    let ones = vec!["roll 1"; ROLL_LIMIT as usize];
    let (s, events) = play(&ones[..ROLL_LIMIT as usize - 1]);
    assert_eq!(s.phase, Phase::Roll, "9,999 rolls: still going");
    assert_eq!(s.to_move, ((ROLL_LIMIT - 1) % 4) as u8);
    assert_eq!(count(&events, |e| *e == LudoEvent::RollLimit), 0);
    let (s, events) = play(&ones);
    assert_eq!(s.phase, Phase::RollLimit);
    assert_eq!(s.rolls, 10_000);
    assert_eq!(s.turns, 10_000);
    assert_eq!(events.last(), Some(&LudoEvent::RollLimit));
    let game = game();
    assert_eq!(game.outcome(&s), Some(Outcome::NoResult("roll limit".to_owned())));
    assert_eq!(game.turn(&s), Turn::Terminal);
    assert_eq!(refused(&s, "roll 1"), LudoError::GameOverAtRollLimit);

    // The 10,000th roll is a 6 that moves: the move is made, then the game ends (no extra roll).
    let at = LudoState { rolls: ROLL_LIMIT - 1, ..position([[B; 4], [B; 4], [B; 4], [B; 4]], 1) };
    let (s, _) = play_from(at, &["roll 6"]);
    assert_eq!(s.phase, Phase::Move { roll: 6 }, "the roll is resolved by its move");
    let (s, events) = play_from(s, &["move 0"]);
    assert_eq!(s.progress[1], [0, B, B, B]);
    assert_eq!(s.phase, Phase::RollLimit);
    assert_eq!(count(&events, |e| matches!(e, LudoEvent::ExtraRoll { .. })), 0);
    // An unusable 6 as the 10,000th roll ends it too.
    let at = LudoState { rolls: ROLL_LIMIT - 1, ..position([[G, G, G, 52], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(play_from(at, &["roll 6"]).0.phase, Phase::RollLimit);
    // A win with the 10,000th roll is a win.
    let at = LudoState { rolls: ROLL_LIMIT - 1, ..position([[G, G, G, 55], [B; 4], [B; 4], [B; 4]], 0) };
    assert_eq!(play_from(at, &["roll 1", "move 3"]).0.phase, Phase::Won { winner: 0 });
}

// ---------------------------------------------------------------------------------------------
// Notation, errors, summaries
// ---------------------------------------------------------------------------------------------

/// Bad input is refused with a reason, the state unchanged (README.md "Shared engine model").
#[test]
fn bad_actions_are_refused_with_the_reason() {
    let s = play(&["roll 6"]).0;
    assert_eq!(refused(&s, "roll 6"), LudoError::MoveAwaited { seat: 0, roll: 6 });
    assert_eq!(refused(&s, "roll 6").to_string(), "seat 0 has rolled 6 and must move a piece before rolling again");
    assert_eq!(refused(&s, "move 4"), LudoError::NoSuchPiece { piece: 4 });
    assert_eq!(refused(&s, "move 4").to_string(), "there is no piece 4: piece ids are 0-3");
    let s = LudoState::new();
    assert_eq!(refused(&s, "move 0"), LudoError::RollAwaited { seat: 0 });
    for bad in ["roll 0", "roll 7", "roll 255"] {
        assert!(matches!(refused(&s, bad), LudoError::ImpossibleRoll { .. }), "{bad}");
    }
    assert_eq!(refused(&s, "roll 7").to_string(), "a die cannot roll 7 (possible: 1-6)");
    for text in ["roll", "roll 06", "move -1", "move 1 ", "Move 1", "roll  3", "move 256", "hop 2"] {
        assert!(text.parse::<LudoAction>().is_err(), "{text:?} parsed");
    }
    assert_eq!("move 3".parse::<LudoAction>(), Ok(LudoAction::Move(3)));
    assert_eq!(LudoAction::Roll(6).to_string(), "roll 6");
}

/// ludo.md "Notation": chance `roll N`, N in 1-6, weight 1 each; seat 0 rolls first.
#[test]
fn rolls_are_one_to_six_with_weight_one_and_seat_zero_rolls_first() {
    let game = game();
    let s = game.initial_state();
    assert_eq!(game.turn(&s), Turn::Chance);
    assert_eq!(s.to_move, 0);
    let mut outcomes = Vec::new();
    game.chance_outcomes(&s, &mut outcomes);
    let expected: Vec<(LudoAction, madang_core::Weight)> = (1..=6).map(|n| (LudoAction::Roll(n), 1)).collect();
    assert_eq!(outcomes, expected);
    // Turn order 0 → 1 → 2 → 3 → 0.
    let (s, _) = play(&["roll 1", "roll 1", "roll 1"]);
    assert!(to_roll(&s, 3));
    let (s, _) = play(&["roll 1", "roll 1", "roll 1", "roll 1"]);
    assert!(to_roll(&s, 0));
}

/// ludo.md "Notation": `pieces` is `{"0": [p, p, p, p], …}` by piece id; figures count rolls
/// and turns (an extra roll belongs to the same turn).
#[test]
fn pieces_summary_and_figures() {
    let game = game();
    let (s, _) = play(&["roll 6", "move 1", "roll 3", "move 1", "roll 2"]);
    let json = serde_json::to_value(game.pieces(&s)).expect("serializes");
    assert_eq!(
        json,
        serde_json::json!({ "0": [-1, 3, -1, -1], "1": [-1, -1, -1, -1], "2": [-1, -1, -1, -1], "3": [-1, -1, -1, -1] })
    );
    // Rolls: 6, 3 (seat 0's one turn), 2 (seat 1's turn): 3 rolls, 2 turns.
    let figures = game.figures(&s);
    assert_eq!((figures.rolls, figures.turns), (3, 2));
    let json = serde_json::to_value(&figures).expect("serializes");
    assert_eq!(json["captures"], serde_json::json!([0, 0, 0, 0]));
    // Three 6s: one turn of three rolls.
    let (s, _) = play(&["roll 6", "move 0", "roll 6", "move 0", "roll 6"]);
    assert_eq!((s.rolls, s.turns), (3, 1));
}

/// README.md "Game records": `players` may only be 4 for Ludo; rules have no keys.
#[test]
fn options_and_players() {
    assert!(Ludo::new(&LudoOptions::default(), Some(4)).is_ok());
    let e = Ludo::new(&LudoOptions::default(), Some(2)).expect_err("2 players");
    assert_eq!(e.key, "players");
    assert!(serde_json::from_str::<LudoOptions>("{}").is_ok());
    assert!(serde_json::from_str::<LudoOptions>(r#"{"blockades": true}"#).is_err());
    assert_eq!(game().seat_names(), ["0", "1", "2", "3"]);
}
