//! The browser client (`crates/server/web`), embedded in the binary with `rust-embed` and served
//! at `/`: plain JavaScript modules and CSS, no build step (`docs/client.md`).

use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::ApiError;

/// The files of `crates/server/web`, compiled into the binary.
#[derive(RustEmbed)]
#[folder = "web/"]
struct Assets;

/// The page's Content-Security-Policy: everything from this origin only (WebSockets included),
/// no inline scripts.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Answers a path outside `/api`: `/` is `index.html`, other paths are the embedded files;
/// anything else is the JSON 404 of every route.
pub async fn serve(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let file = if path.starts_with("api/") || !(method == Method::GET || method == Method::HEAD) {
        None
    } else {
        Assets::get(path)
    };
    let Some(file) = file else {
        return ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no route {method} {}", madang_core::echo(uri.path())),
        )
        .into_response();
    };
    let mime = file.metadata.mimetype();
    let mut response = (StatusCode::OK, file.data.into_owned()).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(mime) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    // Revalidate every time: the files change with the binary, and the ETag keeps it cheap.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..8]))) {
        headers.insert(header::ETAG, etag);
    }
    if path == "index.html" {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}
