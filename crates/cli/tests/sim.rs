//! `madang sim`: determinism across thread counts, the report's shape, and bad input.

use std::process::{Command, Output};

use serde_json::{Value, json};

fn madang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_madang")).args(args).output().expect("madang runs")
}

fn report(args: &[&str]) -> Value {
    let out = madang(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

#[test]
fn statistics_are_identical_whatever_the_thread_count() {
    let args = ["sim", "ur", "--games", "600", "--seed", "9", "--bots", "greedy,random", "--rotate-seats", "--json"];
    let mut one = report(&[&args[..], &["--threads", "1"]].concat());
    let mut two = report(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one["timing"]["threads"], 1);
    assert_eq!(two["timing"]["threads"], 2);
    one.as_object_mut().map(|o| o.remove("timing"));
    two.as_object_mut().map(|o| o.remove("timing"));
    assert_eq!(serde_json::to_string(&one).ok(), serde_json::to_string(&two).ok());
}

#[test]
fn report_counts_add_up_and_rotation_gives_every_bot_every_seat() {
    let r = report(&["sim", "ur", "--games", "100", "--bots", "greedy,random", "--rotate-seats", "--json"]);
    assert_eq!(r["games"], 100);
    let seat_wins: u64 = r["by_seat"].as_array().expect("seats").iter().map(|s| s["wins"].as_u64().unwrap_or(0)).sum();
    assert_eq!(seat_wins, 100, "every Ur game has one winner");
    for bot in r["by_bot"].as_array().expect("bots") {
        // 100 games, 2 seats, rotated: each bot plays 100 seat-games.
        assert_eq!(bot["games"], 100);
    }
    assert_eq!(r["by_position"][0]["name"], "first");
    assert!(r["length"]["mean"].as_f64().unwrap_or(0.0) > 0.0);
}

#[test]
fn text_report_names_seats_bots_and_timing() {
    let out = madang(&["sim", "ur", "--games", "50", "--bots", "random*2"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in ["by seat", "light", "dark", "by bot", "random", "95% CI", "games/s", "length (rolls)"] {
        assert!(text.contains(needle), "{needle:?} missing from\n{text}");
    }
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "ur", "--bots", "random"], "lists 1 bot but the game has 2 seats"),
        (
            &["sim", "yut", "--bots", "hard,easy*3"],
            "lists 4 bots but the game has 2 seats (A, B); use NAME*N for repeats, or --players N",
        ),
        (&["sim", "ur", "--threads", "100000"], "--threads must be at most 1024, got 100000"),
        (&["sim", "ur", "--bots", "random,wizard"], "unknown bot \"wizard\""),
        (&["sim", "ur", "--bots", "random,expectimax:0"], "depth must be"),
        // One bot, one name: numbers as the notation writes them.
        (
            &["sim", "ur", "--bots", "random,expectimax:03"],
            "depth must be an integer from 1 to 8, without sign or leading zeros",
        ),
        (&["sim", "ur", "--bots", "random,expectimax:+3"], "without sign or leading zeros"),
        (&["sim", "dice-poker", "--bots", "random,adaptive:0100"], "from 1 to 100000, without sign or leading zeros"),
        (&["sim", "dice-poker", "--bots", "random,adaptive:+5"], "without sign or leading zeros"),
        (&["sim", "ur", "--bots", "random*x"], "bad repeat count"),
        (&["sim", "ur", "--rules", "{\"pieces\":9}"], "pieces"),
        (&["sim", "ur", "--rules", "{\"bogus\":1}"], "bogus"),
        (&["sim", "ur", "--rules", "not json"], "--rules is not JSON"),
        // The seat count is a flag, not a rule option.
        (&["sim", "ur", "--players", "3"], "bad player count: the Royal Game of Ur is for 2 players, got 3"),
        (&["sim", "ludo", "--players", "2"], "bad player count: Ludo is always played by 4 players, got 2"),
        (&["sim", "ur", "--players", "-1"], "--players must be a whole number of seats such as 2 or 4"),
        (&["sim", "ur", "--players", "three"], "got \"three\""),
        (&["sim", "ur", "--players", "02"], "without sign or leading zeros, got \"02\""),
        (&["sim", "ur", "--players", "+2"], "without sign or leading zeros"),
        (&["lab", "search", "ur", "--players", "-4"], "--players must be a whole number of seats"),
        // The lab's numbers as the simulator's: a negative one reaches the check.
        (
            &["lab", "search", "ur", "--bots", "random*2", "--options", "pieces", "--alpha", "-0.1"],
            "--alpha is the chance of dropping the most balanced rule set: a number greater than 0 and less than 1 (e.g. 0.05), got -0.1",
        ),
        (
            &["lab", "search", "ur", "--max-games", "-5"],
            "--max-games <MAX_GAMES>': expected a whole number of 1 or more, got -5",
        ),
        (&["lab", "search", "ur", "--batch", "-1"], "--batch <BATCH>': expected a whole number of 1 or more, got -1"),
        (
            &["lab", "search", "ur", "--max-games", "0"],
            "--max-games <MAX_GAMES>': expected a whole number of 1 or more, got 0",
        ),
        (
            &["lab", "search", "ur", "--bots", "random*2", "--options", "pieces", "--alpha", "1"],
            "a number greater than 0 and less than 1 (e.g. 0.05), got 1",
        ),
        (&["lab", "search", "ur", "--seed", "-2"], "--seed <SEED>': expected a whole number of 0 or more, got -2"),
        (&["sim", "chess"], "unknown game \"chess\""),
        (&["sim", "ur", "--games", "0"], "--games <GAMES>': expected a whole number of 1 or more, got 0"),
        (&["sim", "ur", "--threads", "0"], "--threads must be at least 1"),
        // A negative count reaches the check (not clap's "unexpected argument '-1'").
        (&["sim", "ur", "--threads", "-1"], "--threads must be at least 1, got -1"),
        (
            &["sim", "ur", "--games", "-1"],
            "invalid value '-1' for '--games <GAMES>': expected a whole number of 1 or more, got -1",
        ),
        (&["sim", "ur", "--seed", "-5"], "--seed <SEED>': expected a whole number of 0 or more, got -5"),
        (&["sim", "ur", "--analyse", "-1"], "--analyse <N>': expected a whole number of 0 or more, got -1"),
        // 2^64 is one more than a seed holds.
        (&["sim", "ur", "--seed", "18446744073709551616"], "expected a whole number from 0 to 18446744073709551615"),
        // A count too large names the same lower bound as a count too small.
        (&["sim", "ur", "--games", "99999999999999999999"], "expected a whole number from 1 to 18446744073709551615"),
        (&["sim", "ur", "--games", "many"], "got \"many\""),
        (&["sim", "ur", "--threads", "two"], "expected a whole number of threads from 1 to 1024, got \"two\""),
    ];
    for (args, needle) in cases {
        let out = madang(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {needle:?} not in {stderr:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
}

/// The report without its timing, as text.
fn without_timing(mut report: Value) -> String {
    report.as_object_mut().map(|o| o.remove("timing"));
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

/// A run's shards, each written to a file: their paths.
fn shards(dir: &std::path::Path, args: &[&str], n: u64) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let out = madang(&[args, &["--shard", &format!("{k}/{n}"), "--json"]].concat());
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let path = dir.join(format!("shard-{k}-of-{n}.json"));
            std::fs::write(&path, &out.stdout).expect("shard written");
            path.display().to_string()
        })
        .collect()
}

#[test]
fn merged_shards_are_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().expect("temporary directory");
    // Dice Poker has figures (hand frequencies, means); Ur with greedy and random, rotated, has
    // bots on every seat. 1,000 games: shards of 333/334 games do not fall on the 256-game chunks.
    let runs: [&[&str]; 2] = [
        &["sim", "dice-poker", "--games", "1000", "--seed", "5", "--bots", "greedy,random", "--rotate-seats"],
        &["sim", "ur", "--games", "1000", "--seed", "11", "--bots", "greedy,random"],
    ];
    for args in runs {
        let whole = report(&[args, &["--json"]].concat());
        assert!(whole.get("shard").is_none());
        let files = shards(dir.path(), args, 3);
        // Each shard holds its range: ⌊(K − 1) · 1000 / 3⌋ .. ⌊K · 1000 / 3⌋.
        let first: Value =
            serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap_or_default()).unwrap_or_default();
        assert_eq!(
            (first["games"].as_u64(), first["shard"]["from"].as_u64(), first["shard"]["to"].as_u64()),
            (Some(333), Some(0), Some(333))
        );
        // In any order.
        let merged = report(&["sim", "merge", &files[2], &files[0], &files[1], "--json"]);
        assert_eq!(without_timing(merged), without_timing(whole), "{args:?}");
    }
}

#[test]
fn bad_shards_and_merges_exit_2_naming_the_problem() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let args: &[&str] = &["sim", "ur", "--games", "100", "--seed", "3"];
    let files = shards(dir.path(), args, 2);
    let other = shards(
        &{
            let d = dir.path().join("other");
            std::fs::create_dir_all(&d).expect("dir");
            d
        },
        &["sim", "ur", "--games", "100", "--seed", "4"],
        2,
    );
    let whole = dir.path().join("whole.json");
    std::fs::write(&whole, madang(&[args, &["--json"]].concat()).stdout).expect("written");
    let not_json = dir.path().join("not.json");
    std::fs::write(&not_json, "hello").expect("written");
    let whole = whole.display().to_string();
    let not_json = not_json.display().to_string();
    // Shard 1/2 (50 games) edited by hand: counts its games cannot have, or past 64 bits.
    let shard: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap_or_default()).unwrap_or_default();
    let edits: [(&str, &str, Value); 5] = [
        ("wins", "/totals/by_seat/0/wins", json!(51)),
        ("wins-max", "/totals/by_seat/0/wins", json!(u64::MAX)),
        ("seat-games", "/totals/by_seat/1/games", json!(49)),
        ("sides", "/totals/sides", json!(0)),
        ("draws", "/totals/draws", json!(u64::MAX)),
    ];
    let mut edited = Vec::new();
    for (name, pointer, value) in edits {
        let mut copy = shard.clone();
        *copy.pointer_mut(pointer).unwrap_or_else(|| panic!("{pointer} in a shard's report")) = value;
        let path = dir.path().join(format!("edited-{name}.json"));
        std::fs::write(&path, copy.to_string()).expect("written");
        edited.push(path.display().to_string());
    }
    let mut lengths = shard.clone();
    if let Some(Value::Object(map)) = lengths.pointer_mut("/totals/lengths") {
        map.values_mut().take(2).for_each(|n| *n = json!(u64::MAX));
    }
    let lengths_file = dir.path().join("edited-lengths.json");
    std::fs::write(&lengths_file, lengths.to_string()).expect("written");
    edited.push(lengths_file.display().to_string());
    let mut cases: Vec<(Vec<&str>, &str)> =
        edited.iter().map(|file| (vec!["sim", "merge", file.as_str(), &files[1]], "totals do not add up")).collect();
    cases.extend(vec![
        (vec!["sim", "ur", "--games", "10", "--shard", "0/2"], "--shard 0/2"),
        (vec!["sim", "ur", "--games", "10", "--shard", "3/2"], "1 ≤ K ≤ N"),
        (vec!["sim", "ur", "--games", "10", "--shard", "2/20"], "the number of games (10)"),
        (vec!["sim", "ur", "--games", "10", "--shard", "half"], "--shard takes K/N"),
        (vec!["sim", "merge", &files[0]], "missing shard(s) 2/2"),
        (vec!["sim", "merge", &files[0], &files[0]], "given twice"),
        (vec!["sim", "merge", &files[0], &other[1]], "another run"),
        (vec!["sim", "merge", &whole], "whole run, not a shard"),
        (vec!["sim", "merge", &not_json], "is not a `madang sim --shard K/N --json` report"),
        (vec!["sim", "merge", "/nonexistent/shard.json"], "/nonexistent/shard.json"),
    ]);
    for (args, needle) in cases {
        let out = madang(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {needle:?} not in {stderr:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed a report");
    }
}

#[test]
fn the_html_report_is_one_self_contained_page_in_the_chosen_language() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (lang, heading, position) in [("ko", "자리별 승률", "첫째"), ("en", "Win rate by seat", "first")] {
        let path = dir.path().join(format!("ur-{lang}.html"));
        let path_text = path.display().to_string();
        let out = madang(&[
            "sim",
            "ur",
            "--games",
            "300",
            "--seed",
            "2",
            "--bots",
            "greedy,random",
            "--report",
            &path_text,
            "--lang",
            lang,
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let page = std::fs::read_to_string(&path).expect("report written");
        assert!(page.starts_with("<!doctype html>") && page.contains(&format!("<html lang=\"{lang}\">")));
        assert!(page.contains("<meta charset=\"utf-8\">") && page.contains("name=\"viewport\""));
        // Nothing from elsewhere: no script, no link, no address.
        for banned in ["<script", "<link", "http://", "https://", "url("] {
            assert!(!page.contains(banned), "{banned} in the {lang} report");
        }
        // The command that plays it again, the headings, the positions in the language, and charts:
        // win rates by seat, position and bot, and the length histogram.
        assert!(page.contains("madang sim ur --games 300 --seed 2 --bots greedy,random"), "{page}");
        assert!(page.contains(heading) && page.contains(position));
        assert!(page.matches("<svg").count() >= 4);
    }
    let path = dir.path().join("bad.html").display().to_string();
    let out = madang(&["sim", "ur", "--games", "10", "--report", &path, "--lang", "fr"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--lang takes ko or en, got \"fr\""));
    assert!(!std::path::Path::new(&path).exists(), "nothing written for a bad --lang");
}

#[test]
fn a_shards_text_report_says_which_games_it_holds() {
    let out = madang(&["sim", "ur", "--games", "10", "--shard", "2/2"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // Games ⌊10/2⌋ = 5 to 9.
    assert!(
        text.starts_with("ur: 5 games, seed 0, bots random,random (shard 2/2 of a run of 10 games: games 5-9)"),
        "{text}"
    );
}

/// The report without what differs between two rule sets of one comparison: its rules and timing.
fn statistics(mut report: Value) -> String {
    report.as_object_mut().map(|o| {
        o.remove("timing");
        o.remove("rules")
    });
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

#[test]
fn compared_rule_sets_play_the_same_seeds() {
    let args = ["sim", "dice-poker", "--games", "400", "--seed", "4", "--bots", "greedy,random"];
    // The default rules written two ways are the same game: every figure equal, no difference.
    let same = report(&[&args[..], &["--compare", "{}", r#"{"tokens":false}"#, "--json"]].concat());
    assert_eq!(statistics(same["reports"][0].clone()), statistics(same["reports"][1].clone()));
    let d = &same["differences"][0];
    assert_eq!(d["index"], 1);
    assert_eq!((d["first_mover"]["difference"].as_f64(), d["first_mover"]["p_value"].as_f64()), (Some(0.0), Some(1.0)));
    assert_eq!((d["by_position"]["statistic"].as_f64(), d["by_position"]["p_value"].as_f64()), (Some(0.0), Some(1.0)));
    // Each rule set's report is the run of those rules on its own.
    let compared = report(&[&args[..], &["--compare", "{}", r#"{"tokens":true}"#, "--json"]].concat());
    let tokens = report(&[&args[..], &["--rules", r#"{"tokens":true}"#, "--json"]].concat());
    assert_eq!(without_timing(compared["reports"][1].clone()), without_timing(tokens.clone()));
    // The test's proportions are the reports' first movers' win rates.
    let first = &compared["differences"][0]["first_mover"];
    assert_eq!(first["first"], compared["reports"][0]["by_position"][0]["win_rate"]);
    assert_eq!(first["second"], tokens["by_position"][0]["win_rate"]);
    let p = first["p_value"].as_f64().unwrap_or(-1.0);
    assert!((0.0..=1.0).contains(&p));
}

#[test]
fn a_comparison_in_text_and_html() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("compare.html").display().to_string();
    let out = madang(&[
        "sim",
        "dice-poker",
        "--games",
        "200",
        "--bots",
        "greedy*2",
        "--compare",
        "{}",
        r#"{"tokens":true}"#,
        "--report",
        &path,
        "--lang",
        "ko",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in
        ["[1] {}", "[2] {\"tokens\":true}", "win rate by seat", "first mover", "chi-square", "hands_by_position.first"]
    {
        assert!(text.contains(needle), "{needle:?} missing from\n{text}");
    }
    let page = std::fs::read_to_string(&path).expect("report written");
    for banned in ["<script", "<link", "http://", "https://", "url("] {
        assert!(!page.contains(banned), "{banned} in the comparison");
    }
    assert!(page.contains("규칙 비교") && page.contains("--compare '{}' '{&quot;tokens&quot;:true}'"), "{page}");
    // Grouped bars: two series (classes s0 and s1) in the win-rate charts.
    assert!(page.contains(r#"class="s1""#) && page.matches("<svg").count() >= 5);
}

#[test]
fn bad_comparisons_exit_2_naming_the_problem() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "dice-poker", "--compare", "{}"], "--compare"),
        (&["sim", "dice-poker", "--compare", "{}", "nope"], "rule set 2 is not JSON"),
        (&["sim", "dice-poker", "--compare", "{}", r#"{"tokens":3}"#], "tokens"),
        (&["sim", "dice-poker", "--compare", "{}", "{}", "--rules", "{}"], "--rules"),
        (&["sim", "dice-poker", "--compare", "{}", "{}", "--shard", "1/2"], "--shard"),
        (
            &["sim", "yut", "--games", "50", "--players", "4", "--compare", "{}", r#"{"mode":"team-shared"}"#],
            "rule set 2 seats A1, B1, A2, B2 but rule set 1 seats A, B, C, D",
        ),
        (&["sim", "dice-poker", "--games", "5", "--analyse", "6"], "--analyse 6 is more than --games 5"),
        (
            &["sim", "dice-poker", "--report", "/nonexistent-madang/x.html"],
            "the directory /nonexistent-madang does not exist",
        ),
    ];
    for (args, needle) in cases {
        let out = madang(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {needle:?} missing from {stderr}");
    }
}

#[test]
fn with_perfect_play_on_both_sides_the_dice_explain_everything() {
    // A 2-piece Ur table (seconds to solve); both sides play perfectly, so no decision loses
    // anything: C = gains − loss = 0 for every side, and the dice's share of Var(R) is exactly 1.
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().display().to_string();
    let out = madang(&["ur", "solve", "--rules", r#"{"pieces":2}"#, "--data-dir", &data, "--threads", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let args = ["sim", "ur", "--rules", r#"{"pieces":2}"#, "--data-dir", &data, "--games", "40", "--seed", "3"];
    let r = report(&[&args[..], &["--bots", "perfect*2", "--analyse", "40", "--json"]].concat());
    let a = &r["quality"]["analysis"];
    assert_eq!((a["games"].as_u64(), a["exact"].as_bool()), (Some(40), Some(true)));
    assert!(a["mean_loss"].as_f64().unwrap_or(1.0).abs() < 1e-6, "{a}");
    assert!((a["dice_share"].as_f64().unwrap_or(0.0) - 1.0).abs() < 1e-6, "{a}");
    assert!(a["choices_share"].as_f64().unwrap_or(1.0).abs() < 1e-6, "{a}");
    // Ur has one winner in every game.
    assert_eq!(a["decided"].as_u64(), Some(40));
    // Against a random player the choices explain some of it, and the shares still add up to 1.
    let r = report(&[&args[..], &["--bots", "perfect,random", "--analyse", "40", "--json"]].concat());
    let a = &r["quality"]["analysis"];
    let (dice, choices) = (a["dice_share"].as_f64().unwrap_or(0.0), a["choices_share"].as_f64().unwrap_or(0.0));
    assert!(choices > 0.0 && (dice + choices - 1.0).abs() < 1e-6, "{a}");
    assert!(a["mean_loss"].as_f64().unwrap_or(0.0) > 0.0);
    let behind = a["behind_share"].as_f64().unwrap_or(-1.0);
    assert!((0.0..=1.0).contains(&behind));
    // Merged shards review the same games: 40 games in 3 shards.
    let files = shards(dir.path(), &[&args[..], &["--bots", "perfect,random", "--analyse", "40"]].concat(), 3);
    let merged = report(&["sim", "merge", &files[0], &files[1], &files[2], "--json"]);
    assert_eq!(without_timing(merged), without_timing(r));
}

#[test]
fn a_run_without_reviews_has_balance_drawishness_and_branching() {
    // Seven Dice Poker without tokens: 14 placements, on 16, 15, …, 3 empty cells, in every
    // game (docs/dice-poker.md: `place C` for every empty cell): (16 + … + 3) / 14 = 133 / 14.
    let r = report(&["sim", "dice-poker", "--games", "200", "--bots", "random*2", "--json"]);
    let q = &r["quality"];
    let rates: Vec<f64> =
        r["by_position"].as_array().expect("positions").iter().filter_map(|p| p["win_rate"].as_f64()).collect();
    assert!((q["balance"].as_f64().unwrap_or(0.0) - (1.0 - (rates[0] - rates[1]).abs())).abs() < 1e-12);
    let draws = r["draws"].as_f64().unwrap_or(0.0);
    assert!((q["drawishness"].as_f64().unwrap_or(-1.0) - draws / 200.0).abs() < 1e-12);
    assert!((q["branching_factor"].as_f64().unwrap_or(0.0) - 9.5).abs() < 1e-12, "{q}");
    assert!(q["analysis"].is_null());
}

#[test]
fn in_a_team_game_a_fair_share_is_one_per_team() {
    // Yut team-shared with 4 players: two teams, so the first mover's fair share is 1/2, not 1/4.
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("team.html").display().to_string();
    let args =
        ["sim", "yut", "--games", "300", "--seed", "2", "--players", "4", "--rules", r#"{"mode":"team-shared"}"#];
    let r = report(&[&args[..], &["--json", "--report", &path]].concat());
    assert_eq!(r["totals"]["sides"], 2);
    let first = r["by_position"][0]["win_rate"].as_f64().unwrap_or(0.0);
    let page = std::fs::read_to_string(&path).expect("report written");
    let edge = format!("<strong>{:+.2}%p</strong>", 100.0 * (first - 0.5));
    assert!(page.contains(&edge), "{edge} missing");
}

/// The text report counts in words that agree with the number: one game is "1 game", and a
/// shard of a one-game run says so.
#[test]
fn one_game_is_counted_as_one() {
    let out = madang(&["sim", "ur", "--games", "1", "--threads", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("ur: 1 game, seed"), "{text}");
    let out = madang(&["sim", "ur", "--games", "2", "--shard", "1/2", "--threads", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("ur: 1 game, seed"), "{text}");
    assert!(text.contains("of a run of 2 games: games 0-0)"), "{text}");
}
