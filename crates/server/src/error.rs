//! Errors: [`ApiError`] (what a client is told, as `{"error": {"code", "message"}}`) and
//! [`ServerError`] (why the server could not start or stopped).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use madang_core::echo;
use serde_json::json;

/// Why the server could not start or run. Each message includes its cause, which is therefore
/// not also the error's `source()`: a report that prints the chain (`{:#}` in `madang`) would
/// say it twice.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A file or socket operation failed; the text says which.
    #[error("{what}: {error}")]
    Io {
        /// What was being done.
        what: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The database could not be opened or queried.
    #[error("database: {0}")]
    Database(sqlx::Error),
    /// A migration failed.
    #[error("database migration: {0}")]
    Migrate(sqlx::migrate::MigrateError),
    /// A setting is not usable.
    #[error("{0}")]
    Config(String),
    /// A change to a game was computed from a version that is no longer the stored one
    /// (another writer changed the game): nothing of the changes written together was stored.
    #[error(
        "a change of the {changes} written together was not computed from the expected version of its game \
         (another writer changed it): none was stored"
    )]
    Stale {
        /// The changes written together.
        changes: usize,
    },
    /// A write for a game or room whose lease this node no longer holds (another node took it
    /// over): nothing of it was stored.
    #[error("the lease of {key} is no longer this node's: another node took it over")]
    Fenced {
        /// The lease's key.
        key: String,
    },
}

impl ServerError {
    pub(crate) fn io(what: impl Into<String>, error: std::io::Error) -> Self {
        ServerError::Io { what: what.into(), error }
    }
}

impl From<sqlx::Error> for ServerError {
    fn from(error: sqlx::Error) -> Self {
        ServerError::Database(error)
    }
}

impl From<sqlx::migrate::MigrateError> for ServerError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        ServerError::Migrate(error)
    }
}

/// An error answered to a client: HTTP status, stable code, a message for people, and for
/// `stale_version` the game's current version.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable code (`docs/api.md`).
    pub code: &'static str,
    /// What is wrong, naming the field, key, seat or reason.
    pub message: String,
    /// The game's current version, where it helps the client resynchronise.
    pub version: Option<u64>,
    /// What the refusal is about, as data a client can explain in its own language (an illegal
    /// action of a record: its index, text, and what the game awaited instead).
    pub detail: Option<Box<serde_json::Value>>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), version: None, detail: None }
    }

    /// Adds `detail` (see [`ApiError::detail`]).
    pub fn with_detail(mut self, detail: serde_json::Value) -> Self {
        self.detail = Some(Box::new(detail));
        self
    }

    /// Adds the game's current version.
    pub fn with_version(mut self, version: u64) -> Self {
        self.version = Some(version);
        self
    }

    pub(crate) fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub(crate) fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    pub(crate) fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    pub(crate) fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    pub(crate) fn unknown_game_id(id: &str) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "unknown_game_id", format!("no game with id {:?}", echo(id)))
    }

    pub(crate) fn internal(message: impl Into<String>) -> Self {
        let message = message.into();
        tracing::error!(%message, "internal error");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    pub(crate) fn storage(error: &dyn std::fmt::Display) -> Self {
        // The driver's text (tables, SQL, lock states) is for the log, not for clients.
        tracing::error!(%error, "storage error");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            "the database could not store the change (busy or failing), nothing was stored: try again",
        )
    }

    /// `503 moved`: the game or room of lease `key` is (being) taken over by another node of
    /// a cluster; the client tries again (the first node retries by itself).
    pub fn moved(key: &str) -> Self {
        let what = key.split_once(':').map_or("it", |(kind, _)| kind);
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "moved",
            format!("this {what} is moving to another server node: try again in a moment"),
        )
    }

    /// The JSON body `{"error": {"code", "message", "version"?}}`.
    pub fn body(&self) -> serde_json::Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(version) = self.version {
            error["version"] = json!(version);
        }
        if let Some(detail) = &self.detail {
            error["detail"] = (**detail).clone();
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        // A quota's wait, as HTTP says it (the body's `detail.retry_after_s`).
        if let Some(wait) = self.detail.as_ref().and_then(|d| d["retry_after_s"].as_u64())
            && let Ok(value) = axum::http::HeaderValue::from_str(&wait.to_string())
        {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, value);
        }
        if self.code == "moved" {
            // A node that forwarded the request asks again (`cluster.rs`); a client may too.
            let headers = response.headers_mut();
            headers.insert(crate::cluster::MOVED, axum::http::HeaderValue::from_static("1"));
            headers.insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("1"));
        }
        response
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        ApiError::storage(&error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storage_error_tells_the_client_nothing_of_the_drivers_text() {
        let driver = sqlx::Error::Protocol("error returned from database: (code: 5) database is locked".into());
        let error = ApiError::storage(&driver);
        assert_eq!((error.status, error.code), (StatusCode::SERVICE_UNAVAILABLE, "storage"));
        for secret in ["database is locked", "code: 5", "error returned from database"] {
            assert!(!error.message.contains(secret), "{}", error.message);
        }
        assert!(error.message.contains("nothing was stored"), "{}", error.message);
    }
}
