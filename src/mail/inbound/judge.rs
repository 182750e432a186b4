//! Judging one mail, step by step in the order the mail goes through them (design §5):
//!
//! 1. [`receive`]: read it as a person would ([`crate::mail::reply`]);
//! 2. [`identify_game`]: the game it names, and its folder; [`lock_game`] takes the game's lock
//!    (held until the mail is filed) and makes sure no other run took the mail meanwhile;
//! 3. [`identify_sender`]: the sides (or, before a bid, the seats) the sender plays;
//! 4. [`forget_stopped_moves`] and [`file_replay`]: a mail is applied once (a second copy is
//!    filed quietly);
//! 5. authenticate: the candidate tokens ([`candidate_tokens`]) checked for the sender
//!    ([`authenticate_sender`]) — or, before the game starts, the bid or the join the mail
//!    carries, judged whole by [`crate::mail::bid_mail`] and [`crate::mail::invite`];
//! 6. [`refuse_unreadable`], then [`apply_and_commit`]: the move lines, all or none,
//!    committed with the mail's record.
//!
//! Answering the mail (step 7: the receipt, or the reply to a refusal) comes after, in
//! [`super::answer`]. Before the sender is authenticated the work per mail is linear in its
//! size and bounded: the message and its text by [`crate::mail::reply::MAX_MESSAGE_BYTES`] and
//! [`crate::mail::reply::MAX_TEXT_BYTES`], the Message-IDs it answers by
//! [`crate::mail::reply::MAX_ANSWER_IDS`], the candidate tokens by
//! [`crate::mail::reply::MAX_TOKENS`], and the look for stopped moves by the last record the
//! log holds; its text is scanned for tokens only ([`crate::mail::reply::scan`]), and its moves
//! are read once a token is found to be the sender's, at most
//! [`crate::mail::reply::MAX_LINES_READ`] lines of them. The game's lock is tried, never
//! waited for ([`crate::session::Session::try_lock`]): a busy game's mail is put off.

use std::path::{Path, PathBuf};

use super::apply::apply_and_commit;
use super::authenticate::{authenticate_sender, candidate_tokens};
use super::identify::{game_dir_of, game_from_subject, sender_of, sides_of};
use super::{read_message, InboxOptions, Received, Refusal};
use crate::data::Side;
use crate::mail::reply::{self, Extracted};
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
    /// Its move lines (as far as they were read: none before a token of the sender's was
    /// found, [`Context::moves_read`]).
    pub(super) moves: Vec<String>,
    /// Whether its moves were read ([`crate::mail::reply::read_moves`]).
    pub(super) moves_read: bool,
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
    /// The whole mail's length when only its head was read (it is over
    /// [`crate::mail::reply::MAX_MESSAGE_BYTES`]): refused as too large.
    pub(super) whole_len: Option<u64>,
    /// The games found busy earlier in this round of the run: their lock is not tried again
    /// (a game's mails are taken in their order).
    pub(super) busy: Vec<PathBuf>,
    /// The game's lock, taken before the mail was read (a mail put off for a busy game).
    pub(super) prelocked: Option<(crate::gamefs::GameLock, Option<String>)>,
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
    let (received, mut ex) = receive(raw, opts, ctx, still_there)?;
    let (dir, id) = identify_game(&received, &ex, opts, ctx)?;
    lock_game(&dir, ctx, still_there)?;
    let mut session = Session::open(&dir)?;
    let (seats, sides) = identify_sender(&session, &received)?;
    ctx.sides = sides.clone();
    let mut state = MailState::load(&dir)?;
    forget_stopped_moves(&session, &mut state);
    file_replay(&state, &received, &id, ctx)?;
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
    let side = authenticate_sender(
        &session,
        &sides,
        &tokens,
        &mut ex,
        &received.body,
        set_aside,
    );
    // What was read of the moves (all of them once a token is the sender's), for the answer.
    ctx.moves = ex.moves.clone();
    ctx.ignored = ex.ignored.clone();
    ctx.moves_read = ex.moves_read;
    let side = side?;
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

/// Reads the mail and scans its text for tokens ([`read_message`], [`reply::scan`]; its moves
/// are read once a token is the sender's). A mail too broken to read is refused; its sender and
/// game are still looked for in its headers, to answer it.
///
/// A mail over [`crate::mail::reply::MAX_MESSAGE_BYTES`] comes as its head alone
/// (`ctx.whole_len`): refused as too large, answered from its headers.
fn receive(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
    still_there: &dyn Fn() -> bool,
) -> Result<(Received, Extracted), Stop> {
    let read = match ctx.whole_len {
        Some(len) => Err(Refusal::TooLarge {
            bytes: usize::try_from(len).unwrap_or(usize::MAX),
            limit: crate::mail::reply::MAX_MESSAGE_BYTES,
            what: "the message",
        }),
        None => read_message(raw),
    };
    let received = match read {
        Ok(r) => r,
        Err(r) => {
            // Answer the sender if the headers name one and a game of theirs: under the
            // game's lock, as any answer (its refusals are counted: `refusal_limit.rs`).
            ctx.received = sender_of(raw);
            if let Some(id) = ctx
                .received
                .as_ref()
                .and_then(|rc| game_from_subject(&rc.subject))
            {
                let found = game_dir_of(&opts.games_dir, &id);
                ctx.game = Some(found.as_ref().map_or(id, |(_, name)| name.clone()));
                if let Some((dir, _)) = found {
                    ctx.game_dir = Some(dir.clone());
                    lock_game(&dir, ctx, still_there)?;
                }
            }
            return Err(Stop::Refused(r));
        }
    };
    let ex = reply::scan(&received.body, &received.all_text);
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

/// Takes the game's lock (kept in `ctx` until the mail is filed) — the one taken before the
/// mail was read, else tried at once, never waited for: a game found busy earlier in the round
/// is busy still ([`SessionError::Busy`]: the mail is put off) — then checks that the mail is
/// still there: if another inbox run filed it meanwhile, it is not judged here.
fn lock_game(dir: &Path, ctx: &mut Context, still_there: &dyn Fn() -> bool) -> Result<(), Stop> {
    let plain = crate::gamefs::plain(dir);
    let (lock, recovered) = match ctx.prelocked.take() {
        Some((lock, recovered)) if lock.dir() == plain => (lock, recovered),
        _ if ctx.busy.contains(&plain) => {
            return Err(Stop::Error(MailError::Session(SessionError::Busy(
                crate::gamefs::FsError::Busy {
                    lock: plain.join(crate::gamefs::LOCK_FILE),
                    dir: plain,
                    secs: 0.0,
                },
            ))))
        }
        _ => Session::try_lock(dir)?,
    };
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

/// Files quietly a mail already applied (the same bytes or the same Message-ID: this very file,
/// which an earlier run could not file, or a second delivery of it): its move stands, and a
/// refusal would tell the player the opposite.
fn file_replay(
    state: &MailState,
    received: &Received,
    id: &str,
    ctx: &mut Context,
) -> Result<(), Stop> {
    if let Some(a) = state.applied.iter().find(|a| {
        a.digest == received.digest
            || (!received.message_id.is_empty() && a.message_id == received.message_id)
    }) {
        // This very file, applied by a run that could not file it, or the same mail delivered
        // again (a second copy from the mail server, a forward of the same Message-ID): its
        // move stands, so it is filed quietly — never answered "refused; nothing was added".
        ctx.unfiled = Some(a.seq);
        return Err(Stop::Decided((id.to_string(), Some(a.side), Vec::new())));
    }
    Ok(())
}

/// Refuses a mail read only in part (a line too long, too many lines, a second game-level line
/// of one kind: [`Extracted::refused`]), with no move line, or with a move cut inside a name
/// by a hard wrap.
fn refuse_unreadable(ex: &Extracted) -> Result<(), Refusal> {
    if let Some(r) = &ex.refused {
        return Err(r.clone());
    }
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
