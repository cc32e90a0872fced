//! Game-specific figures, added up without knowing the game: each game's `Game::figures` is
//! turned into JSON and its leaves are accumulated by path (`borne_off.0`, `hands.white.hand`):
//! numbers and booleans as a mean per game, strings as frequencies.
//!
//! Sums are kept in fixed point ([`FIXED_POINT`] units, integers), so adding is associative:
//! totals added in any grouping — chunks of one run, or the shards of `madang sim merge` — are
//! exactly the same.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// Adds one game's figures: every leaf of `figures` as JSON would have it (numbers and
    /// booleans summed, strings counted, `null`, `None` and non-finite numbers skipped), walked
    /// straight from its `Serialize` without building a `serde_json::Value` (a random playout
    /// costs a few microseconds; a `Value` of a game's figures cost a tenth of that). Map keys
    /// become text as `serde_json` writes them. A key JSON cannot have (a map keyed by a list)
    /// ends the walk, the leaves before it counted (`serde_json::to_value` refused the whole
    /// value); no game's figures have one.
    #[cfg(test)]
    pub(crate) fn add<T: Serialize + ?Sized>(&mut self, figures: &T) {
        self.add_with(figures, &mut String::new());
    }

    /// [`FigureTotals::add`] with `path` as the scratch text for the paths (left empty), so a
    /// run of games reuses one buffer.
    pub(crate) fn add_with<T: Serialize + ?Sized>(&mut self, figures: &T, path: &mut String) {
        path.clear();
        let _ = figures.serialize(LeafWalk { totals: self, path });
        path.clear();
    }

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

/// Why a walk of figures stopped: a map key JSON cannot have.
#[derive(Debug)]
struct WalkError(String);

impl std::fmt::Display for WalkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WalkError {}

impl serde::ser::Error for WalkError {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        WalkError(message.to_string())
    }
}

/// A `Serializer` that adds each leaf it is shown to `totals` under `path` (`a.0.b`).
struct LeafWalk<'a> {
    totals: &'a mut FigureTotals,
    path: &'a mut String,
}

impl LeafWalk<'_> {
    fn number(self, value: f64) -> Result<(), WalkError> {
        // JSON has no NaN or infinity: `serde_json::to_value` makes them `null`, skipped.
        if value.is_finite() {
            self.totals.with_leaf(self.path, |leaf| leaf.sum += to_fixed(value));
        }
        Ok(())
    }

    fn text(self, value: &str) -> Result<(), WalkError> {
        self.totals.with_leaf(self.path, |leaf| match leaf.counts.get_mut(value) {
            Some(count) => *count += 1,
            None => {
                leaf.counts.insert(value.to_owned(), 1);
            }
        });
        Ok(())
    }

    /// Walks `value` under `path.key`.
    fn child<T: Serialize + ?Sized>(
        totals: &mut FigureTotals,
        path: &mut String,
        key: Key<'_>,
        value: &T,
    ) -> Result<(), WalkError> {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        match key {
            Key::Text(text) => path.push_str(text),
            Key::Index(index) if index < 10 => path.push(char::from(b'0' + index as u8)),
            Key::Index(index) => path.push_str(&index.to_string()),
        }
        let walked = value.serialize(LeafWalk { totals, path: &mut *path });
        path.truncate(len);
        walked
    }
}

/// The last part of a figure's path: a field's or key's name, or a list element's index.
#[derive(Clone, Copy)]
enum Key<'a> {
    Text(&'a str),
    Index(usize),
}

/// The fields, elements or entries of one object or list of figures.
struct Children<'a> {
    totals: &'a mut FigureTotals,
    path: &'a mut String,
    /// The next element's index (lists), or the pending key (maps).
    index: usize,
    key: String,
    /// Set for a variant's contents: the variant's name was pushed on `path` and is taken off
    /// at the end.
    variant_len: Option<usize>,
}

impl Children<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), WalkError> {
        let index = self.index;
        self.index += 1;
        LeafWalk::child(self.totals, self.path, Key::Index(index), value)
    }

    fn end(self) -> Result<(), WalkError> {
        if let Some(len) = self.variant_len {
            self.path.truncate(len);
        }
        Ok(())
    }
}

impl<'a> LeafWalk<'a> {
    fn children(self, variant: Option<&str>) -> Children<'a> {
        let variant_len = variant.map(|name| {
            let len = self.path.len();
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(name);
            len
        });
        Children { totals: self.totals, path: self.path, index: 0, key: String::new(), variant_len }
    }
}

macro_rules! numbers {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, value: $ty) -> Result<(), WalkError> {
            self.number(value as f64)
        })*
    };
}

impl<'a> serde::Serializer for LeafWalk<'a> {
    type Ok = ();
    type Error = WalkError;
    type SerializeSeq = Children<'a>;
    type SerializeTuple = Children<'a>;
    type SerializeTupleStruct = Children<'a>;
    type SerializeTupleVariant = Children<'a>;
    type SerializeMap = Children<'a>;
    type SerializeStruct = Children<'a>;
    type SerializeStructVariant = Children<'a>;

    numbers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_i128: i128,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128,
        serialize_f32: f32, serialize_f64: f64);

    fn serialize_bool(self, value: bool) -> Result<(), WalkError> {
        self.number(f64::from(u8::from(value)))
    }

    fn serialize_char(self, value: char) -> Result<(), WalkError> {
        self.text(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, value: &str) -> Result<(), WalkError> {
        self.text(value)
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), WalkError> {
        let mut list = self.children(None);
        value.iter().try_for_each(|b| list.element(b))
    }

    fn serialize_none(self) -> Result<(), WalkError> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), WalkError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), WalkError> {
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), WalkError> {
        Ok(())
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), WalkError> {
        self.text(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), WalkError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), WalkError> {
        LeafWalk::child(self.totals, self.path, Key::Text(variant), value)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Children<'a>, WalkError> {
        Ok(self.children(None))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Children<'a>, WalkError> {
        Ok(self.children(None))
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Children<'a>, WalkError> {
        Ok(self.children(None))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Children<'a>, WalkError> {
        Ok(self.children(Some(variant)))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Children<'a>, WalkError> {
        Ok(self.children(None))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Children<'a>, WalkError> {
        Ok(self.children(None))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Children<'a>, WalkError> {
        Ok(self.children(Some(variant)))
    }
}

/// A `Serializer` that takes text (a `str`, a `char`, or either inside a newtype struct) into
/// its `String` and refuses everything else (`WalkError` with no message), for which
/// `serialize_key` asks `serde_json`.
struct TextKey<'a>(&'a mut String);

impl TextKey<'_> {
    fn refuse<T>(self) -> Result<T, WalkError> {
        Err(WalkError(String::new()))
    }
}

macro_rules! refused {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, _value: $ty) -> Result<(), WalkError> {
            self.refuse()
        })*
    };
}

impl serde::Serializer for TextKey<'_> {
    type Ok = ();
    type Error = WalkError;
    type SerializeSeq = serde::ser::Impossible<(), WalkError>;
    type SerializeTuple = serde::ser::Impossible<(), WalkError>;
    type SerializeTupleStruct = serde::ser::Impossible<(), WalkError>;
    type SerializeTupleVariant = serde::ser::Impossible<(), WalkError>;
    type SerializeMap = serde::ser::Impossible<(), WalkError>;
    type SerializeStruct = serde::ser::Impossible<(), WalkError>;
    type SerializeStructVariant = serde::ser::Impossible<(), WalkError>;

    refused!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_u128: u128, serialize_f32: f32, serialize_f64: f64, serialize_bytes: &[u8]);

    fn serialize_str(self, value: &str) -> Result<(), WalkError> {
        self.0.push_str(value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), WalkError> {
        self.0.push(value);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), WalkError> {
        value.serialize(self)
    }

    fn serialize_none(self) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_unit(self) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, _variant: &'static str) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), WalkError> {
        self.refuse()
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, WalkError> {
        self.refuse()
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, WalkError> {
        self.refuse()
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, WalkError> {
        self.refuse()
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, WalkError> {
        self.refuse()
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, WalkError> {
        self.refuse()
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, WalkError> {
        self.refuse()
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, WalkError> {
        self.refuse()
    }
}

/// A map of the one entry `key → null`.
struct OneKey<'k, K: ?Sized>(&'k K);

impl<K: Serialize + ?Sized> Serialize for OneKey<'_, K> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, &())?;
        map.end()
    }
}

macro_rules! list {
    ($($trait:ident: $method:ident),*) => {
        $(impl serde::ser::$trait for Children<'_> {
            type Ok = ();
            type Error = WalkError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), WalkError> {
                self.element(value)
            }

            fn end(self) -> Result<(), WalkError> {
                Children::end(self)
            }
        })*
    };
}

list!(SerializeSeq: serialize_element, SerializeTuple: serialize_element, SerializeTupleStruct: serialize_field,
    SerializeTupleVariant: serialize_field);

macro_rules! fields {
    ($($trait:ident),*) => {
        $(impl serde::ser::$trait for Children<'_> {
            type Ok = ();
            type Error = WalkError;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), WalkError> {
                LeafWalk::child(self.totals, self.path, Key::Text(key), value)
            }

            fn end(self) -> Result<(), WalkError> {
                Children::end(self)
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

impl serde::ser::SerializeMap for Children<'_> {
    type Ok = ();
    type Error = WalkError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), WalkError> {
        // A text key is the key as it is (the usual case: a map by side or seat name).
        self.key.clear();
        if key.serialize(TextKey(&mut self.key)).is_ok() {
            return Ok(());
        }
        // JSON keys are text: `serde_json` itself writes the key of a one-entry map, so numbers,
        // booleans and unit variants become the text it gives them and other keys are refused,
        // as in a `Value`.
        let json = serde_json::to_value(OneKey(key)).map_err(|e| WalkError(e.to_string()))?;
        let serde_json::Value::Object(map) = json else {
            return Err(WalkError("a map key did not make a JSON object".to_owned()));
        };
        self.key = map.into_iter().next().map(|(k, _)| k).unwrap_or_default();
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), WalkError> {
        let key = std::mem::take(&mut self.key);
        let walked = LeafWalk::child(self.totals, self.path, Key::Text(&key), value);
        self.key = key;
        walked
    }

    fn end(self) -> Result<(), WalkError> {
        Children::end(self)
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

    /// What a game's `Figures` may be made of, walked without a JSON value: the paths and
    /// values are the ones `serde_json::to_value` would give (`docs/api.md` has the figures as
    /// JSON), worked out by hand below.
    #[test]
    fn figures_are_walked_as_their_json_would_be() {
        #[derive(Serialize)]
        #[serde(rename_all = "snake_case")]
        enum Ending {
            Home,
            Resigned(u8),
            Timed { seconds: f32 },
        }
        #[derive(Serialize)]
        struct Side {
            steps: u32,
            captured: bool,
            pair: (i8, f64),
            ending: Ending,
            missing: Option<u32>,
            nothing: (),
            #[serde(skip_serializing_if = "Option::is_none")]
            skipped: Option<u32>,
            initial: char,
        }
        let mut by_seat = BTreeMap::new();
        by_seat.insert(
            "A".to_owned(),
            Side {
                steps: 3,
                captured: true,
                pair: (-2, f64::NAN),
                ending: Ending::Home,
                missing: None,
                nothing: (),
                skipped: None,
                initial: 'x',
            },
        );
        by_seat.insert(
            "B".to_owned(),
            Side {
                steps: 8,
                captured: false,
                pair: (4, 0.5),
                ending: Ending::Resigned(2),
                missing: Some(7),
                nothing: (),
                skipped: Some(1),
                initial: 'x',
            },
        );
        let mut totals = FigureTotals::default();
        totals.add(&by_seat);
        let mut keyed: BTreeMap<u8, Ending> = BTreeMap::new();
        keyed.insert(3, Ending::Timed { seconds: 1.5 });
        totals.add(&keyed);
        // A float key as JSON writes it (`0.1`, not the f32's 0.10000000149011612).
        struct FloatKeyed;
        impl Serialize for FloatKeyed {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap as _;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(&0.1f32, &true)?;
                map.end()
            }
        }
        totals.add(&FloatKeyed);
        // Keys of other kinds, each as `serde_json` writes it: a char, a unit variant, a bool
        // and text in a newtype; a list key is refused (nothing of that map is added).
        #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
        struct Name(String);
        #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
        #[serde(rename_all = "snake_case")]
        enum Colour {
            DarkRed,
        }
        totals.add(&BTreeMap::from([('k', 4)]));
        totals.add(&BTreeMap::from([(Colour::DarkRed, 5)]));
        totals.add(&BTreeMap::from([(true, 6)]));
        totals.add(&BTreeMap::from([(Name("n".to_owned()), 7)]));
        totals.add(&BTreeMap::from([(vec![1u8], 8)]));
        let report = totals.report();
        let mean = |path: &str| match &report[path] {
            Figure::Mean { mean } => *mean,
            other => panic!("{path}: {other:?}"),
        };
        assert_eq!([mean("k"), mean("dark_red"), mean("true"), mean("n")], [4.0, 5.0, 6.0, 7.0]);
        assert_eq!(mean("A.steps"), 3.0);
        assert_eq!(mean("A.captured"), 1.0);
        assert_eq!(mean("B.captured"), 0.0);
        assert_eq!(mean("A.pair.0"), -2.0);
        assert_eq!(mean("B.pair.1"), 0.5);
        assert_eq!(mean("B.ending.resigned"), 2.0);
        assert_eq!(mean("B.missing"), 7.0);
        assert_eq!(mean("B.skipped"), 1.0);
        assert_eq!(mean("3.timed.seconds"), 1.5);
        assert_eq!(mean("0.1"), 1.0);
        let Figure::Frequencies { frequencies } = &report["A.ending"] else { panic!("frequencies expected") };
        assert_eq!(frequencies["home"], 1.0);
        let Figure::Frequencies { frequencies } = &report["A.initial"] else { panic!("frequencies expected") };
        assert_eq!(frequencies["x"], 1.0);
        // JSON has no NaN, and `null`, `None` and `()` are no figure.
        for absent in ["A.pair.1", "A.missing", "A.nothing", "A.skipped", "B.nothing"] {
            assert!(!report.contains_key(absent), "{absent}");
        }
        // A: steps, captured, pair.0, ending, initial; B: those but ending as resigned, and pair.1,
        // missing, skipped; 3.timed.seconds and 0.1; k, dark_red, true and n.
        assert_eq!(report.len(), 5 + 8 + 2 + 4, "{:?}", report.keys().collect::<Vec<_>>());
    }
}
