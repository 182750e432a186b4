//! A sealed game on disk: `GAME_DIR/log.yaml` (the append-only log) and, on the moderator's
//! host, `GAME_DIR/secret.yaml` (mode 0600: the master seed and a headline awaiting its pair).
//!
//! [`Session::open`] replays the log through the engine: with the master seed (the moderator's
//! secret, or the seed revealed at the end) every shuffle, roll, random card and commitment is
//! re-derived and compared with the log (full verification); without it the engine runs on
//! public information and the log's chance records (public verification). Writing methods
//! append entries and never rewrite one (design §2, §4; `schemas/FAIRNESS.md`).
//!
//! The [`Session`] and what a replay tells are here; its work is spread by subject, one
//! file each:
//!
//! * `create.rs`: a new game, its secret seed and entry 0;
//! * `open.rs`: the game's lock and the replay of its log; `reopen.rs`: the same game opened
//!   again in the same process; `snapshot.rs`: the replay snapshot and the checkpoints a
//!   replay carries on from;
//! * `replay.rs`: the replay itself, entry by entry, and the checks made once at its end;
//! * `join.rs` and [`seats`] (a bid for sides): how the players come in;
//! * `play.rs`: a player's move lines; `commit.rs`: writing a move to the disk as one
//!   transaction;
//! * [`takeback`], `standing.rs` (standing orders), `acts.rs` (resignation, draws, leave,
//!   timeouts): the moves of correspondence play ([`correspondence`]);
//! * `secret.rs`: the moderator's secret file and the reveal of the seed; `tokens.rs`: the
//!   salts and reply tokens the seed derives; [`host`]: what the host could do in the game (a
//!   nonce it typed, a host who plays, a test seed) and the reveal it owes at the end;
//! * `error.rs`: [`SessionError`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::chance::sealed_chance::DiceLedger;
use crate::data::{BySide, Card, Side};
use crate::engine::view::Role;
use crate::engine::{Game, Options};
use crate::gamefs;
use crate::log::{Log, Players, Value};
use correspondence::Ledger;

pub use crate::chance::sealed_chance::SealedChance;
pub use crate::log::recorded::RULES_REVISION;

mod acts;
mod commit;
pub mod correspondence;
mod create;
mod error;
pub mod host;
mod join;
mod open;
mod play;
mod reopen;
mod replay;
pub mod seats;
mod secret;
mod snapshot;
mod standing_orders;
pub mod takeback;
mod tokens;

pub use commit::Ahead;
pub use create::incomplete_game;
pub use error::SessionError;
pub use replay::ReplayStep;
pub use secret::{PendingHeadline, Secret};
use snapshot::Checkpoint;
pub use snapshot::{LastDecision, SNAPSHOT_FILE};
/// How a log was replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// With the master seed: everything re-derived and compared.
    Full,
    /// Public information and the log's chance records only.
    Public,
}

/// A sealed game, replayed.
pub struct Session {
    dir: PathBuf,
    log: Log,
    mode: Mode,
    seed: Option<[u8; 32]>,
    secret: Option<Secret>,
    options: Options,
    players: Players,
    game_id: String,
    game: Option<Game>,
    /// Readable problems found while replaying (full verification compares everything).
    pub findings: Vec<String>,
    /// Facts worth telling that are not problems: a log written under another rules revision
    /// that still replays identically.
    pub notes: Vec<String>,
    /// Decisions replayed.
    pub decisions: u64,
    hand_commits: BySide<Option<(u64, Vec<Card>)>>,
    /// The secret must be written after the staged entries are committed (a headline pair
    /// was logged, so the pending headline is cleared).
    secret_after_commit: bool,
    revealed: bool,
    applied: Vec<String>,
    happened: Vec<String>,
    recorded: Option<String>,
    /// The players' `join` nonces, as logged.
    nonces: BySide<Option<String>>,
    /// The dice and dice keys seen, for the public check of finished turns (FAIRNESS.md §3.2).
    dice: DiceLedger,
    /// Turns 1..=N whose dice were re-derived from their published keys.
    dice_checked: Option<u32>,
    /// Whether entry 0 marks the seed as a test seed.
    test_seed: bool,
    /// When set, every replayed decision's view for this role (the replay page).
    trace: Option<(Role, Vec<ReplayStep>)>,
    /// Time control, leave, draw offers, timeouts ([`crate::session::correspondence`]).
    corr: Ledger,
    /// Takebacks asked, accepted, declined; cancelled entries ([`takeback`]).
    takebacks: crate::session::takeback::Takebacks,
    /// A bid game's seats and bids ([`crate::bid_session`]).
    pub(crate) bid: seats::BidState,
    /// Standing orders logged and what became of them ([`correspondence::standing_orders`]).
    standing: correspondence::standing_orders::Book,
    /// The replay's state after the log's last entry (staged ones included), kept while the
    /// seed is the moderator's secret: what the next replay carries on from and what the
    /// replay snapshot holds ([`snapshot`]).
    checkpoint: Option<Arc<Checkpoint>>,
    /// The checkpoint of the log as on disk, for a replay after staged entries are dropped.
    committed: Option<Arc<Checkpoint>>,
    /// How many entries the last replay went through.
    replayed: usize,
    /// The last decision replayed, with the Influence before it.
    last_decision: Option<LastDecision>,
    /// This process's mark of the game's lock when the files were read or last written by
    /// this session ([`gamefs::lock_mark`]; `None` if it did not hold the lock, or if the disk
    /// may differ from the memory): while the mark stays the same, the files on disk are those
    /// this session holds ([`Session::reopen`]).
    tenure: Option<gamefs::LockMark>,
}

impl Session {
    /// The game folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The game id (the folder's name).
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// The log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// How the log was replayed.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The players' addresses.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game, once both players have joined.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// For a recorded game (design §2 "Recorded games": imported from another site, its
    /// chance outcomes given as facts, no seed), the source it was recorded from.
    pub fn recorded_from(&self) -> Option<&str> {
        self.recorded.as_deref()
    }

    /// Whether the master seed has been revealed in the log.
    pub fn is_revealed(&self) -> bool {
        self.revealed
    }

    /// Whether entry 0 marks the master seed as a test seed (given as a number: not a fair
    /// game; FAIRNESS.md §2).
    pub fn is_test_seed(&self) -> bool {
        self.test_seed
    }

    /// The finished turns whose every die was re-derived from the turn's published dice key:
    /// `Some(N)` for turns 1–N, `None` when no turn's key is published yet, or for a log
    /// without a dice-key chain (FAIRNESS.md §3.2).
    pub fn dice_checked(&self) -> Option<u32> {
        self.dice_checked
    }

    /// Whether the log's first entry commits to a dice-key chain (FAIRNESS version 2).
    pub fn has_dice_chain(&self) -> bool {
        self.dice.chain_end.is_some()
    }

    /// How many entries the last replay went through: all of them without a snapshot, none
    /// when the snapshot was at the log's head, the entries after it otherwise ([`snapshot`]).
    pub fn entries_replayed(&self) -> usize {
        self.replayed
    }

    /// The log's last decision (who, its notation as logged) and the Influence on the board
    /// just before it: what the last move changed (the mail picture's highlight),
    /// without a second replay. Kept by a replay with the moderator's secret before the
    /// reveal (`Some(None)` before the first decision); `None` when not kept.
    pub fn last_decision(&self) -> Option<Option<&LastDecision>> {
        self.keeps_checkpoint()
            .then_some(self.last_decision.as_ref())
    }

    /// What the replay learned of time control, leave, draw offers and timeouts.
    pub fn correspondence(&self) -> &Ledger {
        &self.corr
    }
}

/// An engine value as plain YAML (maps and lists, no YAML tags): through JSON, so the log's
/// structured forms match `schemas/move.schema.json`.
fn to_value<T: Serialize>(t: &T) -> Value {
    let json = serde_json::to_value(t).expect("engine values serialize");
    serde_yaml::to_value(json).expect("JSON values are YAML values")
}

/// The inverse of [`to_value`].
fn from_value<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, String> {
    let json: serde_json::Value = serde_yaml::from_value(v.clone()).map_err(|e| e.to_string())?;
    serde_json::from_value(json).map_err(|e| e.to_string())
}

/// The game id of the game in `dir`: the folder's name, also when `dir` is `.` or `..`
/// (the name of the folder it stands for; empty only if that cannot be found).
fn game_id_of(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .or_else(|| {
            let full = std::fs::canonicalize(dir).ok()?;
            Some(full.file_name()?.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

/// `us` or `ussr`, as the fairness derivations name the sides.
pub fn side_str(side: Side) -> &'static str {
    match side {
        Side::Us => "us",
        Side::Ussr => "ussr",
    }
}
