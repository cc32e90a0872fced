//! What a move's message costs to build: a game's state as a room's `events` message carries
//! it (`LiveGame::state_ref`, written to JSON text), for the seat to act (its legal moves
//! annotated), and a game's awards at its end (`LiveGame::awards`, progression). `docs/server.md`
//! ("Room load test") puts them beside the rest of a move's server time.

#![allow(missing_docs)]

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use madang_core::Turn;
use madang_seed::Seed;
use madang_server::game::{ActionRequest, LiveGame, NewGame};
use serde_json::json;

/// The allocator of the `madang` binary, so that the cost measured is the server's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A game of `game` for `seats` seats between a person (`p`, the first seat) and the computer at
/// `easy` (every other seat), played by
/// the person's first legal move each time, until at least `actions` actions are stored and
/// the person is to decide between two moves or more.
fn game_at(game: &str, seats: usize, actions: usize) -> LiveGame {
    played(game, seats, |live| {
        let deciding = matches!(live.core.game.turn(), Turn::Seat(_));
        deciding && live.core.game.legal().len() >= 2 && live.core.game.history().len() >= actions
    })
}

/// A game as [`game_at`] plays it, until `stop` says so or the game ends.
fn played(game: &str, seats: usize, stop: impl Fn(&LiveGame) -> bool) -> LiveGame {
    let mut live = LiveGame::create(NewGame {
        id: "bench".to_owned(),
        owner: "p".to_owned(),
        game: game.to_owned(),
        rules: json!({}),
        players: None,
        seats: Some((0..seats).map(|s| (s > 0).then(|| "easy".to_owned())).collect()),
        seed: Seed([7; 32]),
        now: 0,
    })
    .expect("a game against the computer");
    loop {
        if live.core.ended() || stop(&live) {
            return live;
        }
        let legal = live.core.game.legal();
        let deciding = matches!(live.core.game.turn(), Turn::Seat(_));
        // The person's roll or throw is one word; a decision is the first legal move.
        let action = if deciding { legal[0].clone() } else { live.core.game.awaiting().unwrap_or("roll").to_owned() };
        let request = ActionRequest { action, version: live.version(), seat: None };
        let change = live.play("p", &request, 0).expect("the person's move");
        live.commit(change);
    }
}

fn state_message(c: &mut Criterion) {
    let nicknames: HashMap<String, String> = HashMap::from([("p".to_owned(), "Mina".to_owned())]);
    for (game, seats, actions) in [("ur", 2, 40), ("yut", 2, 30), ("ludo", 4, 40), ("dice-poker", 2, 10)] {
        let live = game_at(game, seats, actions);
        assert!(!live.core.ended(), "{game} ended before the position wanted");
        c.bench_function(&format!("{game}/state_ref_json"), |b| {
            b.iter(|| serde_json::to_string(&black_box(&live).state_ref("p", &nicknames, false)))
        });
    }
}

fn awards(c: &mut Criterion) {
    // The games that offer progression (not Ludo), played to their end.
    for game in ["ur", "yut", "dice-poker"] {
        let live = played(game, 2, |_| false);
        assert!(live.core.ended(), "{game} ended");
        assert!(!live.awards(&live.core, &[]).is_empty(), "{game}: the person gets an award");
        c.bench_function(&format!("{game}/awards_at_end"), |b| b.iter(|| black_box(&live).awards(&live.core, &[])));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = state_message, awards
}
criterion_main!(benches);
