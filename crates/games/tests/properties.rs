//! Property tests of record parsing and replay: no input makes them panic (spec `README.md`,
//! "Game records": "Nothing panics").

use madang_games::{Record, replay, verify};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Any JSON value, nested a few levels.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-3i64..20).prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        any::<String>().prop_map(Value::String),
        action_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// Object keys: record fields, Ur rule keys, and anything.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "game",
            "rules",
            "players",
            "actions",
            "seed",
            "end",
            "reason",
            "by",
            "preset",
            "pieces",
            "capture_extra_roll",
            "safe_rosettes",
            "dice",
            "path",
        ])
        .prop_map(str::to_owned),
        "[a-z_]{0,8}",
    ]
}

/// Action texts that are often legal notation.
fn action_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u8..=4).prop_map(|n| format!("roll {n}")),
        4 => (0u8..=17).prop_map(|n| format!("move {n}")),
        1 => "(roll|move|jump)? ?-?[0-9]{0,4}",
        1 => any::<String>(),
    ]
}

/// A value for an Ur rule key: mostly of the right kind, sometimes anything.
fn rule_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![
            "finkel",
            "blitz",
            "masters",
            "bell",
            "four_binary",
            "three_binary_zero_is_four",
            "foo"
        ])
        .prop_map(Value::from),
        (-1i64..=9).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        json_value(),
    ]
}

/// A valid Ur `rules` object: some of the keys, each with a good value.
fn valid_rules() -> impl Strategy<Value = Value> {
    (
        proptest::option::of(prop::sample::select(vec!["finkel", "blitz", "masters"])),
        proptest::option::of(1i64..=7),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(prop::sample::select(vec!["four_binary", "three_binary_zero_is_four"])),
        proptest::option::of(prop::sample::select(vec!["bell", "masters"])),
    )
        .prop_map(|(preset, pieces, capture_extra_roll, safe_rosettes, dice, path)| {
            let mut rules = Map::new();
            let mut put = |key: &str, value: Option<Value>| {
                if let Some(value) = value {
                    rules.insert(key.to_owned(), value);
                }
            };
            put("preset", preset.map(Value::from));
            put("pieces", pieces.map(Value::from));
            put("capture_extra_roll", capture_extra_roll.map(Value::from));
            put("safe_rosettes", safe_rosettes.map(Value::from));
            put("dice", dice.map(Value::from));
            put("path", path.map(Value::from));
            Value::Object(rules)
        })
}

/// Any `rules` object: valid, or with unknown keys and values of any kind.
fn any_rules() -> impl Strategy<Value = Value> {
    let loose = proptest::collection::vec(
        (
            prop::sample::select(vec![
                "preset",
                "pieces",
                "capture_extra_roll",
                "safe_rosettes",
                "dice",
                "path",
                "speed",
            ]),
            rule_value(),
        ),
        0..5,
    )
    .prop_map(|entries| Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect::<Map<_, _>>()));
    prop_oneof![6 => valid_rules(), 3 => loose, 1 => json_value()]
}

/// Plays `choices` as indices into the listed actions (chance outcomes or legal moves) of the
/// game the record names, so that records get deep into a game; empty when the game cannot be
/// opened.
fn legal_walk(game: &Value, rules: &Value, players: Option<&Value>, choices: &[u8]) -> Vec<String> {
    let players = match players {
        None => None,
        Some(value) => match value.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Some(n),
            None => return Vec::new(),
        },
    };
    let Ok(mut game) = madang_games::open(game.as_str().unwrap_or(""), rules, players) else { return Vec::new() };
    let mut actions = Vec::new();
    for &choice in choices {
        let listed: Vec<String> = game
            .view(Vec::new(), None)
            .legal
            .iter()
            .filter_map(|a| a.as_str().or_else(|| a["action"].as_str()).map(str::to_owned))
            .collect();
        if listed.is_empty() {
            break;
        }
        let action = listed[usize::from(choice) % listed.len()].clone();
        if game.apply(&action).is_err() {
            break;
        }
        actions.push(action);
    }
    actions
}

/// How a played action list is spoiled, if at all.
#[derive(Clone, Debug)]
enum Spoil {
    None,
    Replace(usize, String),
    Append(String),
    Truncate(usize),
}

fn spoil() -> impl Strategy<Value = Spoil> {
    prop_oneof![
        2 => Just(Spoil::None),
        2 => (any::<usize>(), action_text()).prop_map(|(i, a)| Spoil::Replace(i, a)),
        2 => action_text().prop_map(Spoil::Append),
        1 => any::<usize>().prop_map(Spoil::Truncate),
    ]
}

/// A record-shaped object whose fields are mostly plausible and whose actions are mostly a
/// legal game, sometimes spoiled by one bad action.
fn record_like() -> impl Strategy<Value = Value> {
    let end = prop_oneof![
        3 => Just(None),
        1 => (
            prop::sample::select(vec!["resign", "draw_agreed", "abandoned", "quit"]),
            prop::sample::select(vec!["light", "dark", "white", ""]),
        )
            .prop_map(|(reason, by)| Some(json!({ "reason": reason, "by": by }))),
        1 => json_value().prop_map(Some),
    ];
    let seed = prop_oneof![
        3 => Just(None),
        1 => "[0-9a-f]{64}".prop_map(|s| Some(Value::String(s))),
        1 => "[0-9a-fA-FxX]{0,66}".prop_map(|s| Some(Value::String(s))),
    ];
    let actions = prop_oneof![
        6 => (proptest::collection::vec(any::<u8>(), 0..300), spoil())
            .prop_map(|(choices, spoil)| (Some(choices), spoil, None)),
        1 => proptest::collection::vec(action_text().prop_map(Value::String), 0..30)
            .prop_map(|texts| (None, Spoil::None, Some(Value::Array(texts)))),
        1 => json_value().prop_map(|value| (None, Spoil::None, Some(value))),
    ];
    (
        prop_oneof![8 => Just(Value::from("ur")), 1 => json_value()],
        any_rules(),
        prop_oneof![4 => Just(None), 2 => Just(Some(json!(2))), 1 => json_value().prop_map(Some)],
        actions,
        seed,
        end,
    )
        .prop_map(|(game, rules, players, (choices, spoil, fixed), seed, end)| {
            let actions = match (choices, fixed) {
                (_, Some(fixed)) => fixed,
                (choices, None) => {
                    let mut actions = legal_walk(&game, &rules, players.as_ref(), &choices.unwrap_or_default());
                    match spoil {
                        Spoil::None => {}
                        Spoil::Replace(i, text) if !actions.is_empty() => {
                            let i = i % actions.len();
                            actions[i] = text;
                        }
                        Spoil::Replace(_, text) | Spoil::Append(text) => actions.push(text),
                        Spoil::Truncate(n) => actions.truncate(n % (actions.len() + 1)),
                    }
                    Value::from(actions)
                }
            };
            let mut record = Map::new();
            record.insert("game".to_owned(), game);
            record.insert("rules".to_owned(), rules);
            if let Some(players) = players {
                record.insert("players".to_owned(), players);
            }
            record.insert("actions".to_owned(), actions);
            if let Some(seed) = seed {
                record.insert("seed".to_owned(), seed);
            }
            if let Some(end) = end {
                record.insert("end".to_owned(), end);
            }
            Value::Object(record)
        })
}

/// Parses `text` and, when it is a record, replays and verifies it; none of it may panic, and an
/// error always has a message.
fn exercise(text: &str) -> Result<(), TestCaseError> {
    // A record inside a request body is read from its parsed value: the same record, or a
    // refusal, as from its text.
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let (from_value, from_text) = (Record::from_value(&value), Record::from_json(&value.to_string()));
        prop_assert_eq!(from_value.is_ok(), from_text.is_ok(), "{}", text);
        // (`rules` may hold a float, which serde_json reads back from text to within a unit in
        // the last place only.)
        if let (Ok(a), Ok(b)) = (from_value, from_text) {
            prop_assert_eq!(
                (&a.game, a.players, &a.actions, &a.seed, &a.end),
                (&b.game, b.players, &b.actions, &b.seed, &b.end)
            );
        }
    }
    match Record::from_json(text) {
        Ok(record) => {
            match replay(&record) {
                Ok(view) => {
                    prop_assert!(view.status == "ongoing" || view.status == "finished");
                    prop_assert!(serde_json::to_string(&view).is_ok());
                }
                Err(error) => prop_assert!(!error.to_string().is_empty()),
            }
            if let Err(error) = verify(&record) {
                prop_assert!(!error.to_string().is_empty());
            }
        }
        Err(error) => prop_assert!(!error.to_string().is_empty()),
    }
    Ok(())
}

/// A record written as an array (serde would read a struct from one, field by field) is
/// malformed: a record is an object.
#[test]
fn a_record_as_an_array_is_malformed() {
    for text in [r#"["ur", {}, 2, []]"#, "  [\"ur\"]", "\"ur\"", "3"] {
        let error = Record::from_json(text).map(|_| ()).expect_err("an array is not a record").to_string();
        assert!(error.contains("malformed record"), "{text}: {error}");
    }
    assert!(Record::from_json(r#" {"game": "ur", "rules": {}, "actions": []}"#).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random text.
    #[test]
    fn random_text_never_panics(text in any::<String>()) {
        exercise(&text)?;
    }

    /// Random text that starts like a record.
    #[test]
    fn random_record_prefix_text_never_panics(tail in "[\\[\\]{}\",:a-z0-9 ]{0,80}") {
        exercise(&format!("{{\"game\":\"ur\",{tail}"))?;
    }

    /// Random JSON values.
    #[test]
    fn random_json_never_panics(value in json_value()) {
        exercise(&value.to_string())?;
    }

    /// Random record-shaped JSON: plausible rules, actions, seeds and ends.
    #[test]
    fn random_records_never_panic(value in record_like()) {
        exercise(&value.to_string())?;
    }
}
