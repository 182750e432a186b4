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

/// The HTML part of a mail whose plain text is `text`: the text's sections as preformatted
/// text, except the one headed `board_heading`, which becomes [`board_tables`]; then an
/// `<img src="cid:…">` for each inline part.
pub fn mail_html(text: &str, board_heading: &str, v: &View, inline: &[InlinePart]) -> String {
    let mut h =
        String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    let mut pre = String::new();
    let mut in_board = false;
    let flush = |h: &mut String, pre: &mut String| {
        if !pre.trim().is_empty() {
            let _ = writeln!(h, "<pre>{}</pre>", escape(pre.trim_end()));
        }
        pre.clear();
    };
    for line in text.lines() {
        if line.starts_with("== ") {
            flush(&mut h, &mut pre);
            in_board = line == board_heading;
            let _ = writeln!(h, "<h2>{}</h2>", escape(line.trim_matches(['=', ' '])));
            if in_board {
                // The picture first, full width and scaled down on a phone; the
                // tables after it say the same for a client that shows no images.
                for p in inline {
                    let _ = writeln!(
                        h,
                        "<p><img src=\"cid:{}\" alt=\"The board: Influence and Control in all 84 countries, VP, DEFCON, turn, Space Race, Military Operations, China Card and effects in play\" width=\"1068\" style=\"display:block;width:100%;max-width:1068px;height:auto;border:0\"></p>",
                        escape(&p.content_id)
                    );
                }
                h.push_str(&board_tables(v));
            }
            continue;
        }
        if !in_board {
            pre.push_str(line);
            pre.push('\n');
        }
    }
    flush(&mut h, &mut pre);
    h.push_str("</body></html>\n");
    h
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
