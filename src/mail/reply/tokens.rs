//! The reply tokens a mail carries (FAIRNESS.md §10): the token of a `Token:` line, the
//! candidates kept (at most [`MAX_TOKENS`], each once), and the tag by which a prompt's
//! Message-ID stands for its token in a reply's `In-Reply-To`/`References`. Which token
//! authenticates which player is decided in [`crate::mail::inbound`] (`authenticate`).

use sha2::{Digest, Sha256};

use super::MAX_TOKENS;
use crate::chance::fairness::REPLY_TOKEN_LEN;

/// A token found inside a line: the word after `Token:` (Crockford base 32, hyphens and spaces
/// allowed inside, as the prompt prints it and a person may retype it).
pub(super) fn token_in(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let at = lower.find("token:")?;
    let rest = line[at + "token:".len()..].trim_start();
    let mut tok = String::new();
    let mut alnum = 0;
    for c in rest.chars() {
        if alnum == REPLY_TOKEN_LEN {
            break;
        }
        if c.is_ascii_alphanumeric() {
            alnum += 1;
            tok.push(c);
        } else if c == '-' || c == ' ' {
            tok.push(c);
        } else {
            break;
        }
    }
    let tok = tok.trim().trim_end_matches('-').trim().to_string();
    (alnum >= 8).then_some(tok)
}

pub(super) fn push_token(tokens: &mut Vec<String>, tok: String) {
    let key = |t: &str| {
        t.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_uppercase()
    };
    if tokens.len() < MAX_TOKENS && !tokens.iter().any(|t| key(t) == key(&tok)) {
        tokens.push(tok);
    }
}

/// The tag a prompt's Message-ID carries for its reply token: the first 16 hex digits of
/// SHA-256(`twilight-pbem message-id` ‖ token). It binds the Message-ID to the token without
/// revealing it, so a reply that names the prompt in `In-Reply-To`/`References` is
/// authenticated even when the client stripped the quote.
pub fn message_id_tag(token: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"twilight-pbem message-id\0");
    h.update(token.as_bytes());
    hex::encode(h.finalize())[..16].to_string()
}

/// A prompt Message-ID's parts, `ts.<game>.<side>.k<tag>.<n>.s<seq>@domain`: the game, the
/// side's name in lower case, the tag and the log seq. `None` for any other Message-ID.
pub fn parse_prompt_id(id: &str) -> Option<(String, String, String, u64)> {
    let local = id.split('@').next()?;
    let rest = local.strip_prefix("ts.")?;
    let mut parts = rest.rsplitn(5, '.');
    let seq = parts.next()?.strip_prefix('s')?.parse().ok()?;
    let _n = parts.next()?;
    let tag = parts.next()?.strip_prefix('k')?.to_string();
    let side = parts.next()?.to_string();
    let game = parts.next()?.to_string();
    Some((game, side, tag, seq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_ids_round_trip() {
        let id = format!("ts.g.1.us.k{}.3.s45@example.org", message_id_tag("T"));
        let (g, s, tag, seq) = parse_prompt_id(&id).unwrap();
        assert_eq!((g.as_str(), s.as_str(), seq), ("g.1", "us", 45));
        assert_eq!(tag, message_id_tag("T"));
        assert_eq!(parse_prompt_id("reply.1@x"), None);
    }
}
