//! Reading replies (design §5): `twilight inbox [--games DIR] SOURCE…`.
//!
//! Each new mail goes through the same steps, in this order (after njudge's mail pipeline):
//!
//! 1. **receive** — read it as a person would ([`crate::mail::reply`]: the new text, the tokens
//!    anywhere in the mail, the Message-IDs it answers);
//! 2. **identify the game** — the subject's `[TS <game>]` tag, else a `Game:` line, else the
//!    prompt it answers (`identify.rs`); the game's lock is taken and held until the mail is
//!    filed — tried, never waited for: a busy game's mail is put off and tried again later in
//!    the run, and no other game's mail waits behind it (`busy.rs`);
//! 3. **identify the sender** — a player of that game (a seat, before a bid decides the
//!    sides); a mail already applied (same Message-ID or same bytes) is filed quietly, its
//!    move standing;
//! 4. **authenticate** — the reply token, bound to game, log `seq` and side and compared in
//!    constant time; a reply naming a prompt in `In-Reply-To`/`References` carries that
//!    prompt's token; a stale token is told from a wrong one (`authenticate.rs`);
//! 5. **apply** — the move lines, all or none, committed with the mail's record so that a
//!    crash neither loses the move nor applies the mail twice (`apply.rs`);
//! 6. **reply** — the receipt of an accepted move, or, for a refusal, a reply that is itself a
//!    prompt and goes only to a player of the game, at most [`REFUSALS_PER_HOUR`] an hour to
//!    one address (`answer.rs`, `refusal_limit.rs`, [`crate::mail::refusal`]); a refusal
//!    appends nothing to the log. After all the mails, the prompts of every game that moved on
//!    are queued, and every game's mail queue is sent, the games this run did not touch too
//!    (what a crash or a mail server that was down left: [`crate::mail::queue`]).
//!
//! What one mail may cost is bounded whoever sent it: linear in its size before its sender is
//! authenticated, with caps on what it may ask ([`crate::mail::reply`], `judge.rs`).
//!
//! `judge.rs` runs steps 1 to 5 for one mail; [`run`] runs them for every mail, answers, files
//! and sends the prompts. What a mail can become, and the exit status of each, is in
//! `verdict.rs` ([`Verdict`], [`Refusal`]).
//!
//! Sources and what becomes of a message (nothing is ever deleted; `sources.rs`):
//!
//! * a Maildir (a folder with `new/`, `cur/`, `tmp/`): each file in `new/` is read; an applied
//!   one moves to `cur/NAME:2,S` (Seen); a refused one moves to `cur/NAME:2,FS` (Flagged, Seen)
//!   and the reply sent about it is kept as `twilight-refused/NAME.txt` (0600) in the
//!   Maildir; a mail for no game here moves to [`QUARANTINE_FOLDER`] with `NAME.reason.txt`,
//!   once (never read again by later runs); a mail that fails in an unforeseen way (an error,
//!   a panic, a symbolic link in `new/`) moves to [`FAILED_FOLDER`] with `NAME.reason.txt`,
//!   and the other mails go on. A busy game's mail stays in `new/` for the next run.
//! * an `.eml` file: left where it is; a note `FILE.accepted`, `FILE.refused`, `FILE.failed`
//!   or `FILE.held` beside it records the result, and a file with a note is skipped on later
//!   runs.

mod answer;
mod apply;
mod authenticate;
mod busy;
mod identify;
mod judge;
mod refusal_limit;
mod sources;
mod verdict;

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use self::answer::{answer_accepted, answer_refused};
use self::busy::{Queued, Retry, Round};
use self::judge::{judge, Context};
use self::sources::{
    file_away, list_sources, note_path, read_mail, source_name, Mail, Source, NOTES,
};
use super::queue::{self, Delivered};
use super::reply::{self, Reply};
use super::transport::Transport;
use super::MailError;
use crate::gamefs::GameLock;
use crate::session::{Session, SessionError};
use crate::text::controls::one_line;

pub use self::answer::refusal_text;
pub use self::identify::game_from_subject;
pub use self::refusal_limit::{RefusalLimits, REFUSALS_PER_HOUR};
pub use self::sources::{FAILED_FOLDER, QUARANTINE_FOLDER};
pub use self::verdict::{
    Refusal, Verdict, EXIT_FAILED, EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_MISSING_TOKEN,
    EXIT_NOT_A_PLAYER, EXIT_NO_MOVE, EXIT_REPLAYED, EXIT_STALE, EXIT_UNKNOWN_GAME,
    EXIT_WRONG_TOKEN,
};
pub use super::reply::{extract, Extracted, MAX_MESSAGE_BYTES, MAX_TEXT_BYTES};

/// A message as read ([`reply::read`]).
pub type Received = Reply;

/// Parses raw message bytes ([`reply::read`]).
pub fn read_message(raw: &[u8]) -> Result<Received, Refusal> {
    reply::read(raw)
}

/// Options of an inbox run.
pub struct InboxOptions {
    /// The folder holding the game folders.
    pub games_dir: PathBuf,
    /// Write every mail to outbox folders even if SMTP is configured.
    pub force_outbox: bool,
    /// The clock.
    pub now: DateTime<Utc>,
}

/// What an inbox run did with one message.
#[derive(Debug, Clone)]
pub struct Processed {
    /// The message's file (its path before it was moved).
    pub source: PathBuf,
    /// The result.
    pub verdict: Verdict,
}

/// The result of an inbox run.
#[derive(Debug, Default)]
pub struct InboxReport {
    /// Each message read, in order.
    pub processed: Vec<Processed>,
    /// Files skipped (already processed `.eml` files).
    pub skipped: Vec<PathBuf>,
    /// The mails sent from the games' queues ([`crate::mail::queue`]) in this run, in order:
    /// receipts, prompts, updates, and mails an earlier run queued and could not send. The
    /// replies to refused mails are told with their verdicts instead.
    pub sent: Vec<Delivered>,
    /// Problems sending mail (the moves stand; an unsent mail stays queued and the next run
    /// sends it).
    pub send_errors: Vec<String>,
    /// Lines saying what was set aside from a log a crash left incomplete.
    pub recovered: Vec<String>,
    /// Mails left in place because their game was busy (another command held its lock).
    pub deferred: Vec<String>,
}

impl InboxReport {
    /// How many mails got a verdict matching `f`.
    pub fn count(&self, f: impl Fn(&Verdict) -> bool) -> usize {
        self.processed.iter().filter(|p| f(&p.verdict)).count()
    }

    /// The exit status: the first refusal's, else 3 if a mail could not be sent, else 0.
    pub fn exit_code(&self) -> u8 {
        self.processed
            .iter()
            .map(|p| p.verdict.exit_code())
            .find(|c| *c != 0)
            .unwrap_or(if self.send_errors.is_empty() { 0 } else { 3 })
    }
}

/// Runs the inbox: every new message of every source, in order; then the prompts of every game
/// that moved on. Each mail is handled on its own: a refusal is answered at once, a mail for no
/// game here is moved to [`QUARANTINE_FOLDER`] once, and a mail that fails in any unforeseen
/// way — an error or even a panic — is filed as failed while the other mails and games go on.
/// A game whose lock is busy is tried again for at most [`crate::gamefs::lock_wait`]
/// ([`run_within`]). Mail errors are collected, not fatal.
pub fn run(opts: &InboxOptions, sources: &[PathBuf]) -> Result<InboxReport, MailError> {
    run_within(opts, sources, crate::gamefs::lock_wait())
}

/// [`run`], trying the mail and prompts of a game whose lock is busy again in later rounds for
/// at most `retry` (`busy.rs`): no game's mail waits behind a busy one, and a busy game's mail
/// left at the end stays in `new/` for the next run ([`InboxReport::deferred`]).
pub fn run_within(
    opts: &InboxOptions,
    sources: &[PathBuf],
    retry: std::time::Duration,
) -> Result<InboxReport, MailError> {
    let mut report = InboxReport::default();
    let done = run_sources(opts, list_sources(sources)?, retry, &mut report);
    drain_others(opts, &done, &mut report);
    Ok(report)
}

/// [`run`] on one message of a Maildir's `new/` folder (`maildir` is the Maildir, `file` the
/// message in its `new/`): judged, answered, filed, and the prompts it made due sent before
/// the call returns (`twilight serve` hands its mails one at a time, so that each player's
/// next prompt leaves as soon as their reply is in, and a stop finishes only the mail in hand).
/// A mail whose game stays busy for `retry` is left in `new/` ([`InboxReport::deferred`]).
pub fn run_message(
    opts: &InboxOptions,
    maildir: &Path,
    file: &Path,
    retry: std::time::Duration,
) -> Result<InboxReport, MailError> {
    let mut report = InboxReport::default();
    let sources = vec![Source::Maildir(maildir.to_path_buf(), file.to_path_buf())];
    run_sources(opts, sources, retry, &mut report);
    Ok(report)
}

/// Judges, answers and files the mails of `sources` and sends the prompts they made due,
/// trying busy games again for at most `retry`; returns the games whose prompts were sent.
fn run_sources(
    opts: &InboxOptions,
    sources: Vec<Source>,
    retry: std::time::Duration,
    report: &mut InboxReport,
) -> Vec<PathBuf> {
    let mut queue: Vec<Queued> = sources.into_iter().map(|s| (s, None)).collect();
    let mut due: Touched = Vec::new();
    let mut done: Vec<PathBuf> = Vec::new();
    let mut retry = Retry::new(retry);
    loop {
        let mut round = Round::default();
        let mut touched: Touched = Vec::new();
        let kept;
        (queue, kept) =
            judge_and_file_each(opts, queue, report, &mut touched, &mut round, &mut retry);
        for (dir, held) in touched {
            if !done.contains(&dir) {
                done.push(dir.clone());
            }
            match due.iter_mut().find(|(d, _)| *d == dir) {
                Some(d) => d.1 = held,
                None => due.push((dir, held)),
            }
        }
        due = send_prompts(opts, due, kept, report, &mut round, &mut retry);
        if queue.is_empty() && due.is_empty() || !retry.wait() {
            break;
        }
    }
    for (src, game) in queue {
        let why = game.map_or_else(|| "its game is busy".into(), |g| retry.said(&g));
        report.deferred.push(format!(
            "{}: {why}; left in new/ for the next run",
            one_line(&src.file().display().to_string())
        ));
    }
    for (dir, _) in due {
        report.send_errors.push(format!(
            "{}: prompts not sent: {}; `twilight mail {}` re-sends",
            dir.display(),
            retry.said(&dir),
            dir.display()
        ));
    }
    done
}

/// Sends what the other games of the games folder owe (mails a crash or a mail server that
/// was down left queued): every run of `inbox` drains every game's queue
/// ([`crate::mail::queue::drain_game`]).
fn drain_others(opts: &InboxOptions, done: &[PathBuf], report: &mut InboxReport) {
    let Ok(rd) = fs::read_dir(&opts.games_dir) else {
        return;
    };
    let mut dirs: Vec<PathBuf> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|d| !done.contains(d) && !queue::Queue::of(d).is_empty())
        .collect();
    dirs.sort();
    for dir in dirs {
        match Transport::choose(&dir.join("outbox"), opts.force_outbox) {
            Ok(t) => absorb(report, queue::drain_game(&dir, &t, opts.now)),
            Err(e) => report
                .send_errors
                .push(format!("{}: mail not sent: {e}", dir.display())),
        }
    }
}

/// Adds a drain's mails and problems to the run's report.
fn absorb(report: &mut InboxReport, drained: queue::DrainReport) {
    report.send_errors.extend(drained.problems());
    report.sent.extend(drained.sent);
}

/// Judges, answers and files every mail of `queue` in order, but those of games whose lock is
/// busy (`round`), which are put off and returned. Also returns the lock of the last mail's
/// game, kept for sending its prompts: held all along, its files need not be read and
/// compared again (`Session::reopen`), nor the lock taken anew.
fn judge_and_file_each(
    opts: &InboxOptions,
    queue: Vec<Queued>,
    report: &mut InboxReport,
    touched: &mut Touched,
    round: &mut Round,
    retry: &mut Retry,
) -> (Vec<Queued>, Option<GameLock>) {
    let count = queue.len();
    let mut kept: Option<GameLock> = None;
    let mut put_off = Vec::new();
    for (n, (src, game)) in queue.into_iter().enumerate() {
        let file = src.file().to_path_buf();
        if let Source::Eml(f) = &src {
            if NOTES.iter().any(|e| note_path(f, e).exists()) {
                report.skipped.push(f.clone());
                continue;
            }
        }
        // A mail put off for a busy game: that game's lock first, before the mail is read.
        let mut prelocked = None;
        if let Some(dir) = &game {
            if round.is_busy(dir) {
                put_off.push((src, game));
                continue;
            }
            retry.tried(dir);
            match Session::try_lock(dir) {
                Ok(l) => prelocked = Some(l),
                Err(SessionError::Busy(_)) => {
                    round.mark(dir);
                    put_off.push((src, game));
                    continue;
                }
                Err(_) => {} // judged as any mail: the error is its verdict
            }
        }
        let still_there = || match &src {
            Source::Maildir(..) => fs::symlink_metadata(&file).is_ok(),
            Source::Eml(f) => NOTES.iter().all(|e| !note_path(f, e).exists()),
        };
        let mut held: Option<GameLock> = None;
        let mut unread = None;
        let (raw, whole_len) = match read_mail(&file) {
            Mail::Gone => continue, // another inbox run filed it since we listed the folder
            Mail::Whole(raw) => (raw, None),
            Mail::Head(head, len) => (head, Some(len)),
            Mail::Unread(reason) => {
                unread = Some(reason);
                (Vec::new(), None)
            }
        };
        let verdict = if let Some(reason) = unread {
            Verdict::Failed { reason }
        } else {
            let mail = Judged {
                raw: &raw,
                whole_len,
                src: &src,
                still_there: &still_there,
                busy: round.busy(),
                prelocked,
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                process(mail, opts, report, touched, &mut held)
            }));
            match outcome {
                Ok(Ok(Outcome::Verdict(v))) => v,
                Ok(Ok(Outcome::Skip)) => continue, // left for the next run, or filed by another
                Ok(Ok(Outcome::PutOff(dir))) => {
                    round.mark(&dir);
                    retry.tried(&dir);
                    put_off.push((src, Some(dir)));
                    continue;
                }
                Ok(Err(e)) => Verdict::Failed {
                    reason: e.to_string(),
                },
                Err(p) => Verdict::Failed {
                    reason: format!("internal error (panic: {})", panic_text(&*p)),
                },
            }
        };
        match file_away(&src, &verdict) {
            Ok(true) => {}
            Ok(false) => continue, // another inbox run filed it first
            Err(e) => report
                .send_errors
                .push(format!("{}: could not be filed: {e}", file.display())),
        }
        if n + 1 == count {
            kept = held;
        } else {
            drop(held);
        }
        report.processed.push(Processed {
            source: file,
            verdict,
        });
    }
    (put_off, kept)
}

/// Sends the prompts due in every game in `due`, each under its lock in turn (`kept`: the
/// last mail's game's lock, still held); returns those of games whose lock is busy, put off.
fn send_prompts(
    opts: &InboxOptions,
    due: Touched,
    mut kept: Option<GameLock>,
    report: &mut InboxReport,
    round: &mut Round,
    retry: &mut Retry,
) -> Touched {
    let mut later = Vec::new();
    for (dir, held) in due {
        // Each game's lock in turn: sending updates its mail state.
        let lock = match kept.take_if(|l| l.dir() == crate::gamefs::plain(&dir)) {
            Some(l) => Ok((l, None)),
            // Never one game's lock held while trying another's: the kept lock is let go
            // (its game is then locked and compared again, as any other).
            None if round.is_busy(&dir) => {
                later.push((dir, held));
                continue;
            }
            None => {
                kept = None;
                Session::try_lock(&dir)
            }
        };
        let (_lock, recovered) = match lock {
            Ok(l) => l,
            Err(SessionError::Busy(_)) => {
                round.mark(&dir);
                retry.tried(&dir);
                later.push((dir, held));
                continue;
            }
            Err(e) => {
                report
                    .send_errors
                    .push(format!("{}: prompts not sent: {e}", dir.display()));
                continue;
            }
        };
        report.recovered.extend(recovered);
        let session = match reopen(&dir, held) {
            Ok(s) => s,
            Err(e) => {
                report
                    .send_errors
                    .push(format!("{}: prompts not sent: {e}", dir.display()));
                continue;
            }
        };
        // The prompts the moves owe, queued (the marker written ahead of each move says so
        // even after a crash), then the game's queue sent: receipts first, in order.
        if let Err(e) = queue::queue_due(&session, false, opts.now) {
            report
                .send_errors
                .push(format!("{}: prompts not queued: {e}", dir.display()));
        }
        match Transport::choose(&dir.join("outbox"), opts.force_outbox) {
            Ok(t) => absorb(report, queue::flush(&session, &t, opts.now, false)),
            Err(e) => report
                .send_errors
                .push(format!("{}: prompts not sent: {e}", dir.display())),
        }
    }
    later
}

/// One mail to judge: its bytes (only the head of one over
/// [`super::reply::MAX_MESSAGE_BYTES`], whose length is `whole_len`), its source, whether it
/// is still there, the games found busy in this round, and its game's lock when taken before.
struct Judged<'a> {
    raw: &'a [u8],
    whole_len: Option<u64>,
    src: &'a Source,
    still_there: &'a dyn Fn() -> bool,
    busy: Vec<PathBuf>,
    prelocked: Option<(GameLock, Option<String>)>,
}

/// What became of one mail judged.
enum Outcome {
    /// A verdict, to file.
    Verdict(Verdict),
    /// Nothing to file: another run took the mail, or it waits for the next run.
    Skip,
    /// Its game (this folder) is busy: put off.
    PutOff(PathBuf),
}

/// Judges one message and answers it if refused; `touched` collects the games that moved on.
fn process(
    mail: Judged<'_>,
    opts: &InboxOptions,
    report: &mut InboxReport,
    touched: &mut Touched,
    held: &mut Option<GameLock>,
) -> Result<Outcome, MailError> {
    let file = mail.src.file();
    let source = &source_name(mail.src);
    #[cfg(debug_assertions)]
    if let Ok(needle) = std::env::var("TWILIGHT_TEST_PANIC_ON") {
        // Test-only failpoint (debug builds): a mail containing the text panics, so the tests
        // can check that one bad mail never stops the loop.
        if !needle.is_empty() && String::from_utf8_lossy(mail.raw).contains(&needle) {
            panic!("test failpoint TWILIGHT_TEST_PANIC_ON hit");
        }
    }
    let mut ctx = Context {
        whole_len: mail.whole_len,
        busy: mail.busy,
        prelocked: mail.prelocked,
        ..Context::default()
    };
    let judged = match judge(mail.raw, opts, &mut ctx, source, mail.still_there) {
        // One busy game does not stop the others: its mail is put off, tried again later.
        Err(MailError::Session(SessionError::Busy(e))) => {
            return Ok(match ctx.game_dir.take() {
                Some(dir) => Outcome::PutOff(dir),
                None => {
                    report
                        .deferred
                        .push(format!("{}: left for the next run: {e}", file.display()));
                    Outcome::Skip
                }
            });
        }
        // The mail of a game whose folder cannot be written is kept in new/, not filed as
        // failed: it applies once the folder is writable again.
        Err(MailError::Session(SessionError::ReadOnly(e))) => {
            report
                .deferred
                .push(format!("{}: left for the next run: {e}", file.display()));
            return Ok(Outcome::Skip);
        }
        other => other,
    };
    report.recovered.extend(ctx.recovered.take());
    // A join's or a bid's receipt that could not be queued (the join or bid stands).
    for e in ctx.receipts.drain(..) {
        report
            .send_errors
            .push(format!("{}: receipt not queued: {e}", file.display()));
    }
    // The lock is held by the caller until the mail is filed.
    *held = ctx.lock.take();
    if ctx.gone {
        return Ok(Outcome::Skip); // another inbox run took it
    }
    Ok(Outcome::Verdict(match judged? {
        Ok((game, Some(side), _)) if ctx.unfiled.is_some() => Verdict::Filed {
            game,
            side,
            seq: ctx.unfiled.unwrap_or_default(),
        },
        Ok((game, side, applied)) => {
            answer_accepted(&mut ctx, touched);
            Verdict::Accepted {
                game,
                side,
                applied,
                ignored: ctx.ignored.clone(),
            }
        }
        Err(refusal @ Refusal::UnknownGame(_)) => Verdict::Held {
            game: ctx.game.clone(),
            refusal,
        },
        Err(refusal) => answer_refused(opts, &mut ctx, refusal, report, file),
    }))
}

/// The game in `dir` opened again after a move: from `held`, this process's replay of it,
/// when the files are unchanged ([`Session::reopen`]), else from the disk.
fn reopen(dir: &Path, held: Option<Session>) -> Result<Session, SessionError> {
    match held {
        Some(s) if s.dir() == dir => s.reopen(),
        _ => Session::open(dir),
    }
}

/// The games whose prompts are due after the mails, each with this process's latest replay
/// of it, if any ([`reopen`]).
type Touched = Vec<(PathBuf, Option<Session>)>;

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_mail_is_refused_with_its_reason() {
        assert!(matches!(read_message(b""), Err(Refusal::MalformedMime(_))));
        let r = read_message(b"Subject: x\r\n\r\nbody\r\n").unwrap_err();
        assert_eq!(r.kind(), "malformed-mime");
        assert!(r.explain(None).contains("no sender address"));
    }
}
