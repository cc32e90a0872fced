//! Stored game reviews (`reviews` table): a game's review at a version, so that a second view of
//! a finished game's review is instant (`crate::review`).

use serde_json::Value;

use super::{Db, on_pool, on_write};

/// The review of game `id` stored for `version`, if any.
///
/// # Errors
/// A database error.
pub async fn load(db: &Db, id: &str, version: i64) -> Result<Option<Value>, sqlx::Error> {
    let text: Option<String> = on_pool!(db, pool => {
        sqlx::query_scalar("SELECT body FROM reviews WHERE game_id = $1 AND version = $2")
            .bind(id)
            .bind(version)
            .fetch_optional(pool)
            .await?
    });
    Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
}

/// Stores game `id`'s review at `version` (replacing an older one).
///
/// # Errors
/// A database error.
pub async fn store(db: &Db, id: &str, version: i64, body: &Value, now: i64) -> Result<(), sqlx::Error> {
    let mut turn = db.write_turn().await;
    on_write!(db, turn, exec => {
        sqlx::query(
            "INSERT INTO reviews (game_id, version, body, created) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, body = excluded.body, created = excluded.created",
        )
        .bind(id)
        .bind(version)
        .bind(body.to_string())
        .bind(now)
        .execute(exec)
        .await?;
    });
    Ok(())
}
