//! Sending what the games owe: the one place `serve` sends the mail a change left owed (a
//! prompt a crash kept from leaving, a send that failed). Every other mail goes out with the
//! change that makes it (`inbound`, `remind`).

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::open_locked;
use crate::mail::outbound::{outbox_of, send_due};
use crate::mail::transport::Transport;

/// What a drain did: one line per mail sent, and the errors (tried again at a later pass).
#[derive(Debug, Default)]
pub(super) struct Drained {
    pub sent: Vec<String>,
    pub errors: Vec<String>,
}

/// Sends every mail owed by the games of `games_dir` (`games`: its game folders): the prompts
/// and updates of each game's current position that its mail state does not record as sent
/// ([`send_due`]: nothing is sent twice); `jobs` games at once.
pub(super) fn drain(
    _games_dir: &Path,
    games: &[PathBuf],
    force_outbox: bool,
    now: DateTime<Utc>,
    jobs: usize,
) -> Drained {
    let mut out = Drained::default();
    let keys: Vec<Option<String>> = games
        .iter()
        .map(|d| Some(d.display().to_string()))
        .collect();
    let never = std::sync::atomic::AtomicBool::new(false);
    let send = |dir: &PathBuf| {
        open_locked(dir).and_then(|(_lock, s)| {
            if s.game().is_none() {
                return Ok(Vec::new());
            }
            let transport = Transport::choose(&outbox_of(dir), force_outbox)?;
            Ok(send_due(&s, &transport, false, now)?)
        })
    };
    super::workers::each_in_game_order(jobs, games, &keys, &never, send, |dir, sent| match sent {
        Ok(sent) => out.sent.extend(sent.iter().map(|o| {
            format!(
                "{}: mailed {} ({}): {}",
                dir.display(),
                o.to,
                o.side,
                o.subject
            )
        })),
        Err(e) => out
            .errors
            .push(format!("{}: owed mail not sent: {e}", dir.display())),
    });
    out
}
