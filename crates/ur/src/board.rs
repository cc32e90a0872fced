//! Board geometry as data: the 3 × 8 grid of tiles, the two paths and the rosettes
//! (spec `ur.md`, "Board and paths" and "Presets").

use serde::{Deserialize, Serialize};

/// Which path the pieces follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathKind {
    /// R. C. Bell's path used by the Finkel rules: 14 squares, shared lane B1-B8.
    Bell,
    /// The Masters path: 16 squares, up the shared lane to B7, round the far end through the
    /// opponent's column and back along one's own.
    Masters,
}

/// A tile of the board: column 0-2 (A, B, C) and row 1-8. `A5 A6 C5 C6` do not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    /// 0 = A (light's side), 1 = B (shared), 2 = C (dark's side).
    pub column: u8,
    /// 1-8, row 1 at the entry end of the shared lane.
    pub row: u8,
}

impl Tile {
    /// The tile's name, `A1` … `C8`.
    pub fn name(self) -> String {
        format!("{}{}", (b'A' + self.column) as char, self.row)
    }

    const fn at(column: u8, row: u8) -> Tile {
        Tile { column, row }
    }
}

/// The rosette tiles: A1, C1, B4 (the central rosette), A7, C7.
pub const ROSETTES: [Tile; 5] = [Tile::at(0, 1), Tile::at(2, 1), Tile::at(1, 4), Tile::at(0, 7), Tile::at(2, 7)];

/// Every tile of the 20-square board, column by column.
pub fn all_tiles() -> Vec<Tile> {
    let mut tiles = Vec::with_capacity(20);
    for column in 0..3 {
        for row in 1..=8 {
            if column != 1 && (row == 5 || row == 6) {
                continue;
            }
            tiles.push(Tile::at(column, row));
        }
    }
    tiles
}

/// The tiles of `seat`'s path (0 = light, 1 = dark), path square 1 first.
pub fn path_tiles(path: PathKind, seat: usize) -> Vec<Tile> {
    let own = if seat == 0 { 0 } else { 2 };
    let other = 2 - own;
    let mut tiles: Vec<Tile> = (1..=4).rev().map(|row| Tile::at(own, row)).collect();
    match path {
        PathKind::Bell => {
            tiles.extend((1..=8).map(|row| Tile::at(1, row)));
            tiles.extend([Tile::at(own, 8), Tile::at(own, 7)]);
        }
        PathKind::Masters => {
            tiles.extend((1..=7).map(|row| Tile::at(1, row)));
            tiles.extend([Tile::at(other, 7), Tile::at(other, 8), Tile::at(1, 8), Tile::at(own, 8), Tile::at(own, 7)]);
        }
    }
    tiles
}

/// The largest path length (Masters), so per-square tables have a fixed size.
pub const MAX_PATH_LEN: usize = 16;

/// Per-seat lookup tables derived from the path, used by the rules on every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of path squares (14 Bell, 16 Masters); `len + 1` is "borne off".
    pub len: u8,
    /// `opponent_square[seat][k]`: the opponent's own path square on the same tile as `seat`'s
    /// square `k`, or 0 where `k` is private (or `k` is 0 or off the path).
    pub opponent_square: [[u8; MAX_PATH_LEN + 2]; 2],
    /// Bit `k` set when `seat`'s path square `k` is a rosette.
    pub rosettes: [u32; 2],
}

impl Geometry {
    /// The tables for `path`.
    pub fn new(path: PathKind) -> Geometry {
        let paths = [path_tiles(path, 0), path_tiles(path, 1)];
        let mut opponent_square = [[0u8; MAX_PATH_LEN + 2]; 2];
        let mut rosettes = [0u32; 2];
        for seat in 0..2 {
            for (i, tile) in paths[seat].iter().enumerate() {
                let square = i + 1;
                if let Some(j) = paths[1 - seat].iter().position(|t| t == tile) {
                    opponent_square[seat][square] = (j + 1) as u8;
                }
                if ROSETTES.contains(tile) {
                    rosettes[seat] |= 1 << square;
                }
            }
        }
        Geometry { len: paths[0].len() as u8, opponent_square, rosettes }
    }
}

/// The board as the web client draws it: every tile, the rosettes and both paths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardData {
    /// Every tile: name, column (0-2), row (1-8), whether it is a rosette.
    pub tiles: Vec<TileData>,
    /// Light's path, tile names, path square 1 first.
    pub light_path: Vec<String>,
    /// Dark's path, tile names, path square 1 first.
    pub dark_path: Vec<String>,
    /// Tiles where a piece cannot be captured.
    pub safe_tiles: Vec<String>,
    /// Pieces per side.
    pub pieces: u8,
    /// Binary dice thrown (4, or 3 where no marked tip counts as 4).
    pub dice: u8,
}

/// One tile of [`BoardData`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileData {
    /// `A1` … `C8`.
    pub name: String,
    /// 0-2 for A-C.
    pub column: u8,
    /// 1-8.
    pub row: u8,
    /// A rosette tile.
    pub rosette: bool,
}

impl BoardData {
    /// The board for `path`, with rosettes safe when `safe_rosettes`, `pieces` a side and
    /// `dice` binary dice.
    pub fn new(path: PathKind, safe_rosettes: bool, pieces: u8, dice: u8) -> BoardData {
        let names = |tiles: Vec<Tile>| tiles.into_iter().map(Tile::name).collect::<Vec<_>>();
        BoardData {
            tiles: all_tiles()
                .into_iter()
                .map(|t| TileData { name: t.name(), column: t.column, row: t.row, rosette: ROSETTES.contains(&t) })
                .collect(),
            light_path: names(path_tiles(path, 0)),
            dark_path: names(path_tiles(path, 1)),
            safe_tiles: if safe_rosettes { ROSETTES.iter().map(|t| t.name()).collect() } else { Vec::new() },
            pieces,
            dice,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: PathKind, seat: usize) -> String {
        path_tiles(path, seat).into_iter().map(Tile::name).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn bell_paths_follow_the_spec_table() {
        assert_eq!(names(PathKind::Bell, 0), "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 B8 A8 A7");
        assert_eq!(names(PathKind::Bell, 1), "C4 C3 C2 C1 B1 B2 B3 B4 B5 B6 B7 B8 C8 C7");
    }

    #[test]
    fn masters_paths_follow_the_spec_text() {
        assert_eq!(names(PathKind::Masters, 0), "A4 A3 A2 A1 B1 B2 B3 B4 B5 B6 B7 C7 C8 B8 A8 A7");
        assert_eq!(names(PathKind::Masters, 1), "C4 C3 C2 C1 B1 B2 B3 B4 B5 B6 B7 A7 A8 B8 C8 C7");
    }

    #[test]
    fn board_has_twenty_tiles() {
        assert_eq!(all_tiles().len(), 20);
    }

    #[test]
    fn bell_rosettes_are_squares_4_8_14_and_shared_lane_is_5_to_12() {
        let g = Geometry::new(PathKind::Bell);
        assert_eq!(g.len, 14);
        for seat in 0..2 {
            assert_eq!(g.rosettes[seat], (1 << 4) | (1 << 8) | (1 << 14));
            for k in 1..=14 {
                let expected = if (5..=12).contains(&k) { k as u8 } else { 0 };
                assert_eq!(g.opponent_square[seat][k], expected, "seat {seat} square {k}");
            }
        }
    }

    #[test]
    fn masters_rosettes_are_4_8_12_16_and_light_12_is_dark_16() {
        let g = Geometry::new(PathKind::Masters);
        assert_eq!(g.len, 16);
        for seat in 0..2 {
            assert_eq!(g.rosettes[seat], (1 << 4) | (1 << 8) | (1 << 12) | (1 << 16));
        }
        assert_eq!(g.opponent_square[0][12], 16);
        assert_eq!(g.opponent_square[0][13], 15);
        assert_eq!(g.opponent_square[0][14], 14);
        assert_eq!(g.opponent_square[1][16], 12);
        assert_eq!(g.opponent_square[0][4], 0);
        assert_eq!(g.opponent_square[0][5], 5);
    }
}
