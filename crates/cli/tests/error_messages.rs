//! `madang`'s error messages name each cause once and in a person's terms: an address in use,
//! a file that is not a table, an unreachable PostgreSQL server (reported at once, not after
//! the pool's timeout), a record's malformed `end`.

mod common;

use std::time::{Duration, Instant};

use common::{Run, madang, replay_text, view};

/// No cause is printed twice in a row (`X: X`), the fault of a message that includes its
/// source and also reports it as the error's `source()`.
#[track_caller]
fn assert_each_cause_once(run: &Run) {
    let line = run.stderr.trim();
    let parts: Vec<&str> = line.split(": ").collect();
    for pair in parts.windows(2) {
        assert_ne!(pair[0], pair[1], "{}: a cause repeated: {line}", run.what);
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("madang-cli-errors-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn an_address_in_use_is_named_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = taken.local_addr().expect("its address").to_string();
    let dir = temp_dir("bind");
    let run = madang(&["serve", "--bind", &addr, "--data-dir", dir.to_str().expect("utf-8 path")], "");
    let stderr = run.refused(&[&format!("binding {addr}"), "Address already in use"]);
    assert_eq!(stderr.matches("Address already in use").count(), 1, "{stderr}");
    assert_each_cause_once(&run);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreachable_postgresql_server_is_reported_at_once_with_the_reason() {
    // Port 1 on loopback: nothing listens, the connection is refused.
    let dir = temp_dir("postgres");
    let start = Instant::now();
    let url = "postgres://madang:secret@127.0.0.1:1/madang";
    let run = madang(
        &["serve", "--bind", "127.0.0.1:0", "--data-dir", dir.to_str().expect("utf-8 path"), "--database", url],
        "",
    );
    let stderr =
        run.refused(&["cannot connect to the database postgres://madang@127.0.0.1:1/madang", "Connection refused"]);
    assert!(!stderr.contains("secret"), "the password is not printed: {stderr}");
    assert!(!stderr.contains("pool timed out"), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert_each_cause_once(&run);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_is_not_a_table_is_named_as_such() {
    let dir = temp_dir("table");
    let short = dir.join("short.table");
    std::fs::write(&short, "hello, not a table at all\n").expect("write");
    let run = madang(&["sim", "ur", "--games", "2", "--table", short.to_str().expect("utf-8 path")], "");
    let stderr = run.refused(&["short.table", "not a madang Ur table", "26 bytes", "128-byte header"]);
    assert!(!stderr.contains("failed to fill whole buffer"), "{stderr}");
    assert_each_cause_once(&run);
    // A missing file: the operating system's reason, once.
    let missing = dir.join("missing.table");
    let run = madang(&["sim", "ur", "--games", "2", "--table", missing.to_str().expect("utf-8 path")], "");
    run.refused(&["missing.table"]);
    assert_each_cause_once(&run);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_end_is_described_in_the_records_terms() {
    for end in ["5", "\"resign\"", "[]"] {
        let run = replay_text(&format!(r#"{{"game": "ur", "actions": [], "end": {end}}}"#));
        let stderr =
            run.refused(&["`end`", r#"an object {"reason": "resign" | "draw_agreed" | "abandoned", "by": SEAT}"#]);
        assert!(!stderr.contains("struct"), "{stderr}");
        assert_each_cause_once(&run);
    }
    replay_text(r#"{"game": "ur", "actions": [], "end": {"reason": "resign"}}"#)
        .refused(&["`end`", "missing field `by`"]);
}

#[test]
fn a_record_without_its_actions_is_refused_naming_them() {
    // Only `rules` and `players` may be left out (spec README, "Game records"): a record with no
    // `actions` is not a game that has not begun.
    replay_text(r#"{"game": "ur", "rules": {}}"#).refused(&["missing field `actions`"]);
    assert_eq!(view(serde_json::json!({}), &[])["status"], "ongoing");
}

#[test]
fn a_key_given_twice_is_refused_naming_it() {
    // A repeated field of the record, and a repeated rule option: neither is read as its last
    // value (the server refuses both too).
    replay_text(r#"{"game": "ur", "actions": [], "game": "yut"}"#).refused(&["duplicate field `game`"]);
    replay_text(r#"{"game": "ur", "actions": [], "rules": {"pieces": 3, "pieces": 4}}"#)
        .refused(&["`rules`", r#"duplicate key "pieces""#]);
}

#[test]
fn a_long_action_or_game_name_is_cut_in_the_message() {
    let long = "x".repeat(5000);
    let cut = format!("\"{}…\"", "x".repeat(64));
    let run = replay_text(&format!(r#"{{"game": "ur", "actions": ["roll 2", "{long}"]}}"#));
    let stderr = run.refused(&["action 1", &cut]);
    assert!(stderr.len() < 1000, "{stderr}");
    let run = replay_text(&format!(r#"{{"game": "{long}", "actions": []}}"#));
    let stderr = run.refused(&["unknown game", &cut]);
    assert!(stderr.len() < 1000, "{stderr}");
}
