//! Where a reply's token is checked (FAIRNESS.md §10; design §5): the candidate tokens of a
//! mail (those the player typed, else every one it carries, and those its `In-Reply-To` /
//! `References` stand for), checked against the tokens of the sender's sides in constant
//! time ([`Session::check_reply_token`]). A token of an earlier prompt is stale, unless nothing
//! the player could see changed since (`Payload::keeps_reply_of`); the game token ([`crate::mail::game_token`]) vouches
//! for game-level lines only; a takeback may be asked with the token of the prompt just
//! answered.

use super::{Received, Refusal};
use crate::data::Side;
use crate::mail::reply::{self, Extracted};
use crate::session::Session;

/// The candidate tokens of a mail, best first, and whether some were set aside: those of
/// `ex` (read from its text) and those its `In-Reply-To`/`References` stand for
/// ([`bound_tokens`]); when the player typed a token, only what they typed (a quoted or bound
/// token never stands in for it).
pub(super) fn candidate_tokens(
    session: &Session,
    sides: &[Side],
    ex: &Extracted,
    received: &Received,
) -> (Vec<String>, bool) {
    let mut tokens = ex.tokens.clone();
    for t in bound_tokens(session, sides, &received.answers) {
        if !tokens.contains(&t) {
            tokens.push(t);
        }
    }
    // What the player typed is what they mean: a quoted or bound token never stands in.
    let set_aside = ex.typed > 0 && tokens.len() > ex.typed;
    if ex.typed > 0 {
        tokens.truncate(ex.typed);
    }
    (tokens, set_aside)
}

/// Which of `sides` sent a mail carrying `tokens`, or why it is refused; the mail's moves are
/// read ([`reply::read_moves`] of `body` into `ex`) once one of `tokens` is found to be the
/// sender's, never before (no name of a card or country is looked up for a mail from anyone).
///
/// A prompt's token ([`authenticate`]) comes first; failing that, a takeback asked after one's
/// own move with the token of the prompt it answered, then the game token for game-level
/// lines — both checked against the tokens first and against the lines once they are read.
/// `set_aside`: the player typed a token and others the mail carried were set aside
/// ([`candidate_tokens`]), so a wrong one is refused as typed.
pub(super) fn authenticate_sender(
    session: &Session,
    sides: &[Side],
    tokens: &[String],
    ex: &mut Extracted,
    body: &str,
    set_aside: bool,
) -> Result<Side, Refusal> {
    let r = match authenticate(session, sides, tokens) {
        Ok(s) => {
            reply::read_moves(ex, body);
            return Ok(s);
        }
        Err(r) => r,
    };
    let asker = ex.asks_takeback
        && crate::session::takeback::asker_by_token(session, sides, tokens).is_some();
    if asker || crate::mail::game_token::carried(session, sides, tokens) {
        // A token of the sender's, good for some lines only: read them, and see.
        reply::read_moves(ex, body);
        let moves = &ex.moves;
        // A takeback asked after one's own move, with the token of the prompt it answered.
        if let Some(s) = crate::session::takeback::mail_asker(session, sides, tokens, moves)
            // Resign, draws, leave, takeback answers, standing orders: the game token.
            .or_else(|| crate::mail::game_token::sender(session, sides, tokens, moves))
        {
            return Ok(s);
        }
        if matches!(r, Refusal::WrongToken)
            && crate::mail::game_token::carried(session, sides, tokens)
        {
            return Err(Refusal::GameTokenForDecision);
        }
    }
    match r {
        Refusal::WrongToken if set_aside => Err(Refusal::WrongTypedToken {
            typed: tokens[0].clone(),
        }),
        r => Err(r),
    }
}

/// The reply tokens a mail's `In-Reply-To`/`References` stand for: each names a prompt of
/// this game to one of `sides` whose Message-ID tag matches the token issued with it.
fn bound_tokens(session: &Session, sides: &[Side], answers: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for id in answers {
        let Some((game, side_name, tag, seq)) = reply::parse_prompt_id(id) else {
            continue;
        };
        if game != session.game_id() {
            continue;
        }
        for &side in sides {
            if side.name().to_ascii_lowercase() != side_name {
                continue;
            }
            if let Some(token) = session.reply_token_at(side, seq) {
                if reply::message_id_tag(&token) == tag && !out.contains(&token) {
                    out.push(token);
                }
            }
        }
    }
    out
}

/// Finds which side sent a mail carrying the candidate `tokens` (best first), or why it is
/// refused: missing, stale (the first stale candidate), or wrong.
fn authenticate(session: &Session, sides: &[Side], tokens: &[String]) -> Result<Side, Refusal> {
    if tokens.is_empty() {
        return Err(Refusal::MissingToken);
    }
    for token in tokens {
        for &side in sides {
            if session.check_reply_token(side, token) {
                return Ok(side);
            }
        }
    }
    let mut stale = None;
    for token in tokens {
        match authenticate_earlier(session, sides, token) {
            Ok(side) => return Ok(side),
            Err(r @ Refusal::Stale { .. }) if stale.is_none() => stale = Some(r),
            Err(_) => {}
        }
    }
    Err(stale.unwrap_or(Refusal::WrongToken))
}

/// A token of an earlier prompt: still good while nothing the player could see changed since
/// ([`crate::log::Payload::keeps_reply_of`]), else stale; any other token is wrong.
fn authenticate_earlier(session: &Session, sides: &[Side], token: &str) -> Result<Side, Refusal> {
    let now = session.log().next_seq();
    for &side in sides {
        for seq in (0..now).rev() {
            if session.check_reply_token_at(side, seq, token) {
                // A token stays good while nothing this player could see has changed: the
                // same decision, with the same legal options (no entry since changed the
                // game), and no entry it has not seen ([`Payload::keeps_reply_of`]: the
                // opponent's sealed choice, a host outage, the player's own leave, standing
                // orders or draw offer).
                let only_sealed = session
                    .log()
                    .since(seq)
                    .iter()
                    .all(|e| e.entry.payload.keeps_reply_of(side));
                if only_sealed && session.game().is_some_and(|g| g.prompt_for(side).is_some()) {
                    return Ok(side);
                }
                return Err(Refusal::Stale {
                    token_seq: seq,
                    now_seq: now,
                });
            }
        }
    }
    Err(Refusal::WrongToken)
}
