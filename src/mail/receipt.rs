//! The receipt of an accepted move: a mail to the player who sent it that
//! echoes every log entry the move produced exactly as recorded — the decisions in the
//! notation, a sealed headline with its commitment's digest, salt, seq and turn — and the new
//! head, so a later log that records anything else, or resolves another headline, is
//! contradicted by the player's own mail.

use std::fmt::Write as _;

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Attachment, Body, SinglePart};

use super::outbound::subject_tag;
use super::{MailConfig, MailError};
use crate::data::Side;
use crate::log::{CommitmentKind, Payload};
use crate::session::Session;

/// The receipt text for `side`'s move whose entries start at log sequence number `from_seq`,
/// or `None` if the log holds no entry of that move.
pub fn move_receipt_text(session: &Session, side: Side, from_seq: u64) -> Option<String> {
    let entries: Vec<_> = session.log().since(from_seq).iter().collect();
    if entries.is_empty() {
        return None;
    }
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Your move is recorded in game {}, as follows.",
        session.game_id()
    );
    let _ = writeln!(t);
    for e in &entries {
        let seq = e.entry.seq;
        match &e.entry.payload {
            Payload::Decision {
                side: s, notation, ..
            } if *s == side => {
                let _ = writeln!(t, "Entry {seq}: {notation}");
            }
            Payload::Commitment {
                kind: CommitmentKind::Headline,
                side: Some(s),
                digest,
                turn,
            } if *s == side => {
                let turn = turn.unwrap_or_default();
                let _ = writeln!(t, "Entry {seq}: your headline, sealed");
                if let Some(card) = session.pending_headline(side) {
                    let _ = writeln!(t, "  Headline card: {} (#{})", card.name(), card as u8);
                }
                let _ = writeln!(t, "  Commitment digest: {digest}");
                if let Some(salt) = session.headline_salt(side, turn) {
                    let _ = writeln!(t, "  Salt: {}", hex::encode(salt));
                }
                let _ = writeln!(t, "  Seq: {seq} · Turn: {turn}");
                let _ = writeln!(
                    t,
                    "  (SHA-256 of the salt and the canonical headline equals the digest; schemas/FAIRNESS.md §7–9)"
                );
            }
            Payload::Commitment {
                kind: CommitmentKind::SuperpowerCard,
                side: Some(s),
                digest,
                turn,
            } if *s == side => {
                let crisis = turn.unwrap_or_default();
                let slot = crate::chance::sealed_choice::Slot::SuperpowerCard { crisis };
                let _ = writeln!(
                    t,
                    "Entry {seq}: your superpower card for Turn Zero crisis {crisis}, sealed"
                );
                if let Some(p) = session.pending_choice(side).filter(|p| p.slot == slot) {
                    let _ = writeln!(t, "  Superpower card: {}", p.choice.name());
                }
                let _ = writeln!(t, "  Commitment digest: {digest}");
                if let Some(salt) = session.choice_salt(side, slot) {
                    let _ = writeln!(t, "  Salt: {}", hex::encode(salt));
                }
                let _ = writeln!(t, "  Seq: {seq} · Crisis: {crisis}");
                let _ = writeln!(
                    t,
                    "  (SHA-256 of the salt and the canonical superpower card equals the digest; schemas/FAIRNESS.md §15)"
                );
            }
            Payload::TakebackRequest { side: s, cancels } if *s == side => {
                let _ = writeln!(
                    t,
                    "Entry {seq}: your takeback request, asking to take back:"
                );
                takeback_lines(&mut t, session, cancels);
            }
            Payload::Takeback {
                side: asker,
                cancels,
                ..
            } if *asker != side => {
                let _ = writeln!(
                    t,
                    "Entry {seq}: your acceptance of the {asker}'s takeback, which takes back:"
                );
                takeback_lines(&mut t, session, cancels);
            }
            p @ (Payload::Leave { .. }
            | Payload::Draw { .. }
            | Payload::Resign { .. }
            | Payload::StandingOrder { .. }
            | Payload::StandingOrderCancel { .. }) => {
                game_level_line(&mut t, session, side, seq, p)
            }
            Payload::TakebackDeclined { side: asker, .. } if *asker != side => {
                let _ = writeln!(
                    t,
                    "Entry {seq}: your refusal of the {asker}'s takeback; its moves stand"
                );
            }
            _ => {}
        }
    }
    let last = entries.last().expect("not empty");
    let _ = writeln!(t);
    let n = entries.len();
    let _ = writeln!(
        t,
        "Log {} {} appended.",
        crate::text::wording::entries(from_seq, last.entry.seq),
        if n == 1 { "was" } else { "were" }
    );
    let _ = writeln!(t, "Head (hash of entry {}): {}", last.entry.seq, last.hash);
    // Under a time control: the deadline of what the player owes next, or the bank left.
    let now = crate::session::correspondence::now();
    if let Some(line) =
        crate::session::correspondence::clock::mail_line(session.correspondence(), side, now)
    {
        let _ = writeln!(t, "{line}");
    }
    let _ = writeln!(
        t,
        "Keep this mail: `twilight verify --head {} GAME_DIR` proves the log still holds this history.",
        last.hash
    );
    // Replies to a receipt carry no token and are refused: say where moves go.
    let _ = writeln!(
        t,
        "This receipt takes no reply: send your moves in a reply to your prompt mail (it carries the token)."
    );
    t.push_str(&session.host_notice_after_text(None));
    Some(t)
}

/// The receipt's line for `side`'s own game-level entry `seq` (a leave, a draw act, a
/// resignation, a standing order given — its text as sealed, with the digest — or cancelled);
/// nothing for another side's.
fn game_level_line(t: &mut String, session: &Session, side: Side, seq: u64, p: &Payload) {
    match p {
        Payload::Leave { side: s, from, to } if *s == side => {
            let _ = writeln!(t, "Entry {seq}: your leave from {from} to {to}");
        }
        Payload::Draw { side: s, act } if *s == side => {
            let what = match act {
                crate::log::DrawAct::Offer => "offer",
                crate::log::DrawAct::Accept => "acceptance",
                crate::log::DrawAct::Decline => "refusal",
            };
            let _ = writeln!(t, "Entry {seq}: your draw {what}");
        }
        Payload::Resign { side: s } if *s == side => {
            let _ = writeln!(t, "Entry {seq}: your resignation");
        }
        Payload::StandingOrder { side: s, digest } if *s == side => {
            let order = session
                .standing_order_lines(side)
                .into_iter()
                .find(|l| l.starts_with(&format!("standing order {seq}:")))
                .unwrap_or_default();
            let _ = writeln!(t, "Entry {seq}: your standing order, sealed");
            if !order.is_empty() {
                let _ = writeln!(t, "  {}", order.trim());
            }
            // Not `Commitment digest:`, which `check` reads as a sealed headline's.
            let _ = writeln!(t, "  Order digest: {digest}");
        }
        Payload::StandingOrderCancel { side: s, order } if *s == side => {
            let _ = writeln!(
                t,
                "Entry {seq}: your standing order cancel of order {order}"
            );
        }
        _ => {}
    }
}

/// How a receipt's `Entry N: …` line for an entry other than a decision begins (what follows
/// the colon: a takeback request or answer, a leave, a draw act, a resignation, a standing
/// order given or cancelled), so `check` reads it as no decision.
pub const NOT_DECISION_LINE_STARTS: [&str; 8] = [
    "your takeback request",
    "your acceptance of the",
    "your refusal of the",
    "your leave from",
    "your draw ",
    "your resignation",
    "your standing order",
    "your standing order cancel",
];

/// The lines of a takeback receipt naming each entry taken back: a decision by its seq and
/// notation as logged (`  entry 12: influence Poland 4, East Germany 2`), any other entry by
/// its seq and kind (`  entry 13: hand commitment`).
pub(crate) fn takeback_lines(t: &mut String, session: &Session, cancels: &[crate::log::Cancelled]) {
    for c in cancels {
        let what = match session.log().get(c.seq).map(|e| &e.entry.payload) {
            Some(Payload::Decision { notation, .. }) => notation.clone(),
            Some(Payload::Commitment {
                kind: CommitmentKind::Hand,
                ..
            }) => "hand commitment".to_string(),
            Some(p) => p.kind().replace('_', " "),
            None => "not in the log".to_string(),
        };
        let _ = writeln!(t, "  entry {}: {what}", c.seq);
    }
}

/// The receipt of `side`'s move that starts at `from_seq` (see [`move_receipt_text`]) as a mail
/// to queue, or `None` when the log (staged entries included) holds no entry of that move.
/// Its Message-ID is made of the game, the side and `from_seq` ([`super::queue::stable_id`]):
/// the receipt of one move is one mail however often it is composed. Composed from the move
/// as staged, it is queued ahead of the move's commit (`inbound/apply.rs`).
///
/// # Errors
///
/// The mail configuration could not be read, or the mail could not be built.
pub fn move_receipt_mail(
    session: &Session,
    side: Side,
    from_seq: u64,
) -> Result<Option<super::queue::Mail>, MailError> {
    let Some(text) = move_receipt_text(session, side, from_seq) else {
        return Ok(None);
    };
    let config = MailConfig::load(session.dir())?;
    let to = match side {
        Side::Us => &session.players().us,
        Side::Ussr => &session.players().ussr,
    };
    let from = config.sender();
    let id = super::queue::stable_id(
        &from,
        session.game_id(),
        &format!("{}.receipt.s{from_seq}", side.name().to_ascii_lowercase()),
    );
    // Plain text with its charset declared: the receipt holds `·`, `–` and `§`.
    let message = super::invite::plain_with_id(
        &from,
        to,
        format!(
            "{} Receipt — your move is recorded",
            subject_tag(session.game_id())
        ),
        text,
        Some(id),
    )?;
    Ok(Some(super::queue::Mail {
        message,
        kind: super::queue::Kind::Receipt,
        to: to.clone(),
        side: Some(side),
        whom: side.to_string(),
        label: "receipt of the move".into(),
    }))
}

/// The answer to a mail that asked only for what adds nothing to the log (`orders`: the
/// player's open standing orders, `schemas/NOTATION.md`): the lines the session answered with
/// ([`Session::happened`]), as a mail to queue; its Message-ID made of the game, the side and
/// `key` (the digest of the mail it answers), so that it is one mail however often composed.
/// `None` when the session answered nothing.
///
/// # Errors
///
/// The mail configuration could not be read, or the mail could not be built.
pub fn answer_mail(
    session: &Session,
    side: Side,
    key: &str,
) -> Result<Option<super::queue::Mail>, MailError> {
    let lines = session.happened();
    if lines.is_empty() {
        return Ok(None);
    }
    let mut text = format!("Your mail to game {} asked:\n\n", session.game_id());
    for l in lines {
        let _ = writeln!(text, "  {l}");
    }
    let _ = writeln!(
        text,
        "\nNothing was added to the game's log. Send moves in a reply to your prompt mail (it carries the token)."
    );
    let now = crate::session::correspondence::now();
    if let Some(line) =
        crate::session::correspondence::clock::mail_line(session.correspondence(), side, now)
    {
        let _ = writeln!(text, "{line}");
    }
    let config = MailConfig::load(session.dir())?;
    let to = match side {
        Side::Us => &session.players().us,
        Side::Ussr => &session.players().ussr,
    };
    let from = config.sender();
    let short = &key[..key.len().min(16)];
    let id = super::queue::stable_id(
        &from,
        session.game_id(),
        &format!("{}.answer.{short}", side.name().to_ascii_lowercase()),
    );
    let message = super::invite::plain_with_id(
        &from,
        to,
        format!("{} Your standing orders", subject_tag(session.game_id())),
        text,
        Some(id),
    )?;
    Ok(Some(super::queue::Mail {
        message,
        kind: super::queue::Kind::Receipt,
        to: to.clone(),
        side: Some(side),
        whom: side.to_string(),
        label: "answer to the mail".into(),
    }))
}

/// The stored bytes of the log's entries from sequence number `from` on, exactly as in
/// `log.yaml` (each document hashes as in FAIRNESS.md §11), as text; empty if there are none.
pub fn log_since(session: &Session, from: u64) -> Result<(u64, String), MailError> {
    let entries = session.log().since(from);
    let Some(first) = entries.first() else {
        return Ok((from, String::new()));
    };
    let end = entries.last().map_or(first.range.end, |e| e.range.end);
    // The bytes the replay holds: the file as it read or wrote it.
    let path = session.log().path();
    let bytes = session
        .log()
        .file_range(first.range.start..end)
        .ok_or_else(|| MailError::File {
            path: path.to_path_buf(),
            message: "the log's entries lie past its bytes".into(),
        })?;
    let text = String::from_utf8(bytes.into_owned()).map_err(|e| MailError::File {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok((first.entry.seq, text))
}

/// The attachment `log-FROM-TO.yaml` of a prompt: entries `from` to `next_seq − 1`, or `None`
/// if there are none.
pub fn log_attachment(
    from: u64,
    next_seq: u64,
    text: &str,
    yaml_type: ContentType,
) -> Option<SinglePart> {
    if text.is_empty() {
        return None;
    }
    let name = format!("log-{from}-{}.yaml", next_seq.saturating_sub(1));
    // Base64, so that no mail system rewrites a line ending: the bytes must hash as stored.
    let body =
        Body::new_with_encoding(text.as_bytes().to_vec(), ContentTransferEncoding::Base64).ok()?;
    Some(Attachment::new(name).body(body, yaml_type))
}
