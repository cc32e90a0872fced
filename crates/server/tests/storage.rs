//! Storage and stats, on SQLite and (when `MADANG_TEST_POSTGRES` is set) PostgreSQL: finished,
//! drawn, resigned, left and roll-limit games in the stats; the write guard against two
//! writers; many actions in one batch.

#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TempDir, TestServer, assert_refused, backends};
use madang_server::db::{ActionRow, Commit, Db, GameRow, GameUpdate, NewGameRows, Writer};
use madang_server::game::{ActionRequest, LiveGame, NewGame};
use madang_server::{Config, Synchronous, db};
use serde_json::{Value, json};

fn database_url(dir: &TempDir, database: &Option<String>) -> String {
    database.clone().unwrap_or_else(|| format!("sqlite://{}", dir.0.join("madang.db").display()))
}

/// A seed whose Dice Poker game (human choosing the first legal action, CPU `easy`) is drawn,
/// found by playing the server's own game code in memory.
fn drawn_dice_poker_seed() -> String {
    for i in 0..5000 {
        let seed = madang_seed::sim_game_seed(6, i);
        let mut game = LiveGame::create(NewGame {
            id: "0000000000000000".into(),
            owner: "p".into(),
            game: "dice-poker".into(),
            rules: json!({}),
            players: None,
            seats: Some(vec![None, Some("easy".into())]),
            seed,
            now: 0,
        })
        .unwrap();
        while !game.core.ended() {
            // The first legal move, or the person's own roll (the `moves` of the state).
            let action = game.core.game.legal().first().cloned().unwrap_or_else(|| "roll".to_owned());
            let request = ActionRequest { action, version: game.version(), seat: None };
            let change = game.play("p", &request, 0).unwrap();
            game.commit(change);
        }
        if game.outcome_for(&game.core, "p") == Some("drawn") {
            return seed.to_string();
        }
    }
    panic!("no drawn game in 5000 seeds");
}

async fn play_out(client: &mut Client, mut state: Value) -> Value {
    while state["status"] != "finished" {
        state = client.play_first(&state).await["state"].clone();
    }
    state
}

fn line<'a>(stats: &'a Value, game: &str, mode: &str) -> &'a Value {
    stats["stats"].as_array().unwrap().iter().find(|l| l["game"] == game && l["mode"] == mode).unwrap()
}

fn counts(line: &Value) -> [u64; 6] {
    ["played", "won", "lost", "drawn", "no_result", "ongoing"].map(|k| line[k].as_u64().unwrap())
}

/// A start refused for a bad setting or a taken port writes nothing: no data directory, key
/// file or database is left behind (a person trying flags should not find files made by a
/// server that never ran).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_start_writes_nothing() {
    let dir = TempDir::new("refused-start");
    let data = dir.0.join("data");
    let base = || Config { data_dir: data.clone(), ..common::config(&dir, None, false, Default::default()) };
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let cases = [
        (Config { database: Some("mysql://x".into()), ..base() }, "--database must be sqlite://PATH or postgres://"),
        (Config { bind: taken.local_addr().unwrap(), ..base() }, "binding 127.0.0.1:"),
        (Config { public_url: Some("ftp://example.org".into()), ..base() }, "--public-url \"ftp://example.org\""),
        (
            Config { cluster: Some(madang_server::cluster::ClusterConfig::new("http://127.0.0.1:0")), ..base() },
            "--node-url needs --database postgres://",
        ),
    ];
    for (config, needle) in cases {
        let error = madang_server::Server::bind(config).await.err().expect("refused").to_string();
        assert!(error.contains(needle), "{error} should name {needle:?}");
        assert!(!data.exists(), "{error}: the data directory was made");
    }
    // The same settings with a free port start, and make the directory, the key and the database.
    let server = madang_server::Server::bind(base()).await.unwrap();
    drop(server);
    assert!(data.join("cookie.key").exists() && data.join("madang.db").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_count_finished_drawn_resigned_left_and_roll_limit_games() {
    let draw_seed = drawn_dice_poker_seed();
    for database in backends() {
        let dir = TempDir::new("stats");
        let server = TestServer::start(&dir, database.clone(), true).await;
        let mut client = server.client();
        let (_, me) = client.get("/api/me").await;
        let player = me["id"].as_str().unwrap().to_owned();

        // A drawn Dice Poker game.
        let state = client
            .create(json!({"game": "dice-poker", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}], "seed": draw_seed}))
            .await;
        let state = play_out(&mut client, state).await;
        assert_eq!(state["result"]["draw"], true, "{}", state["result"]);
        // A resigned Dice Poker game: a loss.
        let state = client
            .create(json!({"game": "dice-poker", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]}))
            .await;
        let id = state["id"].as_str().unwrap();
        let (status, message) = client.post_raw(&format!("/api/games/{id}/resign"), "").await;
        assert_eq!(status, 200, "{message}");
        assert_eq!(message["state"]["end"], json!({"reason": "resign", "by": "white"}));
        // An unfinished one.
        client
            .create(json!({"game": "dice-poker", "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]}))
            .await;
        let (_, stats) = client.get("/api/stats").await;
        let poker = line(&stats, "dice-poker", "computer");
        assert_eq!(counts(poker), [2, 0, 1, 1, 0, 1], "{poker}");
        assert_eq!(poker["cpu"], "easy");

        // Ludo: resigning is not offered; leaving counts as played, neither won nor lost.
        let ludo_seats = json!([{"kind": "human"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}, {"kind": "cpu", "level": "easy"}]);
        let state = client.create(json!({"game": "ludo", "seats": ludo_seats})).await;
        let id = state["id"].as_str().unwrap().to_owned();
        assert_refused(&client.post_raw(&format!("/api/games/{id}/resign"), "").await, 409, "not_allowed", "leave");
        let (status, message) = client.post(&format!("/api/games/{id}/leave"), json!({})).await;
        assert_eq!(status, 200);
        assert_eq!(message["state"]["result"]["no_result"], "abandoned");
        assert_refused(&client.post(&format!("/api/games/{id}/leave"), json!({})).await, 409, "game_over", "ended");
        // A Ludo game played to its end: won or lost.
        let state = client.create(json!({"game": "ludo", "seats": ludo_seats})).await;
        let finished = play_out(&mut client, state).await;
        let won = finished["result"]["winner"] == "0";
        // A Ludo game ended by the 10,000-roll limit: nobody rolls a 6, every turn passes. Built
        // in storage directly (it cannot be reached cheaply by playing), then read through the API.
        let db = Db::connect(&database_url(&dir, &database), Synchronous::Normal).await.unwrap();
        let seats = json!([{"name": "0", "kind": "human", "level": null, "player": player},
                           {"name": "1", "kind": "cpu", "level": "easy"}, {"name": "2", "kind": "cpu", "level": "easy"},
                           {"name": "3", "kind": "cpu", "level": "easy"}]);
        let actions: Vec<ActionRow> =
            (0..10_000).map(|i| ActionRow::new(i, "roll 1".into(), None, "chance".into(), 1)).collect();
        let roll_limit_id = format!("{:016x}", u64::from(std::process::id()) << 8 | u64::from(database.is_some()));
        let stored = GameRow {
            id: roll_limit_id.clone(),
            owner: player.clone(),
            game: "ludo".into(),
            rules: "{}".into(),
            players: None,
            seats: seats.to_string(),
            mode: "computer".into(),
            cpu: Some("easy".into()),
            seed: "11".repeat(32),
            commitment: String::new(),
            status: "ongoing".into(),
            result: None,
            end_reason: None,
            end_by: None,
            version: 10_000,
            chance_pos: 0,
            bot_pos: "[0,0,0,0]".into(),
            play_ms: 0,
            created: 1,
            updated: 1,
            finished: None,
        };
        let live = LiveGame::load(&stored, &actions).unwrap();
        assert!(live.core.ended());
        assert_eq!(live.outcome_for(&live.core, &player), Some("no_result"));
        let writer = Writer::start(db.clone());
        let rows = NewGameRows {
            game: live.row(),
            participants: live.participants(),
            actions: actions.clone(),
            outcomes: live.outcomes(&live.core),
            awards: live.awards(&live.core, &[]),
        };
        writer.create(rows).await.unwrap();
        writer.stop().await;
        let state = client.state(&roll_limit_id).await;
        assert_eq!(state["result"]["no_result"], "roll limit");
        let (_, stats) = client.get("/api/stats").await;
        let ludo = line(&stats, "ludo", "computer");
        assert_eq!(counts(ludo), [3, u64::from(won), u64::from(!won), 0, 2, 0], "{ludo}");
        db.close().await;
        server.stop().await;
    }
}

/// A new ongoing Ur game row at version 0.
fn game_row(id: &str, owner: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        owner: owner.to_owned(),
        game: "ur".into(),
        rules: "{}".into(),
        players: Some(2),
        seats: "[]".into(),
        mode: "computer".into(),
        cpu: None,
        seed: "22".repeat(32),
        commitment: "c".into(),
        status: "ongoing".into(),
        result: None,
        end_reason: None,
        end_by: None,
        version: 0,
        chance_pos: 0,
        bot_pos: "[]".into(),
        play_ms: 0,
        created: 1,
        updated: 1,
        finished: None,
    }
}

/// A new game `id` of `owner`, who holds its only seat, with no action yet.
fn new_game(id: &str, owner: &str) -> NewGameRows {
    NewGameRows {
        game: game_row(id, owner),
        participants: vec![owner.to_owned()],
        actions: vec![],
        outcomes: vec![],
        awards: vec![],
    }
}

/// The game row's changing part at `version` (finished when `finished` is set).
fn update(version: i64, finished: Option<i64>) -> GameUpdate {
    GameUpdate {
        status: if finished.is_some() { "finished" } else { "ongoing" }.into(),
        result: None,
        end_reason: None,
        end_by: None,
        version,
        chance_pos: 7,
        bot_pos: "[1,2]".into(),
        play_ms: 5,
        updated: 2,
        finished,
    }
}

/// `actions` as a change stores them: the last carries the game's positions after it (those of
/// `update`).
fn with_progress(mut actions: Vec<ActionRow>, update: &GameUpdate) -> Vec<ActionRow> {
    if let Some(last) = actions.last_mut() {
        last.chance_pos = Some(update.chance_pos);
        last.bot_pos = Some(update.bot_pos.clone());
        last.play_ms = Some(update.play_ms);
    }
    actions
}

/// Actions `from..from + n`, named `a{i}`.
fn batch(from: i64, n: i64) -> Vec<ActionRow> {
    (from..from + n).map(|i| ActionRow::new(i, format!("a{i}"), Some("light".into()), "human".into(), 2)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_is_stored_only_on_the_version_it_was_computed_from() {
    for database in backends() {
        let dir = TempDir::new("versions");
        let db = Db::connect(&database_url(&dir, &database), Synchronous::Full).await.unwrap();
        let unique = std::process::id() as u64 * 1000 + u64::from(database.is_some());
        let player = db::PlayerRow { id: format!("{unique:032x}"), nickname: "t".into(), created: 1 };
        db.create_player(&player).await.unwrap();
        let id = format!("{unique:016x}");
        let writer = Writer::start(db.clone());
        writer.create(new_game(&id, &player.id)).await.unwrap();
        // A change computed on `from` stored actions.
        let change = |from: i64, version: i64, actions: Vec<ActionRow>| Commit {
            id: id.clone(),
            stored_actions: from + actions.len() as i64,
            actions: with_progress(actions, &update(version, None)),
            update: update(version, None),
            outcomes: vec![],
            awards: vec![],
            fence: None,
        };
        // 450 actions in one change (several multi-row statements).
        writer.store(change(0, 450, batch(0, 450))).await.unwrap();
        // A second writer computing from version 0 (its action is number 0 again) is refused and
        // stores nothing; so is one computing past what is stored (a gap).
        let stale = writer.store(change(0, 1, batch(0, 1))).await;
        assert!(stale.as_ref().is_err_and(|e| e.to_string().contains("expected version")), "{stale:?}");
        let stale = writer.store(change(451, 452, batch(451, 1))).await;
        assert!(stale.as_ref().is_err_and(|e| e.to_string().contains("expected version")), "{stale:?}");
        // A change that collides with stored actions is refused whole, the version kept.
        assert!(writer.store(change(450, 452, batch(449, 3))).await.is_err());
        let (game, actions) = db.load_game(&id).await.unwrap().unwrap();
        assert_eq!((game.version, game.chance_pos, game.bot_pos.as_str(), actions.len()), (450, 7, "[1,2]", 450));
        assert_eq!(actions[449].action, "a449");
        assert_eq!(actions[449].seat.as_deref(), Some("light"));
        assert!(db.load_game("ffffffffffffffff").await.unwrap().is_none());
        let history = db.history(&player.id, 10, 0).await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].outcome, None);
        writer.stop().await;
        db.close().await;
    }
}

/// The games' group-commit writer (`db/games.rs`): changes sent together are stored together,
/// and a stale or colliding change is refused alone, storing nothing of it, while the others
/// are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_refuses_only_the_stale_change_of_a_batch() {
    for database in backends() {
        let dir = TempDir::new("writer");
        let db = Db::connect(&database_url(&dir, &database), Synchronous::Normal).await.unwrap();
        let unique = std::process::id() as u64 * 1000 + 500 + u64::from(database.is_some());
        let player = db::PlayerRow { id: format!("{unique:032x}"), nickname: "t".into(), created: 1 };
        db.create_player(&player).await.unwrap();
        let ids: Vec<String> = (0..3).map(|i| format!("{:016x}", unique * 10 + i)).collect();
        let writer = Writer::start(db.clone());
        for id in &ids {
            writer.create(new_game(id, &player.id)).await.unwrap();
        }
        let commit =
            |id: &str, from: i64, actions: Vec<ActionRow>, finished: Option<i64>, outcomes: Vec<(String, String)>| {
                let stored = from + actions.len() as i64;
                Commit {
                    id: id.to_owned(),
                    stored_actions: stored,
                    update: update(stored, finished),
                    actions: with_progress(actions, &update(stored, finished)),
                    outcomes,
                    awards: vec![],
                    fence: None,
                }
            };
        // Sent at once (one transaction, or more if the writer is quick): the second is stale
        // (computed from version 5; the stored one is 0).
        let (a, b, c) = tokio::join!(
            writer.store(commit(&ids[0], 0, batch(0, 2), None, vec![])),
            writer.store(commit(&ids[1], 5, batch(5, 1), None, vec![])),
            writer.store(commit(&ids[2], 0, batch(0, 1), Some(3), vec![(player.id.clone(), "won".into())])),
        );
        assert!(a.is_ok(), "{a:?}");
        assert!(b.as_ref().is_err_and(|e| e.to_string().contains("expected version")), "{b:?}");
        assert!(c.is_ok(), "{c:?}");
        // An action index already stored: refused whole, the version kept.
        let d = writer.store(commit(&ids[0], 2, batch(1, 2), None, vec![])).await;
        assert!(d.is_err(), "{d:?}");
        let (game, actions) = db.load_game(&ids[0]).await.unwrap().unwrap();
        assert_eq!((game.version, actions.len(), actions[1].action.as_str()), (2, 2, "a1"));
        let (game, actions) = db.load_game(&ids[1]).await.unwrap().unwrap();
        assert_eq!((game.version, actions.len()), (0, 0));
        let (game, actions) = db.load_game(&ids[2]).await.unwrap().unwrap();
        assert_eq!((game.version, game.status.as_str(), game.finished, actions.len()), (1, "finished", Some(3), 1));
        let history = db.history(&player.id, 10, 0).await.unwrap();
        let outcome = history.iter().find(|h| h.game.id == ids[2]).map(|h| h.outcome.clone());
        assert_eq!(outcome, Some(Some("won".to_owned())));
        writer.stop().await;
        db.close().await;
    }
}

/// An in-memory SQLite database is refused with a clear error: the pool's connections and the
/// rooms' writer would each see a different, empty database.
#[tokio::test]
async fn an_in_memory_sqlite_database_is_refused() {
    for url in ["sqlite::memory:", "sqlite://db?mode=memory"] {
        let error = Db::connect(url, Synchronous::Normal).await.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("give SQLite a file"), "{url}: {error}");
    }
}
