//! The blind bid by mail ([`crate::chance::bid`]; FAQ F009): `twilight new --bid` mails each seat an
//! invitation to bid; the reply carries the seat's nonce and its bid, which `inbox` seals as
//! the seat's `bid` entry and answers with a receipt giving the commitment, so the player can
//! check the reveal later. When both bids are in, the sides are decided and the game starts:
//! `inbox` then mails the prompts to the players by their new sides.
//!
//! The invitation's token is bound to `seq = 0` and the seat (`seat1`, `seat2`; FAIRNESS.md
//! §10, §14): the players are seats until the bid decides, and their addresses follow the seats.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use super::inbound::Refusal;
use super::invite::{nonce_line, Joined};
use super::outbound::subject_tag;
use super::{MailConfig, MailError, MailState};
use crate::chance::bid;
use crate::log::Payload;
use crate::session::Session;

/// The text of seat `seat`'s invitation to bid: the game, the other seat, the options, the
/// commitments, the bid rules (FAQ F009) and how to reply. Needs the moderator's secret.
pub fn bid_invitation_text(session: &Session, seat: u8) -> Result<String, MailError> {
    let token = session
        .seat_token(seat)
        .ok_or_else(|| MailError::Config("an invitation needs the moderator's secret".into()))?;
    let seats = session
        .seats()
        .ok_or_else(|| MailError::Config("not a bid game".into()))?;
    let Some(Payload::Create {
        seed_commitment,
        dice_chain_end,
        ..
    }) = session.log().entries().first().map(|e| &e.entry.payload)
    else {
        return Err(MailError::Config("the log has no create entry".into()));
    };
    let me = &seats[usize::from(seat - 1)];
    let other = &seats[usize::from(2 - seat)];
    let mut t = String::new();
    let _ = writeln!(
        t,
        "You are invited to play Twilight Struggle by mail, game {}.",
        session.game_id()
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "You are seat {seat} ({me}); your opponent is {other}.");
    let _ = writeln!(
        t,
        "Sides are decided by the blind bid (Deluxe tournament rules; FAQ F004, F009):"
    );
    let _ = writeln!(
        t,
        "  * name a superpower and a bid of extra Influence; both stay sealed until both are in;\n\
         \x20 * different superpowers named: each takes the one named, no extra Influence;\n\
         \x20 * the same superpower: the higher bid takes it; the other player takes the other\n\
         \x20   side and places extra Influence equal to the winning bid after the setup, only\n\
         \x20   where it already has Influence;\n\
         \x20 * equal bids for the same side: a fair draw decides (checkable after turn 1)."
    );
    let _ = writeln!(t, "Options: {}", session.options().describe());
    let _ = writeln!(t, "Seed commitment: {seed_commitment}");
    if let Some(end) = dice_chain_end {
        let _ = writeln!(t, "Dice-key chain end: {end}");
    }
    let _ = writeln!(t);
    t.push_str(&session.host_notice(None));
    let _ = writeln!(t, "To bid, reply to this mail with these three lines:");
    let _ = writeln!(t);
    let _ = writeln!(t, "Token: {token}");
    let _ = writeln!(t, "nonce: <any text you choose>");
    let _ = writeln!(t, "bid: <us or ussr> <Influence>      e.g.  bid: ussr 2");
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Your nonce feeds every die, shuffle and deal, so nobody can pick the seed to favour a\n\
         side; it will be public in the log. Your bid is logged only as a commitment until the\n\
         other bid is in; the receipt gives it, and the reveal must match it (schemas/FAIRNESS.md)."
    );
    Ok(t)
}

/// Queues the invitations to bid of the seats that have not bid (`twilight new --bid`; sent
/// with the game's queue, [`super::queue`]), each with a Message-ID made of the game and the
/// seat.
///
/// # Errors
///
/// The mail settings could not be read, or a mail could not be built or queued.
pub fn queue_bid_invitations(session: &Session, now: DateTime<Utc>) -> Result<(), MailError> {
    let config = MailConfig::load(session.dir())?;
    let from = config.sender();
    let seats = session
        .seats()
        .ok_or_else(|| MailError::Config("not a bid game".into()))?;
    let queue = super::queue::Queue::of(session.dir());
    for seat in bid::SEATS {
        if session.has_bid(seat) {
            continue;
        }
        let text = bid_invitation_text(session, seat)?;
        let subject = format!(
            "{} Invitation — bid for sides (seat {seat})",
            subject_tag(session.game_id())
        );
        let id =
            super::queue::stable_id(&from, session.game_id(), &format!("seat{seat}.invitation"));
        let to = seats[usize::from(seat - 1)].clone();
        queue.enqueue(
            &super::queue::Mail {
                message: super::invite::plain_with_id(&from, &to, subject.clone(), text, Some(id))?,
                kind: super::queue::Kind::Invitation,
                to,
                side: None,
                whom: format!("seat {seat}"),
                label: subject,
            },
            now,
        )?;
    }
    queue.sync()
}

/// Queues the receipt of `seat`'s bid `b` ([`bid_receipt_text`]), with a Message-ID made of
/// the game and the seat (one mail however often it is queued); `ahead`: written ahead of
/// the bid's commit, pending on its last entry ([`super::queue::Queue::enqueue_ahead`]).
fn queue_bid_receipt(
    session: &Session,
    seat: u8,
    b: bid::Bid,
    now: DateTime<Utc>,
    ahead: bool,
) -> Result<(), MailError> {
    let (Some(text), Some(seats)) = (bid_receipt_text(session, seat, b), session.seats()) else {
        return Ok(());
    };
    let to = seats[usize::from(seat - 1)].clone();
    let from = MailConfig::load(session.dir())?.sender();
    let subject = format!(
        "{} Receipt — your sealed bid",
        subject_tag(session.game_id())
    );
    let id = super::queue::stable_id(&from, session.game_id(), &format!("seat{seat}.bid-receipt"));
    let queue = super::queue::Queue::of(session.dir());
    let mail = super::queue::Mail {
        message: super::invite::plain_with_id(&from, &to, subject, text, Some(id))?,
        kind: super::queue::Kind::Receipt,
        to: to.clone(),
        side: None,
        whom: format!("seat {seat}"),
        label: "receipt of the sealed bid".into(),
    };
    match super::queue::After::head_of(session.log()).filter(|_| ahead) {
        Some(after) => queue.enqueue_ahead(&mail, after, now)?,
        None => queue.enqueue(&mail, now)?,
    };
    queue.sync()
}

/// The seats of `seats` whose bid a run a crash stopped applied from this very reply
/// (`body`'s `nonce:` line is the one the seat's `bid` entry holds) and did not record: judged
/// as a bid again (recorded now, its receipt queued once) even once the bid is decided.
pub fn unrecorded_bids(session: &Session, state: &MailState, seats: &[u8], body: &str) -> Vec<u8> {
    let Some(nonce) = nonce_line(body) else {
        return Vec::new();
    };
    seats
        .iter()
        .copied()
        .filter(|seat| {
            bid_with(session, *seat)
                .is_some_and(|(seq, n)| n == nonce && !state.applied.iter().any(|a| a.seq == seq))
        })
        .collect()
}

/// The seq and nonce of `seat`'s `bid` entry, if it has bid.
fn bid_with(session: &Session, seat: u8) -> Option<(u64, String)> {
    session
        .log()
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            Payload::Bid { seat: s, nonce, .. } if *s == seat => Some((e.entry.seq, nonce.clone())),
            _ => None,
        })
}

/// The receipt of a bid by mail: the bid and nonce as sealed, the commitment's entry and digest.
pub fn bid_receipt_text(session: &Session, seat: u8, bid: bid::Bid) -> Option<String> {
    let e = session
        .log()
        .entries()
        .iter()
        .find(|e| matches!(&e.entry.payload, Payload::Bid { seat: s, .. } if *s == seat))?;
    let Payload::Bid { nonce, digest, .. } = &e.entry.payload else {
        return None;
    };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Your bid is sealed in game {} (seat {seat}).",
        session.game_id()
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "Bid as sealed: {bid}");
    let _ = writeln!(t, "Nonce as recorded: {nonce:?}");
    let _ = writeln!(t, "Log entry: {} · commitment {digest}", e.entry.seq);
    let _ = writeln!(t, "Entry hash: {}", e.hash);
    match session.bid_summary() {
        Some(s) if !session.awaiting_bids() => {
            let _ = writeln!(t, "\nBoth bids are in: {s}. Your first prompt follows.");
        }
        _ => {
            let _ = writeln!(
                t,
                "\nThe other seat's bid is awaited; the bid result will reveal both with their salts."
            );
        }
    }
    t.push_str(&session.host_notice_after_text(None));
    Some(t)
}

/// Handles a mail to a bid game whose sides are not decided: a bid reply from one of `seats`
/// (the sender's seats), authenticated by its invitation token, with `nonce:` and `bid:` lines.
/// Records the seat's bid ([`Session::bid_by_mail`]), notes the mail as applied, mails the
/// receipt, pushing the line that says where it went to `receipts` (or why it could not be
/// sent: the bid stands either way). The accepted mail is reported under the side it bid for.
#[allow(clippy::too_many_arguments)]
pub fn judge_bid(
    session: &mut Session,
    seats: &[u8],
    body: &str,
    tokens: &[String],
    mail: super::MailKey<'_>,
    now: DateTime<Utc>,
    receipts: &mut Vec<String>,
) -> Result<Result<Joined, Refusal>, MailError> {
    if tokens.is_empty() {
        return Ok(Err(Refusal::MissingToken));
    }
    let Some(seat) = seats
        .iter()
        .copied()
        .find(|s| tokens.iter().any(|t| session.check_seat_token(*s, t)))
    else {
        return Ok(Err(Refusal::WrongToken));
    };
    let illegal = |line: &str, why: String| {
        Ok(Err(Refusal::Illegal {
            line: line.to_string(),
            why,
        }))
    };
    let Some(nonce) = nonce_line(body) else {
        return illegal(
            "",
            "a bid reply needs a line `nonce: <any text you choose>`".into(),
        );
    };
    if let Some(why) = super::invite::placeholder_nonce(&nonce) {
        return illegal(&format!("nonce: {nonce}"), why);
    }
    let Some(line) = bid::bid_line(body) else {
        return illegal(
            "",
            "a bid reply needs a line `bid: <us or ussr> <Influence>`".into(),
        );
    };
    let b = match bid::parse_bid(&line) {
        Ok(b) => b,
        Err(why) => return illegal(&format!("bid: {line}"), why),
    };
    let dir = session.dir().to_path_buf();
    let mut state = MailState::load(&dir)?;
    // The same reply applied by a run a crash stopped before it recorded the mail: the bid
    // stands; the mail is recorded and its receipt queued now (the same Message-ID: once).
    let seq = match bid_with(session, seat) {
        Some((seq, n)) if n == nonce && !state.applied.iter().any(|a| a.seq == seq) => seq,
        _ => {
            let seq = session.log().next_seq();
            // The prompts of a game the bid starts: marked before the bid is committed.
            super::queue::owe(session.dir())?;
            // The receipt, written ahead of the bid's commit.
            let mut ahead = |s: &Session| {
                queue_bid_receipt(s, seat, b, now, true)
                    .map_err(|e| crate::session::SessionError::State(e.to_string()))
            };
            let placed = session.bid_by_mail(seat, b, &nonce, now, &mut ahead);
            let _ = super::queue::Queue::of(session.dir()).settle(session.log());
            if let Err(e) = placed {
                return illegal(&format!("bid: {line}"), e.to_string());
            }
            seq
        }
    };
    let entry = session.log().get(seq).map(|e| e.hash);
    state.applied.push(mail.applied(b.side, seq, now, entry));
    state.save(&dir)?;
    // The bid is committed: its receipt is queued (sent with the game's queue; found queued or
    // sent when it was written ahead); one that cannot be queued is told, not a failed mail.
    if let Err(e) = queue_bid_receipt(session, seat, b, now, false) {
        receipts.push(e.to_string());
    }
    Ok(Ok((
        session.game_id().to_string(),
        None,
        vec![format!(
            "seat {seat}: sealed bid, nonce {nonce:?} (log entry {seq})"
        )],
    )))
}
