//! Computer players for the Royal Game of Ur.
//!
//! | name | what it does |
//! |---|---|
//! | `random` | uniform over legal moves |
//! | `greedy` | capture, else land on a rosette, else move the most advanced piece |
//! | `expectimax:D` | expectimax to depth D with [`UrEvaluator`] |
//! | `easy` / `normal` / `hard` | expectimax depth 1 / 2 / 5, the levels of the original royalur.net site |

use madang_core::{Game, Outcome};
use madang_seed::Stream;
use madang_ur::{Phase, Ur, UrAction, UrState};

use crate::{Bot, BotError, Evaluator, Expectimax, RandomBot, Roster, parse_depth};

/// Capture, else land on a rosette, else move the most advanced piece. Within each class the
/// most advanced piece moves. Deterministic: it never draws from its stream.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Bot<Ur> for Greedy {
    fn choose(&mut self, game: &Ur, state: &UrState, legal: &[UrAction], _stream: &mut Stream) -> UrAction {
        let effects: Vec<_> = legal
            .iter()
            .filter_map(|a| match a {
                UrAction::Move(from) => game.move_effect(state, *from).map(|e| (*a, e)),
                UrAction::Roll(_) => None,
            })
            .collect();
        let most_advanced = |filter: &dyn Fn(&madang_ur::MoveEffect) -> bool| {
            effects.iter().filter(|(_, e)| filter(e)).max_by_key(|(_, e)| e.from).map(|(a, _)| *a)
        };
        most_advanced(&|e| e.capture)
            .or_else(|| most_advanced(&|e| e.rosette))
            .or_else(|| most_advanced(&|_| true))
            .unwrap_or(legal[0])
    }
}

/// The evaluation used by expectimax: the difference in piece advancement. Each piece counts
/// its own path square (0 in hand, path length + 1 borne off); a won game is worth ±1000,
/// beyond any advancement difference (at most 7 × 17).
#[derive(Clone, Copy, Debug, Default)]
pub struct UrEvaluator;

/// Advancement of one side: the sum of its pieces' path squares.
pub fn advancement(game: &Ur, state: &UrState, seat: usize) -> f64 {
    let side = &state.sides[seat];
    let mut sum = u32::from(side.borne_off) * u32::from(game.path_len() + 1);
    let mut board = side.board;
    while board != 0 {
        sum += board.trailing_zeros();
        board &= board - 1;
    }
    f64::from(sum)
}

impl Evaluator<Ur> for UrEvaluator {
    fn evaluate(&self, game: &Ur, state: &UrState, seat: usize) -> f64 {
        if let Phase::Won { winner } = state.phase {
            return if usize::from(winner) == seat { 1000.0 } else { -1000.0 };
        }
        advancement(game, state, seat) - advancement(game, state, 1 - seat)
    }
}

impl Roster for Ur {
    fn bot_names() -> &'static [&'static str] {
        &["random", "greedy", "expectimax:D", "easy", "normal", "hard"]
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Ur>>, BotError> {
        let depth = match name {
            "random" => return Ok(Box::new(RandomBot)),
            "greedy" => return Ok(Box::new(Greedy)),
            "easy" => 1,
            "normal" => 2,
            "hard" => 5,
            other => match parse_depth(other, 8)? {
                Some(depth) => depth,
                None => {
                    return Err(BotError::Unknown {
                        name: other.to_owned(),
                        game: Ur::NAME,
                        known: Self::bot_names().join(", "),
                    });
                }
            },
        };
        Ok(Box::new(Expectimax::new(depth, UrEvaluator)))
    }
}

/// The winner of a finished state, for tests.
pub fn winner(game: &Ur, state: &UrState) -> Option<usize> {
    match game.outcome(state) {
        Some(Outcome::Winner(w)) => Some(w),
        _ => None,
    }
}
