//! The room WebSocket's client messages (`docs/api.md`, "Rooms").

use serde::Deserialize;
use serde_json::Value;

/// A message from a client. Every one but `hello`, `ping` and `ack` is a command of a seat and
/// carries that seat's `token`; any may carry an `id` (echoed in a refusal, and a repeated `id`
/// of the same seat is refused as a duplicate).
#[derive(Clone, Debug, Deserialize)]
pub struct ClientMessage {
    /// The command.
    #[serde(flatten)]
    pub command: Command,
    /// The seat token (commands only).
    #[serde(default)]
    pub token: Option<String>,
    /// The client's id for this message.
    #[serde(default)]
    pub id: Option<Value>,
}

/// What a client asks. A field the message's type does not have is refused (besides `type`,
/// `token` and `id`, which [`ClientMessage`] takes): unit-like commands are empty struct variants,
/// since serde lets a unit variant of an internally tagged enum ignore other fields.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Start or resume: the token binds the connection to a seat (none: a spectator).
    Hello {
        /// The last room version the client applied (none: a snapshot).
        #[serde(default)]
        version: Option<u64>,
        /// The `events` messages broadcast after the catch-up carry what changed in the snapshot
        /// (`changes`) instead of the whole snapshot (`room`) when they can (default, or `null`:
        /// false).
        #[serde(default)]
        changes: Option<bool>,
        /// Without a `version` it can catch up from (a page just opened), the catch-up is an
        /// `events` message with the events the room still keeps and the whole room, so the
        /// page can show the moves and chat so far (default, or `null`: false, a `snapshot`).
        #[serde(default)]
        history: Option<bool>,
    },
    /// Liveness.
    Ping {},
    /// The client has applied everything up to this room version.
    Ack {
        /// The room version.
        version: u64,
    },
    /// Lobby: move to another open seat.
    Seat {
        /// The seat's name.
        seat: String,
    },
    /// Lobby: ready or not.
    Ready {
        /// Ready (default true).
        #[serde(default = "yes")]
        ready: bool,
    },
    /// Host, lobby: give an open seat to the computer at `level`, or (`level` null) open a
    /// computer seat again.
    Cpu {
        /// The seat.
        seat: String,
        /// The level or bot name; `null` opens the seat again. The key is required (a message
        /// without it is malformed, not a request to open the seat).
        #[serde(deserialize_with = "required_or_null")]
        level: Option<String>,
    },
    /// Lobby: the look of the seat's side (its colour, its piece set) and, for the host, the
    /// board (`docs/api.md`, "Skins"); at least one of the three.
    Skin {
        /// A colour id of the game's skins.
        #[serde(default)]
        colour: Option<String>,
        /// A piece set id.
        #[serde(default)]
        pieces: Option<String>,
        /// A board id (host only).
        #[serde(default)]
        board: Option<String>,
    },
    /// Host, lobby: start the game.
    Start {
        /// Give every open seat to the computer at this level first.
        #[serde(default)]
        fill_cpu: Option<String>,
    },
    /// Lobby or after a game: leave the seat.
    Leave {},
    /// A game action.
    Move {
        /// Notation.
        action: String,
        /// The game's version the client saw.
        version: u64,
        /// The seat (must be the token's).
        #[serde(default)]
        seat: Option<String>,
    },
    /// Resign the game.
    Resign {},
    /// Ur: offer a draw.
    DrawOffer {},
    /// Ur: accept the other side's offer.
    DrawAccept {},
    /// Ur: decline it.
    DrawDecline {},
    /// After a game: play again with the same seats.
    Rematch {},
    /// After a game: the room goes back to its lobby with its seats, teams and skins, for the
    /// next round (everyone readies again, the host starts).
    NextRound {},
    /// A chat line.
    Chat {
        /// The text.
        text: String,
    },
    /// Host, during a game: let the computer play a seat whose player has been away longer
    /// than the grace period.
    HandToCpu {
        /// The seat.
        seat: String,
        /// The level (default `normal`).
        #[serde(default)]
        level: Option<String>,
    },
}

fn yes() -> bool {
    true
}

impl Command {
    /// The message's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Hello { .. } => "hello",
            Command::Ping {} => "ping",
            Command::Ack { .. } => "ack",
            Command::Seat { .. } => "seat",
            Command::Ready { .. } => "ready",
            Command::Cpu { .. } => "cpu",
            Command::Start { .. } => "start",
            Command::Leave {} => "leave",
            Command::Move { .. } => "move",
            Command::Resign {} => "resign",
            Command::DrawOffer {} => "draw_offer",
            Command::DrawAccept {} => "draw_accept",
            Command::DrawDecline {} => "draw_decline",
            Command::Rematch {} => "rematch",
            Command::NextRound {} => "next_round",
            Command::Skin { .. } => "skin",
            Command::Chat { .. } => "chat",
            Command::HandToCpu { .. } => "hand_to_cpu",
        }
    }
}

/// Reads a field that must be present but may be `null` (serde takes a missing `Option` field
/// as `None` unless it is read with a function of its own).
fn required_or_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(deserializer)
}
