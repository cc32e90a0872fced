//! Game records: parsing with errors that name the problem.

use madang_seed::Seed;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ActionError, Ending};

/// A game record (spec `README.md`, "Game records"). Fields a reader does not know are ignored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(expecting = "a game record, an object {\"game\": …, \"actions\": […], …}")]
pub struct Record {
    /// `"ur"`, `"yut"`, `"ludo"` or `"dice-poker"`.
    pub game: String,
    /// Game-specific options; missing means all defaults. A key given twice is refused.
    #[serde(default = "empty_object", deserialize_with = "strict_value")]
    pub rules: Value,
    /// Number of seats where the game allows a choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// Actions in the game's notation, chance outcomes included. Required (spec `README.md`,
    /// "Game records", makes only `rules` and `players` optional): a record without the list is
    /// refused naming it, where reading it as a game not yet begun would pass for a record.
    pub actions: Vec<String>,
    /// The game's seed, once revealed (64 hex digits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// How a game ended other than by its rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// A game that ended other than by its rules. Read only from a JSON object (serde would also
/// read it from an array, field by field).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct End {
    /// Why it ended.
    pub reason: EndReason,
    /// The seat that resigned, offered the accepted draw, or left.
    pub by: String,
}

/// What `End` expects, for error messages.
const END_EXPECTED: &str = "an object {\"reason\": \"resign\" | \"draw_agreed\" | \"abandoned\", \"by\": SEAT}";

/// `End`'s fields, read from the object's entries.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndFields {
    reason: EndReason,
    by: String,
}

impl<'de> Deserialize<'de> for End {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> serde::de::Visitor<'de> for Object {
            type Value = End;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(END_EXPECTED)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<End, A::Error> {
                let fields = EndFields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(End { reason: fields.reason, by: fields.by })
            }
        }
        deserializer.deserialize_map(Object)
    }
}

/// Why a game ended other than by its rules. Written and read as [`EndReason::as_str`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A seat resigned: a loss for it.
    Resign,
    /// Both sides agreed to a draw.
    DrawAgreed,
    /// A seat left the game unfinished.
    Abandoned,
}

impl Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Read from a string (serde's own enum reading says only "expected value" for a number or
/// `null`); an unknown reason is named, at most 64 characters of it.
impl<'de> Deserialize<'de> for EndReason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        EndReason::ALL.into_iter().find(|r| r.as_str() == text).ok_or_else(|| {
            let [first, middle, last] = EndReason::ALL.map(|r| format!("{:?}", r.as_str()));
            serde::de::Error::custom(format!(
                "unknown reason {:?}: expected {first}, {middle} or {last}",
                madang_core::echo(&text)
            ))
        })
    }
}

impl EndReason {
    /// Every reason, in the order records' docs list them.
    pub const ALL: [EndReason; 3] = [EndReason::Resign, EndReason::DrawAgreed, EndReason::Abandoned];

    /// The ending a person chooses to end a game this way: `resign` by resigning, `draw_agreed`
    /// by a draw offer accepted, `abandoned` by leaving.
    pub fn ending(self) -> Ending {
        match self {
            EndReason::Resign => Ending::Resign,
            EndReason::DrawAgreed => Ending::DrawOffer,
            EndReason::Abandoned => Ending::Leave,
        }
    }

    /// The reason as a record writes it (`"resign"`, `"draw_agreed"`, `"abandoned"`).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Resign => "resign",
            EndReason::DrawAgreed => "draw_agreed",
            EndReason::Abandoned => "abandoned",
        }
    }
}

impl End {
    /// Checks that the ending names one of `seats` and is one of the game's `endings` (its
    /// declaration's, [`crate::GameInfo::endings`]): a record cannot end a game in a way the
    /// game does not offer, as the server never would (a Ludo resignation, a Yut draw).
    ///
    /// # Errors
    /// [`RecordError::Malformed`] naming `end.by` and the seats, or `end.reason` and the
    /// reasons the game allows.
    pub fn check(&self, seats: &[String], endings: &[Ending]) -> Result<(), RecordError> {
        if !seats.contains(&self.by) {
            return Err(RecordError::Malformed(format!(
                "`end.by` must be a seat ({}), got {:?}",
                seats.join(", "),
                madang_core::echo(&self.by)
            )));
        }
        if !endings.contains(&self.reason.ending()) {
            let allowed: Vec<&str> =
                EndReason::ALL.into_iter().filter(|r| endings.contains(&r.ending())).map(EndReason::as_str).collect();
            return Err(RecordError::Malformed(format!(
                "`end.reason` {:?} is not an ending of this game (it allows: {})",
                self.reason.as_str(),
                allowed.join(", ")
            )));
        }
        Ok(())
    }
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or JSON of the wrong shape.
    #[error("malformed record: {0}")]
    Malformed(String),
    /// `game` names no game this build knows.
    #[error("unknown game {:?} (known: {known})", madang_core::echo(.0), known = crate::GAMES.join(", "))]
    UnknownGame(String),
    /// A rule option is unknown or has a bad value.
    #[error("bad rules: {0}")]
    Rules(String),
    /// The seat count (`players`, `--players`) is not one the game allows under these rules.
    #[error("bad player count: {0}")]
    Players(String),
    /// An action is not legal.
    #[error(transparent)]
    Action(#[from] ActionError),
}

impl Record {
    /// Parses a record from JSON text.
    ///
    /// # Errors
    /// [`RecordError::Malformed`] naming the field and the problem, and where in `text` it is.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        // A record is an object (spec README, "Game records"); serde alone would also read one
        // from an array, field by field in order.
        let start = text.trim_start();
        if !start.starts_with('{') {
            // Named, as the server names them: a byte order mark is invisible in most editors,
            // and an empty text is no record at all.
            if start.starts_with('\u{feff}') {
                return Err(RecordError::Malformed(
                    "the record starts with a byte order mark (U+FEFF, bytes EF BB BF): save it without one".to_owned(),
                ));
            }
            if start.is_empty() {
                return Err(RecordError::Malformed("the record is empty: a record is a JSON object {…}".to_owned()));
            }
            return Err(not_an_object());
        }
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let record: Record = serde_path_to_error::deserialize(&mut deserializer).map_err(malformed)?;
        deserializer.end().map_err(|e| RecordError::Malformed(madang_core::echo_quoted(&e.to_string())))?;
        Ok(record)
    }

    /// Reads a record from a JSON value already parsed (a record inside a request body): as
    /// [`Record::from_json`], but an error names the field without a line and column, which
    /// would count from a text nobody wrote.
    ///
    /// # Errors
    /// [`RecordError::Malformed`] naming the field and the problem.
    pub fn from_value(value: &Value) -> Result<Record, RecordError> {
        if !value.is_object() {
            return Err(not_an_object());
        }
        serde_path_to_error::deserialize(value).map_err(malformed)
    }
}

fn not_an_object() -> RecordError {
    RecordError::Malformed("a record is a JSON object {…}".to_owned())
}

/// A serde error as [`RecordError::Malformed`]: the field's path and the message, the input
/// they repeat clipped ([`madang_core::echo`], [`madang_core::echo_quoted`]).
fn malformed<E: std::fmt::Display>(error: serde_path_to_error::Error<E>) -> RecordError {
    let path = error.path().to_string();
    RecordError::Malformed(madang_core::field_error("", &path, &error.into_inner().to_string()))
}

/// Reads any JSON value as `serde_json::Value` does, but refuses an object that names a key
/// twice ("duplicate key \"game\""), which `Value` would read as its last value: a record
/// read here and by a struct (which refuses a repeated field) must not mean two things. For
/// `#[serde(deserialize_with = "strict_value")]` on a record or its `rules`.
///
/// # Errors
/// The deserializer's error, or a repeated key named.
pub fn strict_value<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    deserializer.deserialize_any(StrictValue)
}

/// The visitor behind [`strict_value`]; also its seed for the elements of arrays and objects.
#[derive(Clone, Copy)]
struct StrictValue;

impl<'de> serde::de::DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for StrictValue {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut list = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            list.push(item);
        }
        Ok(Value::Array(list))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("duplicate key \"{}\"", madang_core::echo(&key))));
            }
            let value = map.next_value_seed(self)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}
