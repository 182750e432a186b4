//! The transactional outbox (design §9 "every mail or notification it owes are committed
//! together"; design §5 "Outbound"): every mail a change of a game owes is on disk, in the
//! game's queue `GAME_DIR/mail-queue/`, before the change is, and a sender drains the queues.
//!
//! # Why this is atomic with the move
//!
//! A move is one transaction: its entries reach `log.yaml` in one append, made durable by one
//! fsync, and a crash leaves the log without the move or with all of it (design §2 "One move,
//! one transaction"; [`crate::log::Log::commit`]). No second file can be written in the same
//! fsync, so the mails a move owes are made durable *before* it, in one of two ways, each
//! settled by whether the log holds the move:
//!
//! * **Written ahead, keyed by the move's last entry.** A mail whose words are fixed by the
//!   move (the receipt echoing its entries, the timeout notices) is composed from the move as
//!   staged and written to the queue as *pending* ([`Queue::enqueue_ahead`]): its record
//!   names the seq and hash of the move's last entry ([`After`]). The folder is synced, then
//!   the move is committed. The holder of the game's lock (this process after its commit, or
//!   the next one after a crash; [`Queue::settle`]) makes a pending mail owed when the log
//!   holds that entry and drops it when it does not: a crash before the commit leaves a
//!   mail of a move never made, which is never sent. A hash names its entry and all before
//!   it (the chain), so no other move can make a pending mail owed.
//! * **Owed by the position, composed after.** The prompts and updates are what the game
//!   owes in its position ([`crate::mail::outbound::due`], a function of the log and
//!   `mail-state.yaml`). Before a change, the marker `owed` is written and synced
//!   ([`owe`]); after the commit (or, after a crash, in the next run of any command that
//!   drains) they are composed and queued ([`queue_due`]), `mail-state.yaml` saved, the
//!   marker removed. A crash between queueing and saving composes them again with the same
//!   Message-ID (it is made of the game, the side, the player's mail count, the log's seq and
//!   the reply token), which the queue finds there or in `sent.log` and does not add again.
//!
//! Mails owed by no commit (the reply to a refused mail, the reminders of `remind`, the
//! re-sent prompts of `twilight mail`) are queued, with a Message-ID made of what decided
//! them, before what records them as done (the refused mail filed, `clock-mail.yaml`
//! written): after a crash in between, the same decision queues the same Message-ID, found
//! and not added again.
//!
//! # The sender
//!
//! [`flush`] (a command holding the game's lock), [`drain_game`] and [`drain_all`] (a process
//! that may not) send the owed mails in the order queued, one process per game at a time
//! (`mail-queue/.send-lock`). A mail is recorded as sent (a line of `sent.log`, synced) only
//! after the SMTP server accepted it, or its `.eml` file in the outbox folder was written and
//! synced; a crash between the two sends that one mail again with the same Message-ID, which
//! mail clients show once (to the outbox folder it goes to the same file name, replacing
//! itself). A failed try leaves the mail queued with a back-off ([`backoff`]: 1 minute,
//! doubling, at most an hour), recorded in its record; it is reported by every drain, never
//! dropped. A failure that is not the server's refusal of that one mail (a connection that
//! failed, a 4xx reply) stops the game's queue until the next try, keeping the order.
//!
//! `remind` never records a timeout for a side whose prompt is still queued or was never
//! sent, or went out after its deadline ([`prompt_sent_at`]).
//!
//! The files are described in `store.rs`; the sender in `drain.rs`.

mod drain;
mod store;

use std::path::Path;

use chrono::{DateTime, Utc};

pub use self::drain::{
    backoff, drain_all, drain_game, flush, Delivered, DrainReport, Failed, FIRST_BACKOFF,
    MAX_BACKOFF, SEND_LOCK_WAIT,
};
pub use self::store::{
    key_of, message_id_of, After, Enqueued, Kind, Mail, Queue, Record, QUEUE_DIR,
};

use super::outbound::{compose, due, to_message, Outgoing, Purpose};
use super::{MailConfig, MailError, MailState};
use crate::data::Side;
use crate::session::Session;

/// Marks that the game in `game_dir` may owe prompts or updates from the change about to be
/// committed (the `owed` marker, synced): call it before the commit. The next flush or drain
/// composes what [`crate::mail::outbound::due`] names then, and removes the marker.
///
/// # Errors
///
/// The marker could not be written (then commit nothing).
pub fn owe(game_dir: &Path) -> Result<(), MailError> {
    Queue::of(game_dir).mark_owed()
}

/// Composes the mails the game owes now ([`crate::mail::outbound::due`]; every current prompt
/// again with `resend`; before the game starts, the invitations of the players who have not
/// joined), queues them, saves the threading record of `mail-state.yaml`, and
/// (without `resend`) removes the `owed` marker. Returns the mails composed (queued now or
/// found queued or sent already: the same Message-ID). Call it holding the game's lock.
///
/// # Errors
///
/// The mail settings or state could not be read, a mail could not be composed, or a file
/// could not be written; what was queued before stays queued.
pub fn queue_due(
    session: &Session,
    resend: bool,
    now: DateTime<Utc>,
) -> Result<Vec<Outgoing>, MailError> {
    let dir = session.dir();
    let queue = Queue::of(dir);
    let config = MailConfig::load(dir)?;
    let mut state = MailState::load(dir)?;
    let mut out = Vec::new();
    if session.game().is_none() && !session.is_revealed() {
        // A game not started owes the invitations of the players who have not joined.
        super::invite::queue_invitations(session, now)?;
    }
    for (side, purpose) in due(session, &config, &state, resend) {
        let o = compose(session, &config, &mut state, side, purpose, now)?;
        queue_outgoing(&queue, session, &o, now)?;
        out.push(o);
    }
    queue.sync()?;
    if !out.is_empty() {
        state.save(dir)?;
    }
    if !resend {
        queue.clear_owed()?;
    }
    Ok(out)
}

/// Queues one composed prompt, update, game-over mail or reminder.
pub(crate) fn queue_outgoing(
    queue: &Queue,
    session: &Session,
    o: &Outgoing,
    now: DateTime<Utc>,
) -> Result<Enqueued, MailError> {
    let kind = match o.purpose {
        Purpose::Prompt | Purpose::Reminder => Kind::Prompt,
        Purpose::Update => Kind::Update,
        Purpose::GameOver => Kind::GameOver,
    };
    queue.enqueue(
        &Mail {
            message: to_message(o, session.game_id())?,
            kind,
            to: o.to.clone(),
            side: Some(o.side),
            whom: o.side.to_string(),
            label: o.subject.clone(),
        },
        now,
    )
}

/// A Message-ID made of what decided a mail (`ts.GAME.WHAT@DOMAIN`, the domain of the
/// sender `from`), without angle brackets: the same decision made again after a crash makes
/// the same Message-ID, so the mail is queued once. `what` is made safe for a Message-ID
/// (characters other than letters, digits, `-`, `_` and `.` become `_`).
pub fn stable_id(from: &str, game_id: &str, what: &str) -> String {
    use crate::mail::outbound::{domain_of, id_safe};
    format!(
        "ts.{}.{}@{}",
        id_safe(game_id),
        id_safe(what),
        id_safe(&domain_of(from))
    )
}

/// When `side`'s prompt for the decision it owes now went out: `None` while it is not composed
/// (the game owes it and has not queued it), or queued and not sent; else the time `sent.log`
/// records for it (a prompt sent before this queue kept `sent.log`: the time it was composed).
/// What `remind` asks before it tells a side it is late or records its timeout.
///
/// # Errors
///
/// The mail settings, state or `sent.log` could not be read.
pub fn prompt_sent_at(session: &Session, side: Side) -> Result<Option<DateTime<Utc>>, MailError> {
    let dir = session.dir();
    let queue = Queue::of(dir);
    let config = MailConfig::load(dir)?;
    let state = MailState::load(dir)?;
    let owed_now = due(session, &config, &state, false)
        .iter()
        .any(|(s, p)| *s == side && *p == Purpose::Prompt);
    let rec = state.player(side);
    let Some(id) = rec.prompt_id.as_ref().or(rec.last_id.as_ref()) else {
        return Ok(None);
    };
    if owed_now || queue.is_queued(id) {
        return Ok(None);
    }
    Ok(Some(match queue.sent_at(id)? {
        Some(t) => t,
        None => rec
            .owed_since
            .or(rec.last_at)
            .unwrap_or(DateTime::<Utc>::MIN_UTC),
    }))
}

/// Whether the game's mail goes through the queue at all: a mail of it was composed for a
/// player, or prompts are marked owed. A game whose moderator mails nothing (`--no-mail`,
/// a game made through the library) is not held to [`prompt_sent_at`] by `remind`.
///
/// # Errors
///
/// The mail state could not be read.
pub fn is_mailed(game_dir: &Path) -> Result<bool, MailError> {
    let state = MailState::load(game_dir)?;
    Ok(Queue::of(game_dir).owes_prompts()
        || state.us.last_id.is_some()
        || state.ussr.last_id.is_some())
}

#[cfg(test)]
use self::drain::send_owed;
#[cfg(test)]
mod tests;
