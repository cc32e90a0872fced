//! Stopping a run through `SimConfig::cancel` (the web lab's cancel button): a run whose flag is
//! set plays no further game and returns `SimError::Cancelled`; a flag left unset changes
//! nothing.

#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use madang_core::Game;
use madang_sim::{SimConfig, SimError, simulate};
use madang_ur::Ur;

fn config(games: u64, cancel: &Arc<AtomicBool>) -> SimConfig {
    SimConfig {
        games,
        seed: 3,
        bots: vec!["random".to_owned(); 2],
        cancel: Some(cancel.clone()),
        ..SimConfig::default()
    }
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap()
}

#[test]
fn a_run_cancelled_before_it_starts_plays_no_game() {
    let game = Ur::new(&Default::default(), None).unwrap();
    let cancel = Arc::new(AtomicBool::new(true));
    let played = AtomicU64::new(0);
    let result = simulate(&game, &config(100, &cancel), &|n| {
        played.fetch_add(n, Ordering::Relaxed);
    });
    assert_eq!(result.err(), Some(SimError::Cancelled));
    assert_eq!(played.load(Ordering::Relaxed), 0);
}

#[test]
fn a_run_cancelled_after_its_first_game_stops_there() {
    // On one thread the games play in order; progress comes after each game, and the flag set
    // when the first reports stops the run before the second (not at the end of a chunk).
    let game = Ur::new(&Default::default(), None).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let played = AtomicU64::new(0);
    let calls = AtomicU64::new(0);
    let result = one_thread().install(|| {
        simulate(&game, &config(1000, &cancel), &|n| {
            played.fetch_add(n, Ordering::Relaxed);
            calls.fetch_add(1, Ordering::Relaxed);
            cancel.store(true, Ordering::Relaxed);
        })
    });
    assert_eq!(result.err(), Some(SimError::Cancelled));
    assert_eq!((played.load(Ordering::Relaxed), calls.load(Ordering::Relaxed)), (1, 1));
}

#[test]
fn progress_counts_every_game_once() {
    let game = Ur::new(&Default::default(), None).unwrap();
    let played = AtomicU64::new(0);
    let report = simulate(&game, &config(300, &Arc::new(AtomicBool::new(false))), &|n| {
        played.fetch_add(n, Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!((report.games, played.load(Ordering::Relaxed)), (300, 300));
}

#[test]
fn an_unset_flag_changes_nothing() {
    let game = Ur::new(&Default::default(), None).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let with_flag = simulate(&game, &config(300, &cancel), &|_| {}).unwrap();
    let without = simulate(&game, &SimConfig { cancel: None, ..config(300, &cancel) }, &|_| {}).unwrap();
    assert_eq!(with_flag.games, 300);
    assert_eq!(with_flag.totals, without.totals);
}
