//! Opening a game: the game's lock, then the replay of its log through the engine, carried on
//! from the replay snapshot when it fits ([`super::snapshot`]), else from entry 0.

use std::path::Path;
use std::sync::Arc;

use super::correspondence::Ledger;
use super::secret::read_secret;
use super::snapshot::{self, Checkpoint};
use super::{game_id_of, incomplete_game, Mode, ReplayStep, Secret, Session, SessionError};
use crate::chance::sealed_chance::DiceLedger;
use crate::data::BySide;
use crate::engine::view::Role;
use crate::engine::Options;
use crate::gamefs;
use crate::log::{Log, Payload, Players};

impl Session {
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
        Self::lock_within(dir, gamefs::lock_wait())
    }

    /// [`Session::lock`] without waiting: [`SessionError::Busy`] at once if another command
    /// holds the lock. What a command serving many games uses (`twilight inbox`), so that one
    /// busy game never holds up the others: it puts that game's mail off and tries again
    /// later.
    ///
    /// # Errors
    ///
    /// As [`Session::lock`].
    pub fn try_lock(dir: &Path) -> Result<(gamefs::GameLock, Option<String>), SessionError> {
        Self::lock_within(dir, std::time::Duration::ZERO)
    }

    /// [`Session::lock`], waiting at most `wait` for the lock (zero: only if it is free now).
    ///
    /// # Errors
    ///
    /// As [`Session::lock`].
    pub fn lock_within(
        dir: &Path,
        wait: std::time::Duration,
    ) -> Result<(gamefs::GameLock, Option<String>), SessionError> {
        let lock = gamefs::GameLock::acquire_within(dir, wait).map_err(|e| match e {
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
    pub(super) fn replay_log(
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
    pub(super) fn replay_from(
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
}
