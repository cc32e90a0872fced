//! Boards as data (spec `dice-poker.md`, "Board types"): 16 cells on a grid plus an adjacency
//! kind. Cells are numbered 0-15 in reading order (rows top to bottom, each left to right).

use madang_core::RulesError;
use serde::{Deserialize, Serialize};

/// Number of cells on every board.
pub const CELLS: usize = 16;

/// The largest grid a custom layout may use, in rows and in columns.
pub const MAX_GRID: usize = 32;

/// Which cells a placement changes (rule `board`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// Type A (default): the eight surrounding cells (orthogonal and diagonal).
    #[default]
    A,
    /// Type B: the four orthogonal neighbours (up, down, left, right).
    B,
}

impl BoardKind {
    /// Whether a cell `(dr, dc)` away from another is its neighbour.
    fn adjacent(self, dr: i32, dc: i32) -> bool {
        match self {
            BoardKind::A => dr.abs() <= 1 && dc.abs() <= 1 && (dr, dc) != (0, 0),
            BoardKind::B => dr.abs() + dc.abs() == 1,
        }
    }
}

/// A board: the grid rows as given, each cell's grid position and its neighbours.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Board {
    /// The adjacency kind.
    pub kind: BoardKind,
    /// The layout's rows of `#` (cell) and `.` (no cell).
    pub rows: Vec<String>,
    /// `(row, column)` of each cell, in cell order.
    pub positions: [(u8, u8); CELLS],
    /// Bit `n` of entry `c` is set when cell `n` is a neighbour of cell `c`.
    pub neighbours: [u16; CELLS],
}

/// The default layout: a 4 × 4 grid.
pub fn default_layout() -> Vec<String> {
    vec!["####".to_owned(); 4]
}

impl Board {
    /// The board of `kind` on `layout` (the default 4 × 4 grid when `None`).
    ///
    /// # Errors
    /// A [`RulesError`] for key `layout` naming the problem: no rows, a row too long or too many
    /// rows, a character other than `#` and `.`, rows of different lengths, or a number of cells
    /// other than 16.
    pub fn new(kind: BoardKind, layout: Option<&[String]>) -> Result<Board, RulesError> {
        let rows: Vec<String> = layout.map_or_else(default_layout, <[String]>::to_vec);
        let error = |reason: String| RulesError::new("layout", reason);
        if rows.is_empty() {
            return Err(error("must list at least one row of `#` (cell) and `.` (no cell)".to_owned()));
        }
        if rows.len() > MAX_GRID {
            return Err(error(format!("has {} rows; at most {MAX_GRID} are allowed", rows.len())));
        }
        let width = rows[0].chars().count();
        let mut positions = Vec::with_capacity(CELLS);
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len > MAX_GRID {
                return Err(error(format!("row {r} has {len} characters; at most {MAX_GRID} are allowed")));
            }
            if len != width {
                return Err(error(format!(
                    "row {r} has {len} characters but row 0 has {width}: every row must be as long"
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' => positions.push((r as u8, c as u8)),
                    '.' => {}
                    other => {
                        return Err(error(format!(
                            "row {r} has {other:?} at column {c}: use `#` for a cell and `.` for no cell"
                        )));
                    }
                }
            }
        }
        let Ok(positions) = <[(u8, u8); CELLS]>::try_from(positions.as_slice()) else {
            return Err(error(format!("must have exactly {CELLS} cells (`#`), got {}", positions.len())));
        };
        Ok(Board::with_positions(kind, rows, positions))
    }

    /// The default 4 × 4 board of `kind`.
    pub fn standard(kind: BoardKind) -> Board {
        let positions = std::array::from_fn(|c| ((c / 4) as u8, (c % 4) as u8));
        Board::with_positions(kind, default_layout(), positions)
    }

    fn with_positions(kind: BoardKind, rows: Vec<String>, positions: [(u8, u8); CELLS]) -> Board {
        let mut neighbours = [0u16; CELLS];
        for (a, &(ra, ca)) in positions.iter().enumerate() {
            for (b, &(rb, cb)) in positions.iter().enumerate() {
                if kind.adjacent(i32::from(rb) - i32::from(ra), i32::from(cb) - i32::from(ca)) {
                    neighbours[a] |= 1 << b;
                }
            }
        }
        Board { kind, rows, positions, neighbours }
    }

    /// The neighbours of `cell`, ascending.
    pub fn neighbours_of(&self, cell: usize) -> Vec<usize> {
        let mask = self.neighbours.get(cell).copied().unwrap_or(0);
        (0..CELLS).filter(|n| mask & (1 << n) != 0).collect()
    }
}
