//! `twilight serve`: the host's whole job in one long-running process, without cron or glue:
//!
//! * takes the mail ([`intake`]): from an IMAP mailbox ([`imap`]: TLS, IDLE where the server
//!   offers it, else polling; each mail moved to a folder after it is handled, never
//!   deleted) or from a Maildir on this machine (polled). Each mail is handled alone, in
//!   arrival order, as `twilight inbox` handles it ([`crate::mail::inbound::run_message`]): its
//!   moves applied, its receipt and the next prompts sent before the next mail is read;
//! * sends what the games owe ([`deliver`]): at start, the mail a crash kept from leaving;
//! * runs the clock's work at its times ([`schedule`]): reminders, late notices, timeouts;
//! * after an outage longer than `--outage-after` ([`outage`]), records it in every running
//!   game (every deadline falls later by it), tells both players, and only then takes the
//!   mail parked meanwhile;
//! * stops cleanly on SIGTERM or SIGINT ([`signals`]): the mail in hand is finished.
//!
//! [`pipe`] is the MTA's way in instead (`twilight inbox --stdin`, one mail a run).
//!
//! It logs one line per mail handled and per mail the clock sent (never a credential, never a
//! reply token). Its state (the heartbeat, the IMAP spool) is in a folder of its own,
//! `GAMES/.serve/` by default, which `verify` and `export` pass over (its name starts with `.`).

pub mod imap;
pub mod pipe;
pub mod signals;

mod deliver;
mod intake;
mod outage;
mod schedule;
mod workers;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};

use self::intake::{Fate, Intake};
use self::outage::Heartbeat;
use self::schedule::Schedule;
use crate::gamefs::GameLock;
use crate::mail::inbound::{InboxOptions, InboxReport, Verdict};
use crate::mail::MailError;
use crate::session::{Session, SessionError};

pub use self::intake::Source;
pub use self::outage::HEARTBEAT_FILE;
pub use self::schedule::next_due;

/// Why `serve` could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A setting that must be fixed before anything can work (a refused login, a certificate
    /// that does not verify, a bad URL).
    #[error("{0}")]
    Config(String),
    /// The mail server cannot be reached now (tried again later; counts toward an outage).
    #[error("the mail server is out of reach: {0}")]
    Unreachable(String),
    /// Sending or reading a game's mail.
    #[error(transparent)]
    Mail(#[from] MailError),
    /// Opening or writing a game.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// A file of `serve`'s own.
    #[error("{}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// How `serve` runs.
pub struct ServeOptions {
    /// The folder holding the game folders.
    pub games_dir: PathBuf,
    /// Where the mail comes from.
    pub source: Source,
    /// `serve`'s own folder: the heartbeat, the IMAP spool.
    pub state_dir: PathBuf,
    /// The IMAP folders' parent (`twilight`: `twilight/done`, `twilight/refused`, …).
    pub folder_prefix: String,
    /// Write every mail to the games' outbox folders even if SMTP is configured.
    pub force_outbox: bool,
    /// A gap in the heartbeat longer than this is an outage.
    pub outage_after: Duration,
    /// The longest wait between passes (new mail found by IDLE comes at once).
    pub tick: StdDuration,
    /// One pass, then stop (for cron).
    pub once: bool,
    /// Mails of different games handled at once, at most.
    pub jobs: usize,
    /// The clock ([`crate::session::correspondence::now`]; injectable).
    pub clock: fn() -> DateTime<Utc>,
}

/// What a run of `serve` did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Mails handled.
    pub mails: usize,
    /// Of which refused or failed.
    pub refused: usize,
}

/// The game folders of `games_dir` (sub-folders holding a `log.yaml`; names starting with
/// `.` passed over), sorted.
pub fn game_dirs(games_dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(games_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.join("log.yaml").is_file())
        .collect();
    out.sort();
    out
}

/// Opens the game in `dir` under its lock (held until the lock is dropped).
fn open_locked(dir: &Path) -> Result<(GameLock, Session), ServeError> {
    let (lock, _recovered) = Session::lock(dir)?;
    let s = Session::open(dir)?;
    Ok((lock, s))
}

/// Runs `serve` until `stop` is set (or one pass with [`ServeOptions::once`]), writing its
/// log lines through `log`.
///
/// # Errors
///
/// A setting that makes the work impossible ([`ServeError::Config`]), `serve`'s own folder
/// that cannot be written; with `once`, a mail server out of reach. Errors of one game or one
/// mail are logged and the others go on.
pub fn run(
    opts: &ServeOptions,
    stop: &AtomicBool,
    log: &mut dyn FnMut(&str),
) -> Result<Summary, ServeError> {
    make_private_dir(&opts.state_dir)?;
    let _only_one = lock_state(&opts.state_dir)?;
    let mut intake = Intake::new(
        opts.source.clone(),
        &opts.folder_prefix,
        opts.state_dir.join("spool"),
    );
    let mut heartbeat = Heartbeat::load(&opts.state_dir);
    let mut schedule = Schedule::default();
    let mut summary = Summary::default();
    log(&format!(
        "serve: games {}, mail from {}, outage after {}",
        opts.games_dir.display(),
        intake.describe(),
        crate::session::correspondence::clock::human(opts.outage_after)
    ));
    // After a crash: what a change left owed goes out first; after a failed send, again, at
    // most once a minute (a drain opens every game).
    let mut owed = true;
    let mut drained: Option<Instant> = None;
    let mut backoff = StdDuration::from_secs(1);
    let mut out_of_reach: Option<Instant> = None;
    while !signals::stopping(stop) {
        let pending = match intake.collect() {
            Ok(p) => p,
            Err(ServeError::Unreachable(e)) => {
                if opts.once {
                    return Err(ServeError::Unreachable(e));
                }
                if out_of_reach.is_none() {
                    log(&format!("serve: {e}; trying again"));
                    out_of_reach = Some(Instant::now());
                }
                sleep(backoff, stop);
                backoff = (backoff * 2).min(opts.tick.max(StdDuration::from_secs(1)) * 30);
                continue;
            }
            Err(e) => return Err(e),
        };
        if let Some(since) = out_of_reach.take() {
            log(&format!(
                "serve: the mail server is reachable again (after {} s)",
                since.elapsed().as_secs()
            ));
        }
        backoff = StdDuration::from_secs(1);
        let games = game_dirs(&opts.games_dir);
        check_outage(opts, &games, &mut heartbeat, log)?;
        if owed && drained.is_none_or(|t| t.elapsed() >= StdDuration::from_secs(60)) {
            let d = deliver::drain(
                &opts.games_dir,
                &games,
                opts.force_outbox,
                (opts.clock)(),
                opts.jobs,
                drained.is_none(),
            );
            drained = Some(Instant::now());
            d.sent.iter().for_each(|l| log(&format!("serve: {l}")));
            d.errors.iter().for_each(|l| log(&format!("error: {l}")));
            owed = !d.errors.is_empty();
        }
        let handled = handle_all(opts, &mut intake, &pending, stop, &mut summary, log);
        owed |= handled.send_failed;
        if signals::stopping(stop) {
            break;
        }
        let now = (opts.clock)();
        for e in schedule.refresh(&games, now) {
            log(&format!("error: {e}"));
        }
        let (lines, errors) = schedule.run_due(now, opts.force_outbox);
        lines.iter().for_each(|l| log(&format!("serve: {l}")));
        errors.iter().for_each(|l| log(&format!("error: {l}")));
        if opts.once {
            break;
        }
        if handled.count == 0 {
            if let Err(e) = intake.wait(opts.tick, stop) {
                log(&format!("serve: {e}; trying again"));
                out_of_reach = Some(Instant::now());
            }
        }
    }
    intake.close();
    log(&format!(
        "serve: stopped; {} handled this run",
        crate::text::wording::count(summary.mails as u64, "mail", "mails")
    ));
    Ok(summary)
}

/// After a gap in the heartbeat longer than the threshold, records the outage in every
/// running game and tells the players, before any mail is taken; then beats.
fn check_outage(
    opts: &ServeOptions,
    games: &[PathBuf],
    heartbeat: &mut Heartbeat,
    log: &mut dyn FnMut(&str),
) -> Result<(), ServeError> {
    let now = (opts.clock)();
    let gap = heartbeat.gap(now, opts.outage_after);
    if let Some((from, to)) = gap {
        log(&format!(
            "serve: out of service from {} to {} ({}), longer than the threshold: recording the outage in every running game",
            from.to_rfc3339(),
            to.to_rfc3339(),
            crate::session::correspondence::clock::human(to - from)
        ));
        let (lines, errors) =
            outage::record(games, (from, to), opts.outage_after, opts.force_outbox);
        lines.iter().for_each(|l| log(&format!("serve: {l}")));
        errors.iter().for_each(|l| log(&format!("error: {l}")));
    }
    heartbeat.beat(now, gap.is_some())
}

/// What one pass over the pending mail did.
struct Handled {
    count: usize,
    send_failed: bool,
}

/// Handles the pending mails, each game's in arrival order, several games' at once
/// ([`workers`]), until a stop is asked for (the mails in hand are finished).
fn handle_all(
    opts: &ServeOptions,
    intake: &mut Intake,
    pending: &[intake::Pending],
    stop: &AtomicBool,
    summary: &mut Summary,
    log: &mut dyn FnMut(&str),
) -> Handled {
    let mut h = Handled {
        count: 0,
        send_failed: false,
    };
    let keys: Vec<Option<String>> = pending.iter().map(|p| workers::game_key(&p.file)).collect();
    let judge = |p: &intake::Pending| {
        let inbox = InboxOptions {
            games_dir: opts.games_dir.clone(),
            force_outbox: opts.force_outbox,
            now: (opts.clock)(),
        };
        Intake::judge(p, &inbox)
    };
    workers::each_in_game_order(opts.jobs, pending, &keys, stop, judge, |p, judged| {
        let name = p
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (fate, report) = match judged {
            Ok(j) => j,
            Err(e) => return log(&format!("error: {name}: {e}")),
        };
        if matches!(fate, Fate::Handled(_)) {
            h.count += 1;
            summary.mails += 1;
        }
        if matches!(
            fate,
            Fate::Handled(Verdict::Refused { .. } | Verdict::Failed { .. })
        ) {
            summary.refused += 1;
        }
        log(&mail_line(&name, &fate, &report));
        for e in &report.send_errors {
            h.send_failed = true;
            log(&format!("error: {e}"));
        }
        if let Err(e) = intake.settle(p, &fate) {
            log(&format!("error: {name}: {e}"));
        }
    });
    h
}

/// The log line of one mail: what became of it and how many mails it sent.
fn mail_line(name: &str, fate: &Fate, report: &InboxReport) -> String {
    let sent = report.sent.len()
        + report.count(|v| {
            matches!(
                v,
                Verdict::Refused {
                    answered: Some(_),
                    ..
                }
            )
        });
    let what = match fate {
        Fate::Handled(Verdict::Accepted {
            game,
            side,
            applied,
            ..
        }) => match side {
            Some(side) => format!("applied to {game} for the {side}: {}", applied.join(" | ")),
            None => format!("applied to {game}: {}", applied.join(" | ")),
        },
        Fate::Handled(Verdict::Filed { game, side, seq }) => {
            format!("already applied to {game} for the {side} (log entry {seq}); filed")
        }
        Fate::Handled(Verdict::Refused { game, refusal, .. }) => format!(
            "refused ({}){}",
            refusal.kind(),
            game.as_deref()
                .map(|g| format!(" for {g}"))
                .unwrap_or_default()
        ),
        Fate::Handled(Verdict::Held { refusal, .. }) => {
            format!("held for the moderator ({})", refusal.kind())
        }
        Fate::Handled(Verdict::Failed { reason }) => format!("failed: {reason}"),
        Fate::Deferred(why) => format!("left for the next pass: {why}"),
        Fate::Gone => "taken by another process".into(),
    };
    format!(
        "serve: {name}: {what}; {} sent",
        crate::text::wording::count(sent as u64, "mail", "mails")
    )
}

/// Sleeps `d`, waking early when a stop is asked for.
fn sleep(d: StdDuration, stop: &AtomicBool) {
    let end = Instant::now() + d;
    while Instant::now() < end && !signals::stopping(stop) {
        std::thread::sleep(StdDuration::from_millis(100).min(end - Instant::now()));
    }
}

/// Takes `serve`'s lock on its state folder (`serve.lock`, held until the returned file is
/// dropped): two `serve` on one spool would fetch and move each other's mails.
fn lock_state(dir: &Path) -> Result<std::fs::File, ServeError> {
    let path = dir.join("serve.lock");
    let err = |m: String| ServeError::File {
        path: path.clone(),
        message: m,
    };
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| err(e.to_string()))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(ServeError::Config(format!(
            "another `twilight serve` runs with the state folder {} (one at a time: two would \
             take each other's mails)",
            dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(err(e.to_string())),
    }
}

/// Makes `dir` (mode 0700: the spool holds mails quoting live tokens).
fn make_private_dir(dir: &Path) -> Result<(), ServeError> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir).map_err(|e| ServeError::File {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })
}
