//! A sealed game on disk: `GAME_DIR/log.yaml` (the append-only log) and, on the moderator's
//! host, `GAME_DIR/secret.yaml` (mode 0600: the master seed and a headline awaiting its pair).
//!
//! [`Session::open`] replays the log through the engine: with the master seed (the moderator's
//! secret, or the seed revealed at the end) every shuffle, roll, random card and commitment is
//! re-derived and compared with the log (full verification); without it the engine runs on
//! public information and the log's chance records (public verification). Writing methods
//! append entries and never rewrite one (design §2, §4; `schemas/FAIRNESS.md`).

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::chance::fairness;
use crate::data::{BySide, Card, Side};
use crate::engine::view::Role;
use crate::engine::{Answer, ChanceOutcome, Game, Options, RecordedChance, RuleError};
use crate::gamefs;
use crate::log::{
    Author, CommitmentKind, Hex32, Log, LogError, Payload, Players, StoredEntry, Value,
};
use crate::text::notation::{self, NotationError};
use correspondence::{Act, Ledger};

pub use crate::log::recorded::RULES_REVISION;

pub mod correspondence;
mod reopen;
pub mod seats;
mod snapshot;
mod standing;
pub mod takeback;

use snapshot::{Checkpoint, Locals};
pub use snapshot::{LastDecision, SNAPSHOT_FILE};
use std::sync::Arc;

/// Errors of a sealed game on disk.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The log could not be read or written.
    #[error(transparent)]
    Log(#[from] LogError),
    /// A file other than the log could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The log does not describe a valid game.
    #[error("log entry {seq}: {message}")]
    Replay {
        /// The entry.
        seq: u64,
        /// What is wrong.
        message: String,
    },
    /// A move line could not be read.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move was refused by the rules.
    #[error("`{line}` refused: {error}")]
    Refused {
        /// The move as typed.
        line: String,
        /// Why.
        error: RuleError,
    },
    /// The command does not fit the game's state.
    #[error("{0}")]
    State(String),
    /// A player's move other than a decision of the game (a takeback, a leave, a resignation
    /// or draw act, a standing order) refused by the game's rules or state: the README's exit
    /// code 1, like a refused decision.
    #[error("{0}")]
    Refusal(String),
    /// Another command holds the game's lock and did not finish in time; nothing was changed.
    #[error(transparent)]
    Busy(gamefs::FsError),
    /// The game folder cannot be written ([`gamefs::FsError::ReadOnly`]): a command that
    /// writes refuses before it reads; one that only reads opens the game without the lock.
    #[error(transparent)]
    ReadOnly(gamefs::FsError),
}

/// The moderator's secret file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secret {
    /// The 256-bit master seed.
    pub seed: Hex32,
    /// A headline submitted first, logged only as a commitment until its pair arrives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_headline: Option<PendingHeadline>,
    /// A bid game's first bid, logged only as a commitment until the other seat's arrives
    /// ([`crate::chance::bid`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_bid: Option<seats::PendingBid>,
    /// A Turn Zero superpower card submitted first, logged only as a commitment until its
    /// pair arrives ([`crate::chance::sealed_choice`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_superpower_card: Option<crate::chance::sealed_choice::PendingSuperpowerCard>,
    /// Standing orders given and not yet used or cancelled, logged only as digests
    /// ([`correspondence::standing`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing_orders: Vec<correspondence::standing::SealedOrder>,
}

/// A headline submitted first (design §2 "Simultaneous headlines").
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingHeadline {
    /// Who chose it.
    pub side: Side,
    /// The card.
    pub card: Card,
}

/// Refuses what would break a game for good once sealed in its first entry: an address
/// that is not a plain e-mail address, the same address for both sides, a folder name that
/// cannot serve as the game id in mail subjects (letters, digits, `.`, `_`, `-`).
fn check_new_game(dir: &Path, players: &Players) -> Result<(), SessionError> {
    for (side, addr) in [("US", &players.us), ("USSR", &players.ussr)] {
        if addr.parse::<lettre::Address>().is_err()
            || addr.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(SessionError::State(format!(
                "the {side} address `{addr}` is not an e-mail address"
            )));
        }
    }
    if players.us.eq_ignore_ascii_case(&players.ussr) {
        return Err(SessionError::State(
            "the US and the USSR need two different addresses".into(),
        ));
    }
    let id = game_id_of(dir);
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        return Err(SessionError::State(format!(
            "the game folder's name `{id}` is the game id: use letters, digits, `.`, `_` and `-` only"
        )));
    }
    Ok(())
}

/// What to say of a game folder whose log holds no entry: a `twilight new` stopped (killed,
/// or failed) after it made the folder and before the game's first entry was whole.
pub fn incomplete_game(dir: &Path) -> String {
    format!(
        "{} is an incomplete game: it has no log.yaml, or one with no entry (a `twilight new` that did not \
         finish); run the same `twilight new {} --us EMAIL --ussr EMAIL …` again, which starts \
         it afresh",
        dir.display(),
        dir.display()
    )
}

use crate::chance::sealed_chance::DiceLedger;
pub use crate::chance::sealed_chance::SealedChance;

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
    /// that still replays identically (issue 6 scope 2).
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
    /// When set, every replayed decision's view for this role (the replay page, issue 16).
    trace: Option<(Role, Vec<ReplayStep>)>,
    /// Time control, leave, draw offers, timeouts (issue 17; [`crate::session::correspondence`]).
    corr: Ledger,
    /// Takebacks asked, accepted, declined; cancelled entries (issue 17 point 4).
    takebacks: crate::session::takeback::Takebacks,
    /// A bid game's seats and bids ([`crate::bid_session`]).
    pub(crate) bid: seats::BidState,
    /// Standing orders logged and what became of them (issue 17 point 5).
    standing: correspondence::standing::Book,
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

/// The replay's state before a decision a takeback request names first: restored when the
/// takeback is accepted.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Snapshot {
    game: Option<Game>,
    decisions: u64,
    hand_commits: BySide<Option<(u64, Vec<Card>)>>,
    dice: DiceLedger,
    trace: usize,
}

/// One replayed step, for the replay page (issue 16): the entry that made it (seq, hash,
/// author, notation as logged; seq of the second join for the setup) and the board after it.
#[derive(Debug, Clone)]
pub struct ReplayStep {
    /// The entry's sequence number.
    pub seq: u64,
    /// The entry's SHA-256.
    pub hash: Hex32,
    /// Who decided (`None` for the start of play).
    pub side: Option<Side>,
    /// The move as written in the log.
    pub notation: String,
    /// The view after the step.
    pub view: crate::engine::view::View,
}

fn read_secret(dir: &Path) -> Result<Option<Secret>, SessionError> {
    let path = dir.join("secret.yaml");
    let bad = |message: String| SessionError::File {
        path: path.clone(),
        message,
    };
    match gamefs::read_private(&path) {
        Ok((b, note)) => {
            if let Some(note) = note {
                warn_once(&path, &note);
            }
            let s = String::from_utf8(b).map_err(|_| bad("not UTF-8 text".into()))?;
            serde_yaml::from_str(&s)
                .map(Some)
                .map_err(|e| bad(e.to_string()))
        }
        Err(gamefs::FsError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(None)
        }
        Err(e) => Err(bad(e.to_string())),
    }
}

/// Prints `note` about the file `path` on stderr, once per file and process (a command may
/// read a game's secret more than once).
fn warn_once(path: &Path, note: &str) {
    static SHOWN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut shown = SHOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !shown.iter().any(|p| p == path) {
        shown.push(path.to_path_buf());
        eprintln!("note: {note}");
    }
}

fn write_secret(dir: &Path, secret: &Secret) -> Result<(), SessionError> {
    let path = dir.join("secret.yaml");
    let err = |m: String| SessionError::File {
        path: path.clone(),
        message: m,
    };
    let text = serde_yaml::to_string(secret).map_err(|e| err(e.to_string()))?;
    gamefs::refuse_symlink(&path).map_err(|e| err(e.to_string()))?;
    let written =
        gamefs::atomic_write(&path, text.as_bytes(), "secret").map_err(|e| err(e.to_string()));
    // Made or tried: counted (`gamefs::LockMark`).
    gamefs::note_write(dir);
    written
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

/// A fresh 256-bit seed from the operating system's CSPRNG (`getrandom`; FAIRNESS.md §2).
fn fresh_seed() -> Result<[u8; 32], SessionError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| SessionError::File {
        path: "the operating system's random number generator".into(),
        message: e.to_string(),
    })?;
    Ok(seed)
}

impl Session {
    /// Creates a game in `dir` (which must not hold a log yet): the secret seed file and the
    /// `create` entry committing to it.
    pub fn create(
        dir: &Path,
        options: &Options,
        players: Players,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        Self::create_sealed(dir, options, players, fresh_seed()?, false, now)
    }

    /// [`Session::create`] with correspondence settings (issue 17), recorded in entry 0's
    /// options under [`correspondence::OPTIONS_KEY`] (left out when they are the defaults).
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] for settings that [`correspondence::Settings::check`] refuses.
    pub fn create_correspondence(
        dir: &Path,
        options: &Options,
        settings: &correspondence::Settings,
        players: Players,
        seed: Option<[u8; 32]>,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        settings.check().map_err(SessionError::State)?;
        let (seed, test_seed) = match seed {
            Some(s) => (s, true),
            None => (fresh_seed()?, false),
        };
        let extra = (*settings != correspondence::Settings::default()).then(|| to_value(settings));
        Self::create_inner(dir, options, extra, players, seed, test_seed, now)
    }

    /// [`Session::create`] with a given seed (tests and `selfplay --record`): entry 0 marks it
    /// `test_seed: true`, and `verify` calls the game "test seed: not a fair game".
    pub fn create_with_seed(
        dir: &Path,
        options: &Options,
        players: Players,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        Self::create_sealed(dir, options, players, seed, true, now)
    }

    fn create_sealed(
        dir: &Path,
        options: &Options,
        players: Players,
        seed: [u8; 32],
        test_seed: bool,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        Self::create_inner(dir, options, None, players, seed, test_seed, now)
    }

    fn create_inner(
        dir: &Path,
        options: &Options,
        correspondence: Option<Value>,
        players: Players,
        seed: [u8; 32],
        test_seed: bool,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        check_new_game(dir, &players)?;
        // A bid game names seats, not sides: seat 1 = `us`, seat 2 = `ussr` of `players` as
        // given ([`Session::create_bid`]); entry 0 writes them as `seats`.
        let (players, seats) = if options.bid {
            seats::check_bid_options(options).map_err(SessionError::State)?;
            (Players::default(), Some(vec![players.us, players.ussr]))
        } else {
            (players, None)
        };
        let mut options = to_value(options);
        if let (Some(c), Value::Mapping(m)) = (correspondence, &mut options) {
            m.insert(Value::from(correspondence::OPTIONS_KEY), c);
        }
        fs::create_dir_all(dir).map_err(|e| SessionError::File {
            path: dir.into(),
            message: e.to_string(),
        })?;
        let (_lock, _) = Self::lock(dir)?;
        // A `new` stopped by a crash before its first entry was complete left an empty log
        // (or one whose torn entry the lock's recovery set aside): no game yet, start again.
        let log_path = dir.join("log.yaml");
        if fs::symlink_metadata(&log_path).is_ok_and(|m| m.is_file() && m.len() == 0) {
            fs::remove_file(&log_path).map_err(|e| SessionError::File {
                path: log_path.clone(),
                message: e.to_string(),
            })?;
        }
        if dir.join("log.yaml").exists() {
            return Err(SessionError::State(format!(
                "{} already holds a game (its log.yaml has its first entry); `twilight status \
                 {}` shows it. To start another, name a new folder",
                dir.display(),
                dir.display()
            )));
        }
        write_secret(
            dir,
            &Secret {
                seed: Hex32::from(seed),
                pending_headline: None,
                pending_bid: None,
                pending_superpower_card: None,
                standing_orders: Vec::new(),
            },
        )?;
        let mut log = Log::create(dir.join("log.yaml"))?;
        log.append(
            Payload::Create {
                engine_version: env!("CARGO_PKG_VERSION").into(),
                rules_revision: RULES_REVISION.into(),
                options,
                players,
                seats,
                seed_commitment: Hex32::from(fairness::seed_commitment(&seed)),
                dice_chain_end: Some(Hex32::from(fairness::dice_chain_end(&seed))),
                test_seed,
            },
            Author::Moderator,
            now,
        )?;
        Self::open(dir)
    }

    /// Takes the game's lock for a command ([`gamefs::GameLock`]: one writer per game, from
    /// reading the log to the last byte written), then finishes or sets aside a move that a
    /// crash interrupted ([`Log::recover`]). Returns the lock, to hold until the command is
    /// done, and the line to show if something was set aside.
    ///
    /// # Errors
    ///
    /// [`SessionError::File`] if the folder is a symbolic link, [`SessionError::Busy`] if the
    /// lock is not free in time ([`gamefs::lock_wait`]), [`SessionError::ReadOnly`] if the
    /// folder cannot be written; [`SessionError::Log`] if the recovery fails.
    pub fn lock(dir: &Path) -> Result<(gamefs::GameLock, Option<String>), SessionError> {
        let lock = gamefs::GameLock::acquire(dir).map_err(|e| match e {
            gamefs::FsError::Busy { .. } => SessionError::Busy(e),
            gamefs::FsError::ReadOnly { .. } => SessionError::ReadOnly(e),
            other => SessionError::File {
                path: dir.into(),
                message: other.to_string(),
            },
        })?;
        let note = Log::recover(dir.join("log.yaml"))?;
        gamefs::remove_stale_temps(dir);
        Ok((lock, note))
    }

    /// Opens and replays the game in `dir`, with the moderator's secret if present.
    pub fn open(dir: &Path) -> Result<Session, SessionError> {
        let secret = read_secret(dir)?;
        Self::replay(dir, secret, true)
    }

    /// Opens and replays the game in `dir` as the public sees it (no secret file), or, once
    /// the seed is revealed, with full verification.
    pub fn open_public(dir: &Path) -> Result<Session, SessionError> {
        Self::replay(dir, None, false)
    }

    /// [`Session::open_public`] over the log of `dir` already opened (and so checked), e.g.
    /// by [`Log::verify_bytes`]: the file is not read, hashed or parsed again.
    pub fn open_public_log(dir: &Path, log: Log) -> Result<Session, SessionError> {
        Self::replay_log(dir, None, false, log, false)
    }

    /// Opens `dir` like [`Session::open_public`] and also returns the board after every
    /// decision, as the public sees it, or as the moderator does once the seed is revealed.
    pub fn open_public_traced(dir: &Path) -> Result<(Session, Vec<ReplayStep>), SessionError> {
        let mut s = Self::replay_with(dir, None, false, true)?;
        let steps = s.trace.take().map(|(_, t)| t).unwrap_or_default();
        Ok((s, steps))
    }

    fn replay(
        dir: &Path,
        secret: Option<Secret>,
        use_secret: bool,
    ) -> Result<Session, SessionError> {
        Self::replay_with(dir, secret, use_secret, false)
    }

    fn replay_with(
        dir: &Path,
        secret: Option<Secret>,
        use_secret: bool,
        traced: bool,
    ) -> Result<Session, SessionError> {
        gamefs::refuse_symlink(dir).map_err(|e| SessionError::File {
            path: dir.into(),
            message: e.to_string(),
        })?;
        let path = dir.join("log.yaml");
        // The replay snapshot, if it is this log's: only the entries after it are read.
        let seed = secret.as_ref().filter(|_| use_secret && !traced);
        let cached = seed.and_then(|s| snapshot::read(dir, &game_id_of(dir), s.seed.as_bytes()));
        if let Some((point, cp)) = cached {
            // Not past a reveal: the seed, and so the snapshot's key, is public from there on.
            let opened = Log::open_after(&path, &point)?.filter(|log| {
                !log.since(point.len as u64)
                    .iter()
                    .any(|e| matches!(e.entry.payload, Payload::Reveal { .. }))
            });
            if let Some(log) = opened {
                let s = Self::replay_from(dir, secret, use_secret, log, false, Some(Arc::new(cp)))?;
                if s.replayed > 0 {
                    s.save_snapshot();
                }
                return Ok(s);
            }
        }
        let log = Log::open(path)?;
        let s = Self::replay_log(dir, secret, use_secret, log, traced)?;
        s.save_snapshot();
        Ok(s)
    }

    /// Replays `log` (as read, or with staged entries of the move being made); `traced` keeps
    /// the board after every decision ([`Session::open_public_traced`]).
    fn replay_log(
        dir: &Path,
        secret: Option<Secret>,
        use_secret: bool,
        log: Log,
        traced: bool,
    ) -> Result<Session, SessionError> {
        Self::replay_from(dir, secret, use_secret, log, traced, None)
    }

    /// [`Session::replay_log`], carrying the replay on from checkpoint `from` when it fits the
    /// log ([`Session::fits`]; never for a traced replay), else from entry 0.
    fn replay_from(
        dir: &Path,
        secret: Option<Secret>,
        use_secret: bool,
        log: Log,
        traced: bool,
        from: Option<Arc<Checkpoint>>,
    ) -> Result<Session, SessionError> {
        if log.is_empty() {
            return Err(SessionError::State(incomplete_game(dir)));
        }
        let from = from.filter(|cp| !traced && Self::fits(cp, &log));
        let unseen = match &from {
            Some(cp) => log.since(cp.len as u64),
            None => log.entries(),
        };
        let revealed_seed = unseen.iter().find_map(|e| match &e.entry.payload {
            Payload::Reveal { seed } => Some(*seed.as_bytes()),
            _ => None,
        });
        let seed = revealed_seed.or_else(|| {
            if use_secret {
                secret.as_ref().map(|s| *s.seed.as_bytes())
            } else {
                None
            }
        });
        let game_id = game_id_of(dir);
        let mut s = Session {
            dir: dir.to_path_buf(),
            mode: if seed.is_some() {
                Mode::Full
            } else {
                Mode::Public
            },
            seed,
            secret: if use_secret { secret } else { None },
            options: Options::default(),
            players: Players {
                us: String::new(),
                ussr: String::new(),
            },
            game_id,
            game: None,
            findings: Vec::new(),
            decisions: 0,
            hand_commits: BySide::default(),
            secret_after_commit: false,
            revealed: revealed_seed.is_some(),
            applied: Vec::new(),
            happened: Vec::new(),
            notes: Vec::new(),
            recorded: None,
            nonces: BySide::default(),
            dice: DiceLedger::default(),
            dice_checked: None,
            test_seed: false,
            bid: Default::default(),
            trace: traced.then(|| {
                let role = if revealed_seed.is_some() {
                    Role::Moderator
                } else {
                    Role::Public
                };
                (role, Vec::new())
            }),
            corr: Ledger::default(),
            takebacks: Default::default(),
            standing: Default::default(),
            log: Log::default(),
            checkpoint: None,
            committed: None,
            replayed: 0,
            last_decision: None,
            tenure: gamefs::lock_mark(dir),
        };
        s.run_replay(&log, from)?;
        if log.staged() == 0 {
            s.committed = s.checkpoint.clone();
        }
        s.log = log;
        Ok(s)
    }

    /// Whether the replay of `log` may carry on from `cp`: the log's first `cp.len` entries
    /// end with the entry `cp` ends with, the entry after them is no chance record (which
    /// belongs to the decision before it), and no takeback request follows (its check and the
    /// state it keeps need the entries before; those replays start from entry 0).
    fn fits(cp: &Checkpoint, log: &Log) -> bool {
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
    fn keeps_checkpoint(&self) -> bool {
        self.secret.is_some() && self.seed.is_some() && !self.revealed && self.trace.is_none()
    }

    /// Takes the replay's state from `cp`; returns the replay's locals.
    fn resume(&mut self, cp: &Checkpoint) -> Locals {
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
    fn checkpoint_of(&self, len: usize, head: Hex32, locals: Locals) -> Checkpoint {
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
    fn save_snapshot(&self) {
        let (Some(cp), Some(point), Some(secret)) =
            (&self.checkpoint, self.log.point(), &self.secret)
        else {
            return;
        };
        if self.keeps_checkpoint() && gamefs::holds_lock(&self.dir) {
            let _ = snapshot::write(&self.dir, &self.game_id, secret.seed.as_bytes(), &point, cp);
        }
    }

    /// How many entries the last replay went through: all of them without a snapshot, none
    /// when the snapshot was at the log's head, the entries after it otherwise ([`snapshot`]).
    pub fn entries_replayed(&self) -> usize {
        self.replayed
    }

    /// The log's last decision (who, its notation as logged) and the Influence on the board
    /// just before it: what the last move changed (the mail picture's highlight, issue 16),
    /// without a second replay. Kept by a replay with the moderator's secret before the
    /// reveal (`Some(None)` before the first decision); `None` when not kept.
    pub fn last_decision(&self) -> Option<Option<&LastDecision>> {
        self.keeps_checkpoint()
            .then_some(self.last_decision.as_ref())
    }

    /// Replays `log` (from `from`, else from entry 0), keeps the checkpoint after its last
    /// entry, then makes the checks of the whole replay.
    fn run_replay(&mut self, log: &Log, from: Option<Arc<Checkpoint>>) -> Result<(), SessionError> {
        let (entries, locals) = match &from {
            Some(cp) => (log.since(cp.len as u64), self.resume(cp)),
            None => (log.entries(), Locals::default()),
        };
        self.replayed = entries.len();
        let keep = self.keeps_checkpoint();
        let Locals {
            mut joined,
            mut sealed_commits,
            mut snapshots,
        } = locals;
        // The first decision each takeback request names: the replay's state before it is kept.
        let starts: std::collections::HashSet<u64> = entries
            .iter()
            .filter_map(|e| match &e.entry.payload {
                Payload::TakebackRequest { cancels, .. } => cancels.first().map(|c| c.seq),
                _ => None,
            })
            .collect();
        let mut i = 0;
        while i < entries.len() {
            let se = &entries[i];
            let seq = se.entry.seq;
            let fail = |m: String| SessionError::Replay { seq, message: m };
            // Chance records that follow a decision or join belong to it.
            let mut records: Vec<ChanceOutcome> = Vec::new();
            let mut j = i + 1;
            while j < entries.len() {
                if let Payload::Chance { what } = &entries[j].entry.payload {
                    records.push(from_value(what).map_err(|e| SessionError::Replay {
                        seq: entries[j].entry.seq,
                        message: format!("bad chance record: {e}"),
                    })?);
                    j += 1;
                } else {
                    break;
                }
            }
            match &se.entry.payload {
                Payload::Create {
                    options,
                    players,
                    seats,
                    seed_commitment,
                    rules_revision,
                    dice_chain_end,
                    test_seed,
                    ..
                } => {
                    self.test_seed = *test_seed;
                    self.dice.chain_end = dice_chain_end.map(|h| *h.as_bytes());
                    if seq != 0 {
                        return Err(fail("a second create entry".into()));
                    }
                    // A recorded game (design §2) marks its options `recorded: true` and names
                    // its source; it has no seed (an all-zero commitment) and replays on the
                    // public information and chance records it holds.
                    let mut options = options.clone();
                    if let Value::Mapping(m) = &mut options {
                        // Correspondence settings (issue 17): absent before, so no time control.
                        if let Some(c) = m.remove(correspondence::OPTIONS_KEY) {
                            let settings: correspondence::Settings = from_value(&c)
                                .map_err(|e| fail(format!("bad correspondence settings: {e}")))?;
                            self.corr = Ledger::new(settings);
                        }
                        let recorded = m.remove(crate::log::recorded::RECORDED_KEY);
                        let from = m.remove(crate::log::recorded::RECORDED_FROM_KEY);
                        if recorded == Some(Value::from(true)) {
                            if *seed_commitment != Hex32::from([0u8; 32]) {
                                return Err(fail(
                                    "a recorded game has an all-zero seed commitment".into(),
                                ));
                            }
                            self.recorded = Some(
                                from.and_then(|v| v.as_str().map(str::to_string))
                                    .unwrap_or_default(),
                            );
                        }
                    }
                    self.options =
                        from_value(&options).map_err(|e| fail(format!("bad options: {e}")))?;
                    self.options
                        .check()
                        .map_err(|e| fail(format!("bad options: {e}")))?;
                    self.options.revision = crate::log::recorded::revision_of(rules_revision);
                    self.corr.tick(seq, se.entry.at, None);
                    self.players = players.clone();
                    self.bid
                        .read_create(&self.options, players, seats.as_deref())
                        .map_err(fail)?;
                    if rules_revision != RULES_REVISION {
                        self.notes.push(format!(
                            "entry 0: written under rules revision {rules_revision}; this engine implements {RULES_REVISION} (a divergence would be a finding naming its entry)"
                        ));
                    }
                    if let Some(seed) = self.seed {
                        if fairness::seed_commitment(&seed) != *seed_commitment.as_bytes() {
                            return Err(fail("the seed does not match the seed commitment".into()));
                        }
                        match dice_chain_end {
                            Some(end) if fairness::dice_chain_end(&seed) != *end.as_bytes() => {
                                self.findings.push(
                                    "entry 0: dice_chain_end is not the end of the seed's dice-key chain".into(),
                                );
                            }
                            Some(_) => {}
                            None => self.findings.push(
                                "entry 0: no dice_chain_end — a sealed log of FAIRNESS version 1, whose draws this engine no longer re-derives".into(),
                            ),
                        }
                    }
                    i += 1;
                    continue;
                }
                Payload::Join { side, nonce, .. } => {
                    if self.options.bid {
                        return Err(fail(
                            "a join entry in a bid game: seats join with their bid".into(),
                        ));
                    }
                    if joined[*side] {
                        return Err(fail(format!("the {side} joined twice")));
                    }
                    joined[*side] = true;
                    self.nonces[*side] = Some(nonce.clone());
                    if joined.us && joined.ussr {
                        let mix = self.nonce_mix().expect("both joined");
                        self.start_play(se, mix, &records).map_err(fail)?;
                    }
                }
                Payload::Resign { .. }
                | Payload::Draw { .. }
                | Payload::Leave { .. }
                | Payload::Timeout { .. }
                | Payload::Adjudication { .. } => {
                    let Some(game) = self.game.as_mut() else {
                        return Err(fail(format!(
                            "a {} entry before both players joined",
                            se.entry.payload.kind()
                        )));
                    };
                    self.corr.replay(&se.entry, game).map_err(fail)?;
                }
                Payload::Decision {
                    side,
                    answer,
                    notation,
                } => {
                    let answer: Answer = from_value(answer)
                        .map_err(|e| fail(format!("bad answer `{notation}`: {e}")))?;
                    if starts.contains(&seq) {
                        snapshots.insert(seq, self.snapshot());
                    }
                    // A decision a standing order made is the order's answer, and stands: a
                    // takeback never cancels it (the order is used for good).
                    if self.standing.awaiting_decision() {
                        self.standing.on_decision(*side, &answer).map_err(fail)?;
                        self.takebacks
                            .blocked
                            .insert(seq, crate::session::takeback::STANDING_ORDER_BLOCKER);
                    }
                    self.takebacks.pending = None;
                    let seed = self.seed;
                    let mix = self.dice.mix.unwrap_or_default();
                    let r = self.decisions + 1;
                    let Some(game) = self.game.as_mut() else {
                        return Err(fail("a decision before both players joined".into()));
                    };
                    if keep {
                        self.last_decision = Some(LastDecision {
                            side: *side,
                            notation: notation.clone(),
                            before: game.state().influence.clone(),
                        });
                    }
                    let slot = crate::chance::sealed_choice::Slot::of(game, *side);
                    let choice = slot
                        .zip(game.prompt_for(*side))
                        .and_then(|(slot, p)| slot.choice(*side, &answer, p).map(|c| (slot, c)));
                    let turn = game.state().turn;
                    let marks = crate::session::takeback::Marks::of(game);
                    let result = match seed {
                        Some(seed) => game.apply(
                            *side,
                            answer.clone(),
                            &mut SealedChance::new(seed, mix, r, u32::from(turn)),
                        ),
                        None => game.apply(
                            *side,
                            answer.clone(),
                            &mut RecordedChance::new(records.clone()),
                        ),
                    };
                    let drawn = result
                        .map_err(|e| fail(format!("`{notation}` by the {side} is refused: {e}")))?;
                    if let Some(why) =
                        crate::session::takeback::blocker_of(marks, game, slot.is_some(), &drawn)
                    {
                        self.takebacks.blocked.insert(seq, why);
                    }
                    self.decisions += 1;
                    self.corr.on_decision(*side);
                    self.dice.record(r, u32::from(turn), &drawn);
                    self.check_records(seq, &drawn, &records);
                    self.trace_step(se, Some(*side), notation);
                    if let (Some(seed), Some((slot, choice))) = (self.seed, choice) {
                        if let Some(pos) = sealed_commits
                            .iter()
                            .position(|(s, t, _)| s == side && *t == slot)
                        {
                            let (_, _, digest) = sealed_commits.remove(pos);
                            if slot.commitment(&seed, *side, choice) != *digest.as_bytes() {
                                self.findings.push(format!(
                                    "entry {seq}: the {side} {} {} does not match its commitment",
                                    slot.what(),
                                    choice.name()
                                ));
                            }
                        }
                    }
                }
                Payload::Chance { .. } => {
                    self.findings.push(format!(
                        "entry {seq}: a chance record that follows no decision"
                    ));
                }
                Payload::Commitment {
                    kind,
                    side,
                    digest,
                    turn: logged_turn,
                } => match kind {
                    CommitmentKind::Hand => {
                        let Some(side) = side else {
                            return Err(fail("a hand commitment without a side".into()));
                        };
                        if let (Some(seed), Some(game)) = (self.seed, self.game.as_ref()) {
                            let mut hand = game.state().cards.hands[*side].clone();
                            hand.sort();
                            let bytes: Vec<u8> = hand.iter().map(|c| *c as u8).collect();
                            let want = fairness::commitment(
                                &fairness::hand_salt(&seed, side_str(*side), seq),
                                &fairness::canonical_hand(&bytes),
                            );
                            if want != *digest.as_bytes() {
                                self.findings.push(format!("entry {seq}: the {side} hand commitment does not match the hand"));
                            }
                            self.hand_commits[*side] = Some((seq, hand));
                        } else {
                            self.hand_commits[*side] = Some((seq, Vec::new()));
                        }
                    }
                    CommitmentKind::Headline | CommitmentKind::SuperpowerCard => {
                        let Some(side) = side else {
                            return Err(fail(format!("a {kind:?} commitment without a side")));
                        };
                        let slot = crate::chance::sealed_choice::Slot::of_commitment(
                            self.game.as_ref(),
                            *kind,
                        )
                        .map_err(fail)?
                        .expect("a choice's slot");
                        if logged_turn.is_some_and(|t| t != slot.number()) {
                            let (what, now) = match slot {
                                crate::chance::sealed_choice::Slot::Headline { turn } => {
                                    ("headline commitment for turn", format!("turn {turn}"))
                                }
                                crate::chance::sealed_choice::Slot::SuperpowerCard { crisis } => (
                                    "superpower card commitment for crisis",
                                    format!("crisis {crisis}"),
                                ),
                            };
                            self.findings.push(format!(
                                "entry {seq}: a {what} {} during {now}",
                                logged_turn.unwrap_or_default()
                            ));
                        }
                        sealed_commits.push((*side, slot, *digest));
                        self.corr.on_sealed_headline(*side);
                    }
                },
                Payload::DiceKey { turn, key } => {
                    if let Some(seed) = self.seed {
                        if *turn <= fairness::DICE_TURNS
                            && fairness::dice_key(&seed, *turn) != *key.as_bytes()
                        {
                            self.findings.push(format!(
                                "entry {seq}: the dice key of turn {turn} is not the seed's"
                            ));
                        }
                    }
                    let finished = self.game.as_ref().map_or(0, |g| {
                        u32::from(g.state().turn).saturating_sub(u32::from(g.outcome().is_none()))
                    });
                    if *turn > finished {
                        self.findings.push(format!(
                            "entry {seq}: the dice key of turn {turn} is published before the turn ends"
                        ));
                    }
                    if let Some(f) = self.dice.publish(seq, *turn, *key.as_bytes()) {
                        self.findings.push(f);
                    }
                }
                Payload::Bid {
                    seat,
                    nonce,
                    digest,
                    ..
                } => {
                    self.bid
                        .read_bid(seq, *seat, nonce, *digest)
                        .map_err(fail)?;
                }
                Payload::BidResult {
                    bids,
                    draw_winner,
                    players,
                    bonus,
                } => {
                    let findings = self
                        .bid
                        .read_result(seq, self.seed, bids, *draw_winner, players, *bonus)
                        .map_err(fail)?;
                    self.findings.extend(findings);
                    self.players = players.clone();
                    let b = bonus.map(|b| (b.side, b.influence));
                    self.options.us_bonus = match b {
                        Some((Side::Us, n)) => n,
                        _ => 0,
                    };
                    self.options.ussr_bonus = match b {
                        Some((Side::Ussr, n)) => n,
                        _ => 0,
                    };
                    for side in Side::BOTH {
                        self.nonces[side] = self.bid.nonce_of(players, side);
                    }
                    let mix = self.nonce_mix().ok_or_else(|| {
                        fail("a bid result whose players are not the seats".into())
                    })?;
                    self.start_play(se, mix, &records).map_err(fail)?;
                }
                Payload::Reveal { .. } => {}
                Payload::StandingOrder { side, digest } => {
                    self.standing.on_order(seq, *side, *digest).map_err(fail)?;
                }
                Payload::StandingOrderCancel { side, order } => {
                    self.standing.on_cancel(seq, *side, *order).map_err(fail)?;
                }
                Payload::StandingOrderUsed {
                    side,
                    order,
                    text,
                    salt,
                } => {
                    let Some(game) = self.game.as_mut() else {
                        return Err(fail(
                            "a standing order used before both players joined".into(),
                        ));
                    };
                    self.standing
                        .on_used(seq, (*side, *order, text, salt), game, self.seed.as_ref())
                        .map_err(fail)?;
                }
                Payload::TakebackRequest { side, cancels } => {
                    let n = self
                        .takebacks
                        .tail(entries, i, *side)
                        .check(entries, cancels)
                        .map_err(|m| fail(format!("the {side}'s takeback request: {m}")))?;
                    self.takebacks.pending = Some(crate::session::takeback::PendingTakeback {
                        request: seq,
                        side: *side,
                        cancels: cancels.clone(),
                        decisions: n,
                    });
                }
                Payload::Takeback {
                    side,
                    request,
                    cancels,
                } => {
                    let pending = self.takebacks.pending.take();
                    let Some(p) = pending.filter(|p| p.request == *request && p.side == *side)
                    else {
                        return Err(fail(format!(
                            "a takeback for the {side} answering request {request}, which is not the request pending"
                        )));
                    };
                    if p.cancels != *cancels {
                        return Err(fail(format!(
                            "the takeback record names entries {:?}, not the entries {:?} its request {request} named",
                            cancels.iter().map(|c| c.seq).collect::<Vec<_>>(),
                            p.cancels.iter().map(|c| c.seq).collect::<Vec<_>>()
                        )));
                    }
                    let snap = cancels
                        .first()
                        .and_then(|c| snapshots.get(&c.seq))
                        .cloned()
                        .ok_or_else(|| fail("a takeback of nothing".into()))?;
                    self.restore(snap);
                    self.takebacks
                        .cancelled
                        .extend(cancels.iter().map(|c| c.seq));
                    self.takebacks.last_answer = Some(seq);
                }
                Payload::TakebackDeclined { side, request } => {
                    let pending = self.takebacks.pending.take();
                    if !pending.is_some_and(|p| p.request == *request && p.side == *side) {
                        return Err(fail(format!(
                            "a takeback declined for the {side} answering request {request}, which is not the request pending"
                        )));
                    }
                    self.takebacks.last_answer = Some(seq);
                }
            }
            if !matches!(se.entry.payload, Payload::Create { .. }) {
                self.corr
                    .tick(seq, entries[j - 1].entry.at, self.game.as_ref());
            }
            i = j;
        }
        if keep {
            match from {
                // Carried on from a checkpoint with no entry after it: the state is the
                // checkpoint's, which stands as it is (not copied again).
                Some(cp) if entries.is_empty() => self.checkpoint = Some(cp),
                _ => {
                    if let Some(last) = log.entries_held_last() {
                        let locals = Locals {
                            joined,
                            sealed_commits: sealed_commits.clone(),
                            snapshots,
                        };
                        self.checkpoint =
                            Some(Arc::new(self.checkpoint_of(log.len(), last, locals)));
                    }
                }
            }
        }
        if self.standing.awaiting_decision() {
            self.findings.push(
                "the log ends with a standing order used but not the decision it answers".into(),
            );
        }
        let (dice_findings, checked) = self.dice.check();
        // What the check found sound spares the next replay carried on from the checkpoint
        // (within this process) deriving those dice again.
        if let Some(cp) = self
            .checkpoint
            .as_mut()
            .filter(|cp| cp.dice.verified != self.dice.verified)
        {
            Arc::make_mut(cp).dice.verified = self.dice.verified.clone();
        }
        self.findings.extend(dice_findings);
        if let Some(f) = self.bid.check_draw(&self.dice) {
            self.findings.push(f);
        }
        if let Some(secret) = self.secret.as_ref() {
            self.bid
                .check_pending(secret)
                .map_err(SessionError::State)?;
        }
        self.dice_checked = checked;
        if let (Some(_), Some(game)) = (self.dice.chain_end, self.game.as_ref()) {
            let finished =
                u32::from(game.state().turn).saturating_sub(u32::from(game.outcome().is_none()));
            for t in 1..=finished.min(fairness::DICE_TURNS) {
                if !self.dice.keys.contains_key(&t) {
                    self.findings.push(format!(
                        "turn {t} has ended but its dice key is not in the log"
                    ));
                }
            }
        }
        // A choice waiting for its pair (a headline, a superpower card) is known to the
        // moderator only; it must be the card its logged commitment seals (a swapped
        // secret.yaml is refused, issue 20).
        if let (Some(secret), Some(game)) = (self.secret.clone(), self.game.as_mut()) {
            let seed = *secret.seed.as_bytes();
            let turn = game.state().turn;
            // Only a choice whose commitment is in the log and still unpaired: a pending
            // choice left by a crash before its commitment was written was never made
            // (issue 12).
            let pending =
                crate::chance::sealed_choice::Pending::of_secret(&secret, u32::from(turn)).filter(
                    |p| {
                        sealed_commits
                            .iter()
                            .any(|(s, t, _)| *s == p.side && *t == p.slot)
                    },
                );
            if let Some(p) = pending {
                let sealed = sealed_commits
                    .iter()
                    .rev()
                    .find(|(s, t, _)| *s == p.side && *t == p.slot)
                    .map(|(_, _, d)| *d.as_bytes());
                if sealed != Some(p.slot.commitment(&seed, p.side, p.choice)) {
                    return Err(SessionError::State(format!(
                        "secret.yaml's pending {} {} {} is not the card its logged commitment seals",
                        p.side,
                        p.slot.what(),
                        p.choice.name()
                    )));
                }
                if crate::chance::sealed_choice::Slot::of(game, p.side) == Some(p.slot) {
                    let answer = game
                        .prompt_for(p.side)
                        .and_then(|q| p.choice.answer(q))
                        .ok_or_else(|| {
                            SessionError::State(format!(
                                "pending {} {} is not offered",
                                p.slot.what(),
                                p.choice.name()
                            ))
                        })?;
                    let mix = self.dice.mix.unwrap_or_default();
                    game.apply(
                        p.side,
                        answer,
                        &mut SealedChance::new(seed, mix, self.decisions + 1, u32::from(turn)),
                    )
                    .map_err(|e| {
                        SessionError::State(format!("pending {} refused: {e}", p.slot.what()))
                    })?;
                }
            }
        }
        Ok(())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            game: self.game.clone(),
            decisions: self.decisions,
            hand_commits: self.hand_commits.clone(),
            dice: self.dice.clone(),
            trace: self.trace.as_ref().map_or(0, |(_, t)| t.len()),
        }
    }

    fn restore(&mut self, snap: Snapshot) {
        self.game = snap.game;
        self.decisions = snap.decisions;
        self.hand_commits = snap.hand_commits;
        self.dice = snap.dice;
        if let Some((_, t)) = self.trace.as_mut() {
            t.truncate(snap.trace);
        }
    }

    /// The start of play at entry `se` (the second join, or a bid game's `bid_result`): the
    /// opening shuffle and deal under the nonce mix `mix` — drawn from the seed, or read from
    /// the `records` that follow `se` in a public replay — checked against those records.
    fn start_play(
        &mut self,
        se: &StoredEntry,
        mix: [u8; 32],
        records: &[ChanceOutcome],
    ) -> Result<(), String> {
        self.dice.mix = Some(mix);
        let (game, drawn) = match self.seed {
            Some(seed) => Game::new(
                self.options.clone(),
                &mut SealedChance::new(seed, mix, 0, 0),
            ),
            None => Game::new_public(
                self.options.clone(),
                &mut RecordedChance::new(records.to_vec()),
            ),
        }
        .map_err(|e| e.to_string())?;
        self.check_records(se.entry.seq, &drawn, records);
        self.game = Some(game);
        self.trace_step(se, None, "start of play");
        Ok(())
    }

    fn trace_step(&mut self, se: &StoredEntry, side: Option<Side>, notation: &str) {
        if let (Some((role, steps)), Some(game)) = (self.trace.as_mut(), self.game.as_ref()) {
            steps.push(ReplayStep {
                seq: se.entry.seq,
                hash: se.hash,
                side,
                notation: notation.to_string(),
                view: crate::engine::view::view(game, *role),
            });
        }
    }

    /// Compares the chance outcomes the engine drew with the log's public records: die rolls
    /// and revealed cards must match one for one; shuffles are sealed, never recorded.
    fn check_records(&mut self, seq: u64, drawn: &[ChanceOutcome], records: &[ChanceOutcome]) {
        let public: Vec<&ChanceOutcome> = drawn
            .iter()
            .filter(|o| !matches!(o, ChanceOutcome::Order(_)))
            .collect();
        let recs: Vec<&ChanceOutcome> = records.iter().collect();
        if public != recs {
            self.findings.push(format!(
                "entry {seq}: chance records {recs:?} differ from the outcomes re-derived {public:?}"
            ));
        }
    }

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

    /// The salt and sequence number of `side`'s latest hand commitment (moderator only).
    pub fn hand_salt(&self, side: Side) -> Option<(u64, [u8; 32])> {
        let seed = self.seed?;
        let (seq, _) = self.hand_commits[side].as_ref()?;
        Some((*seq, fairness::hand_salt(&seed, side_str(side), *seq)))
    }

    /// `side`'s latest hand commitment as the player can check it (moderator only): the
    /// sequence number of its log entry, its digest as logged, and its salt (FAIRNESS.md §7–9).
    pub fn hand_commitment(&self, side: Side) -> Option<(u64, [u8; 32], [u8; 32])> {
        let (seq, salt) = self.hand_salt(side)?;
        let entry = self.log.get(seq)?;
        match &entry.entry.payload {
            Payload::Commitment { digest, .. } => Some((seq, *digest.as_bytes(), salt)),
            _ => None,
        }
    }

    /// The salt of `side`'s headline commitment of turn `turn` (moderator only; FAIRNESS.md §7).
    pub fn headline_salt(&self, side: Side, turn: u32) -> Option<[u8; 32]> {
        let seed = self.seed?;
        Some(fairness::headline_salt(&seed, side_str(side), turn))
    }

    /// `side`'s simultaneous choice awaiting its pair (a headline, a Turn Zero superpower
    /// card), from the moderator's secret.
    pub fn pending_choice(&self, side: Side) -> Option<crate::chance::sealed_choice::Pending> {
        let turn = self.game.as_ref().map_or(0, |g| u32::from(g.state().turn));
        crate::chance::sealed_choice::Pending::of_secret(self.secret.as_ref()?, turn)
            .filter(|p| p.side == side)
    }

    /// The salt of `side`'s sealed choice in `slot` (moderator only; FAIRNESS.md §7, §15).
    pub fn choice_salt(
        &self,
        side: Side,
        slot: crate::chance::sealed_choice::Slot,
    ) -> Option<[u8; 32]> {
        Some(slot.salt(self.seed.as_ref()?, side))
    }

    /// `side`'s headline card awaiting its pair, from the moderator's secret.
    pub fn pending_headline(&self, side: Side) -> Option<Card> {
        let p = self.secret.as_ref()?.pending_headline.as_ref()?;
        (p.side == side).then_some(p.card)
    }

    /// The reply token for `side` at the current head (moderator only).
    pub fn reply_token(&self, side: Side) -> Option<String> {
        let seed = self.seed?;
        Some(fairness::reply_token(
            &seed,
            &self.game_id,
            self.log.next_seq(),
            side_str(side),
        ))
    }

    /// The reply token for `side` as bound to log sequence number `seq` (moderator only); an
    /// invitation uses `seq = 0` (FAIRNESS.md §10); the mail loop binds a prompt's Message-ID
    /// to it (issue 13 §1).
    pub fn reply_token_at(&self, side: Side, seq: u64) -> Option<String> {
        let seed = self.seed?;
        Some(fairness::reply_token(
            &seed,
            &self.game_id,
            seq,
            side_str(side),
        ))
    }

    /// Checks a reply token for `side` at the current position, in constant time.
    pub fn check_reply_token(&self, side: Side, token: &str) -> bool {
        match self.seed {
            Some(seed) => fairness::check_reply_token(
                &seed,
                &self.game_id,
                self.log.next_seq(),
                side_str(side),
                token,
            ),
            None => false,
        }
    }

    /// Checks a reply token for `side` as issued at log sequence number `seq` (an earlier
    /// prompt), in constant time; lets the mail loop tell a stale token from a wrong one.
    pub fn check_reply_token_at(&self, side: Side, seq: u64, token: &str) -> bool {
        match self.seed {
            Some(seed) => {
                fairness::check_reply_token(&seed, &self.game_id, seq, side_str(side), token)
            }
            None => false,
        }
    }

    fn moderator_seed(&self) -> Result<[u8; 32], SessionError> {
        match (&self.secret, self.seed) {
            (Some(_), Some(seed)) => Ok(seed),
            _ => Err(SessionError::State(
                "this needs the moderator's secret.yaml".into(),
            )),
        }
    }

    /// The players' [`fairness::nonce_mix`], once both have joined.
    fn nonce_mix(&self) -> Option<[u8; 32]> {
        Some(fairness::nonce_mix(
            self.nonces.ussr.as_deref()?,
            self.nonces.us.as_deref()?,
        ))
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

    /// Whether `side` has joined: its `join` entry (with its nonce) is in the log. Before the
    /// game starts, the side that has not is the one awaited.
    pub fn has_joined(&self, side: Side) -> bool {
        self.nonces[side].is_some()
    }

    /// The moderator types `side`'s nonce (`twilight join`, a game set up by hand): the `join`
    /// entry is marked `typed_by_moderator: true`. After both joins the cards are shuffled and
    /// dealt.
    pub fn join(
        &mut self,
        side: Side,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.join_as(side, nonce, true, now)
    }

    /// `side` joins with the nonce it sent by mail (issue 20 point 6); otherwise as
    /// [`Session::join`].
    pub fn join_by_mail(
        &mut self,
        side: Side,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.join_as(side, nonce, false, now)
    }

    fn join_as(
        &mut self,
        side: Side,
        nonce: &str,
        typed_by_moderator: bool,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.options.bid {
            return Err(SessionError::State(
                "the sides of this game are decided by a bid: each seat joins with its bid (`twilight bid`)".into(),
            ));
        }
        let already = self
            .log
            .entries()
            .iter()
            .any(|e| matches!(&e.entry.payload, Payload::Join { side: s, .. } if *s == side));
        if already {
            return Err(SessionError::State(format!(
                "the {side} has already joined"
            )));
        }
        self.log.stage(
            Payload::Join {
                side,
                nonce: nonce.into(),
                typed_by_moderator,
            },
            Author::from(side),
            now,
        )?;
        self.nonces[side] = Some(nonce.to_string());
        let both = self
            .log
            .entries()
            .iter()
            .filter(|e| matches!(e.entry.payload, Payload::Join { .. }))
            .count()
            == 2;
        if both {
            let (game, drawn) = Game::new(
                self.options.clone(),
                &mut SealedChance::new(seed, self.nonce_mix().expect("both joined"), 0, 0),
            )
            .map_err(|e| SessionError::State(e.to_string()))?;
            self.append_records(&drawn, now)?;
            self.game = Some(game);
            self.append_hand_commitments(now)?;
            // A game that starts after turn 1 (the Late War scenario, turn 8) publishes the
            // keys of the turns before its first with the opening deal (FAIRNESS.md §3.4).
            self.append_dice_keys(seed, now)?;
        }
        self.commit()?;
        self.reload()
    }

    fn append_records(
        &mut self,
        drawn: &[ChanceOutcome],
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        for o in drawn {
            if !matches!(o, ChanceOutcome::Order(_)) {
                self.log.stage(
                    Payload::Chance { what: to_value(o) },
                    Author::Moderator,
                    now,
                )?;
            }
        }
        Ok(())
    }

    fn append_hand_commitments(&mut self, now: DateTime<Utc>) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        for side in Side::BOTH {
            let mut hand = game.state().cards.hands[side].clone();
            hand.sort();
            if self.hand_commits[side].as_ref().map(|(_, h)| h) == Some(&hand) {
                continue;
            }
            let seq = self.log.next_seq();
            let bytes: Vec<u8> = hand.iter().map(|c| *c as u8).collect();
            let digest = fairness::commitment(
                &fairness::hand_salt(&seed, side_str(side), seq),
                &fairness::canonical_hand(&bytes),
            );
            self.log.stage(
                Payload::Commitment {
                    kind: CommitmentKind::Hand,
                    side: Some(side),
                    turn: None,
                    digest: Hex32::from(digest),
                },
                Author::Moderator,
                now,
            )?;
            self.hand_commits[side] = Some((seq, hand));
        }
        Ok(())
    }

    /// Appends the dice key of every turn that has ended and whose key is not in the log yet
    /// (the game's last turn too, once it is over; FAIRNESS.md §3.2).
    fn append_dice_keys(&mut self, seed: [u8; 32], now: DateTime<Utc>) -> Result<(), SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        let finished =
            u32::from(game.state().turn).saturating_sub(u32::from(game.outcome().is_none()));
        let published = self.dice.keys.keys().next_back().copied().unwrap_or(0);
        for turn in published + 1..=finished.min(fairness::DICE_TURNS) {
            self.log.stage(
                Payload::DiceKey {
                    turn,
                    key: Hex32::from(fairness::dice_key(&seed, turn)),
                },
                Author::Moderator,
                now,
            )?;
            self.dice.keys.insert(
                turn,
                (self.log.next_seq() - 1, fairness::dice_key(&seed, turn)),
            );
        }
        Ok(())
    }

    /// Replays the log in memory (with the entries staged so far) with the secret as held:
    /// carries the replay on from the last checkpoint the log still begins with (the last
    /// replay's, else the log's as on disk), so the entries before it are not replayed again.
    fn reload(&mut self) -> Result<(), SessionError> {
        let after = self.secret_after_commit;
        // The files were read when this session's replay began, not now: a lock taken since
        // (a new tenure) says nothing of what others wrote before it ([`Session::reopen`]).
        let tenure = self.tenure;
        let committed = self.committed.clone();
        let from = [&self.checkpoint, &self.committed]
            .into_iter()
            .flatten()
            .find(|cp| Self::fits(cp, &self.log))
            .cloned();
        *self = Self::replay_from(
            &self.dir.clone(),
            self.secret.clone(),
            true,
            self.log.clone(),
            false,
            from,
        )?;
        self.secret_after_commit = after;
        self.tenure = tenure;
        if self.committed.is_none() {
            self.committed = committed;
        }
        Ok(())
    }

    /// Writes the staged entries of the move being made to the disk as one transaction
    /// ([`Log::commit`]), then the secret if the move changed it in a way that must follow
    /// the log (a pending headline paired). Nothing staged: nothing to do.
    ///
    /// # Errors
    ///
    /// The log's error; the staged entries are then dropped and the game is as on disk.
    pub fn commit(&mut self) -> Result<(), SessionError> {
        let current = self.holds_files_as_read();
        self.commit_files()?;
        self.follow_own_write(current);
        Ok(())
    }

    /// Whether nobody wrote the game's files since this session read or wrote them, as far as
    /// the lock tells ([`gamefs::LockMark`]).
    fn holds_files_as_read(&self) -> bool {
        self.tenure.is_some() && self.tenure == gamefs::lock_mark(&self.dir)
    }

    /// After a write of this session's own that succeeded: its mark follows the write when
    /// nobody else wrote before it (`current`, [`Session::holds_files_as_read`] just before),
    /// else the files are compared when reopened.
    fn follow_own_write(&mut self, current: bool) {
        self.tenure = if current {
            gamefs::lock_mark(&self.dir)
        } else {
            None
        };
    }

    /// `secret` written as the game's `secret.yaml` by this session ([`write_secret`]), its
    /// mark following the write ([`Session::follow_own_write`]; none after a failed write).
    pub(crate) fn write_own_secret(&mut self, secret: &Secret) -> Result<(), SessionError> {
        let current = self.holds_files_as_read();
        match write_secret(&self.dir, secret) {
            Ok(()) => {
                self.follow_own_write(current);
                Ok(())
            }
            Err(e) => {
                self.tenure = None;
                Err(e)
            }
        }
    }

    /// [`Session::commit`]'s writes.
    fn commit_files(&mut self) -> Result<(), SessionError> {
        if let Err(e) = self.log.commit() {
            // Back to the game as on disk: the log without the move, the secret as written.
            // Whether the disk is that (a write undone in full) is not known here: a reopening
            // compares the files again ([`Session::reopen`]).
            self.tenure = None;
            self.secret_after_commit = false;
            if let Ok(Some(secret)) = read_secret(&self.dir) {
                self.secret = Some(secret);
            }
            let _ = self.reload();
            return Err(e.into());
        }
        // Entries staged after the last replay (none in most moves) are replayed from its
        // checkpoint, so that the snapshot is the log's head.
        if self.keeps_checkpoint()
            && self
                .checkpoint
                .as_ref()
                .is_some_and(|cp| cp.len != self.log.len())
        {
            let _ = self.reload();
        }
        if self
            .checkpoint
            .as_ref()
            .is_some_and(|cp| cp.len == self.log.len())
        {
            self.committed = self.checkpoint.clone();
            self.save_snapshot();
        }
        if self.secret_after_commit {
            self.secret_after_commit = false;
            if let Some(secret) = &self.secret {
                if let Err(e) = write_secret(&self.dir, secret) {
                    // The secret in memory is not the one on disk: compared when reopened.
                    self.tenure = None;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Applies `side`'s move lines in order (several decisions at once). Each line is one
    /// move as the player meant it (`play 27 ops influence Iran 2, Iraq 1`): it is first tried
    /// whole on a copy of the game, and refused whole if any part of it is refused. The batch
    /// stops at the first refused line, with nothing after it applied. Returns the canonical
    /// notation of each decision applied; [`Session::applied`] and [`Session::happened`] also
    /// hold what was applied and what happened, on success and on error alike. When the game
    /// ends the seed is revealed at once (design §2 "Unseal").
    pub fn play(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, SessionError> {
        let result = self.play_staged(side, lines, now);
        let committed = self.commit();
        match (result, committed) {
            (Ok(done), Ok(())) => Ok(done),
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
        }
    }

    /// [`Session::play`] without the commit: the decisions are applied to the game and their
    /// entries staged in the log in memory; [`Session::commit`] writes them (the mail loop
    /// records the mail as applied in between). Lines applied before a refused one stay
    /// staged; nothing of the refused line does.
    pub fn play_staged(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, SessionError> {
        let mut done = Vec::new();
        let mut happened = Vec::new();
        let result = self.play_lines(side, lines, now, &mut done, &mut happened);
        self.applied = done.clone();
        self.happened = happened;
        result.map(|_| done)
    }

    /// The decisions the last [`Session::play`] applied, in the notation.
    pub fn applied(&self) -> &[String] {
        &self.applied
    }

    /// What the last [`Session::play`] caused, in readable sentences (rolls, Influence, VP).
    pub fn happened(&self) -> &[String] {
        &self.happened
    }

    fn play_lines(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
        done: &mut Vec<String>,
        happened: &mut Vec<String>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.revealed {
            return Err(SessionError::Refusal(
                "the game is closed: its seed has been revealed".into(),
            ));
        }
        for line in lines {
            if let Some(act) = correspondence::parse_act(line) {
                let act = act.map_err(SessionError::Refusal)?;
                self.stage_act(side, act, now)?;
                done.push(act.to_string());
                continue;
            }
            if let Some((seq, late)) = self.corr.awaiting_adjudication {
                return Err(SessionError::State(format!(
                    "the game waits for the moderator's adjudication of the {late}'s timeout (entry {seq}); no more moves"
                )));
            }
            if let Some(mv) = crate::session::takeback::parse(line) {
                done.push(self.stage_takeback(side, mv?, now)?);
                continue;
            }
            if let Some(order) = correspondence::standing::parse(line) {
                let order = order.map_err(SessionError::Refusal)?;
                done.push(self.stage_standing(side, order, seed, now, happened)?);
                self.apply_standing(seed, now, happened, Some(side))?;
                continue;
            }
            let moves = notation::parse_line(line)?;
            let moves = self.with_implied(side, &moves);
            self.check_line(side, line, &moves)?;
            let (mark, done_mark, happened_mark) = (self.log.len(), done.len(), happened.len());
            let secret_mark = (self.secret.clone(), self.secret_after_commit);
            for mv in &moves {
                let before = self.game.as_ref().map_or(0, |g| g.history().count());
                let text = match self.apply_move(side, line, mv, seed, now) {
                    Ok(t) => t,
                    Err(e) => {
                        // Nothing of a refused line stays staged.
                        self.log.unstage_to(mark);
                        (self.secret, self.secret_after_commit) = secret_mark;
                        done.truncate(done_mark);
                        happened.truncate(happened_mark);
                        self.reload()?;
                        return Err(e);
                    }
                };
                if let Some(g) = self.game.as_ref() {
                    happened.extend(g.history().skip(before).cloned());
                }
                done.push(text);
                self.apply_standing(seed, now, happened, Some(side))?;
            }
        }
        // The player's own orders, once their lines are in.
        self.apply_standing(seed, now, happened, None)?;
        if self.game.as_ref().is_some_and(|g| g.outcome().is_some()) && !self.revealed {
            self.stage_reveal(false, now)?;
        }
        Ok(())
    }

    /// The moves of a line with the answers the player left implied ([`notation::implied_before`]:
    /// `play NATO ops coup Iran` means Operations first), found by walking a copy of the game.
    fn with_implied(&self, side: Side, moves: &[notation::MoveText]) -> Vec<notation::MoveText> {
        let Some(game) = self.game.as_ref() else {
            return moves.to_vec();
        };
        let mut trial = game.clone();
        let mut dice = crate::engine::SeededChance::new(0);
        let mut out = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let Some(mut p) = trial.prompt_for(side).cloned() else {
                out.extend_from_slice(&moves[i..]);
                break;
            };
            if let Some(pre) = notation::implied_before(&p, mv) {
                let applied = notation::resolve(&pre, &p)
                    .ok()
                    .is_some_and(|a| trial.apply(side, a, &mut dice).is_ok());
                if applied {
                    out.push(pre);
                    match trial.prompt_for(side) {
                        Some(q) => p = q.clone(),
                        None => {
                            out.extend_from_slice(&moves[i..]);
                            break;
                        }
                    }
                }
            }
            out.push(mv.clone());
            let ok = notation::resolve(mv, &p)
                .ok()
                .is_some_and(|a| trial.apply(side, a, &mut dice).is_ok());
            if !ok {
                out.extend_from_slice(&moves[i + 1..]);
                break;
            }
        }
        out
    }

    /// Tries a whole line on a copy of the game (with trial dice): every part must be the
    /// answer to the decision owed at that point and legal.
    fn check_line(
        &self,
        side: Side,
        line: &str,
        moves: &[notation::MoveText],
    ) -> Result<(), SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        };
        let mut trial = game.clone();
        let mut dice = crate::engine::SeededChance::new(0);
        // In a line of several moves the refusal names the move refused, and the line.
        let blame = |mv: &notation::MoveText, e: SessionError| match e {
            SessionError::Refused { error, .. } if moves.len() > 1 => SessionError::Refused {
                line: mv.to_string(),
                error: RuleError::Rule(format!(
                    "{error} (in the line `{line}`: nothing of it was applied)"
                )),
            },
            other => other,
        };
        for mv in moves {
            self.trial_standing(&mut trial, &mut dice, side);
            let prompt = Self::owed(&trial, side, line).map_err(|e| blame(mv, e))?;
            let answer = notation::resolve(mv, &prompt)?;
            trial.apply(side, answer, &mut dice).map_err(|error| {
                blame(
                    mv,
                    SessionError::Refused {
                        line: line.to_string(),
                        error,
                    },
                )
            })?;
        }
        Ok(())
    }

    /// The decision `side` owes in `game`, or why it owes none.
    fn owed(game: &Game, side: Side, line: &str) -> Result<crate::engine::Prompt, SessionError> {
        if let Some(o) = game.outcome() {
            let how = match o.winner {
                Some(w) => format!("the {w} won by {}", o.reason.describe()),
                None => "a draw".into(),
            };
            return Err(SessionError::Refusal(format!("the game is over: {how}")));
        }
        game.prompt_for(side).cloned().ok_or_else(|| {
            let who: Vec<String> = game.prompts().iter().map(|p| p.side.to_string()).collect();
            SessionError::Refused {
                line: line.to_string(),
                error: RuleError::Rule(format!(
                    "it is not the {side}'s decision now; waiting for {}",
                    who.join(" and ")
                )),
            }
        })
    }

    /// Applies one move: appends its entries (a sealed first headline, or the decision with
    /// its chance records and hand commitments) and replays.
    fn apply_move(
        &mut self,
        side: Side,
        line: &str,
        mv: &notation::MoveText,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<String, SessionError> {
        // The log as the last replay left it: `self.decisions` counts its decisions.
        let mark = self.log.len() as u64;
        let game = self.game.as_ref().expect("checked: started");
        let prompt = Self::owed(game, side, line)?;
        let answer = notation::resolve(mv, &prompt)?;
        game.is_legal(side, &answer, &mut crate::engine::SeededChance::new(0))
            .map_err(|error| SessionError::Refused {
                line: mv.to_string(),
                error,
            })?;
        let text = notation::format_answer(&answer, &prompt);
        // A simultaneous choice (a headline, a Turn Zero superpower card): the first of the
        // pair is sealed, the second reveals both (crate::chance::sealed_choice).
        let sealed = crate::chance::sealed_choice::Slot::of(game, side).and_then(|slot| {
            slot.choice(side, &answer, &prompt)
                .map(|choice| crate::chance::sealed_choice::Pending { side, slot, choice })
        });
        let first_sealed = sealed.filter(|_| game.prompts().len() == 2);
        let second_sealed = sealed.is_some() && game.prompts().len() == 1;
        if let Some(first) = first_sealed {
            let digest = first.slot.commitment(&seed, side, first.choice);
            let before = self.secret.clone().expect("moderator");
            let mut secret = before.clone();
            first.store(&mut secret);
            // The secret first: a commitment in the log without its card in the secret
            // would leave the choice unrecoverable.
            self.write_own_secret(&secret)?;
            self.secret = Some(secret);
            let staged = self.log.stage(
                Payload::Commitment {
                    kind: first.slot.kind(),
                    side: Some(side),
                    turn: Some(first.slot.number()),
                    digest: Hex32::from(digest),
                },
                // The log's rule: commitments are the moderator's entries.
                Author::Moderator,
                now,
            );
            if let Err(e) = staged {
                self.write_own_secret(&before)?;
                self.secret = Some(before);
                return Err(e.into());
            }
        } else {
            if second_sealed {
                let turn = u32::from(game.state().turn);
                let pending = self
                    .secret
                    .as_ref()
                    .and_then(|s| crate::chance::sealed_choice::Pending::of_secret(s, turn));
                if let Some(p) = pending {
                    // The first choice's answer as the replay will apply it: to the prompt
                    // both sides had before either chose (the same options for a superpower
                    // card, whose hand the second choice does not change).
                    let answer = match p.choice {
                        crate::chance::sealed_choice::Choice::Headline(card) => Answer::Card(card),
                        crate::chance::sealed_choice::Choice::SuperpowerCard(card) => {
                            let hand = &game
                                .state()
                                .turn_zero
                                .as_ref()
                                .ok_or_else(|| {
                                    SessionError::State(
                                        "a superpower card outside Turn Zero".into(),
                                    )
                                })?
                                .hands[p.side];
                            let i = hand.iter().position(|c| *c == card).ok_or_else(|| {
                                SessionError::State(format!(
                                    "the pending superpower card {} is not in the {}'s hand",
                                    card.name(),
                                    p.side
                                ))
                            })?;
                            Answer::Number(i as u8)
                        }
                    };
                    self.log.stage(
                        Payload::Decision {
                            side: p.side,
                            notation: p.choice.notation(),
                            answer: to_value(&answer),
                        },
                        Author::from(p.side),
                        now,
                    )?;
                    // Cleared on disk only once both choices are committed.
                    if let Some(secret) = self.secret.as_mut() {
                        crate::chance::sealed_choice::Pending::clear(secret);
                    }
                    self.secret_after_commit = true;
                }
            }
            self.log.stage(
                Payload::Decision {
                    side,
                    notation: text.clone(),
                    answer: to_value(&answer),
                },
                Author::from(side),
                now,
            )?;
            // The resolution number: this decision entry's place among the log's decisions.
            // Cancelled decisions are not counted: the decision made in their place gets their
            // number, so a takeback changes no die (crate::session::takeback). The replay counted those
            // before `mark` (without reading the log again); add those staged since.
            let is_decision = |e: &StoredEntry| matches!(e.entry.payload, Payload::Decision { .. });
            let r = self.decisions
                + self
                    .log
                    .since(mark)
                    .iter()
                    .filter(|e| is_decision(e))
                    .count() as u64;
            debug_assert_eq!(
                r,
                self.log
                    .entries()
                    .iter()
                    .filter(|e| is_decision(e))
                    .filter(|e| !self.takebacks.cancelled.contains(&e.entry.seq))
                    .count() as u64,
                "the resolution number"
            );
            let mix = self.nonce_mix().expect("started");
            let game = self.game.as_mut().expect("started");
            let turn = u32::from(game.state().turn);
            let drawn = game
                .apply(side, answer, &mut SealedChance::new(seed, mix, r, turn))
                .map_err(|error| SessionError::Refused {
                    line: text.clone(),
                    error,
                })?;
            self.append_records(&drawn, now)?;
            self.append_hand_commitments(now)?;
            self.append_dice_keys(seed, now)?;
        }
        self.reload()?;
        Ok(text)
    }

    /// What the replay learned of time control, leave, draw offers and timeouts (issue 17).
    pub fn correspondence(&self) -> &Ledger {
        &self.corr
    }

    /// Stages `payload` (a correspondence entry) and replays: the replay's checks are
    /// `verify`'s, so an entry verify would refuse is refused here and nothing stays staged.
    fn stage_checked(
        &mut self,
        payload: Payload,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.moderator_seed()?;
        if self.revealed {
            return Err(SessionError::Refusal(
                "the game is closed: its seed has been revealed".into(),
            ));
        }
        if self.game.is_none() {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        }
        let mark = self.log.len();
        self.log.stage(payload, author, now)?;
        if let Err(e) = self.reload() {
            self.log.unstage_to(mark);
            self.reload()?;
            return Err(match e {
                SessionError::Replay { message, .. } => SessionError::Refusal(message),
                other => other,
            });
        }
        Ok(())
    }

    /// Stages `side`'s correspondence move (`resign`, a draw act, `leave …`).
    fn stage_act(&mut self, side: Side, act: Act, now: DateTime<Utc>) -> Result<(), SessionError> {
        let payload = match act {
            Act::Resign => Payload::Resign { side },
            Act::Draw(act) => Payload::Draw { side, act },
            Act::Leave { from, to } => Payload::Leave { side, from, to },
        };
        self.stage_checked(payload, Author::from(side), now)
    }

    /// `twilight leave`: records `side`'s leave from `from` to `to` (whole UTC days, both
    /// included; issue 17 §2).
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when it starts today or earlier, ends before it starts, or
    /// goes beyond the game's allowance; nothing is written.
    pub fn leave(
        &mut self,
        side: Side,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.stage_act(side, Act::Leave { from, to }, now)?;
        self.commit()
    }

    /// Records that `side` ran out of time at `now` (`twilight remind`, issue 17 §1) and
    /// applies the game's timeout rule; when the game ends by it, the seed is revealed.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when `side` owes no decision under a time control or its
    /// deadline and grace have not passed; nothing is written.
    pub fn record_timeout(&mut self, side: Side, now: DateTime<Utc>) -> Result<(), SessionError> {
        let clock = correspondence::clock::clock_at(&self.corr, side, now);
        let Some(deadline) = clock.deadline else {
            return Err(SessionError::State(format!(
                "the {side} owes no decision under a time control"
            )));
        };
        self.stage_checked(Payload::Timeout { side, deadline }, Author::Moderator, now)?;
        if self.game.as_ref().is_some_and(|g| g.outcome().is_some()) {
            self.stage_reveal(false, now)?;
        }
        self.commit()
    }

    /// `twilight adjudicate`: the moderator's ruling (`None`: a draw) on a game whose timeout
    /// asked for one (issue 17 §1); the seed is revealed.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when no timeout waits for an adjudication; nothing is written.
    pub fn adjudicate(
        &mut self,
        winner: Option<Side>,
        note: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.stage_checked(
            Payload::Adjudication {
                winner,
                note: note.to_string(),
            },
            Author::Moderator,
            now,
        )?;
        self.stage_reveal(false, now)?;
        self.commit()
    }

    /// The takeback waiting for an answer, if any (issue 17 point 4).
    pub fn pending_takeback(&self) -> Option<&crate::session::takeback::PendingTakeback> {
        self.takebacks.pending.as_ref()
    }

    /// The seq of the last answer to a takeback request (accepted or declined), if any.
    pub fn last_takeback_answer(&self) -> Option<u64> {
        self.takebacks.last_answer
    }

    /// The seqs of the entries cancelled by accepted takebacks.
    pub fn cancelled(&self) -> &std::collections::HashSet<u64> {
        &self.takebacks.cancelled
    }

    /// Stages a takeback move of `side` ([`crate::session::takeback`]): a request naming the entries it
    /// would cancel, or the answer to the opponent's pending request. Returns the move as
    /// recorded.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when the game has not started or is over, when asked for more
    /// than can be taken back (naming the entry that blocks), or when there is no request of
    /// the opponent to answer.
    fn stage_takeback(
        &mut self,
        side: Side,
        mv: crate::session::takeback::TakebackMove,
        now: DateTime<Utc>,
    ) -> Result<String, SessionError> {
        use crate::session::takeback::TakebackMove;
        let Some(game) = self.game.as_ref() else {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        };
        if game.outcome().is_some() {
            return Err(SessionError::Refusal(
                "the game is over: nothing can be taken back".into(),
            ));
        }
        let payload = match mv {
            TakebackMove::Ask(n) => {
                let entries = self.log.entries();
                let cancels = self
                    .takebacks
                    .tail(entries, entries.len(), side)
                    .pick(entries, n)
                    .map_err(|m| SessionError::Refusal(format!("`{mv}` refused: {m}")))?;
                Payload::TakebackRequest { side, cancels }
            }
            TakebackMove::Accept | TakebackMove::Decline => {
                let asker = side.opponent();
                let Some(p) = self.takebacks.pending.clone().filter(|p| p.side == asker) else {
                    return Err(SessionError::Refusal(format!(
                        "`{mv}` refused: the {asker} has asked for no takeback (or made a move since asking)"
                    )));
                };
                if mv == TakebackMove::Accept {
                    Payload::Takeback {
                        side: asker,
                        request: p.request,
                        cancels: p.cancels,
                    }
                } else {
                    Payload::TakebackDeclined {
                        side: asker,
                        request: p.request,
                    }
                }
            }
        };
        let dir = self.dir.clone();
        let public_findings =
            |log: Log| Self::replay_log(&dir, None, false, log, false).map(|p| p.findings);
        let before = public_findings(self.log.clone()).map_or(0, |f| f.len());
        let mark = self.log.len();
        self.log.stage(payload, Author::from(side), now)?;
        if let Err(e) = self.reload() {
            self.log.unstage_to(mark);
            return Err(e);
        }
        // `verify` replays the public log, which sees less of the hands than the moderator:
        // a takeback the public replay would refuse is refused here too, so `play` never
        // writes what `verify` then flags.
        let refusal = match public_findings(self.log.clone()) {
            Err(e) => Some(e.to_string()),
            Ok(f) => (f.len() > before).then(|| f[before..].join("; ")),
        };
        if let Some(why) = refusal {
            self.log.unstage_to(mark);
            self.reload()?;
            return Err(SessionError::Refusal(format!(
                "`{mv}` refused: the public replay `verify` makes would not accept it: {why}"
            )));
        }
        Ok(mv.to_string())
    }

    /// Appends the reveal of the master seed (at the game's end — [`Session::play`] does it
    /// when a move ends the game — or earlier with `force` for an abandoned game). Nothing to do
    /// if the seed is already revealed.
    pub fn reveal(&mut self, force: bool, now: DateTime<Utc>) -> Result<(), SessionError> {
        self.stage_reveal(force, now)?;
        self.commit()
    }

    /// [`Session::reveal`] without the commit.
    fn stage_reveal(&mut self, force: bool, now: DateTime<Utc>) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.revealed {
            return Ok(());
        }
        let over = self.game.as_ref().is_some_and(|g| g.outcome().is_some());
        if !over && !force {
            return Err(SessionError::State(
                "the game is not over; use --force to reveal an abandoned game".into(),
            ));
        }
        // A game ended outside play (a resignation, an agreed draw, a timeout, issue 17)
        // publishes the dice key of its last turn as a game ended by play does.
        self.append_dice_keys(seed, now)?;
        self.log.stage(
            Payload::Reveal {
                seed: Hex32::from(seed),
            },
            Author::Moderator,
            now,
        )?;
        self.reload()
    }
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
