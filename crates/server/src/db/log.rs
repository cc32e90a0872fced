//! SQLite: the actions of games in play in a log without a key (`action_log`), each game's
//! actions as one row (`game_records`) once it ends or has been in the log too long, and the
//! log's index in memory ([`ActionLog`]). PostgreSQL keeps every action as a row of `actions`.
//!
//! Why: a row keyed by game and index puts every move of a batch on its own leaf of the key,
//! and at a thousand games in play those pages were most of the one writer's time, which every
//! move waits for (`docs/server.md`, "Storage without a key per action: bounds"). A log row
//! goes on the table's last page whatever the game.
//!
//! Invariants, each kept by the one writer under the write turn (`Db::write_turn`):
//! - every action of a game is stored in exactly one of: its first actions' rows of `actions`
//!   (a new game's, and every action of a game stored before the log), its record (which, once
//!   written, holds all its actions from the first), and the log rows after those;
//! - every log row at or past the head (the least [`LogGame::first_seq`] of the games in
//!   memory, or the next sequence number) belongs to a game in memory or is in a record;
//!   rows below it are deleted;
//! - a game in memory holds all its stored actions, in order ([`LogGame::rows`]), and is in
//!   play; a game that ends is written as a record in the commit that ends it and leaves memory;
//! - the memory changes only after a commit; after a failed write it is read again from the
//!   database before the next ([`ActionLog::valid`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use sqlx::SqliteConnection;

use super::games::{ActionRow, GameRow};

/// When the writer writes games as records and deletes the log's head ([`ActionLog::limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LogLimits {
    /// How long a game's rows may stay in the log after its last change before the game is
    /// written as a record; a game in memory without log rows this long leaves memory.
    pub idle: Duration,
    /// How many log rows may follow a game's first row in the log before the game is written
    /// as a record even while it is played: a long game does not hold the head back for long.
    pub max_behind: i64,
    /// The most games written as records in one upkeep transaction (it holds the write turn).
    pub archive_batch: usize,
    /// Log rows below the head are deleted only once this many can go (a run of whole pages).
    pub delete_at_least: i64,
    /// How often the writer does its upkeep. Every 100 ms, deleting at least 512 rows, gave the
    /// paced room load a p99 of 20.6-29.1 ms in four runs against 26.2-29.8 ms every 500 ms
    /// and 4,096 rows (`docs/server.md`, "The log of actions").
    pub every: Duration,
}

impl Default for LogLimits {
    fn default() -> Self {
        LogLimits {
            idle: Duration::from_secs(10),
            max_behind: 200_000,
            archive_batch: 64,
            delete_at_least: 512,
            every: Duration::from_millis(100),
        }
    }
}

/// One game in play with stored actions in memory.
///
/// Its actions are kept as the text its record will have (about 60-90 bytes an action, where
/// an [`ActionRow`] took about 240 with its four strings): the record of a game that ends is
/// that text closed, and a reader parses it as it would the record.
#[derive(Clone, Debug)]
pub(crate) struct LogGame {
    /// How many actions are stored.
    pub len: i64,
    /// Every stored action, index 0 first, as a record's `body` without its closing `]`: a
    /// JSON list of one list per action, `[idx,action,seat,actor,created,chance_pos,bot_pos,
    /// play_ms]`.
    body: Vec<u8>,
    /// The newest stored action.
    pub last: Option<ActionRow>,
    /// The sequence number of the game's first log row not yet in its record, when there is
    /// one (the actions before it are stored outside the log).
    pub first_seq: Option<i64>,
    /// When the game last changed (or was read into memory).
    pub changed: Instant,
}

impl LogGame {
    /// A game whose stored actions are `rows`, in order.
    pub fn new(rows: &[ActionRow], first_seq: Option<i64>) -> LogGame {
        let mut game = LogGame { len: 0, body: b"[".to_vec(), last: None, first_seq, changed: Instant::now() };
        game.extend(rows);
        game
    }

    /// `rows` stored after the game's actions.
    pub fn extend(&mut self, rows: &[ActionRow]) {
        for row in rows {
            push_entry(&mut self.body, row, self.len == 0);
            self.len += 1;
        }
        if let Some(row) = rows.last() {
            self.last = Some(row.clone());
        }
    }

    /// The record's `body` of the game's actions followed by `more`, and how many that is.
    pub fn record(&self, more: &[ActionRow]) -> (i64, String) {
        let mut body = self.body.clone();
        for (n, row) in more.iter().enumerate() {
            push_entry(&mut body, row, self.len == 0 && n == 0);
        }
        body.push(b']');
        (self.len + more.len() as i64, String::from_utf8_lossy(&body).into_owned())
    }

    /// Every stored action, in order.
    ///
    /// # Errors
    /// None in practice: the text is written by [`LogGame::extend`]; an error names the game.
    pub fn rows(&self, game: &str) -> Result<Vec<ActionRow>, sqlx::Error> {
        parse_record(game, &self.record(&[]).1)
    }
}

/// Appends one action to a record's body: `[idx,action,seat,actor,created,chance_pos,bot_pos,
/// play_ms]`, after a comma unless it is the first.
fn push_entry(body: &mut Vec<u8>, a: &ActionRow, first: bool) {
    if !first {
        body.push(b',');
    }
    let entry = (a.idx, &a.action, &a.seat, &a.actor, a.created, a.chance_pos, &a.bot_pos, a.play_ms);
    // Writing numbers, strings and nulls to a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *body, &entry);
}

/// The log's index ([`LogGame`] per game in play that the writer has seen), shared with the
/// readers, who take a game's actions in play from here.
#[derive(Debug)]
pub(crate) struct ActionLog {
    /// By game id.
    pub games: HashMap<String, LogGame>,
    /// The sequence number of the next log row.
    pub next_seq: i64,
    /// Every log row below this is deleted.
    pub deleted_below: i64,
    /// False after a failed write: the memory may not match the database, which is read again.
    pub valid: bool,
    /// When the writer last did its upkeep.
    pub last_upkeep: Instant,
    /// When it does it.
    pub limits: LogLimits,
}

impl Default for ActionLog {
    fn default() -> Self {
        ActionLog {
            games: HashMap::new(),
            next_seq: 1,
            deleted_below: 1,
            valid: false,
            last_upkeep: Instant::now(),
            limits: LogLimits::default(),
        }
    }
}

/// A game's row as of its newest stored action: the row's version, stream positions, time
/// played and last change are those of the last action when it carries them and is past the
/// row's version (as `CURRENT_GAME_COLUMNS` reads them from `actions`).
pub(crate) fn overlay(game: &mut GameRow, last: Option<&ActionRow>) {
    let Some(last) = last else { return };
    if let (Some(chance_pos), Some(bot_pos), Some(play_ms)) = (last.chance_pos, &last.bot_pos, last.play_ms)
        && last.idx + 1 > game.version
    {
        game.version = last.idx + 1;
        game.chance_pos = chance_pos;
        game.bot_pos = bot_pos.clone();
        game.play_ms = play_ms;
        game.updated = last.created;
    }
}

/// The actions of a record's `body` ([`LogGame::record`]).
///
/// # Errors
/// A text that is not such a list, named with the game.
pub(crate) fn parse_record(game: &str, body: &str) -> Result<Vec<ActionRow>, sqlx::Error> {
    type Entry = (i64, String, Option<String>, String, i64, Option<i64>, Option<String>, Option<i64>);
    let entries: Vec<Entry> = serde_json::from_str(body)
        .map_err(|e| sqlx::Error::Protocol(format!("the stored record of game {game} is damaged: {e}")))?;
    Ok(entries
        .into_iter()
        .map(|(idx, action, seat, actor, created, chance_pos, bot_pos, play_ms)| ActionRow {
            idx,
            action,
            seat,
            actor,
            created,
            chance_pos,
            bot_pos,
            play_ms,
        })
        .collect())
}

/// The columns of an action row, in `ActionRow`'s order.
const ACTION_COLUMNS: &str = "idx, action, seat, actor, created, chance_pos, bot_pos, play_ms";

/// A game's status and its actions stored outside the log: its record when it has one (all its
/// actions then), else its rows of `actions`. `None` when there is no such game.
///
/// # Errors
/// A database error, or a damaged record.
pub(crate) async fn durable_rows(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<(String, Vec<ActionRow>)>, sqlx::Error> {
    let Some(status): Option<String> =
        sqlx::query_scalar("SELECT status FROM games WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?
    else {
        return Ok(None);
    };
    Ok(Some((status, stored_rows(conn, id).await?)))
}

/// A game's actions stored outside the log ([`durable_rows`] without the status).
///
/// # Errors
/// A database error, or a damaged record.
pub(crate) async fn stored_rows(conn: &mut SqliteConnection, id: &str) -> Result<Vec<ActionRow>, sqlx::Error> {
    let body: Option<String> = sqlx::query_scalar("SELECT body FROM game_records WHERE game_id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
    match body {
        Some(body) => parse_record(id, &body),
        None => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = $1 ORDER BY idx"
            )))
            .bind(id)
            .fetch_all(conn)
            .await
        }
    }
}

/// Reads the log's index from the database: every log row, by game, after what the game has
/// stored outside the log; games that ended are left out (their rows are in their records).
///
/// # Errors
/// A database error, a damaged record, or a log row that does not follow its game's stored
/// actions (a gap: the log and the records disagree).
pub(crate) async fn rebuild(conn: &mut SqliteConnection, log: &mut ActionLog) -> Result<(), sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct LogRow {
        seq: i64,
        game_id: String,
        #[sqlx(flatten)]
        action: ActionRow,
    }
    let rows: Vec<LogRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT seq, game_id, {ACTION_COLUMNS} FROM action_log ORDER BY seq"
    )))
    .fetch_all(&mut *conn)
    .await?;
    let next_seq = rows.last().map_or(1, |r| r.seq + 1);
    let deleted_below = rows.first().map_or(next_seq, |r| r.seq);
    let mut by_game: HashMap<String, Vec<(i64, ActionRow)>> = HashMap::new();
    for row in rows {
        by_game.entry(row.game_id).or_default().push((row.seq, row.action));
    }
    let mut games = HashMap::new();
    let now = Instant::now();
    for (id, logged) in by_game {
        let Some((status, mut stored)) = durable_rows(&mut *conn, &id).await? else { continue };
        if status != "ongoing" {
            continue;
        }
        let mut first_seq = None;
        for (seq, action) in logged {
            let next = stored.len() as i64;
            if action.idx < next {
                // Already in the game's record.
                continue;
            }
            if action.idx != next {
                return Err(sqlx::Error::Protocol(format!(
                    "the action log has action {} of game {id} after its action {}: the log is damaged",
                    action.idx,
                    next - 1
                )));
            }
            first_seq.get_or_insert(seq);
            stored.push(action);
        }
        let mut game = LogGame::new(&stored, first_seq);
        game.changed = now;
        games.insert(id, game);
    }
    log.games = games;
    log.next_seq = next_seq;
    log.deleted_below = deleted_below;
    log.valid = true;
    log.last_upkeep = now;
    Ok(())
}

/// A game's actions read from the database alone: [`stored_rows`] and the log rows after them
/// (a scan of the whole log: for a reader while the memory may lag a failed write).
///
/// # Errors
/// A database error, or a damaged record.
pub(crate) async fn rows_with_log(conn: &mut SqliteConnection, id: &str) -> Result<Vec<ActionRow>, sqlx::Error> {
    let mut rows = stored_rows(conn, id).await?;
    let logged: Vec<ActionRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ACTION_COLUMNS} FROM action_log WHERE game_id = $1 AND idx >= $2 ORDER BY seq"
    )))
    .bind(id)
    .bind(rows.len() as i64)
    .fetch_all(&mut *conn)
    .await?;
    for action in logged {
        if action.idx == rows.len() as i64 {
            rows.push(action);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(idx: i64, action: &str, seat: Option<&str>, last: bool) -> ActionRow {
        ActionRow {
            idx,
            action: action.to_owned(),
            seat: seat.map(str::to_owned),
            actor: if seat.is_some() { "human" } else { "chance" }.to_owned(),
            created: 100 + idx,
            chance_pos: last.then_some(8),
            bot_pos: last.then(|| "[0,2]".to_owned()),
            play_ms: last.then_some(1500),
        }
    }

    #[test]
    fn a_game_in_memory_is_its_record_text() {
        let (roll, mv) = (row(0, "roll 2", None, false), row(1, "move \"a\" 4", Some("dark"), true));
        // Written by hand: one list per action, strings escaped, absent values null.
        let expected =
            r#"[[0,"roll 2",null,"chance",100,null,null,null],[1,"move \"a\" 4","dark","human",101,8,"[0,2]",1500]]"#;
        let game = LogGame::new(&[roll.clone(), mv.clone()], None);
        assert_eq!(game.record(&[]), (2, expected.to_owned()));
        assert_eq!(game.rows("g").expect("its rows"), [roll.clone(), mv.clone()]);
        assert_eq!(game.last.as_ref(), Some(&mv));
        // The same text whether the actions came at once, one by one, or with the record.
        let mut grown = LogGame::new(&[], None);
        assert_eq!(grown.record(&[]), (0, "[]".to_owned()));
        assert_eq!(grown.record(&[roll.clone(), mv.clone()]), (2, expected.to_owned()));
        grown.extend(std::slice::from_ref(&roll));
        assert_eq!(grown.record(std::slice::from_ref(&mv)), (2, expected.to_owned()));
        grown.extend(std::slice::from_ref(&mv));
        assert_eq!((grown.len, grown.record(&[]).1), (2, expected.to_owned()));
    }
}
