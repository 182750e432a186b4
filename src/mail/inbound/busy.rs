//! Games whose lock is busy during an `inbox` run (another command holds it): their lock is
//! tried, never waited for ([`crate::session::Session::try_lock`]), so that no other game's
//! mail waits behind them; their mail is put off and tried again in later rounds of the same
//! run, in its order, for a bounded time ([`Retry`]); what is still busy then stays in `new/`
//! for the next run, and the run says so.
//!
//! Within a round, a game found busy stays busy for the rest of the round ([`Round`]): a
//! later mail of that game is put off without another try, so that a game's mails are always
//! taken in their order (the second never before the first).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::sources::Source;
use crate::gamefs::plain;

/// A mail put off, with its game's folder once known (a mail put off for a busy game: its
/// lock is tried before the mail is read again).
pub(super) type Queued = (Source, Option<PathBuf>);

/// The games found busy in one round over the mails and the prompts due.
#[derive(Default)]
pub(super) struct Round {
    busy: Vec<PathBuf>,
}

impl Round {
    /// Whether `dir`'s lock was found busy earlier in this round.
    pub(super) fn is_busy(&self, dir: &Path) -> bool {
        self.busy.contains(&plain(dir))
    }

    /// Notes `dir` as busy for the rest of the round.
    pub(super) fn mark(&mut self, dir: &Path) {
        let dir = plain(dir);
        if !self.busy.contains(&dir) {
            self.busy.push(dir);
        }
    }

    /// The games found busy, for judging a mail ([`super::judge::Context`]).
    pub(super) fn busy(&self) -> Vec<PathBuf> {
        self.busy.clone()
    }
}

/// The later rounds of a run: a pause before each (20 ms, doubling up to half a second), for
/// at most a set time in all, and how often each busy game's lock was tried.
pub(super) struct Retry {
    start: Instant,
    budget: Duration,
    pause: Duration,
    tries: Vec<(PathBuf, u32)>,
}

impl Retry {
    /// Later rounds for at most `budget` from now.
    pub(super) fn new(budget: Duration) -> Retry {
        Retry {
            start: Instant::now(),
            budget,
            pause: Duration::from_millis(20),
            tries: Vec::new(),
        }
    }

    /// Counts one try of `dir`'s lock that found it busy, or one more try of a game found
    /// busy before.
    pub(super) fn tried(&mut self, dir: &Path) {
        let dir = plain(dir);
        match self.tries.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, n)) => *n += 1,
            None => self.tries.push((dir, 1)),
        }
    }

    /// How often `dir`'s lock was tried in this run (after it was first found busy).
    pub(super) fn tries(&self, dir: &Path) -> u32 {
        let dir = plain(dir);
        self.tries
            .iter()
            .find(|(d, _)| *d == dir)
            .map_or(0, |(_, n)| *n)
    }

    /// Pauses before the next round: false, without pausing, once the time is spent.
    pub(super) fn wait(&mut self) -> bool {
        if self.start.elapsed() + self.pause > self.budget {
            return false;
        }
        std::thread::sleep(self.pause);
        self.pause = (self.pause * 2).min(Duration::from_millis(500));
        true
    }

    /// What to say of a game still busy at the end: how often and how long it was tried.
    pub(super) fn said(&self, dir: &Path) -> String {
        format!(
            "the game {} is busy (another twilight command holds its lock; tried {} over {:.1} s)",
            dir.display(),
            crate::text::wording::count(u64::from(self.tries(dir)), "time", "times"),
            self.start.elapsed().as_secs_f64()
        )
    }
}
