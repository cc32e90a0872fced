//! `madang ur solve` and the solved table in `madang sim`: the 2-piece Finkel game solved by the
//! real binary, the published figures in its summary, the table found by `sim`, bad flags.

use std::process::{Command, Output};

fn madang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_madang")).args(args).output().expect("madang runs")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("madang-cli-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn solve_writes_the_table_where_sim_finds_it() {
    let dir = temp_dir("solve");
    let data = dir.to_str().expect("utf-8 path");
    let out = madang(&["ur", "solve", "--rules", r#"{"pieces":2}"#, "--data-dir", data, "--threads", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("12990 states") && stdout.contains("start 51.8572907496 %"), "{stdout}");
    assert!(stdout.contains("peak memory") && stdout.contains("sweeps"), "{stdout}");
    assert!(!stdout.contains(", 0 extrapolations)"), "extrapolation is on by default: {stdout}");
    let table = dir.join("ur").join("finkel-2pieces.table");
    assert_eq!(std::fs::metadata(&table).expect("table written").len(), 128 + 2 * 12_990);
    // Plain sweeps reach the same published start value and say they never extrapolated.
    let plain = dir.join("plain.table");
    let plain_arg = plain.to_str().expect("utf-8 path");
    let out = madang(&["ur", "solve", "--rules", r#"{"pieces":2}"#, "--out", plain_arg, "--no-extrapolation"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(", 0 extrapolations)") && stdout.contains("start 51.8572907496 %"), "{stdout}");

    let args = ["sim", "ur", "--rules", r#"{"pieces":2}"#, "--data-dir", data, "--games", "400", "--json"];
    let out = madang(&[&args[..], &["--bots", "perfect,random", "--rotate-seats", "--review"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["by_bot"][0]["name"], "perfect");
    assert_eq!(report["review"][0]["bot"], "perfect");
    assert!(report["by_bot"][0]["win_rate"].as_f64().expect("rate") > 0.7, "{}", report["by_bot"]);
    assert_eq!(report["review"][0]["mean_loss"], 0.0);
    assert!(report["review"][1]["mean_loss"].as_f64().expect("loss") > 0.1);

    // The 3-piece rules have no table here: the message names the file and the command.
    let out = madang(&["sim", "ur", "--rules", r#"{"pieces":3}"#, "--data-dir", data, "--bots", "perfect,random"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("finkel-3pieces.table") && stderr.contains("madang ur solve"), "{stderr}");
    // A table for other rules is refused.
    let other = table.to_str().expect("utf-8 path");
    let out = madang(&["sim", "ur", "--table", other, "--bots", "perfect,random", "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("finkel with 2 pieces"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_a_missing_table_names_writes_it_into_a_new_data_directory() {
    // A first-time user: the data directory does not exist yet.
    let dir = temp_dir("hint");
    let fresh = dir.join("fresh");
    let data = fresh.to_str().expect("utf-8 path");
    let sim =
        ["sim", "ur", "--rules", r#"{"pieces":1}"#, "--data-dir", data, "--bots", "perfect,random", "--games", "20"];
    let out = madang(&sim);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rules = r#"{"preset":"finkel","pieces":1}"#;
    assert!(stderr.contains(&format!("`madang ur solve --rules '{rules}' --data-dir {data}`")), "{stderr}");
    // That command, run as printed, writes the table where the sim then finds it.
    let solved = madang(&["ur", "solve", "--rules", rules, "--data-dir", data]);
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let out = madang(&sim);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_exit_with_status_2() {
    for args in [
        &["ur", "solve", "--rules", r#"{"pieces":9}"#][..],
        &["ur", "solve", "--rules", "not json"],
        &["ur", "solve", "--tolerance", "0"],
        &["ur", "solve", "--tolerance", "abc"],
        &["ur", "solve", "--value-type", "f64"],
        &["ur", "solve", "--threads", "0", "--rules", r#"{"pieces":1}"#, "--out", "/nonexistent-dir/x/y.table"],
        &["sim", "yut", "--review"],
        // A folder as --out is refused before the solve, not after it.
        &["ur", "solve", "--rules", r#"{"pieces":7}"#, "--out", "/tmp"],
    ] {
        let out = madang(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stderr.is_empty());
    }
    // The file name suggested for a folder given as --out is the table's name for those rules,
    // as `madang serve` and `madang sim` look for it.
    let dir = temp_dir("solve-out-dir");
    for (rules, name) in [(r#"{"preset":"blitz"}"#, "blitz.table"), (r#"{"pieces":3}"#, "finkel-3pieces.table")] {
        let out = madang(&["ur", "solve", "--rules", rules, "--out", dir.to_str().expect("utf-8 path")]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let suggested = dir.join(name);
        assert!(stderr.contains(&format!("name the table file, e.g. {}", suggested.display())), "{rules}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad flags are refused before anything is created on disk, with a message naming the flag
/// and the value.
#[test]
fn bad_flags_create_nothing_and_say_what_is_wrong() {
    let dir = temp_dir("solve-bad-flags");
    let missing = dir.join("missing");
    let missing_out = missing.join("x.table");
    let data = dir.join("data");
    let cases: [(Vec<&str>, &str); 6] = [
        // A mistyped --out folder is an error, not a new directory tree.
        (vec!["--out", missing_out.to_str().expect("utf-8 path")], "no directory"),
        (vec!["--threads", "0", "--data-dir", data.to_str().expect("utf-8 path")], "--threads must be at least 1"),
        // Negative numbers reach the checks that name them (not "unexpected argument '-1'").
        (vec!["--tolerance", "-1e-13"], "expected a number from 1e-14 to 1e-6"),
        (vec!["--move-cache-mib", "-1"], "--move-cache-mib"),
        // Below what f64 sweeps settle to: a solve that would never end is refused at once.
        (vec!["--tolerance", "2e-16"], "is below 1e-14"),
        // So loose that the table would mislead (0.5 stopped a 2-piece solve at 50 %).
        (vec!["--tolerance", "0.5"], "is above 1e-6"),
    ];
    for (flags, message) in cases {
        let args = [&["ur", "solve", "--rules", r#"{"pieces":1}"#][..], &flags].concat();
        let out = madang(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(message), "{flags:?}: {stderr}");
        assert!(!missing.exists() && !data.exists(), "{flags:?} created a folder");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
