//! What one client may create, and how long the server keeps what nobody uses
//! (`docs/server.md`, "Limits"): quotas per player and per address on new players, games and
//! rooms (keyed GCRA rate limiters from `governor`), the connection limits of [`crate::serve`],
//! how long an idle game stays in memory, and the size the SQLite WAL is kept under.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::time::Duration;

use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;
use crate::serve::ConnectionLimits;

/// The read buffer of every WebSocket (games and rooms). tungstenite zeroes its read buffer's
/// free space on every read: its 128 KiB default costs more than the rest of a move, and the
/// messages read are small (a larger one still arrives, in several reads).
pub const SOCKET_READ_BUFFER: usize = 8 * 1024;

/// Everything a server limits besides the rooms' own limits ([`crate::rooms::RoomConfig`]).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Timeouts and the connection limit.
    pub connections: ConnectionLimits,
    /// What one client may create.
    pub quotas: Quotas,
    /// A game that nobody has used for this long (no request, no WebSocket) leaves memory; its
    /// next use loads it again from storage. A game played in a browser holds its WebSocket,
    /// so this is mostly finished games and clients that went away.
    pub game_idle: Duration,
    /// SQLite: when the WAL holds more than this, the background checkpoint starts it over
    /// (a restarting checkpoint under the write turn); when the file is over twice this, the
    /// next writer first runs a truncating checkpoint (`docs/server.md`, "Storage"). 256 MiB:
    /// each restart holds every writer for 6-30 ms, and at 64 MiB 1,000 busy rooms (about
    /// 30 MB of WAL a second) had one every two seconds, which made the paced load's p99.
    pub wal_max_bytes: u64,
    /// The designer's lab: games per run, runs at once, time per run, runs kept.
    pub lab: crate::lab::LabLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: ConnectionLimits::default(),
            quotas: Quotas::default(),
            game_idle: Duration::from_secs(2 * 60),
            wal_max_bytes: 256 * 1024 * 1024,
            lab: crate::lab::LabLimits::default(),
        }
    }
}

/// How many players, games and rooms one client may create an hour: each a bucket that holds
/// that many and refills evenly over the hour (`0` turns a quota off). An address is the
/// peer's IP address (IPv6 by its /64 network).
#[derive(Clone, Debug)]
pub struct Quotas {
    /// New guest players stored per address.
    pub players_per_address: u32,
    /// Games created per player.
    pub games_per_player: u32,
    /// Games created per address.
    pub games_per_address: u32,
    /// Rooms created per player.
    pub rooms_per_player: u32,
    /// Rooms created per address.
    pub rooms_per_address: u32,
}

impl Default for Quotas {
    fn default() -> Self {
        Quotas {
            players_per_address: 30,
            games_per_player: 120,
            games_per_address: 300,
            rooms_per_player: 30,
            rooms_per_address: 60,
        }
    }
}

impl Quotas {
    /// Every quota off (load generators).
    pub fn off() -> Quotas {
        Quotas {
            players_per_address: 0,
            games_per_player: 0,
            games_per_address: 0,
            rooms_per_player: 0,
            rooms_per_address: 0,
        }
    }
}

/// One quota: a limit an hour per key.
struct Bucket {
    /// What it counts, as the refusal's `detail.quota` names it: `players`, `games`, `rooms`.
    kind: &'static str,
    what: &'static str,
    per: &'static str,
    limit: u32,
    limiter: Option<DefaultKeyedRateLimiter<String>>,
}

impl Bucket {
    fn new(kind: &'static str, what: &'static str, per: &'static str, limit: u32) -> Bucket {
        let limiter = NonZeroU32::new(limit).map(|n| RateLimiter::keyed(Quota::per_hour(n)));
        Bucket { kind, what, per, limit, limiter }
    }

    fn take(&self, key: &str) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else { return Ok(()) };
        limiter.check_key(&key.to_owned()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1);
            // The same as data, for a client to say in its own language (`docs/api.md`).
            let detail = serde_json::json!({
                "quota": self.kind, "per": self.per, "limit": self.limit, "retry_after_s": wait,
            });
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "quota",
                format!("quota: at most {} {} an hour per {}; try again in {wait} s", self.limit, self.what, self.per),
            )
            .with_detail(detail)
        })
    }

    fn prune(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// The quotas' counters.
pub struct QuotaState {
    players_per_address: Bucket,
    games_per_player: Bucket,
    games_per_address: Bucket,
    rooms_per_player: Bucket,
    rooms_per_address: Bucket,
}

/// What a quota is counted against: the peer's IP address (an IPv6 address by its /64, which
/// one host usually holds whole), or `unknown` when the request did not come over a socket.
pub fn address_key(peer: Option<SocketAddr>) -> String {
    match peer.map(|p| p.ip()) {
        Some(IpAddr::V4(ip)) => ip.to_string(),
        Some(IpAddr::V6(ip)) => match ip.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = ip.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        None => "unknown".to_owned(),
    }
}

impl QuotaState {
    /// Counters for these quotas.
    pub fn new(quotas: &Quotas) -> QuotaState {
        QuotaState {
            players_per_address: Bucket::new("players", "new players", "address", quotas.players_per_address),
            games_per_player: Bucket::new("games", "games", "player", quotas.games_per_player),
            games_per_address: Bucket::new("games", "games", "address", quotas.games_per_address),
            rooms_per_player: Bucket::new("rooms", "rooms", "player", quotas.rooms_per_player),
            rooms_per_address: Bucket::new("rooms", "rooms", "address", quotas.rooms_per_address),
        }
    }

    /// Counts a new player from `address`.
    ///
    /// # Errors
    /// `quota` (429) when the address has created its share.
    pub fn new_player(&self, address: &str) -> Result<(), ApiError> {
        self.players_per_address.take(address)
    }

    /// Counts a new game by `player` from `address`.
    ///
    /// # Errors
    /// `quota` (429) naming the quota used up.
    pub fn new_game(&self, player: &str, address: &str) -> Result<(), ApiError> {
        self.games_per_player.take(player)?;
        self.games_per_address.take(address)
    }

    /// Counts a new room by `player` from `address`.
    ///
    /// # Errors
    /// `quota` (429) naming the quota used up.
    pub fn new_room(&self, player: &str, address: &str) -> Result<(), ApiError> {
        self.rooms_per_player.take(player)?;
        self.rooms_per_address.take(address)
    }

    /// Forgets the keys whose buckets are full again (they count as new).
    pub fn prune(&self) {
        for bucket in [
            &self.players_per_address,
            &self.games_per_player,
            &self.games_per_address,
            &self.rooms_per_player,
            &self.rooms_per_address,
        ] {
            bucket.prune();
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bucket_holds_its_limit_and_names_the_quota() {
        let quotas = QuotaState::new(&Quotas { games_per_player: 3, ..Quotas::off() });
        for _ in 0..3 {
            quotas.new_game("p", "a").expect("within the quota");
        }
        let error = quotas.new_game("p", "a").expect_err("the fourth");
        assert_eq!((error.status.as_u16(), error.code), (429, "quota"));
        assert!(error.message.contains("at most 3 games an hour per player"), "{}", error.message);
        // The same as data: a 3-an-hour bucket refills one game every 20 minutes, so the wait
        // is at most 1,200 s and at least the 1 s the message rounds up to.
        let detail = error.detail.as_deref().cloned().unwrap_or_default();
        assert_eq!(
            (&detail["quota"], &detail["per"], &detail["limit"]),
            (&json!("games"), &json!("player"), &json!(3))
        );
        let wait = detail["retry_after_s"].as_u64().unwrap_or(0);
        assert!((1..=1200).contains(&wait), "{detail}");
        assert!(error.message.ends_with(&format!("try again in {wait} s")), "{}", error.message);
        let response = axum::response::IntoResponse::into_response(error);
        assert_eq!(
            response.headers().get("retry-after").and_then(|v| v.to_str().ok()),
            Some(wait.to_string().as_str())
        );
        // Another player is counted apart; an address quota that is off never refuses.
        quotas.new_game("q", "a").expect("another player");
    }

    #[test]
    fn one_address_is_held_to_its_games_and_rooms_whatever_its_players() {
        // docs/server.md, "Limits": 300 games and 60 rooms an hour per address, whichever of
        // its players (each up to 120 games and 30 rooms) makes them.
        let quotas = QuotaState::new(&Quotas::default());
        for i in 0..300 {
            quotas.new_game(&format!("p{}", i / 100), "a").expect("within the address's share");
        }
        let error = quotas.new_game("p9", "a").expect_err("the 301st game from the address");
        assert_eq!((error.status.as_u16(), error.code), (429, "quota"));
        assert!(error.message.contains("at most 300 games an hour per address"), "{}", error.message);
        quotas.new_game("p9", "b").expect("another address");
        for i in 0..60 {
            quotas.new_room(&format!("p{}", i / 30), "a").expect("within the address's share");
        }
        let error = quotas.new_room("p9", "a").expect_err("the 61st room from the address");
        assert!(error.message.contains("at most 60 rooms an hour per address"), "{}", error.message);
    }

    #[test]
    fn addresses_are_counted_by_ip_and_ipv6_by_its_64() {
        let v4: SocketAddr = "192.0.2.7:5000".parse().expect("v4");
        assert_eq!(address_key(Some(v4)), "192.0.2.7");
        let a: SocketAddr = "[2001:db8:1:2:aaaa::1]:1".parse().expect("v6");
        let b: SocketAddr = "[2001:db8:1:2:bbbb::9]:2".parse().expect("v6");
        assert_eq!(address_key(Some(a)), address_key(Some(b)));
        let mapped: SocketAddr = "[::ffff:192.0.2.7]:1".parse().expect("mapped");
        assert_eq!(address_key(Some(mapped)), "192.0.2.7");
    }
}
