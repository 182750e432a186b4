//! Control characters taken out of text that came from outside (a player's mail, a file name)
//! before it is shown in a terminal or written into a mail: what a terminal would obey rather
//! than show — C0 controls (U+0000–U+001F, but the line feed and the tab), DEL, C1 controls
//! (U+0080–U+009F), whole escape sequences (ECMA-48 §5.3: `ESC [ … final`, `ESC ] … BEL` or
//! `ESC \`, `ESC` and one character; the C1 forms CSI U+009B and OSC U+009D likewise) — and the
//! bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, Unicode
//! UAX #9 §2), which reorder what follows them on the line (the "Trojan Source" trick).
//!
//! [`printable`] keeps line feeds and tabs (a mail's text, a list of lines); [`one_line`] also
//! turns them (and carriage returns) into spaces, for what must stay on one line (a subject, a
//! sender's address, a file name in a report line).

use std::borrow::Cow;

/// Whether `c` is taken out: a C0 control but `\n` and `\t`, DEL, a C1 control, or a
/// bidirectional embedding, override or isolate.
fn is_stripped(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` without control characters and escape sequences (see the module doc); line feeds and
/// tabs kept. Borrowed when there is nothing to take out. Linear in the length of `s`.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_stripped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // ESC: the sequence it opens goes with it.
            '\u{1b}' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            c if is_stripped(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`printable`], and line feeds, carriage returns and tabs made spaces: for a value that
/// must stay on one line.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if s.contains(['\n', '\r', '\t']) {
        Cow::Owned(printable(&s.replace(['\n', '\r', '\t'], " ")).into_owned())
    } else {
        printable(s)
    }
}

/// The rest of a control sequence after its CSI (ECMA-48 §5.4): parameter and intermediate
/// bytes (U+0020–U+003F), up to and including the final byte (U+0040–U+007E); any other
/// character ends it and is kept.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(&c) = chars.peek() {
        match c {
            '\u{20}'..='\u{3f}' => {
                chars.next();
            }
            '\u{40}'..='\u{7e}' => {
                chars.next();
                return;
            }
            _ => return,
        }
    }
}

/// The rest of a control string (OSC, DCS, SOS, PM, APC: ECMA-48 §5.6) up to its terminator:
/// BEL, ST (U+009C) or `ESC \`; a line feed ends it too (a broken sequence never swallows
/// the lines after it).
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            '\n' => return,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_controls_and_bidi_overrides_are_taken_out() {
        assert_eq!(printable("play 4 space"), "play 4 space");
        assert!(matches!(printable("pass\n\tok"), Cow::Borrowed(_)));
        // A colour, a cursor move, a window title (OSC ended by BEL and by ST), a bell, a
        // backspace, a carriage return, C1 CSI, a right-to-left override.
        assert_eq!(printable("\u{1b}[31mred\u{1b}[0m"), "red");
        assert_eq!(printable("a\u{1b}[2J\u{1b}[1;1Hb"), "ab");
        assert_eq!(printable("\u{1b}]0;pwned\u{7}x"), "x");
        assert_eq!(
            printable("\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "link"
        );
        assert_eq!(printable("a\u{7}b\u{8}c\rd"), "abcd");
        assert_eq!(printable("\u{9b}31mx\u{85}y"), "xy");
        assert_eq!(printable("pass \u{202e}4 yalp\u{202c}"), "pass 4 yalp");
        assert_eq!(printable("\u{2067}x\u{2069}"), "x");
        // An unterminated string stops at the line's end.
        assert_eq!(printable("\u{1b}]0;title\nnext"), "next");
        assert_eq!(printable("end\u{1b}"), "end");
        assert_eq!(one_line("a\nb\tc\r\u{1b}[1md"), "a b c d");
        // Letters beyond ASCII stay.
        assert_eq!(printable("Österreich — ok"), "Österreich — ok");
    }
}
