//! Guest players: a random id in a signed, HttpOnly, SameSite=Lax cookie (`Secure` behind an
//! `https` public URL), issued on the first request without a valid one and stored the first
//! time the player creates something; the signing key is created once (operating-system randomness)
//! and kept in `<data-dir>/cookie.key`.

use std::io::Write;
use std::path::Path;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, Key, SameSite, SignedCookieJar};

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::app::{AppState, is_hex_id, random_hex};
use crate::error::{ApiError, ServerError};

/// The cookie's name.
pub const COOKIE: &str = "madang_player";

/// Bytes of the signing key.
const KEY_BYTES: usize = 64;

/// The requesting player's id, put in the request by [`identify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerId(pub String);

/// Reads the cookie signing key from `path`, creating it (64 random bytes, hex, mode 0600)
/// when the file does not exist.
///
/// # Errors
/// The file cannot be read or written, or holds something else than 128 hex digits.
pub fn load_or_create_key(path: &Path) -> Result<Key, ServerError> {
    let bad = |what: &str| ServerError::Config(format!("{}: {what}", path.display()));
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut bytes = [0u8; KEY_BYTES];
            getrandom::fill(&mut bytes).map_err(|e| bad(&format!("operating system randomness failed: {e}")))?;
            let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            match options.open(path) {
                Ok(mut file) => {
                    file.write_all(text.as_bytes())
                        .and_then(|()| file.sync_all())
                        .map_err(|e| ServerError::io(format!("writing {}", path.display()), e))?;
                    tracing::info!(path = %path.display(), "created the cookie signing key");
                    text
                }
                // Another process created it first: use theirs.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => std::fs::read_to_string(path)
                    .map_err(|e| ServerError::io(format!("reading {}", path.display()), e))?,
                Err(e) => return Err(ServerError::io(format!("creating {}", path.display()), e)),
            }
        }
        Err(e) => return Err(ServerError::io(format!("reading {}", path.display()), e)),
    };
    let text = text.trim();
    if !is_hex_id(text, KEY_BYTES * 2) {
        return Err(bad("expected 128 hex digits (the cookie signing key); delete the file to make a new one"));
    }
    let bytes: Vec<u8> =
        (0..KEY_BYTES).map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap_or_default()).collect();
    Key::try_from(bytes.as_slice()).map_err(|e| bad(&format!("not a usable key: {e}")))
}

/// The address a request came from, as quotas count it ([`crate::limits::address_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub String);

/// Middleware: finds the player from the signed cookie, or gives the request a new guest id and
/// sets the cookie on the response. Nothing is stored yet: the player's row is written the
/// first time it is needed ([`crate::app::App::ensure_player`]), so requests that only look
/// (or fail) store nothing.
pub async fn identify(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let jar = SignedCookieJar::from_headers(request.headers(), state.key.clone());
    let existing = jar.get(COOKIE).map(|c| c.value().to_owned()).filter(|id| is_hex_id(id, 32));
    let (id, issued) = match existing {
        Some(id) => (id, false),
        None => match random_hex(16) {
            Ok(id) => (id, true),
            Err(e) => return e.into_response(),
        },
    };
    let address = crate::limits::address_key(crate::serve::peer(&request));
    request.extensions_mut().insert(PlayerId(id.clone()));
    request.extensions_mut().insert(ClientAddress(address));
    let response = next.run(request).await;
    if issued {
        let cookie = Cookie::build((COOKIE, id))
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(state.origins.secure())
            .path("/")
            .max_age(time::Duration::days(365))
            .build();
        (jar.add(cookie), response).into_response()
    } else {
        response
    }
}

/// The Hangul fillers: letters to Unicode, but drawn as nothing (U+115F and U+1160 stand for
/// a missing jamo, U+3164 and U+FFA0 for a blank one), so a name or chat line of them looks
/// empty.
pub const HANGUL_FILLERS: [char; 4] = ['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}'];

/// Checks a nickname: 1-24 characters once trimmed; letters (any script), digits, single
/// spaces and `- _ . '`.
///
/// # Errors
/// `bad_nickname` naming the rule broken.
pub fn check_nickname(raw: &str) -> Result<String, ApiError> {
    // One spelling for one name: composed (NFC), so "Zoë" typed as e + U+0308 is "Zoë", and a
    // Korean name typed as separate jamo is stored as syllables.
    let composed: String = raw.nfc().collect();
    let nickname = composed.trim();
    let count = nickname.chars().count();
    if count == 0 {
        return Err(ApiError::unprocessable("bad_nickname", "a nickname must not be empty"));
    }
    if count > 24 {
        return Err(ApiError::unprocessable(
            "bad_nickname",
            format!("a nickname has at most 24 characters, got {count}"),
        ));
    }
    // Letters and digits of any script with their combining marks (Hindi's virama, Thai's tone
    // marks), after a letter or digit.
    let mut previous: Option<char> = None;
    let bad = nickname.chars().find(|&c| {
        let mark = is_combining_mark(c) && previous.is_some_and(|p| p.is_alphanumeric() || is_combining_mark(p));
        previous = Some(c);
        !(c.is_alphanumeric() || mark || c == ' ' || "-_.'".contains(c))
    });
    if let Some(c) = bad {
        return Err(ApiError::unprocessable(
            "bad_nickname",
            format!("a nickname may hold letters, digits, spaces and - _ . ' only, not {c:?}"),
        ));
    }
    if let Some(c) = nickname.chars().find(|&c| HANGUL_FILLERS.contains(&c)) {
        return Err(ApiError::unprocessable(
            "bad_nickname",
            format!("a nickname may not hold a Hangul filler (U+{:04X}): it shows as nothing", u32::from(c)),
        ));
    }
    if nickname.contains("  ") {
        return Err(ApiError::unprocessable("bad_nickname", "a nickname may not hold two spaces in a row"));
    }
    Ok(nickname.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nicknames_allow_hangul_and_refuse_markup() {
        assert_eq!(check_nickname("  윷 장인 ").expect("hangul"), "윷 장인");
        assert_eq!(check_nickname("O'Brien-2").expect("ascii"), "O'Brien-2");
        assert_eq!(check_nickname("").expect_err("empty").code, "bad_nickname");
        assert!(check_nickname("<b>").expect_err("markup").message.contains("'<'"));
        assert!(check_nickname(&"a".repeat(25)).is_err());
        assert!(check_nickname("a\u{0}b").is_err());
        // Hangul fillers are letters that show as nothing: a name of them would look blank.
        for filler in ["\u{3164}", "\u{115F}", "\u{3164}\u{3164}\u{3164}", "a\u{FFA0}", "b\u{1160}"] {
            let error = check_nickname(filler).expect_err(filler);
            assert!(error.message.contains("Hangul filler"), "{filler:?}: {}", error.message);
        }
    }

    #[test]
    fn nicknames_of_every_script_are_composed_and_keep_their_marks() {
        // Decomposed input is stored composed: e + U+0308 is ë (U+00EB); ᄀ+ᅵ+ᆷ is 김 (U+AE40).
        assert_eq!(check_nickname("Zoe\u{308}").expect("decomposed"), "Zo\u{eb}");
        assert_eq!(check_nickname("\u{1100}\u{1175}\u{11b7}").expect("jamo"), "\u{ae40}");
        // Hindi with its virama (U+094D) and Thai with a tone mark and a thanthakhat (U+0E4C).
        assert_eq!(check_nickname("हिन्दी").expect("hindi"), "हिन्दी");
        assert_eq!(check_nickname("ชาญวิทย์").expect("thai"), "ชาญวิทย์");
        // A combining mark on its own, or after a space, is still refused.
        assert!(check_nickname("\u{301}abc").is_err());
        assert!(check_nickname("a \u{301}b").is_err());
    }

    #[test]
    fn the_key_is_created_once_and_read_back() {
        let dir = std::env::temp_dir().join(format!("madang-key-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("cookie.key");
        let _ = std::fs::remove_file(&path);
        load_or_create_key(&path).expect("created");
        let first = std::fs::read_to_string(&path).expect("written");
        load_or_create_key(&path).expect("read");
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), first);
        std::fs::write(&path, "nonsense").expect("overwrite");
        assert!(load_or_create_key(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
