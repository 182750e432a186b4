//! The clock's work at its times, without cron: reminders before a deadline, the late notice,
//! the timeout at the end of grace ([`crate::session::correspondence::remind`]) and the
//! reminders of `mail.yaml`'s `remind_after_hours` ([`outbound::queue_reminders`]).
//!
//! Each running game has its next due time, computed from its log alone; a game whose
//! `log.yaml` changed (by a mail, or by a command the moderator ran) is looked at again. A game
//! is opened only when its time has come, so many games cost one `stat` each a pass.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, Duration, Utc};

use super::{open_locked, ServeError};
use crate::data::Side;
use crate::mail::outbound::{self, outbox_of};
use crate::mail::queue;
use crate::mail::transport::Transport;
use crate::mail::{MailConfig, MailState};
use crate::session::correspondence::{clock::clock_at, remind};
use crate::session::Session;

/// What the schedule knows of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    /// The log's length and modification time when last looked at.
    stamp: (u64, Option<SystemTime>),
    /// When its clock next has work, if ever.
    due: Option<DateTime<Utc>>,
    /// The time up to which its clock's work is done.
    done: DateTime<Utc>,
}

/// The running games' next due times.
#[derive(Debug, Default)]
pub(super) struct Schedule {
    games: BTreeMap<PathBuf, Known>,
}

fn stamp(dir: &Path) -> Option<(u64, Option<SystemTime>)> {
    let m = std::fs::metadata(dir.join("log.yaml")).ok()?;
    Some((m.len(), m.modified().ok()))
}

/// The next time after `after` at which the clock has work in the game of `s`: a reminder
/// point, a deadline (the late notice), an end of grace (the timeout), a `remind_after_hours`
/// reminder. `None` for a game over or without either kind of reminder.
pub fn next_due(s: &Session, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let game = s.game()?;
    if game.outcome().is_some() || s.is_revealed() {
        return None;
    }
    let mut times: Vec<DateTime<Utc>> = Vec::new();
    let ledger = s.correspondence();
    if ledger.settings.time_control.is_some() {
        for side in Side::BOTH {
            let c = clock_at(ledger, side, after);
            if let (Some(deadline), Some(end)) = (c.deadline, c.timeout_at) {
                times.extend(
                    ledger
                        .settings
                        .remind_hours_before
                        .iter()
                        .map(|h| deadline - Duration::hours(i64::from(*h))),
                );
                times.extend([deadline, end]);
            }
        }
    }
    if let (Ok(config), Ok(state)) = (MailConfig::load(s.dir()), MailState::load(s.dir())) {
        if let Some(hours) = config.remind_after_hours {
            let seq = s.log().next_seq();
            for side in Side::BOTH {
                let rec = state.player(side);
                if game.prompt_for(side).is_some() && rec.last_seq == Some(seq) {
                    if let Some(at) = rec.last_at {
                        times.push(at + Duration::hours(i64::from(hours)));
                    }
                }
            }
        }
    }
    times.into_iter().filter(|t| *t > after).min()
}

impl Schedule {
    /// Looks again at every game of `games` that is new or whose log changed, and forgets
    /// the games gone. Returns the errors (a game that could not be opened is looked at
    /// again at the next pass).
    pub(super) fn refresh(&mut self, games: &[PathBuf], now: DateTime<Utc>) -> Vec<String> {
        let mut errors = Vec::new();
        self.games.retain(|d, _| games.contains(d));
        for dir in games {
            let Some(st) = stamp(dir) else { continue };
            if self.games.get(dir).is_some_and(|k| k.stamp == st) {
                continue;
            }
            // A game seen for the first time may have work that fell due while nobody looked
            // (the host was down): due now. The clock's work is idempotent
            // (`clock-mail.yaml`), so looking back too far costs a look, never a second mail.
            let done = self
                .games
                .get(dir)
                .map_or(now - Duration::days(3650), |k| k.done);
            match open_locked(dir) {
                Ok((_lock, s)) => {
                    let due = next_due(&s, done).map(|t| t.max(now));
                    let stamp = stamp(dir).unwrap_or(st);
                    self.games.insert(dir.clone(), Known { stamp, due, done });
                }
                Err(e) => errors.push(format!("{}: {e}", dir.display())),
            }
        }
        errors
    }

    /// Runs the clock's work of every game due at `now`. Returns one line per mail sent or
    /// timeout recorded, and the errors (a game whose work failed is due again at the next
    /// pass).
    pub(super) fn run_due(
        &mut self,
        now: DateTime<Utc>,
        force_outbox: bool,
    ) -> (Vec<String>, Vec<String>) {
        let (mut lines, mut errors) = (Vec::new(), Vec::new());
        let due: Vec<PathBuf> = self
            .games
            .iter()
            .filter(|(_, k)| k.due.is_some_and(|t| t <= now))
            .map(|(d, _)| d.clone())
            .collect();
        for dir in due {
            match run_game(&dir, now, force_outbox, &mut lines) {
                Ok(next) => {
                    if let Some(k) = self.games.get_mut(&dir) {
                        *k = Known {
                            stamp: stamp(&dir).unwrap_or(k.stamp),
                            due: next,
                            done: now,
                        };
                    }
                }
                Err(e) => errors.push(format!("{}: reminders not sent: {e}", dir.display())),
            }
        }
        (lines, errors)
    }
}

/// The clock's work of one game at `now`, as `twilight remind` does it; then its next due time.
fn run_game(
    dir: &Path,
    now: DateTime<Utc>,
    force_outbox: bool,
    lines: &mut Vec<String>,
) -> Result<Option<DateTime<Utc>>, ServeError> {
    let (_lock, mut s) = open_locked(dir)?;
    let transport = Transport::choose(&outbox_of(dir), force_outbox)?;
    let gid = s.game_id().to_string();
    // As `twilight remind`: the reminders of `remind_after_hours` queued; under a time control
    // the reminders before a deadline, the late notice and the timeout; then the game's queue
    // sent (the final mails too when a timeout ended the game).
    outbound::queue_reminders(&s, now)?;
    let (_notices, mut report) = remind::run_with_report(&mut s, &transport, now)?;
    let over = s.game().is_some_and(|g| g.outcome().is_some());
    if over {
        queue::queue_due(&s, false, now)?;
    }
    report.merge(queue::flush(&s, &transport, now, false));
    lines.extend(report.sent.iter().map(|o| format!("{gid}: {}", o.line())));
    lines.extend(report.notes.iter().map(|n| format!("{gid}: {n}")));
    if let Some(e) = report.problems().into_iter().next() {
        lines.push(format!("{gid}: mail not sent (tried again later): {e}"));
    }
    if over {
        return Ok(None);
    }
    Ok(next_due(&s, now))
}
