//! Game-specific figures, added up without knowing the game: each game's `Game::figures` is
//! turned into JSON and its leaves are accumulated by path (`borne_off.0`, `hands.white.hand`):
//! numbers and booleans as a mean per game, strings as frequencies.
//!
//! Sums are kept in fixed point ([`FIXED_POINT`] units, integers), so adding is associative:
//! totals added in any grouping — chunks of one run, or the shards of `madang sim merge` — are
//! exactly the same.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Units per 1 in the fixed-point sums of figures and losses: 2³², so a value is kept to
/// 2.3 × 10⁻¹⁰ and a sum of up to 2⁹⁵ in magnitude fits an `i128`.
pub const FIXED_POINT: f64 = 4_294_967_296.0;

/// `value` in fixed point ([`FIXED_POINT`]), rounded to the nearest unit.
pub fn to_fixed(value: f64) -> i128 {
    (value * FIXED_POINT).round() as i128
}

/// A fixed-point sum back as a number.
pub fn from_fixed(sum: i128) -> f64 {
    sum as f64 / FIXED_POINT
}

/// Accumulated leaves of one path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaf {
    /// Games that had the path.
    pub games: u64,
    /// Sum of its numbers (booleans 0 or 1) in fixed point.
    pub sum: i128,
    /// Its text values, each with the number of games that had it.
    pub counts: BTreeMap<String, u64>,
}

/// Accumulated figures of a run (or of one chunk of games): each path's [`Leaf`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FigureTotals {
    leaves: BTreeMap<String, Leaf>,
}

/// One path's figure in the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Figure {
    /// A number or boolean: its mean per game (booleans count as 0 or 1).
    Mean {
        /// Mean over the games that had this figure.
        mean: f64,
    },
    /// Text values: how often each occurred, as a share of the games that had this figure.
    Frequencies {
        /// Value → share (0-1), values sorted.
        frequencies: BTreeMap<String, f64>,
    },
}

impl FigureTotals {
    /// Adds one game's figures.
    pub(crate) fn add(&mut self, figures: &Value) {
        let mut path = String::new();
        self.add_at(&mut path, figures);
    }

    /// Adds `value` at `path`; `path` is a reused buffer, so a known path allocates nothing.
    fn add_at(&mut self, path: &mut String, value: &Value) {
        let mut descend = |this: &mut Self, key: &str, child: &Value| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            this.add_at(path, child);
            path.truncate(len);
        };
        match value {
            Value::Object(map) => map.iter().for_each(|(k, v)| descend(self, k, v)),
            Value::Array(items) => {
                let mut key = String::new();
                for (i, v) in items.iter().enumerate() {
                    key.clear();
                    key.push_str(&i.to_string());
                    descend(self, &key, v);
                }
            }
            Value::Number(n) => self.with_leaf(path, |leaf| leaf.sum += to_fixed(n.as_f64().unwrap_or(0.0))),
            Value::Bool(b) => self.with_leaf(path, |leaf| leaf.sum += to_fixed(f64::from(u8::from(*b)))),
            Value::String(text) => self.with_leaf(path, |leaf| match leaf.counts.get_mut(text.as_str()) {
                Some(count) => *count += 1,
                None => {
                    leaf.counts.insert(text.clone(), 1);
                }
            }),
            Value::Null => {}
        }
    }

    /// Counts one more game at `path` and updates its leaf.
    fn with_leaf(&mut self, path: &str, update: impl FnOnce(&mut Leaf)) {
        if let Some(leaf) = self.leaves.get_mut(path) {
            leaf.games += 1;
            update(leaf);
        } else {
            let mut leaf = Leaf { games: 1, ..Leaf::default() };
            update(&mut leaf);
            self.leaves.insert(path.to_owned(), leaf);
        }
    }

    /// Adds another chunk's or shard's totals (exactly: the sums are integers).
    pub(crate) fn merge(&mut self, other: FigureTotals) {
        for (path, leaf) in other.leaves {
            let mine = self.leaves.entry(path).or_default();
            mine.games += leaf.games;
            mine.sum += leaf.sum;
            for (value, count) in leaf.counts {
                *mine.counts.entry(value).or_default() += count;
            }
        }
    }

    /// The report's figures by path.
    pub(crate) fn report(&self) -> BTreeMap<String, Figure> {
        self.leaves
            .iter()
            .map(|(path, leaf)| {
                let n = leaf.games.max(1) as f64;
                let figure = if leaf.counts.is_empty() {
                    Figure::Mean { mean: from_fixed(leaf.sum) / n }
                } else {
                    Figure::Frequencies {
                        frequencies: leaf.counts.iter().map(|(k, c)| (k.clone(), *c as f64 / n)).collect(),
                    }
                };
                (path.clone(), figure)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_average_and_strings_count_by_path() {
        let mut totals = FigureTotals::default();
        totals.add(&json!({"borne_off": [7, 3], "hands": {"white": "straight"}, "won": true}));
        let mut other = FigureTotals::default();
        other.add(&json!({"borne_off": [2, 7], "hands": {"white": "two pair"}, "won": false}));
        totals.add(&json!({"borne_off": [7, 5], "hands": {"white": "straight"}, "won": true}));
        totals.merge(other);
        let report = totals.report();
        assert_eq!(report["borne_off.0"], Figure::Mean { mean: 16.0 / 3.0 });
        assert_eq!(report["borne_off.1"], Figure::Mean { mean: 5.0 });
        assert_eq!(report["won"], Figure::Mean { mean: 2.0 / 3.0 });
        let Figure::Frequencies { frequencies } = &report["hands.white"] else { panic!("frequencies expected") };
        assert_eq!(frequencies["straight"], 2.0 / 3.0);
        assert_eq!(frequencies["two pair"], 1.0 / 3.0);
    }
}
