//! Property tests: random text never panics the notation parser, and random action sequences
//! (arbitrary actions mixed with listed ones) keep the engine model's promises under every mode.

use madang_conformance::{Step, check_step};
use madang_core::Game;
use madang_yut::{Stick, Yut, YutAction, YutOptions};
use proptest::prelude::*;
use serde_json::json;

fn stick() -> impl Strategy<Value = Stick> {
    proptest::sample::select(Stick::ALL.to_vec())
}

fn step() -> impl Strategy<Value = Step<YutAction>> {
    prop_oneof![
        1 => stick().prop_map(|s| Step::Arbitrary(YutAction::Throw(s))),
        1 => stick().prop_map(|s| Step::Arbitrary(YutAction::Enter(s))),
        2 => (0u8..12, stick()).prop_map(|(p, s)| Step::Arbitrary(YutAction::Move(p, s))),
        1 => (0u8..30).prop_map(|s| Step::Arbitrary(YutAction::Route(s))),
        1 => any::<bool>().prop_map(|yes| Step::Arbitrary(YutAction::Stack(yes))),
        1 => (0u8..6).prop_map(|n| Step::Arbitrary(YutAction::Slot(n))),
        12 => any::<u8>().prop_map(Step::Listed),
    ]
}

/// A mode and its player count, with the option switches that change the turn machine.
fn game() -> impl Strategy<Value = Yut> {
    (0usize..5, any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), 1i64..=5).prop_map(
        |(mode, optional, forced, void_throw, ranking, pieces)| {
            let (mode, players, teammate) = [
                ("individual", 2, None),
                ("individual", 3, None),
                ("team-shared", 4, None),
                ("team-separate", 4, Some("stack")),
                ("team-separate", 6, Some("capture")),
            ][mode];
            let mut rules = json!({
                "mode": mode,
                "pieces": pieces,
                "stacking": if optional { "optional" } else { "auto" },
                "shortcuts": if forced { "forced" } else { "optional" },
                "nak_rule": if void_throw { "void_throw" } else { "void_set" },
                "finish": if ranking { "ranking" } else { "first" },
                "nak": "1/10",
            });
            if let Some(teammate) = teammate {
                rules["teammate"] = json!(teammate);
            }
            let options: YutOptions = serde_json::from_value(rules).expect("options parse");
            Yut::new(&options, Some(players)).expect("valid rules")
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn parsing_never_panics_and_round_trips(text in "\\PC{0,16}") {
        if let Ok(action) = text.parse::<YutAction>() {
            prop_assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn random_actions_keep_the_engine_model_promises(game in game(), steps in proptest::collection::vec(step(), 0..300)) {
        let mut state = game.initial_state();
        for step in steps {
            check_step(&game, &mut state, step, YutAction::Throw(Stick::Do)).map_err(TestCaseError::fail)?;
        }
    }
}
