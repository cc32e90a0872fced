//! Progression on the server (`docs/progression.md`): a finished game's awards are computed from
//! its record by [`crate::game::LiveGame::awards`] and stored with the game's last change (the
//! `awards` table); this module reads them back — a player's totals and level, the achievements
//! earned and not, the skins owned (`GET /api/profile`), and what one game gave
//! (`GET /api/games/{id}/progress`) — and recomputes every award from the stored records
//! ([`recompute`]). A client sends nothing here: there is no request that grants anything.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Extension, Path, State};
use madang_games::progression::{Award, achievements, level};
use serde_json::{Value, json};

use crate::app::AppState;
use crate::db::Db;
use crate::db::games::AwardRow;
use crate::error::ApiError;
use crate::game::LiveGame;
use crate::identity::PlayerId;

/// A player's totals over a list of awards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Experience.
    pub xp: u64,
    /// Coins.
    pub coins: u64,
    /// Games that gave something.
    pub games: u64,
    /// Each achievement earned, with the game that first earned it and when it ended.
    pub achievements: BTreeMap<String, (String, i64)>,
}

impl Totals {
    /// The totals of `rows`, taken in the order their games ended.
    pub fn of(rows: &[AwardRow]) -> Totals {
        let mut totals = Totals::default();
        let mut sorted: Vec<&AwardRow> = rows.iter().collect();
        sorted.sort_by(|a, b| (a.finished, &a.game_id).cmp(&(b.finished, &b.game_id)));
        for row in sorted {
            totals.add(row);
        }
        totals
    }

    fn add(&mut self, row: &AwardRow) {
        self.xp += u64::try_from(row.xp).unwrap_or(0);
        self.coins += u64::try_from(row.coins).unwrap_or(0);
        self.games += 1;
        for id in body(row).achievements {
            self.achievements.entry(id).or_insert_with(|| (row.game_id.clone(), row.finished));
        }
    }
}

fn body(row: &AwardRow) -> Award {
    serde_json::from_str(&row.body).unwrap_or_default()
}

/// Every player's totals over the stored awards.
///
/// # Errors
/// A database error.
pub async fn stored_totals(db: &Db) -> Result<BTreeMap<String, Totals>, ApiError> {
    Ok(by_player(&db.all_awards().await?))
}

/// Every award computed again from the stored records of every finished game, grouped into
/// each player's totals: equal to [`stored_totals`] (the awards are a function of the records).
///
/// # Errors
/// A database error, or a stored game that does not load.
pub async fn recompute(db: &Db) -> Result<BTreeMap<String, Totals>, ApiError> {
    let mut rows = Vec::new();
    for id in db.finished_games().await? {
        let Some((row, actions)) = db.load_game(&id).await? else { continue };
        let live = LiveGame::load(&row, &actions)?;
        rows.extend(live.awards(&live.core, &[]));
    }
    Ok(by_player(&rows))
}

fn by_player(rows: &[AwardRow]) -> BTreeMap<String, Totals> {
    let mut players: BTreeMap<String, Vec<AwardRow>> = BTreeMap::new();
    for row in rows {
        players.entry(row.player_id.clone()).or_default().push(row.clone());
    }
    players.into_iter().map(|(player, rows)| (player, Totals::of(&rows))).collect()
}

/// An achievement as the API shows it, with when the player earned it (`null`: not yet).
fn achievement_json(id: &str, earned: Option<&(String, i64)>) -> Value {
    let a = achievements().iter().find(|a| a.id == id);
    json!({
        "id": id,
        "game": a.map(|a| a.game.as_str()),
        "name": a.map(|a| &a.name),
        "about": a.map(|a| &a.about),
        "earned": earned.map(|(_, at)| at),
        "game_id": earned.map(|(game, _)| game),
    })
}

/// `GET /api/profile`: the player's level, experience, coins, every achievement (earned or not,
/// in the file's order) and the skins owned.
pub async fn profile(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
) -> Result<Json<Value>, ApiError> {
    let totals = Totals::of(&state.db.awards(&player).await?);
    let list: Vec<Value> =
        achievements().iter().map(|a| achievement_json(&a.id, totals.achievements.get(&a.id))).collect();
    // Every skin is free (issue 18: the set-up's skins stay free), so a player owns them all.
    let skins: Vec<Value> = madang_games::GAMES
        .iter()
        .filter(|g| crate::catalogue::progression(g))
        .filter_map(|g| crate::catalogue::skins(g).map(|skins| json!({"game": g, "owned": skins})))
        .collect();
    Ok(Json(json!({
        "level": level(totals.xp),
        "coins": totals.coins,
        "games": totals.games,
        "earned": totals.achievements.len(),
        "achievements": list,
        "skins": skins,
    })))
}

/// `GET /api/games/{id}/progress`: what a finished game gave the player — experience by
/// reason, coins, the level before and after, and the achievements it earned for the first time.
pub async fn game(
    State(state): State<AppState>,
    Extension(PlayerId(player)): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = state.slot(&id).await?;
    let (game, finished, played) = {
        let live = slot.game.lock().await;
        (live.game.clone(), live.core.ended(), live.participants().contains(&player))
    };
    if !crate::catalogue::progression(&game) {
        return Ok(Json(json!({"progression": false})));
    }
    if !finished {
        return Err(ApiError::conflict("not_finished", format!("game {id} has not ended: it has given nothing yet")));
    }
    let rows = state.db.awards(&player).await?;
    let mut before = Totals::default();
    let mut this = None;
    for row in &rows {
        if row.game_id == id {
            this = Some(row);
            break;
        }
        before.add(row);
    }
    let award = this.map(body).unwrap_or_default();
    let after = before.xp + award.xp;
    let new: Vec<Value> = award
        .achievements
        .iter()
        .filter(|a| !before.achievements.contains_key(*a))
        .map(|a| achievement_json(a, Some(&(id.clone(), this.map_or(0, |r| r.finished)))))
        .collect();
    let parts: Vec<Value> = award.parts.iter().map(|(part, xp)| json!({"part": part, "xp": xp})).collect();
    Ok(Json(json!({
        "progression": true,
        "played": played,
        "xp": award.xp,
        "coins": award.coins,
        "parts": parts,
        "before": level(before.xp),
        "level": level(after),
        "new": new,
    })))
}
