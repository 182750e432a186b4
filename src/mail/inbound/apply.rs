//! Where a move is applied: the mail's lines for the authenticated side, all or none (several
//! decisions are first tried on a copy of the game, so a refused later line leaves the real
//! log untouched), and then committed with the mail's record and the mails it owes (its
//! receipt, the marker of the prompts owed: [`crate::mail::queue`]) written ahead of the
//! move, so a crash at any point neither loses the move, nor applies the mail twice, nor loses
//! a mail the move owes.

use std::fs;
use std::path::Path;

use chrono::{DateTime, Utc};

use super::Refusal;
use crate::data::Side;
use crate::mail::queue::{After, Queue};
use crate::mail::{Applied, MailError, MailKey, MailState};
use crate::session::{Session, SessionError};
use crate::text::notation;

fn illegal(line: &str, e: SessionError) -> Result<Refusal, MailError> {
    match e {
        SessionError::Refused { error, .. } => Ok(Refusal::Illegal {
            line: line.into(),
            why: error.to_string(),
        }),
        SessionError::Notation(n) => Ok(Refusal::Illegal {
            line: line.into(),
            why: n.to_string(),
        }),
        SessionError::State(m) | SessionError::Refusal(m) => Ok(Refusal::Illegal {
            line: line.into(),
            why: m,
        }),
        other => Err(MailError::Session(other)),
    }
}

/// A refusal of line `i` of a mail's `moves` that comes after other lines, with where it
/// stands: the line it repeats, or the line before it (which the trial on a copy of the game
/// took first), and that nothing of the mail was applied. Line 0 or another refusal is
/// returned as it is.
fn after_earlier_lines(refusal: Refusal, moves: &[String], i: usize) -> Refusal {
    let Refusal::Illegal { line, why } = refusal else {
        return refusal;
    };
    if i == 0 {
        return Refusal::Illegal { line, why };
    }
    let norm = |l: &str| {
        l.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let place = match moves[..i].iter().position(|m| norm(m) == norm(&line)) {
        Some(k) => format!(
            "line {} of your moves repeats line {}: send each move once",
            i + 1,
            k + 1
        ),
        None => format!("line {} of your moves, after `{}`", i + 1, moves[i - 1]),
    };
    Refusal::Illegal {
        line,
        why: format!("{why} ({place}; nothing of your mail was applied)"),
    }
}

/// Applies `moves` for `side`, all or none: several decisions are first tried on a copy of the
/// game in a temporary folder, so a refused later line leaves the real log untouched.
fn apply_moves(
    session: &mut Session,
    side: Side,
    moves: &[String],
    now: DateTime<Utc>,
) -> Result<Result<Vec<String>, Refusal>, MailError> {
    let mut count = 0;
    for line in moves {
        // `resign`, `offer draw`, `leave …` (correspondence moves, `schemas/NOTATION.md`): the
        // session reads them.
        if crate::session::correspondence::parse_act(line).is_some() {
            count += 1;
            continue;
        }
        match notation::parse_line(line) {
            Ok(v) => count += v.len(),
            Err(e) => {
                return Ok(Err(Refusal::Illegal {
                    line: line.clone(),
                    why: e.to_string(),
                }))
            }
        }
    }
    if count > 1 {
        let tmp = tempfile::tempdir().map_err(|e| MailError::File {
            path: std::env::temp_dir(),
            message: e.to_string(),
        })?;
        let copy = tmp.path().join(session.game_id());
        fs::create_dir_all(&copy).map_err(|e| MailError::File {
            path: copy.clone(),
            message: e.to_string(),
        })?;
        for f in ["log.yaml", "secret.yaml"] {
            fs::copy(session.dir().join(f), copy.join(f)).map_err(|e| MailError::File {
                path: session.dir().join(f),
                message: e.to_string(),
            })?;
        }
        // The replay snapshot, if any, spares the trial a replay of the log (a cache: none
        // is fine, and the trial checks it as any opening does).
        let snapshot = crate::session::SNAPSHOT_FILE;
        let _ = fs::copy(session.dir().join(snapshot), copy.join(snapshot));
        let mut trial = Session::open(&copy)?;
        for (i, line) in moves.iter().enumerate() {
            if let Err(e) = trial.play(side, std::slice::from_ref(line), now) {
                return Ok(Err(after_earlier_lines(illegal(line, e)?, moves, i)));
            }
        }
    }
    match session.play_staged(side, moves, now) {
        Ok(done) => Ok(Ok(done)),
        Err(e) => {
            let line = match &e {
                SessionError::Refused { line, .. } => line.clone(),
                _ => moves.first().cloned().unwrap_or_default(),
            };
            Ok(Err(illegal(&line, e)?))
        }
    }
}

/// Applies the authenticated `side`'s `moves`, all or none ([`apply_moves`]), and commits them
/// with the mail's record ([`commit_with_record`]): the log entry the move began at and the
/// decisions as logged, or the refusal of a line (nothing applied).
pub(super) fn apply_and_commit(
    session: &mut Session,
    state: &mut MailState,
    side: Side,
    moves: &[String],
    key: MailKey<'_>,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<Result<(u64, Vec<String>), Refusal>, MailError> {
    let seq = session.log().next_seq();
    let done = match apply_moves(session, side, moves, now)? {
        Ok(done) => done,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let record = key.applied(side, seq, now, Some(session.log().head()));
    commit_with_record(session, state, record, dir, now)?;
    Ok(Ok((seq, done)))
}

/// Writes what the staged move owes to the game's mail queue ahead of its commit (the
/// queue's module doc): the receipt of the move of `record` (its side, from its entry),
/// pending on the move's last entry — or, for a mail that staged nothing (`orders`), the
/// answer listing what it asked for — and the marker of the prompts owed; the queue's folder
/// synced.
fn queue_ahead(
    session: &Session,
    record: &Applied,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<(), MailError> {
    let (side, seq) = (record.side, record.seq);
    let queue = Queue::of(dir);
    if let (Some(after), Some(mail)) = (
        After::head_of(session.log()).filter(|_| session.log().staged() > 0),
        crate::mail::receipt::move_receipt_mail(session, side, seq)?,
    ) {
        queue.enqueue_ahead(&mail, after, now)?;
    } else if session.log().staged() == 0 {
        // A mail that adds nothing to the log (`orders`): its answer, the lines asked for.
        if let Some(mail) = crate::mail::receipt::answer_mail(session, side, &record.digest)? {
            queue.enqueue(&mail, now)?;
        }
    }
    crate::mail::queue::owe(dir)?;
    queue.sync()?;
    crate::gamefs::crash_point("queue-ahead");
    Ok(())
}

/// Commits `session`'s staged move with `record`, the mail's [`Applied`] record, written ahead
/// into the game's mail state: the record names the move's last entry, so after a crash in
/// between it counts exactly when the move is in the log (a record whose entry the log does not
/// hold is of a move that was never applied). If the commit fails, the record is taken back.
fn commit_with_record(
    session: &mut Session,
    state: &mut MailState,
    record: Applied,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<(), MailError> {
    queue_ahead(session, &record, dir, now)?;
    state.applied.push(record);
    // The record's new name needs its folder synced before the move's first write:
    // the commit's journal, written atomically in the same folder, syncs it (a move
    // with nothing staged writes no journal: then here). Killed at any point, the
    // renamed file stays as written.
    state.save_unsynced(dir)?;
    crate::gamefs::crash_point("mail-state-ahead");
    if session.log().staged() == 0 {
        crate::gamefs::sync_dir(dir).map_err(|e| MailError::File {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
    }
    let committed = session.commit();
    // The receipt written ahead is owed now if the move is in the log, else dropped.
    let _ = Queue::of(dir).settle(session.log());
    if let Err(e) = committed {
        state.applied.pop();
        state.save(dir)?;
        return Err(e.into());
    }
    Ok(())
}
