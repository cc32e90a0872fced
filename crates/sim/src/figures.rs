//! Game-specific figures, added up without knowing the game: each game's `Game::figures` is
//! turned into JSON and its leaves are accumulated by path (`borne_off.0`, `hands.white.hand`):
//! numbers and booleans as a mean per game, strings as frequencies.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

/// Accumulated leaves of one path.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Leaf {
    games: u64,
    sum: f64,
    counts: BTreeMap<String, u64>,
}

/// Accumulated figures of a run (or of one chunk of games).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FigureTotals {
    leaves: BTreeMap<String, Leaf>,
}

/// One path's figure in the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
        self.add_at(String::new(), figures);
    }

    fn add_at(&mut self, path: String, value: &Value) {
        let join = |key: &str| if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
        match value {
            Value::Object(map) => map.iter().for_each(|(k, v)| self.add_at(join(k), v)),
            Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| self.add_at(join(&i.to_string()), v)),
            Value::Number(n) => self.leaf(path).sum += n.as_f64().unwrap_or(0.0),
            Value::Bool(b) => self.leaf(path).sum += f64::from(u8::from(*b)),
            Value::String(s) => *self.leaf(path).counts.entry(s.clone()).or_default() += 1,
            Value::Null => {}
        }
    }

    fn leaf(&mut self, path: String) -> &mut Leaf {
        let leaf = self.leaves.entry(path).or_default();
        leaf.games += 1;
        leaf
    }

    /// Adds another chunk's totals (chunks are merged in game order, so sums are reproducible).
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
                    Figure::Mean { mean: leaf.sum / n }
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
