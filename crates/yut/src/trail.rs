//! A unit's trail kept in place: the stations it has occupied since entering, without a heap
//! allocation per piece on the board (random playouts enter and capture pieces all the time).

use std::fmt;
use std::ops::Deref;

use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The stations a unit has occupied since it entered, oldest first, ending with the station it
/// stands on (spec `yut.md`, "Back-do": a back-do retraces it). At most [`Trail::CAPACITY`]
/// stations; it reads as a `&[u8]` and serialises as a list of station numbers, as a `Vec<u8>`
/// would.
#[derive(Clone, Copy)]
pub struct Trail {
    len: u8,
    stations: [u8; Trail::CAPACITY],
}

impl Trail {
    /// The most stations a trail holds: 23. The longest way a unit can go is 22 stations,
    /// 참먹이 included at both ends (0, the ring to 뒷모, its diagonal to the centre, on to 찌모
    /// and along the ring home: 1 + 10 + 3 + 2 + 5 + 1); the test
    /// `no_way_round_the_board_outgrows_a_trail` finds it by walking every way.
    pub const CAPACITY: usize = 23;

    /// An empty trail.
    pub const fn new() -> Trail {
        Trail { len: 0, stations: [0; Trail::CAPACITY] }
    }

    /// A trail of one station.
    pub fn at(station: u8) -> Trail {
        let mut trail = Trail::new();
        trail.push(station);
        trail
    }

    /// The trail of a piece entering with a throw of `steps` (1-5): 참먹이 and every station up
    /// to where it lands, `0, 1, …, steps`.
    pub fn entering(steps: u8) -> Trail {
        // Stations 0, 1, 2, …: a trail reads only its first `len`, so the entering trail is
        // this one array cut to length (a copy, where filling it was a loop on every entry).
        const COUNTING: [u8; Trail::CAPACITY] = {
            let mut stations = [0; Trail::CAPACITY];
            let mut i = 0;
            while i < Trail::CAPACITY {
                stations[i] = i as u8;
                i += 1;
            }
            stations
        };
        let len = usize::from(steps).min(Trail::CAPACITY - 1) + 1;
        Trail { len: len as u8, stations: COUNTING }
    }

    /// Appends `station`. A full trail (never in a game played by the rules: see
    /// [`Trail::CAPACITY`]) forgets its oldest station to make room, so a state made up outside
    /// the rules cannot make a move panic.
    pub fn push(&mut self, station: u8) {
        if usize::from(self.len) == Trail::CAPACITY {
            self.stations.copy_within(1.., 0);
            self.len -= 1;
        }
        self.stations[usize::from(self.len)] = station;
        self.len += 1;
    }

    /// Removes and returns the newest station.
    pub fn pop(&mut self) -> Option<u8> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        Some(self.stations[usize::from(last)])
    }
}

impl Default for Trail {
    fn default() -> Self {
        Trail::new()
    }
}

impl Deref for Trail {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.stations[..usize::from(self.len)]
    }
}

impl PartialEq for Trail {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Trail {}

impl std::hash::Hash for Trail {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl fmt::Debug for Trail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<u8> for Trail {
    /// Collects stations in order (a full trail forgets its oldest, as [`Trail::push`]).
    fn from_iter<I: IntoIterator<Item = u8>>(stations: I) -> Trail {
        let mut trail = Trail::new();
        stations.into_iter().for_each(|s| trail.push(s));
        trail
    }
}

impl Serialize for Trail {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Trail {
    /// A list of at most [`Trail::CAPACITY`] station numbers; a longer one is an error naming
    /// the limit.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Trail, D::Error> {
        struct Stations;

        impl<'de> Visitor<'de> for Stations {
            type Value = Trail;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {} station numbers", Trail::CAPACITY)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Trail, A::Error> {
                let mut trail = Trail::new();
                while let Some(station) = seq.next_element::<u8>()? {
                    if usize::from(trail.len) == Trail::CAPACITY {
                        return Err(A::Error::custom(format_args!(
                            "a trail holds at most {} stations",
                            Trail::CAPACITY
                        )));
                    }
                    trail.push(station);
                }
                Ok(trail)
            }
        }

        deserializer.deserialize_seq(Stations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BRANCHES, CHAMMEOGI, STATIONS, straight_next};

    /// Every station a unit may step to from `station`, having come from `previous`: straight
    /// on, or either choice of a branch it stopped on.
    fn next_stations(station: u8, previous: Option<u8>) -> Vec<u8> {
        let mut next: Vec<u8> = straight_next(station, previous).into_iter().collect();
        if let Some((_, a, b)) = BRANCHES.iter().find(|(s, _, _)| *s == station) {
            next.extend([*a, *b]);
        }
        next
    }

    /// The most stations a trail starting `trail` can reach by walking forward (a back-do only
    /// shortens it), 참먹이 ending a walk.
    fn longest(trail: &mut Vec<u8>) -> usize {
        let station = trail[trail.len() - 1];
        if station == CHAMMEOGI && trail.len() > 1 {
            return trail.len();
        }
        let previous = trail.len().checked_sub(2).map(|i| trail[i]);
        let mut best = trail.len();
        for next in next_stations(station, previous) {
            trail.push(next);
            best = best.max(longest(trail));
            trail.pop();
        }
        best
    }

    #[test]
    fn no_way_round_the_board_outgrows_a_trail() {
        // A unit enters with do…mo (trail 0, 1 … r) or, after a back-do with no trail left,
        // starts again from any station (trail of one).
        let mut most = 0;
        for r in 1..=5 {
            most = most.max(longest(&mut (0..=r).collect()));
        }
        for station in 1..STATIONS {
            most = most.max(longest(&mut vec![station]));
        }
        assert_eq!(most, 22, "0, 1 … 10, 25, 26, 22, 23, 24, 15 … 19, 0");
        assert!(most <= Trail::CAPACITY);
    }

    #[test]
    fn a_trail_reads_pushes_pops_and_serialises_as_a_list() {
        assert_eq!(&*Trail::entering(5), &[0, 1, 2, 3, 4, 5]);
        assert_eq!(&*Trail::entering(1), &[0, 1]);
        let mut trail: Trail = [0, 1, 2].into_iter().collect();
        assert_eq!(&*trail, &[0, 1, 2]);
        assert_eq!(trail.pop(), Some(2));
        trail.push(7);
        assert_eq!(&*trail, &[0, 1, 7]);
        assert_eq!(trail, [0, 1, 7].into_iter().collect());
        assert_ne!(trail, Trail::at(0));
        assert_eq!(format!("{trail:?}"), "[0, 1, 7]");
        assert_eq!(serde_json::to_string(&trail).expect("a trail serialises"), "[0,1,7]");
        assert_eq!(serde_json::from_str::<Trail>("[0,1,7]").expect("a short list is a trail"), trail);
        let mut empty = Trail::new();
        assert_eq!(empty.pop(), None);
    }

    #[test]
    fn a_too_long_trail_is_refused_when_read_and_forgets_its_oldest_when_pushed() {
        let long = serde_json::to_string(&(0..24).collect::<Vec<u8>>()).expect("a list serialises");
        let error = serde_json::from_str::<Trail>(&long).expect_err("24 stations are too many").to_string();
        assert!(error.contains("a trail holds at most 23 stations"), "{error}");
        let mut full: Trail = (0..23).collect();
        full.push(23);
        assert_eq!(&*full, &(1..24).collect::<Vec<u8>>()[..]);
    }
}
