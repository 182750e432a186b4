//! Where the player's new text ends and what around it a mail client added: quoted lines and
//! quoting attributions (skipped, so an inline reply between quotes is still read), and the
//! lines from which on nothing is the player's (a signature, a mobile footer, Outlook's header
//! block, an original-message separator, the first line of one of our own mails).

use super::field;

/// Strips any depth of `>` quoting.
pub(super) fn unquote(line: &str) -> &str {
    line.trim_start().trim_start_matches(['>', ' ', '|'])
}

/// A quoting attribution at line `i`: one line, or up to three wrapped lines joined, that ends
/// with `wrote:` (and the common translations; mutt's `* Name <addr> [date]:` too) and, when
/// wrapped, opens like one (`On …`, `Am …`, `Le …`). Returns how many lines it takes (0: none).
pub(super) fn attribution_len(lines: &[&str], i: usize) -> usize {
    let ends = |s: &str| {
        let s = s.trim_end().to_lowercase();
        s.ends_with("wrote:")
            || s.ends_with("writes:")
            || s.ends_with("a écrit :")
            || s.ends_with("a écrit:")
            || s.ends_with("schrieb:")
            || s.ends_with("escribió:")
            || s.ends_with("ha scritto:")
            || s.ends_with("geschreven:")
    };
    let first = lines[i].trim();
    if first.starts_with('>') || first.is_empty() {
        return 0;
    }
    let mut joined = first.to_string();
    if ends(&joined) || first.starts_with("* ") && first.ends_with("]:") {
        return 1;
    }
    let opens = ["on ", "am ", "le ", "el ", "il ", "op "];
    if !opens.iter().any(|o| first.to_lowercase().starts_with(o)) {
        return 0;
    }
    for (k, next) in lines.iter().skip(i + 1).take(2).enumerate() {
        let n = next.trim();
        if n.is_empty() || n.starts_with('>') {
            return 0;
        }
        joined.push(' ');
        joined.push_str(n);
        if ends(&joined) {
            return k + 2;
        }
    }
    0
}

/// Outlook's header block: `From: …` followed within four lines by `Sent: …` or `Date: …`
/// (or their translations), with or without the `____` line above it.
fn header_block_at(lines: &[&str], i: usize) -> bool {
    let l = unquote(lines[i]);
    let is = |s: &str, names: &[&str]| names.iter().any(|n| field(s, n).is_some());
    if !is(l, &["from", "von", "de", "van"]) || field(l, "from").is_some_and(str::is_empty) {
        return false;
    }
    lines.iter().skip(i + 1).take(4).any(|n| {
        is(
            unquote(n),
            &["sent", "date", "gesendet", "envoyé", "enviado", "to"],
        )
    })
}

/// The first lines our mails open with (`outbound`, `refusal`, `receipt`, `invite`): where an
/// unquoted original included by the player's client begins.
const OWN_MAIL_STARTS: [&str; 5] = [
    "Twilight Struggle by email · game ",
    "Your mail was refused; nothing was added to the game's log.",
    "Your move is recorded in game ",
    "Your nonce is recorded in game ",
    "You are invited to play Twilight Struggle by mail, game ",
];

/// A line at which the player's new text ends (everything from it on was added by the client:
/// a signature, a footer, the header block or separator of an unquoted original). A quoting
/// attribution does not end it — a bottom-posted or inline reply goes on below the quote — but
/// is skipped with the quote.
pub(super) fn ends_new_text(lines: &[&str], i: usize) -> bool {
    let raw = lines[i];
    let t = raw.trim();
    let lower = t.to_lowercase();
    if raw.trim_end() == "--" || raw == "-- " || t == "—" {
        return true;
    }
    if t.len() >= 10 && t.chars().all(|c| c == '_') {
        return true; // Outlook's separator
    }
    let dashed = lower.trim_matches(|c: char| c == '-' || c == ' ');
    if lower.starts_with("---")
        && (dashed.contains("original message")
            || dashed.contains("forwarded message")
            || dashed.contains("message d'origine")
            || dashed.contains("ursprüngliche nachricht"))
    {
        return true;
    }
    if lower.starts_with("begin forwarded message") {
        return true;
    }
    // The first line of one of our own mails (a prompt, an update, a refusal, a receipt, an
    // invitation): a client that includes the original unquoted and with no header block puts
    // it here, and its example moves were never typed by the player.
    if OWN_MAIL_STARTS.iter().any(|s| t.starts_with(s)) {
        return true;
    }
    let footers = [
        "sent from my ",
        "sent from outlook",
        "sent from mail for",
        "sent from yahoo",
        "sent from proton",
        "sent with proton",
        "sent from samsung",
        "sent from the all-new",
        "get outlook for",
        "envoyé de mon",
        "von meinem iphone",
        "von meinem ipad",
        "sent via ",
        "sent using ",
    ];
    if footers.iter().any(|f| lower.starts_with(f)) {
        return true;
    }
    header_block_at(lines, i)
}

#[cfg(test)]
mod tests {
    use crate::mail::reply::{extract, Extracted};

    fn ex(body: &str) -> Extracted {
        extract(body, "")
    }

    #[test]
    fn quotes_signatures_and_fields() {
        let body = "Token: ABCD-EFGH-JKMN-PQRS\nGame: g1\n\nplay 4 space\n\nOn Mon, ref wrote:\n> Token: OLDOLDOLDOLD\n> pass\n-- \nAlice\npass\n";
        let e = ex(body);
        assert_eq!(e.tokens[0], "ABCD-EFGH-JKMN-PQRS");
        assert_eq!(e.tokens.len(), 2);
        assert_eq!(e.game.as_deref(), Some("g1"));
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
    }

    #[test]
    fn a_token_below_the_signature_is_found() {
        let e =
            ex("play 4 space\n-- \nAlice\n\nOn 1 Dec, ref wrote:\n> Token: QQQQ-WWWW-EEEE-RRRR\n");
        assert_eq!(e.token(), Some("QQQQ-WWWW-EEEE-RRRR"));
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
    }

    #[test]
    fn a_wrapped_attribution_ends_the_moves() {
        let e = ex("play 4 space\n\nOn Tue, 1 Dec 2026 at 10:00, Moderator <\ntwilight@example.org> wrote:\n\n> play NATO ops\n");
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
    }

    #[test]
    fn outlooks_block_and_unquoted_original_are_not_read() {
        let e = ex("play 4 space\n\n________________________________\nFrom: Moderator <t@x>\nSent: Tuesday, December 1, 2026 10:00\nTo: alice@x\nSubject: [TS g1]\n\n  play NATO ops\nToken: AAAA-BBBB-CCCC-DDDD\n");
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
        assert_eq!(e.token(), Some("AAAA-BBBB-CCCC-DDDD"));
        // Without the separator line too.
        let e = ex("pass\nFrom: Moderator <t@x>\nSent: Tuesday\n\nplay 1 space\n");
        assert_eq!(e.moves, vec!["pass".to_string()]);
    }

    #[test]
    fn mobile_footers_end_the_moves() {
        for f in [
            "Sent from my iPhone",
            "Get Outlook for Android",
            "Sent with Proton Mail secure email.",
        ] {
            let e = ex(&format!("pass\n\n{f}\nplay 1 space\n"));
            assert_eq!(e.moves, vec!["pass".to_string()], "{f}");
        }
    }

    #[test]
    fn inline_replies_between_quotes_are_read() {
        let e = ex(
            "> Your decision: headline\nheadline Five Year Plan\n> Token: ZZZZ-YYYY-WWWW-VVVV\n",
        );
        assert_eq!(e.moves, vec!["headline Five Year Plan".to_string()]);
        assert_eq!(e.token(), Some("ZZZZ-YYYY-WWWW-VVVV"));
    }
}
