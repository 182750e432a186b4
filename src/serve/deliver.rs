//! Sending what the games owe: the one place `serve` sends the mail a change left owed (a
//! prompt a crash kept from leaving, a send that failed and waits out its back-off). Every
//! mail is queued with the change that owes it ([`crate::mail::queue`]); this drains the
//! queues.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

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
/// whose lock is busy is left to its holder).
pub(super) fn drain(
    _games_dir: &Path,
    games: &[PathBuf],
    force_outbox: bool,
    now: DateTime<Utc>,
) -> Drained {
    let mut out = Drained::default();
    for dir in games {
        let transport = match Transport::choose(&outbox_of(dir), force_outbox) {
            Ok(t) => t,
            Err(e) => {
                out.errors
                    .push(format!("{}: owed mail not sent: {e}", dir.display()));
                continue;
            }
        };
        let report = queue::drain_game(dir, &transport, now);
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
    out
}
