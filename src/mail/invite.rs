//! Joining by mail: `twilight new` mails each player an invitation; the player's reply carries
//! their nonce (FAIRNESS.md §3.2, the nonce mix), which `inbox` records as that player's `join`
//! entry and answers with a receipt echoing the nonce exactly as recorded.
//!
//! The invitation carries a reply token bound to log sequence number 0 (the `create` entry,
//! which no prompt ever uses: FAIRNESS.md §10), so it stays valid while the other player joins.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::Message;

use super::inbound::Refusal;
use super::outbound::subject_tag;
use super::{MailConfig, MailError, MailState};
use crate::data::Side;
use crate::log::Payload;
use crate::session::Session;

/// The log sequence number an invitation's reply token is bound to.
pub const INVITATION_SEQ: u64 = 0;

fn mailbox(s: &str) -> Result<Mailbox, MailError> {
    s.parse()
        .map_err(|e| MailError::Config(format!("bad address `{s}`: {e}")))
}

/// A plain-text mail with its charset declared (the text holds `—`; without a `Content-Type`
/// a reader must take it as US-ASCII, RFC 2045 §5.2) and the Message-ID `id` (without angle
/// brackets; `None`: a fresh one), which a reply can name; a mail composed again after a crash
/// keeps its Message-ID, so it is queued once ([`super::queue`]).
pub(crate) fn plain_with_id(
    from: &str,
    to: &str,
    subject: String,
    text: String,
    id: Option<String>,
) -> Result<Message, MailError> {
    Message::builder()
        .from(mailbox(from)?)
        .to(mailbox(to)?)
        .subject(subject)
        .message_id(id.map(|id| format!("<{id}>")))
        .header(ContentType::TEXT_PLAIN)
        .body(text)
        .map_err(|e| MailError::Build(e.to_string()))
}

fn address(session: &Session, side: Side) -> &str {
    match side {
        Side::Us => &session.players().us,
        Side::Ussr => &session.players().ussr,
    }
}

/// The text of `side`'s invitation: the game, the opponent, the options, the seed and dice-chain
/// commitments, how to reply and why the nonce matters. Needs the moderator's secret (the token).
pub fn invitation_text(session: &Session, side: Side) -> Result<String, MailError> {
    let token = session
        .reply_token_at(side, INVITATION_SEQ)
        .ok_or_else(|| MailError::Config("an invitation needs the moderator's secret".into()))?;
    let Some(Payload::Create {
        seed_commitment,
        dice_chain_end,
        ..
    }) = session.log().entries().first().map(|e| &e.entry.payload)
    else {
        return Err(MailError::Config("the log has no create entry".into()));
    };
    let gid = session.game_id();
    let mut t = String::new();
    let _ = writeln!(
        t,
        "You are invited to play Twilight Struggle by mail, game {gid}."
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "You play: the {side} ({})", address(session, side));
    let _ = writeln!(
        t,
        "Your opponent: the {} ({})",
        side.opponent(),
        address(session, side.opponent())
    );
    // The options in words, as `status` and `view` say them.
    let _ = writeln!(t, "Options: {}", session.options().describe());
    // The whole time control and the leave allowance, before the player commits to the game.
    let settings = &session.correspondence().settings;
    let _ = match settings.describe() {
        Some(d) => writeln!(
            t,
            "Time control: {d} (declare leave with `leave YYYY-MM-DD to YYYY-MM-DD`); times in your mails are shown at UTC offset {}",
            settings.offset(side)
        ),
        None => writeln!(t, "Time control: none (no deadlines)"),
    };
    let _ = writeln!(t, "Seed commitment: {seed_commitment}");
    if let Some(end) = dice_chain_end {
        let _ = writeln!(t, "Dice-key chain end: {end}");
    }
    let _ = writeln!(t);
    t.push_str(&session.host_notice(None));
    let _ = writeln!(t, "To join, reply to this mail with these two lines:");
    let _ = writeln!(t);
    let _ = writeln!(t, "Token: {token}");
    let _ = writeln!(t, "nonce: <any text you choose>");
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Why the nonce matters: every die, shuffle and deal of the game is derived from the\n\
         moderator's seed (committed above, before you answer) together with both players'\n\
         nonces. Nobody can know your nonce in advance, so nobody — the moderator included —\n\
         can pick the seed to favour a side. Choose something nobody can guess; it will be\n\
         public in the game's log. You will get a receipt echoing your nonce as recorded: if\n\
         the log ever shows another nonce for you, that receipt proves it (schemas/FAIRNESS.md)."
    );
    Ok(t)
}

/// Queues the invitations of the players who have not joined (`twilight new`, or the prompts
/// owed by a game not started: [`super::queue::queue_due`]; sent by the next flush or drain
/// of the game's queue); each has a Message-ID made of the game and the side, so it is queued
/// and sent once. Returns the sides invited (none in a bid game, whose seats are invited to
/// bid: [`super::bid_mail::queue_bid_invitations`]).
///
/// # Errors
///
/// The mail settings could not be read, or a mail could not be built or queued.
pub fn queue_invitations(session: &Session, now: DateTime<Utc>) -> Result<Vec<Side>, MailError> {
    if session.awaiting_bids() {
        // A bid game: the players are seats until the bid decides (FAIRNESS.md §14).
        super::bid_mail::queue_bid_invitations(session, now)?;
        return Ok(Vec::new());
    }
    let config = MailConfig::load(session.dir())?;
    let from = config.sender();
    let queue = super::queue::Queue::of(session.dir());
    let mut sent = Vec::new();
    for side in [Side::Ussr, Side::Us] {
        if session.has_joined(side) {
            continue;
        }
        let text = invitation_text(session, side)?;
        let subject = format!(
            "{} Invitation — you play the {side}",
            subject_tag(session.game_id())
        );
        let id = super::queue::stable_id(
            &from,
            session.game_id(),
            &format!("{}.invitation", side.name().to_ascii_lowercase()),
        );
        let to = address(session, side).to_string();
        queue.enqueue(
            &super::queue::Mail {
                message: plain_with_id(&from, &to, subject.clone(), text, Some(id))?,
                kind: super::queue::Kind::Invitation,
                to,
                side: Some(side),
                whom: side.to_string(),
                label: subject,
            },
            now,
        )?;
        sent.push(side);
    }
    queue.sync()?;
    Ok(sent)
}

/// The value of a `NAME: value` line of a reply: the text after the colon on the first
/// unquoted line whose name is `name` (any case), trimmed; `None` if there is none.
pub fn field_line(body: &str, name: &str) -> Option<String> {
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('>'))
        .find_map(|l| {
            let (n, rest) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| rest.trim().to_string())
        })
}

/// The nonce of a join reply: the text after `nonce:` on the first unquoted line that starts
/// with it (any case), trimmed; `None` if there is none or it is empty.
pub fn nonce_line(body: &str) -> Option<String> {
    field_line(body, "nonce").filter(|n| !n.is_empty())
}

/// The placeholder of the invitation's `nonce:` line, which the player replaces with their own
/// text. Sent back as is, it would be a nonce anyone could foresee (FAIRNESS.md §2): refused.
pub const NONCE_PLACEHOLDER: &str = "<any text you choose>";

/// The refusal's reason when a reply's nonce is still [`NONCE_PLACEHOLDER`] (any case, inner
/// spaces ignored), else `None`.
pub fn placeholder_nonce(nonce: &str) -> Option<String> {
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
    };
    (squeeze(nonce) == squeeze(NONCE_PLACEHOLDER)).then(|| {
        format!(
            "`{NONCE_PLACEHOLDER}` is the invitation's placeholder: replace it with words of \
             your own that nobody can guess (they make the dice yours), e.g. `nonce: the \
             blue heron sings at 4`"
        )
    })
}

/// The receipt of a join by mail: the nonce exactly as recorded, its log entry and hash.
pub fn join_receipt_text(session: &Session, side: Side) -> Option<String> {
    let e = session
        .log()
        .entries()
        .iter()
        .find(|e| matches!(&e.entry.payload, Payload::Join { side: s, .. } if *s == side))?;
    let Payload::Join { nonce, .. } = &e.entry.payload else {
        return None;
    };
    let mut t = String::new();
    let _ = writeln!(t, "Your nonce is recorded in game {}.", session.game_id());
    let _ = writeln!(t);
    let _ = writeln!(t, "Log entry: {}", e.entry.seq);
    let _ = writeln!(t, "Nonce as recorded: {nonce:?}");
    let _ = writeln!(t, "Entry hash: {}", e.hash);
    let _ = writeln!(
        t,
        "\nKeep this mail: a log that shows another nonce for you contradicts it. The game starts\n\
         when both players have joined; your first prompt follows then."
    );
    t.push_str(&session.host_notice_after_text(None));
    Some(t)
}

/// Whether `body` is the join reply of one of `sides` that a run a crash stopped applied and
/// did not record ([`MailState::applied`]): its `nonce:` line is the one that side's `join`
/// entry holds, and no applied mail names that entry. Such a reply is judged as a join again
/// (recorded now, its receipt queued once) even once the game has started.
pub fn is_unrecorded_join(
    session: &Session,
    state: &MailState,
    sides: &[Side],
    body: &str,
) -> bool {
    let Some(nonce) = nonce_line(body) else {
        return false;
    };
    sides.iter().any(|side| {
        joined_with(session, *side)
            .is_some_and(|(seq, n)| n == nonce && !state.applied.iter().any(|a| a.seq == seq))
    })
}

/// The seq and nonce of `side`'s `join` entry, if it has joined.
fn joined_with(session: &Session, side: Side) -> Option<(u64, String)> {
    session
        .log()
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            Payload::Join { side: s, nonce, .. } if *s == side => {
                Some((e.entry.seq, nonce.clone()))
            }
            _ => None,
        })
}

/// Queues the receipt of `side`'s join ([`join_receipt_text`]), with a Message-ID made of
/// the game and the side: queued again (a crash before the mail was recorded), it is one
/// mail. `ahead`: written ahead of the join's commit, pending on its last entry
/// ([`super::queue::Queue::enqueue_ahead`]).
fn queue_join_receipt(
    session: &Session,
    side: Side,
    now: DateTime<Utc>,
    ahead: bool,
) -> Result<(), MailError> {
    let Some(text) = join_receipt_text(session, side) else {
        return Ok(());
    };
    let to = address(session, side).to_string();
    let from = MailConfig::load(session.dir())?.sender();
    let subject = format!("{} Receipt — your nonce", subject_tag(session.game_id()));
    let id = super::queue::stable_id(
        &from,
        session.game_id(),
        &format!("{}.join-receipt", side.name().to_ascii_lowercase()),
    );
    let queue = super::queue::Queue::of(session.dir());
    let mail = super::queue::Mail {
        message: plain_with_id(&from, &to, subject, text, Some(id))?,
        kind: super::queue::Kind::Receipt,
        to: to.clone(),
        side: Some(side),
        whom: side.name().to_string(),
        label: "receipt of the nonce".into(),
    };
    match super::queue::After::head_of(session.log()).filter(|_| ahead) {
        Some(after) => queue.enqueue_ahead(&mail, after, now)?,
        None => queue.enqueue(&mail, now)?,
    };
    queue.sync()
}

/// An accepted join or bid reply: the game id, the side (`None` for a seat of a bid game, whose
/// side the bid has not decided yet), and what was recorded.
pub type Joined = (String, Option<Side>, Vec<String>);

/// Handles a mail to a game that has not started: a join reply from one of `sides` (the
/// sender's sides), authenticated by its invitation token. Records the `join` entry
/// (`Session::join_by_mail`), notes the mail as applied, and mails the receipt, pushing the
/// line that says where it went (`mailed ADDRESS (SIDE): receipt of the nonce — WHERE`) to
/// `receipts`, or why it could not be sent (`Err`): the join stands either way.
#[allow(clippy::too_many_arguments)]
pub fn judge_join(
    session: &mut Session,
    sides: &[Side],
    body: &str,
    tokens: &[String],
    mail: super::MailKey<'_>,
    now: DateTime<Utc>,
    receipts: &mut Vec<String>,
) -> Result<Result<Joined, Refusal>, MailError> {
    if tokens.is_empty() {
        return Ok(Err(Refusal::MissingToken));
    }
    // The token may stand anywhere in the mail (quoted, below the signature, in the HTML
    // part): any candidate that is this invitation's token for one of the sender's sides
    // authenticates it.
    let Some(side) = sides.iter().copied().find(|s| {
        tokens
            .iter()
            .any(|t| session.check_reply_token_at(*s, INVITATION_SEQ, t))
    }) else {
        return Ok(Err(Refusal::WrongToken));
    };
    let Some(nonce) = nonce_line(body) else {
        return Ok(Err(Refusal::Illegal {
            line: String::new(),
            why: "a join reply needs a line `nonce: <any text you choose>`".into(),
        }));
    };
    if let Some(why) = placeholder_nonce(&nonce) {
        return Ok(Err(Refusal::Illegal {
            line: format!("nonce: {nonce}"),
            why,
        }));
    }
    // The same reply applied by a run a crash stopped before it recorded the mail: the join
    // stands; the mail is recorded and its receipt queued now (the same Message-ID: once).
    let dir = session.dir().to_path_buf();
    let mut state = MailState::load(&dir)?;
    let joined = joined_with(session, side);
    let seq = match joined {
        Some((seq, n)) if n == nonce && !state.applied.iter().any(|a| a.seq == seq) => seq,
        _ => {
            let seq = session.log().next_seq();
            // The prompts a started game owes: marked before the join is committed.
            super::queue::owe(session.dir())?;
            // The receipt, written ahead of the join's commit.
            let mut ahead = |s: &Session| {
                queue_join_receipt(s, side, now, true)
                    .map_err(|e| crate::session::SessionError::State(e.to_string()))
            };
            let joined = session.join_by_mail(side, &nonce, now, &mut ahead);
            let _ = super::queue::Queue::of(session.dir()).settle(session.log());
            if let Err(e) = joined {
                return Ok(Err(Refusal::Illegal {
                    line: format!("nonce: {nonce}"),
                    why: e.to_string(),
                }));
            }
            seq
        }
    };
    // The join is committed already: the record names its entry, which the log holds.
    let entry = session.log().get(seq).map(|e| e.hash);
    state.applied.push(mail.applied(side, seq, now, entry));
    state.save(&dir)?;
    // The join is committed: its receipt is queued (sent with the game's queue; found queued
    // or sent when it was written ahead); one that cannot be queued is told, not a failed
    // mail.
    if let Err(e) = queue_join_receipt(session, side, now, false) {
        receipts.push(e.to_string());
    }
    Ok(Ok((
        session.game_id().to_string(),
        Some(side),
        vec![format!("join with nonce {nonce:?} (log entry {seq})")],
    )))
}
