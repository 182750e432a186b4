//! `twilight remind` under a time control, run by the moderator from cron:
//!
//! * a reminder to the side that owes a decision at each of the game's `remind_hours_before`
//!   points before its deadline (once per point and decision): the prompt again, with its
//!   token and options, so that a reply to it is a move;
//! * once the deadline has passed, a notice to both players that the side is late, with the
//!   end of grace (once per decision);
//! * at the end of grace, the timeout recorded in the log ([`Session::record_timeout`]) and
//!   the rule applied; the players are told, by notices queued ahead of the timeout's commit
//!   (the game-over mails follow from [`crate::mail::queue::queue_due`]);
//! * never a late notice nor a timeout for a side whose prompt is still queued or went out
//!   after its deadline ([`crate::mail::queue::prompt_sent_at`]).
//!
//! What was sent is kept in `GAME_DIR/clock-mail.yaml` (keys naming side, stretch and point),
//! written after the notice is queued with a Message-ID made of its key, so running `remind`
//! every few minutes, or again after a crash, sends each notice once. Times are shown in each
//! player's time zone.

use std::collections::BTreeSet;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use lettre::message::header::ContentType;
use lettre::Message;
use serde::{Deserialize, Serialize};

use super::clock::{clock_at, human};
use super::local;
use crate::data::Side;
use crate::mail::outbound::{compose, subject_tag, Purpose};
use crate::mail::queue::{self, After, DrainReport, Kind, Mail, Queue};
use crate::mail::transport::Transport;
use crate::mail::{MailConfig, MailError, MailState};
use crate::session::Session;

/// `GAME_DIR/clock-mail.yaml`: the notices already sent.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Sent {
    /// Keys of the notices sent (`remind us 2027-01-01T12:00:00Z 48`, `late us …`).
    #[serde(default)]
    pub sent: BTreeSet<String>,
}

impl Sent {
    fn load(dir: &Path) -> Result<Sent, MailError> {
        crate::mail::read_yaml(&dir.join("clock-mail.yaml"))
    }

    fn save(&self, dir: &Path) -> Result<(), MailError> {
        let path = dir.join("clock-mail.yaml");
        let text = serde_yaml::to_string(self).map_err(|e| MailError::Build(e.to_string()))?;
        crate::gamefs::atomic_write(&path, text.as_bytes(), "clock-mail").map_err(|e| {
            MailError::File {
                path,
                message: e.to_string(),
            }
        })
    }
}

/// One notice `remind` sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The address mailed.
    pub to: String,
    /// The side it went to.
    pub side: Side,
    /// Its subject.
    pub subject: String,
    /// Its text.
    pub text: String,
}

fn address(s: &Session, side: Side) -> String {
    match side {
        Side::Us => s.players().us.clone(),
        Side::Ussr => s.players().ussr.clone(),
    }
}

/// The notice `subject`/`text` to `side` as a mail to queue, its Message-ID made of `what`
/// (what decided it: the same notice decided again after a crash is the same mail).
pub(crate) fn notice(
    s: &Session,
    side: Side,
    subject: String,
    text: String,
    what: &str,
) -> Result<(Mail, Notice), MailError> {
    let from = MailConfig::load(s.dir())?.sender();
    let text = text + &s.host_notice_after_text(Some(&from));
    let to = address(s, side);
    let mailbox = |a: &str| {
        a.parse::<lettre::message::Mailbox>()
            .map_err(|e| MailError::Config(format!("bad address `{a}`: {e}")))
    };
    let id = queue::stable_id(
        &from,
        s.game_id(),
        &format!("{}.{what}", side.name().to_ascii_lowercase()),
    );
    let m = Message::builder()
        .from(mailbox(&from)?)
        .to(mailbox(&to)?)
        .subject(subject.clone())
        .message_id(Some(format!("<{id}>")))
        .header(ContentType::TEXT_PLAIN)
        .body(text.clone())
        .map_err(|e| MailError::Build(e.to_string()))?;
    let mail = Mail {
        message: m,
        kind: Kind::Notice,
        to: to.clone(),
        side: Some(side),
        whom: side.to_string(),
        label: subject.clone(),
    };
    Ok((
        mail,
        Notice {
            to,
            side,
            subject,
            text,
        },
    ))
}

/// A short digest of `key` for a Message-ID.
fn short(key: &str) -> String {
    queue::key_of(key)[..16].to_string()
}

/// Queues the notices due at `now`, records a timeout whose grace has ended, and sends the
/// game's queue through `transport` (see the module doc). Returns the notices queued. A game
/// without a time control, or over, owes none.
///
/// # Errors
///
/// As [`run_with_report`].
pub fn run(
    s: &mut Session,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<Vec<Notice>, MailError> {
    run_with_report(s, transport, now).map(|(n, _)| n)
}

/// [`run`], with what the game's queue sent (the prompts and notices, in order).
///
/// Before anything else, the prompts the game owes and has not composed are queued and the
/// queue is sent: a side whose prompt is still queued after that (the mail server down), or
/// went out only after its deadline (a crash, an outage), gets no late notice and no timeout —
/// it was not asked in time ([`queue::prompt_sent_at`]); the report's errors say so. A game
/// whose moderator mails nothing (no mail of it composed, [`queue::is_mailed`]) is held to
/// its clock alone, as before. The notices are queued before what records them as sent
/// (`clock-mail.yaml`), each with a Message-ID made of what decided it, so that a crash in
/// between queues the same mail again, once. A timeout's notices are composed from the
/// timeout as staged and queued ahead of its commit ([`queue::Queue::enqueue_ahead`]).
///
/// # Errors
///
/// A mail that could not be queued or a state file that could not be written (the notices
/// queued before it stay queued); the log's error if the timeout could not be recorded.
pub fn run_with_report(
    s: &mut Session,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<(Vec<Notice>, DrainReport), MailError> {
    let mut out = Vec::new();
    let settings = s.correspondence().settings.clone();
    if settings.time_control.is_none() || s.is_revealed() {
        return Ok((out, DrainReport::default()));
    }
    if s.game().is_none_or(|g| g.outcome().is_some()) {
        return Ok((out, DrainReport::default()));
    }
    // The prompts owed go out first: a side is told it is late, or timed out, only once
    // prompted before its deadline.
    let mailed = queue::is_mailed(s.dir())?;
    if mailed {
        queue::queue_due(s, false, now)?;
    }
    let mut report = queue::flush(s, transport, now, false);
    let dir = s.dir().to_path_buf();
    let mut sent = Sent::load(&dir)?;
    for side in Side::BOTH {
        let c = clock_at(s.correspondence(), side, now);
        let (Some(since), Some(deadline), Some(end)) = (c.owing_since, c.deadline, c.timeout_at)
        else {
            continue;
        };
        if mailed && now >= deadline {
            match queue::prompt_sent_at(s, side)? {
                Some(t) if t <= deadline => {}
                Some(t) => {
                    report.notes.push(unprompted(s, side, deadline, Some(t)));
                    continue;
                }
                None => {
                    report.errors.push(unprompted(s, side, deadline, None));
                    continue;
                }
            }
        }
        let stretch = since.to_rfc3339();
        if now >= end {
            out.extend(timeout(s, side, deadline, end, mailed, now)?);
            break;
        }
        if now >= deadline {
            out.extend(late(s, &mut sent, side, &stretch, deadline, end, now)?);
            continue;
        }
        out.extend(reminder(
            s, &mut sent, side, &stretch, deadline, mailed, now,
        )?);
    }
    report.merge(queue::flush(s, transport, now, false));
    Ok((out, report))
}

/// The line telling the moderator why `side` is not told it is late nor timed out: its prompt
/// went out after its deadline (`at`), or has not gone out.
fn unprompted(
    s: &Session,
    side: Side,
    deadline: DateTime<Utc>,
    at: Option<DateTime<Utc>>,
) -> String {
    let why = match at {
        Some(t) => format!(
            "its prompt went out {}, after its deadline {}",
            t.format("%Y-%m-%d %H:%M UTC"),
            deadline.format("%Y-%m-%d %H:%M UTC")
        ),
        None => "its prompt has not gone out (it is queued: the mail server took no mail)".into(),
    };
    format!(
        "{}: the {side} is past its deadline, but {why}: no late notice and no timeout are \
         recorded for a side that was not asked in time (its move is still taken; `twilight \
         adjudicate` rules if the game must end)",
        s.dir().display()
    )
}

/// The end of grace: the timeout staged, its notices to both players composed and queued
/// ahead of its commit (with, in a game `mailed`, the marker of the game-over mails), then
/// committed.
fn timeout(
    s: &mut Session,
    side: Side,
    deadline: DateTime<Utc>,
    end: DateTime<Utc>,
    mailed: bool,
    now: DateTime<Utc>,
) -> Result<Vec<Notice>, MailError> {
    let settings = s.correspondence().settings.clone();
    let tag = subject_tag(s.game_id());
    s.stage_timeout(side, now)
        .map_err(|e| MailError::Config(e.to_string()))?;
    let result = match s.game().and_then(|g| g.outcome()) {
        Some(o) => match o.winner {
            Some(w) => format!("The {w} wins by timeout."),
            None => "The game is drawn.".to_string(),
        },
        None => "The moderator will adjudicate the game (`twilight adjudicate`).".into(),
    };
    let queue = Queue::of(s.dir());
    let mut out = Vec::new();
    let mut ahead = || -> Result<(), MailError> {
        let after =
            After::head_of(s.log()).ok_or_else(|| MailError::Config("an empty log".into()))?;
        for to in Side::BOTH {
            let text = format!(
                "Game {}: the {side} ran out of time. Its deadline was {} and the grace period ended {}.\n{result}\n",
                s.game_id(),
                local(deadline, settings.offset(to)),
                local(end, settings.offset(to)),
            );
            let (mail, n) = notice(
                s,
                to,
                format!("{tag} Timeout — the {side} ran out of time"),
                text,
                &format!("timeout.s{}", after.seq),
            )?;
            queue.enqueue_ahead(&mail, after, now)?;
            out.push(n);
        }
        if mailed {
            queue::owe(s.dir())?;
        }
        queue.sync()
    };
    if let Err(e) = ahead() {
        // Nothing of the timeout is written: its entries dropped, the mails written ahead
        // dropped with them.
        let _ = s.drop_staged();
        let _ = queue.settle(s.log());
        return Err(e);
    }
    crate::gamefs::crash_point("timeout-queued");
    let committed = s.commit();
    // The notices written ahead are owed now if the timeout is in the log, else dropped.
    let _ = queue.settle(s.log());
    committed.map_err(|e| MailError::Config(e.to_string()))?;
    Ok(out)
}

/// Past the deadline: the late notice to both players, once per stretch.
fn late(
    s: &Session,
    sent: &mut Sent,
    side: Side,
    stretch: &str,
    deadline: DateTime<Utc>,
    end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<Vec<Notice>, MailError> {
    let settings = &s.correspondence().settings;
    let key = format!("late {side} {stretch}");
    if sent.sent.contains(&key) {
        return Ok(Vec::new());
    }
    let tag = subject_tag(s.game_id());
    let queue = Queue::of(s.dir());
    let mut out = Vec::new();
    for to in Side::BOTH {
        let whom = if to == side {
            "You are".to_string()
        } else {
            format!("Your opponent (the {side}) is")
        };
        let text = format!(
            "Game {}: {whom} late. The deadline was {}; the grace period ends {} ({} from now), when the timeout is recorded ({}).\n",
            s.game_id(),
            local(deadline, settings.offset(to)),
            local(end, settings.offset(to)),
            human(end - now),
            match settings.on_timeout {
                super::TimeoutRule::Loses => "the late side loses",
                super::TimeoutRule::Adjudicate => "the moderator adjudicates",
            }
        );
        let (mail, n) = notice(
            s,
            to,
            format!("{tag} Late — the {side} is past its deadline"),
            text,
            &format!("late.{}", short(&key)),
        )?;
        queue.enqueue(&mail, now)?;
        out.push(n);
    }
    queue.sync()?;
    crate::gamefs::crash_point("notice-queued");
    sent.sent.insert(key);
    sent.save(s.dir())?;
    Ok(out)
}

/// Before the deadline: the reminder at the nearest point passed, once (the points before it
/// count as sent with it). In a game `mailed` ([`queue::is_mailed`]) the reminder is the
/// prompt again ([`crate::mail::outbound::compose`] with [`Purpose::Reminder`]): the decision,
/// the options, the reply token and the deadline, its Message-ID bound to the token, so that
/// replying to it is replying to the prompt. In a game whose moderator mails no prompts (the
/// moves are typed), a short notice of the deadline.
fn reminder(
    s: &Session,
    sent: &mut Sent,
    side: Side,
    stretch: &str,
    deadline: DateTime<Utc>,
    mailed: bool,
    now: DateTime<Utc>,
) -> Result<Vec<Notice>, MailError> {
    let settings = &s.correspondence().settings;
    let mut points = settings.remind_hours_before.clone();
    points.sort_unstable();
    let passed: Vec<u32> = points
        .iter()
        .copied()
        .filter(|h| now >= deadline - Duration::hours(i64::from(*h)))
        .collect();
    let Some(&nearest) = passed.first() else {
        return Ok(Vec::new());
    };
    let key = |h: u32| format!("remind {side} {stretch} {h}");
    if sent.sent.contains(&key(nearest)) {
        return Ok(Vec::new());
    }
    let dir = s.dir();
    if !mailed {
        let text = format!(
            "Game {}: a reminder — your decision is due by {} ({} from now).\n",
            s.game_id(),
            super::local(deadline, settings.offset(side)),
            human(deadline - now)
        );
        let (mail, n) = notice(
            s,
            side,
            format!(
                "{} Reminder — decision due in {}",
                subject_tag(s.game_id()),
                human(deadline - now)
            ),
            text,
            &format!("remind.{}", short(&key(nearest))),
        )?;
        let queue = Queue::of(dir);
        queue.enqueue(&mail, now)?;
        queue.sync()?;
        crate::gamefs::crash_point("notice-queued");
        for h in passed {
            sent.sent.insert(key(h));
        }
        sent.save(dir)?;
        return Ok(vec![n]);
    }
    let config = MailConfig::load(dir)?;
    let mut state = MailState::load(dir)?;
    let mut o = compose(s, &config, &mut state, side, Purpose::Reminder, now)?;
    o.subject = format!(
        "{} Reminder — decision due in {}: {}",
        subject_tag(s.game_id()),
        human(deadline - now),
        s.game()
            .and_then(|g| g.prompt_for(side))
            .map_or("", |p| p.text.as_str())
    );
    let queue = Queue::of(dir);
    queue::queue_outgoing(&queue, s, &o, now)?;
    queue.sync()?;
    crate::gamefs::crash_point("notice-queued");
    state.save(dir)?;
    for h in passed {
        sent.sent.insert(key(h));
    }
    sent.save(dir)?;
    Ok(vec![Notice {
        to: o.to,
        side,
        subject: o.subject,
        text: o.text,
    }])
}
