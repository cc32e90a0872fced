//! Progression (issue 18, seed 000: "experience, assets and achievements are updated" after a
//! game): the experience, coins and achievements one player earns in one finished game, worked
//! out from the game's record alone — its rules, who sat where, how it ended, and the typed
//! events of every action — so that the server computes them from what it stored and the same
//! record always gives the same award. The formula, the level table and the achievements are
//! documented in `docs/progression.md`.
//!
//! A game offers progression when its declaration says so ([`crate::GameInfo::progression`]);
//! Ludo does not (its seed: "no levels or streaks"). Nothing here changes a game's rules, dice or
//! computer players: it only reads a finished game.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The level curve: `LEVELS[n]` is the total experience that reaches level `n + 1`. Past the
/// last entry the level stays at [`LEVELS`]`.len()`.
pub const LEVELS: [u64; 20] = [
    0, 100, 250, 450, 700, 1_000, 1_400, 1_900, 2_500, 3_200, 4_000, 5_000, 6_200, 7_600, 9_200, 11_000, 13_000,
    15_500, 18_500, 22_000,
];

/// Experience for a game that ended with a result for the player.
pub const XP_FINISH: u64 = 20;
/// Experience added for a win.
pub const XP_WIN: u64 = 30;
/// Experience added for a draw.
pub const XP_DRAW: u64 = 10;
/// Experience per capture made by the player.
pub const XP_PER_CAPTURE: u64 = 3;
/// The most captures that earn experience in one game.
pub const MAX_CAPTURES: u64 = 5;
/// Coins: one per this much experience of a game, rounded down.
pub const XP_PER_COIN: u64 = 10;

/// Experience added to a win for beating an opponent of this strength (the strongest opponent
/// counts): a computer level or a person.
pub fn strength_bonus(opponent: &Opponent) -> u64 {
    match opponent {
        Opponent::Person => 15,
        Opponent::Computer(level) => match level.as_str() {
            "normal" => 10,
            "hard" => 20,
            "perfect" => 30,
            _ => 0,
        },
    }
}

/// A seat the player does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Another person.
    Person,
    /// The computer at this level or bot name.
    Computer(String),
}

/// One action of the record with the seat that made it and the engine's typed events.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The seat that acted (the thrower for a chance outcome), if any.
    pub seat: Option<String>,
    /// The action in notation (`throw yut`).
    pub action: String,
    /// The typed events it caused, as JSON objects (`{"kind": "capture", "seat": "A", …}`).
    pub events: Vec<Value>,
}

/// One player's view of a finished game: everything an award is computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct Play {
    /// The game's record name.
    pub game: String,
    /// The record's `rules` object.
    pub rules: Value,
    /// The number of seats.
    pub seats: usize,
    /// The player's seat names and the names of their sides (an event is the player's when its
    /// `seat` or `side` is one of these).
    pub mine: Vec<String>,
    /// Every seat of another side.
    pub opponents: Vec<Opponent>,
    /// The player's stored outcome: `won`, `lost`, `drawn`, `no_result` or `played` (the player
    /// held every side).
    pub outcome: String,
    /// Whether the player's own side resigned.
    pub resigned: bool,
    /// The record's actions in order.
    pub steps: Vec<Step>,
}

/// What one game gives one player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    /// Experience points.
    pub xp: u64,
    /// Coins.
    pub coins: u64,
    /// The experience by reason, in the order of the formula (`finish`, `win`, `draw`,
    /// `strength`, `captures`), only the reasons that gave something.
    pub parts: Vec<(String, u64)>,
    /// The ids of the achievements whose condition this game meets, in the file's order.
    pub achievements: Vec<String>,
}

/// The award of `play` (`docs/progression.md`, "Experience"):
/// nothing when the player has no result (left or abandoned game, no result by the rules) or
/// resigned; otherwise [`XP_FINISH`], plus [`XP_WIN`] for a win (and the strongest opponent's
/// [`strength_bonus`]) or [`XP_DRAW`] for a draw, plus [`XP_PER_CAPTURE`] for each of the
/// player's captures up to [`MAX_CAPTURES`]. A person who held every side (`played`) gets
/// [`XP_FINISH`] alone and no achievement. Coins are the experience divided by
/// [`XP_PER_COIN`], rounded down.
pub fn award(play: &Play) -> Award {
    let mut award = Award::default();
    if play.resigned || !matches!(play.outcome.as_str(), "won" | "lost" | "drawn" | "played") {
        return award;
    }
    award.parts.push(("finish".to_owned(), XP_FINISH));
    if play.outcome != "played" {
        match play.outcome.as_str() {
            "won" => {
                award.parts.push(("win".to_owned(), XP_WIN));
                let strength = play.opponents.iter().map(strength_bonus).max().unwrap_or(0);
                if strength > 0 {
                    award.parts.push(("strength".to_owned(), strength));
                }
            }
            "drawn" => award.parts.push(("draw".to_owned(), XP_DRAW)),
            _ => {}
        }
        let captures = play.events().filter(|e| kind(e) == "capture" && play.is_mine(e)).count() as u64;
        if captures > 0 {
            award.parts.push(("captures".to_owned(), XP_PER_CAPTURE * captures.min(MAX_CAPTURES)));
        }
        award.achievements =
            achievements().iter().filter(|a| a.game == play.game && a.when.holds(play)).map(|a| a.id.clone()).collect();
    }
    award.xp = award.parts.iter().map(|(_, xp)| xp).sum();
    award.coins = award.xp / XP_PER_COIN;
    award
}

impl Play {
    fn events(&self) -> impl Iterator<Item = &Value> {
        self.steps.iter().flat_map(|s| s.events.iter())
    }

    /// Whether `event` was made by the player: its `seat` (or, without one, its `side`) is one
    /// of [`Play::mine`].
    fn is_mine(&self, event: &Value) -> bool {
        let by = event.get("seat").or_else(|| event.get("side")).and_then(Value::as_str);
        by.is_some_and(|by| self.mine.iter().any(|m| m == by))
    }
}

fn kind(event: &Value) -> &str {
    event.get("kind").and_then(Value::as_str).unwrap_or("")
}

/// A level and where the experience stands in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// The level, from 1.
    pub level: usize,
    /// The total experience.
    pub xp: u64,
    /// The total that reached this level.
    pub floor: u64,
    /// The total that reaches the next level (`None` at the last level).
    pub next: Option<u64>,
}

/// The level of a total of experience, read from [`LEVELS`].
pub fn level(xp: u64) -> Level {
    let reached = LEVELS.iter().take_while(|&&floor| floor <= xp).count().max(1);
    Level { level: reached, xp, floor: LEVELS[reached - 1], next: LEVELS.get(reached).copied() }
}

/// A name or text in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Korean.
    pub ko: String,
}

/// One achievement, as `achievements.json` declares it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Achievement {
    /// Its id (`yut-yut-then-mo`).
    pub id: String,
    /// The game whose records can earn it.
    pub game: String,
    /// Its name.
    pub name: Text,
    /// What earns it, for people.
    pub about: Text,
    /// What earns it, for the server.
    pub when: Condition,
}

/// Which events an [`EventMatch`] looks at, by who made them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// The player's own.
    #[default]
    Me,
    /// Those of other sides.
    Others,
    /// Everybody's.
    Anyone,
}

/// Events of some kinds, by someone, with some fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventMatch {
    /// The event kinds (any of them).
    pub kind: Vec<String>,
    /// Whose events (default: the player's).
    #[serde(default)]
    pub by: By,
    /// Fields that must equal these values.
    #[serde(default)]
    pub equals: BTreeMap<String, Value>,
    /// Number fields that must be at least these values.
    #[serde(default)]
    pub min: BTreeMap<String, i64>,
    /// How many matching events are needed (default 1).
    #[serde(default = "one")]
    pub at_least: usize,
}

fn one() -> usize {
    1
}

impl EventMatch {
    fn matches(&self, play: &Play, event: &Value) -> bool {
        let by = match self.by {
            By::Me => play.is_mine(event),
            By::Others => !play.is_mine(event),
            By::Anyone => true,
        };
        by && self.kind.iter().any(|k| k == kind(event))
            && self.equals.iter().all(|(field, value)| event.get(field) == Some(value))
            && self.min.iter().all(|(field, min)| event.get(field).and_then(Value::as_i64).is_some_and(|v| v >= *min))
    }

    fn count(&self, play: &Play) -> usize {
        play.events().filter(|e| self.matches(play, e)).count()
    }
}

/// Of the player's events of the kinds `among`, the last is of a kind in `is`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Last {
    /// The kinds looked at.
    pub among: Vec<String>,
    /// The kinds the last one must have.
    pub is: Vec<String>,
}

/// An achievement's condition: every clause given must hold (and the game must have given the
/// player a result: see [`award`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The player's outcome is one of these.
    #[serde(default)]
    pub outcome: Option<Vec<String>>,
    /// The number of seats is one of these.
    #[serde(default)]
    pub seats: Option<Vec<usize>>,
    /// Each rule key's value is one of these (`null`: the key is not in the record's rules).
    #[serde(default)]
    pub rules: BTreeMap<String, Vec<Value>>,
    /// A computer opponent played at this level.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Enough events like this happened.
    #[serde(default)]
    pub count: Option<EventMatch>,
    /// No event like this happened.
    #[serde(default)]
    pub none: Option<EventMatch>,
    /// The player made these actions one right after the other.
    #[serde(default)]
    pub in_a_row: Option<Vec<String>>,
    /// The player's last event among some kinds is of given kinds.
    #[serde(default)]
    pub last: Option<Last>,
}

impl Condition {
    /// Whether `play` meets every clause.
    pub fn holds(&self, play: &Play) -> bool {
        self.outcome.as_ref().is_none_or(|o| o.contains(&play.outcome))
            && self.seats.as_ref().is_none_or(|s| s.contains(&play.seats))
            && self.rules.iter().all(|(key, values)| values.contains(play.rules.get(key).unwrap_or(&Value::Null)))
            && self.opponent.as_ref().is_none_or(|level| play.opponents.contains(&Opponent::Computer(level.clone())))
            && self.count.as_ref().is_none_or(|m| m.count(play) >= m.at_least)
            && self.none.as_ref().is_none_or(|m| m.count(play) == 0)
            && self.in_a_row.as_ref().is_none_or(|actions| in_a_row(play, actions))
            && self.last.as_ref().is_none_or(|last| {
                play.events()
                    .filter(|e| play.is_mine(e) && last.among.iter().any(|k| k == kind(e)))
                    .last()
                    .is_some_and(|e| last.is.iter().any(|k| k == kind(e)))
            })
    }
}

/// The event kinds an award of a game of `game` reads: `capture` (the experience for captures)
/// and every kind an achievement of the game names (in `count`, `none` and `last`). A [`Step`]
/// may leave out events of other kinds: [`award`] gives the same for it.
pub fn read_kinds(game: &str) -> Vec<&'static str> {
    let mut kinds = vec!["capture"];
    for achievement in achievements().iter().filter(|a| a.game == game) {
        let when = &achievement.when;
        let named = [&when.count, &when.none].into_iter().flatten().flat_map(|m| m.kind.iter());
        let last = when.last.iter().flat_map(|l| l.among.iter().chain(l.is.iter()));
        kinds.extend(named.chain(last).map(String::as_str));
    }
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// Whether the player made `actions` consecutively somewhere in the record.
fn in_a_row(play: &Play, actions: &[String]) -> bool {
    !actions.is_empty()
        && play.steps.windows(actions.len()).any(|window| {
            window.iter().zip(actions).all(|(step, action)| {
                step.action == *action && step.seat.as_ref().is_some_and(|s| play.mine.contains(s))
            })
        })
}

/// Every achievement, from `achievements.json` (checked by this crate's tests: it parses, ids
/// are unique, every game is known).
pub fn achievements() -> &'static [Achievement] {
    static ALL: OnceLock<Vec<Achievement>> = OnceLock::new();
    ALL.get_or_init(|| serde_json::from_str(include_str!("achievements.json")).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(seat: &str, action: &str, events: Vec<Value>) -> Step {
        Step { seat: Some(seat.to_owned()), action: action.to_owned(), events }
    }

    fn yut(outcome: &str, steps: Vec<Step>) -> Play {
        Play {
            game: "yut".into(),
            rules: json!({}),
            seats: 2,
            mine: vec!["A".into()],
            opponents: vec![Opponent::Computer("hard".into())],
            outcome: outcome.into(),
            resigned: false,
            steps,
        }
    }

    fn capture(seat: &str) -> Value {
        json!({"kind": "capture", "seat": seat, "captured": "B", "unit": [0], "station": 3, "text": "x"})
    }

    #[test]
    fn the_kinds_an_award_reads_are_every_kind_the_achievements_file_names() {
        // Read from the file's own text, not through `Condition`: every string under a `kind`,
        // `among` or `is` key of a game's achievements, and `capture` (the experience).
        fn collect(value: &Value, into: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    for (key, value) in map {
                        match (key.as_str(), value) {
                            ("kind" | "among" | "is", Value::Array(kinds)) => {
                                into.extend(kinds.iter().filter_map(Value::as_str).map(str::to_owned));
                            }
                            _ => collect(value, into),
                        }
                    }
                }
                Value::Array(items) => items.iter().for_each(|v| collect(v, into)),
                _ => {}
            }
        }
        let file: Value = serde_json::from_str(include_str!("achievements.json")).expect("the file parses");
        for game in crate::GAMES {
            let mut named = vec!["capture".to_owned()];
            for achievement in file.as_array().expect("a list").iter().filter(|a| a["game"] == *game) {
                collect(&achievement["when"], &mut named);
            }
            named.sort_unstable();
            named.dedup();
            assert_eq!(read_kinds(game), named, "{game}");
        }
        // Yut's achievements name captures, a finish of four together and the three nak events.
        assert_eq!(read_kinds("yut"), ["capture", "finish", "nak_first", "nak_set", "nak_throw"]);
        // A play without the events of other kinds gets the same award.
        let noise = json!({"kind": "throw", "seat": "A", "throw": "yut", "text": "x"});
        let four = json!({"kind": "finish", "seat": "A", "unit": [0, 1, 2, 3], "count": 4, "text": "x"});
        let full = yut(
            "won",
            vec![
                step("A", "move 0 gae", vec![capture("A"), noise.clone()]),
                step("A", "move 0 yut", vec![four, noise]),
            ],
        );
        assert!(award(&full).achievements.len() >= 2, "{:?}", award(&full));
        let kinds = read_kinds("yut");
        let mut kept = full.clone();
        for step in &mut kept.steps {
            step.events.retain(|e| kinds.contains(&kind(e)));
        }
        assert_eq!(award(&kept), award(&full));
        assert_ne!(kept, full, "the throw events were left out");
    }

    #[test]
    fn the_achievements_file_parses_with_unique_ids_for_known_games_and_at_least_twenty() {
        let all = achievements();
        assert!(all.len() >= 20, "{} achievements", all.len());
        let mut ids: Vec<&str> = all.iter().map(|a| a.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len(), "duplicate ids");
        for a in all {
            assert!(crate::GAMES.contains(&a.game.as_str()), "{}: unknown game {}", a.id, a.game);
            let info = crate::visit(&a.game, &json!({}), None, Info).expect("a game");
            assert!(info, "{}: {} offers no progression", a.id, a.game);
            assert!(!a.name.ko.is_empty() && !a.name.en.is_empty() && !a.about.ko.is_empty());
        }
        for game in ["yut", "ur", "dice-poker"] {
            assert!(all.iter().filter(|a| a.game == game).count() >= 5, "{game}");
        }
    }

    struct Info;
    impl crate::Visitor for Info {
        type Output = bool;
        fn visit<G: crate::Describe>(self, _game: G) -> bool {
            G::info().progression
        }
    }

    #[test]
    fn the_level_table_is_increasing_and_levels_are_read_from_it() {
        assert!(LEVELS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(level(0), Level { level: 1, xp: 0, floor: 0, next: Some(100) });
        assert_eq!(level(99).level, 1);
        assert_eq!(level(100), Level { level: 2, xp: 100, floor: 100, next: Some(250) });
        assert_eq!(level(449), Level { level: 3, xp: 449, floor: 250, next: Some(450) });
        assert_eq!(level(1_000_000), Level { level: 20, xp: 1_000_000, floor: 22_000, next: None });
    }

    #[test]
    fn a_win_against_hard_with_seven_captures_gives_20_30_20_and_15() {
        // Finish 20 + win 30 + strongest opponent hard 20 + captures min(7, 5) * 3 = 15 → 85 XP,
        // 8 coins. The opponent's two captures earn the player nothing.
        let mut steps: Vec<Step> = (0..7).map(|_| step("A", "move 0 gae", vec![capture("A")])).collect();
        steps.push(step("B", "move 0 do", vec![capture("B"), capture("B")]));
        let award = award(&yut("won", steps));
        assert_eq!(
            award.parts,
            [("finish".into(), 20), ("win".into(), 30), ("strength".into(), 20), ("captures".into(), 15)]
        );
        assert_eq!((award.xp, award.coins), (85, 8));
        assert!(award.achievements.contains(&"yut-three-captures".to_owned()));
        assert!(award.achievements.contains(&"yut-beat-hard".to_owned()));
        assert!(award.achievements.contains(&"yut-first-win".to_owned()));
    }

    #[test]
    fn a_loss_gives_the_finish_and_captures_but_no_strength_and_a_draw_ten_more() {
        let lost = award(&yut("lost", vec![step("A", "move 0 gae", vec![capture("A")])]));
        assert_eq!((lost.xp, lost.coins), (23, 2));
        assert!(lost.achievements.is_empty());
        let mut drawn = yut("drawn", vec![]);
        drawn.opponents = vec![Opponent::Person, Opponent::Computer("perfect".into())];
        assert_eq!(award(&drawn).xp, 30);
        drawn.outcome = "won".into();
        // The strongest opponent counts: perfect 30 over a person's 15.
        assert_eq!(award(&drawn).xp, 20 + 30 + 30);
    }

    #[test]
    fn an_abandoned_or_resigned_game_or_one_without_result_gives_nothing() {
        let steps = vec![step("A", "move 0 gae", vec![capture("A")])];
        assert_eq!(award(&yut("no_result", steps.clone())), Award::default());
        let mut resigned = yut("lost", steps.clone());
        resigned.resigned = true;
        assert_eq!(award(&resigned), Award::default());
        // Holding every side: the finish only, no achievement.
        let played = award(&yut("played", steps));
        assert_eq!((played.xp, played.coins, played.achievements.len()), (20, 2, 0));
    }

    #[test]
    fn yut_then_mo_needs_the_two_throws_one_after_the_other_by_the_player() {
        let throws = |list: &[(&str, &str)]| list.iter().map(|(seat, a)| step(seat, a, vec![])).collect::<Vec<_>>();
        let has = |steps| award(&yut("lost", steps)).achievements.contains(&"yut-yut-then-mo".to_owned());
        assert!(has(throws(&[("A", "throw yut"), ("A", "throw mo"), ("A", "throw do")])));
        assert!(!has(throws(&[("A", "throw yut"), ("A", "throw do"), ("A", "throw mo")])));
        assert!(!has(throws(&[("B", "throw yut"), ("B", "throw mo")])));
        assert!(!has(throws(&[("A", "throw mo"), ("A", "throw yut")])));
    }

    #[test]
    fn a_stack_of_four_finishing_and_a_team_win_are_read_from_events_and_rules() {
        let finish = |count: u32| json!({"kind": "finish", "seat": "A1", "unit": [0, 1, 2, 3], "from": 19, "throw": "gae", "count": count});
        let mut play = yut("won", vec![step("A1", "move 0 gae", vec![finish(4)])]);
        play.mine = vec!["A1".into(), "A".into()];
        play.seats = 4;
        play.rules = json!({"mode": "team-shared"});
        let got = award(&play).achievements;
        assert!(got.contains(&"yut-stack-of-four-home".to_owned()));
        assert!(got.contains(&"yut-team-win".to_owned()));
        assert!(!got.contains(&"yut-four-sides-win".to_owned()));
        play.steps = vec![step("A1", "move 0 gae", vec![finish(3)])];
        play.rules = json!({});
        let got = award(&play).achievements;
        assert!(!got.contains(&"yut-stack-of-four-home".to_owned()));
        assert!(!got.contains(&"yut-team-win".to_owned()));
        assert!(got.contains(&"yut-four-sides-win".to_owned()));
    }

    fn ur(outcome: &str, steps: Vec<Step>) -> Play {
        Play { game: "ur".into(), mine: vec!["light".into()], ..yut(outcome, steps) }
    }

    #[test]
    fn urs_untouched_win_fails_once_the_other_side_captures_and_its_first_capture_needs_ones_own() {
        let ur_capture = |seat: &str| json!({"kind": "capture", "seat": seat, "captured": "dark", "tile": 6});
        let clean = award(&ur("won", vec![step("light", "move 0", vec![ur_capture("light")])])).achievements;
        assert!(clean.contains(&"ur-untouched".to_owned()) && clean.contains(&"ur-first-capture".to_owned()));
        let touched = award(&ur("won", vec![step("dark", "move 0", vec![ur_capture("dark")])])).achievements;
        assert!(!touched.contains(&"ur-untouched".to_owned()) && !touched.contains(&"ur-first-capture".to_owned()));
        assert!(touched.contains(&"ur-beat-hard".to_owned()) && !touched.contains(&"ur-beat-normal".to_owned()));
    }

    #[test]
    fn dice_pokers_five_of_a_kind_and_token_placed_last() {
        let place = |seat: &str| json!({"kind": "place", "seat": seat, "cell": 1, "value": 3});
        let token = |seat: &str| json!({"kind": "token", "seat": seat, "cell": 2});
        let hand =
            |seat: &str, hand: &str| json!({"kind": "final_hand", "seat": seat, "hand": hand, "dice": [6, 6, 6, 6, 6]});
        let play = |outcome: &str, steps| Play {
            game: "dice-poker".into(),
            mine: vec!["white".into()],
            opponents: vec![Opponent::Computer("easy".into())],
            ..yut(outcome, steps)
        };
        let steps = vec![
            step("white", "place 1", vec![place("white")]),
            step("white", "token 2", vec![token("white")]),
            step("black", "place 3", vec![place("black"), hand("white", "five of a kind"), hand("black", "straight")]),
        ];
        let won = award(&play("won", steps.clone()));
        assert_eq!(won.achievements, ["dice-poker-first-win", "dice-poker-five-of-a-kind", "dice-poker-token-last"]);
        // Win 20 + 30, an easy opponent adds nothing: 50 XP, 5 coins.
        assert_eq!((won.xp, won.coins), (50, 5));
        let mut reordered = steps;
        reordered.swap(0, 1);
        let lost = award(&play("lost", reordered)).achievements;
        assert_eq!(lost, ["dice-poker-five-of-a-kind"]);
    }
}
