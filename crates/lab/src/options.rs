//! The option walk: the rule sets a balance search compares, read from a game's declared
//! option schema (`madang_games::Describe::info().options`, `docs/api.md`, "Catalogue").

use serde_json::{Map, Value};

use crate::LabError;

/// The most rule sets one search compares (the walk's product of value counts).
pub const MAX_RULE_SETS: usize = 256;

/// The rule sets of a walk: every combination of the values of the options in `vary`, each as
/// `base` with those keys added (in `vary`'s order; the first key varies slowest, values in the
/// schema's order).
///
/// - `schema`: the game's declared options, `{"key", "type", "values"? | "min"?, "max"?,
///   "default", "depends_on"?}` each.
/// - A varied option's values: `explicit[key]` (a non-empty JSON array of distinct values)
///   when given, else by its type: an `enum`'s `values`, a `boolean`'s `false` and `true`, an
///   `integer`'s `min..=max`. Other types (`fraction`, `layout`) have no finite list and need
///   `explicit`.
/// - Options not varied are left out of the rule sets (unless `base` sets them), so each takes
///   the game's default *under the rule set*: an option declared with `depends_on` (Ur's
///   `pieces` depends on `preset`) follows the preset the rule set has, never the declared
///   default, which is only the default preset's value.
///
/// # Errors
/// [`LabError`]: nothing to vary, an undeclared or repeated key, a key both in `base` and
/// varied, an `explicit` key not varied or not a non-empty array of distinct values, an option
/// with no finite list and no `explicit` values, `base` not an object, more than
/// [`MAX_RULE_SETS`] rule sets.
pub fn rule_sets(
    game: &str,
    schema: &[Value],
    base: &Value,
    vary: &[String],
    explicit: &Map<String, Value>,
) -> Result<Vec<Value>, LabError> {
    let declared = || {
        let keys: Vec<&str> = schema.iter().filter_map(|o| o["key"].as_str()).collect();
        if keys.is_empty() { "none".to_owned() } else { keys.join(", ") }
    };
    let Some(base) = base.as_object() else { return Err(LabError::BaseNotObject(base.to_string())) };
    if vary.is_empty() {
        return Err(LabError::NothingToVary { declared: declared() });
    }
    for key in explicit.keys() {
        if !vary.contains(key) {
            return Err(LabError::Values(format!("`{key}` is not among the varied --options: add it there")));
        }
    }
    let mut lists: Vec<Vec<Value>> = Vec::with_capacity(vary.len());
    for (i, key) in vary.iter().enumerate() {
        if vary[..i].contains(key) {
            return Err(LabError::Repeated(key.clone()));
        }
        let Some(option) = schema.iter().find(|o| o["key"].as_str() == Some(key.as_str())) else {
            return Err(LabError::UnknownOption { game: game.to_owned(), key: key.clone(), declared: declared() });
        };
        if base.contains_key(key) {
            return Err(LabError::FixedAndVaried(key.clone()));
        }
        lists.push(match explicit.get(key) {
            Some(given) => explicit_values(key, given)?,
            None => declared_values(key, option)?,
        });
    }
    let count = lists.iter().try_fold(1usize, |n, list| n.checked_mul(list.len()).filter(|&n| n <= MAX_RULE_SETS));
    let Some(count) = count else {
        let count = lists.iter().fold(1u128, |n, list| n.saturating_mul(list.len() as u128));
        return Err(LabError::TooMany { count, max: MAX_RULE_SETS });
    };
    let mut sets = Vec::with_capacity(count);
    for mut n in 0..count {
        // Mixed radix, the last key fastest: digit k of n in base lists[k].len().
        let mut picks = vec![0; lists.len()];
        for (k, list) in lists.iter().enumerate().rev() {
            picks[k] = n % list.len();
            n /= list.len();
        }
        let mut set = base.clone();
        for ((key, list), pick) in vary.iter().zip(&lists).zip(picks) {
            set.insert(key.clone(), list[pick].clone());
        }
        sets.push(Value::Object(set));
    }
    Ok(sets)
}

/// The values `--values` gives one option.
fn explicit_values(key: &str, given: &Value) -> Result<Vec<Value>, LabError> {
    let list = match given.as_array() {
        Some(list) if !list.is_empty() => list,
        _ => return Err(LabError::Values(format!("`{key}` takes a non-empty JSON array of values, got {given}"))),
    };
    for (i, value) in list.iter().enumerate() {
        if list[..i].contains(value) {
            return Err(LabError::Values(format!("`{key}` lists {value} twice")));
        }
    }
    Ok(list.clone())
}

/// The values an option's declaration lists.
fn declared_values(key: &str, option: &Value) -> Result<Vec<Value>, LabError> {
    let kind = option["type"].as_str().unwrap_or("unknown");
    match kind {
        "enum" => match option["values"].as_array() {
            Some(values) if !values.is_empty() => Ok(values.clone()),
            _ => Err(LabError::NotEnumerable { key: key.to_owned(), kind: kind.to_owned() }),
        },
        "boolean" => Ok(vec![Value::Bool(false), Value::Bool(true)]),
        "integer" => match (option["min"].as_i64(), option["max"].as_i64()) {
            (Some(min), Some(max)) if min <= max && max - min < MAX_RULE_SETS as i64 => {
                Ok((min..=max).map(Value::from).collect())
            }
            (Some(min), Some(max)) if min <= max => {
                Err(LabError::TooMany { count: (max - min + 1) as u128, max: MAX_RULE_SETS })
            }
            _ => Err(LabError::NotEnumerable { key: key.to_owned(), kind: kind.to_owned() }),
        },
        _ => Err(LabError::NotEnumerable { key: key.to_owned(), kind: kind.to_owned() }),
    }
}

#[cfg(test)]
mod tests {
    use madang_games::Describe;
    use serde_json::json;

    use super::*;

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| (*k).to_owned()).collect()
    }

    fn walk(schema: &[Value], base: Value, vary: &[&str], explicit: Value) -> Result<Vec<Value>, LabError> {
        let explicit = explicit.as_object().cloned().unwrap_or_default();
        rule_sets("g", schema, &base, &keys(vary), &explicit)
    }

    /// A schema written out by hand in the catalogue's shape.
    fn schema() -> Vec<Value> {
        vec![
            json!({"key": "preset", "type": "enum", "values": ["x", "y", "z"], "default": "x"}),
            json!({"key": "pieces", "type": "integer", "min": 2, "max": 4, "default": 3, "depends_on": "preset"}),
            json!({"key": "extra", "type": "boolean", "default": false}),
            json!({"key": "odds", "type": "fraction", "min": "0", "max": "1", "default": "1/2"}),
            json!({"key": "layout", "type": "layout", "default": ["##"]}),
        ]
    }

    #[test]
    fn the_walk_is_the_product_of_each_types_values_last_key_fastest() {
        // enum (3) × boolean (2): x/false, x/true, y/false, y/true, z/false, z/true.
        let sets = walk(&schema(), json!({}), &["preset", "extra"], json!({})).expect("a walk");
        let expected: Vec<Value> = [("x", false), ("x", true), ("y", false), ("y", true), ("z", false), ("z", true)]
            .iter()
            .map(|(p, e)| json!({"preset": p, "extra": e}))
            .collect();
        assert_eq!(sets, expected);
        // integer 2..=4, every other option left to the game.
        let sets = walk(&schema(), json!({}), &["pieces"], json!({})).expect("a walk");
        assert_eq!(sets, vec![json!({"pieces": 2}), json!({"pieces": 3}), json!({"pieces": 4})]);
    }

    #[test]
    fn a_dependent_option_follows_the_base_preset_and_its_default_is_never_written() {
        // `pieces` depends on `preset`: the walk varies `extra` only, so `pieces` stays out of
        // every rule set and takes preset y's value, not the declared default 3.
        let sets = walk(&schema(), json!({"preset": "y"}), &["extra"], json!({})).expect("a walk");
        assert_eq!(sets, vec![json!({"preset": "y", "extra": false}), json!({"preset": "y", "extra": true})]);
        for set in &sets {
            assert!(set.get("pieces").is_none(), "{set}");
        }
    }

    #[test]
    fn explicit_values_walk_options_without_a_finite_list() {
        let sets =
            walk(&schema(), json!({}), &["odds", "layout"], json!({"odds": ["1/4", "1/2"], "layout": [["#"], ["##"]]}))
                .expect("a walk");
        assert_eq!(sets.len(), 4);
        assert_eq!(sets[1], json!({"odds": "1/4", "layout": ["##"]}));
        // They also narrow an enumerable option.
        let sets = walk(&schema(), json!({}), &["pieces"], json!({"pieces": [4, 2]})).expect("a walk");
        assert_eq!(sets, vec![json!({"pieces": 4}), json!({"pieces": 2})]);
    }

    #[test]
    fn bad_walks_are_refused_naming_the_problem() {
        let s = schema();
        let message = |r: Result<Vec<Value>, LabError>| r.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message(walk(&s, json!({}), &["layout"], json!({})))
                .contains("rule option `layout` (layout) has no finite list")
        );
        assert!(message(walk(&s, json!({}), &["odds"], json!({}))).contains("(fraction)"));
        assert!(
            message(walk(&s, json!({}), &["colour"], json!({})))
                .contains("no rule option `colour`; it declares: preset, pieces, extra, odds, layout")
        );
        assert!(message(walk(&s, json!({}), &[], json!({}))).contains("names no option to vary"));
        assert!(message(walk(&s, json!({}), &["extra", "extra"], json!({}))).contains("lists `extra` twice"));
        assert!(
            message(walk(&s, json!({"extra": true}), &["extra"], json!({}))).contains("fixed by --rules and varied")
        );
        assert!(
            message(walk(&s, json!({}), &["extra"], json!({"pieces": [2]})))
                .contains("`pieces` is not among the varied")
        );
        assert!(message(walk(&s, json!({}), &["pieces"], json!({"pieces": []}))).contains("non-empty JSON array"));
        assert!(message(walk(&s, json!({}), &["pieces"], json!({"pieces": [2, 2]}))).contains("lists 2 twice"));
        assert!(message(walk(&s, json!([1]), &["pieces"], json!({}))).contains("must be a JSON object"));
        // 3 · 3 · 2 · 15 = 270 > 256.
        let many = json!({"odds": (1..=15).map(|i| format!("{i}/16")).collect::<Vec<_>>()});
        assert_eq!(
            walk(&s, json!({}), &["preset", "pieces", "extra", "odds"], many).err(),
            Some(LabError::TooMany { count: 270, max: MAX_RULE_SETS })
        );
    }

    #[test]
    fn seven_dice_poker_declares_eight_rule_sets_over_board_tokens_and_straight() {
        // docs/dice-poker.md: boards a and b, the token rule on or off, straights distinct or
        // consecutive: 2 · 2 · 2 rule sets.
        struct Options;
        impl madang_games::Visitor for Options {
            type Output = Vec<Value>;
            fn visit<G: Describe>(self, _game: G) -> Vec<Value> {
                G::info().options
            }
        }
        let options = madang_games::visit("dice-poker", &json!({}), None, Options).expect("a game");
        let sets = rule_sets("dice-poker", &options, &json!({}), &keys(&["board", "tokens", "straight"]), &Map::new())
            .expect("a walk");
        assert_eq!(sets.len(), 8);
        assert_eq!(sets[0], json!({"board": "a", "tokens": false, "straight": "distinct"}));
        assert_eq!(sets[7], json!({"board": "b", "tokens": true, "straight": "consecutive"}));
        let layout = rule_sets("dice-poker", &options, &json!({}), &keys(&["layout"]), &Map::new());
        assert!(matches!(layout, Err(LabError::NotEnumerable { ref kind, .. }) if kind == "layout"));
    }
}
