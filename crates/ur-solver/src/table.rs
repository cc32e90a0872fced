//! The solved table: a header and one value per position, addressed by the perfect index, so a
//! lookup is index arithmetic plus one memory read.

use madang_core::Game;
use madang_ur::{Phase, Ur, UrAction, UrSettings, UrState};
use sha2::{Digest, Sha256};

use crate::SolverError;
use crate::index::Index;
use crate::rules::{After, Position, Rules};
use crate::solve::SolveReport;

/// How values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// 16-bit fixed point: `round(value × 65535)`; a step of 1/65535 ≈ 0.0015 percentage points.
    U16,
    /// IEEE 754 single precision.
    F32,
}

impl ValueType {
    /// Bytes per value.
    pub fn size(self) -> usize {
        match self {
            ValueType::U16 => 2,
            ValueType::F32 => 4,
        }
    }

    /// The largest difference between a stored value and the `f64` it came from.
    pub fn max_error(self) -> f64 {
        match self {
            ValueType::U16 => 0.5 / 65535.0,
            ValueType::F32 => f64::from(f32::EPSILON),
        }
    }

    /// `u16` or `f32`.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::U16 => "u16",
            ValueType::F32 => "f32",
        }
    }
}

impl std::str::FromStr for ValueType {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "u16" => Ok(ValueType::U16),
            "f32" => Ok(ValueType::F32),
            other => Err(format!("expected `u16` or `f32`, got {other:?}")),
        }
    }
}

/// The values, one per position by index.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// 16-bit fixed point.
    U16(Vec<u16>),
    /// Single precision.
    F32(Vec<f32>),
}

impl Values {
    /// `len` zeros.
    pub fn new(value_type: ValueType, len: usize) -> Values {
        match value_type {
            ValueType::U16 => Values::U16(vec![0; len]),
            ValueType::F32 => Values::F32(vec![0.0; len]),
        }
    }

    /// Stores `values` from position `start` on.
    pub fn fill(&mut self, start: usize, values: &[f64]) {
        match self {
            Values::U16(out) => {
                for (o, v) in out[start..start + values.len()].iter_mut().zip(values) {
                    *o = (v.clamp(0.0, 1.0) * 65535.0).round() as u16;
                }
            }
            Values::F32(out) => {
                for (o, v) in out[start..start + values.len()].iter_mut().zip(values) {
                    *o = *v as f32;
                }
            }
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::U16(v) => v.len(),
            Values::F32(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value type.
    pub fn value_type(&self) -> ValueType {
        match self {
            Values::U16(_) => ValueType::U16,
            Values::F32(_) => ValueType::F32,
        }
    }

    /// Value `i` as a probability.
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Values::U16(v) => f64::from(v[i]) * (1.0 / 65535.0),
            Values::F32(v) => f64::from(v[i]),
        }
    }

    /// SHA-256 of the values as stored in the file (little-endian).
    pub fn sha256(&self) -> [u8; 32] {
        let mut hash = Sha256::new();
        let mut buf = Vec::with_capacity(1 << 16);
        match self {
            Values::U16(v) => {
                for chunk in v.chunks(1 << 15) {
                    buf.clear();
                    buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                    hash.update(&buf);
                }
            }
            Values::F32(v) => {
                for chunk in v.chunks(1 << 14) {
                    buf.clear();
                    buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                    hash.update(&buf);
                }
            }
        }
        hash.finalize().into()
    }
}

/// What a table file says about itself (`docs/ur-solver.md`, "File format").
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The rules solved.
    pub settings: UrSettings,
    /// How values are stored.
    pub value_type: ValueType,
    /// The solve's tolerance.
    pub tolerance: f64,
    /// Positions (values).
    pub states: u64,
    /// Sweeps over all layer pairs.
    pub sweeps: u64,
    /// The largest Bellman residual, in `f64`.
    pub residual: f64,
    /// The first player's winning chance at the start, in `f64`.
    pub start_value: f64,
    /// Seconds the solve took.
    pub seconds: f64,
    /// SHA-256 of the values as stored.
    pub checksum: [u8; 32],
}

impl Header {
    /// The header of a fresh solve (checksum filled in by [`Table::from_parts`]).
    pub fn new(settings: UrSettings, value_type: ValueType, tolerance: f64, report: &SolveReport) -> Header {
        Header {
            settings,
            value_type,
            tolerance,
            states: report.states,
            sweeps: report.sweeps,
            residual: report.residual,
            start_value: report.start_value,
            seconds: report.seconds,
            checksum: [0; 32],
        }
    }
}

/// A solved table: every position's winning chance for the side to move at a roll.
#[derive(Clone, Debug)]
pub struct Table {
    header: Header,
    rules: Rules,
    index: Index,
    values: Values,
}

/// One legal move at a decision, valued.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// The move (`move K`).
    pub action: UrAction,
    /// The mover's winning chance after it, with perfect play from then on.
    pub chance: f64,
}

impl Table {
    /// A table from its header and values, computing the checksum.
    ///
    /// # Errors
    /// [`SolverError::BadTable`] when the values do not fit the rules' index.
    pub fn from_parts(mut header: Header, values: Values) -> Result<Table, SolverError> {
        header.checksum = values.sha256();
        Table::checked(header, values)
    }

    /// A table whose header already holds its checksum; checks counts (not the checksum).
    pub(crate) fn checked(header: Header, values: Values) -> Result<Table, SolverError> {
        let rules = Rules::new(header.settings)?;
        let index = Index::new(&header.settings);
        if index.count() != header.states || values.len() as u64 != header.states {
            return Err(SolverError::BadTable(format!(
                "the rules have {} positions but the table holds {} values (header: {})",
                index.count(),
                values.len(),
                header.states
            )));
        }
        if values.value_type() != header.value_type {
            return Err(SolverError::BadTable("the values are not of the header's type".into()));
        }
        Ok(Table { header, rules, index, values })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The rules solved.
    pub fn settings(&self) -> &UrSettings {
        &self.header.settings
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The solver's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The values.
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table is empty (never, for a valid table).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Value `index`: the mover's winning chance at that position. O(1).
    #[inline]
    pub fn lookup(&self, index: u64) -> f64 {
        self.values.get(index as usize)
    }

    /// The mover's winning chance at `pos` (a valid position of these rules).
    #[inline]
    pub fn value(&self, pos: &Position) -> f64 {
        self.values.get(self.index.index(pos) as usize)
    }

    /// Looks up many positions at once: `out[i]` = value of `positions[i]`.
    pub fn lookup_many(&self, positions: &[Position], out: &mut [f64]) {
        for (o, p) in out.iter_mut().zip(positions) {
            *o = self.value(p);
        }
    }

    /// The mover's winning chance after a legal move of the piece on `from` with `roll`.
    #[inline]
    pub fn after_move(&self, pos: &Position, from: u8, roll: u8) -> f64 {
        match self.rules.after(pos, from, roll) {
            After::Win => 1.0,
            After::Again(next) => self.value(&next),
            After::Swap(next) => 1.0 - self.value(&next),
        }
    }

    /// The best move's source square with `roll` at `pos` and the mover's chance after it, or
    /// `None` when no move is legal. Ties go to the lowest square.
    #[inline]
    pub fn best_move(&self, pos: &Position, roll: u8) -> Option<(u8, f64)> {
        let mut mask = self.rules.movable(pos, roll);
        let mut best: Option<(u8, f64)> = None;
        while mask != 0 {
            let from = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let v = self.after_move(pos, from, roll);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((from, v));
            }
        }
        best
    }

    fn check_rules(&self, game: &Ur) -> Result<(), SolverError> {
        if game.settings() != self.settings() {
            return Err(SolverError::OtherRules { table: *self.settings(), wanted: *game.settings() });
        }
        Ok(())
    }

    /// Every legal move at a decision state with the mover's winning chance after it.
    ///
    /// # Errors
    /// A table for other rules, or a state that is not one of these rules.
    pub fn move_values(&self, game: &Ur, state: &UrState) -> Result<Vec<MoveValue>, SolverError> {
        self.check_rules(game)?;
        let Phase::Move { roll } = state.phase else { return Ok(Vec::new()) };
        let pos = self.rules.position(state)?.ok_or_else(|| SolverError::BadState("the game is over".into()))?;
        let mut legal = Vec::new();
        game.legal_actions(state, &mut legal);
        Ok(legal
            .into_iter()
            .filter_map(|action| match action {
                UrAction::Move(from) => Some(MoveValue { action, chance: self.after_move(&pos, from, roll) }),
                UrAction::Roll(_) => None,
            })
            .collect())
    }

    /// The winning chance of `seat` (0 light, 1 dark) at any state of the game, assuming
    /// perfect play from here on: at a roll the table's value, at a decision the best move's,
    /// and 1 or 0 once the game is over.
    ///
    /// # Errors
    /// A table for other rules, or a state that is not one of these rules.
    pub fn win_chance(&self, game: &Ur, state: &UrState, seat: u8) -> Result<f64, SolverError> {
        self.check_rules(game)?;
        let mover = match state.phase {
            Phase::Won { winner } => return Ok(if winner == seat { 1.0 } else { 0.0 }),
            Phase::Roll => {
                let pos =
                    self.rules.position(state)?.ok_or_else(|| SolverError::BadState("the game is over".into()))?;
                self.value(&pos)
            }
            Phase::Move { .. } => {
                self.move_values(game, state)?.iter().map(|m| m.chance).fold(f64::NEG_INFINITY, f64::max)
            }
        };
        Ok(if state.to_move == seat { mover } else { 1.0 - mover })
    }
}
