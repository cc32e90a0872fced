//! Online rooms over real HTTP and WebSockets on 127.0.0.1 (SQLite, and PostgreSQL when
//! `MADANG_TEST_POSTGRES` is set): whole games with several clients, every refusal, reconnects,
//! spectators, concurrent joins, the grace period, draws, rematches, stats, and a property test
//! over random command sequences from several clients.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod common;

use std::time::Duration;

use common::{Client, TempDir, TestServer, assert_refused, backends};
use futures_util::{SinkExt, StreamExt};
use madang_server::rooms::RoomConfig;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A room WebSocket that keeps the room as the client has applied it.
struct RoomWs {
    stream: Stream,
    room: Value,
    version: u64,
    /// Every event applied, by version (checks that none is missed or repeated).
    seen: Vec<u64>,
    /// Said `hello` with `changes`: broadcasts carry what changed, not the whole snapshot.
    changes: bool,
}

/// Applies an `events` message's `changes` to the snapshot `room`, as `docs/api.md`
/// ("Versions") says: every path of `set` (`version`, `state.moves`) takes its value, every path
/// of `removed` goes.
fn apply_changes(room: &mut Value, changes: &Value) {
    for (path, value) in changes["set"].as_object().expect("set") {
        match path.split_once('.') {
            Some((outer, inner)) => room[outer][inner] = value.clone(),
            None => room[path] = value.clone(),
        }
    }
    for path in changes["removed"].as_array().expect("removed") {
        let path = path.as_str().expect("a path");
        let (outer, inner) = match path.split_once('.') {
            Some((outer, inner)) => (&mut room[outer], inner),
            None => (&mut *room, path),
        };
        assert!(outer.as_object_mut().expect("an object").remove(inner).is_some(), "{path} was there");
    }
}

impl RoomWs {
    async fn connect(server: &TestServer, code: &str) -> RoomWs {
        let request = format!("ws://{}/api/rooms/{code}/ws", server.addr).into_client_request().unwrap();
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        RoomWs { stream, room: Value::Null, version: 0, seen: Vec::new(), changes: false }
    }

    async fn send(&mut self, value: Value) {
        self.stream.send(Message::Text(value.to_string().into())).await.unwrap();
    }

    async fn recv_raw(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("a message within 10 s")?;
            match message {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// The next message, applied to the view when it is `snapshot` or `events`.
    async fn recv(&mut self) -> Value {
        let message = self.recv_raw().await.expect("connection open");
        self.apply(&message);
        message
    }

    fn apply(&mut self, message: &Value) {
        match message["type"].as_str().unwrap() {
            "snapshot" => {
                self.room = message["room"].clone();
                self.version = self.room["version"].as_u64().unwrap();
            }
            "events" => {
                let from = message["from"].as_u64().unwrap();
                let to = message["to"].as_u64().unwrap();
                assert_eq!(from, self.version, "events from {from} but the client is at {}: {message}", self.version);
                let events = message["events"].as_array().unwrap();
                assert_eq!(events.len() as u64, to - from);
                for (i, e) in events.iter().enumerate() {
                    let v = e["version"].as_u64().unwrap();
                    assert_eq!(v, from + 1 + i as u64);
                    self.seen.push(v);
                    check_game_event(e);
                }
                if let Some(changes) = message.get("changes") {
                    // Asked for with `hello`: what changed since the snapshot held (docs/api.md,
                    // "Versions"), never together with `room`.
                    assert!(self.changes && message.get("room").is_none(), "{message}");
                    apply_changes(&mut self.room, changes);
                } else {
                    self.room = message["room"].clone();
                }
                assert_eq!(self.room["version"].as_u64().unwrap(), to);
                self.version = to;
            }
            _ => {}
        }
    }

    /// `hello`; returns the welcome and applies the catch-up that follows it.
    async fn hello(&mut self, token: Option<&str>, version: Option<u64>) -> Value {
        self.send(json!({"type": "hello", "token": token, "version": version, "changes": self.changes})).await;
        let welcome = self.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        let catch_up = self.recv().await;
        assert!(catch_up["type"] == "events" || catch_up["type"] == "snapshot", "{catch_up}");
        welcome
    }

    /// Reads until the view is at `version`; returns every message read.
    async fn catch_up(&mut self, version: u64) -> Vec<Value> {
        let mut read = Vec::new();
        while self.version < version {
            read.push(self.recv().await);
        }
        read
    }

    /// Sends a command and returns the error it gets, or `None` when it was applied: a `ping`
    /// sent right after it is answered after the command (one task applies a room's messages
    /// in order), so an error for the command comes before the `pong` or not at all.
    async fn command(&mut self, mut value: Value) -> Option<Value> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if value.get("id").is_none() {
            value["id"] = json!(format!("c{n}"));
        }
        let id = echoed_id(&value);
        self.send(value).await;
        self.send(json!({"type": "ping", "id": format!("p{n}")})).await;
        let mut error = None;
        loop {
            // The room closes when its last person leaves: the command was applied.
            let Some(message) = self.recv_raw().await else { return error };
            self.apply(&message);
            match message["type"].as_str().unwrap() {
                "error" if message["id"] == id => error = Some(message),
                "error" => panic!("an unexpected error: {message}"),
                "pong" if message["id"] == format!("p{n}").as_str() => return error,
                _ => {}
            }
        }
    }
}

/// A player: HTTP client (cookie), seat, token and WebSocket.
struct Player {
    http: Client,
    seat: String,
    token: String,
    ws: RoomWs,
}

impl Player {
    async fn act(&mut self, mut command: Value) -> Option<Value> {
        command["token"] = json!(self.token);
        self.ws.command(command).await
    }
}

/// The `id` an answer to `message` carries (docs/api.md): its `id` when that is a string or a
/// number of at most 64 characters, else `null`.
fn echoed_id(message: &Value) -> Value {
    match &message["id"] {
        Value::String(id) if id.chars().count() <= 64 => message["id"].clone(),
        Value::Number(_) => message["id"].clone(),
        _ => Value::Null,
    }
}

async fn create_room(server: &TestServer, body: Value) -> (String, Player) {
    let mut http = server.client();
    let (status, created) = http.post("/api/rooms", body.clone()).await;
    assert_eq!(status, 201, "{body}: {created}");
    let code = created["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 6);
    assert!(code.chars().all(|c| "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains(c)), "{code}");
    assert!(created["link"].as_str().unwrap().ends_with(&format!("/#/room/{code}")));
    let mut ws = RoomWs::connect(server, &code).await;
    let token = created["token"].as_str().unwrap().to_owned();
    let welcome = ws.hello(Some(&token), None).await;
    assert_eq!(welcome["host"], true);
    let seat = created["seat"].as_str().unwrap().to_owned();
    (code, Player { http, seat, token, ws })
}

async fn join(server: &TestServer, code: &str, body: Value) -> Player {
    join_asking(server, code, body, false).await
}

/// Joins, and says `hello` asking for `changes` (or whole snapshots) in the broadcasts.
async fn join_asking(server: &TestServer, code: &str, body: Value, changes: bool) -> Player {
    let mut http = server.client();
    let (status, joined) = http.post(&format!("/api/rooms/{code}/join"), body).await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().unwrap().to_owned();
    let mut ws = RoomWs::connect(server, code).await;
    ws.changes = changes;
    ws.hello(Some(&token), None).await;
    Player { http, seat: joined["seat"].as_str().unwrap().to_owned(), token, ws }
}

async fn server_room(client: &mut Client, code: &str) -> Value {
    let (status, body) = client.get(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 200, "{body}");
    body["room"].clone()
}

/// Brings every player's view to the server's version and checks each equals the server's.
async fn sync_all(players: &mut [Player], code: &str) -> Value {
    let room = server_room(&mut players[0].http, code).await;
    let version = room["version"].as_u64().unwrap();
    for p in players.iter_mut() {
        p.ws.catch_up(version).await;
        assert_eq!(p.ws.room, room, "{}'s view differs from the server's", p.seat);
    }
    room
}

/// Everyone ready, the host starts (the first player is the host).
async fn start(players: &mut [Player], code: &str) {
    for i in 1..players.len() {
        assert!(players[i].act(json!({"type": "ready"})).await.is_none());
        sync_all(players, code).await;
    }
    assert!(players[0].act(json!({"type": "start"})).await.is_none());
    let room = sync_all(players, code).await;
    assert_eq!(room["status"], "playing", "{room}");
}

/// Plays the first legal action of whoever is to move until the game ends.
async fn play_to_end(players: &mut [Player], code: &str) -> Value {
    for _ in 0..20_000 {
        let room = sync_all(players, code).await;
        let state = &room["state"];
        if room["status"] == "finished" {
            assert_eq!(state["status"], "finished");
            return room;
        }
        // The seat to act: a decision, or a person's own roll or throw (`moves` is then the
        // awaited word, `roll` or `throw`, and the server draws the outcome).
        let to_act = state["to_act"].as_str().unwrap();
        let moves = state["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{state}");
        let mover = players.iter_mut().find(|p| p.seat == to_act).expect("a person is to act");
        let error = mover.act(json!({"type": "move", "action": moves[0]["action"], "version": state["version"]})).await;
        assert!(error.is_none(), "{error:?}");
    }
    panic!("the game did not end");
}

/// Room limits for tests that play whole games as fast as the server answers (a person's client
/// never comes near the default rate).
fn fast() -> RoomConfig {
    RoomConfig { rate_per_second: 100_000, burst: 100_000, ..RoomConfig::default() }
}

async fn stats_line(client: &mut Client, game: &str) -> Value {
    let (_, stats) = client.get("/api/stats").await;
    stats["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["game"] == game && l["mode"] == "room")
        .cloned()
        .unwrap_or_else(|| panic!("no room line for {game}: {stats}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yut_team_game_with_four_clients_plays_to_the_end_and_counts_for_everyone() {
    for database in backends() {
        let dir = TempDir::new("rooms-yut");
        let server = TestServer::start_with(&dir, database, false, fast()).await;
        let rules = json!({"mode": "team-shared", "pieces": 2, "order": "seated"});
        let (code, host) = create_room(
            &server,
            json!({"game": "yut", "rules": rules, "players": 4, "nickname": "윷 장인", "public": true}),
        )
        .await;
        assert_eq!(host.seat, "A1");
        // Public and open: listed.
        let (_, list) = server.client().get("/api/rooms").await;
        assert!(list["rooms"].as_array().unwrap().iter().any(|r| r["code"] == code.as_str()), "{list}");
        let mut players = vec![host];
        for seat in ["B1", "A2", "B2"] {
            // The B players ask for changes instead of whole snapshots: every step below checks
            // that their views are the server's all the same.
            let body = json!({"nickname": format!("player {seat}"), "seat": seat});
            let mut p = join_asking(&server, &code, body, seat.starts_with('B')).await;
            assert_eq!(p.seat, seat);
            p.ws.catch_up(0).await;
            players.push(p);
        }
        let room = sync_all(&mut players, &code).await;
        let sides: Vec<&str> = room["seats"].as_array().unwrap().iter().map(|s| s["side"].as_str().unwrap()).collect();
        assert_eq!(sides, ["A", "B", "A", "B"]);
        // Full: no longer listed.
        let (_, list) = server.client().get("/api/rooms").await;
        assert!(!list["rooms"].as_array().unwrap().iter().any(|r| r["code"] == code.as_str()));
        start(&mut players, &code).await;
        let room = play_to_end(&mut players, &code).await;
        let winner = room["state"]["result"]["winner"].as_str().unwrap().to_owned();
        let id = room["games"][0].as_str().unwrap().to_owned();
        // Every event reached every client once, in order.
        for p in &players {
            let first = p.ws.seen[0];
            assert_eq!(p.ws.seen, (first..first + p.ws.seen.len() as u64).collect::<Vec<_>>());
        }
        // Stored like any game, with every player in it; counted for each.
        for p in &mut players {
            let line = stats_line(&mut p.http, "yut").await;
            let won = p.seat.starts_with(&winner);
            assert_eq!((line["played"].as_u64(), line["won"].as_u64()), (Some(1), Some(u64::from(won))), "{line}");
            let (_, history) = p.http.get("/api/history").await;
            assert_eq!(history["games"][0]["id"], id.as_str());
            assert_eq!(history["games"][0]["outcome"], if won { "won" } else { "lost" });
        }
        let (status, record) = players[0].http.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(status, 200);
        common::check_record(&record, &room["state"]);
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ur_game_from_room_creation_to_the_end_draw_and_rematch() {
    for database in backends() {
        let dir = TempDir::new("rooms-ur");
        let server = TestServer::start_with(&dir, database, false, fast()).await;
        let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 2}})).await;
        // The guest asks for changes: the views are compared with the server's after every step.
        let guest = join_asking(&server, &code, json!({"nickname": "Dark"}), true).await;
        assert_eq!(guest.seat, "dark");
        let mut players = vec![host, guest];
        start(&mut players, &code).await;
        let room = play_to_end(&mut players, &code).await;
        let winner = room["state"]["result"]["winner"].as_str().unwrap().to_owned();
        for p in &mut players {
            let line = stats_line(&mut p.http, "ur").await;
            assert_eq!(line["played"], 1);
            assert_eq!(line["won"], u64::from(p.seat == winner));
            assert_eq!(line["lost"], u64::from(p.seat != winner));
        }
        // Rematch with the same seats: both ask.
        assert!(players[1].act(json!({"type": "rematch"})).await.is_none());
        let again = players[1].act(json!({"type": "rematch"})).await.unwrap();
        assert_eq!(again["code"], "duplicate", "{again}");
        assert!(players[0].act(json!({"type": "rematch"})).await.is_none());
        let room = sync_all(&mut players, &code).await;
        assert_eq!(room["status"], "playing");
        assert_eq!(room["games"].as_array().unwrap().len(), 2);
        // A draw by agreement: offer, decline, offer again, accept.
        assert!(players[0].act(json!({"type": "draw_offer"})).await.is_none());
        sync_all(&mut players, &code).await;
        assert!(players[1].act(json!({"type": "draw_decline"})).await.is_none());
        let none = players[1].act(json!({"type": "draw_accept"})).await.unwrap();
        assert_eq!(none["code"], "no_offer");
        assert!(players[1].act(json!({"type": "draw_offer"})).await.is_none());
        sync_all(&mut players, &code).await;
        let own = players[1].act(json!({"type": "draw_accept"})).await.unwrap();
        assert_eq!(own["code"], "no_offer", "one's own offer is not accepted by oneself");
        assert!(players[0].act(json!({"type": "draw_accept"})).await.is_none());
        let room = sync_all(&mut players, &code).await;
        assert_eq!(room["status"], "finished");
        assert_eq!(room["state"]["end"], json!({"reason": "draw_agreed", "by": "dark"}));
        assert_eq!(room["state"]["result"]["draw"], true);
        for p in &mut players {
            let line = stats_line(&mut p.http, "ur").await;
            assert_eq!((line["played"].as_u64(), line["drawn"].as_u64()), (Some(2), Some(1)), "{line}");
        }
        // Chat, within its limit.
        assert!(players[0].act(json!({"type": "chat", "text": "잘 뒀어요"})).await.is_none());
        let long = players[0].act(json!({"type": "chat", "text": "a".repeat(201)})).await.unwrap();
        assert_eq!(long["code"], "bad_chat");
        let room = sync_all(&mut players, &code).await;
        assert_eq!(room["games"].as_array().unwrap().len(), 2);
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_and_misdirected_commands_are_refused_and_change_nothing() {
    let dir = TempDir::new("rooms-refusals");
    let config = RoomConfig::default();
    let server = TestServer::start_with(&dir, None, false, config).await;
    // Ludo is not offered; bad input is named.
    let mut http = server.client();
    assert_refused(
        &http.post("/api/rooms", json!({"game": "ludo"})).await,
        422,
        "not_offered",
        "ludo is not played in rooms",
    );
    assert_refused(&http.post("/api/rooms", json!({"game": "chess"})).await, 422, "unknown_game", "chess");
    assert_refused(
        &http.post("/api/rooms", json!({"game": "ur", "rules": {"pieces": 9}})).await,
        422,
        "bad_rules",
        "pieces",
    );
    assert_refused(
        &http.post("/api/rooms", json!({"game": "ur", "cpu": {"dark": "genius"}})).await,
        422,
        "bad_level",
        "genius",
    );
    assert_refused(&http.post("/api/rooms", json!({"game": "ur", "turn_seconds": 1})).await, 422, "bad_timer", "5");
    assert_refused(&http.get("/api/rooms/ZZZZZZ").await, 404, "unknown_room", "ZZZZZZ");

    let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 2}})).await;
    let guest = join(&server, &code, json!({})).await;
    let mut players = vec![host, guest];
    assert_refused(
        &server.client().post(&format!("/api/rooms/{code}/join"), json!({})).await,
        409,
        "room_full",
        "seat",
    );
    // Only the host starts, only when everyone is ready.
    let not_host = players[1].act(json!({"type": "start"})).await.unwrap();
    assert_eq!(not_host["code"], "not_host");
    let not_ready = players[0].act(json!({"type": "start"})).await.unwrap();
    assert_eq!(not_ready["code"], "not_ready");
    assert!(not_ready["message"].as_str().unwrap().contains("dark"));
    sync_all(&mut players, &code).await;
    start(&mut players, &code).await;
    let room = sync_all(&mut players, &code).await;
    let state = room["state"].clone();
    let version = state["version"].clone();
    let to_move = state["to_act"].as_str().unwrap().to_owned();
    let (mover, other) = if players[0].seat == to_move { (0, 1) } else { (1, 0) };
    // Light's first roll waits for light's player, who asks for it with `roll`.
    let legal = state["moves"][0]["action"].clone();
    assert_eq!(legal, "roll");

    let mut refusals = Vec::new();
    // Another seat's token on this connection.
    let token = players[mover].token.clone();
    refusals.push(
        players[other].ws.command(json!({"type": "move", "action": legal, "version": version, "token": token})).await,
    );
    // No token at all.
    refusals.push(players[mover].ws.command(json!({"type": "move", "action": legal, "version": version})).await);
    // Out of turn, with one's own token.
    refusals.push(players[other].act(json!({"type": "move", "action": legal, "version": version})).await);
    // Naming the other seat.
    refusals
        .push(players[other].act(json!({"type": "move", "action": legal, "version": version, "seat": to_move})).await);
    // A roll chosen by the client.
    refusals.push(players[mover].act(json!({"type": "move", "action": "roll 4", "version": version})).await);
    // A stale version.
    refusals.push(
        players[mover].act(json!({"type": "move", "action": legal, "version": version.as_u64().unwrap() + 1})).await,
    );
    // Not the host.
    refusals.push(players[1].act(json!({"type": "hand_to_cpu", "seat": "light"})).await);
    // A draw in a game without one is named; a lobby command during play too.
    refusals.push(players[mover].act(json!({"type": "ready"})).await);
    let codes: Vec<&str> = refusals.iter().map(|r| r.as_ref().unwrap()["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "bad_token",
            "no_token",
            "not_your_turn",
            "not_your_seat",
            "illegal_action",
            "stale_version",
            "not_host",
            "wrong_phase"
        ]
    );
    for r in &refusals {
        let r = r.as_ref().unwrap();
        assert!(!r["message"].as_str().unwrap().is_empty());
        assert_eq!(r["version"], room["version"], "{r}");
        assert_eq!(r["game_version"], version, "{r}");
    }
    assert!(refusals[4].as_ref().unwrap()["message"].as_str().unwrap().contains("roll 4"));
    // Nothing changed.
    assert_eq!(sync_all(&mut players, &code).await, room);
    // A number for `type` (serde would take it as a variant's index: 0 `hello`, 4 `ready`) and
    // an array for an object are malformed: answered, and nothing changes.
    let token = players[mover].token.clone();
    for bad in [
        json!({"type": 0, "token": token}),
        json!({"type": 4, "ready": true, "token": token}),
        json!(["move", legal, version]),
    ] {
        players[mover].ws.send(bad.clone()).await;
        let answer = players[mover].ws.recv_raw().await.unwrap();
        assert_eq!(
            (answer["type"].as_str(), answer["code"].as_str()),
            (Some("error"), Some("malformed_json")),
            "{bad}"
        );
        // A message refused before it reaches the room still says the game's version.
        assert_eq!((&answer["version"], &answer["game_version"]), (&room["version"], &version), "{bad}");
    }
    assert_eq!(sync_all(&mut players, &code).await, room);
    // A field the message's type does not have is refused naming it (`id` and `token` are
    // allowed on every message), and `command` names the refused message's type whenever it is
    // a string (docs/api.md, "Server → client").
    for (bad, command, needle) in [
        (
            json!({"type": "move", "action": legal, "version": version, "token": token, "extra": 5}),
            json!("move"),
            "unknown field `extra`",
        ),
        (json!({"type": "resign", "token": token, "now": true}), json!("resign"), "unknown field `now`"),
        (json!({"type": "ping", "id": 1, "token": token, "x": 1}), json!("ping"), "unknown field `x`"),
        // A field of the wrong type is named, as in an HTTP body.
        (
            json!({"type": "ready", "ready": "yes", "id": "r1", "token": token}),
            json!("ready"),
            "field `ready`: invalid type: string \"yes\", expected a boolean",
        ),
        (json!({"type": "ready", "ready": "yes", "id": "x".repeat(65), "token": token}), json!("ready"), "a boolean"),
        (json!({"type": "move", "version": version, "token": token}), json!("move"), "action"),
        // `level` may be null (open a computer seat again) but not missing.
        (json!({"type": "cpu", "seat": "dark", "token": token}), json!("cpu"), "missing field `level`"),
        (json!({"type": "fly", "token": token}), json!("fly"), "fly"),
        (json!({"type": "x".repeat(100), "token": token}), json!(format!("{}…", "x".repeat(64))), "unknown variant"),
        (json!({"type": 4, "ready": true, "token": token}), Value::Null, "type"),
    ] {
        players[mover].ws.send(bad.clone()).await;
        let answer = players[mover].ws.recv_raw().await.unwrap();
        assert_refused(&(400, json!({"error": answer.clone()})), 400, "malformed_json", needle);
        let message = answer["message"].as_str().unwrap();
        assert!(message.starts_with("the message is not the expected JSON: "), "{message}");
        assert_eq!((answer["status"].clone(), answer["command"].clone()), (json!(400), command), "{bad}");
        assert_eq!(answer["version"], room["version"], "{bad}");
        assert_eq!(answer["game_version"], version, "{bad}");
        assert_eq!(answer["id"], echoed_id(&bad), "{bad}");
    }
    // A `hello` with a field of the wrong type, on a connection of its own (the players' are
    // near their message rate): refused naming the field.
    let mut stranger = RoomWs::connect(&server, &code).await;
    stranger.send(json!({"type": "hello", "version": "x"})).await;
    let answer = stranger.recv_raw().await.unwrap();
    assert_refused(
        &(400, json!({"error": answer.clone()})),
        400,
        "malformed_json",
        "field `version`: invalid type: string \"x\"",
    );
    // A frame against the protocol closes its connection saying why (RFC 6455 §7.4.1: 1002; a
    // text message that is not UTF-8, 1007); a client's own close is answered (§5.5.1).
    for (frame, close, words) in [
        (common::UNMASKED_TEXT_FRAME, 1002, "unmasked frame from client"),
        (common::NOT_UTF8_TEXT_FRAME, 1007, "UTF-8"),
        (common::NORMAL_CLOSE_FRAME, 1000, ""),
    ] {
        let mut stranger = RoomWs::connect(&server, &code).await;
        let (got, reason) = common::close_after_raw_frame(&mut stranger.stream, frame).await;
        assert_eq!(got, close, "{reason}");
        assert!(reason.contains(words), "{reason}");
    }
    // Nothing changed; `id` and `token` on a message that needs neither are accepted.
    assert_eq!(sync_all(&mut players, &code).await, room);
    let pong = players[mover].ws.command(json!({"type": "ping", "id": "with-token", "token": token})).await;
    assert!(pong.is_none(), "{pong:?}");

    // A duplicate message id is answered, not applied twice.
    assert!(players[0].act(json!({"type": "chat", "text": "hi", "id": 7})).await.is_none());
    let duplicate = players[0].act(json!({"type": "chat", "text": "hi", "id": 7})).await.unwrap();
    assert_eq!(duplicate["code"], "duplicate");
    assert_eq!(duplicate["id"], 7);
    // An id is a string or a number of at most 64 characters.
    assert!(players[0].act(json!({"type": "chat", "text": "hi", "id": "y".repeat(64)})).await.is_none());
    assert!(players[0].act(json!({"type": "chat", "text": "hi", "id": "야".repeat(64)})).await.is_none());
    let long = players[0].act(json!({"type": "chat", "text": "hi", "id": "x".repeat(65)})).await.unwrap();
    assert_eq!((long["code"].as_str(), &long["id"]), (Some("bad_id"), &Value::Null), "an invalid id is not echoed");
    let object = players[0].act(json!({"type": "chat", "text": "hi", "id": {"a": 1}})).await.unwrap();
    assert_eq!((object["code"].as_str(), &object["id"]), (Some("bad_id"), &Value::Null));
    sync_all(&mut players, &code).await;

    // A spectator watches and cannot act, even with a seat's token.
    let mut spectator = RoomWs::connect(&server, &code).await;
    let welcome = spectator.hello(None, None).await;
    assert_eq!(welcome["spectator"], true);
    let refused = spectator.command(json!({"type": "move", "action": legal, "version": version, "token": token})).await;
    assert_eq!(refused.unwrap()["code"], "spectator");
    let refused = spectator.command(json!({"type": "chat", "text": "hello"})).await;
    assert_eq!(refused.unwrap()["code"], "spectator");
    // A bad token at hello.
    let mut stranger = RoomWs::connect(&server, &code).await;
    stranger.send(json!({"type": "hello", "token": "00000000000000000000000000000000"})).await;
    assert_eq!(stranger.recv().await["code"], "bad_token");
    // A refused hello changes nothing, not even how the broadcasts come: the spectator, who asked
    // for whole snapshots, still gets them after asking for changes with a bad token (its view
    // checks that no `changes` reach it), and a `changes` that is not a boolean is malformed.
    spectator.send(json!({"type": "hello", "token": "00000000000000000000000000000000", "changes": true})).await;
    assert_eq!(spectator.recv().await["code"], "bad_token");
    spectator.send(json!({"type": "hello", "changes": "yes"})).await;
    let malformed = spectator.recv().await;
    assert_eq!(malformed["code"], "malformed_json", "{malformed}");
    // Two changes: the first broadcast after one asks for changes still carries the whole room.
    assert!(players[1].act(json!({"type": "chat", "text": "still there?"})).await.is_none());
    assert!(players[1].act(json!({"type": "chat", "text": "hello?"})).await.is_none());
    let room = sync_all(&mut players, &code).await;
    spectator.catch_up(room["version"].as_u64().unwrap()).await;
    assert_eq!(spectator.room, room);

    // Too large, then too fast: told, then disconnected.
    let big = json!({"type": "chat", "text": "x".repeat(5000), "token": token});
    spectator.send(big).await;
    assert_eq!(spectator.recv().await["code"], "message_too_large");
    let mut codes = Vec::new();
    for _ in 0..70 {
        spectator.send(json!({"type": "ping"})).await;
    }
    while let Some(message) = spectator.recv_raw().await {
        codes.push(message["type"].as_str().unwrap().to_owned() + ":" + message["code"].as_str().unwrap_or(""));
    }
    assert!(codes.iter().any(|c| c == "error:rate_limited"), "{codes:?}");
    // Twenty refusals close the connection; every ping the bucket let through (its burst of 40,
    // less the spectator's earlier messages, plus what refilled meanwhile) is answered before
    // the close: an accepted message is never left unanswered.
    let pongs = codes.iter().filter(|c| c.starts_with("pong")).count();
    let limited = codes.iter().filter(|c| *c == "error:rate_limited").count();
    // (The too-large message above was the first of the twenty strikes.)
    assert_eq!(limited + 1, 20, "{codes:?}");
    assert!((25..=50).contains(&pongs), "{pongs} pongs: {codes:?}");

    // A page from another origin may not open the socket.
    let mut request = format!("ws://{}/api/rooms/{code}/ws", server.addr).into_client_request().unwrap();
    request.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await.unwrap_err();
    assert!(refused.to_string().contains("403"), "{refused}");
    let mut request = format!("ws://{}/api/rooms/{code}/ws", server.addr).into_client_request().unwrap();
    request.headers_mut().insert("origin", format!("http://{}", server.addr).parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_ok());
    // The game is unchanged by all of it.
    let after = sync_all(&mut players, &code).await;
    assert_eq!(after["state"], room["state"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_client_reconnects_and_ends_with_the_servers_state() {
    for database in backends() {
        let dir = TempDir::new("rooms-reconnect");
        let config = RoomConfig { catch_up: 12, ..fast() };
        let server = TestServer::start_with(&dir, database, false, config).await;
        let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 2}})).await;
        let guest = join(&server, &code, json!({})).await;
        let mut players = vec![host, guest];
        start(&mut players, &code).await;
        // A spectator from the start sees every event.
        let mut spectator = RoomWs::connect(&server, &code).await;
        spectator.room = players[0].ws.room.clone();
        spectator.version = players[0].ws.version;
        spectator.hello(None, Some(players[0].ws.version)).await;
        let mut dropped_twice = false;
        for round in 0..10_000 {
            let room = sync_all(&mut players, &code).await;
            spectator.catch_up(room["version"].as_u64().unwrap()).await;
            assert_eq!(spectator.room, room);
            if room["status"] == "finished" {
                break;
            }
            let state = room["state"].clone();
            let to_move = state["to_act"].as_str().unwrap().to_owned();
            let (mover, other) = if players[0].seat == to_move { (0, 1) } else { (1, 0) };
            if round == 3 || (round > 6 && !dropped_twice) {
                // The waiting player drops; the mover plays on and chats; the dropped one
                // reconnects with its last version and catches up.
                let last = players[other].ws.version;
                players[other].ws.stream.close(None).await.unwrap();
                let lines = if round == 3 { 2 } else { 15 };
                for i in 0..lines {
                    assert!(players[mover].act(json!({"type": "chat", "text": format!("line {i}")})).await.is_none());
                }
                let action = state["moves"][0]["action"].clone();
                assert!(
                    players[mover]
                        .act(json!({"type": "move", "action": action, "version": state["version"]}))
                        .await
                        .is_none()
                );
                let away = server_room(&mut players[mover].http, &code).await;
                let seat = away["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["name"] == players[other].seat.as_str())
                    .unwrap();
                assert_eq!(seat["connected"], false, "the others see who is away");
                let mut ws = RoomWs::connect(&server, &code).await;
                ws.room = players[other].ws.room.clone();
                ws.version = last;
                ws.send(json!({"type": "hello", "token": players[other].token, "version": last})).await;
                assert_eq!(ws.recv().await["type"], "welcome");
                let catch_up = ws.recv().await;
                // Far behind (over 12 events): a snapshot; a little: the events missed.
                assert_eq!(catch_up["type"], if round == 3 { "events" } else { "snapshot" }, "{catch_up}");
                players[other].ws = ws;
                dropped_twice = round > 3;
                continue;
            }
            let action = state["moves"][0]["action"].clone();
            assert!(
                players[mover]
                    .act(json!({"type": "move", "action": action, "version": state["version"]}))
                    .await
                    .is_none()
            );
        }
        let room = sync_all(&mut players, &code).await;
        assert_eq!(room["status"], "finished");
        assert!(dropped_twice);
        // A fresh hello without a version: the full snapshot equals the server's.
        let mut fresh = RoomWs::connect(&server, &code).await;
        fresh.hello(None, None).await;
        assert_eq!(fresh.room, room);
        // Asking for the history (a page just opened): the 12 events the room keeps, the last
        // 12 versions in order, as the spectator received them, with the whole room.
        let version = room["version"].as_u64().unwrap();
        let mut page = RoomWs::connect(&server, &code).await;
        page.send(json!({"type": "hello", "history": true})).await;
        assert_eq!(page.recv_raw().await.unwrap()["type"], "welcome");
        let history = page.recv_raw().await.unwrap();
        assert_eq!(
            (history["type"].as_str(), history["from"].as_u64(), history["to"].as_u64()),
            (Some("events"), Some(version - 12), Some(version)),
            "{history}"
        );
        let versions: Vec<u64> =
            history["events"].as_array().unwrap().iter().map(|e| e["version"].as_u64().unwrap()).collect();
        assert_eq!(versions, (version - 11..=version).collect::<Vec<_>>());
        assert_eq!(history["room"], room);
        // With a version too old to catch up from, `history` changes nothing: a snapshot (events
        // from above the client's version would be a gap to it).
        let mut behind = RoomWs::connect(&server, &code).await;
        behind.send(json!({"type": "hello", "version": 1, "history": true})).await;
        assert_eq!(behind.recv_raw().await.unwrap()["type"], "welcome");
        assert_eq!(behind.recv_raw().await.unwrap()["type"], "snapshot");
        // The spectator saw every version from its hello on, once each.
        let first = spectator.seen[0];
        assert_eq!(spectator.seen, (first..=room["version"].as_u64().unwrap()).collect::<Vec<_>>());
        server.stop().await;
    }
}

/// A room's snapshot without what a restart changes: the version (it jumps) and presence.
fn durable_part(room: &Value) -> Value {
    let mut room = room.clone();
    room["version"] = Value::Null;
    for seat in room["seats"].as_array_mut().unwrap() {
        if seat["kind"] == "human" {
            seat["connected"] = Value::Null;
            seat["away_since"] = Value::Null;
        }
    }
    room
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_survives_a_server_restart_and_its_game_is_finished() {
    for database in backends() {
        let dir = TempDir::new("rooms-restart");
        let server = TestServer::start_with(&dir, database.clone(), false, fast()).await;
        let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 3}})).await;
        let guest = join(&server, &code, json!({"nickname": "Joon"})).await;
        let mut players = vec![host, guest];
        // A restart in the lobby keeps the seats and the ready flags, and the chat.
        assert!(players[1].act(json!({"type": "ready"})).await.is_none());
        assert!(players[1].act(json!({"type": "chat", "text": "ready when you are"})).await.is_none());
        let lobby = sync_all(&mut players, &code).await;
        server.stop().await;
        let server = TestServer::start_with(&dir, database.clone(), false, fast()).await;
        for p in &mut players {
            p.http.base = server.base.clone();
        }
        let rebuilt = server_room(&mut players[0].http, &code).await;
        assert_eq!(durable_part(&rebuilt), durable_part(&lobby));
        assert!(rebuilt["version"].as_u64().unwrap() > lobby["version"].as_u64().unwrap());
        for p in &mut players {
            let mut ws = RoomWs::connect(&server, &code).await;
            let welcome = ws.hello(Some(&p.token), Some(p.ws.version)).await;
            assert_eq!(welcome["seat"], p.seat.as_str(), "the stored token still holds the seat");
            p.ws = ws;
        }
        assert!(players[0].act(json!({"type": "start"})).await.is_none());
        sync_all(&mut players, &code).await;
        // Some moves, then a restart in the middle of the game.
        for _ in 0..12 {
            let room = sync_all(&mut players, &code).await;
            let state = &room["state"];
            let to_move = state["to_act"].as_str().unwrap().to_owned();
            let mover = players.iter_mut().find(|p| p.seat == to_move).unwrap();
            let action = state["moves"][0]["action"].clone();
            let e = mover.act(json!({"type": "move", "action": action, "version": state["version"]})).await;
            assert!(e.is_none(), "{e:?}");
        }
        assert!(players[0].act(json!({"type": "chat", "text": "back soon"})).await.is_none());
        let before = sync_all(&mut players, &code).await;
        assert_eq!(before["status"], "playing");
        server.stop().await;
        let server = TestServer::start_with(&dir, database, false, fast()).await;
        for p in &mut players {
            p.http.base = server.base.clone();
        }
        let after = server_room(&mut players[0].http, &code).await;
        assert_eq!(durable_part(&after), durable_part(&before), "the rebuilt room is the room before the restart");
        assert!(after["version"].as_u64().unwrap() > before["version"].as_u64().unwrap());
        // Both reconnect with their tokens and last versions: a snapshot (versions jumped).
        for p in &mut players {
            let mut ws = RoomWs::connect(&server, &code).await;
            ws.version = p.ws.version;
            ws.send(json!({"type": "hello", "token": p.token, "version": p.ws.version})).await;
            let welcome = ws.recv().await;
            assert_eq!(welcome["seat"], p.seat.as_str(), "{welcome}");
            assert_eq!(ws.recv().await["type"], "snapshot");
            p.ws = ws;
        }
        sync_all(&mut players, &code).await;
        // A page opened now asks for the history: the chat lines said before the restarts, in
        // order, with who said them, are the rebuilt room's first events.
        let mut page = RoomWs::connect(&server, &code).await;
        page.send(json!({"type": "hello", "history": true})).await;
        assert_eq!(page.recv_raw().await.unwrap()["type"], "welcome");
        let history = page.recv_raw().await.unwrap();
        assert_eq!(history["type"], "events", "{history}");
        let nickname = |seat: &str| {
            before["seats"].as_array().unwrap().iter().find(|s| s["name"] == seat).unwrap()["nickname"].clone()
        };
        let chat: Vec<Value> = history["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "chat")
            .map(|e| json!([e["seat"], e["nickname"], e["text"]]))
            .collect();
        assert_eq!(
            chat,
            [
                json!([players[1].seat, "Joon", "ready when you are"]),
                json!([players[0].seat, nickname(&players[0].seat), "back soon"]),
            ]
        );
        // A spectator, and a command with a wrong token, still get the usual answers.
        let error = players[1].ws.command(json!({"type": "chat", "text": "hi", "token": "00"})).await.unwrap();
        assert_eq!(error["code"], "bad_token");
        let room = play_to_end(&mut players, &code).await;
        assert_eq!(room["games"], before["games"], "the same game was finished");
        // The record has every action once, and the players' stats count the game.
        let id = room["games"][0].as_str().unwrap().to_owned();
        let (status, record) = players[0].http.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(status, 200);
        assert_eq!(record["actions"].as_array().unwrap().len() as u64, room["state"]["version"].as_u64().unwrap());
        for p in &mut players {
            let line = stats_line(&mut p.http, "ur").await;
            assert_eq!(line["played"], 1, "{line}");
        }
        // A rematch after the restart works as before.
        for p in &mut players {
            assert!(p.act(json!({"type": "rematch"})).await.is_none());
        }
        let room = sync_all(&mut players, &code).await;
        assert_eq!(room["status"], "playing");
        assert_eq!(room["games"].as_array().unwrap().len(), 2);
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_joins_to_the_last_free_seat_give_it_to_exactly_one() {
    for database in backends() {
        let dir = TempDir::new("rooms-race");
        let server = TestServer::start_with(&dir, database, false, fast()).await;
        let (code, _host) = create_room(&server, json!({"game": "yut", "players": 3, "cpu": {"B": "easy"}})).await;
        let mut tasks = Vec::new();
        for i in 0..8 {
            let mut client = server.client();
            let path = format!("/api/rooms/{code}/join");
            tasks.push(tokio::spawn(async move { client.post(&path, json!({"nickname": format!("p{i}")})).await }));
        }
        let mut won = 0;
        for task in tasks {
            let (status, body) = task.await.unwrap();
            match status {
                200 => {
                    won += 1;
                    assert_eq!(body["seat"], "C");
                }
                409 => assert_eq!(body["error"]["code"], "room_full"),
                other => panic!("{other}: {body}"),
            }
        }
        assert_eq!(won, 1);
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_away_seat_goes_to_the_cpu_after_the_grace_period_and_comes_back() {
    let dir = TempDir::new("rooms-grace");
    let config = RoomConfig { grace: Duration::from_millis(600), ..fast() };
    let server = TestServer::start_with(&dir, None, false, config).await;
    let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 3}})).await;
    let guest = join(&server, &code, json!({})).await;
    let mut players = vec![host, guest];
    // The host leaving before the start passes the role (a third player to pass it to).
    start(&mut players, &code).await;
    // Play until it is dark's turn, then dark drops.
    loop {
        let room = sync_all(&mut players, &code).await;
        let state = &room["state"];
        if state["to_act"] == "dark" {
            break;
        }
        let action = state["moves"][0]["action"].clone();
        assert!(players[0].act(json!({"type": "move", "action": action, "version": state["version"]})).await.is_none());
    }
    let mut dark = players.pop().unwrap();
    dark.ws.stream.close(None).await.unwrap();
    while server_room(&mut players[0].http, &code).await["seats"][1]["connected"] == true {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let host = &mut players[0];
    let early = host.act(json!({"type": "hand_to_cpu", "seat": "dark", "level": "easy"})).await.unwrap();
    assert_eq!(early["code"], "grace_period", "{early}");
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(host.act(json!({"type": "hand_to_cpu", "seat": "dark", "level": "easy"})).await.is_none());
    let room = server_room(&mut host.http, &code).await;
    let seat = &room["seats"][1];
    assert_eq!(seat["cpu_playing"], "easy");
    // The computer played dark's turn: light (or the end) is next.
    assert!(room["state"]["to_act"] != "dark" || room["status"] == "finished", "{room}");
    // Dark comes back and takes the seat back.
    let mut ws = RoomWs::connect(&server, &code).await;
    ws.hello(Some(&dark.token), None).await;
    assert_eq!(ws.room["seats"][1]["cpu_playing"], Value::Null);
    assert_eq!(ws.room["seats"][1]["connected"], true);
    dark.ws = ws;
    players.push(dark);
    let room = sync_all(&mut players, &code).await;
    if room["status"] != "finished" {
        play_to_end(&mut players, &code).await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_leaving_before_the_start_passes_the_role_and_cpu_seats_fill() {
    let dir = TempDir::new("rooms-host");
    let server = TestServer::start_with(&dir, None, false, fast()).await;
    let (code, host) =
        create_room(&server, json!({"game": "yut", "players": 3, "rules": {"pieces": 1, "order": "seated"}})).await;
    let second = join(&server, &code, json!({"seat": "C"})).await;
    let mut players = vec![host, second];
    sync_all(&mut players, &code).await;
    assert!(players[0].act(json!({"type": "leave"})).await.is_none());
    let mut players = players.split_off(1);
    let room = sync_all(&mut players, &code).await;
    assert_eq!(room["host"], "C");
    assert_eq!(room["seats"][0]["kind"], "open");
    // The new host gives one seat to the computer, then the rest when starting.
    assert!(players[0].act(json!({"type": "cpu", "seat": "A", "level": "easy"})).await.is_none());
    let open = players[0].act(json!({"type": "start"})).await.unwrap();
    assert_eq!(open["code"], "seats_open");
    assert!(players[0].act(json!({"type": "start", "fill_cpu": "normal"})).await.is_none());
    let room = sync_all(&mut players, &code).await;
    assert_eq!(room["seats"][1]["level"], "normal");
    play_to_end(&mut players, &code).await;
    let line = stats_line(&mut players[0].http, "yut").await;
    assert_eq!(line["played"], 1);
    assert_eq!(line["cpu"], "easy+normal");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_timer_lets_the_computer_play_a_slow_turn() {
    let dir = TempDir::new("rooms-timer");
    let server = TestServer::start_with(&dir, None, false, fast()).await;
    let (code, host) = create_room(&server, json!({"game": "ur", "rules": {"pieces": 2}, "turn_seconds": 5})).await;
    let guest = join(&server, &code, json!({})).await;
    let mut players = vec![host, guest];
    start(&mut players, &code).await;
    let room = sync_all(&mut players, &code).await;
    let deadline = room["deadline"].as_i64().unwrap();
    // Light's first roll waits for light's player.
    assert_eq!((room["state"]["to_move"].as_str(), room["state"]["to_act"].as_str()), (Some("chance"), Some("light")));
    // Nobody taps: after 5 s the computer plays the turn, the roll included.
    let read = tokio::time::timeout(Duration::from_secs(8), players[0].ws.recv()).await.unwrap();
    let events = read["events"].as_array().unwrap();
    assert_eq!(events[0]["type"], "timeout");
    assert_eq!(events[0]["seat"], "light");
    assert!(events[0]["at"].as_i64().unwrap() >= deadline);
    assert_eq!(events[1]["by"], "chance");
    assert_eq!(
        (events[1]["events"][0]["kind"].as_str(), events[1]["events"][0]["seat"].as_str()),
        (Some("roll"), Some("light")),
        "{}",
        events[1]
    );
    // Then light's move, unless the roll was 0 or left no move: then the turn passed to dark,
    // whose own roll waits for dark's player (the room's seed is random: a 0 is 1 roll in 16).
    let passed = events[1]["events"].as_array().unwrap().len() > 1;
    if passed {
        assert_eq!(events.len(), 2, "{events:?}");
    } else {
        assert_eq!(events[2]["by"], "cpu", "{events:?}");
    }
    let room = sync_all(&mut players, &code).await;
    assert!(room["deadline"].as_i64().unwrap() > deadline || room["status"] == "finished");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_timer_plays_one_turn_even_against_the_computer() {
    // docs/api.md, "Limits and timings": the computer plays the slow seat "until another seat is
    // to move". Against a computer seat, which answers at once, the turn comes straight back:
    // that is the person's next turn, with a new deadline, not more of the one that ran out.
    let dir = TempDir::new("rooms-timer-cpu");
    let server = TestServer::start_with(&dir, None, false, fast()).await;
    let (code, host) =
        create_room(&server, json!({"game": "ur", "rules": {"pieces": 2}, "cpu": {"dark": "easy"}, "turn_seconds": 5}))
            .await;
    let mut players = vec![host];
    assert!(players[0].act(json!({"type": "start"})).await.is_none());
    let room = sync_all(&mut players, &code).await;
    assert_eq!(room["state"]["to_act"], "light");
    let deadline = room["deadline"].as_i64().unwrap();
    let read = tokio::time::timeout(Duration::from_secs(8), players[0].ws.recv()).await.unwrap();
    let events = read["events"].as_array().unwrap();
    assert_eq!((events[0]["type"].as_str(), events[0]["seat"].as_str()), (Some("timeout"), Some("light")));
    // The timer throws light's roll, then plays light's move (or the roll passed).
    assert_eq!(events[1]["by"].as_str(), Some("chance"));
    assert_eq!(
        (events[1]["events"][0]["kind"].as_str(), events[1]["events"][0]["seat"].as_str()),
        (Some("roll"), Some("light")),
        "{}",
        events[1]
    );
    // Dark's turn: its move, or its roll (the engine's event names the roller: "dark rolls 0").
    let darks = |e: &Value| e["seat"] == "dark" || e["events"][0]["seat"] == "dark";
    let dark = events.iter().position(darks).expect("dark's turn follows the timeout");
    assert!(
        events[dark..].iter().all(|e| e["seat"] != "light"),
        "after dark has moved, light's turn is the person's again: {events:?}"
    );
    let room = sync_all(&mut players, &code).await;
    assert_eq!(room["status"], "playing");
    // The person's next turn: their roll waits again, with a new deadline.
    assert_eq!((room["state"]["to_move"].as_str(), room["state"]["to_act"].as_str()), (Some("chance"), Some("light")));
    assert!(room["deadline"].as_i64().unwrap() > deadline);
    server.stop().await;
}

// ------------------------------------------------------------------------------------------
// Property test: random command sequences from several clients.

use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Step {
    Join(usize),
    Ready(usize),
    Start(usize),
    /// A move: the legal action at this index, or (false) an illegal one of this kind.
    Move(usize, usize, bool),
    Disconnect(usize),
    Reconnect(usize),
    Resign(usize),
    Chat(usize),
    Leave(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let who = 0..3usize;
    prop_oneof![
        1 => who.clone().prop_map(Step::Join),
        1 => who.clone().prop_map(Step::Ready),
        1 => who.clone().prop_map(Step::Start),
        8 => (who.clone(), 0..8usize, proptest::bool::weighted(0.8)).prop_map(|(w, i, l)| Step::Move(w, i, l)),
        1 => who.clone().prop_map(Step::Disconnect),
        1 => who.clone().prop_map(Step::Reconnect),
        1 => who.clone().prop_map(Step::Resign),
        1 => who.clone().prop_map(Step::Chat),
        1 => who.prop_map(Step::Leave),
    ]
}

struct Model {
    http: Client,
    token: Option<String>,
    seat: Option<String>,
    ws: Option<RoomWs>,
    last: (Value, u64),
}

/// What the server must do with `step` given its room before it.
fn expected(step: &Step, room: &Value, models: &[Model]) -> bool {
    let who = match step {
        Step::Join(w)
        | Step::Ready(w)
        | Step::Start(w)
        | Step::Move(w, _, _)
        | Step::Disconnect(w)
        | Step::Reconnect(w)
        | Step::Resign(w)
        | Step::Chat(w)
        | Step::Leave(w) => *w,
    };
    let m = &models[who];
    let seat = m.seat.as_deref();
    let status = room["status"].as_str().unwrap();
    let my = |key: &str| -> Value {
        room["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| Some(s["name"].as_str().unwrap()) == seat)
            .map_or(Value::Null, |s| s[key].clone())
    };
    match step {
        Step::Join(_) => {
            seat.is_none() && status == "lobby" && room["seats"].as_array().unwrap().iter().any(|s| s["kind"] == "open")
        }
        Step::Ready(_) => status == "lobby" && my("ready") == false,
        Step::Start(_) => {
            let seats = room["seats"].as_array().unwrap();
            status == "lobby"
                && room["host"].as_str() == seat
                && seats.iter().all(|s| s["kind"] != "open")
                && seats.iter().all(|s| s["kind"] != "human" || s["ready"] == true || s["name"].as_str() == seat)
        }
        Step::Move(_, _, legal) => *legal && status == "playing" && room["state"]["to_act"].as_str() == seat,
        Step::Resign(_) => status == "playing",
        Step::Chat(_) => true,
        Step::Leave(_) => status != "playing",
        Step::Disconnect(_) | Step::Reconnect(_) => true,
    }
}

async fn run_case(server: &TestServer, steps: Vec<Step>) -> Result<(), TestCaseError> {
    let (code, host) = create_room(server, json!({"game": "ur", "rules": {"pieces": 1}})).await;
    let mut models = vec![Model {
        http: host.http,
        token: Some(host.token),
        seat: Some(host.seat),
        ws: Some(host.ws),
        last: (Value::Null, 0),
    }];
    for _ in 1..3 {
        models.push(Model { http: server.client(), token: None, seat: None, ws: None, last: (Value::Null, 0) });
    }
    for step in steps {
        let room = server_room(&mut models[0].http, &code).await;
        let accept = expected(&step, &room, &models);
        let who = match &step {
            Step::Join(w)
            | Step::Ready(w)
            | Step::Start(w)
            | Step::Move(w, _, _)
            | Step::Disconnect(w)
            | Step::Reconnect(w)
            | Step::Resign(w)
            | Step::Chat(w)
            | Step::Leave(w) => *w,
        };
        let m = &mut models[who];
        let command = match &step {
            Step::Join(_) => {
                let (status, body) = m.http.post(&format!("/api/rooms/{code}/join"), json!({})).await;
                prop_assert_eq!(status == 200, accept, "join: {} {}", status, body);
                if status == 200 {
                    m.token = body["token"].as_str().map(str::to_owned);
                    m.seat = body["seat"].as_str().map(str::to_owned);
                    let now = server_room(&mut m.http, &code).await["version"].as_u64().unwrap();
                    if let Some(ws) = &mut m.ws {
                        // Re-bind this connection to the new seat (after the join's own event,
                        // which it saw as a spectator).
                        ws.catch_up(now).await;
                        ws.hello(m.token.as_deref(), Some(ws.version)).await;
                    }
                }
                None
            }
            Step::Disconnect(_) => {
                if let Some(mut ws) = m.ws.take() {
                    m.last = (ws.room.clone(), ws.version);
                    ws.stream.close(None).await.ok();
                }
                None
            }
            Step::Reconnect(_) => {
                if m.ws.is_none() {
                    let mut ws = RoomWs::connect(server, &code).await;
                    // Every other player asks for changes: both kinds of broadcast must leave
                    // the same snapshot as the server's (checked after every step).
                    ws.changes = who % 2 == 1;
                    let resume = m.last.1;
                    ws.room = m.last.0.clone();
                    ws.version = resume;
                    ws.hello(m.token.as_deref(), (resume > 0).then_some(resume)).await;
                    m.ws = Some(ws);
                }
                None
            }
            Step::Ready(_) => Some(json!({"type": "ready"})),
            Step::Start(_) => Some(json!({"type": "start"})),
            Step::Resign(_) => Some(json!({"type": "resign"})),
            Step::Chat(_) => Some(json!({"type": "chat", "text": "hi"})),
            Step::Leave(_) => Some(json!({"type": "leave"})),
            Step::Move(_, index, legal) => {
                let state = &room["state"];
                let version = state["version"].as_u64().unwrap_or(0);
                // The moves of the seat to act (a decision's actions, or its own `roll`).
                let list: Vec<Value> = state["moves"]
                    .as_array()
                    .map(|moves| moves.iter().map(|m| m["action"].clone()).collect())
                    .unwrap_or_default();
                Some(if *legal && !list.is_empty() {
                    json!({"type": "move", "action": list[index % list.len()], "version": version})
                } else {
                    match index % 4 {
                        0 => json!({"type": "move", "action": "roll 4", "version": version}),
                        1 => json!({"type": "move", "action": "move 99", "version": version}),
                        2 => {
                            json!({"type": "move", "action": list.first().cloned().unwrap_or(json!("move 0")), "version": version + 1})
                        }
                        _ => {
                            json!({"type": "move", "action": list.first().cloned().unwrap_or(json!("move 0")), "version": version.wrapping_sub(1)})
                        }
                    }
                })
            }
        };
        if let Some(mut command) = command {
            let Some(ws) = &mut m.ws else { continue };
            if ws.room["version"] != room["version"] {
                ws.catch_up(room["version"].as_u64().unwrap()).await;
            }
            let Some(token) = &m.token else {
                // A connection without a seat is a spectator: refused.
                let answer = ws.command(command).await;
                prop_assert_eq!(answer.map(|a| a["code"].clone()), Some(json!("spectator")));
                continue;
            };
            command["token"] = json!(token);
            let answer = ws.command(command.clone()).await;
            let accepted = answer.is_none();
            let legal_move = matches!(step, Step::Move(_, _, true));
            // A legal move is accepted exactly when it is this seat's turn.
            prop_assert!(
                accepted == accept || (legal_move && room["state"]["moves"].as_array().is_none_or(Vec::is_empty)),
                "{:?} {} → {:?} (expected {}) in {}",
                step,
                command,
                answer,
                accept,
                room
            );
            if accepted && matches!(step, Step::Leave(_)) {
                m.token = None;
                m.seat = None;
            }
            if room["status"] == "lobby" && matches!(step, Step::Leave(_)) && accepted && who == 0 {
                // The room closes when its last person leaves.
            }
        }
        // Every connected client catches up to exactly the server's room.
        let Ok(now) = tokio::time::timeout(Duration::from_secs(5), async {
            let (status, body) = models[0].http.get(&format!("/api/rooms/{code}")).await;
            (status, body)
        })
        .await
        else {
            return Err(TestCaseError::fail("the room stopped answering"));
        };
        if now.0 == 404 {
            // Everyone left: the room closed.
            prop_assert!(models.iter().all(|m| m.seat.is_none()));
            return Ok(());
        }
        let room = now.1["room"].clone();
        let version = room["version"].as_u64().unwrap();
        for m in &mut models {
            if let Some(ws) = &mut m.ws {
                ws.catch_up(version).await;
                prop_assert_eq!(&ws.room, &room);
            }
        }
    }
    Ok(())
}

#[test]
fn random_command_sequences_never_break_the_room() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let dir = TempDir::new("rooms-props");
    let server = runtime.block_on(TestServer::start_with(&dir, None, false, fast()));
    let cases = std::env::var("MADANG_ROOM_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(24);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    // Half the cases start with a full, ready room and a started game, so moves are tried.
    let strategy = (proptest::bool::ANY, proptest::collection::vec(step(), 5..40)).prop_map(|(started, steps)| {
        let mut all =
            if started { vec![Step::Join(1), Step::Reconnect(1), Step::Ready(1), Step::Start(0)] } else { Vec::new() };
        all.extend(steps);
        all
    });
    let result = runner.run(&strategy, |steps| runtime.block_on(run_case(&server, steps)));
    runtime.block_on(server.stop());
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// A game's `action` and `end` events have exactly the fields `docs/api.md` lists ("Events":
/// `version`, `type`, `at` and the type's own).
fn check_game_event(e: &Value) {
    let own: &[&str] = match e["type"].as_str().unwrap() {
        "action" => &["game_version", "index", "action", "seat", "by", "events"],
        "end" => &["game_version", "end"],
        _ => return,
    };
    let mut keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut expected: Vec<&str> = own.iter().copied().chain(["version", "type", "at"]).collect();
    expected.sort_unstable();
    assert_eq!(keys, expected, "{e}");
    assert!(e["game_version"].as_u64().unwrap() >= 1, "{e}");
    assert!(e["at"].as_i64().unwrap() > 0, "{e}");
    if e["type"] == "action" {
        assert!(["human", "cpu", "chance"].contains(&e["by"].as_str().unwrap()), "{e}");
        assert!(e["events"].is_array() && e["action"].is_string() && e["index"].is_u64(), "{e}");
        // Every action names its seat: the one that moved, or whose roll or throw it was (every
        // chance of these games has a thrower).
        assert!(e["seat"].is_string(), "{e}");
    }
}
