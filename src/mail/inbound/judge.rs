//! Judging one mail, step by step in the order the mail goes through them (design §5):
//!
//! 1. [`receive`]: read it as a person would ([`crate::mail::reply`]);
//! 2. [`identify_game`]: the game it names, and its folder; [`lock_game`] takes the game's lock
//!    (held until the mail is filed) and makes sure no other run took the mail meanwhile;
//! 3. [`identify_sender`]: the sides (or, before a bid, the seats) the sender plays;
//! 4. [`forget_stopped_moves`] and [`refuse_replay`]: a mail is applied once;
//! 5. authenticate: the candidate tokens ([`candidate_tokens`]) checked for the sender
//!    ([`authenticate_sender`]) — or, before the game starts, the bid or the join the mail
//!    carries, judged whole by [`crate::mail::bid_mail`] and [`crate::mail::invite`];
//! 6. [`refuse_unreadable`], then [`apply_and_commit`]: the move lines, all or none,
//!    committed with the mail's record.
//!
//! Answering the mail (step 7: the receipt, or the reply to a refusal) comes after, in
//! [`super::answer`]. Before the sender is authenticated the work per mail is bounded: the
//! message and its text by [`crate::mail::reply::MAX_MESSAGE_BYTES`] and
//! [`crate::mail::reply::MAX_TEXT_BYTES`], the candidate tokens by
//! [`crate::mail::reply::MAX_TOKENS`], and the look for stopped moves by the last record the
//! log holds.

use std::path::{Path, PathBuf};

use super::apply::apply_and_commit;
use super::authenticate::{authenticate_sender, candidate_tokens};
use super::identify::{game_dir_of, game_from_subject, sender_of, sides_of};
use super::{read_message, InboxOptions, Received, Refusal};
use crate::data::Side;
use crate::mail::reply::{self, extract, Extracted};
use crate::mail::{Applied, MailError, MailKey, MailState};
use crate::session::{Session, SessionError};

/// One message as judging found it: what answering and filing it need.
#[derive(Default)]
pub(super) struct Context {
    /// The message as read (or, for one too broken to read, its sender if its headers name one).
    pub(super) received: Option<Received>,
    /// The game it names, as its folder spells it once found.
    pub(super) game: Option<String>,
    /// The game's folder.
    pub(super) game_dir: Option<PathBuf>,
    /// Its move lines.
    pub(super) moves: Vec<String>,
    /// The lines of its text read as no move.
    pub(super) ignored: Vec<String>,
    /// The sides the sender plays in the game (empty: no player, or not known yet).
    pub(super) sides: Vec<Side>,
    /// The side authenticated by the token.
    pub(super) side: Option<Side>,
    /// The first log entry of an accepted move, for its receipt.
    pub(super) receipt_from: Option<u64>,
    /// The game's lock, held from reading the game to filing the mail, so that no other
    /// command changes the game in between.
    pub(super) lock: Option<crate::gamefs::GameLock>,
    /// The mail left its folder while we waited for the lock: another inbox run took it.
    pub(super) gone: bool,
    /// What the lock's recovery set aside, to tell.
    pub(super) recovered: Option<String>,
    /// The game after an accepted move, as this process replayed it: opened again from it
    /// ([`Session::reopen`]) for the receipt and the prompts instead of from the disk.
    pub(super) session: Option<Session>,
    /// This very file was applied by an earlier run (at this log entry) that could not file
    /// it: it is filed now, not answered.
    pub(super) unfiled: Option<u64>,
    /// Why the receipt of a join or a sealed bid could not be queued, to tell.
    pub(super) receipts: Vec<String>,
}

/// An applied mail: the game, the side (`None`: a seat's sealed bid, before the sides are
/// decided), the decisions as logged.
pub(super) type AcceptedMoves = crate::mail::invite::Joined;

/// Processes one message: returns the verdict (refusals not yet answered); `ctx` says what the
/// answer and the filing need (the game folder whose prompts are due, when accepted).
pub(super) fn judge(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
    source: &str,
    still_there: &dyn Fn() -> bool,
) -> Result<Result<AcceptedMoves, Refusal>, MailError> {
    match judge_steps(raw, opts, ctx, source, still_there) {
        Ok(accepted) | Err(Stop::Decided(accepted)) => Ok(Ok(accepted)),
        Err(Stop::Refused(refusal)) => Ok(Err(refusal)),
        Err(Stop::Error(e)) => Err(e),
    }
}

/// Why judging a mail ended before the last step.
enum Stop {
    /// Accepted without a move of the game: a seat's bid, a join, or this very file applied
    /// by an earlier run.
    Decided(AcceptedMoves),
    /// Refused: nothing appended.
    Refused(Refusal),
    /// An error that is no refusal of the mail.
    Error(MailError),
}

impl From<MailError> for Stop {
    fn from(e: MailError) -> Stop {
        Stop::Error(e)
    }
}

impl From<SessionError> for Stop {
    fn from(e: SessionError) -> Stop {
        Stop::Error(e.into())
    }
}

impl From<Refusal> for Stop {
    fn from(r: Refusal) -> Stop {
        Stop::Refused(r)
    }
}

impl Stop {
    /// How a judgement made whole elsewhere (a bid, a join) ends this one.
    fn judged(judged: Result<Result<AcceptedMoves, Refusal>, MailError>) -> Stop {
        match judged {
            Ok(Ok(accepted)) => Stop::Decided(accepted),
            Ok(Err(refusal)) => Stop::Refused(refusal),
            Err(e) => Stop::Error(e),
        }
    }
}

/// The steps of [`judge`], in order (see the module doc).
fn judge_steps(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
    source: &str,
    still_there: &dyn Fn() -> bool,
) -> Result<AcceptedMoves, Stop> {
    let (received, ex) = receive(raw, opts, ctx)?;
    let (dir, id) = identify_game(&received, &ex, opts, ctx)?;
    lock_game(&dir, ctx, still_there)?;
    let mut session = Session::open(&dir)?;
    let (seats, sides) = identify_sender(&session, &received)?;
    ctx.sides = sides.clone();
    let mut state = MailState::load(&dir)?;
    forget_stopped_moves(&session, &mut state);
    refuse_replay(&state, &received, source, &id, ctx)?;
    let key = MailKey {
        message_id: &received.message_id,
        digest: &received.digest,
        source,
    };
    let (tokens, set_aside) = candidate_tokens(&session, &sides, &ex, &received);
    // A join or a bid a crash stopped before it was recorded: judged again as such, even once
    // the game has started.
    let seats = if seats.is_empty() {
        let all = session.seats_of(&received.from);
        crate::mail::bid_mail::unrecorded_bids(&session, &state, &all, &received.body)
    } else {
        seats
    };
    let unrecorded_join =
        crate::mail::invite::is_unrecorded_join(&session, &state, &sides, &received.body);
    if !seats.is_empty() {
        return Err(Stop::judged(crate::mail::bid_mail::judge_bid(
            &mut session,
            &seats,
            &received.body,
            &tokens,
            key,
            opts.now,
            &mut ctx.receipts,
        )));
    }
    if session.game().is_none() || unrecorded_join {
        // A game not started yet: the mail is a join reply (`invite.rs`).
        return Err(Stop::judged(crate::mail::invite::judge_join(
            &mut session,
            &sides,
            &received.body,
            &tokens,
            key,
            opts.now,
            &mut ctx.receipts,
        )));
    }
    let side = authenticate_sender(&session, &sides, &tokens, &ex.moves, set_aside)?;
    ctx.side = Some(side);
    refuse_unreadable(&ex)?;
    let applied = apply_and_commit(
        &mut session,
        &mut state,
        side,
        &ex.moves,
        key,
        &dir,
        opts.now,
    )?;
    let (from, done) = applied?; // a line refused: nothing applied
    ctx.receipt_from = Some(from);
    ctx.session = Some(session);
    Ok((id, Some(side), done))
}

/// Reads the mail and its text ([`read_message`], [`extract`]). A mail too broken to read is
/// refused; its sender and game are still looked for in its headers, to answer it.
fn receive(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
) -> Result<(Received, Extracted), Stop> {
    let received = match read_message(raw) {
        Ok(r) => r,
        Err(r) => {
            // Answer the sender if the headers name one and a game of theirs.
            ctx.received = sender_of(raw);
            if let Some(id) = ctx
                .received
                .as_ref()
                .and_then(|rc| game_from_subject(&rc.subject))
            {
                let found = game_dir_of(&opts.games_dir, &id);
                ctx.game = Some(found.as_ref().map_or(id, |(_, name)| name.clone()));
                ctx.game_dir = found.map(|(d, _)| d);
            }
            return Err(Stop::Refused(r));
        }
    };
    let ex = extract(&received.body, &received.all_text);
    ctx.moves = ex.moves.clone();
    ctx.ignored = ex.ignored.clone();
    ctx.received = Some(received.clone());
    Ok((received, ex))
}

/// The game the mail names (the subject's tag, else a `Game:` line, else the prompt it
/// answers) and its folder, with the game's id as the folder spells it.
fn identify_game(
    received: &Received,
    ex: &Extracted,
    opts: &InboxOptions,
    ctx: &mut Context,
) -> Result<(PathBuf, String), Stop> {
    let id = game_from_subject(&received.subject)
        .or(ex.game.clone())
        .or_else(|| {
            received
                .answers
                .iter()
                .find_map(|a| reply::parse_prompt_id(a).map(|p| p.0))
        });
    let Some(id) = id else {
        return Err(Stop::Refused(Refusal::UnknownGame(None)));
    };
    ctx.game = Some(id.clone());
    let Some((dir, id)) = game_dir_of(&opts.games_dir, &id) else {
        return Err(Stop::Refused(Refusal::UnknownGame(Some(id))));
    };
    ctx.game = Some(id.clone());
    ctx.game_dir = Some(dir.clone());
    Ok((dir, id))
}

/// Takes the game's lock (kept in `ctx` until the mail is filed), then checks that the mail is
/// still there: if another inbox run filed it while this one waited, it is not judged here.
fn lock_game(dir: &Path, ctx: &mut Context, still_there: &dyn Fn() -> bool) -> Result<(), Stop> {
    let (lock, recovered) = Session::lock(dir)?;
    ctx.lock = Some(lock);
    ctx.recovered = recovered;
    if !still_there() {
        ctx.gone = true;
        return Err(Stop::Refused(Refusal::NoMove));
    }
    Ok(())
}

/// The seats (a bid game before the bid) and the sides the sender plays; a mail from anyone
/// else is refused.
fn identify_sender(session: &Session, received: &Received) -> Result<(Vec<u8>, Vec<Side>), Stop> {
    // A bid game before the bid: the sender is a seat (FAIRNESS.md §14).
    let seats = if session.awaiting_bids() {
        session.seats_of(&received.from)
    } else {
        Vec::new()
    };
    let sides = sides_of(session, &received.from);
    if sides.is_empty() && seats.is_empty() {
        return Err(Stop::Refused(Refusal::NotAPlayer {
            sender: received.from.clone(),
        }));
    }
    Ok((seats, sides))
}

/// Drops the records of `state` whose move a crash stopped before its commit (see
/// `commit_with_record` in `apply.rs`): such a mail was never applied.
fn forget_stopped_moves(session: &Session, state: &mut MailState) {
    // A record written ahead of a move whose commit a crash stopped names an entry the log
    // does not hold: that mail was never applied.
    let in_log = |a: &Applied| {
        a.entry
            .is_none_or(|h| session.log().since(a.seq).iter().any(|e| e.hash == h))
    };
    // Records are added in the log's order and each run drops those of stopped moves before
    // it adds one: only the records after the last one found in the log can be stale, so the
    // search stops there (reading only recent entries of a long log).
    let found = state.applied.iter().rposition(in_log).map_or(0, |i| i + 1);
    let mut i = 0;
    state.applied.retain(|a| {
        i += 1;
        i <= found || in_log(a)
    });
}

/// Refuses a mail already applied (the same bytes or the same Message-ID) — unless it is this
/// very file, applied by an earlier run that could not file it: that one is filed now,
/// quietly.
fn refuse_replay(
    state: &MailState,
    received: &Received,
    source: &str,
    id: &str,
    ctx: &mut Context,
) -> Result<(), Stop> {
    if let Some(a) = state.applied.iter().find(|a| {
        a.digest == received.digest
            || (!received.message_id.is_empty() && a.message_id == received.message_id)
    }) {
        // This very file, applied by a run that could not file it: file it now, quietly.
        if a.source.as_deref() == Some(source) {
            ctx.unfiled = Some(a.seq);
            return Err(Stop::Decided((id.to_string(), Some(a.side), Vec::new())));
        }
        return Err(Stop::Refused(Refusal::Replayed {
            at: a.at,
            seq: a.seq,
        }));
    }
    Ok(())
}

/// Refuses a mail with no move line, or with a move cut inside a name by a hard wrap.
fn refuse_unreadable(ex: &Extracted) -> Result<(), Refusal> {
    if ex.moves.is_empty() {
        return Err(Refusal::NoMove);
    }
    // A move cut inside a name by a hard wrap: refused whole, naming both lines, never read
    // as the shorter move it would make (`East` alone reads as East Germany 1).
    if let Some((line, next, name)) = &ex.cut {
        return Err(Refusal::Illegal {
            line: line.clone(),
            why: format!(
                "the line seems cut in two by your mail program: the next line `{next}` goes on \
                 with `{name}`. Nothing was applied; send the move again on one line (a long \
                 move may be broken after a comma)."
            ),
        });
    }
    Ok(())
}
