//! The Ludo CPUs (spec `ludo.md`, "CPU levels") on hand-built positions. Expected values are
//! worked out by hand from the spec.
//!
//! A piece of seat `s` stands on track square `t` at progress `(t − 13 s) mod 52`.

use madang_bots::ludo::{Advance, Hard, Normal, capture_risk, capture_risk_exact, seat_threat};
use madang_bots::{Bot, Roster};
use madang_core::Game;
use madang_ludo::{BASE, GOAL, Ludo, LudoAction, LudoState, Phase};
use madang_seed::{Seed, Stream, uniform_below};

const B: i8 = BASE;
const G: i8 = GOAL;
/// Three opponents' worth of denominators.
const D3: u64 = 216 * 216 * 216;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn stream(name: &str) -> Stream {
    Seed([9; 32]).stream(name)
}

/// Seat `seat` to move with `roll` in this position.
fn to_move(progress: [[i8; 4]; 4], seat: u8, roll: u8) -> (LudoState, Vec<LudoAction>) {
    let state = LudoState { progress, to_move: seat, phase: Phase::Move { roll }, ..LudoState::new() };
    let mut legal = Vec::new();
    Ludo.legal_actions(&state, &mut legal);
    (state, legal)
}

fn choose(bot: &mut dyn Bot<Ludo>, progress: [[i8; 4]; 4], roll: u8) -> LudoAction {
    let (state, legal) = to_move(progress, 0, roll);
    bot.choose(&Ludo, &state, &legal, &mut stream("bot:0"))
}

// ---------------------------------------------------------------------------------------------
// The hard CPU's risk estimate
// ---------------------------------------------------------------------------------------------

/// The example: two opponent seats, one with a piece 2 squares behind and one with a
/// piece 8 squares behind, give 1 − (5/6)(35/36).
#[test]
fn risk_two_seats_two_and_eight_behind_is_one_minus_five_sixths_times_35_36ths() {
    // Seat 0's piece on track 20. Seat 1 on track 18 (progress 5), seat 2 on track 12 (progress
    // 38; 38 + 8 = 46 stays on the track). Everything else home, so no base threats.
    let p = [[20, B, B, B], [5, G, G, G], [38, G, G, G], [G, G, G, G]];
    assert_eq!(seat_threat(&p, 1, 20), 36);
    assert_eq!(seat_threat(&p, 2, 20), 6);
    assert_eq!(seat_threat(&p, 3, 20), 0);
    assert!(close(capture_risk(&p, 0, 20), 1.0 - (5.0 / 6.0) * (35.0 / 36.0)));
    // Exactly: 216³ − 180 · 210 · 216 = 216 · 8856.
    assert_eq!(capture_risk_exact(&p, 0, 20), 216 * 8856);
    assert!(close(capture_risk(&p, 0, 20), 41.0 / 216.0));
}

/// Seats combine as 1 − Π(1 − pᵢ), not as a sum: two seats each one roll away give 11/36.
#[test]
fn risk_combines_seats_as_one_minus_the_product() {
    // Track 30: seat 1 at track 27 (progress 14, d 3), seat 3 at track 25 (progress 38, d 5).
    let p = [[30, B, B, B], [14, G, G, G], [G; 4], [38, G, G, G]];
    assert!(close(capture_risk(&p, 0, 30), 1.0 - (5.0 / 6.0) * (5.0 / 6.0)));
    assert!(close(capture_risk(&p, 0, 30), 11.0 / 36.0));
    // Track 30 is seat 2's progress 4: only its pieces on progress 0-3 can reach it. A piece at
    // progress 49 (track 23, d 7) would need progress 56 and turns into its home column first.
    let mut q = p;
    for progress in 0..=50 {
        q[2] = [progress, G, G, G];
        let expected = if progress <= 3 { 36 } else { 0 };
        assert_eq!(seat_threat(&q, 2, 30), expected, "seat 2 at progress {progress}");
    }
    // Track 10 instead: seat 1 at track 7 (progress 46, d 3), seat 2 at track 2 (progress 28,
    // d 8), seat 3 at track 52 − 4 = 48 (progress 9, d 14).
    let r = [[10, B, B, B], [46, G, G, G], [28, G, G, G], [9, G, G, G]];
    let expected = 1.0 - (5.0 / 6.0) * (35.0 / 36.0) * (215.0 / 216.0);
    assert!(close(capture_risk(&r, 0, 10), expected));
    assert_eq!(capture_risk_exact(&r, 0, 10), D3 - 180 * 210 * 215);
}

/// The estimate treats safe squares (starts and stars) as fully safe.
#[test]
fn risk_on_safe_squares_is_zero() {
    // Seat 1 right behind star 21 (track 19, progress 6) and start 26 (track 24, progress 11).
    let p = [[21, 26, B, B], [6, 11, B, B], [B; 4], [B; 4]];
    assert_eq!(capture_risk(&p, 0, 21), 0.0);
    assert_eq!(capture_risk(&p, 0, 26), 0.0);
    for square in [0, 8, 13, 21, 26, 34, 39, 47] {
        assert_eq!(capture_risk_exact(&p, 0, square), 0);
    }
}

/// Distance bands: 1-6 → 1/6, 7-12 → 1/36, 13-17 → 1/216, 18 on → 0; each distinct distance
/// once (a stack counts once).
#[test]
fn risk_distance_bands_and_distinct_distances() {
    // Target track 40 for seat 0; seat 1 pieces behind at distance d: track 40 − d, progress
    // 27 − d (all comfortably on seat 1's track).
    let threat = |ds: &[i8]| {
        let mut p = [[40, B, B, B], [G; 4], [G; 4], [G; 4]];
        for (k, d) in ds.iter().enumerate() {
            p[1][k] = 27 - d;
        }
        seat_threat(&p, 1, 40)
    };
    for d in 1..=6 {
        assert_eq!(threat(&[d]), 36, "d {d}");
    }
    for d in 7..=12 {
        assert_eq!(threat(&[d]), 6, "d {d}");
    }
    for d in 13..=17 {
        assert_eq!(threat(&[d]), 1, "d {d}");
    }
    for d in 18..=27 {
        assert_eq!(threat(&[d]), 0, "d {d}");
    }
    assert_eq!(threat(&[2, 2]), 36, "a stack is one distance");
    assert_eq!(threat(&[2, 3]), 72);
    assert_eq!(threat(&[2, 3, 9, 14]), 36 + 36 + 6 + 1);
    assert_eq!(threat(&[1, 2, 3, 4]), 144);
    // A piece ahead of the square (distance 51 the other way round) is no threat: seat 1 on
    // track 41 (progress 28).
    let p = [[40, B, B, B], [28, G, G, G], [G; 4], [G; 4]];
    assert_eq!(seat_threat(&p, 1, 40), 0);
}

/// A seat with a piece in base threatens the 6 squares after its start with 1/36 each.
#[test]
fn risk_from_base_pieces_covers_the_six_squares_after_the_start() {
    // Seat 1 (start 13) with pieces in base; everything else home.
    let p = [[B; 4], [B, G, G, G], [G; 4], [G; 4]];
    for square in 14..=19 {
        assert_eq!(seat_threat(&p, 1, square), 6, "square {square}");
        assert!(close(capture_risk(&p, 0, square), 1.0 / 36.0));
    }
    assert_eq!(seat_threat(&p, 1, 20), 0);
    assert_eq!(seat_threat(&p, 1, 12), 0);
    // Plus a piece on the start square itself (progress 0): square 15 is d 2 → 1/6 + 1/36.
    let p = [[B; 4], [B, 0, G, G], [G; 4], [G; 4]];
    assert_eq!(seat_threat(&p, 1, 15), 36 + 6);
    assert!(close(capture_risk(&p, 0, 15), 7.0 / 36.0));
}

/// "Only squares a piece may legally reach count (never another colour's home column)": a piece
/// that would turn into its own home column first does not threaten the squares beyond.
#[test]
fn risk_only_counts_squares_the_enemy_can_reach() {
    // Seat 1 at progress 48 (track 9): track 11 is its progress 50 (d 2: 1/6); track 12 would be
    // its progress 51, its home column: no threat; nor track 14 (d 5).
    let p = [[B; 4], [48, G, G, G], [G; 4], [G; 4]];
    assert_eq!(seat_threat(&p, 1, 11), 36);
    assert_eq!(seat_threat(&p, 1, 12), 0);
    assert_eq!(seat_threat(&p, 1, 14), 0);
}

// ---------------------------------------------------------------------------------------------
// Choices
// ---------------------------------------------------------------------------------------------

/// Normal's priority: capture (5) > finish (4) > leave base (3) > safe square (2) > advance (1).
#[test]
fn normal_follows_the_priority_order() {
    let mut bot = Normal;
    // Roll 3: piece 0 53 → 56 finishes; piece 1 2 → 5 captures seat 1's piece on track 5
    // (progress 44).
    assert_eq!(choose(&mut bot, [[53, 2, B, B], [44, B, B, B], [B; 4], [B; 4]], 3), LudoAction::Move(1));
    // Roll 6: piece 0 50 → 56 finishes; the others could leave base.
    assert_eq!(choose(&mut bot, [[50, B, B, B], [B; 4], [B; 4], [B; 4]], 6), LudoAction::Move(0));
    // Roll 6: piece 0 2 → 8 is a star; leaving base wins (pieces 1-3, a tie drawn).
    let c = choose(&mut bot, [[2, B, B, B], [B; 4], [B; 4], [B; 4]], 6);
    assert!(matches!(c, LudoAction::Move(1..=3)), "{c:?}");
    // Roll 3: piece 0 5 → 8 (star) beats piece 1 20 → 23.
    assert_eq!(choose(&mut bot, [[5, 20, B, B], [B; 4], [B; 4], [B; 4]], 3), LudoAction::Move(0));
    // Among captures, the one sending more home: roll 3, piece 0 2 → 5 takes one (seat 1 at 44),
    // piece 1 11 → 14 takes two (seat 1's stack at progress 1).
    assert_eq!(choose(&mut bot, [[2, 11, B, B], [44, 1, 1, B], [B; 4], [B; 4]], 3), LudoAction::Move(1));
}

/// Normal and hard break ties with one `uniform_below(ties)` draw from the bot's stream.
#[test]
fn ties_are_broken_by_a_draw_from_the_bot_stream() {
    // From the start, a 6: four pieces may leave base, all priority 3 and risk 0.
    let (state, legal) = to_move([[B; 4]; 4], 0, 6);
    for bot in [&mut Normal as &mut dyn Bot<Ludo>, &mut Hard] {
        let mut seen = [false; 4];
        for i in 0..64 {
            let name = format!("bot:{i}");
            let mut expected_stream = stream(&name);
            let expected = legal[uniform_below(&mut expected_stream, 4) as usize];
            let mut s = stream(&name);
            let got = bot.choose(&Ludo, &state, &legal, &mut s);
            assert_eq!(got, expected);
            if let LudoAction::Move(p) = got {
                seen[usize::from(p)] = true;
            }
        }
        assert_eq!(seen, [true; 4], "every tied move is drawn sometimes");
    }
    // A single best move draws nothing: the stream is untouched.
    let (state, legal) = to_move([[50, B, B, B], [B; 4], [B; 4], [B; 4]], 0, 6);
    let mut s = stream("bot:x");
    assert_eq!(Normal.choose(&Ludo, &state, &legal, &mut s), LudoAction::Move(0));
    let mut fresh = stream("bot:x");
    assert_eq!(uniform_below(&mut s, 1000), uniform_below(&mut fresh, 1000));
}

/// Hard: priority minus risk. Two plain advances; one lands 3 ahead of an enemy (risk 1/6), the
/// other 13 ahead (risk 1/216): hard takes the safer.
#[test]
fn hard_prefers_the_lower_risk_within_a_priority() {
    // Roll 2: piece 0 20 → 22, piece 1 30 → 32. Seat 1's piece on track 19 (progress 6): d 3 to
    // 22, d 13 to 32. Everything else home (no base threats).
    let p = [[20, 30, G, G], [6, G, G, G], [G; 4], [G; 4]];
    assert_eq!(choose(&mut Hard, p, 2), LudoAction::Move(1));
    // Normal sees two advances and draws: over many streams it takes each.
    let (state, legal) = to_move(p, 0, 2);
    let picks: Vec<LudoAction> =
        (0..32).map(|i| Normal.choose(&Ludo, &state, &legal, &mut stream(&format!("n{i}")))).collect();
    assert!(picks.contains(&LudoAction::Move(0)) && picks.contains(&LudoAction::Move(1)));
    // The risk is judged after the move: a capture that sends an enemy home exposes the capturer
    // to that seat's base threat. Roll 2: piece 0 12 → 14 captures seat 1's piece on track 14
    // (progress 1), which goes to base and then threatens 14-19 (1/36); still a capture (5 − 1/36
    // beats piece 1's plain advance).
    let p = [[12, 30, G, G], [1, G, G, G], [G; 4], [G; 4]];
    assert_eq!(choose(&mut Hard, p, 2), LudoAction::Move(0));
    let after = [[14, 30, G, G], [B, G, G, G], [G; 4], [G; 4]];
    assert!(close(capture_risk(&after, 0, 14), 1.0 / 36.0));
}

/// `advance` moves the most advanced movable piece.
#[test]
fn advance_moves_the_most_advanced_movable_piece() {
    let p = [[53, 20, 5, B], [B; 4], [B; 4], [B; 4]];
    // 53 + 4 overshoots: the most advanced movable is 20.
    assert_eq!(choose(&mut Advance, p, 4), LudoAction::Move(1));
    assert_eq!(choose(&mut Advance, p, 3), LudoAction::Move(0));
    assert_eq!(choose(&mut Advance, p, 6), LudoAction::Move(1));
    assert_eq!(choose(&mut Advance, [[B; 4]; 4], 6), LudoAction::Move(0));
}

#[test]
fn roster_names_every_level() {
    for name in ["random", "easy", "normal", "hard", "advance"] {
        assert!(Ludo.bot(name).is_ok(), "{name}");
    }
    let error = Ludo.bot("expert").err().expect("unknown").to_string();
    assert!(error.contains("expert") && error.contains("hard") && error.contains("advance"), "{error}");
}

/// The evaluation's features (`madang_bots::ludo::features`), worked out by hand: steps to go
/// (a piece in base 57), the race feature steps / √(mean steps + 20), pieces in base, on unsafe
/// track squares, of those with an enemy 1-6 squares behind that can reach them, in the home
/// column, and turns before the seat rolls.
#[test]
fn evaluation_features_worked_out_by_hand() {
    let state = LudoState {
        progress: [[B, 0, 10, 40], [G, G, 1, B], [B, B, B, 16], [20, 50, 51, G]],
        to_move: 2,
        ..LudoState::new()
    };
    // Steps: 57 + 56 + 46 + 16 = 175; 112; 57 · 3 + 40 = 211; 36 + 6 + 5 = 47. Mean 136.25, so
    // the race's scale is √156.25 = 12.5.
    // Squares: seat 0's pieces on 0 (its start, safe), 10 and 40; seat 1's on 14; seat 2's on
    // 42; seat 3's on 7 and 37, and one in its home column.
    // Threats: 10 by seat 3 on 7 (3 behind, progress 20 + 3 ≤ 50); 40 by nobody (seat 3 on 37
    // would turn into its home column: 50 + 3 > 50); 14 by seat 0 on 10; 42 by seat 0 on 40
    // (seat 3 on 37 again cannot); 7 and 37 by nobody.
    let expected = [
        [1.75, 14.0, 1.0, 2.0, 1.0, 0.0, 2.0],
        [1.12, 8.96, 1.0, 1.0, 1.0, 0.0, 3.0],
        [2.11, 16.88, 3.0, 1.0, 1.0, 0.0, 0.0],
        [0.47, 3.76, 0.0, 2.0, 0.0, 1.0, 1.0],
    ];
    let mut features = Vec::new();
    madang_bots::ludo::features(&state, &mut features);
    assert_eq!(features.len(), 4 * madang_bots::ludo::EVALUATION.names.len());
    for (seat, row) in expected.iter().enumerate() {
        for (k, want) in row.iter().enumerate() {
            let got = features[seat * row.len() + k];
            assert!(close(got, *want), "seat {seat}, {}: {got} against {want}", madang_bots::ludo::EVALUATION.names[k]);
        }
    }
    // The chances sum to 1, and the seat far ahead in the race (seat 3) is the favourite.
    let mut chances = Vec::new();
    madang_bots::chances_from(&features, madang_bots::ludo::EVALUATION.weights, &mut chances);
    assert!(close(chances.iter().sum(), 1.0));
    assert!((0..3).all(|s| chances[3] > chances[s]), "{chances:?}");
}
