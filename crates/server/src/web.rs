//! The browser client, served at `/`: its files come from the binary ([`Config::files`], the
//! `madang-web` crate's `get` in `madang serve`), so that editing one rebuilds that crate and not
//! the server (`docs/client.md`). Every file has an `ETag`; a request whose `If-None-Match`
//! names it is answered `304 Not Modified` without the body.
//!
//! [`Config::files`]: crate::Config::files

use std::borrow::Cow;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::app::AppState;
use crate::error::ApiError;

/// One file of the browser client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticFile {
    /// Its bytes.
    pub data: Cow<'static, [u8]>,
    /// Its media type.
    pub mime: String,
    /// A strong validator of its content (the `ETag`, without quotes).
    pub etag: String,
}

/// Where the browser client's files come from: the file at a path relative to the client's
/// root (`index.html`, `js/app.js`), if there is one.
pub type Files = fn(&str) -> Option<StaticFile>;

/// The page's Content-Security-Policy: everything from this origin only (WebSockets included),
/// no inline scripts.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Whether an `If-None-Match` header value names `etag` (a list of quoted tags, weak ones
/// compared weakly, or `*`).
fn matches(if_none_match: &str, etag: &str) -> bool {
    if_none_match.split(',').map(str::trim).any(|tag| {
        tag == "*"
            || tag.strip_prefix("W/").unwrap_or(tag).strip_prefix('"').and_then(|t| t.strip_suffix('"')) == Some(etag)
    })
}

/// Answers a path outside `/api`: `/` is `index.html`, other paths are the client's files;
/// anything else is the JSON 404 of every route.
pub async fn serve(State(state): State<AppState>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let file = if path.starts_with("api/") || !(method == Method::GET || method == Method::HEAD) {
        None
    } else {
        state.files.and_then(|files| files(path))
    };
    let Some(file) = file else {
        return ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no route {method} {}", madang_core::echo(uri.path())),
        )
        .into_response();
    };
    let fresh =
        headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|tags| matches(tags, &file.etag));
    let mut response =
        if fresh { StatusCode::NOT_MODIFIED.into_response() } else { (StatusCode::OK, file.data).into_response() };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&file.mime) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    // Revalidate every time: the files change with the binary, and the ETag keeps it cheap.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{}\"", file.etag)) {
        headers.insert(header::ETAG, etag);
    }
    if path == "index.html" {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn if_none_match_names_the_tag_among_others_weakly_or_by_star() {
        assert!(matches("\"abc\"", "abc"));
        assert!(matches("\"x\", W/\"abc\"", "abc"));
        assert!(matches("*", "abc"));
        assert!(!matches("\"abcd\"", "abc"));
        assert!(!matches("abc", "abc"), "a tag is quoted");
        assert!(!matches("", "abc"));
    }
}
