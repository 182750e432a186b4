//! Answering a judged mail: the game of an accepted move owes its prompts (its receipt was
//! queued ahead of its commit, `apply.rs`); a refused one gets a reply — only to a player of
//! the game — which is itself a prompt ([`crate::mail::refusal`] writes it), queued and sent
//! with the game's mail queue ([`crate::mail::queue`]).

use std::path::Path;

use super::identify::sides_of;
use super::judge::Context;
use super::refusal_limit::Owed;
use super::{InboxOptions, InboxReport, Refusal, Touched, Verdict};
use crate::data::Side;
use crate::mail::queue::{self, DrainReport, Kind, Mail, Queue};
use crate::mail::transport::Transport;
use crate::mail::{MailConfig, MailError};
use crate::session::Session;

/// After an accepted mail: its game's prompts are due (`touched`, with this process's replay of
/// the game after the move). The receipt of a move was queued ahead of its commit
/// (`apply.rs`); it goes out with the prompts.
pub(super) fn answer_accepted(ctx: &mut Context, touched: &mut Touched) {
    if let Some(d) = &ctx.game_dir {
        let i = match touched.iter().position(|(t, _)| t == d) {
            Some(i) => i,
            None => {
                touched.push((d.clone(), None));
                touched.len() - 1
            }
        };
        // This move's replay stands for the game from now on (an earlier mail's no more).
        touched[i].1 = ctx.session.take();
    }
}

/// After a refused mail: its reply ([`answer_refusal`]) and the verdict saying where it went.
pub(super) fn answer_refused(
    opts: &InboxOptions,
    ctx: &mut Context,
    refusal: Refusal,
    report: &mut InboxReport,
    file: &Path,
) -> Verdict {
    let (reply, sent) = answer_refusal(opts, ctx, &refusal);
    let (answered, withheld) = match sent {
        Ok(Answered::Queued(id, drained)) => {
            // The reply, and whatever else of the game's queue went out with it.
            let mut answered = None;
            report.send_errors.extend(drained.problems());
            for d in drained.sent {
                if d.message_id == id {
                    answered = Some(d.delivered);
                } else {
                    report.sent.push(d);
                }
            }
            (answered, false)
        }
        Ok(Answered::No) => (None, false),
        Ok(Answered::Withheld) => (None, true),
        Err(e) => {
            report
                .send_errors
                .push(format!("{}: reply not sent: {e}", file.display()));
            (None, false)
        }
    };
    Verdict::Refused {
        game: ctx.game.clone(),
        refusal,
        reply,
        answered,
        withheld,
    }
}

/// Whether a refusal was answered.
enum Answered {
    /// Queued, with its Message-ID and what the game's queue sent with it.
    Queued(String, DrainReport),
    /// Not mailed: the sender is no player of the game (or no game is known).
    No,
    /// Not mailed: [`super::REFUSALS_PER_HOUR`] refusals went to that player in the last hour.
    Withheld,
}

/// The reply to a refused mail (see [`crate::mail::refusal::refusal_text`]; no retry part).
pub fn refusal_text(refusal: &Refusal, game: Option<&str>, moves: &[String]) -> String {
    crate::mail::refusal::refusal_text(refusal, game, moves, None)
}

/// Answers a refused mail — only when its sender is a player of the game it names, and at most
/// [`super::REFUSALS_PER_HOUR`] times an hour to one address (`refusal_limit.rs`) — with a
/// reply that is itself a prompt, queued (before the mail is filed: a crash in between
/// composes the same Message-ID again, queued once) and sent with the game's queue. Returns
/// the reply's text and whether it was answered.
///
/// The refused mail's moves, not read when no token of the sender's was found
/// (`authenticate.rs`), are read here for the quote, once the refusal is owed: a mail from
/// anyone costs a name lookup only as often as a refusal is mailed.
fn answer_refusal(
    opts: &InboxOptions,
    ctx: &mut Context,
    refusal: &Refusal,
) -> (String, Result<Answered, MailError>) {
    let plain = crate::mail::refusal::refusal_text(refusal, ctx.game.as_deref(), &ctx.moves, None);
    let (Some(r), Some(dir)) = (&ctx.received, &ctx.game_dir) else {
        return (plain, Ok(Answered::No));
    };
    let session = match Session::open(dir) {
        Ok(s) => s,
        Err(e) => return (plain, Err(e.into())),
    };
    let sides = if ctx.sides.is_empty() {
        sides_of(&session, &r.from)
    } else {
        ctx.sides.clone()
    };
    if sides.is_empty() {
        return (plain, Ok(Answered::No)); // refusals go only to a game's players
    }
    let side = ctx.side.unwrap_or_else(|| {
        sides
            .iter()
            .copied()
            .find(|s| session.game().is_some_and(|g| g.prompt_for(*s).is_some()))
            .unwrap_or(sides[0])
    });
    let to = match side {
        Side::Us => session.players().us.clone(),
        Side::Ussr => session.players().ussr.clone(),
    };
    let game = ctx.game.as_deref().unwrap_or(session.game_id());
    let summary = match super::refusal_limit::owe(dir, &to, game, opts.now) {
        Ok(Owed::Answer(summary)) => summary,
        Ok(Owed::Withheld) => return (plain, Ok(Answered::Withheld)),
        Err(e) => return (plain, Err(e)),
    };
    if !ctx.moves_read {
        let mut ex = crate::mail::reply::Extracted::default();
        crate::mail::reply::read_moves(&mut ex, &r.body);
        ctx.moves = ex.moves;
    }
    let retry = crate::mail::refusal::Retry {
        session: &session,
        side,
    };
    let mut text =
        crate::mail::refusal::refusal_text(refusal, ctx.game.as_deref(), &ctx.moves, Some(&retry));
    if let Some(s) = summary {
        // After the opening paragraph, which says the mail was refused.
        let at = text.find("\n\n").map_or(text.len(), |i| i + 2);
        text.insert_str(at, &format!("{s}\n\n"));
    }
    let sent = (|| {
        let config = MailConfig::load(dir)?;
        let subject =
            crate::mail::refusal::refusal_subject(&r.subject, ctx.game.as_deref(), refusal);
        let m = crate::mail::refusal::refusal_message(
            &config,
            &to,
            &subject,
            &r.message_id,
            &r.digest,
            Some(&retry),
            &text,
        )?;
        let id = queue::message_id_of(&m)
            .ok_or_else(|| MailError::Build("a refusal without a Message-ID".into()))?;
        let q = Queue::of(dir);
        q.enqueue(
            &Mail {
                message: m,
                kind: Kind::Refusal,
                to,
                side: Some(side),
                whom: side.to_string(),
                label: subject,
            },
            opts.now,
        )?;
        q.sync()?;
        crate::gamefs::crash_point("refusal-queued");
        let transport = Transport::choose(&dir.join("outbox"), opts.force_outbox)?;
        Ok(Answered::Queued(
            id,
            queue::flush(&session, &transport, opts.now, false),
        ))
    })();
    (text, sent)
}
