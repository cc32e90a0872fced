//! The 29-station board as data (spec `yut.md`, "Board: 29 stations").
//!
//! ```text
//!  10  9  8  7  6  5        10 = 뒷모 (top-left corner)      5 = 모 (top-right corner)
//!  11 25          20  4
//!  12    26    21     3      22 = 방 (centre)
//!        22
//!  13    23    27     2
//!  14 24          28  1
//!  15 16 17 18 19  0         15 = 찌모 (bottom-left corner)   0 = 참먹이 (start and exit)
//! ```

use serde::{Deserialize, Serialize};

/// Number of stations.
pub const STATIONS: u8 = 29;
/// 참먹이: start and exit.
pub const CHAMMEOGI: u8 = 0;
/// 모: the top-right corner, a branch.
pub const MO_CORNER: u8 = 5;
/// 뒷모: the top-left corner, a branch.
pub const DWITMO: u8 = 10;
/// 찌모: the bottom-left corner, a merge.
pub const JJIMO: u8 = 15;
/// 방: the centre, a branch.
pub const CENTRE: u8 = 22;

/// The branch stations and their two choices `(straight on, shortcut)`: 5 → 6 / 20,
/// 10 → 11 / 25, 22 → 23 / 27 (27 is the way towards 참먹이).
pub const BRANCHES: [(u8, u8, u8); 3] = [(MO_CORNER, 6, 20), (DWITMO, 11, 25), (CENTRE, 23, 27)];

/// The two route choices at a branch station, or `None` elsewhere.
pub fn branch_choices(station: u8) -> Option<(u8, u8)> {
    BRANCH_AT.get(usize::from(station)).copied().flatten()
}

/// [`BRANCHES`] by station, made from it at compile time: every move asks a station's choices.
const BRANCH_AT: [Option<(u8, u8)>; STATIONS as usize] = {
    let mut table = [None; STATIONS as usize];
    let mut i = 0;
    while i < BRANCHES.len() {
        let (station, straight, shortcut) = BRANCHES[i];
        table[station as usize] = Some((straight, shortcut));
        i += 1;
    }
    table
};

/// The shortcut of a branch station (what `shortcuts: "forced"` always takes).
pub fn shortcut(station: u8) -> Option<u8> {
    branch_choices(station).map(|(_, b)| b)
}

/// The next station when passing `station` without stopping, having come from `previous`.
/// `None` at 참먹이: passing it means finishing.
pub fn straight_next(station: u8, previous: Option<u8>) -> Option<u8> {
    Some(match station {
        0 => return None,
        1..=18 => station + 1,
        19 => 0,
        20 | 21 => station + 1,
        CENTRE => {
            if previous == Some(26) {
                27
            } else {
                23
            }
        }
        23 => 24,
        24 => JJIMO,
        25 => 26,
        26 => CENTRE,
        27 => 28,
        28 => 0,
        _ => return None,
    })
}

/// One station back along the outer ring (or the diagonal's fixed predecessor), used by a
/// back-do when a piece's trail has no earlier station.
pub fn ring_back(station: u8) -> u8 {
    match station {
        0 => 19,
        1..=19 => station - 1,
        20 => MO_CORNER,
        25 => DWITMO,
        21 | 23 | 24 | 26 | 28 => station - 1,
        CENTRE => 21,
        27 => CENTRE,
        _ => 0,
    }
}

/// Fewest forward steps from `station` to finish, choosing freely at every branch
/// (spec `yut.md`, results figure `steps_left`). With `exit_on_reach`, reaching 참먹이
/// finishes; otherwise the piece must pass it (one more step). A piece standing on 참먹이 needs 1.
pub fn steps_to_finish(station: u8, exit_on_reach: bool) -> u32 {
    // Distances to reach 0 by the shortest way, worked out on the board above.
    let to_chammeogi: u32 = match station {
        0 => return 1,
        1..=4 => 6 + (5 - u32::from(station)), // up to 모, then 20-21-22-27-28-0 (6 steps)
        5 => 6,                                // 5-20-21-22-27-28-0
        6..=9 => 6 + (10 - u32::from(station)), // on to 뒷모, then 25-26-22-27-28-0 (6)
        10 => 6,                               // 10-25-26-22-27-28-0
        11..=19 => 20 - u32::from(station),    // along the ring
        20 => 5,
        21 => 4,
        22 => 3,
        23 => 7, // 23-24-15-16-17-18-19-0
        24 => 6,
        25 => 5,
        26 => 4,
        27 => 2,
        28 => 1,
        _ => 0,
    };
    if exit_on_reach { to_chammeogi } else { to_chammeogi + 1 }
}

/// Where the web client draws each station: `x`, `y` in percent of the board's side, origin
/// top-left.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StationData {
    /// Station number 0-28.
    pub station: u8,
    /// Percent from the left edge.
    pub x: f32,
    /// Percent from the top edge.
    pub y: f32,
    /// A corner or the centre (drawn larger).
    pub big: bool,
}

/// The board for the web client: stations with positions, the outer ring, both diagonals,
/// branches and merges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardData {
    /// The 29 stations.
    pub stations: Vec<StationData>,
    /// The outer ring in the direction of travel, 0 … 19.
    pub outer_ring: Vec<u8>,
    /// The diagonal from 모 to 찌모.
    pub diagonal_from_mo: Vec<u8>,
    /// The diagonal from 뒷모 to 참먹이.
    pub diagonal_from_dwitmo: Vec<u8>,
    /// Branch stations with their `[straight, shortcut]` choices.
    pub branches: Vec<(u8, [u8; 2])>,
    /// Merge stations (15, 0).
    pub merges: Vec<u8>,
}

/// The drawing position of `station` (percent of the board side).
pub fn station_position(station: u8) -> (f32, f32) {
    let s = f32::from(station);
    let third = 100.0 / 6.0;
    match station {
        0..=5 => (100.0, 100.0 - 20.0 * s),
        6..=10 => (100.0 - 20.0 * (s - 5.0), 0.0),
        11..=15 => (0.0, 20.0 * (s - 10.0)),
        16..=19 => (20.0 * (s - 15.0), 100.0),
        20..=24 => {
            let k = s - 19.0; // 1 … 5 from 모 towards 찌모
            (100.0 - k * third, k * third)
        }
        25 | 26 => {
            let k = s - 24.0; // 1, 2 from 뒷모
            (k * third, k * third)
        }
        27 | 28 => {
            let k = s - 23.0; // 4, 5 from 뒷모 towards 참먹이
            (k * third, k * third)
        }
        _ => (50.0, 50.0),
    }
}

impl BoardData {
    /// The standard board.
    pub fn new() -> BoardData {
        BoardData {
            stations: (0..STATIONS)
                .map(|station| {
                    let (x, y) = station_position(station);
                    StationData { station, x, y, big: matches!(station, 0 | 5 | 10 | 15 | 22) }
                })
                .collect(),
            outer_ring: (0..20).collect(),
            diagonal_from_mo: vec![5, 20, 21, 22, 23, 24, 15],
            diagonal_from_dwitmo: vec![10, 25, 26, 22, 27, 28, 0],
            branches: BRANCHES.iter().map(|(s, a, b)| (*s, [*a, *b])).collect(),
            merges: vec![JJIMO, CHAMMEOGI],
        }
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
    fn straight_on_follows_the_ring_and_the_diagonals() {
        assert_eq!(straight_next(4, Some(3)), Some(5));
        assert_eq!(straight_next(5, Some(4)), Some(6), "passing 모 stays on the ring");
        assert_eq!(straight_next(10, Some(9)), Some(11), "passing 뒷모 stays on the ring");
        assert_eq!(straight_next(21, Some(20)), Some(22));
        assert_eq!(straight_next(CENTRE, Some(21)), Some(23), "straight through the centre from 모");
        assert_eq!(straight_next(CENTRE, Some(26)), Some(27), "straight through the centre from 뒷모");
        assert_eq!(straight_next(24, Some(23)), Some(15));
        assert_eq!(straight_next(28, Some(27)), Some(0));
        assert_eq!(straight_next(19, Some(18)), Some(0));
        assert_eq!(straight_next(0, Some(19)), None, "passing 참먹이 finishes");
    }

    #[test]
    fn the_branch_choices_are_the_branches_list() {
        for station in 0..STATIONS {
            let listed = BRANCHES.iter().find(|(s, _, _)| *s == station).map(|(_, a, b)| (*a, *b));
            assert_eq!(branch_choices(station), listed, "station {station}");
        }
        assert_eq!(branch_choices(CENTRE), Some((23, 27)), "the spec: 22 → 23 straight on, 27 towards 참먹이");
    }

    #[test]
    fn steps_left_match_the_spec_examples() {
        // yut.md: with exit "pass": 1 on 참먹이, 2 on 19, 7 on 모; "reach": 1 on 참먹이, 1 on 19.
        assert_eq!(steps_to_finish(0, false), 1);
        assert_eq!(steps_to_finish(19, false), 2);
        assert_eq!(steps_to_finish(5, false), 7);
        assert_eq!(steps_to_finish(0, true), 1);
        assert_eq!(steps_to_finish(19, true), 1);
        // 참먹이 → 모 → centre → 참먹이 is 5 + 3 + 3 = 11 steps (pitfalls.md).
        assert_eq!(steps_to_finish(5, true) + 5, 11);
    }

    #[test]
    fn corners_and_centre_are_drawn_where_the_diagram_puts_them() {
        assert_eq!(station_position(0), (100.0, 100.0));
        assert_eq!(station_position(5), (100.0, 0.0));
        assert_eq!(station_position(10), (0.0, 0.0));
        assert_eq!(station_position(15), (0.0, 100.0));
        let (x, y) = station_position(22);
        assert!((x - 50.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3);
        let (x20, y20) = station_position(20);
        assert!(x20 > 80.0 && y20 < 20.0, "20 is next to 모");
        let (x25, y25) = station_position(25);
        assert!(x25 < 20.0 && y25 < 20.0, "25 is next to 뒷모");
        let (x28, y28) = station_position(28);
        assert!(x28 > 80.0 && y28 > 80.0, "28 is next to 참먹이");
        let (x24, y24) = station_position(24);
        assert!(x24 < 20.0 && y24 > 80.0, "24 is next to 찌모");
    }
}
