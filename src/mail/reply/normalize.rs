//! From a text part of a mail to the text the player typed: line ends as `\n`, the
//! `format=flowed` encoding undone (RFC 3676), and the characters a client or a phone keyboard
//! adds without showing them removed or read as the ASCII the notation expects.

use mail_parser::MimeHeaders;

/// Line ends as `\n`, then [`normalize_chars`].
pub(super) fn clean(s: &str) -> String {
    normalize_chars(&s.replace("\r\n", "\n").replace('\r', "\n"))
}

/// Whether `c` is an invisible format character a client or a phone keyboard may put inside a
/// line: the soft hyphen (U+00AD), the Arabic letter mark (U+061C), the Mongolian vowel
/// separator (U+180E), zero-width space, non-joiner and joiner (U+200B–U+200D), the
/// left-to-right and right-to-left marks (U+200E, U+200F), the bidirectional embeddings and
/// overrides (U+202A–U+202E), the word joiner and invisible operators (U+2060–U+2064), the
/// bidirectional isolates (U+2066–U+2069), the deprecated format controls (U+206A–U+206F) and
/// the byte order mark / zero-width no-break space (U+FEFF). None of them shows, so none may
/// change what a line says.
pub fn is_invisible_format_char(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
    )
}

/// The text of a reply as the player sees it, in the characters the notation reads:
///
/// * invisible format characters ([`is_invisible_format_char`]: direction marks, zero-width
///   characters, the soft hyphen, the byte order mark) are removed;
/// * the full-width forms of ASCII (U+FF01–U+FF5E, typed by East Asian input methods: `４`,
///   `Ｐｏｌａｎｄ`) read as their ASCII characters (their Unicode compatibility decomposition,
///   as NFKC maps them), and the ideographic space U+3000 as a space;
/// * the no-break spaces (U+00A0, U+2007, U+202F), the other fixed-width spaces (U+2000–U+200A)
///   and the medium mathematical space (U+205F) read as a plain space.
///
/// Everything else, line ends included, is kept as it is.
pub fn normalize_chars(s: &str) -> String {
    s.chars()
        .filter(|c| !is_invisible_format_char(*c))
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c),
            '\u{3000}' | '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' => ' ',
            c => c,
        })
        .collect()
}

/// Undoes the `format=flowed` encoding of a `text/plain` part (RFC 3676 §4): the text as the
/// sender typed it, for reading moves line by line.
///
/// Each line's quote depth is its leading `>` count (§4.5); after the quote marks one leading
/// space, the space the sender stuffed in (§4.4), is removed. A line that ends in a space is
/// *flowed* (§4.2): it is joined with the next line when that line has the same quote depth —
/// with `delsp` (`DelSp=yes`, §4.2 and RFC 3676 §4.1's parameter) the trailing space is the
/// sender's addition and is removed when joining, otherwise it stays. The signature separator
/// `-- ` is never flowed (§4.3). Quoted lines are written back with their `>` marks and one
/// space. Line ends in and out are `\n` (a `\r` before one is dropped).
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The logical line being built: its quote depth and text.
    let mut open: Option<(usize, String)> = None;
    let emit = |out: &mut String, depth: usize, line: &str| {
        if depth > 0 {
            out.push_str(&">".repeat(depth));
            out.push(' ');
        }
        out.push_str(line);
        out.push('\n');
    };
    let body = text.strip_suffix('\n').unwrap_or(text);
    for raw in body.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = raw.chars().take_while(|c| *c == '>').count();
        let rest = &raw[depth..];
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let flowed = rest.ends_with(' ') && rest != "-- ";
        let piece = if flowed && delsp {
            &rest[..rest.len() - 1]
        } else {
            rest
        };
        match open.take() {
            Some((d, mut line)) if d == depth => {
                line.push_str(piece);
                open = Some((d, line));
            }
            Some((d, line)) => {
                // A change of quote depth ends a flowed paragraph (§4.5).
                emit(&mut out, d, &line);
                open = Some((depth, piece.to_string()));
            }
            None => open = Some((depth, piece.to_string())),
        }
        if !flowed {
            if let Some((d, line)) = open.take() {
                emit(&mut out, d, &line);
            }
        }
    }
    if let Some((d, line)) = open.take() {
        emit(&mut out, d, &line);
    }
    out
}

/// The text of a text part: unflowed when its `Content-Type` says `format=flowed`
/// ([`unflow`]), then [`clean`]ed.
pub(super) fn part_text(part: &mail_parser::MessagePart, text: &str) -> String {
    let param = |name: &str| {
        part.content_type()
            .and_then(|ct| ct.attribute(name))
            .map(|v| v.trim().to_ascii_lowercase())
    };
    if param("format").as_deref() == Some("flowed") {
        clean(&unflow(text, param("delsp").as_deref() == Some("yes")))
    } else {
        clean(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::reply::{extract, read};

    #[test]
    fn invisible_marks_full_width_forms_and_no_break_spaces_read_as_typed() {
        // Direction marks, zero-width characters and a soft hyphen inside a move line,
        // full-width digits and letters from a phone's input method, no-break spaces.
        let marks = [
            '\u{200e}', '\u{200f}', '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}',
            '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{feff}', '\u{200b}', '\u{200c}',
            '\u{200d}', '\u{ad}',
        ];
        for m in marks {
            let line = format!("{m}influence Po{m}land 4,{m} East Ger{m}many 2{m}");
            assert_eq!(
                normalize_chars(&line),
                "influence Poland 4, East Germany 2",
                "U+{:04X}",
                u32::from(m)
            );
        }
        assert_eq!(
            normalize_chars("ｉｎｆｌｕｅｎｃｅ　Ｐｏｌａｎｄ　４，\u{a0}East\u{202f}Germany ２"),
            "influence Poland 4, East Germany 2"
        );
        assert_eq!(normalize_chars("！～"), "!~");
        // Through `read`: the body the moves are read from is normalized (UTF-8, 8bit).
        let raw = "From: a@b.test\r\nSubject: s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\u{200f}influence Poland \u{ff14}, East\u{a0}Germany 2\u{200e}\r\n";
        let r = read(raw.as_bytes()).unwrap();
        let e = extract(&r.body, &r.all_text);
        assert_eq!(
            e.moves,
            vec!["influence Poland 4, East Germany 2".to_string()]
        );
    }

    #[test]
    fn format_flowed_lines_are_joined_as_rfc_3676_says() {
        // Soft breaks (a line ending in a space) joined; space-stuffing removed; the signature
        // separator never flowed; a change of quote depth ends a paragraph.
        let t = "influence Poland 4, East \r\nGermany 2\r\n From the start\r\n-- \r\nBoris\r\n> quoted \r\n> on\r\nnext\r\n";
        assert_eq!(
            unflow(t, false),
            "influence Poland 4, East Germany 2\nFrom the start\n-- \nBoris\n> quoted on\nnext\n"
        );
        // DelSp=yes: the space before a soft break was added by the sender, not typed.
        assert_eq!(
            unflow("influence Poland 4, East Ger \nmany 2\n", true),
            "influence Poland 4, East Germany 2\n"
        );
        let mail = |ct: &str, body: &str| {
            let raw = format!("From: a@b.test\r\nSubject: s\r\nContent-Type: {ct}\r\n\r\n{body}");
            let r = read(raw.as_bytes()).unwrap();
            extract(&r.body, &r.all_text).moves
        };
        let want = vec!["influence Poland 4, East Germany 2".to_string()];
        assert_eq!(
            mail(
                "text/plain; charset=utf-8; format=flowed",
                "influence Poland 4, East \r\nGermany 2\r\n"
            ),
            want
        );
        assert_eq!(
            mail(
                "text/plain; charset=utf-8; format=Flowed; DelSp=Yes",
                "influence Poland 4, East Ger \r\nmany 2\r\n"
            ),
            want
        );
        // Not flowed: a trailing space is no soft break.
        assert_ne!(
            mail(
                "text/plain; charset=utf-8",
                "influence Poland 4, East \r\nGermany 2\r\n"
            ),
            want
        );
    }
}
