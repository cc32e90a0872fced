//! Whose requests the server answers (`docs/server.md`, "Limits"): the `Host` a request names
//! must be this server's (an IP address, `localhost`, or `--public-url`'s host: a DNS name of
//! someone else's pointing at us — DNS rebinding — is refused), a state-changing request or a
//! WebSocket that carries an `Origin` must come from this server's own origin (scheme, host
//! and port), and a request body must be JSON.

use std::net::IpAddr;

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use madang_core::echo;

use crate::app::AppState;
use crate::error::{ApiError, ServerError};

/// `--public-url`, parsed.
#[derive(Clone, Debug)]
pub struct PublicUrl {
    /// As given, without a trailing slash: the base of invite links.
    pub base: String,
    /// `scheme://host[:port]` as browsers send it in `Origin` (the port only when not the
    /// scheme's default).
    pub origin: String,
    /// The `Host` header browsers send for it (`host[:port]`, lowercase).
    pub host: String,
    /// Whether the scheme is `https` (the cookie is then `Secure`).
    pub https: bool,
}

impl PublicUrl {
    /// Parses `http(s)://host[:port][/path]`.
    ///
    /// # Errors
    /// Another scheme, no host, a query, fragment, user name or port 0, or text that is not a
    /// URL.
    pub fn parse(text: &str) -> Result<PublicUrl, ServerError> {
        let bad = |why: &str| ServerError::Config(format!("--public-url {:?}: {why}", echo(text)));
        let url = url::Url::parse(text).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("the scheme must be http or https"));
        }
        let Some(host) = url.host_str() else { return Err(bad("no host")) };
        // Invite links are `BASE/#/room/CODE`: a query or fragment in the base would break them
        // (a path is where a proxy serves the app).
        if url.query().is_some() || url.fragment().is_some() {
            return Err(bad("a query or fragment does not belong in the base of invite links"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(bad("a user name or password does not belong in a public URL"));
        }
        if url.port() == Some(0) {
            return Err(bad("port 0 is not a port browsers can reach"));
        }
        let host = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
        .to_ascii_lowercase();
        Ok(PublicUrl {
            base: text.trim_end_matches('/').to_owned(),
            origin: url.origin().ascii_serialization(),
            host,
            https: url.scheme() == "https",
        })
    }
}

/// This server's own names and origins.
#[derive(Clone, Debug)]
pub struct Origins {
    /// `--public-url`.
    pub public: Option<PublicUrl>,
    /// The port bound (for links when a request named no usable host).
    port: u16,
}

/// `host[:port]` split; `None` when it is not one.
fn split_host(authority: &str) -> Option<(&str, Option<&str>)> {
    if let Some(rest) = authority.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        return match after {
            "" => Some((ip, None)),
            _ => Some((ip, Some(after.strip_prefix(':')?))),
        };
    }
    match authority.split_once(':') {
        Some((host, port)) => Some((host, Some(port))),
        None => Some((authority, None)),
    }
}

impl Origins {
    /// The origins of a server bound to `port` with this public URL.
    pub fn new(public: Option<PublicUrl>, port: u16) -> Origins {
        Origins { public, port }
    }

    /// Whether a `Host` header names this server: `--public-url`'s host, `localhost`, or an
    /// IP address (which no other site's page can make a browser send with its cookies).
    pub fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        if self.public.as_ref().is_some_and(|p| p.host == host) {
            return true;
        }
        let Some((name, port)) = split_host(&host) else { return false };
        if port.is_some_and(|p| p.is_empty() || p.parse::<u16>().is_err()) {
            return false;
        }
        name == "localhost" || name.parse::<IpAddr>().is_ok()
    }

    /// Whether `origin` is this server's own: `http://<Host>` for an allowed `Host` (the server
    /// itself speaks plain HTTP), or exactly `--public-url`'s origin.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        if self.public.as_ref().is_some_and(|p| p.origin.eq_ignore_ascii_case(origin)) {
            return true;
        }
        host.filter(|h| self.host_allowed(h))
            .and_then(|h| origin.strip_prefix("http://").map(|rest| rest.eq_ignore_ascii_case(h)))
            .unwrap_or(false)
    }

    /// The base of invite links: `--public-url`, else `http://<Host>` (an allowed one).
    pub fn base(&self, headers: &HeaderMap) -> String {
        if let Some(public) = &self.public {
            return public.base.clone();
        }
        match host(headers).filter(|h| self.host_allowed(h)) {
            Some(host) => format!("http://{host}"),
            None => format!("http://127.0.0.1:{}", self.port),
        }
    }

    /// Whether cookies get `Secure` (the public URL is `https`).
    pub fn secure(&self) -> bool {
        self.public.as_ref().is_some_and(|p| p.https)
    }

    /// Refuses a WebSocket upgrade (or a state-changing request) whose `Origin` is present and
    /// not this server's own; no `Origin` (not a browser) passes.
    ///
    /// # Errors
    /// `bad_origin` (403) naming the origin.
    pub fn check_origin(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        // A browser sends one `Origin` (RFC 6454, 7.3); with several, the one checked would
        // decide what passes.
        if headers.get_all(header::ORIGIN).iter().nth(1).is_some() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                "a request may carry at most one Origin header; this one has several",
            ));
        }
        let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
        let origin = origin.to_str().unwrap_or_default();
        let host = host(headers);
        if self.origin_allowed(origin, host) {
            return Ok(());
        }
        let own = match &self.public {
            Some(public) => public.origin.clone(),
            None => format!("http://{}", host.filter(|h| self.host_allowed(h)).unwrap_or("<this server>")),
        };
        Err(ApiError::forbidden(
            "bad_origin",
            format!("a request from origin {:?} is refused: the page must come from {:?}", echo(origin), echo(&own)),
        ))
    }
}

fn host(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::HOST).and_then(|h| h.to_str().ok())
}

/// Whether a request has a body (`Content-Length` above 0, or chunked).
fn has_body(headers: &HeaderMap) -> bool {
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0))
}

/// Whether `Content-Type` is `application/json` (parameters such as `charset` allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Middleware: refuses a request naming another `Host` (`bad_host`), a state-changing one
/// from another origin (`bad_origin`), and a body that is not `application/json`
/// (`unsupported_media_type`).
pub async fn guard(
    axum::extract::State(state): axum::extract::State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    // A request another node of the cluster forwarded was checked there: it carries the
    // cluster's secret and the client's address (the one quotas count).
    if let Some(cluster) = &state.cluster
        && cluster.forwarded(request.headers())
    {
        if let Some(client) = crate::cluster::forwarded_client(request.headers()) {
            request.extensions_mut().insert(axum::extract::ConnectInfo(client));
        }
        request.extensions_mut().insert(crate::cluster::Forwarded);
        return next.run(request).await;
    }
    let headers = request.headers();
    // HTTP/1.1 asks for exactly one `Host` (RFC 9112, 3.2): with none or several, which one a
    // check reads would decide what it lets through.
    let hosts = headers.get_all(header::HOST).iter().count();
    if hosts != 1 {
        let given = if hosts == 0 { "none" } else { "several" };
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("a request must name the server in exactly one Host header; this one has {given}"),
        )
        .into_response();
    }
    let name =
        headers.get(header::HOST).map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned()).unwrap_or_default();
    if !state.origins.host_allowed(&name) {
        return ApiError::forbidden(
            "bad_host",
            format!(
                "this server does not answer for host {:?}: use its IP address, localhost, or its public URL",
                echo(&name)
            ),
        )
        .into_response();
    }
    let safe = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        if let Err(error) = state.origins.check_origin(headers) {
            return error.into_response();
        }
        if has_body(headers) && !is_json(headers) {
            let given = match headers.get(header::CONTENT_TYPE) {
                None => "this one has no Content-Type".to_owned(),
                Some(v) => format!("not {:?}", echo(&String::from_utf8_lossy(v.as_bytes()))),
            };
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                format!("a request body must be JSON with Content-Type: application/json, {given}"),
            )
            .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(public: Option<&str>) -> Origins {
        Origins::new(public.map(|p| PublicUrl::parse(p).expect("a URL")), 8080)
    }

    #[test]
    fn hosts_are_ip_addresses_localhost_or_the_public_name() {
        let o = origins(Some("https://Madang.example.org"));
        for ok in ["127.0.0.1:8080", "localhost:8080", "localhost", "[::1]:8080", "192.168.1.5", "madang.example.org"] {
            assert!(o.host_allowed(ok), "{ok}");
        }
        for bad in ["evil.com", "evil.example/x?", "madang.example.org.evil.com", "127.0.0.1:x", "localhost:", ""] {
            assert!(!o.host_allowed(bad), "{bad}");
        }
    }

    #[test]
    fn an_origin_must_match_scheme_host_and_port() {
        let o = origins(None);
        let host = Some("127.0.0.1:8080");
        assert!(o.origin_allowed("http://127.0.0.1:8080", host));
        for bad in ["https://127.0.0.1:8080", "ws://127.0.0.1:8080", "127.0.0.1:8080", "http://127.0.0.1:8081", "null"]
        {
            assert!(!o.origin_allowed(bad, host), "{bad}");
        }
        // A matching origin does not help a host that is not ours (DNS rebinding).
        assert!(!o.origin_allowed("http://evil.com", Some("evil.com")));
        let public = origins(Some("https://madang.example.org:8443/play"));
        assert!(public.origin_allowed("https://madang.example.org:8443", None));
        assert!(!public.origin_allowed("http://madang.example.org:8443", None));
        assert!(public.secure());
    }

    /// A public URL is the base of invite links (`BASE/#/room/CODE`) and the origin browsers
    /// send: a query, fragment, user name or port 0 would make either wrong.
    #[test]
    fn a_public_url_is_a_base_for_links() {
        for ok in ["https://x.org", "https://x.org/", "http://x.org:8080/sub/path"] {
            assert!(PublicUrl::parse(ok).is_ok(), "{ok}");
        }
        for (bad, why) in [
            ("https://x.org/sub/path?q=1", "query or fragment"),
            ("https://x.org/#f", "query or fragment"),
            ("https://me:secret@x.org", "user name or password"),
            ("https://x.org:0", "port 0"),
        ] {
            let error = PublicUrl::parse(bad).expect_err(bad).to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }
}
