//! Outages: `serve` writes a heartbeat (the time of its last pass that reached the mail) into
//! its state folder. When a pass reaches the mail again after a gap longer than the threshold
//! — the host was down, asleep, or its mail server out of reach — it records an `outage`
//! entry in every running game (no time of it counts on any clock, so every deadline falls
//! later by it: [`crate::session::correspondence::clock`]), tells both players, and only then
//! takes the mail parked meanwhile, in the order it arrived.
//!
//! Recording is idempotent per game: an outage starts no earlier than the game's last
//! recorded outage ends, so a crash halfway through the games records no outage twice.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

use super::{open_locked, ServeError};
use crate::data::Side;
use crate::mail::outbound::{outbox_of, subject_tag};
use crate::mail::queue::{self, Mail, Queue};
use crate::mail::transport::Transport;
use crate::session::correspondence::clock::{clock_at, human};
use crate::session::correspondence::{local, remind};
use crate::session::Session;

/// The heartbeat file in the state folder: one RFC 3339 time.
pub const HEARTBEAT_FILE: &str = "heartbeat";

/// The heartbeat is written at most this often (of the clock `serve` runs on).
const BEAT_EVERY_SECS: i64 = 60;

/// The last time `serve` reached its mail, as kept on disk.
pub(super) struct Heartbeat {
    path: PathBuf,
    last: Option<DateTime<Utc>>,
}

impl Heartbeat {
    /// The heartbeat of the state folder `state` (none yet: a first start, no outage known).
    pub(super) fn load(state: &Path) -> Heartbeat {
        let path = state.join(HEARTBEAT_FILE);
        let last = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| DateTime::parse_from_rfc3339(t.trim()).ok())
            .map(|t| t.with_timezone(&Utc));
        Heartbeat { path, last }
    }

    /// The outage ending `now`, if the last beat is older than `threshold`.
    pub(super) fn gap(
        &self,
        now: DateTime<Utc>,
        threshold: Duration,
    ) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        self.last
            .filter(|last| now - *last > threshold)
            .map(|last| (last, now))
    }

    /// Records that the mail was reached at `now` (written when a minute has passed since
    /// the last write, or when `force`).
    pub(super) fn beat(&mut self, now: DateTime<Utc>, force: bool) -> Result<(), ServeError> {
        if !force
            && self
                .last
                .is_some_and(|l| now >= l && (now - l).num_seconds() < BEAT_EVERY_SECS)
        {
            return Ok(());
        }
        crate::gamefs::atomic_write(&self.path, now.to_rfc3339().as_bytes(), "heartbeat").map_err(
            |e| ServeError::File {
                path: self.path.clone(),
                message: e.to_string(),
            },
        )?;
        self.last = Some(now);
        Ok(())
    }
}

/// Records the outage `from`–`to` in every running game of `games` whose part of it (from
/// its last recorded outage's end) is longer than `threshold`, and mails both players.
/// Returns one line per game told, and the errors (a game that could not be opened or
/// written; its players are not told).
pub(super) fn record(
    games: &[PathBuf],
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    threshold: Duration,
    force_outbox: bool,
) -> (Vec<String>, Vec<String>) {
    let (mut lines, mut errors) = (Vec::new(), Vec::new());
    for dir in games {
        match record_one(dir, from, to, threshold, force_outbox) {
            Ok(Some(line)) => lines.push(line),
            Ok(None) => {}
            Err(e) => errors.push(format!("{}: outage not recorded: {e}", dir.display())),
        }
    }
    (lines, errors)
}

fn record_one(
    dir: &Path,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    threshold: Duration,
    force_outbox: bool,
) -> Result<Option<String>, ServeError> {
    let (_lock, mut s) = open_locked(dir)?;
    if s.is_revealed() || s.game().is_none_or(|g| g.outcome().is_some()) {
        return Ok(None);
    }
    let start = s
        .correspondence()
        .outages
        .last()
        .map_or(from, |(_, end)| (*end).max(from));
    let line = if to - start > threshold {
        s.record_outage(start, to, to)?;
        Some(format!(
            "{}: outage from {} to {} ({}) recorded, both players told",
            s.game_id(),
            start.to_rfc3339(),
            to.to_rfc3339(),
            human(to - start)
        ))
    } else {
        None
    };
    // The notices of the last outage recorded are queued under Message-IDs made of it
    // (queue.rs "owed by no commit"): a crash after the entry's commit and before they were
    // queued or sent queues them at the next pass, and never twice.
    if let Some(&(f, t)) = s.correspondence().outages.last() {
        let queue = Queue::of(dir);
        for side in Side::BOTH {
            queue.enqueue(&notice(&s, side, f, t)?, to)?;
        }
        queue.sync()?;
    }
    let transport = Transport::choose(&outbox_of(dir), force_outbox)?;
    if let Some(e) = queue::flush(&s, &transport, to, false)
        .problems()
        .into_iter()
        .next()
    {
        return Err(ServeError::Config(format!(
            "the outage notices are queued, not sent yet: {e}"
        )));
    }
    Ok(line)
}

/// The outage notice to `side`: when, how long, that nothing sent meanwhile is lost, and
/// the side's deadline as it now stands. Its Message-ID is made of the game, the side and
/// the outage ([`queue::stable_id`]).
fn notice(
    s: &Session,
    side: Side,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Mail, ServeError> {
    let settings = &s.correspondence().settings;
    let zone = settings.offset(side);
    let mut text = format!(
        "Game {}: the host was out of service from {} to {} ({}).\n\n\
         Nothing you sent meanwhile is lost: the mail that arrived is handled now, in the \
         order it came. No time of the outage counts on either side's clock: every deadline \
         falls later by it.\n",
        s.game_id(),
        local(from, zone),
        local(to, zone),
        human(to - from)
    );
    if let Some(deadline) = clock_at(s.correspondence(), side, to).deadline {
        text.push_str(&format!(
            "\nYour decision is now due by {}.\n",
            local(deadline, zone)
        ));
    }
    let subject = format!(
        "{} Service outage — deadlines extended by {}",
        subject_tag(s.game_id()),
        human(to - from)
    );
    let what = format!("outage.{}.{}", from.timestamp(), to.timestamp());
    Ok(remind::notice(s, side, subject, text, &what)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_gap_is_an_outage_only_past_the_threshold_and_the_first_start_has_none() {
        let tmp = tempfile::tempdir().unwrap();
        let t = Utc.with_ymd_and_hms(2027, 1, 4, 12, 0, 0).unwrap();
        let mut hb = Heartbeat::load(tmp.path());
        assert_eq!(hb.gap(t, Duration::hours(6)), None);
        hb.beat(t, false).unwrap();
        let hb = Heartbeat::load(tmp.path());
        assert_eq!(hb.gap(t + Duration::hours(6), Duration::hours(6)), None);
        let later = t + Duration::hours(7);
        assert_eq!(hb.gap(later, Duration::hours(6)), Some((t, later)));
    }
}
