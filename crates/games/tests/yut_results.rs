//! Yut's results figures (spec `yut.md`, "End of game": seed 000's results screen), as
//! `madang replay` prints them in `result.stats`, checked against an independent calculation
//! from the record: captures, stacks and extra throws counted from the events that replaying
//! the record's actions one by one reports, finished pieces and steps still to go from the final
//! pieces, with the fewest steps found by a breadth-first search over the spec's board drawing.

use std::collections::{BTreeMap, VecDeque};

use madang_core::Turn;
use madang_games::{Record, SeededStreams, open, replay};
use madang_seed::Seed;
use serde_json::{Value, json};

/// The spec's forward edges (yut.md, "Board: 29 stations"): the outer ring 0 → 1 → … → 19 → 0,
/// the diagonal from 모 5 → 20 → 21 → 22 → 23 → 24 → 15, the one from 뒷모
/// 10 → 25 → 26 → 22 → 27 → 28 → 0.
fn edges() -> Vec<(u8, u8)> {
    let mut e: Vec<(u8, u8)> = (0..19).map(|i| (i, i + 1)).collect();
    e.push((19, 0));
    e.extend([(5, 20), (20, 21), (21, 22), (22, 23), (23, 24), (24, 15)]);
    e.extend([(10, 25), (25, 26), (26, 22), (22, 27), (27, 28), (28, 0)]);
    e
}

/// The fewest forward steps from each station to finishing. With `pass`, a piece finishes with a
/// step beyond 참먹이 (0); with `reach`, by arriving on it, and one on it finishes with one step.
fn steps_to_finish(pass: bool) -> [u32; 29] {
    // Backwards search from "finished": its predecessors are 0 (pass) or every station with an
    // edge into 0 plus 0 itself (reach), all one step away.
    let mut dist = [u32::MAX; 29];
    let mut queue = VecDeque::new();
    let first: Vec<u8> = if pass {
        vec![0]
    } else {
        let mut v: Vec<u8> = edges().into_iter().filter(|&(_, to)| to == 0).map(|(from, _)| from).collect();
        v.push(0);
        v
    };
    for s in first {
        dist[usize::from(s)] = 1;
        queue.push_back(s);
    }
    while let Some(s) = queue.pop_front() {
        for (from, _) in edges().into_iter().filter(|&(from, to)| to == s && from != 0) {
            if dist[usize::from(from)] == u32::MAX {
                dist[usize::from(from)] = dist[usize::from(s)] + 1;
                queue.push_back(from);
            }
        }
    }
    dist
}

/// A piece in hand enters with r (1-5) onto station r: r steps, then the station's distance.
fn from_hand(dist: &[u32; 29]) -> u32 {
    (1..=5u8).map(|r| u32::from(r) + dist[usize::from(r)]).min().unwrap_or(0)
}

/// A whole game between bots, seeded.
fn game(rules: Value, players: Option<usize>, n: u8) -> Record {
    let seed = Seed([n; 32]);
    let mut game = open("yut", &rules, players).expect("yut");
    let mut streams = SeededStreams::new(seed, &game.seat_names());
    let bots: Vec<Option<String>> = game.seat_names().iter().map(|_| Some("normal".to_owned())).collect();
    streams.advance(game.as_mut(), &bots).expect("known bots");
    assert_eq!(game.turn(), Turn::Terminal);
    Record { game: "yut".into(), rules, players, actions: game.history(), seed: None, end: None }
}

/// The five figures per side worked out from the record without the engine's counters.
fn independent(record: &Record, pass: bool) -> BTreeMap<String, [u32; 5]> {
    let mut game = open("yut", &record.rules, record.players).expect("yut");
    let mut figures: BTreeMap<String, [u32; 5]> = BTreeMap::new();
    let side = |seat: &Value| seat.as_str().and_then(|s| s.get(..1)).unwrap_or_default().to_owned();
    for action in &record.actions {
        for event in game.apply(action).expect("a legal record") {
            let event = event.value();
            let column = match event["kind"].as_str() {
                Some("capture") => 2,
                Some("again" | "bonus") => 3,
                Some("stack") => 4,
                _ => continue,
            };
            figures.entry(side(&event["seat"])).or_default()[column] += 1;
        }
    }
    let view = serde_json::to_value(replay(record).expect("replays")).expect("json");
    let dist = steps_to_finish(pass);
    for (owner, stations) in view["pieces"].as_object().expect("pieces") {
        let f = figures.entry(owner[..1].to_owned()).or_default();
        for station in stations.as_array().expect("stations").iter().map(|s| s.as_i64().expect("a number")) {
            match station {
                99 => f[0] += 1,
                -1 => f[1] += from_hand(&dist),
                s => f[1] += dist[usize::try_from(s).expect("a station")],
            }
        }
    }
    figures
}

#[test]
fn the_fewest_steps_are_the_specs_examples() {
    // yut.md: with "pass" 1 on 참먹이, 2 on 19, 7 on 모, 12 in hand; with "reach" 1, 1, 11.
    let pass = steps_to_finish(true);
    assert_eq!((pass[0], pass[19], pass[5], from_hand(&pass)), (1, 2, 7, 12));
    let reach = steps_to_finish(false);
    assert_eq!((reach[0], reach[19], from_hand(&reach)), (1, 1, 11));
}

#[test]
fn replay_stats_equal_the_figures_worked_out_from_the_record() {
    let cases = [
        (json!({}), None, true),
        (json!({"pieces": 2}), Some(3), true),
        (json!({"exit": "reach", "stacking": "optional"}), Some(4), false),
        (json!({"mode": "team-shared"}), Some(4), true),
        (json!({"mode": "team-separate", "pieces": 2}), Some(4), true),
        (json!({"finish": "ranking", "pieces": 2, "nak": "1/10"}), Some(3), true),
    ];
    let mut captures = 0;
    let mut stacks = 0;
    for (i, (rules, players, pass)) in cases.into_iter().enumerate() {
        for n in 1..=3u8 {
            let record = game(rules.clone(), players, n + 10 * u8::try_from(i).unwrap_or(0));
            let view = serde_json::to_value(replay(&record).expect("replays")).expect("json");
            assert_eq!(view["status"], "finished");
            let stats = &view["result"]["stats"];
            let expected = independent(&record, pass);
            let sides: Vec<&String> = stats.as_object().expect("stats by side").keys().collect();
            assert_eq!(sides, expected.keys().collect::<Vec<_>>(), "{rules} #{n}: the sides");
            for (side, f) in &expected {
                let got: Vec<u64> = ["finished", "steps_left", "captures", "extra_throws", "stacks"]
                    .iter()
                    .map(|k| stats[side][k].as_u64().expect("a figure"))
                    .collect();
                assert_eq!(got, f.iter().map(|&x| u64::from(x)).collect::<Vec<_>>(), "{rules} #{n}: side {side}");
                captures += f[2];
                stacks += f[4];
            }
            // The winner (or the first of the ranking) finished every piece: nothing left to go.
            let first = view["result"]["winner"].as_str().or(view["result"]["ranking"][0].as_str()).expect("a winner");
            assert_eq!(stats[first]["steps_left"], 0, "{rules} #{n}");
        }
    }
    // The games exercised the counted events.
    assert!(captures > 0 && stacks > 0, "captures {captures}, stacks {stacks}");
}
