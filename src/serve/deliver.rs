//! Sending what the games owe: the one place `serve` sends the mail a change left owed (a
//! prompt a crash kept from leaving, a send that failed and waits out its back-off). Every
//! mail is queued with the change that owes it ([`crate::mail::queue`]); this drains the
//! queues.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::{open_locked, ServeError};
use crate::mail::outbound::outbox_of;
use crate::mail::queue;
use crate::mail::transport::Transport;

/// What a drain did: one line per mail sent, and the errors (tried again at a later pass).
#[derive(Debug, Default)]
pub(super) struct Drained {
    pub sent: Vec<String>,
    pub errors: Vec<String>,
}

/// Sends every mail queued by the games of `games_dir` (`games`: its game folders), each
/// game's queue through its transport ([`queue::drain_game`]: nothing is sent twice; a game
/// whose lock is busy is left to its holder); `jobs` games at once. With `compose` (at
/// start), each game's owed prompts are composed first, under its lock.
pub(super) fn drain(
    _games_dir: &Path,
    games: &[PathBuf],
    force_outbox: bool,
    now: DateTime<Utc>,
    jobs: usize,
    compose: bool,
) -> Drained {
    let mut out = Drained::default();
    let keys: Vec<Option<String>> = games
        .iter()
        .map(|d| Some(d.display().to_string()))
        .collect();
    let never = std::sync::atomic::AtomicBool::new(false);
    let send = |dir: &PathBuf| -> Result<queue::DrainReport, ServeError> {
        let transport = Transport::choose(&outbox_of(dir), force_outbox)?;
        if !compose {
            return Ok(queue::drain_game(dir, &transport, now));
        }
        // At start: the prompts and updates each game's position owes and its mail state
        // does not record as sent are composed and queued (as `twilight mail` does; the same
        // Message-IDs, so nothing is queued twice), then the queue is sent.
        let (_lock, s) = open_locked(dir)?;
        if s.game().is_some() {
            queue::queue_due(&s, false, now)?;
        }
        Ok(queue::flush(&s, &transport, now, false))
    };
    super::workers::each_in_game_order(jobs, games, &keys, &never, send, |dir, sent| match sent {
        Ok(report) => {
            out.sent.extend(
                report
                    .sent
                    .iter()
                    .map(|o| format!("{}: {}", dir.display(), o.line())),
            );
            out.errors.extend(
                report
                    .problems()
                    .into_iter()
                    .map(|e| format!("{}: owed mail not sent: {e}", dir.display())),
            );
        }
        Err(e) => out
            .errors
            .push(format!("{}: owed mail not sent: {e}", dir.display())),
    });
    out
}
