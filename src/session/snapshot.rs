//! The replay snapshot `GAME_DIR/snapshot.json`: a derived cache of the
//! replayed game kept beside the log, so that a command on the moderator's host neither reads,
//! hashes and parses the log's old entries nor replays them through the engine — its cost does
//! not grow with the log.
//!
//! * **What it holds**: a [`Checkpoint`]: the replay's state after the log's last entry (the
//!   game in full — the hands and the deck order too — and the replay's own ledgers, before
//!   the checks made once at the end of every replay), and the [`LogPoint`] of the log it was
//!   made from (entry count, byte length, offsets and hashes of entry 0 and of the last entry,
//!   the log-level rules' state). No parsed entry is kept.
//! * **Key**: the snapshot format, the engine's version and rules revision
//!   ([`super::RULES_REVISION`]), the game id, the seed's commitment; the log point.
//! * **Never trusted on its own**: the file is authenticated by an HMAC-SHA-256 keyed with a
//!   key derived from the master seed (only the moderator's `secret.yaml` holds it), so an
//!   edited snapshot (say, more Influence for one side) fails its check and is ignored. The log
//!   is then checked where the snapshot stands: the bytes before its recent entries must have
//!   its SHA-256 (read and hashed, never parsed), entry 0 and the last entry it covers must hash
//!   as it says ([`Log::open_after`]), and every entry after it is read, hashed, parsed, checked
//!   against the chain and replayed as usual. Anything that differs — a missing, damaged,
//!   forged, older or other engine's or game's snapshot, a log cut back or rewritten at its
//!   end — means a full replay from entry 0, with the same results, and a new snapshot.
//! * **Only while the seed is secret**: a public replay (no `secret.yaml`) and a game whose
//!   seed is revealed (anyone could then compute the key) neither read nor write it.
//! * **Written** only by the process holding the game's lock ([`gamefs::holds_lock`]),
//!   atomically (a `.tmp-` file, mode 0600, renamed over it), never fsynced: the log is the
//!   truth, and a snapshot lost or torn by a crash fails its check and is rebuilt. A failed
//!   write is ignored: it never fails a command nor touches the log.
//! * `verify` never reads it; mail, receipts and peer replicas never carry it.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use hmac::{KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::replay::Snapshot;
use super::seats::BidState;
use super::Session;
use crate::chance::sealed_chance::DiceLedger;
use crate::chance::sealed_choice::Slot;
use crate::data::{BySide, Card, Side};
use crate::engine::state::{Board, Revision};
use crate::engine::{Game, Options};
use crate::gamefs;
use crate::log::{Hex32, Log, LogPoint, Payload, Players};
use crate::session::correspondence::{standing_orders::Book, Ledger};
use crate::session::takeback::Takebacks;

/// The snapshot's file name in the game folder.
pub const SNAPSHOT_FILE: &str = "snapshot.json";

/// The first word of the snapshot's header line; the second is the body's HMAC in hex.
const MAGIC: &str = "twilight-snapshot-v1";

/// The layout of the body; a file of another layout is ignored (2: the takebacks' last answer;
/// 3: clock ticks as compact records, `correspondence::TickRecord`).
const FORMAT: u32 = 3;

/// The replay's local state between entries (besides the session's own fields).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct Locals {
    /// Sides that have joined.
    pub joined: BySide<bool>,
    /// The sealed first choices (headlines, superpower cards) awaiting their decision.
    pub sealed_commits: Vec<(Side, Slot, Hex32)>,
    /// The replay's state before each decision a takeback request names first, by seq.
    pub snapshots: HashMap<u64, Snapshot>,
}

/// The last decision replayed, for the mail picture's highlight: who made it, its
/// notation as logged, and the Influence on the board just before it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LastDecision {
    /// Who decided.
    pub side: Side,
    /// The notation as logged.
    pub notation: String,
    /// The Influence before it (indexed by `Country as usize`).
    pub before: Board,
}

/// The replay of a log's first `len` entries, as it stands before the checks made once at the
/// end of a replay: enough to carry the replay on over entries appended after them, with the
/// same result as replaying the whole log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Checkpoint {
    /// Entries replayed.
    pub len: usize,
    /// The hash of the last entry replayed.
    pub head: Hex32,
    pub options: Options,
    pub players: Players,
    pub game: Option<Game>,
    pub findings: Vec<String>,
    pub notes: Vec<String>,
    pub decisions: u64,
    pub hand_commits: BySide<Option<(u64, Vec<Card>)>>,
    pub recorded: Option<String>,
    pub nonces: BySide<Option<String>>,
    pub dice: DiceLedger,
    pub test_seed: bool,
    pub corr: Ledger,
    pub takebacks: Takebacks,
    pub bid: BidState,
    pub standing: Book,
    pub last_decision: Option<LastDecision>,
    pub locals: Locals,
}

impl Checkpoint {
    /// Sets the engine revision in every game state held (never serialized: it comes from
    /// entry 0's `rules_revision`).
    fn set_revision(&mut self, revision: Revision) {
        self.options.revision = revision;
        let games = self
            .locals
            .snapshots
            .values_mut()
            .filter_map(|s| s.game.as_mut());
        for g in self.game.iter_mut().chain(games) {
            g.set_revision(revision);
        }
    }
}

/// The checkpoints of a replay: when one fits a log, taking the replay's state from one and
/// making one, writing the snapshot.
impl Session {
    /// Whether the replay of `log` may carry on from `cp`: the log's first `cp.len` entries
    /// end with the entry `cp` ends with, the entry after them is no chance record (which
    /// belongs to the decision before it), and no takeback request follows (its check and the
    /// state it keeps need the entries before; those replays start from entry 0).
    pub(super) fn fits(cp: &Checkpoint, log: &Log) -> bool {
        cp.len > 0
            && cp.len <= log.len()
            && log
                .get(cp.len as u64 - 1)
                .is_some_and(|e| e.hash == cp.head)
            && log
                .since(cp.len as u64)
                .iter()
                .all(|e| !matches!(e.entry.payload, Payload::TakebackRequest { .. }))
            && log
                .get(cp.len as u64)
                .is_none_or(|e| !matches!(e.entry.payload, Payload::Chance { .. }))
    }

    /// Whether this replay keeps a [`Checkpoint`]: with the moderator's secret seed, before
    /// the reveal ([`snapshot`]).
    pub(super) fn keeps_checkpoint(&self) -> bool {
        self.secret.is_some() && self.seed.is_some() && !self.revealed && self.trace.is_none()
    }

    /// Takes the replay's state from `cp`; returns the replay's locals.
    pub(super) fn resume(&mut self, cp: &Checkpoint) -> Locals {
        let cp = cp.clone();
        self.options = cp.options;
        self.players = cp.players;
        self.game = cp.game;
        self.findings = cp.findings;
        self.notes = cp.notes;
        self.decisions = cp.decisions;
        self.hand_commits = cp.hand_commits;
        self.recorded = cp.recorded;
        self.nonces = cp.nonces;
        self.dice = cp.dice;
        self.test_seed = cp.test_seed;
        self.corr = cp.corr;
        self.takebacks = cp.takebacks;
        self.bid = cp.bid;
        self.standing = cp.standing;
        self.last_decision = cp.last_decision;
        cp.locals
    }

    /// The replay's state after `len` entries, the last of hash `head`, with its `locals`.
    pub(super) fn checkpoint_of(&self, len: usize, head: Hex32, locals: Locals) -> Checkpoint {
        Checkpoint {
            len,
            head,
            options: self.options.clone(),
            players: self.players.clone(),
            game: self.game.clone(),
            findings: self.findings.clone(),
            notes: self.notes.clone(),
            decisions: self.decisions,
            hand_commits: self.hand_commits.clone(),
            recorded: self.recorded.clone(),
            nonces: self.nonces.clone(),
            dice: self.dice.clone(),
            test_seed: self.test_seed,
            corr: self.corr.clone(),
            takebacks: self.takebacks.clone(),
            bid: self.bid.clone(),
            standing: self.standing.clone(),
            last_decision: self.last_decision.clone(),
            locals,
        }
    }

    /// Writes the replay snapshot of the log as it is on disk ([`snapshot::write`]), when this
    /// process holds the game's lock and the checkpoint is the log's; a snapshot that cannot
    /// be written is left unwritten (it is a cache).
    pub(super) fn save_snapshot(&self) {
        let (Some(cp), Some(point), Some(secret)) =
            (&self.checkpoint, self.log.point(), &self.secret)
        else {
            return;
        };
        if self.keeps_checkpoint() && gamefs::holds_lock(&self.dir) {
            let _ = write(&self.dir, &self.game_id, secret.seed.as_bytes(), &point, cp);
        }
    }
}

/// What makes a snapshot the snapshot of a given game, replayed by this engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Key {
    format: u32,
    engine_version: String,
    rules_revision: String,
    game_id: String,
    /// The seed's commitment.
    seed: Hex32,
}

impl Key {
    fn of(game_id: &str, seed: &[u8; 32]) -> Key {
        Key {
            format: FORMAT,
            engine_version: env!("CARGO_PKG_VERSION").into(),
            rules_revision: super::RULES_REVISION.into(),
            game_id: game_id.into(),
            seed: Hex32::from(crate::chance::fairness::seed_commitment(seed)),
        }
    }
}

/// The file's body, as read.
#[derive(Deserialize)]
struct Body {
    key: Key,
    /// The log the checkpoint was made from.
    point: LogPoint,
    /// The revision the game is played under (`Options::revision`, never serialized there).
    revision: u8,
    checkpoint: Checkpoint,
}

/// The file's body, as written: [`Body`]'s fields, borrowed (serialized alike).
#[derive(Serialize)]
struct BodyRef<'a> {
    key: Key,
    point: &'a LogPoint,
    revision: u8,
    checkpoint: &'a Checkpoint,
}

/// The HMAC-SHA-256 of the snapshot body under the game's snapshot key: SHA-256 of a domain
/// string and the master seed (never in the log before the reveal, and the snapshot is not
/// used after it).
fn mac(seed: &[u8; 32], body: &[u8]) -> hmac::Hmac<Sha256> {
    let key = Sha256::new()
        .chain_update(b"twilight-pbem replay snapshot key v1\0")
        .chain_update(seed)
        .finalize();
    let mut m = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&key).expect("any key length");
    m.update(body);
    m
}

fn revision_code(r: Revision) -> u8 {
    match r {
        Revision::HandDependent => 0,
        Revision::PublicPrompts => 1,
        Revision::ChineseCivilWarF163 => 2,
    }
}

/// Reads the snapshot of game `game_id` in `dir` made under master seed `seed`: its log point
/// and checkpoint, or `None` if there is none or it is damaged, forged, or made by another
/// engine, format, game or seed.
pub(super) fn read(dir: &Path, game_id: &str, seed: &[u8; 32]) -> Option<(LogPoint, Checkpoint)> {
    let bytes = gamefs::read_nofollow(&dir.join(SNAPSHOT_FILE)).ok()?;
    let nl = bytes.iter().position(|&b| b == b'\n')?;
    let header = std::str::from_utf8(&bytes[..nl]).ok()?;
    let body = &bytes[nl + 1..];
    let (magic, tag) = header.split_once(' ')?;
    if magic != MAGIC {
        return None;
    }
    mac(seed, body).verify_slice(&hex::decode(tag).ok()?).ok()?;
    let b: Body = serde_json::from_slice(body).ok()?;
    if b.key != Key::of(game_id, seed) || b.point.len != b.checkpoint.len {
        return None;
    }
    let revision = match b.revision {
        0 => Revision::HandDependent,
        1 => Revision::PublicPrompts,
        2 => Revision::ChineseCivilWarF163,
        _ => return None,
    };
    let mut checkpoint = b.checkpoint;
    checkpoint.set_revision(revision);
    Some((b.point, checkpoint))
}

/// Writes the snapshot of the log at `point`, replayed into `cp`, for game `game_id` under
/// master seed `seed` in `dir`: a temporary file (mode 0600) renamed over [`SNAPSHOT_FILE`].
///
/// # Errors
///
/// Why it was not written (nothing else is changed); the caller ignores it.
pub(super) fn write(
    dir: &Path,
    game_id: &str,
    seed: &[u8; 32],
    point: &LogPoint,
    cp: &Checkpoint,
) -> Result<(), String> {
    if point.len != cp.len || point.head != cp.head {
        return Err("the checkpoint is not the log's head".into());
    }
    let body = BodyRef {
        key: Key::of(game_id, seed),
        point,
        revision: revision_code(cp.options.revision),
        checkpoint: cp,
    };
    let json = serde_json::to_vec(&body).map_err(|e| e.to_string())?;
    let tag = hex::encode(mac(seed, &json).finalize().into_bytes());
    let mut bytes = format!("{MAGIC} {tag}\n").into_bytes();
    bytes.extend_from_slice(&json);
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(|e| e.to_string())?;
    }
    if let Some(n) = gamefs::crash_after_bytes("snapshot-write") {
        let _ = tmp.write_all(&bytes[..n.min(bytes.len())]);
        std::process::abort();
    }
    tmp.write_all(&bytes).map_err(|e| e.to_string())?;
    gamefs::crash_point("snapshot-temp");
    tmp.persist(dir.join(SNAPSHOT_FILE))
        .map_err(|e| e.error.to_string())?;
    gamefs::crash_point("snapshot");
    Ok(())
}
