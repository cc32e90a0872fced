//! The least CPU storing an online move costs on the project's storage stack, measured: sqlx
//! over SQLite in WAL mode with `synchronous = NORMAL`, as `madang serve` opens its database
//! (issue 20, `docs/server.md`, "The floor under any server").
//!
//! ```text
//! cargo build --release -p madang-server --example store_floor
//! target/release/examples/store_floor [--batch 100] [--actions 300000] [--log] [--page-size 4096]
//! ```
//!
//! A group commit of `--batch` moves, one from each of as many games (as a server's writer
//! commits every move waiting): one transaction holding one multi-row `INSERT` of the least an
//! action row can be (the game's id, the action's index and its text, keyed by game and index,
//! as madang's `actions` are), then the commit. With `--log` the rows have no key but SQLite's row
//! id, so every commit appends to the table's last pages wherever its games are (a server could
//! not find a game's moves without reading them all: the least storage can be, not a design). No game rows, no guards against stale writers,
//! no reads, no other task waiting: whatever a server stores besides, and whatever hands the
//! move to its writer and back, comes on top. It reports the process's CPU (every thread's,
//! sqlx's SQLite worker included) per action stored.

#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, missing_docs)]

use std::str::FromStr;
use std::time::Instant;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{Connection, QueryBuilder, Sqlite, SqliteConnection};

mod common;
use common::{fail, number};

// As `madang serve`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// This process's CPU time so far (every thread, sqlx's SQLite worker included): ms.
fn cpu_ms_self() -> f64 {
    common::cpu_ms("self").unwrap_or_else(|| fail("cannot read /proc/self/stat"))
}

fn main() {
    let batch = number("--batch", 100, 1..=10_000);
    let actions = number("--actions", 300_000, 1..=100_000_000);
    let log = std::env::args().any(|a| a == "--log");
    let page_size = number("--page-size", 4096, 512..=65_536);
    if !page_size.is_power_of_two() {
        fail(&format!("--page-size must be a power of two from 512 to 65536, got {page_size}"));
    }
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--batch" | "--actions" | "--page-size" => drop(args.next()),
            "--log" => {}
            _ => fail(&format!("unknown flag {arg:?}: the flags are --batch, --actions, --page-size and --log")),
        }
    }
    let dir = std::env::temp_dir().join(format!("madang-store-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(&format!("making {}: {e}", dir.display())));
    let path = dir.join("floor.db");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("the runtime: {e}")));
    let result = runtime.block_on(async {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .page_size(page_size as u32);
        let mut db = SqliteConnection::connect_with(&options).await?;
        sqlx::query(if log {
            "CREATE TABLE actions (game_id TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL)"
        } else {
            "CREATE TABLE actions (game_id TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, \
             PRIMARY KEY (game_id, idx))"
        })
        .execute(&mut db)
        .await?;
        let games: Vec<String> = (0..batch).map(|g| format!("game-{g:010}")).collect();
        let commits = actions.div_ceil(batch);
        // The first tenth warms the statement cache and the file; the rest is measured.
        let warm = commits / 10;
        let (mut cpu0, mut wall0) = (cpu_ms_self(), Instant::now());
        for commit in 0..commits {
            if commit == warm {
                (cpu0, wall0) = (cpu_ms_self(), Instant::now());
            }
            let mut tx = db.begin().await?;
            let mut insert = QueryBuilder::<Sqlite>::new("INSERT INTO actions (game_id, idx, action) ");
            insert.push_values(&games, |mut row, game| {
                row.push_bind(game.as_str()).push_bind(commit as i64).push_bind("move 3 gae");
            });
            insert.build().execute(&mut *tx).await?;
            tx.commit().await?;
        }
        let stored = (commits - warm) * batch;
        let cpu = cpu_ms_self() - cpu0;
        let wall = wall0.elapsed().as_secs_f64();
        let table = if log { "a log (no key but the row id)" } else { "keyed by game and index" };
        println!(
            "batches of {batch} actions into {table}, pages of {page_size} bytes, {stored} actions measured \
             (after {} warming)",
            warm * batch
        );
        println!(
            "CPU per action stored: {:.2} µs (every thread); wall time per action {:.2} µs, {:.0} actions/s",
            cpu * 1000.0 / stored as f64,
            wall * 1e6 / stored as f64,
            stored as f64 / wall
        );
        db.close().await?;
        Ok::<(), sqlx::Error>(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        fail(&format!("the database: {e}"));
    }
}
