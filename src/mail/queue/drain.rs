//! The sender: drains a game's queue through a transport, one mail at a time in the order
//! they were queued, with a back-off after a failed try, each mail recorded as sent only
//! after the server (or the outbox folder) accepted it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::store::{Kind, Owed, Queue, Record, SEND_LOCK};
use crate::data::Side;
use crate::gamefs;
use crate::mail::transport::{SendFailure, Transport};
use crate::mail::MailError;
use crate::session::Session;

/// The first wait after a failed try; each further failure doubles it, up to
/// [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(60);

/// The longest wait between two tries of a mail.
pub const MAX_BACKOFF: Duration = Duration::from_secs(3600);

/// How long a sender waits for another process sending the same game's mail to finish (that
/// one looks at the queue again before it lets go, so it sends what was queued meanwhile).
pub const SEND_LOCK_WAIT: Duration = Duration::from_secs(5);

/// One mail the transport accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// The game folder.
    pub game_dir: PathBuf,
    /// The Message-ID, without angle brackets.
    pub message_id: String,
    /// What it is.
    pub kind: Kind,
    /// The recipient as the game registered them.
    pub to: String,
    /// The recipient's side, if a side's.
    pub side: Option<Side>,
    /// The recipient's role (`US`, `seat 1`).
    pub whom: String,
    /// What it is called in a report (the subject, `receipt of the move`).
    pub label: String,
    /// Where it went: `outbox file PATH` or `SMTP host:port (…)`.
    pub delivered: String,
}

impl Delivered {
    /// The report's line: `mailed TO (WHOM): LABEL — WHERE`.
    pub fn line(&self) -> String {
        format!(
            "mailed {} ({}): {} — {}",
            self.to, self.whom, self.label, self.delivered
        )
    }
}

/// One mail that was tried and not sent: it stays queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    /// The game folder.
    pub game_dir: PathBuf,
    /// The Message-ID.
    pub message_id: String,
    /// What it is.
    pub kind: Kind,
    /// The recipient.
    pub to: String,
    /// Tries that failed so far.
    pub attempts: u32,
    /// The next try, not before.
    pub next_try: DateTime<Utc>,
    /// Why.
    pub error: String,
}

impl Failed {
    /// The report's line: `GAME_DIR: receipt not sent to TO: WHY (try 2; it stays queued, next
    /// try after TIME)`.
    pub fn line(&self) -> String {
        format!(
            "{}: {} not sent to {}: {} (try {}; it stays queued, next try after {})",
            self.game_dir.display(),
            self.kind.word(),
            self.to,
            self.error,
            self.attempts,
            self.next_try.format("%Y-%m-%d %H:%M UTC")
        )
    }
}

/// What a drain did.
#[derive(Debug, Default, Clone)]
pub struct DrainReport {
    /// The mails sent, in order.
    pub sent: Vec<Delivered>,
    /// The mails tried and not sent (still queued).
    pub failed: Vec<Failed>,
    /// Mails still queued and not tried in this drain: their back-off runs, or a failure
    /// stopped the queue before them.
    pub waiting: usize,
    /// Games whose queue another process was sending (it sends these mails).
    pub busy: Vec<PathBuf>,
    /// Games whose queue could not be read or settled, with why.
    pub errors: Vec<String>,
    /// Lines to tell that are no failure of the mail (a side `remind` did not time out because
    /// its prompt went out after its deadline).
    pub notes: Vec<String>,
}

impl DrainReport {
    /// Adds `other`'s findings to this report.
    pub fn merge(&mut self, other: DrainReport) {
        self.sent.extend(other.sent);
        self.failed.extend(other.failed);
        self.waiting += other.waiting;
        self.busy.extend(other.busy);
        self.errors.extend(other.errors);
        self.notes.extend(other.notes);
    }

    /// Whether every mail owed went out: nothing failed, waits or could not be read.
    pub fn all_sent(&self) -> bool {
        self.failed.is_empty() && self.waiting == 0 && self.errors.is_empty()
    }

    /// The lines saying what was not sent and why (the failures, then the errors).
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self.failed.iter().map(Failed::line).collect();
        out.extend(self.errors.iter().cloned());
        out
    }
}

/// The wait after the `attempts`-th failed try: [`FIRST_BACKOFF`] doubled each time, at most
/// [`MAX_BACKOFF`].
pub fn backoff(attempts: u32) -> Duration {
    let shift = attempts.saturating_sub(1).min(16);
    FIRST_BACKOFF.saturating_mul(1u32 << shift).min(MAX_BACKOFF)
}

/// The sender's hold on a game's queue (`mail-queue/.send-lock`), released when dropped:
/// one process sends a game's mail at a time, so none is sent twice by two of them.
struct SendLock {
    _file: std::fs::File,
}

impl SendLock {
    /// Takes the lock, waiting at most `wait` for another sender; `None` if it stays busy.
    fn take(queue: &Queue, wait: Duration) -> Result<Option<SendLock>, MailError> {
        let path = queue.dir().join(SEND_LOCK);
        let file = gamefs::nofollow_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| MailError::File {
                path: path.clone(),
                message: gamefs::link_or_io(&path, "open", e).to_string(),
            })?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(SendLock { _file: file })),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(MailError::File {
                        path,
                        message: e.to_string(),
                    })
                }
            }
        }
    }
}

/// Sends the owed mails of `queue` (not those written ahead of a commit not settled yet)
/// through `transport`: in the order queued; a mail whose back-off runs at `now` is left
/// (unless `retry_now`); each sent one recorded as sent after the transport accepted it;
/// after a failure that is not the server's refusal of that one mail, the rest wait. Before
/// it lets the queue go, the sender looks at it again for mails another process queued
/// meanwhile.
pub(super) fn send_owed(
    queue: &Queue,
    transport: &Transport,
    now: DateTime<Utc>,
    retry_now: bool,
) -> DrainReport {
    let mut report = DrainReport::default();
    let game_dir = queue.game_dir();
    match queue.owed() {
        Ok(o) if o.is_empty() => return report,
        Ok(_) => {}
        Err(e) => {
            report.errors.push(format!("{}: {e}", game_dir.display()));
            return report;
        }
    }
    let _lock = match SendLock::take(queue, SEND_LOCK_WAIT) {
        Ok(Some(l)) => l,
        Ok(None) => {
            report.busy.push(game_dir);
            return report;
        }
        Err(e) => {
            report.errors.push(format!("{}: {e}", game_dir.display()));
            return report;
        }
    };
    let mut pass = Pass {
        queue,
        transport,
        now,
        retry_now,
        stopped: false,
        waiting: 0,
        seen: std::collections::HashSet::new(),
    };
    for _ in 0..PASSES {
        let fresh = match (queue.owed(), queue.sent_ids()) {
            (Ok(o), Ok(sent)) => (o, sent),
            (Err(e), _) | (_, Err(e)) => {
                report.errors.push(format!("{}: {e}", game_dir.display()));
                break;
            }
        };
        let owed: Vec<Owed> = fresh
            .0
            .into_iter()
            .filter(|(k, _)| pass.seen.insert(k.clone()))
            .collect();
        if owed.is_empty() {
            break;
        }
        for (key, record) in owed {
            pass.one(&key, record, &fresh.1, &mut report);
        }
        if pass.stopped {
            break;
        }
    }
    if pass.waiting > 0 {
        let n = pass.waiting;
        report.errors.push(format!(
            "{}: {n} queued {} not tried now: {} (`twilight mail {}` tries again now)",
            game_dir.display(),
            if n == 1 { "mail" } else { "mails" },
            if pass.stopped {
                "they wait for the next try, behind one that failed"
            } else {
                "each waits for its next try after a failed one"
            },
            game_dir.display()
        ));
    }
    report
}

/// How many times a sender looks at the queue for mails queued while it sent.
const PASSES: usize = 3;

/// A sender's way through a game's queue ([`send_owed`]).
struct Pass<'a> {
    queue: &'a Queue,
    transport: &'a Transport,
    now: DateTime<Utc>,
    retry_now: bool,
    /// A failure holds the rest of the queue.
    stopped: bool,
    /// Mails left for a later try.
    waiting: usize,
    /// The keys looked at so far.
    seen: std::collections::HashSet<String>,
}

impl Pass<'_> {
    /// Sends the mail `key` (or leaves it waiting, or notes its failure).
    fn one(
        &mut self,
        key: &str,
        record: Result<Record, MailError>,
        sent: &std::collections::HashSet<String>,
        report: &mut DrainReport,
    ) {
        let game_dir = self.queue.game_dir();
        let mut record = match record {
            Ok(r) => r,
            Err(e) => {
                report.errors.push(format!(
                    "{}: a queued mail's record cannot be read (left in place): {e}",
                    game_dir.display()
                ));
                return;
            }
        };
        if sent.contains(&record.message_id) {
            // Sent, and recorded so, by a run a crash stopped before it removed the files.
            self.queue.forget(key);
            return;
        }
        if self.stopped || (!self.retry_now && record.next_try.is_some_and(|t| t > self.now)) {
            report.waiting += 1;
            self.waiting += 1;
            // A mail waiting out a failure that was not the server's refusal of it (the
            // server down) holds the mails queued after it: they go in order, and a server
            // that is down is not tried again for each of them.
            self.stopped |= !record.refused;
            return;
        }
        match send_one(self.queue, self.transport, key, &record) {
            Ok(delivered) => {
                // The transport took it: recorded as sent (a crash before this line is on
                // disk sends it again, with the same Message-ID).
                if let Err(e) = self
                    .queue
                    .mark_sent(key, &record.message_id, self.now, &delivered)
                {
                    report.errors.push(format!(
                        "{}: sent, but not recorded as sent (it may be sent again, with the same Message-ID): {e}",
                        game_dir.display()
                    ));
                }
                report.sent.push(Delivered {
                    game_dir,
                    message_id: record.message_id,
                    kind: record.kind,
                    to: record.to,
                    side: record.side,
                    whom: record.whom,
                    label: record.label,
                    delivered,
                });
            }
            Err(failure) => {
                record.attempts += 1;
                let wait = chrono::Duration::from_std(backoff(record.attempts))
                    .unwrap_or(chrono::Duration::hours(1));
                let next_try = self.now + wait;
                record.next_try = Some(next_try);
                record.last_error = Some(failure.message.clone());
                record.refused = failure.permanent;
                if let Err(e) = self.queue.note_failure(key, &record) {
                    report.errors.push(format!("{}: {e}", game_dir.display()));
                }
                report.failed.push(Failed {
                    game_dir,
                    message_id: record.message_id,
                    kind: record.kind,
                    to: record.to,
                    attempts: record.attempts,
                    next_try,
                    error: failure.message,
                });
                self.stopped = !failure.permanent;
            }
        }
    }
}

/// Sends one queued mail's bytes to its envelope.
fn send_one(
    queue: &Queue,
    transport: &Transport,
    key: &str,
    record: &Record,
) -> Result<String, SendFailure> {
    let failure = |message: String| SendFailure {
        message,
        permanent: false,
    };
    let bytes = queue.message(key).map_err(|e| failure(e.to_string()))?;
    let address = |s: &str| {
        s.parse::<lettre::Address>()
            .map_err(|e| failure(format!("bad address `{s}`: {e}")))
    };
    let from = record.envelope_from.as_deref().map(address).transpose()?;
    let to = record
        .envelope_to
        .iter()
        .map(|s| address(s))
        .collect::<Result<Vec<_>, _>>()?;
    let envelope = lettre::address::Envelope::new(from, to).map_err(|e| SendFailure {
        message: e.to_string(),
        permanent: true,
    })?;
    gamefs::crash_point("queue-before-send");
    let delivered = transport.deliver_raw(&envelope, &bytes, key)?;
    gamefs::crash_point("queue-accepted");
    Ok(delivered)
}

/// Settles, composes what the game owes, and sends: for a command that holds the game's lock
/// with the game open as committed (`session`). The mails written ahead of a commit are
/// settled against the log ([`Queue::settle`]); the prompts and updates owed and not composed
/// yet (the `owed` marker, [`super::owe`]) are composed and queued; then every owed mail is
/// sent through `transport` ([`send_owed`]). With `retry_now`, mails waiting out a back-off
/// are tried too (`twilight mail`).
pub fn flush(
    session: &Session,
    transport: &Transport,
    now: DateTime<Utc>,
    retry_now: bool,
) -> DrainReport {
    let queue = Queue::of(session.dir());
    let mut report = DrainReport::default();
    if let Err(e) = settle_and_compose(session, &queue, now) {
        report
            .errors
            .push(format!("{}: {e}", session.dir().display()));
    }
    report.merge(send_owed(&queue, transport, now, retry_now));
    report
}

/// [`Queue::settle`], then the prompts owed composed ([`super::queue_due`]) if the marker says
/// so.
fn settle_and_compose(
    session: &Session,
    queue: &Queue,
    now: DateTime<Utc>,
) -> Result<(), MailError> {
    if queue.has_pending() {
        queue.settle(session.log())?;
    }
    if queue.owes_prompts() {
        super::queue_due(session, false, now)?;
    }
    Ok(())
}

/// Drains one game's queue from a process that may not hold the game's lock (`twilight
/// serve`, `inbox` for the games it did not touch): what needs the game (mails written ahead
/// of a commit to settle, prompts owed to compose) is done under the game's lock when it is
/// free at once (or already this process's), else left to its holder; then the owed mails are
/// sent through `transport`. Cheap when the queue is empty (one look at the folder).
pub fn drain_game(game_dir: &Path, transport: &Transport, now: DateTime<Utc>) -> DrainReport {
    let queue = Queue::of(game_dir);
    let mut report = DrainReport::default();
    if queue.is_empty() {
        return report;
    }
    if queue.has_pending() || queue.owes_prompts() {
        if let Err(e) = settle_under_lock(game_dir, &queue, now) {
            report.errors.push(format!("{}: {e}", game_dir.display()));
        }
    }
    report.merge(send_owed(&queue, transport, now, false));
    report
}

/// Opens the game under its lock (taken only if free now, unless this process holds it) and
/// settles and composes ([`settle_and_compose`]). A busy lock: nothing done (its holder
/// settles).
fn settle_under_lock(game_dir: &Path, queue: &Queue, now: DateTime<Utc>) -> Result<(), MailError> {
    let _lock = if gamefs::holds_lock(game_dir) {
        None
    } else {
        match Session::lock_within(game_dir, Duration::ZERO) {
            Ok((lock, _)) => Some(lock),
            Err(crate::session::SessionError::Busy(_)) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
    };
    let session = Session::open(game_dir)?;
    settle_and_compose(&session, queue, now)
}

/// Drains the queue of every game folder in `games_dir` ([`drain_game`]), each through the
/// transport [`Transport::choose`] picks for it (SMTP when `TWILIGHT_SMTP_URL` is set and
/// not `force_outbox`, else its `outbox/`). Game folders are taken in name order; a symbolic
/// link is skipped.
pub fn drain_all(games_dir: &Path, force_outbox: bool, now: DateTime<Utc>) -> DrainReport {
    let mut report = DrainReport::default();
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(games_dir) {
        Ok(rd) => rd
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .collect(),
        Err(e) => {
            report.errors.push(format!("{}: {e}", games_dir.display()));
            return report;
        }
    };
    dirs.sort();
    for dir in dirs {
        if Queue::of(&dir).is_empty() {
            continue;
        }
        match Transport::choose(&dir.join("outbox"), force_outbox) {
            Ok(t) => report.merge(drain_game(&dir, &t, now)),
            Err(e) => report.errors.push(format!("{}: {e}", dir.display())),
        }
    }
    report
}
