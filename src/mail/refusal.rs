//! The reply to a refused mail is itself a prompt (design §5: a refused move gets a clear
//! reply).
//!
//! It quotes the refused line and says why (the rule and FAQ ruling come with the engine's
//! reason), then — when the mail came from a player of the game — repeats the decision owed,
//! lists the legal moves with examples, and carries the current reply token, so that answering
//! the refusal the way one answers any prompt works. Its Message-ID is bound to that token like
//! a prompt's ([`super::reply::message_id_tag`]). Its subject never doubles `Re:`.

use std::fmt::Write as _;

use lettre::message::{Mailbox, SinglePart};
use lettre::Message;

use super::inbound::Refusal;
use super::outbound::subject_tag;
use super::reply::message_id_tag;
use super::{bare_address, MailConfig, MailError};
use crate::data::Side;
use crate::session::Session;

/// What the refusal can offer the player to answer it: the decision owed, the legal moves and a
/// token (only for a player of the game).
pub struct Retry<'a> {
    /// The game.
    pub session: &'a Session,
    /// The player's side.
    pub side: Side,
}

/// The text of the reply to a refused mail: the refused lines quoted, why, and — with a
/// [`Retry`] — the decision owed, the legal moves, examples and the token.
pub fn refusal_text(
    refusal: &Refusal,
    game: Option<&str>,
    moves: &[String],
    retry: Option<&Retry>,
) -> String {
    let mut t = String::new();
    t.push_str("Your mail was refused; nothing was added to the game's log.\n\n");
    let quoted: Vec<&String> = match refusal {
        Refusal::Illegal { line, .. } => vec![line],
        _ => moves.iter().collect(),
    };
    // A refusal of the mail as a whole (a join reply with no `nonce:` line) quotes no line.
    let quoted: Vec<&String> = quoted
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .collect();
    for l in &quoted {
        let _ = writeln!(t, "> {l}");
    }
    if !quoted.is_empty() {
        t.push('\n');
    }
    let _ = writeln!(t, "Why: {}", refusal.explain(game));
    let _ = writeln!(t, "Refusal: {}", refusal.kind());
    if let Some(g) = game {
        let _ = writeln!(t, "Game: {g}");
    }
    if let Some(r) = retry {
        if r.session.game().is_some() {
            t.push('\n');
            let now = crate::session::correspondence::now();
            super::outbound::clock_part(&mut t, r.session, r.side, now);
            t.pop();
        }
        retry_part(&mut t, r);
    }
    t
}

fn retry_part(t: &mut String, r: &Retry) {
    let Some(game) = r.session.game() else {
        return;
    };
    let Some(prompt) = game.prompt_for(r.side) else {
        // A game that ended, or was closed by the moderator, sends no more prompts.
        let gid = r.session.game_id();
        let _ = match game.outcome() {
            Some(o) => writeln!(
                t,
                "\nGame {gid} is over: {}; it takes no more moves.",
                match o.winner {
                    Some(w) => format!("{w} wins by {}", o.reason.describe()),
                    None => format!("a draw by {}", o.reason.describe()),
                }
            ),
            None if r.session.is_revealed() => writeln!(
                t,
                "\nGame {gid} is closed (its seed is revealed); it takes no more moves."
            ),
            None => writeln!(
                t,
                "\nYou owe no decision now; your next prompt mail will come when you do."
            ),
        };
        return;
    };
    let Some(token) = r.session.reply_token(r.side) else {
        return;
    };
    let _ = writeln!(t, "\n== Your decision (still owed) ==");
    let _ = writeln!(t, "{}", prompt.text);
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Reply to this mail with your move on a line of its own and keep this line:"
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "Token: {token}");
    let _ = writeln!(t);
    super::outbound::options_part(t, game, r.side, r.session.log().next_seq());
}

/// A subject without any leading `Re:`/`Fwd:`/`AW:`/`SV:` (any case, any number), without the
/// game tag and without an earlier `Refused (…) —` mark.
pub fn bare_subject(subject: &str, game: Option<&str>) -> String {
    let mut s = subject.trim().to_string();
    loop {
        let before = s.clone();
        let lower = s.to_ascii_lowercase();
        for p in [
            "re:", "fwd:", "fw:", "aw:", "sv:", "wg:", "tr:", "antw:", "re :",
        ] {
            if lower.starts_with(p) {
                s = s[p.len()..].trim_start().to_string();
                break;
            }
        }
        if let Some(g) = game {
            let tag = subject_tag(g);
            if s.starts_with(&tag) {
                s = s[tag.len()..].trim_start().to_string();
            }
        }
        if s.starts_with("Refused (") {
            if let Some(i) = s.find(") — ") {
                s = s[i + ") — ".len()..].trim_start().to_string();
            } else if let Some(i) = s.find(')') {
                s = s[i + 1..].trim_start().to_string();
            }
        }
        if s == before {
            return s;
        }
    }
}

/// The refusal's subject: `Re: [TS <game>] Refused (<kind>) — <original subject>`, with
/// exactly one `Re:` however often the thread went back and forth.
pub fn refusal_subject(subject: &str, game: Option<&str>, refusal: &Refusal) -> String {
    let tag = subject_tag(game.unwrap_or("?"));
    format!(
        "Re: {tag} Refused ({}) — {}",
        refusal.kind(),
        bare_subject(subject, game)
    )
}

/// The refusal as a MIME message to `to`, threaded to the refused mail, with a Message-ID
/// made of the refused mail's digest and the game's position, bound to the retry's token (when
/// there is one).
#[allow(clippy::too_many_arguments)]
pub fn refusal_message(
    config: &MailConfig,
    to: &str,
    subject: &str,
    refused_id: &str,
    refused_digest: &str,
    retry: Option<&Retry>,
    text: &str,
) -> Result<Message, MailError> {
    let from = config.sender();
    let domain = bare_address(&from)
        .rsplit_once('@')
        .map(|(_, d)| d.to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "localhost".into());
    let short = &refused_digest[..refused_digest.len().min(16)];
    // Made of the refused mail's bytes and the game's position, never of the clock: the same
    // refusal composed again after a crash is the same mail, queued once (`super::queue`).
    let token = |r: &Retry| {
        let token = r.session.reply_token(r.side)?;
        r.session.game()?.prompt_for(r.side)?;
        Some(token)
    };
    let message_id = match retry {
        Some(r) => {
            let (gid, side) = (r.session.game_id(), r.side.name().to_ascii_lowercase());
            let seq = r.session.log().next_seq();
            match token(r) {
                Some(t) => format!(
                    "<ts.{gid}.{side}.k{}.r{short}.s{seq}@{domain}>",
                    message_id_tag(&t)
                ),
                None => format!("<ts.{gid}.{side}.r{short}.s{seq}@{domain}>"),
            }
        }
        None => format!("<ts.refused.{short}@{domain}>"),
    };
    let mut b = Message::builder()
        .from(
            from.parse::<Mailbox>()
                .or_else(|_| bare_address(&from).parse())
                .map_err(|e| MailError::Config(format!("bad sender `{from}`: {e}")))?,
        )
        .to(to
            .parse::<Mailbox>()
            .map_err(|e| MailError::Build(e.to_string()))?)
        .subject(subject.to_string())
        .message_id(Some(message_id));
    if !refused_id.is_empty() {
        b = b
            .in_reply_to(format!("<{refused_id}>"))
            .references(format!("<{refused_id}>"));
    }
    b.singlepart(SinglePart::plain(text.to_string()))
        .map_err(|e| MailError::Build(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_never_double_re() {
        let r = Refusal::NoMove;
        let s1 = refusal_subject("Re: [TS g1] Setup — USSR: place 6", Some("g1"), &r);
        assert_eq!(s1, "Re: [TS g1] Refused (no-move) — Setup — USSR: place 6");
        let s2 = refusal_subject(&format!("RE: Re: {s1}"), Some("g1"), &r);
        assert_eq!(s2, s1);
        assert!(!s2.to_lowercase().contains("re: re:"));
    }
}
