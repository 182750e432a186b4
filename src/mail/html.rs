//! The HTML part of a game mail (design §5 "The mail shows"): the same mail as the plain-text
//! part, with the board as real tables, so that web mail shows it without a monospace font.
//!
//! The plain-text part stays complete on its own; this part only renders it again. The
//! message's body is `multipart/alternative` (plain text, HTML); with inline parts (the board
//! picture) the HTML part becomes `multipart/related` holding them, referred
//! to from the HTML as `cid:<content_id>` ([`alternative_body`]).

use std::fmt::Write as _;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, MultiPart, SinglePart};

use super::MailError;
use crate::data::{Region, Side, ALL_COUNTRIES};
use crate::engine::view::View;
use crate::engine::vp_text;

/// A part shown inside the HTML (an image), referred to as `cid:<content_id>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlinePart {
    /// The Content-ID, without angle brackets (`board@twilight`).
    pub content_id: String,
    /// Its MIME type (`image/png`).
    pub content_type: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// `&`, `<`, `>` and `"` escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn side_name(s: Option<Side>) -> &'static str {
    match s {
        Some(Side::Us) => "US",
        Some(Side::Ussr) => "USSR",
        None => "",
    }
}

/// The board as HTML tables: the tracks, then one table per region listing every country
/// (Stability, Battleground, US and USSR Influence, Control).
pub fn board_tables(v: &View) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<table border=\"1\" cellpadding=\"3\" style=\"border-collapse:collapse\"><tr><th>Turn</th><th>Action Round</th><th>VP</th><th>DEFCON</th><th>Military Operations</th><th>Space Race</th><th>China Card</th></tr><tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>US {} · USSR {}</td><td>US {} · USSR {}</td><td>{}</td></tr></table>",
        v.turn,
        if v.before_play.is_some() {
            v.phase_name()
        } else if v.action_round == 0 {
            "Headline".to_string()
        } else {
            v.action_round.to_string()
        },
        escape(&vp_text(v.vp)),
        v.defcon,
        v.milops.us,
        v.milops.ussr,
        v.space.us,
        v.space.ussr,
        match v.china_holder {
            Some(s) => format!("{s}{}", if v.china_face_up { "" } else { " (face down)" }),
            None => "unclaimed".into(),
        }
    );
    for region in Region::ALL {
        let _ = writeln!(h, "<h3>{}</h3>", escape(region.name()));
        let _ = writeln!(
            h,
            "<table border=\"1\" cellpadding=\"3\" style=\"border-collapse:collapse\"><tr><th>Country</th><th>Stability</th><th>Battleground</th><th>US</th><th>USSR</th><th>Control</th></tr>"
        );
        for c in ALL_COUNTRIES
            .into_iter()
            .filter(|c| c.info().region == region)
        {
            let i = c.info();
            let on = v.board.iter().find(|b| b.country == c);
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(i.name),
                i.stability,
                if i.battleground { "yes" } else { "" },
                on.map_or(0, |b| b.us),
                on.map_or(0, |b| b.ussr),
                side_name(on.and_then(|b| b.control))
            );
        }
        let _ = writeln!(h, "</table>");
    }
    h
}

/// The heading of the options' section in a mail's text.
const OPTIONS_HEADING: &str = "== Your options ==";

/// The heading of the decision's section in a mail's text.
const DECISION_HEADING: &str = "== Your decision ==";

/// The HTML part of a mail whose plain text is `text`, laid out for a phone: the board picture
/// first (each inline part as `<img src="cid:…">`, scaled to the screen), then the text before
/// the first section (where in the game, the clock), the decision, the options grouped once
/// ([`options_html`]), the other sections in the text's order as wrapping preformatted text,
/// and the section headed `board_heading` as [`board_tables`]. The plain-text part stays the
/// one replies are read against; this part only shows it again.
pub fn mail_html(text: &str, board_heading: &str, v: &View, inline: &[InlinePart]) -> String {
    let mut h = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:90%}</style></head><body>\n",
    );
    for p in inline {
        let _ = writeln!(
            h,
            "<p><img src=\"cid:{}\" alt=\"The board: Influence and Control in all 84 countries, VP, DEFCON, turn, Space Race, Military Operations, China Card and effects in play\" width=\"1068\" style=\"display:block;width:100%;max-width:1068px;height:auto;border:0\"></p>",
            escape(&p.content_id)
        );
    }
    let sections = sections(text);
    let first = |name: &str| sections.iter().position(|(head, _)| *head == name);
    let mut order: Vec<usize> = Vec::new();
    order.extend(first(""));
    order.extend(first(DECISION_HEADING));
    order.extend(first(OPTIONS_HEADING));
    for i in 0..sections.len() {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    for i in order {
        let (head, body) = &sections[i];
        if !head.is_empty() {
            let _ = writeln!(h, "<h2>{}</h2>", escape(head.trim_matches(['=', ' '])));
        }
        if *head == board_heading {
            h.push_str(&board_tables(v));
        } else if *head == OPTIONS_HEADING {
            h.push_str(&options_html(body));
        } else if !body.trim().is_empty() {
            let _ = writeln!(h, "<pre>{}</pre>", escape(body.trim_end()));
        }
    }
    h.push_str("</body></html>\n");
    h
}

/// The text's sections: the lines before the first `== … ==` heading (heading `""`), then each
/// heading with the lines under it.
fn sections(text: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = vec![("", String::new())];
    for line in text.lines() {
        if line.starts_with("== ") {
            out.push((line, String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The options' section as HTML, each option once: a group's moves as a list, a group whose
/// moves differ only in the country after `coup` or `realign` as one line of country names,
/// the countries in reach as a wrapping paragraph, then the examples not already listed. The
/// decision's own line, which the section repeats in the text, is left out.
fn options_html(body: &str) -> String {
    let mut h = String::new();
    let mut lines = body.lines().peekable();
    // The decision's text, repeated from the decision's section.
    lines.next();
    let mut listed: Vec<String> = Vec::new();
    let mut group: Option<(String, Vec<String>)> = None;
    let mut examples = false;
    let mut examples_shown: Vec<String> = Vec::new();
    let flush = |h: &mut String, group: &mut Option<(String, Vec<String>)>| {
        if let Some((name, moves)) = group.take() {
            group_html(h, &name, &moves);
        }
    };
    for line in lines {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if line.starts_with("Moves you can send as they are") {
            flush(&mut h, &mut group);
            examples = true;
            continue;
        }
        if examples {
            if !listed.iter().any(|l| l == t) && !examples_shown.iter().any(|l| l == t) {
                examples_shown.push(t.to_string());
            }
            continue;
        }
        if line.starts_with("    ") {
            if let Some((_, moves)) = group.as_mut() {
                moves.push(t.to_string());
                listed.push(t.to_string());
                continue;
            }
        }
        flush(&mut h, &mut group);
        if t.ends_with(':') && line.starts_with("  ") {
            group = Some((t.trim_end_matches(':').to_string(), Vec::new()));
        } else {
            let _ = writeln!(h, "<p>{}</p>", escape(t));
        }
    }
    flush(&mut h, &mut group);
    if !examples_shown.is_empty() {
        group_html(
            &mut h,
            "Moves you can send as they are, for example",
            &examples_shown,
        );
    }
    h
}

/// One group of moves: one line of country names when every move is `… coup COUNTRY` or
/// `… realign COUNTRY` with the same beginning, else a list.
fn group_html(h: &mut String, name: &str, moves: &[String]) {
    let split = |m: &str| {
        ["coup ", "realign "].iter().find_map(|k| {
            m.rfind(k)
                .map(|i| (m[..i + k.len()].to_string(), m[i + k.len()..].to_string()))
        })
    };
    let parts: Vec<Option<(String, String)>> = moves.iter().map(|m| split(m)).collect();
    let same_start = parts
        .first()
        .and_then(|p| p.as_ref())
        .map(|(s, _)| s.clone());
    if let Some(start) = same_start.filter(|s| {
        moves.len() > 1
            && parts
                .iter()
                .all(|p| p.as_ref().is_some_and(|(b, _)| b == s))
    }) {
        let names: Vec<String> = parts
            .into_iter()
            .flatten()
            .map(|(_, c)| escape(&c))
            .collect();
        let _ = writeln!(
            h,
            "<p><b>{}</b> (send <code>{}COUNTRY</code>): {}</p>",
            escape(name),
            escape(&start),
            names.join(", ")
        );
        return;
    }
    let _ = writeln!(h, "<p><b>{}</b></p><ul>", escape(name));
    for m in moves {
        let _ = writeln!(h, "<li><code>{}</code></li>", escape(m));
    }
    let _ = writeln!(h, "</ul>");
}

/// `bytes` as a MIME body (base64 for a picture), encoded once for the mails of one reply:
/// they carry the same picture, and encoding it anew for each would take a tenth of a
/// reply's time. Keeps the last one encoded, compared byte for byte.
fn encoded(bytes: &[u8]) -> lettre::message::Body {
    use std::sync::{Mutex, OnceLock};
    /// The last bytes encoded, and their body.
    type Last = Mutex<Option<(Vec<u8>, lettre::message::Body)>>;
    static LAST: OnceLock<Last> = OnceLock::new();
    let mut last = LAST
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    match &*last {
        Some((b, body)) if b.as_slice() == bytes => body.clone(),
        _ => {
            let body = lettre::message::Body::new(bytes.to_vec());
            *last = Some((bytes.to_vec(), body.clone()));
            body
        }
    }
}

/// The body of a game mail: `multipart/alternative` of `text` and `html`; with inline parts the
/// HTML alternative is `multipart/related` holding them.
pub fn alternative_body(
    text: &str,
    html: &str,
    inline: &[InlinePart],
) -> Result<MultiPart, MailError> {
    let alt = MultiPart::alternative().singlepart(SinglePart::plain(text.to_string()));
    if inline.is_empty() {
        return Ok(alt.singlepart(SinglePart::html(html.to_string())));
    }
    let mut related = MultiPart::related().singlepart(SinglePart::html(html.to_string()));
    for p in inline {
        let ct =
            ContentType::parse(&p.content_type).map_err(|e| MailError::Build(e.to_string()))?;
        related = related
            .singlepart(Attachment::new_inline(p.content_id.clone()).body(encoded(&p.bytes), ct));
    }
    Ok(alt.multipart(related))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options' section: each move once, coups as one line of names, the decision's own
    /// line left out, the examples already listed not repeated.
    #[test]
    fn options_are_grouped_once() {
        let body = "Play a card for Operations\n  For Operations:\n    play 7 ops coup Angola\n    play 7 ops coup Zaire\n  Or:\n    pass\n  In reach for Influence (3 Ops): Angola, Zaire\nMoves you can send as they are, for example:\n  play 7 ops coup Angola\n  play 7 ops realign Iran\n";
        let h = options_html(body);
        assert!(!h.contains("Play a card for Operations"), "{h}");
        assert!(
            h.contains(
                "<b>For Operations</b> (send <code>play 7 ops coup COUNTRY</code>): Angola, Zaire"
            ),
            "{h}"
        );
        assert_eq!(h.matches("coup Angola").count(), 0, "{h}");
        assert_eq!(h.matches("Angola").count(), 2, "{h}"); // the coup line and the reach line
        assert!(
            h.contains("<li><code>play 7 ops realign Iran</code></li>"),
            "{h}"
        );
        assert!(h.contains("<li><code>pass</code></li>"), "{h}");
        assert!(
            h.contains("<p>In reach for Influence (3 Ops): Angola, Zaire</p>"),
            "{h}"
        );
    }

    /// The memo gives the body `Body::new` gives, for the same bytes and for new ones.
    #[test]
    fn a_picture_is_encoded_as_lettre_encodes_it() {
        let a: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let b: Vec<u8> = a.iter().rev().copied().collect();
        for bytes in [&a, &a, &b, &a] {
            let want = lettre::message::Body::new(bytes.clone());
            let got = encoded(bytes);
            assert_eq!(got.encoding(), want.encoding());
            assert_eq!(got.as_ref(), want.as_ref());
        }
    }
}
