//! What changed between two room snapshots, for the `events` messages of the connections that
//! asked for changes instead of whole snapshots (`docs/api.md`, "Versions", `changes`).
//!
//! A snapshot is written once ([`Parts::of`]: the same JSON text as `serde_json::to_string`),
//! noting where each of its fields lies in the text: the room's own fields, and the fields of
//! its `state` when that is a game's (an object). Two snapshots are compared field by field on
//! that text ([`Parts::changes_from`]): a field whose text differs is sent whole under its dotted
//! path (`"version"`, `"state.moves"`); a field that is gone is named in `removed`. Lists are
//! never split: a list that changed is sent whole. The snapshot's keys are plain identifiers, so
//! a dot never appears inside one.

use std::ops::Range;

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct};

/// A snapshot's JSON text and where its fields lie in it.
#[derive(Debug)]
pub struct Parts {
    text: String,
    /// The room's fields, `state` among them unless it is an object.
    top: Vec<Field>,
    /// When the state is an object: it as one field, and its fields.
    state: Option<(Field, Vec<Field>)>,
}

/// A field: its key as JSON text (with its quotes) and its value's text, as ranges of the text.
#[derive(Debug, Clone)]
struct Field {
    key: Range<usize>,
    value: Range<usize>,
}

impl Parts {
    /// Writes `snapshot` (a room snapshot: an object) as JSON, noting its fields.
    ///
    /// # Errors
    /// The serializer's error; also when `snapshot` is not an object, or a key is not a string.
    pub fn of(snapshot: &impl Serialize) -> Result<Parts, serde_json::Error> {
        let mut out = Vec::with_capacity(2048);
        let mut top = Vec::with_capacity(20);
        let mut state = None;
        snapshot.serialize(Splitter { out: &mut out, fields: &mut top, state: Some(&mut state) })?;
        let text = String::from_utf8(out).map_err(|_| ser::Error::custom("the snapshot's text is not UTF-8"))?;
        Ok(Parts { text, top, state })
    }

    /// The snapshot's JSON text, the same as `serde_json::to_string` writes.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The changes from `old` to this snapshot, as the JSON object
    /// `{"set": {PATH: VALUE, …}, "removed": [PATH, …]}`.
    pub fn changes_from(&self, old: &Parts) -> String {
        let mut changes = Changes::default();
        match (&self.state, &old.state) {
            (Some((_, new)), Some((_, old_state))) => {
                changes.compare("", (&self.text, &self.top), (&old.text, &old.top));
                changes.compare("state.", (&self.text, new), (&old.text, old_state));
            }
            // The state became or stopped being an object: it is compared whole, as one of the
            // room's fields.
            _ => changes.compare("", (&self.text, &self.whole()), (&old.text, &old.whole())),
        }
        changes.text()
    }

    /// The room's fields with the state as one of them.
    fn whole(&self) -> Vec<Field> {
        self.top.iter().chain(self.state.as_ref().map(|(whole, _)| whole)).cloned().collect()
    }
}

/// Changes being written: the `set` object's and the `removed` list's text so far.
#[derive(Default)]
struct Changes {
    set: String,
    removed: String,
}

impl Changes {
    /// Notes what differs from `old`'s fields to `new`'s (each with its text), under `prefix`.
    fn compare(&mut self, prefix: &str, (new_text, new): (&str, &[Field]), (old_text, old): (&str, &[Field])) {
        let mut next = 0;
        for field in new {
            let key = &new_text[field.key.clone()];
            let value = &new_text[field.value.clone()];
            if find(old_text, old, &mut next, key).map(|f| &old_text[f.value.clone()]) != Some(value) {
                self.set.push(if self.set.is_empty() { '{' } else { ',' });
                push_path(&mut self.set, prefix, key);
                self.set.push(':');
                self.set.push_str(value);
            }
        }
        let mut next = 0;
        for field in old {
            let key = &old_text[field.key.clone()];
            if find(new_text, new, &mut next, key).is_none() {
                self.removed.push(if self.removed.is_empty() { '[' } else { ',' });
                push_path(&mut self.removed, prefix, key);
            }
        }
    }

    fn text(mut self) -> String {
        for (text, open, close) in [(&mut self.set, '{', '}'), (&mut self.removed, '[', ']')] {
            if text.is_empty() {
                text.push(open);
            }
            text.push(close);
        }
        format!("{{\"set\":{},\"removed\":{}}}", self.set, self.removed)
    }
}

/// Writes the path of the field whose key is the JSON text `key` under `prefix`: `"state.moves"`.
fn push_path(out: &mut String, prefix: &str, key: &str) {
    out.push('"');
    out.push_str(prefix);
    out.push_str(&key[1..]);
}

/// The field of `fields` (of `text`) with the key `key`, looked for at `*next` first; `*next`
/// then moves past the field found. Two snapshots have their fields in the same order, give or
/// take some that come or go, so walking both lists in step finds each field at once: a field
/// that came or went costs one search, not one for every field after it.
fn find<'f>(text: &str, fields: &'f [Field], next: &mut usize, key: &str) -> Option<&'f Field> {
    let is = |f: &Field| &text[f.key.clone()] == key;
    let at = match fields.get(*next) {
        Some(f) if is(f) => *next,
        _ => fields.iter().position(is)?,
    };
    *next = at + 1;
    fields.get(at)
}

/// A serializer that writes a room snapshot as `serde_json` does, noting where each field lies:
/// the room's in `fields`, the state's in `state` (at the room's level only).
struct Splitter<'a> {
    out: &'a mut Vec<u8>,
    fields: &'a mut Vec<Field>,
    state: Option<&'a mut Option<(Field, Vec<Field>)>>,
}

/// An object being written: its fields are noted as they come.
struct Object<'a> {
    out: &'a mut Vec<u8>,
    fields: &'a mut Vec<Field>,
    state: Option<&'a mut Option<(Field, Vec<Field>)>>,
    /// The key just written (a map's entry), until its value is.
    key: Option<Range<usize>>,
    first: bool,
}

impl Object<'_> {
    fn key(&mut self, key: &(impl Serialize + ?Sized)) -> Result<(), serde_json::Error> {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        let start = self.out.len();
        serde_json::to_writer(&mut *self.out, key)?;
        if self.out.get(start) != Some(&b'"') {
            return Err(ser::Error::custom("a key of a room snapshot is not a string"));
        }
        self.key = Some(start..self.out.len());
        self.out.push(b':');
        Ok(())
    }

    fn value(&mut self, value: &(impl Serialize + ?Sized)) -> Result<(), serde_json::Error> {
        let key = self.key.take().ok_or_else(|| ser::Error::custom("a value before its key"))?;
        let start = self.out.len();
        if let Some(state) = self.state.as_deref_mut()
            && &self.out[key.clone()] == b"\"state\""
        {
            let mut fields = Vec::with_capacity(32);
            if value.serialize(Splitter { out: &mut *self.out, fields: &mut fields, state: None }).is_ok() {
                *state = Some((Field { key, value: start..self.out.len() }, fields));
                return Ok(());
            }
            // Not an object (`null` in the lobby): written as it is, below.
            self.out.truncate(start);
        }
        serde_json::to_writer(&mut *self.out, value)?;
        self.fields.push(Field { key, value: start..self.out.len() });
        Ok(())
    }
}

impl SerializeStruct for Object<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), Self::Error> {
        self.key(key)?;
        self.value(value)
    }

    fn end(self) -> Result<(), Self::Error> {
        self.out.push(b'}');
        Ok(())
    }
}

impl SerializeMap for Object<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.key(key)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.value(value)
    }

    fn end(self) -> Result<(), Self::Error> {
        self.out.push(b'}');
        Ok(())
    }
}

/// The error for a snapshot or state that is not an object.
fn not_an_object() -> serde_json::Error {
    ser::Error::custom("a room snapshot is an object")
}

impl<'a> Splitter<'a> {
    fn object(self) -> Object<'a> {
        self.out.push(b'{');
        Object { out: self.out, fields: self.fields, state: self.state, key: None, first: true }
    }
}

/// Every shape but an object (a struct or a map, or an option or newtype around one) is refused.
macro_rules! refuse {
    ($($name:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ok, serde_json::Error> { Err(not_an_object()) })*
    };
}

impl<'a> ser::Serializer for Splitter<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), serde_json::Error> {
        Err(not_an_object())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Object<'a>, serde_json::Error> {
        Ok(self.object())
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Object<'a>, serde_json::Error> {
        Ok(self.object())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// Applies `changes` to `room` as `docs/api.md` says a client does.
    fn apply(room: &Value, changes: &Value) -> Value {
        let mut room = room.clone();
        for (path, value) in changes["set"].as_object().expect("set is an object") {
            match path.split_once('.') {
                Some((outer, inner)) => room[outer][inner] = value.clone(),
                None => room[path] = value.clone(),
            }
        }
        for path in changes["removed"].as_array().expect("removed is a list") {
            let path = path.as_str().expect("a path is text");
            let (outer, inner) = match path.split_once('.') {
                Some((outer, inner)) => (&mut room[outer], inner),
                None => (&mut room, path),
            };
            assert!(outer.as_object_mut().expect("an object").remove(inner).is_some(), "{path}");
        }
        room
    }

    fn changes(from: &Value, to: &Value) -> Value {
        let (old, new) = (Parts::of(from).expect("an object"), Parts::of(to).expect("an object"));
        serde_json::from_str(&new.changes_from(&old)).expect("changes are JSON")
    }

    #[test]
    fn a_move_sends_the_fields_it_changed_and_nothing_else() {
        let before = json!({"code": "K7QX3M", "version": 57, "seats": [{"name": "light"}],
            "state": {"version": 30, "moves": [{"action": "move 3"}], "to_act": "light", "seed": null}});
        let after = json!({"code": "K7QX3M", "version": 58, "seats": [{"name": "light"}],
            "state": {"version": 31, "moves": [], "to_act": "dark", "seed": null}});
        // Worked out by hand: the room's version, and three of the state's four fields.
        assert_eq!(
            changes(&before, &after),
            json!({"set": {"version": 58, "state.version": 31, "state.moves": [], "state.to_act": "dark"},
                   "removed": []})
        );
        assert_eq!(apply(&before, &changes(&before, &after)), after);
    }

    #[test]
    fn fields_that_appear_or_go_and_a_state_that_starts_or_ends() {
        let lobby = json!({"version": 3, "status": "lobby", "state": null, "deadline": null});
        let playing = json!({"version": 4, "status": "playing", "deadline": 5,
            "state": {"version": 0, "pool": ["do"], "moves": []}});
        // null → an object: the state goes whole.
        assert_eq!(
            changes(&lobby, &playing),
            json!({"set": {"version": 4, "status": "playing", "deadline": 5,
                           "state": {"version": 0, "pool": ["do"], "moves": []}},
                   "removed": []})
        );
        // A state field gone (Yut's `pool` outside a throw set, say) and one new.
        let later = json!({"version": 5, "status": "playing", "deadline": 5,
            "state": {"version": 1, "moves": [], "stacking": ["1", "0"]}});
        assert_eq!(
            changes(&playing, &later),
            json!({"set": {"version": 5, "state.version": 1, "state.stacking": ["1", "0"]},
                   "removed": ["state.pool"]})
        );
        // An object → null, and a room field gone.
        let back = json!({"version": 6, "status": "lobby", "state": null});
        assert_eq!(
            changes(&later, &back),
            json!({"set": {"version": 6, "status": "lobby", "state": null}, "removed": ["deadline"]})
        );
        for (a, b) in [(&lobby, &playing), (&playing, &later), (&later, &back), (&back, &lobby)] {
            assert_eq!(&apply(a, &changes(a, b)), b);
        }
    }

    #[test]
    fn fields_are_found_wherever_they_lie_after_one_came_or_went() {
        // The state's first field gone, one new in the middle, and two in another order: each
        // field is still matched with its namesake (worked out by hand).
        let before = json!({"version": 1, "state": {"pool": ["do"], "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}});
        let after = json!({"version": 2, "state": {"a": 1, "b": 20, "new": true, "d": 4, "c": 3, "e": 50}});
        assert_eq!(
            changes(&before, &after),
            json!({"set": {"version": 2, "state.b": 20, "state.new": true, "state.e": 50},
                   "removed": ["state.pool"]})
        );
        assert_eq!(apply(&before, &changes(&before, &after)), after);
    }

    #[test]
    fn nothing_changed_is_an_empty_set() {
        let room = json!({"version": 9, "state": {"version": 2}});
        assert_eq!(changes(&room, &room), json!({"set": {}, "removed": []}));
    }

    #[test]
    fn the_text_is_serde_jsons_and_only_objects_have_parts() {
        #[derive(serde::Serialize)]
        struct Room<'a> {
            code: &'a str,
            state: Option<State>,
            #[serde(skip_serializing_if = "Option::is_none")]
            deadline: Option<i64>,
        }
        #[derive(serde::Serialize)]
        struct State {
            #[serde(flatten)]
            view: Value,
            to_act: Option<&'static str>,
        }
        let playing = Room {
            code: "K7\"QX",
            state: Some(State { view: json!({"legal": ["move 3"], "pool": null}), to_act: Some("빛") }),
            deadline: None,
        };
        let lobby = Room { code: "K7QX3M", state: None, deadline: Some(5) };
        for room in [&playing, &lobby] {
            assert_eq!(Parts::of(room).expect("an object").text(), serde_json::to_string(room).expect("JSON"));
        }
        assert!(Parts::of(&json!(null)).is_err());
        assert!(Parts::of(&json!([1])).is_err());
        assert!(Parts::of(&3).is_err());
        let mut keyed = std::collections::BTreeMap::new();
        keyed.insert(1, 2);
        assert!(Parts::of(&keyed).is_err(), "a key that is not a string");
    }
}
