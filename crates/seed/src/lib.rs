//! Seeds and random streams (spec `README.md`, "Seeds and random streams"), in one place that
//! every game, bot, the CLI and the server use.
//!
//! # The procedure, byte for byte
//!
//! 1. A game's seed is 32 bytes, written as 64 lowercase hex digits ([`Seed`]).
//! 2. The stream named `N` (UTF-8) is ChaCha20 — 20 rounds, the original 64-bit block counter
//!    starting at 0 and a zero 64-bit nonce (`rand_chacha::ChaCha20Rng::from_seed`) — keyed with
//!    `SHA-256(seed bytes ‖ N bytes)` ([`Seed::stream`]). Names: [`CHANCE`] for chance outcomes,
//!    `bot:SEAT` ([`bot_stream_name`]) for a computer player's choices.
//! 3. The stream is read as consecutive 32-bit little-endian words of the keystream
//!    (`next_u32`). The first word of the all-zero key is `0xade0b876`, as in RFC 8439's test
//!    vector for the block function with a zero key and nonce.
//! 4. A uniform integer below `n` ([`uniform_below`]): read a word `x`; if
//!    `x < (2^32 − n) mod n` reject it and read the next; otherwise return `x mod n`. Every
//!    accepted residue then has exactly the same number of preimages, so the draw is exact.
//! 5. A weighted draw ([`draw_weighted`]) over outcomes in the engine's order with integer
//!    weights `w_0 … w_k`: draw `u = uniform_below(W)` for the total `W` and take the first
//!    outcome `i` with `u < w_0 + … + w_i`. When `W ≥ 2^32` (Yut with fine fractions) the draw
//!    uses 64-bit words instead ([`uniform_below_u64`]): two consecutive words, the first as the
//!    low half, rejecting `x < (2^64 − W) mod W`.
//! 6. `madang sim --seed S` gives game `i` the seed `SHA-256(decimal(S) ‖ ":" ‖ decimal(i))`
//!    ([`sim_game_seed`]).
//!
//! Records store every drawn outcome, so replaying a record never needs this crate; `madang
//! verify` uses it to check that a record's chance actions are the ones its seed gives.

use std::fmt;
use std::str::FromStr;

use madang_core::{Game, Weight};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

/// The random stream type every madang stream uses.
pub type Stream = ChaCha20Rng;

/// The stream name for a game's chance outcomes.
pub const CHANCE: &str = "chance";

/// The stream name for the computer player in `seat` (the game's seat name): `bot:SEAT`.
pub fn bot_stream_name(seat: &str) -> String {
    format!("bot:{seat}")
}

/// A 256-bit game seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

/// A seed string that is not 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hex digits (256 bits); got {0:?}")]
pub struct SeedError(pub String);

impl Seed {
    /// The named stream of this seed: ChaCha20 keyed with `SHA-256(seed ‖ name)`.
    pub fn stream(&self, name: &str) -> Stream {
        let mut hasher = Sha256::new();
        hasher.update(self.0);
        hasher.update(name.as_bytes());
        Stream::from_seed(hasher.finalize().into())
    }

    /// The SHA-256 commitment of the seed, as 64 hex digits, shown before a game starts.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({self})")
    }
}

impl FromStr for Seed {
    type Err = SeedError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return Err(SeedError(text.to_owned()));
        }
        let mut seed = [0u8; 32];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let digit = |b: u8| (b as char).to_digit(16);
            match (digit(pair[0]), digit(pair[1])) {
                (Some(hi), Some(lo)) => seed[i] = (hi * 16 + lo) as u8,
                _ => return Err(SeedError(text.to_owned())),
            }
        }
        Ok(Seed(seed))
    }
}

impl serde::Serialize for Seed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Game `index`'s seed in a `madang sim --seed sim_seed` run: `SHA-256(decimal(sim_seed) ‖ ":" ‖
/// decimal(index))`.
pub fn sim_game_seed(sim_seed: u64, index: u64) -> Seed {
    // Written into a buffer on the stack: a playout costs a few microseconds, and `format!`'s
    // allocation was a visible part of the per-game setup.
    let mut text = [0u8; 41];
    let mut len = write_decimal(&mut text, 0, sim_seed);
    text[len] = b':';
    len = write_decimal(&mut text, len + 1, index);
    Seed(Sha256::digest(&text[..len]).into())
}

/// Writes `value` in decimal into `buffer` at `at` (the buffer has room for 20 digits there);
/// returns where the digits end.
fn write_decimal(buffer: &mut [u8; 41], at: usize, value: u64) -> usize {
    let mut digits = [0u8; 20];
    let mut n = value;
    let mut count = 0;
    loop {
        digits[19 - count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buffer[at..at + count].copy_from_slice(&digits[20 - count..]);
    at + count
}

/// A uniform integer in `0..n` by rejection sampling 32-bit words (step 4 of the crate docs).
///
/// `n` must be at least 1; `n == 0` returns 0 without reading the stream.
pub fn uniform_below(stream: &mut Stream, n: u32) -> u32 {
    if n <= 1 {
        return 0;
    }
    loop {
        let x = stream.next_u32();
        // The threshold `(2^32 − n) mod n` is below `n`, so any `x ≥ n` passes without it: the
        // division that finds it is needed only for the rare small `x`.
        if x >= n || x >= n.wrapping_neg() % n {
            return remainder(x, n);
        }
    }
}

/// How many divisors [`remainder`] has a precomputed multiplier for: every `n` below it. It
/// covers the bots' choices, the dice totals of Ur, Ludo and Seven Dice Poker, and Yut's total
/// weight under its default rules (1,600: 16 × 99 for the throws and 16 for a nak of 1/100);
/// 16 KiB, of which a run touches the few entries it uses.
const FAST_DIVISORS: usize = 2048;

/// `⌊(2^64 − 1) / n⌋ + 1` for each `n` in `2..FAST_DIVISORS` (0 for 0 and 1, never used).
static FAST_MULTIPLIERS: [u64; FAST_DIVISORS] = {
    let mut table = [0u64; FAST_DIVISORS];
    let mut n = 2;
    while n < FAST_DIVISORS {
        table[n] = u64::MAX / n as u64 + 1;
        n += 1;
    }
    table
};

/// `x mod n` for `n ≥ 2`, without a division when `n` is small (the bots' choices and every
/// game's dice totals): `((M·x mod 2^64)·n) >> 64` with `M = ⌊(2^64 − 1)/n⌋ + 1` equals
/// `x mod n` for every 32-bit `x` and `n` (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019, Theorem 1 with N = 32, F = 64). The same value as `%`, so every draw is
/// unchanged.
#[inline]
fn remainder(x: u32, n: u32) -> u32 {
    match FAST_MULTIPLIERS.get(n as usize) {
        Some(&m) if n >= 2 => {
            let low = m.wrapping_mul(u64::from(x));
            ((u128::from(low) * u128::from(n)) >> 64) as u32
        }
        _ => x % n,
    }
}

/// A uniform integer in `0..n` from 64-bit words (two consecutive 32-bit words, the first as
/// the low half), rejecting `x < (2^64 − n) mod n`; used when a total weight exceeds `u32`.
pub fn uniform_below_u64(stream: &mut Stream, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let reject_below = n.wrapping_neg() % n;
    loop {
        let low = u64::from(stream.next_u32());
        let x = low | (u64::from(stream.next_u32()) << 32);
        if x >= reject_below {
            return x % n;
        }
    }
}

/// The uniform integer below a chance node's total weight `total` (step 5 of the crate docs):
/// one 32-bit word a try when `total` fits in 32 bits, two otherwise. `total` must be positive.
#[inline]
pub fn draw_below(stream: &mut Stream, total: u64) -> u64 {
    match u32::try_from(total) {
        Ok(small) => u64::from(uniform_below(stream, small)),
        Err(_) => uniform_below_u64(stream, total),
    }
}

/// The outcome drawn at a chance node of `game` (step 5 of the crate docs): from the node's
/// [`Game::chance_table`] when it has one (its draws looked up, not counted), else from
/// [`Game::chance_outcomes_in`]'s list with [`draw_weighted`]. Both read the same words and
/// give the same outcome. `scratch` is the list's buffer for nodes without a table.
///
/// Returns `None` at a node that is not a chance node, or whose weights cannot be drawn from
/// (a weight of 0 or a total beyond `u64`).
#[inline]
pub fn draw_chance<G: Game>(
    game: &G,
    state: &G::State,
    scratch: &mut Vec<(G::Action, Weight)>,
    stream: &mut Stream,
) -> Option<G::Action> {
    if let Some(table) = game.chance_table(state) {
        let u = draw_below(stream, table.total()?);
        return table.outcomes().get(table.pick(u)).map(|(action, _)| *action);
    }
    let outcomes = game.chance_outcomes_in(state, scratch);
    let i = draw_weighted(stream, outcomes.iter().map(|(_, w)| *w))?;
    outcomes.get(i).map(|(action, _)| *action)
}

/// Index of the outcome drawn from `weights` (step 5 of the crate docs).
///
/// Returns `None` when `weights` is empty, a weight is 0 or the total exceeds `u64::MAX`.
pub fn draw_weighted(stream: &mut Stream, weights: impl Iterator<Item = u64> + Clone) -> Option<usize> {
    let mut total: u64 = 0;
    for w in weights.clone() {
        if w == 0 {
            return None;
        }
        total = total.checked_add(w)?;
    }
    if total == 0 {
        return None;
    }
    let u = draw_below(stream, total);
    // The first index whose cumulative weight exceeds `u` is the number of cumulative weights
    // at or below it: counted without a branch on the draw, which a processor cannot predict
    // (`docs/playouts.md`: leaving at the first one above it was the hottest part of a random
    // Ur game's loop).
    let (mut cumulative, mut index, mut count) = (0u64, 0, 0);
    for w in weights {
        cumulative += w;
        index += usize::from(u >= cumulative);
        count += 1;
    }
    debug_assert!(index < count, "the draw {u} is below the total {total}");
    Some(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use madang_core::Game;

    /// Draws through the node's chance table are step 5's, word for word: for Ur's rolls (a
    /// looked-up total of 16), Yut's default throw (1,600) and a Yut throw whose fractions make a
    /// total beyond 32 bits (two words a try, the draw counted), 2,000 draws from one stream each
    /// give `draw_weighted`'s outcomes and leave the stream where it leaves it.
    #[test]
    fn a_draw_from_a_chance_table_is_the_weighted_draw() {
        fn check<G: Game>(game: &G, state: &G::State, seed: u8) {
            let table = game.chance_table(state).expect("a chance table");
            let mut list = Vec::new();
            game.chance_outcomes(state, &mut list);
            let (mut by_table, mut by_weights) = (Stream::from_seed([seed; 32]), Stream::from_seed([seed; 32]));
            let mut seen = vec![false; list.len()];
            for _ in 0..2000 {
                let drawn = draw_chance(game, state, &mut Vec::new(), &mut by_table);
                let i = draw_weighted(&mut by_weights, list.iter().map(|(_, w)| *w)).expect("a draw");
                assert_eq!(drawn, Some(list[i].0));
                assert_eq!(by_table, by_weights, "the same words read");
                seen[i] = true;
            }
            assert!(table.total().is_some());
            // Every outcome of weight above a 20th came up (so the draws were not all one).
            let total = table.total().unwrap_or(1);
            assert!(list.iter().zip(&seen).all(|((_, w), seen)| *seen || *w * 20 < total), "{seen:?}");
        }
        let ur = madang_ur::Ur::new(&madang_ur::UrOptions::default(), None).expect("Finkel");
        check(&ur, &ur.initial_state(), 1);
        let yut = madang_yut::Yut::new(&madang_yut::YutOptions::default(), None).expect("default Yut");
        let start = yut.initial_state();
        assert_eq!(yut.chance_table(&start).and_then(|t| t.total()), Some(1600));
        check(&yut, &start, 2);
        let odd = madang_yut::YutOptions {
            stick_flat: Some("499/997".into()),
            nak: Some("1/991".into()),
            ..madang_yut::YutOptions::default()
        };
        let yut = madang_yut::Yut::new(&odd, None).expect("odd fractions");
        let start = yut.initial_state();
        assert!(yut.chance_table(&start).and_then(|t| t.total()).is_some_and(|t| t > u64::from(u32::MAX)));
        check(&yut, &start, 3);
    }

    #[test]
    fn zero_key_stream_matches_the_chacha20_block_function_test_vector() {
        // RFC 8439 §2.3.2-style vector: key 0, nonce 0, counter 0 starts 76 b8 e0 ad a0 f1 3d 90.
        let mut s = Stream::from_seed([0; 32]);
        assert_eq!(s.next_u32(), 0xade0_b876);
        assert_eq!(s.next_u32(), 0x903d_f1a0);
    }

    #[test]
    fn stream_key_is_sha256_of_seed_and_name() {
        let seed = Seed([7; 32]);
        let mut hasher = Sha256::new();
        hasher.update([7u8; 32]);
        hasher.update(b"chance");
        let key: [u8; 32] = hasher.finalize().into();
        let mut expected = Stream::from_seed(key);
        let mut got = seed.stream(CHANCE);
        for _ in 0..10 {
            assert_eq!(got.next_u32(), expected.next_u32());
        }
        let mut other = seed.stream(&bot_stream_name("light"));
        let mut chance = seed.stream(CHANCE);
        assert_ne!(other.next_u32(), chance.next_u32());
    }

    #[test]
    fn seed_hex_round_trips_and_rejects_bad_text() {
        let text = "00ff10a0000000000000000000000000000000000000000000000000000000ee";
        let seed: Seed = text.parse().expect("valid seed");
        assert_eq!(seed.0[1], 0xff);
        assert_eq!(seed.to_string(), text);
        assert!("00ff".parse::<Seed>().is_err());
        assert!(text.replace('e', "g").parse::<Seed>().is_err());
        assert!(format!("{}é", &text[..62]).parse::<Seed>().is_err());
    }

    #[test]
    fn sim_game_seed_hashes_decimal_seed_colon_index() {
        // Computed independently: python3 -c 'import hashlib; print(hashlib.sha256(b"0:0").hexdigest())'
        assert_eq!(sim_game_seed(0, 0).to_string(), "ac72368a586a18c19088393573ce03074b8e8a4d8c21add8729af1890a407e52");
        assert_eq!(
            sim_game_seed(12345, 7).to_string(),
            "335ca7e2961f506749f773784e07fab125ee76532a73b12de16f8086ddca9ded"
        );
        // The longest text, 41 bytes, and digits ending in zeros (python3 as above).
        assert_eq!(
            sim_game_seed(u64::MAX, u64::MAX).to_string(),
            "08e6bc13775710c5954b97e6370ff54cbdf9da865b73a9b44d188b7ea1490b52"
        );
        assert_eq!(
            sim_game_seed(10, 1_000_000).to_string(),
            "d0037ced435e090926228b7d436d7d0c91d5968e2c2b307f2c09e6df104434c9"
        );
    }

    #[test]
    fn uniform_below_is_exact_over_a_full_cycle_of_words() {
        // With n = 3, (2^32 − 3) mod 3 = 1: only the word 0 is rejected. Check the rule
        // directly on chosen words rather than on the stream.
        assert_eq!(3u32.wrapping_neg() % 3, 1);
        assert_eq!(16u32.wrapping_neg() % 16, 0);
        let mut s = Stream::from_seed([1; 32]);
        let mut counts = [0u32; 16];
        for _ in 0..16_000 {
            counts[uniform_below(&mut s, 16) as usize] += 1;
        }
        // Each of 16 values expected 1000 times; 5 standard deviations is about 150.
        assert!(counts.iter().all(|&c| (850..1150).contains(&c)), "{counts:?}");
    }

    #[test]
    fn uniform_below_draws_what_the_rejection_rule_says() {
        // The rule of step 4 written out plainly, fed the same words.
        fn by_rule(stream: &mut Stream, n: u32) -> u32 {
            if n <= 1 {
                return 0;
            }
            loop {
                let x = stream.next_u32();
                if x >= n.wrapping_neg() % n {
                    return x % n;
                }
            }
        }
        // Large n make rejections and small words common enough to be met.
        for n in [1, 2, 3, 5, 6, 16, 1000, (1 << 31) + 1, u32::MAX - 2, u32::MAX] {
            let mut fast = Stream::from_seed([n as u8; 32]);
            let mut plain = fast.clone();
            for _ in 0..2000 {
                assert_eq!(uniform_below(&mut fast, n), by_rule(&mut plain, n), "n = {n}");
            }
            assert_eq!(fast.next_u32(), plain.next_u32(), "n = {n}: both read the same words");
        }
    }

    #[test]
    fn the_fast_remainder_is_the_plain_one() {
        // Every divisor with a precomputed multiplier, and one past them, against `%` on the
        // words where an error would show first: the ends of the range, the multiples of n and
        // their neighbours near the top, and a spread of words in between.
        for n in 2..=FAST_DIVISORS as u32 {
            let top = u32::MAX - u32::MAX % n;
            let mut words = vec![0, 1, n - 1, n, n + 1, u32::MAX, u32::MAX - 1, top, top - 1, top.wrapping_sub(n)];
            words.extend((0..4096u32).map(|k| k.wrapping_mul(1_048_573).wrapping_add(n)));
            for x in words {
                assert_eq!(remainder(x, n), x % n, "{x} mod {n}");
            }
        }
        // A sweep of the whole 32-bit range in steps of 1021 (a prime, so every residue is
        // met), for the divisors the games use most (a die, the four binary dice's total, the
        // usual counts of legal moves, Yut's total weight).
        for n in [2u32, 3, 6, 7, 16, 1600] {
            for x in (0..=u32::MAX).step_by(1021) {
                assert_eq!(remainder(x, n), x % n, "{x} mod {n}");
            }
        }
    }

    #[test]
    fn draw_weighted_follows_cumulative_ranges() {
        let mut s = Stream::from_seed([2; 32]);
        let weights = [1u64, 4, 6, 4, 1];
        let mut counts = [0u32; 5];
        for _ in 0..16_000 {
            counts[draw_weighted(&mut s, weights.iter().copied()).expect("valid")] += 1;
        }
        for (c, w) in counts.iter().zip(weights) {
            let expected = 1000 * w as u32;
            assert!(c.abs_diff(expected) < 200, "{counts:?}");
        }
        assert_eq!(draw_weighted(&mut s, [].iter().copied()), None);
        assert_eq!(draw_weighted(&mut s, [1, 0].iter().copied()), None);
        assert_eq!(draw_weighted(&mut s, [u64::MAX, 1].iter().copied()), None);
        // A total above u32 draws with 64-bit words: 2^40 and 3 * 2^40 split 1 : 3.
        let mut counts = [0u32; 2];
        for _ in 0..4000 {
            counts[draw_weighted(&mut s, [1u64 << 40, 3 << 40].iter().copied()).expect("valid")] += 1;
        }
        assert!(counts[0].abs_diff(1000) < 120, "{counts:?}");
    }
}
