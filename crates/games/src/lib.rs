//! Every madang game behind one interface that knows nothing of any game's rules.
//!
//! - [`Record`]: a game record (spec `README.md`, "Game records"), parsed with errors that name
//!   the problem.
//! - [`open`]: builds a [`Match`] (a game's rules, state and history) for a record's game and
//!   rules; [`replay`] applies a record's actions and gives the [`View`] that `madang replay`
//!   prints.
//! - [`verify`]: checks a record's chance actions against its revealed seed.
//!
//! Adding a game means one arm in [`visit`] and nothing else here. This crate does no I/O.

mod describe;
#[cfg(feature = "fixture")]
pub mod fixture;
pub mod progression;
mod record;
mod skins;
mod view;

pub use describe::{Describe, Ending, GameInfo, PlayMode, Players};
pub use madang_analysis::{Grade, MoveReview, Precision, Review};
pub use record::{End, EndReason, Record, RecordError, strict_value};
pub use skins::{SideSkin, Skin, SkinChange, SkinChoice, SkinError, Skins};
pub use view::{ChanceOption, View};

/// An event as `madang replay`, the server and its clients show it: the game's typed event
/// serialized (`kind` and its fields, [`madang_core::Game::Event`]) followed by `text`, its
/// English line (spec `README.md`, "events"). Kept as JSON text, written once per event and
/// copied into every message as it is; a clone shares the text (a state shows the latest
/// turn's events with every message).
#[derive(Clone, Debug)]
pub struct Event(std::sync::Arc<serde_json::value::RawValue>);

impl Event {
    /// The JSON of `event` with its `text`.
    pub fn of<E: serde::Serialize + std::fmt::Display>(event: &E) -> Event {
        let mut json = serde_json::to_string(event).unwrap_or_default();
        // A typed event is a JSON object with at least its `kind`: `text` goes before its end.
        if json.len() > 2 && json.ends_with('}') {
            json.pop();
            json.push(',');
        } else {
            json = "{".to_owned();
        }
        json.push_str("\"text\":");
        json.push_str(&serde_json::to_string(&event.to_string()).unwrap_or_else(|_| "\"\"".to_owned()));
        json.push('}');
        match serde_json::value::RawValue::from_string(json) {
            Ok(raw) => Event(raw.into()),
            Err(_) => Event(serde_json::value::RawValue::from_string("{}".to_owned()).unwrap_or_default().into()),
        }
    }

    /// The event's JSON text.
    pub fn json(&self) -> &str {
        self.0.get()
    }

    /// The event as a JSON value (for programs that look into it).
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(self.0.get()).unwrap_or_default()
    }

    /// Its `kind`.
    pub fn kind(&self) -> String {
        self.kind_text().into_owned()
    }

    /// Whether its `kind` is one of `kinds`; reads the kind alone, without building the
    /// event's value.
    pub fn has_kind(&self, kinds: &[&str]) -> bool {
        let kind = self.kind_text();
        kinds.contains(&kind.as_ref())
    }

    /// Its `kind` borrowed from the text where the text has it unescaped (empty when it has none).
    fn kind_text(&self) -> std::borrow::Cow<'_, str> {
        // An engine's typed event is written with its tag first (`Event::of`).
        let text = self.0.get();
        if let Some(rest) = text.strip_prefix(r#"{"kind":""#)
            && let Some(end) = rest.find('"')
            && !rest[..end].contains('\\')
        {
            return std::borrow::Cow::Borrowed(&rest[..end]);
        }
        #[derive(serde::Deserialize)]
        struct Kind<'a> {
            #[serde(borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        serde_json::from_str::<Kind<'_>>(text).map(|k| k.kind).unwrap_or_default()
    }

    /// Its English line, `text`.
    pub fn text(&self) -> String {
        self.value()["text"].as_str().unwrap_or_default().to_owned()
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        self.0.get() == other.0.get()
    }
}

impl serde::Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

use madang_bots::{BotError, Roster};
use madang_core::{Game, Outcome, Turn};
use madang_seed::{CHANCE, Seed, Stream, draw_chance};
use serde_json::{Value, json};

/// The names of the games this build knows, as written in records.
#[cfg(not(feature = "fixture"))]
pub const GAMES: &[&str] = &["yut", "ur", "ludo", "dice-poker"];

/// The names of the games this build knows, with the test fixture's made-up fifth game.
#[cfg(feature = "fixture")]
pub const GAMES: &[&str] = &["yut", "ur", "ludo", "dice-poker", "coin"];

/// An action a [`Match`] refused: which one and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("action {index} {:?}: {reason}", madang_core::echo(.text))]
pub struct ActionError {
    /// 0-based index of the action in the game's history.
    pub index: usize,
    /// The action as given.
    pub text: String,
    /// Why it was refused (a notation error or the game's rule error).
    pub reason: String,
}

/// One game in progress or finished, of any kind: rules, state and the history of actions.
pub trait Match: Send + Sync {
    /// The game's name (`"ur"`, …).
    fn game(&self) -> &'static str;
    /// Seat names in turn order.
    fn seat_names(&self) -> Vec<String>;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// The seat whose turn it is, chance nodes included ([`madang_core::Game::mover`]).
    fn mover(&self) -> Option<usize>;
    /// At a chance node, the seat that throws it ([`madang_core::Game::thrower`]).
    fn thrower(&self) -> Option<usize>;
    /// The kind of the next action (`"roll"`, `"move"`, `"throw"`, …; [`madang_core::Game::awaiting`]).
    fn awaiting(&self) -> Option<&'static str>;
    /// The history in notation.
    fn history(&self) -> Vec<String>;
    /// Parses and applies one action; returns the events it caused.
    ///
    /// # Errors
    /// An [`ActionError`] naming the action's index and why it is refused; nothing changes.
    fn apply(&mut self, text: &str) -> Result<Vec<Event>, ActionError>;
    /// At a chance node, draws an outcome from `stream` (spec "Seeds and random streams") and
    /// returns its notation; `None` elsewhere.
    fn draw_chance(&self, stream: &mut Stream) -> Option<String>;
    /// Legal actions in notation at a decision node (empty elsewhere).
    fn legal(&self) -> Vec<String>;
    /// The outcome when finished by the rules.
    fn outcome(&self) -> Option<Outcome>;
    /// The `madang replay` view, with `events` as given.
    fn view(&self, events: Vec<Event>, end: Option<&End>) -> View;
    /// The action the bot called `bot` picks at a decision node, drawing from `stream`
    /// (`None` at a chance or terminal node).
    ///
    /// # Errors
    /// [`BotError`] for a name the game does not know.
    fn bot_action(&self, bot: &str, stream: &mut Stream) -> Result<Option<String>, BotError>;
    /// The first seat's winning chance at the current position under perfect play, where the
    /// game has a solved table for its rules loaded (Ur); `None` otherwise.
    fn win_chance(&self) -> Option<f64>;
    /// Whether this game's winning chances are exact here (a solved table is loaded for its
    /// rules: Ur) rather than estimated.
    fn exact_chances(&self) -> bool;
    /// The game so far reviewed (`madang_analysis::review`): exact with a solved table, else
    /// estimated to `precision`; `progress(done, total)` after each action. `None` when the
    /// history does not replay (it always does for a match).
    fn review(&self, precision: Precision, progress: &mut dyn FnMut(usize, usize)) -> Option<Review>;
    /// The events the best move of each decision of `review` that gave something away would
    /// have caused (the history up to it, then the best move instead of the one played), by
    /// the decision's index in the history: what a page puts in words. Decisions whose best
    /// move does not apply are left out (never expected).
    fn best_move_events(&self, review: &Review) -> Vec<(usize, Vec<Event>)>;
}

/// The concrete [`Match`] for one game type.
#[derive(Clone, Debug)]
pub struct GameMatch<G: Game> {
    /// The rules in force.
    pub game: G,
    /// The current position.
    pub state: G::State,
    /// Every action applied so far.
    pub history: Vec<G::Action>,
}

impl<G: Game> GameMatch<G> {
    /// A new game at its initial position.
    pub fn new(game: G) -> Self {
        let state = game.initial_state();
        GameMatch { game, state, history: Vec::new() }
    }
}

impl<G: Roster> Match for GameMatch<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn seat_names(&self) -> Vec<String> {
        self.game.seat_names()
    }

    fn turn(&self) -> Turn {
        self.game.turn(&self.state)
    }

    fn mover(&self) -> Option<usize> {
        self.game.mover(&self.state)
    }

    fn thrower(&self) -> Option<usize> {
        self.game.thrower(&self.state)
    }

    fn awaiting(&self) -> Option<&'static str> {
        self.game.awaiting(&self.state)
    }

    fn history(&self) -> Vec<String> {
        self.history.iter().map(ToString::to_string).collect()
    }

    fn apply(&mut self, text: &str) -> Result<Vec<Event>, ActionError> {
        let error = |reason: String| ActionError { index: self.history.len(), text: text.to_owned(), reason };
        let action: G::Action = text.parse().map_err(|e: madang_core::NotationError| error(e.reason))?;
        let mut events = Vec::new();
        self.game.apply(&mut self.state, action, &mut events).map_err(|e| error(e.to_string()))?;
        self.history.push(action);
        Ok(events.iter().map(Event::of).collect())
    }

    fn draw_chance(&self, stream: &mut Stream) -> Option<String> {
        draw_chance(&self.game, &self.state, &mut Vec::new(), stream).map(|action| action.to_string())
    }

    fn legal(&self) -> Vec<String> {
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        legal.iter().map(ToString::to_string).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    fn view(&self, events: Vec<Event>, end: Option<&End>) -> View {
        view::build(&self.game, &self.state, events, end)
    }

    fn bot_action(&self, bot: &str, stream: &mut Stream) -> Result<Option<String>, BotError> {
        let mut bot = self.game.bot(bot)?;
        let Turn::Seat(_) = self.game.turn(&self.state) else { return Ok(None) };
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        Ok(Some(bot.choose(&self.game, &self.state, &legal, stream).to_string()))
    }

    fn win_chance(&self) -> Option<f64> {
        self.game.win_chance(&self.state)
    }

    fn exact_chances(&self) -> bool {
        madang_analysis::Exact::available(&self.game)
    }

    fn best_move_events(&self, review: &Review) -> Vec<(usize, Vec<Event>)> {
        let mut wanted = review.moves.iter().filter(|m| m.loss > 0.0 && m.best != m.action).peekable();
        let mut state = self.game.initial_state();
        let mut found = Vec::new();
        let mut events = Vec::new();
        for (index, action) in self.history.iter().enumerate() {
            while let Some(m) = wanted.next_if(|m| m.index <= index) {
                if m.index != index {
                    continue;
                }
                let (Ok(best), mut other) = (m.best.parse::<G::Action>(), state.clone()) else { continue };
                events.clear();
                if self.game.apply(&mut other, best, &mut events).is_ok() {
                    found.push((index, events.iter().map(Event::of).collect()));
                }
            }
            if self.game.apply_quiet(&mut state, *action).is_err() {
                break;
            }
        }
        found
    }

    fn review(&self, precision: Precision, progress: &mut dyn FnMut(usize, usize)) -> Option<Review> {
        if self.exact_chances() {
            madang_analysis::review(&self.game, &self.history, &madang_analysis::Exact, precision, progress)
        } else {
            let playouts = madang_analysis::Playouts::new::<G>();
            madang_analysis::review(&self.game, &self.history, &playouts, precision, progress)
        }
    }
}

/// The random streams of one seeded game: chance outcomes from `chance`, each seat's bot from
/// `bot:SEAT` (spec "Seeds and random streams").
pub struct SeededStreams {
    /// The game's seed.
    pub seed: Seed,
    /// The `chance` stream.
    pub chance: Stream,
    /// One `bot:SEAT` stream per seat, in seat order.
    pub bots: Vec<Stream>,
}

impl SeededStreams {
    /// The streams of `seed` for a game with these seats.
    pub fn new(seed: Seed, seat_names: &[String]) -> Self {
        SeededStreams {
            seed,
            chance: seed.stream(CHANCE),
            bots: seat_names.iter().map(|s| seed.stream(&madang_seed::bot_stream_name(s))).collect(),
        }
    }

    /// Plays `game` until it ends or a seat without a bot (`None`) is to move: chance from the
    /// chance stream, seat `s` by the bot named `bots[s]`. Returns the events.
    ///
    /// # Errors
    /// [`BotError`] for an unknown bot name.
    pub fn advance(&mut self, game: &mut dyn Match, bots: &[Option<String>]) -> Result<Vec<Event>, BotError> {
        let mut events = Vec::new();
        loop {
            let action = match game.turn() {
                Turn::Terminal => break,
                Turn::Chance => game.draw_chance(&mut self.chance),
                Turn::Seat(seat) => match bots.get(seat).and_then(Option::as_ref) {
                    Some(bot) => game.bot_action(bot, &mut self.bots[seat])?,
                    None => break,
                },
            };
            let Some(action) = action else { break };
            match game.apply(&action) {
                Ok(more) => events.extend(more),
                Err(_) => break,
            }
        }
        Ok(events)
    }
}

/// Builds the rules of `game` from a record's `rules` object and `players`, and returns a new
/// match at the initial position.
///
/// # Errors
/// An unknown game, an unknown rule key or a bad value, each named.
pub fn open(game: &str, rules: &Value, players: Option<usize>) -> Result<Box<dyn Match>, RecordError> {
    struct Open;
    impl Visitor for Open {
        type Output = Box<dyn Match>;
        fn visit<G: Describe>(self, game: G) -> Box<dyn Match> {
            Box::new(GameMatch::new(game))
        }
    }
    visit(game, rules, players, Open)
}

/// Code that works on any game, given as its concrete type: [`visit`] calls it with the game a
/// record names.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Called with the rules of the named game.
    fn visit<G: Describe>(self, game: G) -> Self::Output;
}

/// Builds the game named `game` from `rules` and `players` and hands it to `visitor`. This is
/// the one place that lists the games.
///
/// # Errors
/// An unknown game, an unknown rule key or a bad value, each named.
pub fn visit<V: Visitor>(
    game: &str,
    rules: &Value,
    players: Option<usize>,
    visitor: V,
) -> Result<V::Output, RecordError> {
    match game {
        "ur" => Ok(visitor.visit(build::<madang_ur::Ur>(rules, players)?)),
        "yut" => Ok(visitor.visit(build::<madang_yut::Yut>(rules, players)?)),
        "ludo" => Ok(visitor.visit(build::<madang_ludo::Ludo>(rules, players)?)),
        "dice-poker" => Ok(visitor.visit(build::<madang_dice_poker::DicePoker>(rules, players)?)),
        #[cfg(feature = "fixture")]
        "coin" => Ok(visitor.visit(build::<fixture::Coin>(rules, players)?)),
        other => Err(RecordError::UnknownGame(other.to_owned())),
    }
}

/// The endings a person may choose in `game` (its declaration's [`GameInfo::endings`]; empty
/// for an unknown game).
pub fn endings(game: &str) -> Vec<Ending> {
    struct Endings;
    impl Visitor for Endings {
        type Output = Vec<Ending>;
        fn visit<G: Describe>(self, _game: G) -> Vec<Ending> {
            G::info().endings
        }
    }
    visit(game, &Value::Object(serde_json::Map::new()), None, Endings).unwrap_or_default()
}

/// Every kind of event each game reports, game by game in [`GAMES`] order
/// ([`madang_core::Game::EVENT_KINDS`]; `madang events --json`).
pub fn event_kinds() -> Vec<(&'static str, &'static [madang_core::EventKind])> {
    struct Kinds;
    impl Visitor for Kinds {
        type Output = &'static [madang_core::EventKind];
        fn visit<G: Describe>(self, _game: G) -> Self::Output {
            G::EVENT_KINDS
        }
    }
    GAMES
        .iter()
        .filter_map(|&game| visit(game, &Value::Object(serde_json::Map::new()), None, Kinds).ok().map(|k| (game, k)))
        .collect()
}

/// Parses `rules` as `G::Options` and builds the game.
///
/// # Errors
/// [`RecordError::Rules`] naming the key and what is wrong, or [`RecordError::Players`] for a
/// seat count the game does not allow.
pub fn build<G: Game>(rules: &Value, players: Option<usize>) -> Result<G, RecordError> {
    G::new(&options::<G>(rules)?, players).map_err(|e| {
        if e.key == "players" { RecordError::Players(e.reason) } else { RecordError::Rules(e.to_string()) }
    })
}

/// Parses `rules` as `G::Options`.
///
/// # Errors
/// [`RecordError::Rules`] naming the key and what is wrong.
pub fn options<G: Game>(rules: &Value) -> Result<G::Options, RecordError> {
    if !rules.is_object() {
        return Err(RecordError::Rules(format!(
            "`rules` must be a JSON object, got {}",
            madang_core::echo(&rules.to_string())
        )));
    }
    if let Some(path) = null_at(rules, String::new()) {
        // An option's default is had by leaving it out: `null` would be a second spelling of it.
        return Err(RecordError::Rules(format!(
            "rule option `{}`: null is not a value; leave the option out for its default",
            madang_core::echo(&path)
        )));
    }
    serde_path_to_error::deserialize(rules).map_err(|e| {
        let path = e.path().to_string();
        RecordError::Rules(madang_core::field_error("rule option ", &path, &e.into_inner().to_string()))
    })
}

/// The path (`a.b`, `a[2]`) of the first `null` inside `value`, if any.
fn null_at(value: &Value, path: String) -> Option<String> {
    match value {
        Value::Null => Some(path),
        Value::Object(map) => map
            .iter()
            .find_map(|(key, v)| null_at(v, if path.is_empty() { key.clone() } else { format!("{path}.{key}") })),
        Value::Array(list) => list.iter().enumerate().find_map(|(i, v)| null_at(v, format!("{path}[{i}]"))),
        _ => None,
    }
}

/// Applies every action of `record`, returning the match and the events in order.
///
/// # Errors
/// A malformed record ([`RecordError`]) or the first refused action ([`RecordError::Action`]).
pub fn play_record(record: &Record) -> Result<(Box<dyn Match>, Vec<Event>), RecordError> {
    let mut game = open(&record.game, &record.rules, record.players)?;
    check_end_named(game.as_ref(), record)?;
    let mut events = Vec::new();
    for text in &record.actions {
        events.extend(game.apply(text)?);
    }
    check_end_in_play(game.as_ref(), record.end.as_ref())?;
    Ok((game, events))
}

/// Checks that a record's `end` (if any) names one of the game's seats and one of its endings
/// ([`End::check`]).
fn check_end_named(game: &dyn Match, record: &Record) -> Result<(), RecordError> {
    match &record.end {
        Some(end) => end.check(&game.seat_names(), &endings(&record.game)),
        None => Ok(()),
    }
}

/// Checks that a record's `end` (if any) ends a game still in play once its actions are
/// applied: a game the rules have finished cannot then be resigned, drawn or left (the server
/// refuses it, `game_over`), and its result is the rules'.
///
/// # Errors
/// [`RecordError::Malformed`] naming `end`.
pub fn check_end_in_play(game: &dyn Match, end: Option<&End>) -> Result<(), RecordError> {
    if end.is_some() && game.outcome().is_some() {
        return Err(RecordError::Malformed(
            "`end`: the game was already over by its rules after these actions; a resignation, an agreed draw \
             or leaving ends only a game in play"
                .to_owned(),
        ));
    }
    Ok(())
}

/// A review as the web API (`GET /api/games/{id}/review`, `POST /api/review`) and `madang
/// review --json` give it (docs/api.md, "Review"): `{"status": "done", "id", "game", "rules",
/// "version", "review", "best_moves"}`, where `best_moves` has, for each decision that gave
/// something away with another best move, `{"index", "seat", "action", "events"}`: the best
/// move in notation and the events it would have caused, so a page puts it in words as it does
/// the moves played.
pub fn review_document(game: &dyn Match, rules: &Value, id: Option<&str>, version: u64, review: &Review) -> Value {
    let best_moves: Vec<Value> = game
        .best_move_events(review)
        .into_iter()
        .filter_map(|(index, events)| {
            let m = review.moves.iter().find(|m| m.index == index)?;
            Some(json!({"index": index, "seat": m.seat, "action": m.best, "events": events}))
        })
        .collect();
    json!({"status": "done", "id": id, "game": game.game(), "rules": rules, "version": version, "review": review,
           "best_moves": best_moves})
}

/// What `madang replay` prints for `record`.
///
/// # Errors
/// As [`play_record`].
pub fn replay(record: &Record) -> Result<View, RecordError> {
    let (game, events) = play_record(record)?;
    Ok(game.view(events, record.end.as_ref()))
}

/// A chance action of a record that is not what its seed's chance stream gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The record is malformed or an action is illegal.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The record has no `seed`.
    #[error("the record has no `seed` to verify against")]
    NoSeed,
    /// A chance action differs from the seed's draw.
    #[error("action {index} {text:?} is not what the seed gives: its chance stream draws {expected:?}")]
    Mismatch {
        /// 0-based action index.
        index: usize,
        /// The record's action.
        text: String,
        /// The seed's outcome.
        expected: String,
    },
}

/// Checks every chance action of `record` against the `chance` stream of its `seed`; returns
/// how many chance actions were checked.
///
/// # Errors
/// [`VerifyError`] naming the first mismatch, a missing seed, or a malformed record.
pub fn verify(record: &Record) -> Result<usize, VerifyError> {
    let seed: Seed = record.seed.ok_or(VerifyError::NoSeed)?;
    let mut stream = seed.stream(CHANCE);
    let mut game = open(&record.game, &record.rules, record.players)?;
    // A record `madang replay` refuses is not verified either: its `end` is checked as there.
    check_end_named(game.as_ref(), record)?;
    let mut checked = 0;
    for (index, text) in record.actions.iter().enumerate() {
        if game.turn() == Turn::Chance {
            let expected = game.draw_chance(&mut stream).unwrap_or_default();
            if &expected != text {
                return Err(VerifyError::Mismatch { index, text: text.clone(), expected });
            }
            checked += 1;
        }
        game.apply(text).map_err(RecordError::from)?;
    }
    check_end_in_play(game.as_ref(), record.end.as_ref())?;
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `null` is not a rule option's value in any game, at any depth: leaving the option out
    /// is the one way to have its default (a rule set has one spelling).
    #[test]
    fn a_null_rule_option_is_refused_by_name() {
        for (game, rules, path) in [
            ("ur", serde_json::json!({"preset": null}), "preset"),
            ("yut", serde_json::json!({"mode": "team", "nak": null}), "nak"),
            ("ludo", serde_json::json!({"pieces": null}), "pieces"),
            ("dice-poker", serde_json::json!({"layout": [null]}), "layout[0]"),
        ] {
            let error = open(game, &rules, None).map(|_| ()).expect_err("refused");
            assert_eq!(
                error.to_string(),
                RecordError::Rules(format!(
                    "rule option `{path}`: null is not a value; leave the option out for its default"
                ))
                .to_string(),
                "{game} {rules}"
            );
        }
        assert!(open("ur", &serde_json::json!({}), None).is_ok(), "no option at all is the default");
    }

    /// A typed event as an engine writes one: `kind` first, its fields, and its English line.
    #[derive(serde::Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Sample {
        Capture {
            seat: &'static str,
        },
        #[serde(rename = "odd\"kind")]
        Odd,
    }

    impl std::fmt::Display for Sample {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a kind of \"capture\"")
        }
    }

    #[test]
    fn an_events_kind_is_read_from_its_text() {
        let capture = Event::of(&Sample::Capture { seat: "A" });
        assert_eq!(capture.json(), r#"{"kind":"capture","seat":"A","text":"a kind of \"capture\""}"#);
        assert_eq!(capture.kind(), "capture");
        assert!(capture.has_kind(&["finish", "capture"]));
        assert!(!capture.has_kind(&["finish"]));
        // A kind with an escape in its text is read too (owned, not borrowed).
        let odd = Event::of(&Sample::Odd);
        assert_eq!(odd.kind(), "odd\"kind");
        assert!(odd.has_kind(&["odd\"kind"]));
    }
}
