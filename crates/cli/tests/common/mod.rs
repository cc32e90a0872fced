//! Helpers shared by the CLI tests: run the real `madang` binary and read its output.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// What one run of the binary gave.
pub struct Run {
    /// What was run, for failure messages.
    pub what: String,
    /// The exit status (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Asserts exit status 0 and parses standard output as one JSON object.
    #[track_caller]
    pub fn view(&self) -> Value {
        assert_eq!(self.code, Some(0), "{}: expected success, stderr: {}", self.what, self.stderr);
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{}: stdout is not JSON ({e}): {}", self.what, self.stdout))
    }

    /// Asserts exit status 2 (bad input), no panic, nothing on standard output, and that
    /// standard error contains every one of `needles`. Returns standard error.
    #[track_caller]
    pub fn refused(&self, needles: &[&str]) -> &str {
        assert_eq!(
            self.code,
            Some(2),
            "{}: expected exit status 2, stdout: {} stderr: {}",
            self.what,
            self.stdout,
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}: the binary panicked: {}", self.what, self.stderr);
        assert!(self.stdout.trim().is_empty(), "{}: printed a view for a bad record: {}", self.what, self.stdout);
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "{}: stderr {:?} does not mention {needle:?}",
                self.what,
                self.stderr
            );
        }
        &self.stderr
    }
}

/// Runs `madang ARGS…` with `stdin` as standard input.
pub fn madang(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_madang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the madang binary starts");
    child.stdin.take().expect("stdin is piped").write_all(stdin.as_bytes()).expect("writing the record to stdin");
    let output = child.wait_with_output().expect("the madang binary runs");
    Run {
        what: format!("madang {} <<< {stdin}", args.join(" ")),
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `madang replay -` with `text` on standard input.
pub fn replay_text(text: &str) -> Run {
    madang(&["replay", "-"], text)
}

/// `madang replay -` of an Ur record with these rules and actions.
pub fn replay(rules: Value, actions: &[&str]) -> Run {
    replay_text(&json!({ "game": "ur", "rules": rules, "actions": actions }).to_string())
}

/// The view after replaying an Ur record that must replay without error.
#[track_caller]
pub fn view(rules: Value, actions: &[&str]) -> Value {
    replay(rules, actions).view()
}

/// The path of a record file under `tests/records/`.
pub fn record_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("records").join(name)
}

/// `madang replay FILE` of a record under `tests/records/`.
pub fn replay_file(name: &str) -> Run {
    let path = record_path(name);
    madang(&["replay", path.to_str().expect("a UTF-8 path")], "")
}

/// The record file under `tests/records/`, parsed.
pub fn load_record(name: &str) -> Value {
    let text = std::fs::read_to_string(record_path(name)).expect("the record file exists");
    serde_json::from_str(&text).expect("the record file is JSON")
}

/// `legal` at a decision node, as a set of strings (consumers compare them as sets).
#[track_caller]
pub fn legal(view: &Value) -> BTreeSet<String> {
    view["legal"]
        .as_array()
        .expect("`legal` is a list")
        .iter()
        .map(|a| a.as_str().expect("a decision node lists action strings").to_owned())
        .collect()
}

/// A set of action strings.
pub fn set(actions: &[&str]) -> BTreeSet<String> {
    actions.iter().map(|a| (*a).to_owned()).collect()
}

/// `legal` at a chance node, as a set of `(action, weight)`.
#[track_caller]
pub fn chance(view: &Value) -> BTreeSet<(String, u64)> {
    assert_eq!(view["to_move"], "chance", "not a chance node: {view}");
    view["legal"]
        .as_array()
        .expect("`legal` is a list")
        .iter()
        .map(|o| {
            let action = o["action"].as_str().expect("an outcome has an `action` string").to_owned();
            let weight = o["weight"].as_u64().expect("an outcome has an integer `weight`");
            (action, weight)
        })
        .collect()
}

/// A set of `(action, weight)`.
pub fn weights(outcomes: &[(&str, u64)]) -> BTreeSet<(String, u64)> {
    outcomes.iter().map(|(a, w)| ((*a).to_owned(), *w)).collect()
}

/// `pieces.SEAT` as a list of path squares.
#[track_caller]
pub fn pieces(view: &Value, seat: &str) -> Vec<u64> {
    view["pieces"][seat]
        .as_array()
        .unwrap_or_else(|| panic!("no `pieces.{seat}` list in {view}"))
        .iter()
        .map(|p| p.as_u64().expect("a path square is a number"))
        .collect()
}

/// The `events` list as typed objects (spec `README.md`, "events"): each has a string `kind`,
/// its fields, and `text`, the English line (last).
#[track_caller]
pub fn event_objects(view: &Value) -> Vec<serde_json::Map<String, Value>> {
    view["events"]
        .as_array()
        .expect("`events` is a list")
        .iter()
        .map(|e| {
            let object = e.as_object().unwrap_or_else(|| panic!("an event is an object: {e}")).clone();
            assert!(object.get("kind").is_some_and(Value::is_string), "an event has a `kind`: {e}");
            assert!(object.get("text").is_some_and(Value::is_string), "an event has a `text`: {e}");
            object
        })
        .collect()
}

/// The `events` list's English lines (`text`).
#[track_caller]
pub fn events(view: &Value) -> Vec<String> {
    event_objects(view).iter().map(|e| e["text"].as_str().unwrap_or_default().to_owned()).collect()
}

/// The events of kind `kind`, without their `text`.
#[track_caller]
pub fn events_of(view: &Value, kind: &str) -> Vec<Value> {
    event_objects(view)
        .into_iter()
        .filter(|e| e["kind"] == kind)
        .map(|mut e| {
            e.remove("text");
            Value::Object(e)
        })
        .collect()
}

/// How many events mention `needle`.
pub fn count_events(view: &Value, needle: &str) -> usize {
    events(view).iter().filter(|e| e.contains(needle)).count()
}

/// `prefix` followed by `more`.
pub fn then<'a>(prefix: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut all = prefix.to_vec();
    all.extend_from_slice(more);
    all
}
