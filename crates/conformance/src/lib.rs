//! The conformance test kit (spec `README.md`, "Shared engine model"): one set of checks that
//! every game's tests run.
//!
//! [`check_random_playouts`] plays seeded random games (chance outcomes drawn with their
//! weights from the `chance` stream, moves uniformly from the `bot:SEAT` streams) and checks at
//! every node:
//!
//! - decision nodes: legal actions non-empty, sorted strictly ascending (so unique), and the
//!   turn's seat exists and is the mover ([`madang_core::Game::mover`]);
//! - chance nodes: outcomes non-empty, sorted strictly ascending, every weight positive, total
//!   weight within `u64`; [`madang_core::Game::chance_outcomes_in`] gives the same list (at
//!   every node), and so does [`madang_core::Game::chance_table`] when the node has one, whose
//!   total is the weights' sum, whose look-up gives step 5's outcome on each side of every
//!   cumulative weight, and whose draw ([`madang_seed::draw_chance`]) is [`draw_weighted`]'s
//!   outcome after reading the same words; the thrower ([`madang_core::Game::thrower`]), when there is one, is a
//!   seat, and it is the mover whenever there is a mover (a turn's roll is the mover's own);
//! - decision and terminal nodes have no thrower;
//! - terminal nodes: no legal action, no chance outcome, an outcome present, no mover;
//! - every action's notation parses back to the same action, and notations are distinct;
//! - every event serializes to an object of a declared kind ([`madang_core::Game::EVENT_KINDS`])
//!   with exactly that kind's fields;
//! - a clone equals the original, and the state survives a serde JSON round trip;
//! - at sampled nodes, every action seen earlier in the game that is not legal now is refused
//!   with an error and leaves the state unchanged;
//! - at sampled nodes and at the end of every game, replaying the history from the initial state
//!   rebuilds the same state;
//! - the game ends within the stated maximum number of actions.
//!
//! Panics (it is test code) with a message naming the seed, the game index and the history.

use std::collections::BTreeSet;
use std::fmt::Debug;

use madang_core::{Game, Turn, Weight};
use madang_seed::{CHANCE, Seed, Stream, bot_stream_name, draw_chance, draw_weighted, sim_game_seed, uniform_below};

/// How many games to play and how hard to look.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutConfig {
    /// Number of games.
    pub games: u64,
    /// `madang sim`-style seed: game `i` uses `sim_game_seed(seed, i)`.
    pub seed: u64,
    /// A game longer than this many actions (chance outcomes included) fails the check.
    pub max_actions: usize,
    /// Every `sample_every`-th node also gets the replay-rebuild and illegal-action checks.
    pub sample_every: usize,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig { games: 1000, seed: 0, max_actions: 10_000, sample_every: 97 }
    }
}

/// Summary of a playout run, for tests that want to assert coverage (for example that some
/// game reached a capture).
#[derive(Clone, Debug, Default)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Nodes visited (states checked).
    pub nodes: u64,
    /// Longest game, in actions.
    pub longest: usize,
    /// Games won by each seat (index), from `Outcome::Winner`.
    pub wins: Vec<u64>,
    /// Events seen by `kind`, with counts.
    pub event_kinds: std::collections::BTreeMap<String, u64>,
}

fn fail<G: Game>(game_index: u64, history: &[G::Action], what: impl Debug) -> ! {
    let notation: Vec<String> = history.iter().map(ToString::to_string).collect();
    panic!("{} conformance failure in game {game_index}: {what:?}\nhistory: {notation:?}", G::NAME)
}

fn check_sorted_unique<G: Game>(game_index: u64, history: &[G::Action], actions: &[G::Action]) {
    if actions.windows(2).any(|w| w[0] >= w[1]) {
        fail::<G>(game_index, history, format!("actions not sorted and unique: {actions:?}"));
    }
    let mut notations = BTreeSet::new();
    for &action in actions {
        let text = action.to_string();
        match text.parse::<G::Action>() {
            Ok(parsed) if parsed == action => {}
            other => fail::<G>(game_index, history, format!("notation {text:?} parses to {other:?}, not {action:?}")),
        }
        if !notations.insert(text.clone()) {
            fail::<G>(game_index, history, format!("two actions print as {text:?}"));
        }
    }
}

/// Replays `history` from the initial state, failing the test if any action is refused.
pub fn replay<G: Game>(game: &G, history: &[G::Action]) -> G::State {
    let mut state = game.initial_state();
    for (i, &action) in history.iter().enumerate() {
        if let Err(e) = game.apply(&mut state, action, &mut ()) {
            panic!("{} replay refused action {i} {action}: {e}", G::NAME);
        }
    }
    state
}

/// Plays `config.games` seeded random games of `game` and checks every node (see the crate docs).
pub fn check_random_playouts<G: Game>(game: &G, config: PlayoutConfig) -> PlayoutStats {
    let seats = game.seat_names();
    let mut stats = PlayoutStats { wins: vec![0; seats.len()], ..PlayoutStats::default() };
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut scratch = Vec::new();
    let mut events = Vec::new();
    for game_index in 0..config.games {
        let seed: Seed = sim_game_seed(config.seed, game_index);
        let mut chance = seed.stream(CHANCE);
        let mut bots: Vec<_> = seats.iter().map(|s| seed.stream(&bot_stream_name(s))).collect();
        let mut state = game.initial_state();
        let mut history: Vec<G::Action> = Vec::new();
        let mut seen: BTreeSet<G::Action> = BTreeSet::new();
        loop {
            stats.nodes += 1;
            let node = history.len();
            check_node_basics(game, game_index, &history, &state);
            game.chance_outcomes(&state, &mut outcomes);
            if game.chance_outcomes_in(&state, &mut scratch) != outcomes.as_slice() {
                fail::<G>(game_index, &history, "chance_outcomes_in differs from chance_outcomes");
            }
            game.legal_actions(&state, &mut legal);
            let sampled = node % config.sample_every == config.sample_every / 2;
            if sampled {
                check_replay_rebuilds(game, game_index, &history, &state);
                check_unlisted_actions_refused(game, game_index, &history, &state, &seen, &legal, &outcomes);
            }
            let action = match game.turn(&state) {
                Turn::Terminal => {
                    if !legal.is_empty() || !outcomes.is_empty() || game.outcome(&state).is_none() {
                        fail::<G>(game_index, &history, "terminal node with actions or without an outcome");
                    }
                    if game.awaiting(&state).is_some() || game.mover(&state).is_some() || game.thrower(&state).is_some()
                    {
                        fail::<G>(
                            game_index,
                            &history,
                            "terminal node still awaiting an action, or with a mover or thrower",
                        );
                    }
                    if let Some(madang_core::Outcome::Winner(w)) = game.outcome(&state) {
                        stats.wins[w] += 1;
                    }
                    break;
                }
                Turn::Chance => {
                    if outcomes.is_empty() || !legal.is_empty() {
                        fail::<G>(game_index, &history, "chance node without outcomes, or with legal moves");
                    }
                    let (thrower, mover) = (game.thrower(&state), game.mover(&state));
                    if thrower.is_some_and(|t| t >= seats.len()) || (mover.is_some() && thrower != mover) {
                        fail::<G>(
                            game_index,
                            &history,
                            format!("chance node thrown by {thrower:?} with mover {mover:?}"),
                        );
                    }
                    let actions: Vec<G::Action> = outcomes.iter().map(|(a, _)| *a).collect();
                    check_sorted_unique::<G>(game_index, &history, &actions);
                    let total = outcomes.iter().try_fold(0u64, |sum, (_, w)| sum.checked_add(*w));
                    if outcomes.iter().any(|(_, w)| *w == 0) || total.is_none() {
                        fail::<G>(game_index, &history, format!("bad chance weights {outcomes:?}"));
                    }
                    let by_table = check_chance_table(game, game_index, &history, &state, &outcomes, &chance);
                    let action = match draw_weighted(&mut chance, outcomes.iter().map(|(_, w)| *w)) {
                        Some(i) => outcomes[i].0,
                        None => fail::<G>(game_index, &history, "weights cannot be drawn"),
                    };
                    if let Some((drawn, after)) = by_table
                        && (drawn != action || after != chance)
                    {
                        fail::<G>(
                            game_index,
                            &history,
                            format!(
                                "the chance table drew {drawn} where the weights draw {action}, or read other words"
                            ),
                        );
                    }
                    action
                }
                Turn::Seat(seat) => {
                    if game.thrower(&state).is_some() {
                        fail::<G>(game_index, &history, "a decision node has a thrower");
                    }
                    if game.mover(&state) != Some(seat) {
                        fail::<G>(
                            game_index,
                            &history,
                            format!("seat {seat} decides but the mover is {:?}", game.mover(&state)),
                        );
                    }
                    if seat >= seats.len() || legal.is_empty() || !outcomes.is_empty() {
                        fail::<G>(
                            game_index,
                            &history,
                            format!("decision node for seat {seat} with {} legal actions", legal.len()),
                        );
                    }
                    check_sorted_unique::<G>(game_index, &history, &legal);
                    legal[uniform_below(&mut bots[seat], legal.len() as u32) as usize]
                }
            };
            events.clear();
            let before = state.clone();
            if let Err(e) = game.apply(&mut state, action, &mut events) {
                fail::<G>(game_index, &history, format!("listed action {action} refused: {e}"));
            }
            if state == before && events.is_empty() {
                fail::<G>(game_index, &history, format!("action {action} changed nothing and reported nothing"));
            }
            for event in &events {
                let kind = check_event::<G>(game_index, &history, event);
                *stats.event_kinds.entry(kind).or_default() += 1;
            }
            seen.insert(action);
            history.push(action);
            if history.len() > config.max_actions {
                fail::<G>(game_index, &history, format!("game longer than {} actions", config.max_actions));
            }
        }
        check_replay_rebuilds(game, game_index, &history, &state);
        stats.longest = stats.longest.max(history.len());
        stats.games += 1;
    }
    stats
}

/// An event serializes to an object whose `kind` is one of [`Game::EVENT_KINDS`] and whose other
/// keys are exactly that kind's fields, in order; its `Display` text is not empty. Returns the kind.
fn check_event<G: Game>(game_index: u64, history: &[G::Action], event: &G::Event) -> String {
    let value = match serde_json::to_value(event) {
        Ok(serde_json::Value::Object(map)) => map,
        other => fail::<G>(game_index, history, format!("event {event:?} does not serialize to an object: {other:?}")),
    };
    let kind = value.get("kind").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
    let Some(declared) = G::EVENT_KINDS.iter().find(|k| k.kind == kind) else {
        fail::<G>(game_index, history, format!("event {event:?} has the undeclared kind {kind:?}"))
    };
    let fields: Vec<&str> = value.keys().map(String::as_str).filter(|k| *k != "kind").collect();
    if fields != declared.fields {
        fail::<G>(game_index, history, format!("event {kind} has fields {fields:?}, declared {:?}", declared.fields));
    }
    if event.to_string().is_empty() {
        fail::<G>(game_index, history, format!("event {kind} has no text"));
    }
    kind
}

/// Checks the node's [`Game::chance_table`] against its outcome list (step 5 of
/// `docs/randomness.md` worked out on the list itself) and returns its draw from a copy of
/// `chance` with the copy after it, for the caller to compare with [`draw_weighted`]'s.
fn check_chance_table<G: Game>(
    game: &G,
    game_index: u64,
    history: &[G::Action],
    state: &G::State,
    outcomes: &[(G::Action, Weight)],
    chance: &Stream,
) -> Option<(G::Action, Stream)> {
    let table = game.chance_table(state)?;
    if table.outcomes() != outcomes {
        fail::<G>(game_index, history, format!("chance table {:?} differs from the outcomes", table.outcomes()));
    }
    let total = outcomes.iter().map(|(_, w)| *w).sum::<Weight>();
    if table.total() != Some(total) {
        fail::<G>(
            game_index,
            history,
            format!("chance table total {:?}, the weights add up to {total}", table.total()),
        );
    }
    // Outcome i is drawn by every u from its cumulative weight before it up to one below its own.
    let mut below = 0;
    for (i, (_, w)) in outcomes.iter().enumerate() {
        for u in [below, below + w - 1] {
            if table.pick(u) != i {
                fail::<G>(
                    game_index,
                    history,
                    format!("chance table picks {} for the draw {u}, not {i}", table.pick(u)),
                );
            }
        }
        below += w;
    }
    let mut copy = chance.clone();
    let drawn = draw_chance(game, state, &mut Vec::new(), &mut copy)
        .unwrap_or_else(|| fail::<G>(game_index, history, "the chance table cannot be drawn from"));
    Some((drawn, copy))
}

fn check_node_basics<G: Game>(game: &G, game_index: u64, history: &[G::Action], state: &G::State) {
    let copy = state.clone();
    if &copy != state {
        fail::<G>(game_index, history, "clone differs from original");
    }
    let json = match serde_json::to_string(state) {
        Ok(json) => json,
        Err(e) => fail::<G>(game_index, history, format!("state does not serialize: {e}")),
    };
    match serde_json::from_str::<G::State>(&json) {
        Ok(back) if &back == state => {}
        other => fail::<G>(game_index, history, format!("serde round trip gave {other:?}")),
    }
    let awaiting = game.awaiting(state);
    if (game.turn(state) == Turn::Terminal) != awaiting.is_none() {
        fail::<G>(game_index, history, "awaiting disagrees with turn");
    }
}

fn check_replay_rebuilds<G: Game>(game: &G, game_index: u64, history: &[G::Action], state: &G::State) {
    let rebuilt = replay(game, history);
    if &rebuilt != state {
        fail::<G>(game_index, history, format!("replay rebuilt {rebuilt:?}, not {state:?}"));
    }
}

fn check_unlisted_actions_refused<G: Game>(
    game: &G,
    game_index: u64,
    history: &[G::Action],
    state: &G::State,
    seen: &BTreeSet<G::Action>,
    legal: &[G::Action],
    outcomes: &[(G::Action, madang_core::Weight)],
) {
    for &action in seen {
        let canonical = game.canonical(state, action);
        if legal.contains(&canonical) || outcomes.iter().any(|(a, _)| *a == action) {
            continue;
        }
        let mut copy = state.clone();
        if game.apply(&mut copy, action, &mut ()).is_ok() {
            fail::<G>(game_index, history, format!("unlisted action {action} was accepted"));
        }
        if &copy != state {
            fail::<G>(game_index, history, format!("refused action {action} changed the state"));
        }
    }
}

/// One step of a random-action property test: an arbitrary action (usually illegal), or the
/// `i`-th listed action (legal move or chance outcome, modulo the list's length).
#[derive(Clone, Copy, Debug)]
pub enum Step<A> {
    /// Exactly this action.
    Arbitrary(A),
    /// The listed action at this index (modulo the number listed).
    Listed(u8),
}

/// Applies one [`Step`] to `state` and checks the engine model's promises about it: `apply`
/// succeeds exactly when the action is listed (as a legal move, in its canonical spelling, or
/// as a chance outcome), a success reports at least one event, and a refusal names a reason and
/// leaves the state unchanged. At a terminal node a `Listed` step tries `fallback`.
///
/// # Errors
/// A description of the broken promise, for `proptest`'s `TestCaseError::fail`.
pub fn check_step<G: Game>(
    game: &G,
    state: &mut G::State,
    step: Step<G::Action>,
    fallback: G::Action,
) -> Result<(), String> {
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    game.legal_actions(state, &mut legal);
    game.chance_outcomes(state, &mut outcomes);
    let turn = game.turn(state);
    let action = match (step, turn) {
        (Step::Arbitrary(action), _) => action,
        (Step::Listed(i), Turn::Seat(_)) if !legal.is_empty() => legal[usize::from(i) % legal.len()],
        (Step::Listed(i), Turn::Chance) if !outcomes.is_empty() => outcomes[usize::from(i) % outcomes.len()].0,
        (Step::Listed(_), _) => fallback,
    };
    let listed = match turn {
        Turn::Seat(_) => legal.contains(&game.canonical(state, action)),
        Turn::Chance => outcomes.iter().any(|(a, w)| *a == action && *w > 0),
        Turn::Terminal => false,
    };
    let before = state.clone();
    let mut events = Vec::new();
    match game.apply(state, action, &mut events) {
        Ok(()) if !listed => Err(format!("{action} was applied but is not listed at {before:?}")),
        Ok(()) if events.is_empty() => Err(format!("{action} caused no event")),
        Ok(()) => Ok(()),
        Err(error) if listed => Err(format!("{action} is listed but refused at {before:?}: {error}")),
        Err(error) if *state != before => Err(format!("{action} was refused ({error}) but changed the state")),
        Err(error) if error.to_string().is_empty() => Err(format!("{action} was refused without a reason")),
        Err(_) => Ok(()),
    }
}
