//! Identifying a mail's game and its sender: the game id from the subject's `[TS <game>]` tag
//! (or a `Game:` line, or the prompt the mail answers), the game's folder under the games
//! folder, and the sides the sender's address plays in it. The sender of a mail too broken to
//! read is still found when its headers name one, so that the refusal can be answered.

use std::path::{Path, PathBuf};

use mail_parser::MessageParser;
use sha2::{Digest, Sha256};

use super::Received;
use crate::data::Side;
use crate::mail::bare_address;
use crate::mail::reply;
use crate::session::Session;
use crate::text::controls::one_line;

/// The sender, subject and Message-ID of a message too broken to read in full, if its
/// headers name a sender (so a refusal can still be answered).
///
/// Only the header is parsed, and at most [`reply::MAX_HEADER_BYTES`] of it.
pub(super) fn sender_of(raw: &[u8]) -> Option<Received> {
    let lf = reply::lf_line_ends(raw);
    let head = &lf[..reply::header_len(&lf)
        .min(reply::MAX_HEADER_BYTES)
        .min(lf.len())];
    let msg = MessageParser::default().parse_headers(head)?;
    let from = msg.from()?.first()?.address()?.to_ascii_lowercase();
    from.contains('@').then(|| Received {
        from: one_line(&from).into_owned(),
        subject: one_line(msg.subject().unwrap_or_default()).into_owned(),
        message_id: one_line(msg.message_id().unwrap_or_default()).into_owned(),
        answers: Vec::new(),
        body: String::new(),
        all_text: String::new(),
        digest: hex::encode(Sha256::digest(raw)),
    })
}

/// The game id of a subject's `[TS <game>]` tag (the tag in any letter case: `[ts g1]`).
pub fn game_from_subject(subject: &str) -> Option<String> {
    let start = subject.to_ascii_uppercase().find("[TS ")? + 4;
    let end = subject[start..].find(']')? + start;
    let id = subject[start..end].trim();
    (!id.is_empty()).then(|| id.to_string())
}

pub(super) fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id != "."
        && id != ".."
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The folder of game `id` and the game's id as its folder spells it: `id` itself, else the
/// one game folder whose name is `id` in another letter case (`[TS G1]` for `g1`); `None`
/// when there is none, or several.
pub(super) fn game_dir_of(games_dir: &Path, id: &str) -> Option<(PathBuf, String)> {
    if !valid_game_id(id) {
        return None;
    }
    let d = games_dir.join(id);
    if d.join("log.yaml").is_file() {
        return Some((d, id.to_string()));
    }
    let mut found = std::fs::read_dir(games_dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.eq_ignore_ascii_case(id) && games_dir.join(n).join("log.yaml").is_file());
    let name = found.next()?;
    found
        .next()
        .is_none()
        .then(|| (games_dir.join(&name), name))
}

/// The sides `address` plays in the game of `session`.
pub(super) fn sides_of(session: &Session, address: &str) -> Vec<Side> {
    [Side::Us, Side::Ussr]
        .into_iter()
        .filter(|s| {
            let p = match s {
                Side::Us => &session.players().us,
                Side::Ussr => &session.players().ussr,
            };
            bare_address(p) == address
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_tags_name_the_game() {
        assert_eq!(
            game_from_subject("Re: [TS g-7] Turn 1 Headline — x").as_deref(),
            Some("g-7")
        );
        assert_eq!(game_from_subject("hello"), None);
        assert!(!valid_game_id("../etc"));
        assert!(valid_game_id("g-7_x.1"));
    }
}
