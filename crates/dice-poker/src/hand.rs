//! Hand evaluation (spec `dice-poker.md`, "Hands, weakest to strongest"): the best five of a
//! player's dice, the six hands in order, and the tie-breaks.
//!
//! A [`Hand`] is its kind plus its five dice in **comparison order**: first the values that make
//! the hand (the larger group first: a full house's triple, then its pair; two pair's higher
//! pair, then the lower), then the other dice from highest to lowest; a straight's five values
//! from highest to lowest. Comparing two hands is comparing their kinds, then their dice lists
//! element by element, which is exactly the derived `Ord`; equal hands draw.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What counts as a straight (rule `straight`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StraightRule {
    /// Any five different values (the seed's definition; on a six-valued die with wrap-around
    /// these are always consecutive around the circle, so 1 2 3 4 6 is a straight).
    #[default]
    Distinct,
    /// Only 1-2-3-4-5 and 2-3-4-5-6, as in common dice poker.
    Consecutive,
}

/// The six hands, weakest first (the derived `Ord` is the ranking).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HandKind {
    /// Two values twice each (1 2 2 5 5).
    #[serde(rename = "two pair")]
    TwoPair,
    /// One value three times (1 3 3 3 5).
    #[serde(rename = "three of a kind")]
    ThreeOfAKind,
    /// Five different values (2 3 4 5 6), or five consecutive ones with `straight: consecutive`.
    #[serde(rename = "straight")]
    Straight,
    /// Three of one value and two of another (3 3 6 6 6).
    #[serde(rename = "full house")]
    FullHouse,
    /// One value four times (1 4 4 4 4).
    #[serde(rename = "four of a kind")]
    FourOfAKind,
    /// One value five times (6 6 6 6 6).
    #[serde(rename = "five of a kind")]
    FiveOfAKind,
}

impl HandKind {
    /// Every hand, weakest first.
    pub const ALL: [HandKind; 6] = [
        HandKind::TwoPair,
        HandKind::ThreeOfAKind,
        HandKind::Straight,
        HandKind::FullHouse,
        HandKind::FourOfAKind,
        HandKind::FiveOfAKind,
    ];

    /// The hand's name as results print it (`"full house"`).
    pub fn name(self) -> &'static str {
        match self {
            HandKind::TwoPair => "two pair",
            HandKind::ThreeOfAKind => "three of a kind",
            HandKind::Straight => "straight",
            HandKind::FullHouse => "full house",
            HandKind::FourOfAKind => "four of a kind",
            HandKind::FiveOfAKind => "five of a kind",
        }
    }

    /// 0 for two pair up to 5 for five of a kind.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for HandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hand: its kind and its five dice in comparison order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hand {
    /// Which of the six hands.
    pub kind: HandKind,
    /// The five dice that make it, in comparison order.
    pub dice: [u8; 5],
}

impl Hand {
    /// A number that orders hands exactly as `Ord` does: the kind, then each die in three bits.
    pub fn key(&self) -> u32 {
        self.dice.iter().fold(self.kind as u32, |key, &d| (key << 3) | u32::from(d))
    }

    /// What decides between this hand and `other` of the same kind: the first pair of dice that
    /// differ in comparison order, this hand's first (`(6, 5)` for straight 6 5 4 3 2 against
    /// straight 5 4 3 2 1). `None` when the kinds differ (the kind decides) or the hands are
    /// equal.
    pub fn decider(&self, other: &Hand) -> Option<(u8, u8)> {
        if self.kind != other.kind {
            return None;
        }
        self.dice.iter().zip(&other.dice).find(|(a, b)| a != b).map(|(a, b)| (*a, *b))
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.dice;
        write!(f, "{} {a} {b} {c} {d} {e}", self.kind)
    }
}

/// How many dice show each value: entry `v - 1` counts the value `v`. Values outside 1-6 are
/// not counted.
pub fn counts_of(dice: &[u8]) -> [u8; 6] {
    let mut counts = [0u8; 6];
    for &d in dice {
        if (1..=6).contains(&d) {
            counts[usize::from(d - 1)] = counts[usize::from(d - 1)].saturating_add(1);
        }
    }
    counts
}

/// The best hand of `dice` (values 1-6; a player's seven dice at the end of a game), or `None`
/// when they make none of the six hands (possible only with fewer than seven dice, or a value
/// outside 1-6).
pub fn best_hand(dice: &[u8], straight: StraightRule) -> Option<Hand> {
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return None;
    }
    best_hand_of_counts(&counts_of(dice), straight)
}

/// The highest value with at least `n` dice, other than `except`.
#[inline]
fn highest_with(counts: &[u8; 6], n: u8, except: u8) -> Option<u8> {
    (1..=6u8).rev().find(|&v| v != except && counts[usize::from(v - 1)] >= n)
}

/// The `N` highest dice left in `counts` (with multiplicity), highest first; 0 where there are
/// not enough.
#[inline]
fn highest_dice<const N: usize>(mut counts: [u8; 6]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut v = 6u8;
    for slot in &mut out {
        while v > 0 && counts[usize::from(v - 1)] == 0 {
            v -= 1;
        }
        if v == 0 {
            break;
        }
        counts[usize::from(v - 1)] -= 1;
        *slot = v;
    }
    out
}

/// The best hand of the dice counted in `counts` (entry `v - 1` counts value `v`), or `None`
/// when fewer than five dice, or no hand. Seven dice always make a hand (spec: seven dice over
/// six values hold at least two pair, three of a kind or a straight).
pub fn best_hand_of_counts(counts: &[u8; 6], straight: StraightRule) -> Option<Hand> {
    let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    if total < 5 {
        return None;
    }
    let hand = |kind, dice| Some(Hand { kind, dice });
    if let Some(v) = highest_with(counts, 5, 0) {
        return hand(HandKind::FiveOfAKind, [v; 5]);
    }
    if let Some(v) = highest_with(counts, 4, 0) {
        let mut rest = *counts;
        rest[usize::from(v - 1)] -= 4;
        let [k] = highest_dice::<1>(rest);
        return hand(HandKind::FourOfAKind, [v, v, v, v, k]);
    }
    if let Some(t) = highest_with(counts, 3, 0)
        && let Some(p) = highest_with(counts, 2, t)
    {
        return hand(HandKind::FullHouse, [t, t, t, p, p]);
    }
    let present: u8 = (0..6).filter(|&i| counts[i] > 0).fold(0, |m, i| m | (1 << i));
    match straight {
        StraightRule::Distinct if present.count_ones() >= 5 => {
            let mut dice = [0u8; 5];
            let mut values = (1..=6u8).rev().filter(|&v| present & (1 << (v - 1)) != 0);
            for slot in &mut dice {
                *slot = values.next().unwrap_or(0);
            }
            return hand(HandKind::Straight, dice);
        }
        StraightRule::Consecutive if present & 0b11_1110 == 0b11_1110 => {
            return hand(HandKind::Straight, [6, 5, 4, 3, 2]);
        }
        StraightRule::Consecutive if present & 0b01_1111 == 0b01_1111 => {
            return hand(HandKind::Straight, [5, 4, 3, 2, 1]);
        }
        _ => {}
    }
    if let Some(t) = highest_with(counts, 3, 0) {
        let mut rest = *counts;
        rest[usize::from(t - 1)] -= 3;
        let [a, b] = highest_dice::<2>(rest);
        return hand(HandKind::ThreeOfAKind, [t, t, t, a, b]);
    }
    if let Some(high) = highest_with(counts, 2, 0)
        && let Some(low) = highest_with(counts, 2, high)
    {
        let mut rest = *counts;
        rest[usize::from(high - 1)] -= 2;
        rest[usize::from(low - 1)] -= 2;
        let [k] = highest_dice::<1>(rest);
        return hand(HandKind::TwoPair, [high, high, low, low, k]);
    }
    None
}
