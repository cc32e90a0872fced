//! Computer players for the Royal Game of Ur.
//!
//! | name | what it does |
//! |---|---|
//! | `random` | uniform over legal moves |
//! | `greedy` | capture, else land on a rosette, else move the most advanced piece |
//! | `expectimax:D` | expectimax to depth D with [`UrEvaluator`] |
//! | `easy` / `normal` / `hard` | expectimax depth 1 / 2 / 5, the levels of the original royalur.net site |
//! | `perfect` | the move with the highest winning chance in the solved table (`madang ur solve`) |
//!
//! The perfect player reads a [`Table`] installed for the game's rules with [`install_table`]
//! (the server and `madang sim` load it from `<data-dir>/ur/<rules>.table`). Tables are kept per
//! process: a table is the same for everyone who plays those rules.

use std::sync::{Arc, PoisonError, RwLock};

use madang_core::{Game, Outcome};
use madang_seed::Stream;
use madang_ur::{Phase, Ur, UrAction, UrSettings, UrState};
use madang_ur_solver::Table;

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

    /// Every Ur move ends in a roll awaited or a won game, both scored by
    /// [`UrEvaluator::evaluate`], so the last ply is arithmetic on the position: a move of `roll`
    /// squares adds `roll` to the mover's advancement (bearing off goes to path length + 1), a
    /// capture takes the captured piece's own path square from the opponent's, and bearing off
    /// the last piece wins (±1000). All the values are small integers, exact in `f64`.
    ///
    /// `None` (the search then makes the moves) when no move is awaited, when `seat` is not the
    /// seat to move, or when no piece can move.
    fn last_ply(&self, game: &Ur, state: &UrState, seat: usize, root: usize) -> Option<(f64, u64)> {
        let Phase::Move { roll } = state.phase else { return None };
        if seat != usize::from(state.to_move) {
            return None;
        }
        last_ply_after(game, state, roll, root, self.evaluate(game, state, root))
    }

    /// A roll with one turn left: each roll's last ply ([`UrEvaluator::last_ply`]), or, for a
    /// roll of 0 or one that moves nothing, the position after the turn passes, which scores
    /// as the one before it (passing moves no piece).
    fn last_chance(&self, game: &Ur, state: &UrState, root: usize) -> Option<(f64, u64)> {
        if state.phase != Phase::Roll {
            return None;
        }
        let base = self.evaluate(game, state, root);
        let (mut sum, mut total, mut nodes) = (0.0, 0.0, 0);
        for &(roll, weight) in game.settings().dice.outcomes() {
            total += weight as f64;
            nodes += 1;
            let last_ply = if roll == 0 { None } else { last_ply_after(game, state, roll, root, base) };
            let value = match last_ply {
                Some((value, children)) => {
                    nodes += children;
                    value
                }
                None => base,
            };
            sum += weight as f64 * value;
        }
        Some((sum / total, nodes))
    }
}

/// [`UrEvaluator::last_ply`] for the seat to move in `state` with `roll`, given `base`, the
/// score of `state` for `root` (a pass or a move changes it by the move's gain only).
fn last_ply_after(game: &Ur, state: &UrState, roll: u8, root: usize, base: f64) -> Option<(f64, u64)> {
    let seat = usize::from(state.to_move);
    let geometry = game.geometry();
    let side = &state.sides[seat];
    let opponent = state.sides[1 - seat].board;
    let win = if seat == root { 1000.0 } else { -1000.0 };
    let mut mask = game.movable_mask(state, roll);
    let children = u64::from(mask.count_ones());
    // The mover's best gain in advancement difference (or a win), found over its moves.
    let mut best_gain = None::<u8>;
    let mut wins = false;
    while mask != 0 {
        let from = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        let to = from + roll;
        if to > geometry.len {
            if side.borne_off + 1 == game.settings().pieces {
                wins = true;
            }
            best_gain = best_gain.max(Some(roll));
            continue;
        }
        let square = geometry.opponent_square[seat][usize::from(to)];
        let captured = if square != 0 && opponent & (1 << square) != 0 { square } else { 0 };
        best_gain = best_gain.max(Some(roll + captured));
    }
    let value = match best_gain {
        _ if wins => win,
        None => return None,
        Some(gain) if seat == root => base + f64::from(gain),
        Some(gain) => base - f64::from(gain),
    };
    Some((value, children))
}

/// The solved tables of this process, one per rule set.
static TABLES: RwLock<Vec<Arc<Table>>> = RwLock::new(Vec::new());

/// Makes `table` the solved table for its rules in this process (replacing one for the same
/// rules), for the `perfect` bot and winning chances.
pub fn install_table(table: Arc<Table>) {
    let mut tables = TABLES.write().unwrap_or_else(PoisonError::into_inner);
    tables.retain(|t| t.settings() != table.settings());
    tables.push(table);
}

/// The installed table for `settings`, if any.
pub fn table_for(settings: &UrSettings) -> Option<Arc<Table>> {
    TABLES.read().unwrap_or_else(PoisonError::into_inner).iter().find(|t| t.settings() == settings).cloned()
}

/// The rules that have a table installed.
pub fn installed_tables() -> Vec<UrSettings> {
    TABLES.read().unwrap_or_else(PoisonError::into_inner).iter().map(|t| *t.settings()).collect()
}

/// Plays the move with the highest winning chance in the solved table (ties: the lowest path
/// square). Deterministic: it never draws from its stream.
#[derive(Clone, Debug)]
pub struct Perfect {
    table: Arc<Table>,
}

impl Perfect {
    /// The perfect player for the rules `table` solves.
    pub fn new(table: Arc<Table>) -> Perfect {
        Perfect { table }
    }
}

impl Bot<Ur> for Perfect {
    fn choose(&mut self, _game: &Ur, state: &UrState, legal: &[UrAction], _stream: &mut Stream) -> UrAction {
        let Phase::Move { roll } = state.phase else { return legal[0] };
        match self.table.rules().position(state) {
            Ok(Some(pos)) => self.table.best_move(&pos, roll).map_or(legal[0], |(from, _)| UrAction::Move(from)),
            _ => legal[0],
        }
    }
}

impl Roster for Ur {
    fn rollout_bot() -> &'static str {
        "greedy"
    }

    fn bot_names() -> &'static [&'static str] {
        &["random", "greedy", "expectimax:D", "easy", "normal", "hard", "perfect"]
    }

    fn levels() -> Vec<&'static str> {
        let mut levels = crate::LEVELS.to_vec();
        if table_for(&madang_ur::Preset::default().settings()).is_some() {
            levels.push("perfect");
        }
        levels
    }

    fn solved_rules() -> Vec<String> {
        installed_tables().iter().map(madang_ur_solver::rules_json).collect()
    }

    fn win_chance(&self, state: &UrState) -> Option<f64> {
        table_for(self.settings())?.win_chance(self, state, 0).ok()
    }

    fn win_chances_after(&self, state: &UrState, legal: &[UrAction]) -> Option<Vec<f64>> {
        let table = table_for(self.settings())?;
        let Phase::Move { roll } = state.phase else { return None };
        let pos = table.rules().position(state).ok()??;
        let light = |mover: f64| if state.to_move == 0 { mover } else { 1.0 - mover };
        legal
            .iter()
            .map(|action| match action {
                UrAction::Move(from) if table.rules().movable(&pos, roll) & (1 << from) != 0 => {
                    Some(light(table.after_move(&pos, *from, roll)))
                }
                _ => None,
            })
            .collect()
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Ur>>, BotError> {
        let depth = match name {
            "random" => return Ok(Box::new(RandomBot)),
            "greedy" => return Ok(Box::new(Greedy)),
            "perfect" => {
                return match table_for(self.settings()) {
                    Some(table) => Ok(Box::new(Perfect::new(table))),
                    None => {
                        let rules = madang_ur_solver::rules_json(self.settings());
                        Err(BotError::Unavailable {
                            name: name.to_owned(),
                            reason: format!(
                                "no solved table for {} is loaded: solve it with `madang ur solve --rules '{rules}'`, which writes <data-dir>/ur/{}.table",
                                madang_ur_solver::describe(self.settings()),
                                madang_ur_solver::table_name(self.settings()),
                            ),
                        })
                    }
                };
            }
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
