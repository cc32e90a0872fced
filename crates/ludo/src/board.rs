//! The board as data (spec `ludo.md`, "Seats and board"): the 52-square track, the start and
//! star squares, the home columns and goals, the base areas, and each square's cell on the
//! 15 × 15 grid, so the rules and the web client draw from the same numbers.
//!
//! Grid cells are `(row, col)`, row 0 at the top, column 0 at the left, as seat 0 (bottom) sees
//! the board. The track runs clockwise on the screen (bottom → left → top → right, the turn
//! order): seat 0's start square is the second cell from the bottom of the bottom arm's left
//! column, `(13, 6)`. Everything for seats 1-3 is seat 0's geometry turned by 90° clockwise per
//! seat, `(r, c) → (c, 14 − r)`.

use serde::{Deserialize, Serialize};

/// Squares on the shared track.
pub const TRACK_LEN: u8 = 52;
/// Track squares between two consecutive start squares (`13 × seat` is seat's start).
pub const QUARTER: u8 = 13;
/// The start squares of seats 0-3 (safe).
pub const START_SQUARES: [u8; 4] = [0, 13, 26, 39];
/// The star squares, 8 past each start (safe).
pub const STAR_SQUARES: [u8; 4] = [8, 21, 34, 47];
/// Progress of a piece in base.
pub const BASE: i8 = -1;
/// Progress of a piece on its start square.
pub const START: i8 = 0;
/// The last progress on the shared track; 51-55 is the home column.
pub const LAST_TRACK: i8 = 50;
/// Progress of a piece in the goal.
pub const GOAL: i8 = 56;
/// The grid is `GRID × GRID` cells.
pub const GRID: u8 = 15;

/// Whether track square `square` (0-51) is one of the 8 safe squares (a start or a star).
pub const fn is_safe(square: u8) -> bool {
    let k = square % QUARTER;
    k == 0 || k == 8
}

/// The track square of `seat`'s piece at `progress`: `(13 × seat + progress) mod 52` for
/// progress 0-50, `None` in base, in the home column or in the goal.
pub const fn track_square(seat: usize, progress: i8) -> Option<u8> {
    if progress < START || progress > LAST_TRACK {
        return None;
    }
    Some(((QUARTER as usize * seat + progress as usize) % TRACK_LEN as usize) as u8)
}

/// The progress `seat` has on track square `square`, if its pieces can stand there
/// (`None` for the one square of the track a seat never reaches: the one just past its home
/// column entry, 13 × seat − 1).
pub const fn progress_on(seat: usize, square: u8) -> Option<i8> {
    let p = (square as usize + TRACK_LEN as usize * 4 - QUARTER as usize * seat) % TRACK_LEN as usize;
    if p as i8 > LAST_TRACK { None } else { Some(p as i8) }
}

/// A cell of the 15 × 15 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// 0-14, top to bottom.
    pub row: u8,
    /// 0-14, left to right.
    pub col: u8,
}

const fn cell(row: u8, col: u8) -> Cell {
    Cell { row, col }
}

/// Turns a cell by 90° clockwise `times` times about the grid's centre.
pub const fn rotate(c: Cell, times: usize) -> Cell {
    let mut c = c;
    let mut i = 0;
    while i < times % 4 {
        c = cell(c.col, GRID - 1 - c.row);
        i += 1;
    }
    c
}

/// Seat 0's quarter of the track: squares 0-12, from its start square up the bottom arm's left
/// column, diagonally past the centre's corner, out along the left arm's bottom row and round its
/// end. Square `13 q + k` is this list's cell `k` turned `q` times.
const QUARTER_CELLS: [Cell; 13] = [
    cell(13, 6),
    cell(12, 6),
    cell(11, 6),
    cell(10, 6),
    cell(9, 6),
    cell(8, 5),
    cell(8, 4),
    cell(8, 3),
    cell(8, 2),
    cell(8, 1),
    cell(8, 0),
    cell(7, 0),
    cell(6, 0),
];

/// Seat 0's home column, progress 51-55 (up the bottom arm's middle column).
const HOME_COLUMN_CELLS: [Cell; 5] = [cell(13, 7), cell(12, 7), cell(11, 7), cell(10, 7), cell(9, 7)];

/// Seat 0's goal cell: the centre block's cell on its side.
const GOAL_CELL: Cell = cell(8, 7);

/// Seat 0's base area: the bottom-left 6 × 6 corner; its four piece spots (by piece id) are the
/// area's middle 2 × 2.
const BASE_SPOTS: [Cell; 4] = [cell(11, 2), cell(11, 3), cell(12, 2), cell(12, 3)];

/// The cell of track square `square` (0-51).
pub const fn track_cell(square: u8) -> Cell {
    let square = square % TRACK_LEN;
    rotate(QUARTER_CELLS[(square % QUARTER) as usize], (square / QUARTER) as usize)
}

/// Where `seat`'s piece `piece` at `progress` is drawn: its base spot, a track square, a home
/// column square or the seat's goal cell. Progress outside −1 … 56 gives the base spot.
pub const fn piece_cell(seat: usize, piece: usize, progress: i8) -> Cell {
    match track_square(seat, progress) {
        Some(square) => track_cell(square),
        None if progress > LAST_TRACK && progress < GOAL => {
            rotate(HOME_COLUMN_CELLS[(progress - LAST_TRACK - 1) as usize], seat)
        }
        None if progress == GOAL => rotate(GOAL_CELL, seat),
        None => rotate(BASE_SPOTS[piece % 4], seat),
    }
}

/// A rectangle of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    /// Top row.
    pub row: u8,
    /// Left column.
    pub col: u8,
    /// Number of rows.
    pub rows: u8,
    /// Number of columns.
    pub cols: u8,
}

/// `seat`'s base area (6 × 6 corner): bottom-left for seat 0, then clockwise.
pub const fn base_area(seat: usize) -> Area {
    let a = rotate(cell(9, 0), seat);
    let b = rotate(cell(14, 5), seat);
    let (row, rows) = if a.row < b.row { (a.row, b.row - a.row + 1) } else { (b.row, a.row - b.row + 1) };
    let (col, cols) = if a.col < b.col { (a.col, b.col - a.col + 1) } else { (b.col, a.col - b.col + 1) };
    Area { row, col, rows, cols }
}

/// One track square, for [`BoardData`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackSquare {
    /// Track index 0-51.
    pub index: u8,
    /// Grid cell.
    pub cell: Cell,
    /// One of the 8 safe squares.
    pub safe: bool,
    /// The seat whose start square this is.
    pub start_of: Option<u8>,
    /// A star square (8 past a start).
    pub star: bool,
}

/// One seat's parts of the board, for [`BoardData`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatBoard {
    /// Seat index 0-3 (0 bottom, 1 left, 2 top, 3 right).
    pub seat: u8,
    /// Track index of the start square.
    pub start_square: u8,
    /// Track index of the star square 8 past the start.
    pub star_square: u8,
    /// Track index of the last track square before the home column (progress 50).
    pub home_entry_square: u8,
    /// Cells of the home column, progress 51 first.
    pub home_column: Vec<Cell>,
    /// The goal cell (progress 56).
    pub goal: Cell,
    /// The base area.
    pub base: Area,
    /// The four base spots, by piece id.
    pub base_spots: Vec<Cell>,
}

/// The whole board as the web client draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardData {
    /// Grid size (15).
    pub grid: u8,
    /// The 52 track squares by index.
    pub track: Vec<TrackSquare>,
    /// The four seats.
    pub seats: Vec<SeatBoard>,
    /// The centre block (the goals), rows and columns 6-8.
    pub centre: Area,
}

impl BoardData {
    /// The board.
    pub fn new() -> BoardData {
        let track = (0..TRACK_LEN)
            .map(|index| TrackSquare {
                index,
                cell: track_cell(index),
                safe: is_safe(index),
                start_of: START_SQUARES.iter().position(|&s| s == index).map(|s| s as u8),
                star: STAR_SQUARES.contains(&index),
            })
            .collect();
        let seats = (0..4usize)
            .map(|seat| SeatBoard {
                seat: seat as u8,
                start_square: START_SQUARES[seat],
                star_square: STAR_SQUARES[seat],
                home_entry_square: track_square(seat, LAST_TRACK).unwrap_or_default(),
                home_column: (LAST_TRACK + 1..GOAL).map(|p| piece_cell(seat, 0, p)).collect(),
                goal: piece_cell(seat, 0, GOAL),
                base: base_area(seat),
                base_spots: (0..4).map(|piece| piece_cell(seat, piece, BASE)).collect(),
            })
            .collect();
        BoardData { grid: GRID, track, seats, centre: Area { row: 6, col: 6, rows: 3, cols: 3 } }
    }
}

impl Default for BoardData {
    fn default() -> Self {
        BoardData::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_star_squares_are_the_safe_squares() {
        let safe: Vec<u8> = (0..TRACK_LEN).filter(|&s| is_safe(s)).collect();
        assert_eq!(safe, [0, 8, 13, 21, 26, 34, 39, 47]);
        for seat in 0..4 {
            assert_eq!(track_square(seat, START), Some(START_SQUARES[seat]));
            assert_eq!(track_square(seat, 8), Some(STAR_SQUARES[seat]));
        }
    }

    #[test]
    fn track_square_is_13_seat_plus_progress_mod_52() {
        assert_eq!(track_square(0, 50), Some(50));
        assert_eq!(track_square(1, 50), Some(11));
        assert_eq!(track_square(2, 50), Some(24));
        assert_eq!(track_square(3, 50), Some(37));
        assert_eq!(track_square(3, 13), Some(0));
        assert_eq!(track_square(0, BASE), None);
        assert_eq!(track_square(0, 51), None);
        assert_eq!(track_square(2, GOAL), None);
        assert_eq!(progress_on(1, 11), Some(50));
        assert_eq!(progress_on(1, 12), None, "square 12 is just past seat 1's home column entry");
        assert_eq!(progress_on(3, 0), Some(13));
    }

    #[test]
    fn track_cells_are_distinct_neighbours_in_a_closed_loop() {
        let cells: Vec<Cell> = (0..TRACK_LEN).map(track_cell).collect();
        for (i, a) in cells.iter().enumerate() {
            assert!(a.row < GRID && a.col < GRID);
            let b = cells[(i + 1) % cells.len()];
            let (dr, dc) = (a.row.abs_diff(b.row), a.col.abs_diff(b.col));
            assert!(dr <= 1 && dc <= 1 && dr + dc >= 1, "squares {i} {a:?} and the next {b:?} are not neighbours");
            assert_eq!(cells.iter().filter(|c| *c == a).count(), 1, "{a:?} twice");
            // Outside the centre block and the base corners.
            let in_arm_band = (6..=8).contains(&a.row) || (6..=8).contains(&a.col);
            let in_centre = (6..=8).contains(&a.row) && (6..=8).contains(&a.col);
            assert!(in_arm_band && !in_centre, "{a:?}");
        }
    }

    #[test]
    fn starts_stars_and_home_columns_sit_on_the_expected_cells() {
        // Worked out from the layout: seat 0's start is (13, 6); rotating clockwise gives the
        // other seats' starts; the star 8 squares on from seat 0's start is (8, 2).
        assert_eq!(track_cell(0), cell(13, 6));
        assert_eq!(track_cell(13), cell(6, 1));
        assert_eq!(track_cell(26), cell(1, 8));
        assert_eq!(track_cell(39), cell(8, 13));
        assert_eq!(track_cell(8), cell(8, 2));
        assert_eq!(track_cell(21), cell(2, 6));
        assert_eq!(track_cell(34), cell(6, 12));
        assert_eq!(track_cell(47), cell(12, 8));
        // The home column leaves the track from the arm's middle end square.
        assert_eq!(track_cell(50), cell(14, 7));
        assert_eq!(piece_cell(0, 0, 51), cell(13, 7));
        assert_eq!(piece_cell(0, 0, 55), cell(9, 7));
        assert_eq!(piece_cell(0, 0, GOAL), cell(8, 7));
        assert_eq!(track_cell(11), cell(7, 0));
        assert_eq!(piece_cell(1, 0, 51), cell(7, 1));
        assert_eq!(piece_cell(2, 0, 51), cell(1, 7));
        assert_eq!(piece_cell(3, 0, 51), cell(7, 13));
    }

    #[test]
    fn bases_are_the_corners_before_each_start() {
        assert_eq!(base_area(0), Area { row: 9, col: 0, rows: 6, cols: 6 });
        assert_eq!(base_area(1), Area { row: 0, col: 0, rows: 6, cols: 6 });
        assert_eq!(base_area(2), Area { row: 0, col: 9, rows: 6, cols: 6 });
        assert_eq!(base_area(3), Area { row: 9, col: 9, rows: 6, cols: 6 });
        let board = BoardData::new();
        for seat in &board.seats {
            let a = seat.base;
            for spot in &seat.base_spots {
                assert!((a.row..a.row + a.rows).contains(&spot.row) && (a.col..a.col + a.cols).contains(&spot.col));
            }
        }
        assert_eq!(board.track.len(), 52);
        assert_eq!(board.track.iter().filter(|t| t.safe).count(), 8);
    }
}
