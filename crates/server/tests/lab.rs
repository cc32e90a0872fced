//! The designer's lab over real HTTP (`docs/api.md`, "Lab"; `docs/lab.md`, "In the web app"):
//! a run's report equals the simulator's own for the same run, its HTML page is served inline or
//! as a download, and the bounds hold — one run per player (`409 already_running`), the server's
//! limit (`503 busy`), cancellation, the time limit, the games cap — with bad requests refused by
//! name and changing nothing. Runs live in memory only, so SQLite alone is enough here.

#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{Client, TempDir, TestServer, assert_refused};
use madang_core::Game;
use madang_server::{Config, LabLimits, Limits, Quotas, Synchronous};
use madang_sim::{SimConfig, SimReport};
use serde_json::{Value, json};

/// A server with these lab limits (and no quotas).
async fn server(dir: &TempDir, lab: LabLimits) -> TestServer {
    TestServer::start_config(Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.0.clone(),
        database: None,
        allow_fixed_seed: false,
        synchronous: Synchronous::Normal,
        public_url: None,
        rooms: madang_server::rooms::RoomConfig::default(),
        limits: Limits { quotas: Quotas::off(), lab, ..Limits::default() },
        files: None,
        cluster: None,
    })
    .await
}

/// Starts a run; panics unless `202` with the run as accepted (`running`, nothing played yet,
/// however short the run: `docs/api.md`).
async fn start(client: &mut Client, body: Value) -> Value {
    let (status, run) = client.post("/api/lab/runs", body.clone()).await;
    assert_eq!(status, 202, "{body}: {run}");
    assert_eq!((&run["status"], &run["done"]), (&json!("running"), &json!(0)), "{run}");
    run
}

/// Asks for the run until it has ended (at most a minute).
async fn ended(client: &mut Client, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, run) = client.get(&format!("/api/lab/runs/{id}")).await;
        assert_eq!(status, 200, "{run}");
        if run["status"] != "running" {
            return run;
        }
        assert!(Instant::now() < deadline, "run {id} still running after a minute: {run}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET path` with the client's cookie: status, headers and text (an HTML page is not JSON).
async fn fetch(client: &Client, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let response = client
        .http
        .get(format!("{}{path}", client.base))
        .header("cookie", client.cookie.clone().unwrap())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    headers.get(name).map_or("", |v| v.to_str().unwrap())
}

/// A report as JSON text read back, without its timing (the one part that varies from run to
/// run). Both sides of a comparison are read from text, as the client reads the server's.
fn statistics(report: &SimReport) -> Value {
    let mut value: Value = serde_json::from_str(&serde_json::to_string(report).unwrap()).unwrap();
    value.as_object_mut().unwrap().remove("timing");
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_reports_what_the_simulator_reports_for_the_same_run() {
    let dir = TempDir::new("lab-report");
    let server = server(&dir, LabLimits::default()).await;
    let mut client = server.client();
    let body = json!({"game": "ur", "bots": ["greedy", "random"], "games": 60, "seed": 7, "rotate_seats": true});
    let run = start(&mut client, body).await;
    assert_eq!(run["total"], 60, "{run}");
    assert_eq!((run["seed"].clone(), run["seed_text"].clone()), (json!(7), json!("7")), "{run}");
    let id = run["id"].as_str().unwrap().to_owned();
    let run = ended(&mut client, &id).await;
    assert_eq!((run["status"].clone(), run["done"].clone()), (json!("done"), json!(60)), "{run}");
    assert_eq!(run["reports"].as_array().unwrap().len(), 1, "{run}");

    let (status, body) = client.get(&format!("/api/lab/runs/{id}/reports/0")).await;
    assert_eq!(status, 200, "{body}");
    let report: SimReport = serde_json::from_value(body.clone()).unwrap();
    // The same run played at once by the simulator (the server plays it in 60 shards of one
    // game each, on one thread, and merges them).
    let ur = madang_ur::Ur::new(&Default::default(), None).unwrap();
    let config = SimConfig {
        games: 60,
        seed: 7,
        bots: vec!["greedy".to_owned(), "random".to_owned()],
        rotate_seats: true,
        rules: json!({}),
        ..SimConfig::default()
    };
    let expected = madang_sim::simulate(&ur, &config, &|_| {}).unwrap();
    let mut body = body;
    body.as_object_mut().unwrap().remove("timing");
    assert_eq!(body, statistics(&expected));
    // And the figures add up: every Ur game has one winner (no draws, no game without a
    // result), each seat took part in all 60, and each bot played one seat a game.
    assert_eq!((report.games, report.draws, report.no_result), (60, 0, 0));
    assert_eq!(report.by_seat.iter().map(|r| r.wins).sum::<u64>(), 60);
    assert!(report.by_seat.iter().all(|r| r.games == 60), "{:?}", report.by_seat);
    assert_eq!(
        report.by_bot.iter().map(|r| (r.name.as_str(), r.games)).collect::<Vec<_>>(),
        [("greedy", 60), ("random", 60)]
    );
    assert_eq!(report.by_bot.iter().map(|r| r.wins).sum::<u64>(), 60);
    assert_eq!(report.totals.lengths.values().sum::<u64>(), 60);

    // The HTML page, inline (the lab page frames it) and as a download.
    let (status, headers, page) = fetch(&client, &format!("/api/lab/runs/{id}/reports/0/html?lang=ko")).await;
    assert_eq!(status, 200, "{page}");
    assert!(header(&headers, "content-type").starts_with("text/html"), "{headers:?}");
    assert!(header(&headers, "content-disposition").starts_with("inline"), "{headers:?}");
    let csp = header(&headers, "content-security-policy");
    assert!(csp.contains("sandbox") && csp.contains("frame-ancestors 'self'"), "{csp}");
    assert!(page.contains("<html lang=\"ko\"") && page.contains("<svg") && !page.contains("<script"), "{page}");
    let (status, headers, _) = fetch(&client, &format!("/api/lab/runs/{id}/reports/0/html?download=1")).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-disposition"), format!("attachment; filename=\"madang-lab-ur-{id}-0.html\""));
    let (status, headers, _) = fetch(&client, &format!("/api/lab/runs/{id}/reports/0?download=1")).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-disposition"), format!("attachment; filename=\"madang-lab-ur-{id}-0.json\""));

    // What the run has not, and what another player cannot see.
    assert_refused(&client.get(&format!("/api/lab/runs/{id}/reports/1")).await, 404, "unknown_report", "1 report");
    assert_refused(&client.get(&format!("/api/lab/runs/{id}/reports/0?lang=xx")).await, 400, "bad_request", "lang");
    assert_refused(
        &client.get(&format!("/api/lab/runs/{id}/reports/0/html?lang=ko&lang=en")).await,
        400,
        "bad_request",
        "the query gives \"lang\" more than once",
    );
    assert_refused(&client.post(&format!("/api/lab/runs/{id}/cancel"), json!({})).await, 409, "not_running", "done");
    let mut other = server.client();
    assert_refused(&other.get(&format!("/api/lab/runs/{id}")).await, 404, "unknown_run", &id);
    assert_refused(&other.get(&format!("/api/lab/runs/{id}/reports/0")).await, 404, "unknown_run", &id);
    let (_, overview) = client.get("/api/lab").await;
    assert_eq!(overview["runs"][0]["id"], json!(id), "{overview}");
    assert_eq!(overview["limits"]["max_games"], 10_000);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_rule_set_is_played_with_the_same_seeds() {
    let dir = TempDir::new("lab-compare");
    let server = server(&dir, LabLimits::default()).await;
    let mut client = server.client();
    let body = json!({"game": "ur", "rules": {}, "compare_rules": {"preset": "blitz"}, "bots": ["random", "random"],
                      "games": 20, "seed": 11});
    let run = start(&mut client, body).await;
    assert_eq!(run["total"], 40, "{run}");
    let id = run["id"].as_str().unwrap().to_owned();
    let run = ended(&mut client, &id).await;
    assert_eq!((run["status"].clone(), run["done"].clone()), (json!("done"), json!(40)), "{run}");
    // A finished run's time stands still.
    tokio::time::sleep(Duration::from_millis(30)).await;
    let (_, again) = client.get(&format!("/api/lab/runs/{id}")).await;
    assert_eq!(again["elapsed_ms"], run["elapsed_ms"]);
    let reports = run["reports"].as_array().unwrap();
    assert_eq!(reports.iter().map(|r| r["rules"].clone()).collect::<Vec<_>>(), [json!({}), json!({"preset": "blitz"})]);
    let mut played = Vec::new();
    for n in 0..2 {
        let (status, report) = client.get(&format!("/api/lab/runs/{id}/reports/{n}")).await;
        assert_eq!(status, 200, "{report}");
        played.push((report["games"].clone(), report["seed"].clone()));
    }
    assert_eq!(played, [(json!(20), json!(11)), (json!(20), json!(11))]);
    // The second rule set's report is the simulator's for those rules.
    let (_, second) = client.get(&format!("/api/lab/runs/{id}/reports/1")).await;
    let blitz: madang_ur::Ur = madang_games::build(&json!({"preset": "blitz"}), None).unwrap();
    let config = SimConfig {
        games: 20,
        seed: 11,
        bots: vec!["random".to_owned(); 2],
        rules: json!({"preset": "blitz"}),
        ..SimConfig::default()
    };
    let expected = madang_sim::simulate(&blitz, &config, &|_| {}).unwrap();
    let mut second = second;
    second.as_object_mut().unwrap().remove("timing");
    assert_eq!(second, statistics(&expected));
    // The comparison (`madang sim --compare`): the two reports and the test of the first mover's
    // win rate, whose proportions are the reports' first movers'.
    let links = &run["comparison"];
    let (status, comparison) = client.get(links["json"].as_str().unwrap()).await;
    assert_eq!(status, 200, "{comparison}");
    assert_eq!(comparison["reports"].as_array().map(Vec::len), Some(2));
    let first = &comparison["differences"][0]["first_mover"];
    assert_eq!(first["second"], second["by_position"][0]["win_rate"]);
    let (status, headers, page) = fetch(&client, &format!("{}?lang=en", links["html"].as_str().unwrap())).await;
    assert_eq!(status, 200);
    assert!(header(&headers, "content-security-policy").contains("sandbox"), "{headers:?}");
    assert!(
        page.contains("Rule sets compared") && page.contains("--compare '{}' '{&quot;preset&quot;:&quot;blitz&quot;}'"),
        "{page}"
    );
    // A run of one rule set has no comparison.
    let run = start(&mut client, json!({"game": "ur", "bots": ["random", "random"], "games": 5})).await;
    let id = run["id"].as_str().unwrap().to_owned();
    let run = ended(&mut client, &id).await;
    assert!(run["comparison"].is_null(), "{run}");
    let (status, body) = client.get(&format!("/api/lab/runs/{id}/comparison")).await;
    assert_eq!((status, body["error"]["code"].clone()), (404, json!("unknown_report")), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_run_per_player_a_server_limit_and_cancellation() {
    let dir = TempDir::new("lab-bounds");
    // Long runs for the test: random Ur games, a million of them, far from the time limit.
    let lab = LabLimits { max_games: 1_000_000, run_time: Duration::from_secs(3600), ..LabLimits::default() };
    assert_eq!(lab.running, 1, "the default server-wide limit");
    let server = server(&dir, lab).await;
    let long = json!({"game": "ur", "bots": ["random", "random"], "games": 1_000_000});
    let mut alice = server.client();
    let mut bob = server.client();
    let first = start(&mut alice, long.clone()).await;
    let id = first["id"].as_str().unwrap().to_owned();

    // Alice's second run while her first plays: 409, naming the run going.
    assert_refused(&alice.post("/api/lab/runs", long.clone()).await, 409, "already_running", &id);
    // Bob's: the server runs one at a time, so 503 busy (not queued).
    assert_refused(&bob.post("/api/lab/runs", long.clone()).await, 503, "busy", "at most 1 run");
    let (_, overview) = bob.get("/api/lab").await;
    assert_eq!(overview["runs"], json!([]), "a refused start leaves nothing: {overview}");

    // A report of a number it will never have is unknown, running or not.
    assert_refused(&alice.get(&format!("/api/lab/runs/{id}/reports/1")).await, 404, "unknown_report", "1 report");
    assert_refused(&alice.get(&format!("/api/lab/runs/{id}/comparison")).await, 404, "unknown_report", "one rule set");
    assert_refused(&alice.get(&format!("/api/lab/runs/{id}/reports/0")).await, 409, "not_finished", "still running");
    // Cancelling takes an empty body or `{}`: anything else is refused and the run goes on.
    let cancel = format!("/api/lab/runs/{id}/cancel");
    assert_refused(&alice.post(&cancel, json!({"now": true})).await, 400, "malformed_json", "now");
    assert_refused(&alice.post(&cancel, json!([1])).await, 400, "malformed_json", "JSON object");
    assert_refused(&alice.post_raw(&cancel, "junk").await, 400, "malformed_json", "JSON object");
    let (_, still) = alice.get(&format!("/api/lab/runs/{id}")).await;
    assert_eq!(still["status"], "running", "{still}");
    // Cancelling stops it within a few games: the answer says it is cancelled.
    let (status, cancelled) = alice.post(&format!("/api/lab/runs/{id}/cancel"), json!({})).await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    let done = cancelled["done"].as_u64().unwrap();
    assert!(done < 1_000_000, "{cancelled}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, later) = alice.get(&format!("/api/lab/runs/{id}")).await;
    assert_eq!(later["done"].as_u64().unwrap(), done, "no game is played after the cancel: {later}");
    assert_refused(&alice.get(&format!("/api/lab/runs/{id}/reports/0")).await, 409, "not_finished", "did not finish");

    // Now there is room: Bob's run starts, and it is Alice who waits.
    let second = start(&mut bob, long.clone()).await;
    assert_refused(&alice.post("/api/lab/runs", long).await, 503, "busy", "try again");
    assert_refused(
        &alice.post(&format!("/api/lab/runs/{id}/cancel"), json!({})).await,
        409,
        "not_running",
        "cancelled",
    );
    let bob_id = second["id"].as_str().unwrap();
    let (status, _) = bob.post(&format!("/api/lab/runs/{bob_id}/cancel"), json!({})).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_over_the_time_limit_is_stopped() {
    let dir = TempDir::new("lab-time");
    let lab = LabLimits { max_games: 100_000_000, run_time: Duration::from_secs(1), ..LabLimits::default() };
    let server = server(&dir, lab).await;
    let mut client = server.client();
    // Ten million random Ur games take minutes (1,000 shards of 10,000 games, each a fraction of
    // a second): the limit stops the run after a second and a shard.
    let run = start(&mut client, json!({"game": "ur", "bots": ["random", "random"], "games": 10_000_000})).await;
    let started = Instant::now();
    let run = ended(&mut client, run["id"].as_str().unwrap()).await;
    assert!(started.elapsed() < Duration::from_secs(10), "stopped after {:?}", started.elapsed());
    assert_eq!((run["status"].clone(), run["error"]["code"].clone()), (json!("failed"), json!("too_slow")), "{run}");
    let message = run["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 1 s") && message.contains("fewer games"), "{message}");
    assert!(run["done"].as_u64().unwrap() < 10_000_000, "{run}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_by_name_and_start_nothing() {
    let dir = TempDir::new("lab-refusals");
    let server = server(&dir, LabLimits::default()).await;
    let mut client = server.client();
    let ur = |extra: Value| {
        let mut body = json!({"game": "ur", "bots": ["random", "random"], "games": 10});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let runs = "/api/lab/runs";
    assert_refused(&client.post(runs, ur(json!({"game": "chess"}))).await, 422, "unknown_game", "chess");
    assert_refused(&client.post(runs, ur(json!({"rules": "blitz"}))).await, 422, "bad_rules", "`rules`");
    assert_refused(&client.post(runs, ur(json!({"rules": {"preset": "nope"}}))).await, 422, "bad_rules", "preset");
    assert_refused(&client.post(runs, ur(json!({"rules": {"pieces": 99}}))).await, 422, "bad_rules", "pieces");
    assert_refused(
        &client.post(runs, ur(json!({"compare_rules": {"dice": "x"}}))).await,
        422,
        "bad_rules",
        "`compare_rules`",
    );
    assert_refused(&client.post(runs, ur(json!({"bots": ["random"]}))).await, 422, "bad_bots", "light, dark");
    assert_refused(&client.post(runs, ur(json!({"bots": ["random", "wizard"]}))).await, 422, "bad_level", "wizard");
    // A bot whose parameter is open (its cost unbounded) is not among the lab's.
    assert_refused(
        &client.post(runs, ur(json!({"bots": ["expectimax:8", "random"]}))).await,
        422,
        "bad_level",
        "seat light",
    );
    assert_refused(&client.post(runs, ur(json!({"games": 0}))).await, 422, "bad_games", "from 1 to 10000");
    assert_refused(&client.post(runs, ur(json!({"games": 10_001}))).await, 422, "bad_games", "got 10001");
    // Four players of individual Yut and four in teams (A1, B1, A2, B2) sit on different seats:
    // two rule sets are compared on the same seats.
    assert_refused(
        &client
            .post(
                runs,
                json!({"game": "yut", "compare_rules": {"mode": "team-shared"}, "players": 4,
                       "bots": ["random", "random", "random", "random"], "games": 10}),
            )
            .await,
        422,
        "bad_rules",
        "compare_rules",
    );
    // Without `players`, Yut seats two individually and four in teams: the seats are compared
    // before the bots, which no list could fit for both.
    for bots in [json!(["random", "random"]), json!(["random", "random", "random", "random"])] {
        assert_refused(
            &client
                .post(runs, json!({"game": "yut", "compare_rules": {"mode": "team-shared"}, "bots": bots, "games": 10}))
                .await,
            422,
            "bad_rules",
            "the game under `compare_rules` has the seats A1, B1, A2, B2 but the one under `rules` has A, B",
        );
    }
    // A wrong number of bots names the rule set it is checked against.
    assert_refused(
        &client.post(runs, ur(json!({"bots": ["random"]}))).await,
        422,
        "bad_bots",
        "the game under `rules` has 2 seats",
    );
    let (status, body) = client.post(runs, json!({"game": "ur", "games": 10})).await;
    assert_eq!((status, body["error"]["code"].clone()), (400, json!("malformed_json")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("bots"), "{body}");
    assert_refused(&client.post(runs, ur(json!({"turbo": true}))).await, 400, "malformed_json", "turbo");
    assert_refused(&client.get("/api/lab/runs/0123456789abcdef").await, 404, "unknown_run", "0123456789abcdef");
    // Nothing was started.
    let (_, overview) = client.get("/api/lab").await;
    assert_eq!(overview["runs"], json!([]), "{overview}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalogue_names_the_bots_the_lab_plays() {
    let dir = TempDir::new("lab-catalogue");
    let server = server(&dir, LabLimits::default()).await;
    let (status, catalogue) = server.client().get("/api/catalogue").await;
    assert_eq!(status, 200);
    for game in catalogue["games"].as_array().unwrap() {
        let lab: Vec<&str> = game["lab_bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        let bots: Vec<&str> = game["bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        // Every level (but `perfect` without a table, which the levels leave out too) and every
        // named bot without an open parameter.
        for level in game["levels"].as_array().unwrap() {
            assert!(lab.contains(&level.as_str().unwrap()), "{}: {lab:?}", game["game"]);
        }
        assert_eq!(
            lab,
            bots.iter().copied().filter(|b| !b.contains(':') && *b != "perfect").collect::<Vec<_>>(),
            "{}",
            game["game"]
        );
    }
    server.stop().await;
}

/// Starts a run of one random Ur game and waits for its end: its id.
async fn one_small_run(client: &mut Client) -> String {
    let (status, run) =
        client.post("/api/lab/runs", json!({"game": "ur", "bots": ["random", "random"], "games": 1})).await;
    assert_eq!(status, 202, "{run}");
    let id = run["id"].as_str().unwrap().to_owned();
    ended(client, &id).await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_players_many_runs_push_out_only_their_own_reports() {
    let dir = TempDir::new("lab-kept");
    let server = server(&dir, LabLimits::default()).await;
    let (mut alice, mut bob) = (server.client(), server.client());
    let bobs = one_small_run(&mut bob).await;
    let mut alices = Vec::new();
    for _ in 0..(madang_server::lab::KEPT_PER_PLAYER + 1) {
        alices.push(one_small_run(&mut alice).await);
    }
    // Alice's oldest is gone, her last four are there, and Bob's is untouched.
    let (status, _) = alice.get(&format!("/api/lab/runs/{}", alices[0])).await;
    assert_eq!(status, 404);
    for id in &alices[1..] {
        let (status, body) = alice.get(&format!("/api/lab/runs/{id}")).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = bob.get(&format!("/api/lab/runs/{bobs}/reports/0")).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}
