//! The browser client of `madang serve`: the files of `static/` (`index.html`, the CSS, the
//! JavaScript modules; `docs/client.md`), embedded in the binary with `rust-embed`. In debug
//! builds `rust-embed` reads them from disk instead, so an edit shows on the next page load
//! without a rebuild; in release builds editing a file rebuilds this crate, not the server,
//! which is handed [`get`] by the binary.
//!
//! This crate knows files, not HTTP: the server answers requests with them (`web.rs` in
//! `madang-server`: content type, `ETag`, `304 Not Modified`, the page's security headers).

use std::borrow::Cow;

use rust_embed::RustEmbed;

/// The files of `static/`.
#[derive(RustEmbed)]
#[folder = "static/"]
struct Static;

/// One file of the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Its bytes.
    pub data: Cow<'static, [u8]>,
    /// Its media type, guessed from its extension (`text/javascript`, `text/css`, …).
    pub mime: String,
    /// A strong validator of its content: the first 8 bytes of its SHA-256, as 16 hex digits.
    pub etag: String,
}

/// The file at `path` (relative to `static/`, `/`-separated, no leading `/`), if there is one.
pub fn get(path: &str) -> Option<File> {
    let file = Static::get(path)?;
    let etag = hex::encode(&file.metadata.sha256_hash()[..8]);
    Some(File { mime: file.metadata.mimetype().to_owned(), data: file.data, etag })
}

/// Every file's path, sorted.
pub fn paths() -> Vec<String> {
    let mut paths: Vec<String> = Static::iter().map(|p| p.into_owned()).collect();
    paths.sort();
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded_with_their_types() {
        let page = get("index.html").expect("the page");
        assert_eq!(page.mime, "text/html");
        assert!(String::from_utf8_lossy(&page.data).contains("<script type=\"module\""));
        let app = get("js/app.js").expect("a module");
        assert!(app.mime.ends_with("javascript"), "{}", app.mime);
        assert_eq!(app.etag.len(), 16);
        assert_ne!(app.etag, page.etag);
        assert!(get("js/nothing.js").is_none());
        assert!(paths().iter().any(|p| p == "css/ur.css"));
    }
}
