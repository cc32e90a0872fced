//! Request bodies: JSON parsed with errors that name the field, and every failure as an
//! [`ApiError`] body.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON request body.
pub struct JsonBody<T>(pub T);

/// A JSON request body that may be empty (then `T::default()`).
pub struct OptionalJsonBody<T>(pub T);

async fn bytes<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", "the request body is over 16 KiB")
        } else {
            // Not JSON's fault: the HTTP of the body (its chunks, its length) could not be read.
            ApiError::bad_request("bad_request", format!("the request body could not be read: {}", e.body_text()))
        }
    })
}

/// Parses a request body, naming the field at fault.
///
/// # Errors
/// `malformed_json` with the field path and serde's message (the input they repeat clipped).
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    parse_json(bytes, "the body")
}

/// Parses a WebSocket message, as [`parse`] a body (its errors say "the message").
///
/// # Errors
/// As [`parse`].
pub fn parse_message<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    parse_json(bytes, "the message")
}

fn parse_json<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, ApiError> {
    let malformed =
        |detail: String| ApiError::bad_request("malformed_json", format!("{what} is not the expected JSON: {detail}"));
    // Every body and message is an object: serde would also read a struct from an array,
    // field by field in order.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        // A byte order mark is invisible in most editors: named, or the object looks fine.
        if bytes.trim_ascii_start().starts_with("\u{feff}".as_bytes()) {
            return Err(malformed(
                "it starts with a byte order mark (U+FEFF, bytes EF BB BF): send the JSON object without it".to_owned(),
            ));
        }
        // Where it goes wrong, as serde_json names a syntax error's place: the first byte that
        // is not white space (lines and columns from 1, columns in bytes).
        let at = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        let column = 1 + at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
        return Err(malformed(format!("a JSON object {{…}} is expected at line {line} column {column}")));
    }
    // Read once without tracking the path (which copies every key it passes); only a refusal
    // is read again, to name the field at fault.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    if let Ok(value) = T::deserialize(&mut deserializer)
        && deserializer.end().is_ok()
    {
        return Ok(value);
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let mut path = e.path().to_string();
        let error = e.into_inner().to_string();
        // A missing member names itself, and no member present is at fault (without any
        // required one the object is refused as missing it, which is no sign of its fault).
        if (path == "." || path == "?") && !error.starts_with("missing field") {
            path = field_at_fault::<T>(bytes).unwrap_or(path);
        }
        malformed(madang_core::field_error("field ", &path, &error))
    })?;
    deserializer.end().map_err(|e| malformed(madang_core::echo_quoted(&e.to_string())))?;
    Ok(value)
}

/// The top-level member of the object `bytes` that a refusal is about, when the path tracking
/// cannot say (inside a flattened or internally tagged type, such as the WebSockets' messages,
/// serde reads the object whole first): the one member without which the object reads, or is
/// refused only for missing that member. `None` when no single member is at fault. Only a
/// refusal is read this way, once per member.
fn field_at_fault<T: DeserializeOwned>(bytes: &[u8]) -> Option<String> {
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(bytes).ok()?;
    let mut fault = None;
    for key in object.keys().filter(|k| *k != "type") {
        let mut without = object.clone();
        without.remove(key);
        let reads_without = match serde_json::from_value::<T>(serde_json::Value::Object(without)) {
            Ok(_) => true,
            Err(e) => e.to_string().starts_with(&format!("missing field `{key}`")),
        };
        if reads_without {
            if fault.is_some() {
                return None;
            }
            fault = Some(key.clone());
        }
    }
    fault
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = bytes(request, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(ApiError::bad_request("malformed_json", "the request body is empty; JSON is expected"));
        }
        parse(&bytes).map(JsonBody)
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = bytes(request, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJsonBody(T::default()));
        }
        parse(&bytes).map(OptionalJsonBody)
    }
}

/// Refuses a WebSocket message (a JSON object) whose member `key` is present and not a string.
/// serde's tagged enums (`#[serde(tag = "type")]`) would take a number there as the variant's
/// index.
///
/// # Errors
/// `malformed_json` naming the member; text that is not an object is left to [`parse_message`].
pub fn require_string_member(bytes: &[u8], key: &'static str) -> Result<(), ApiError> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Check(&'static str);
    impl<'de> Visitor<'de> for Check {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            let mut ok = true;
            while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if name == self.0 {
                    ok &= map.next_value::<serde_json::Value>()?.is_string();
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(ok)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match deserializer.deserialize_map(Check(key)) {
        Ok(false) => Err(ApiError::bad_request(
            "malformed_json",
            format!("the message is not the expected JSON: field `{key}`: a string naming the message is expected"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::protocol::ClientMessage;

    /// The refusal's message for `text` read as a room message.
    fn refusal(text: &str) -> String {
        parse_message::<ClientMessage>(text.as_bytes()).err().map(|e| e.message).unwrap_or_default()
    }

    #[test]
    fn a_websocket_messages_wrong_field_is_named() {
        // Inside the internally tagged command serde's path is lost; the member without which the
        // message reads is the one named.
        let hello = refusal(r#"{"type":"hello","version":"x"}"#);
        assert!(
            hello.starts_with(
                "the message is not the expected JSON: field `version`: invalid type: string \"x\", expected a whole number of 0 or more"
            ),
            "{hello}"
        );
        assert!(refusal(r#"{"type":"ready","ready":"yes","token":"t"}"#).contains("field `ready`: invalid type"));
        // A missing field names itself; an unknown one too.
        assert!(refusal(r#"{"type":"move","token":"t"}"#).contains("missing field `action`"));
        // Not under a member that is present: `seat` is declared before the missing `level`.
        let cpu = refusal(r#"{"type":"cpu","seat":"B","token":"t"}"#);
        assert!(cpu.starts_with("the message is not the expected JSON: missing field `level`"), "{cpu}");
        assert!(refusal(r#"{"type":"resign","now":true}"#).contains("field `now`: unknown field `now`"));
        // Two members at fault: neither is singled out.
        let two = refusal(r#"{"type":"move","action":5,"version":"x","token":"t"}"#);
        assert!(two.starts_with("the message is not the expected JSON: invalid type"), "{two}");
    }

    #[test]
    fn a_byte_order_mark_before_the_object_is_named() {
        // U+FEFF in UTF-8 is EF BB BF (RFC 3629); JSON text has no byte order mark (RFC 8259 §8.1).
        let bom = refusal("\u{feff}{\"type\":\"ping\"}");
        assert!(bom.contains("byte order mark (U+FEFF, bytes EF BB BF)"), "{bom}");
        assert_eq!(
            refusal("[1]"),
            "the message is not the expected JSON: a JSON object {…} is expected at line 1 column 1"
        );
        // The place is the first byte that is not white space: line 2, after three spaces.
        assert_eq!(
            refusal(" \n   x"),
            "the message is not the expected JSON: a JSON object {…} is expected at line 2 column 4"
        );
        assert_eq!(refusal("\u{feff}{\"type\":\"ping\"}".trim_start_matches('\u{feff}')), "");
    }
}
