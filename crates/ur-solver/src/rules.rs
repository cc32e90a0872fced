//! Positions with the side to move normalised, and the fast successor function the solver and
//! the perfect player use. The rule values come from `madang-ur` ([`UrSettings`], its
//! [`madang_ur::Geometry`] and dice); the move logic mirrors `Ur::movable_mask` and `Ur::apply`
//! bit for bit and is cross-checked against the engine in this crate's tests.

use madang_ur::{Geometry, Phase, Side, UrSettings, UrState};

use crate::SolverError;

/// A position at a roll: the side to move ("me") is about to roll.
///
/// Boards are bit masks in each side's own path numbering (bit `k` = own path square `k`,
/// 1 ≤ k ≤ path length); pieces in hand are what is neither on the board nor borne off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The mover's pieces on the board, own numbering.
    pub me: u32,
    /// The opponent's pieces on the board, the opponent's own numbering.
    pub opp: u32,
    /// Pieces the mover has borne off (fewer than the piece count: the mover has not won).
    pub me_off: u8,
    /// Pieces the opponent has borne off (all of them when the opponent has just won).
    pub opp_off: u8,
}

impl Position {
    /// The same pieces with the other side to move.
    #[inline]
    pub fn swapped(&self) -> Position {
        Position { me: self.opp, opp: self.me, me_off: self.opp_off, opp_off: self.me_off }
    }
}

/// What one legal move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The mover bore off its last piece and won.
    Win,
    /// The mover rolls again (a rosette, or a capture with `capture_extra_roll`): the position
    /// with the same side to move.
    Again(Position),
    /// The turn passes: the position from the opponent's side.
    Swap(Position),
}

/// The rules in the form the solver uses: dice as probabilities and per-square bit tables.
#[derive(Clone, Debug)]
pub struct Rules {
    settings: UrSettings,
    pieces: u8,
    len: u8,
    /// `(roll, probability)`, every roll the dice can show (0 included).
    rolls: Vec<(u8, f64)>,
    /// Bits 1 ..= len + 1: path squares and "borne off".
    on_path_or_off: u32,
    /// The mover's rosette squares (the same in both sides' own numbering).
    rosettes: u32,
    /// Destination squares an opponent's piece makes illegal (safe shared rosettes).
    safe: u32,
    capture_extra_roll: bool,
    /// My square → the opponent's own square on the same tile (0 where private).
    me_to_opp: [u8; 32],
    /// The opponent's board (own numbering) → the same tiles in my numbering, by 9-bit halves.
    opp_in_me: [Vec<u32>; 2],
}

/// Maps a 17-bit board mask through a per-bit table, using two 512-entry halves.
pub(crate) fn split_table(map: impl Fn(u32) -> u32) -> [Vec<u32>; 2] {
    let half = |shift: u32| -> Vec<u32> {
        (0..512u32)
            .map(|bits| {
                let mut out = 0;
                for b in 0..9 {
                    if bits & (1 << b) != 0 {
                        out |= map(b + shift);
                    }
                }
                out
            })
            .collect()
    };
    [half(0), half(9)]
}

impl Rules {
    /// The solver's form of `settings`.
    ///
    /// # Errors
    /// [`SolverError::Unsupported`] for settings outside what the index handles (none today:
    /// every preset and option combination is supported).
    pub fn new(settings: UrSettings) -> Result<Rules, SolverError> {
        if !(1..=7).contains(&settings.pieces) {
            return Err(SolverError::Unsupported(format!("pieces must be 1-7, got {}", settings.pieces)));
        }
        let geometry = Geometry::new(settings.path);
        let len = geometry.len;
        let total: u64 = settings.dice.outcomes().iter().map(|(_, w)| *w).sum();
        let rolls = settings.dice.outcomes().iter().map(|&(r, w)| (r, w as f64 / total as f64)).collect();
        let mut me_to_opp = [0u8; 32];
        let squares = usize::from(len) + 1;
        me_to_opp[..squares].copy_from_slice(&geometry.opponent_square[0][..squares]);
        let shared: u32 = (1..=len).filter(|&k| me_to_opp[k as usize] != 0).fold(0, |m, k| m | 1 << k);
        let opp_sq = geometry.opponent_square[1];
        let opp_in_me = split_table(|bit| {
            let square = if (1..=u32::from(len)).contains(&bit) { opp_sq[bit as usize] } else { 0 };
            if square == 0 { 0 } else { 1 << square }
        });
        Ok(Rules {
            settings,
            pieces: settings.pieces,
            len,
            rolls,
            on_path_or_off: (1u32 << (len + 2)) - 2,
            rosettes: geometry.rosettes[0],
            safe: if settings.safe_rosettes { geometry.rosettes[0] & shared } else { 0 },
            capture_extra_roll: settings.capture_extra_roll,
            me_to_opp,
            opp_in_me,
        })
    }

    /// The rule values.
    pub fn settings(&self) -> &UrSettings {
        &self.settings
    }

    /// Pieces per side.
    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Path length (14 Bell, 16 Masters).
    pub fn path_len(&self) -> u8 {
        self.len
    }

    /// `(roll, probability)` for every roll.
    pub fn rolls(&self) -> &[(u8, f64)] {
        &self.rolls
    }

    /// The opponent's board in my numbering (shared tiles only).
    #[inline]
    pub fn opp_in_me(&self, opp: u32) -> u32 {
        self.opp_in_me[0][(opp & 511) as usize] | self.opp_in_me[1][(opp >> 9 & 511) as usize]
    }

    /// Pieces the mover holds in hand.
    #[inline]
    pub fn me_in_hand(&self, pos: &Position) -> u32 {
        u32::from(self.pieces) - u32::from(pos.me_off) - pos.me.count_ones()
    }

    /// Bit `k` set when the mover's piece on `k` (bit 0: a piece in hand) can move `roll`
    /// (1 ≤ roll); the same as `Ur::movable_mask`.
    #[inline]
    pub fn movable(&self, pos: &Position, roll: u8) -> u32 {
        let sources = pos.me | u32::from(self.me_in_hand(pos) > 0);
        let mut destinations = (sources << roll) & self.on_path_or_off & !pos.me;
        if self.safe != 0 {
            destinations &= !(self.opp_in_me(pos.opp) & self.safe);
        }
        destinations >> roll
    }

    /// What moving the mover's piece on `from` by `roll` leads to (the move must be legal).
    #[inline]
    pub fn after(&self, pos: &Position, from: u8, roll: u8) -> After {
        let to = from + roll;
        let me = pos.me & !(1 << from);
        if to == self.len + 1 {
            let me_off = pos.me_off + 1;
            if me_off == self.pieces {
                return After::Win;
            }
            return After::Swap(Position { me: pos.opp, opp: me, me_off: pos.opp_off, opp_off: me_off });
        }
        let me = me | 1 << to;
        let q = self.me_to_opp[to as usize];
        let capture = q != 0 && pos.opp & (1 << q) != 0;
        let opp = if capture { pos.opp & !(1 << q) } else { pos.opp };
        if self.rosettes & (1 << to) != 0 || (capture && self.capture_extra_roll) {
            After::Again(Position { me, opp, me_off: pos.me_off, opp_off: pos.opp_off })
        } else {
            After::Swap(Position { me: opp, opp: me, me_off: pos.opp_off, opp_off: pos.me_off })
        }
    }

    /// The mover's winning chance at `pos` given `value`, the mover's winning chance at other
    /// positions (the Bellman operator): the dice's average, for each roll, of the best move's
    /// value (a pass when none is legal).
    #[inline]
    pub fn bellman(&self, pos: &Position, value: impl Fn(&Position) -> f64) -> f64 {
        let mut pass = f64::NAN;
        let mut total = 0.0;
        for &(roll, p) in &self.rolls {
            let mut mask = if roll == 0 { 0 } else { self.movable(pos, roll) };
            let best = if mask == 0 {
                if pass.is_nan() {
                    pass = 1.0 - value(&pos.swapped());
                }
                pass
            } else {
                let mut best = 0.0f64;
                while mask != 0 {
                    let from = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    let v = match self.after(pos, from, roll) {
                        After::Win => 1.0,
                        After::Again(next) => value(&next),
                        After::Swap(next) => 1.0 - value(&next),
                    };
                    best = best.max(v);
                }
                best
            };
            total += p * best;
        }
        total
    }

    /// The position of an engine state from its side to move's view, or `None` when the game
    /// is over.
    ///
    /// # Errors
    /// [`SolverError::BadState`] when the pieces do not add up to the piece count or lie off
    /// the path.
    pub fn position(&self, state: &UrState) -> Result<Option<Position>, SolverError> {
        if let Phase::Won { .. } = state.phase {
            return Ok(None);
        }
        let seat = usize::from(state.to_move & 1);
        let board_mask = (1u32 << (self.len + 1)) - 2;
        for side in &state.sides {
            let total = u32::from(side.in_hand) + side.board.count_ones() + u32::from(side.borne_off);
            if side.board & !board_mask != 0 || total != u32::from(self.pieces) {
                return Err(SolverError::BadState(format!(
                    "a side has {} in hand, board {:#b} and {} borne off, which is not {} pieces on a {}-square path",
                    side.in_hand, side.board, side.borne_off, self.pieces, self.len
                )));
            }
        }
        let (me, opp) = (&state.sides[seat], &state.sides[1 - seat]);
        if me.borne_off >= self.pieces || opp.borne_off >= self.pieces {
            return Ok(None);
        }
        if self.opp_in_me(opp.board) & me.board != 0 {
            return Err(SolverError::BadState("both sides have a piece on the same square".into()));
        }
        Ok(Some(Position { me: me.board, opp: opp.board, me_off: me.borne_off, opp_off: opp.borne_off }))
    }

    /// The engine state of `pos` at a roll, with `seat` to move.
    pub fn state(&self, pos: &Position, seat: u8) -> UrState {
        let side =
            |board: u32, off: u8| Side { in_hand: self.pieces - off - board.count_ones() as u8, board, borne_off: off };
        let mut sides = [side(pos.me, pos.me_off), side(pos.opp, pos.opp_off)];
        if seat == 1 {
            sides.swap(0, 1);
        }
        UrState { sides, to_move: seat, phase: Phase::Roll }
    }
}
