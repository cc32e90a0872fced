//! Rule options (the record's `rules` object) and the settings they resolve to
//! (spec `yut.md`; every option's default is the seed-000 rule).

use madang_core::RulesError;
use serde::{Deserialize, Serialize};

/// An exact fraction `numerator / denominator` written as `"a/b"` (or a whole number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fraction {
    /// Numerator.
    pub numerator: u64,
    /// Denominator, 1-1000.
    pub denominator: u64,
}

impl Fraction {
    /// Parses `"a/b"` or `"a"` for the option `key`, denominator 1-1000: whole numbers in ASCII
    /// digits, without a sign, spaces or leading zeros. The value's range is the option's to
    /// check (each names its own).
    ///
    /// # Errors
    /// A [`RulesError`] naming `key`: not a fraction, or a denominator of 0 or over 1000.
    pub fn parse(key: &str, text: &str) -> Result<Fraction, RulesError> {
        let bad =
            || RulesError::new(key, format!("must be a fraction such as \"1/2\", got {:?}", madang_core::echo(text)));
        // Written as the spec writes them ("3/5"): ASCII digits only, without a sign, spaces or
        // leading zeros, so one fraction has one spelling in a record's rules. A whole number
        // too large for 64 bits counts as the largest one, so the denominator's range, or the
        // option's own, names what is wrong with it rather than its shape.
        let whole = |part: &str| {
            let digits = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
            if !digits || (part.len() > 1 && part.starts_with('0')) {
                return None;
            }
            Some(part.parse::<u64>().unwrap_or(u64::MAX))
        };
        let (numerator, denominator) = match text.split_once('/') {
            Some((a, b)) => (whole(a).ok_or_else(bad)?, whole(b).ok_or_else(bad)?),
            None => (whole(text).ok_or_else(bad)?, 1),
        };
        if denominator == 0 || denominator > 1000 {
            return Err(RulesError::new(
                key,
                format!("must have a denominator from 1 to 1000, got {:?}", madang_core::echo(text)),
            ));
        }
        Ok(Fraction { numerator, denominator })
    }
}

/// What a nak voids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NakRule {
    /// The whole chain it was thrown in, and the turn ends (seed 000).
    #[default]
    VoidSet,
    /// Only itself (seed 001).
    VoidThrow,
}

/// Whether the shortcut at a branch is a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shortcuts {
    /// The player chooses with `route S` (seed 000).
    #[default]
    Optional,
    /// Always the shortcut.
    Forced,
}

/// How own pieces meeting on a station behave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stacking {
    /// They always join (seed 000).
    #[default]
    Auto,
    /// The player answers `stack yes` / `stack no` (seed 001).
    Optional,
}

/// How a piece finishes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exit {
    /// By passing 참먹이 (seed 000).
    #[default]
    Pass,
    /// By reaching or passing 참먹이 (seed 001).
    Reach,
}

/// Sides and teams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// 2-4 players, each with their own pieces.
    #[default]
    Individual,
    /// 2-4 teams of 2 sharing one set of pieces.
    TeamShared,
    /// 2-4 teams of 2, each player with their own pieces.
    TeamSeparate,
}

/// Teammates' pieces meeting in `team-separate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Teammate {
    /// They stack like one's own.
    #[default]
    Stack,
    /// They capture like an opponent's.
    Capture,
}

/// How the turn order is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Throws, then slot picks in rank order (seed 000).
    #[default]
    Ceremony,
    /// Seat order.
    Seated,
}

/// When the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// When the first side has finished all its pieces (seed 000).
    #[default]
    First,
    /// When one side is left; sides ranked in finishing order (seed 001).
    Ranking,
}

/// A fraction option's value as written in a `rules` object: a string (`"1/2"`, checked by
/// [`Fraction::parse`]), or nothing. Anything else, a number above all (`0.5`), is refused
/// saying how a fraction is written, where serde would say only that a string was expected.
fn fraction_text<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a fraction written as a string, such as \"1/2\"")
        }
        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<String, E> {
            Ok(value.to_owned())
        }
    }
    struct FractionText(String);
    impl<'de> Deserialize<'de> for FractionText {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_str(Text).map(FractionText)
        }
    }
    Ok(Option::<FractionText>::deserialize(deserializer)?.map(|text| text.0))
}

/// The `rules` object of a Yut record. Every key is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct YutOptions {
    /// Probability that a stick lands flat side up, `"a/b"` strictly between 0 and 1 (default `"1/2"`).
    #[serde(default, deserialize_with = "fraction_text", skip_serializing_if = "Option::is_none")]
    pub stick_flat: Option<String>,
    /// One stick is marked: a do on it is a back-do (default `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backdo: Option<bool>,
    /// Probability of a nak, `"a/b"` in `[0, 1)` (default `"1/100"`).
    #[serde(default, deserialize_with = "fraction_text", skip_serializing_if = "Option::is_none")]
    pub nak: Option<String>,
    /// `void_set` (default) or `void_throw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nak_rule: Option<NakRule>,
    /// `optional` (default) or `forced`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shortcuts: Option<Shortcuts>,
    /// `auto` (default) or `optional`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacking: Option<Stacking>,
    /// `pass` (default) or `reach`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Exit>,
    /// `individual` (default), `team-shared` or `team-separate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// `stack` (default) or `capture` (team-separate only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teammate: Option<Teammate>,
    /// Pieces per side (per player in `team-separate`), 1-5 (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<i64>,
    /// `ceremony` (default) or `seated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Order>,
    /// `first` (default) or `ranking`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<Finish>,
}

/// The rule values in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct YutSettings {
    /// Flat-side probability of a stick.
    pub stick_flat: Fraction,
    /// Back-do on the marked stick.
    pub backdo: bool,
    /// Nak probability.
    pub nak: Fraction,
    /// What a nak voids.
    pub nak_rule: NakRule,
    /// Shortcut choice.
    pub shortcuts: Shortcuts,
    /// Stacking.
    pub stacking: Stacking,
    /// Finishing.
    pub exit: Exit,
    /// Sides and teams.
    pub mode: Mode,
    /// Teammates meeting (team-separate).
    pub teammate: Teammate,
    /// Pieces per side, or per player in team-separate.
    pub pieces: u8,
    /// Turn order.
    pub order: Order,
    /// End of game.
    pub finish: Finish,
    /// Players (seats): 2-4 individual, 4/6/8 in team modes.
    pub players: u8,
}

impl YutOptions {
    /// Resolves the options and the record's `players`.
    ///
    /// # Errors
    /// A [`RulesError`] naming the key with a bad value.
    pub fn settings(&self, players: Option<usize>) -> Result<YutSettings, RulesError> {
        let stick_flat_text = self.stick_flat.as_deref().unwrap_or("1/2");
        let stick_flat = Fraction::parse("stick_flat", stick_flat_text)?;
        if stick_flat.numerator == 0 || stick_flat.numerator >= stick_flat.denominator {
            return Err(RulesError::new(
                "stick_flat",
                format!("must be strictly between 0 and 1, got {:?}", madang_core::echo(stick_flat_text)),
            ));
        }
        let nak_text = self.nak.as_deref().unwrap_or("1/100");
        let nak = Fraction::parse("nak", nak_text)?;
        if nak.numerator >= nak.denominator {
            return Err(RulesError::new(
                "nak",
                format!("must be at least 0 and below 1, got {:?}", madang_core::echo(nak_text)),
            ));
        }
        let pieces = self.pieces.unwrap_or(4);
        if !(1..=5).contains(&pieces) {
            return Err(RulesError::new("pieces", format!("must be an integer from 1 to 5, got {pieces}")));
        }
        let mode = self.mode.unwrap_or_default();
        let players = match (mode, players) {
            (Mode::Individual, None) => 2,
            (_, None) => 4,
            (Mode::Individual, Some(p)) if (2..=4).contains(&p) => p,
            (Mode::Individual, Some(p)) => {
                return Err(RulesError::new("players", format!("individual Yut is for 2-4 players, got {p}")));
            }
            (_, Some(p)) if matches!(p, 4 | 6 | 8) => p,
            (_, Some(p)) => {
                return Err(RulesError::new(
                    "players",
                    format!("team Yut is for 4, 6 or 8 players (2-4 teams of 2), got {p}"),
                ));
            }
        };
        if self.teammate.is_some() && mode != Mode::TeamSeparate {
            return Err(RulesError::new("teammate", "only applies with mode \"team-separate\""));
        }
        Ok(YutSettings {
            stick_flat,
            backdo: self.backdo.unwrap_or(true),
            nak,
            nak_rule: self.nak_rule.unwrap_or_default(),
            shortcuts: self.shortcuts.unwrap_or_default(),
            stacking: self.stacking.unwrap_or_default(),
            exit: self.exit.unwrap_or_default(),
            mode,
            teammate: self.teammate.unwrap_or_default(),
            pieces: pieces as u8,
            order: self.order.unwrap_or_default(),
            finish: self.finish.unwrap_or_default(),
            players: players as u8,
        })
    }
}
