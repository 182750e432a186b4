//! Reading a reply the way a person reads it.
//!
//! Players answer from ordinary mail clients, and every client adds something around the few
//! lines the player typed. [`read`] turns a raw message into a [`Reply`]: the new text the
//! player wrote (plain text; an HTML-only reply is converted with `mail-parser`'s HTML
//! renderer), every reply token the mail carries anywhere, and the Message-IDs it answers.
//! [`extract`] then takes the moves from that text and stops at everything clients add:
//!
//! * quoted text: `>` lines (skipped, so inline replies between quotes still work), a quoting
//!   attribution (`On Tue, 1 Dec 2026 … wrote:`, also wrapped over two or three lines as Gmail
//!   and Apple Mail wrap it; `Le … a écrit :`, `Am … schrieb …:`), Outlook's
//!   `________________________________` line and its `From:` / `Sent:` header block (after which
//!   the original follows *unquoted*), `-----Original Message-----`, Thunderbird's
//!   `-------- Original Message --------`, forwarded-message separators;
//! * a signature (`-- ` or `--`), mobile footers (`Sent from my iPhone`, `Get Outlook for
//!   Android`, `Sent with Proton Mail`, …);
//! * greetings and sign-offs: before the first move, a line that is not a move is ignored;
//!   after at least one move, the first line that does not read as a move ends the moves
//!   (`Cheers,` / `Boris`). Ignored lines are reported, never refused as moves.
//!
//! The token is looked for everywhere — the new text first, then the quote, anything after the
//! signature, the unquoted Outlook original and the HTML part — because the player kept it
//! wherever their client put it. Attachments are ignored; the size limit applies to the text
//! parts only ([`MAX_TEXT_BYTES`]), and a mail over it is refused as too large.
//!
//! **Bounded work, from anyone.** What is read before the sender is authenticated ([`read`],
//! [`scan`]) takes one pass over the mail, linear in its size, and looks up no name; the
//! Message-IDs it answers are cut to [`MAX_ANSWER_IDS`]. The moves are read ([`read_moves`])
//! once a token is found to be the sender's, and only so far: [`MAX_LINES_READ`] lines of at
//! most [`MAX_LINE_BYTES`], one game-level line of each kind (a second `takeback` refuses the
//! mail) and [`MAX_STANDING_ORDER_LINES`] standing orders. Control characters and escape
//! sequences are taken out of every text read ([`crate::text::controls`]).
//!
//! Where each step lives:
//!
//! * [`read`] (here): the bytes to a [`Reply`], within the bounds a mail may take
//!   ([`MAX_MESSAGE_BYTES`], [`MAX_TEXT_BYTES`]);
//! * `normalize`: a text part to the characters the player typed ([`unflow`],
//!   [`normalize_chars`]);
//! * [`scan`] then [`read_moves`] ([`extract`] does both; here): the tokens and the `Game:`
//!   line, then the moves of that text, using
//!   * `quoting`: where the new text ends, what is quoted;
//!   * `move_lines`: how a line reads (a move, a mistyped move, chatter), and a move wrapped
//!     over several lines;
//!   * `tokens`: the candidate tokens ([`MAX_TOKENS`]) and the prompt Message-ID's tag
//!     ([`message_id_tag`], [`parse_prompt_id`]).

mod move_lines;
mod normalize;
mod quoting;
mod tokens;

use mail_parser::decoders::html::html_to_text;
use mail_parser::{MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

use self::move_lines::{classify, continued, cut_name, is_pleasantry, LineKind};
use self::normalize::{clean, part_text};
use self::quoting::{attribution_len, ends_new_text, unquote};
use self::tokens::{push_token, token_in};
use super::inbound::Refusal;
use crate::text::controls::{one_line, printable};

pub use self::move_lines::MAX_STANDING_ORDER_LINES;
pub use self::normalize::{is_invisible_format_char, normalize_chars, unflow};
pub use self::tokens::{message_id_tag, parse_prompt_id};

/// Largest message read at all, attachments included (bytes): 64 MiB. Photos attached to a
/// reply are ignored, not refused; this only bounds the memory one mail may take.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// Largest text read (bytes): the plain-text and HTML body parts together, 1 MiB.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Largest header read (bytes): 1 MiB, ten times what a mail server lets through (Postfix's
/// `header_size_limit` is 100 KiB). A mail whose header goes on past it is refused as too
/// large before it is parsed: parsed, each header line would take memory of its own.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// At most this many candidate tokens are tried for one mail.
pub const MAX_TOKENS: usize = 8;

/// At most this many Message-IDs a mail answers are kept ([`Reply::answers`]): those of
/// `In-Reply-To` first, then the last of `References` (the parent's own Message-ID is the last
/// one there, RFC 5322 §3.6.4). A client keeps a few; a header of thousands is read in one
/// pass and cut to these.
pub const MAX_ANSWER_IDS: usize = 16;

/// At most this many lines of the new text are read for moves ([`read_moves`]): the lines
/// before the first move (a greeting, chatter), the moves, and the line that ends them. A mail
/// whose moves go on past them is refused ([`Refusal::TooLong`]), never read further.
pub const MAX_LINES_READ: usize = 60;

/// The longest line read for a move, in bytes (a move wrapped over several lines counts
/// joined): a placement of every country of a region is a tenth of it. A longer line before
/// the moves end refuses the mail ([`Refusal::TooLong`]).
pub const MAX_LINE_BYTES: usize = 1000;

/// At most this many lines of the new text read as no move are kept for the receipt and the
/// terminal; the rest are counted in one line.
pub const MAX_IGNORED_KEPT: usize = 20;

/// A reply as read from its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The sender's bare address, lower case.
    pub from: String,
    /// The subject.
    pub subject: String,
    /// The Message-ID, without angle brackets (empty if none).
    pub message_id: String,
    /// The Message-IDs the mail answers: `In-Reply-To` then `References`, without brackets.
    pub answers: Vec<String>,
    /// The text the moves are read from: the first plain-text part (unflowed when it is
    /// `format=flowed`, [`unflow`]), else the HTML part's new text (above its quote) rendered as
    /// text; line ends `\n`, characters as [`normalize_chars`] reads them.
    pub body: String,
    /// All the text of the mail, for the token and the `Game:` line: every text part and the
    /// HTML part rendered as text.
    pub all_text: String,
    /// SHA-256 of the raw bytes, hex.
    pub digest: String,
}

/// Cuts an HTML body at its quoted part (`<blockquote`, Gmail's `gmail_quote`, Outlook's
/// `divRplyFwdMsg`/`appendonsend`, Yahoo's `yahoo_quoted`, a `<hr`), keeping the new text.
fn html_new_part(html: &str) -> &str {
    let lower = html.to_ascii_lowercase();
    let cut = [
        "<blockquote",
        "class=\"gmail_quote",
        "class=\"gmail_attr",
        "id=\"divrplyfwdmsg",
        "id=\"appendonsend",
        "class=\"yahoo_quoted",
        "id=\"mail-editor-reference-message-container",
        "<hr",
    ]
    .iter()
    .filter_map(|m| lower.find(m))
    .min();
    match cut {
        // Back up to the start of the tag that holds the marker.
        Some(i) => {
            let start = lower[..i]
                .rfind('<')
                .filter(|_| !lower[i..].starts_with('<'));
            &html[..start.unwrap_or(i)]
        }
        None => html,
    }
}

/// The HTML elements that stand on lines of their own (HTML's block elements and `<br>`,
/// `<li>`, `<tr>`): a reply's line is often a `<div>` (Gmail writes
/// `<div dir="ltr">l1<div>l2</div></div>`), a `<p>` or a list item.
const BLOCK_TAGS: [&str; 16] = [
    "div", "p", "br", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "section",
];

/// `html` with a `<br>` before every opening and closing tag of [`BLOCK_TAGS`], so that
/// [`html_to_text`] (which breaks lines at `<br>` and `</p>` only) keeps each block on a line
/// of its own; one pass, linear in the length.
fn block_lines(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let bytes = html.as_bytes();
    let mut last = 0;
    for (i, _) in html.match_indices('<') {
        let rest = &bytes[i + 1..];
        let name = rest.strip_prefix(b"/").unwrap_or(rest);
        let len = name
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let tag = &name[..len];
        if BLOCK_TAGS
            .iter()
            .any(|t| t.as_bytes().eq_ignore_ascii_case(tag))
        {
            out.push_str(&html[last..i]);
            out.push_str("<br>");
            last = i;
        }
    }
    out.push_str(&html[last..]);
    out
}

/// The message with LF line ends when every line of it ends in a bare CR (the mail of old Mac
/// clients, which `mail-parser` reads as one header line with no body); otherwise the bytes
/// as they are. The digest of a reply stays that of the bytes received.
pub fn lf_line_ends(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if raw.contains(&b'\r') && !raw.contains(&b'\n') {
        std::borrow::Cow::Owned(
            raw.iter()
                .map(|&b| if b == b'\r' { b'\n' } else { b })
                .collect(),
        )
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// The length of a message's header: up to the end of the line before its first empty line (LF
/// or CRLF line ends), looked for in the first [`MAX_HEADER_BYTES`] and a few more bytes only
/// (the whole message when it has no body). More than [`MAX_HEADER_BYTES`] means "over the
/// limit", whatever the rest.
pub fn header_len(raw: &[u8]) -> usize {
    let head = &raw[..raw.len().min(MAX_HEADER_BYTES + 3)];
    for i in memchr::memchr_iter(b'\n', head) {
        match head.get(i + 1..) {
            Some([b'\n', ..]) | Some([b'\r', b'\n', ..]) => return i + 1,
            _ => {}
        }
    }
    if raw.len() > head.len() {
        MAX_HEADER_BYTES + 1
    } else {
        raw.len()
    }
}

/// At most this many lines beginning `--` (MIME boundary delimiters, RFC 2046 §5.1.1, and
/// anything else so written) in a mail that is parsed: a reply from any client has a dozen.
pub const MAX_MIME_DELIMITERS: usize = 1000;

/// The lines of `lf` (LF line ends) that begin with `--`, counted in one pass.
fn delimiter_lines(lf: &[u8]) -> usize {
    let starts = usize::from(lf.starts_with(b"--"));
    starts + lf.windows(3).filter(|w| w == b"\n--").count()
}

/// Parses raw message bytes into a [`Reply`].
///
/// Errors: [`Refusal::TooLarge`] when the message, its header or its text parts exceed
/// [`MAX_MESSAGE_BYTES`] / [`MAX_HEADER_BYTES`] / [`MAX_TEXT_BYTES`]; [`Refusal::MalformedMime`] when the bytes have
/// no headers, no sender address or no text at all.
pub fn read(raw: &[u8]) -> Result<Reply, Refusal> {
    if raw.len() > MAX_MESSAGE_BYTES {
        return Err(Refusal::TooLarge {
            bytes: raw.len(),
            limit: MAX_MESSAGE_BYTES,
            what: "the message",
        });
    }
    let lf = lf_line_ends(raw);
    if header_len(&lf) > MAX_HEADER_BYTES {
        return Err(Refusal::TooLarge {
            bytes: header_len(&lf),
            limit: MAX_HEADER_BYTES,
            what: "its header (at least)",
        });
    }
    let delimiters = delimiter_lines(&lf);
    if delimiters > MAX_MIME_DELIMITERS {
        // Parsed, each part would take memory of its own (some hundred bytes for an empty
        // one): eight million empty parts in 56 MB took 1.7 GB.
        return Err(Refusal::MalformedMime(format!(
            "{delimiters} MIME boundary lines, over the {MAX_MIME_DELIMITERS} a reply may have"
        )));
    }
    let msg = MessageParser::default()
        .parse(&lf[..])
        .ok_or_else(|| Refusal::MalformedMime("no message headers".into()))?;
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.to_ascii_lowercase())
        .filter(|a| a.contains('@'))
        .ok_or_else(|| Refusal::MalformedMime("no sender address in a From: header".into()))?;
    let mut texts: Vec<String> = Vec::new();
    let mut htmls: Vec<String> = Vec::new();
    let mut size = 0usize;
    for part in &msg.parts {
        if part.is_message() || part.attachment_name().is_some() && !part.is_text() {
            continue;
        }
        match &part.body {
            PartType::Text(t) => {
                size += t.len();
                texts.push(part_text(part, t));
            }
            PartType::Html(h) => {
                size += h.len();
                htmls.push(h.to_string());
            }
            _ => {}
        }
    }
    if size > MAX_TEXT_BYTES {
        return Err(Refusal::TooLarge {
            bytes: size,
            limit: MAX_TEXT_BYTES,
            what: "its text",
        });
    }
    // The first plain-text part, unless it is empty beside an HTML part (some clients send
    // an empty text/plain alternative).
    let text = match msg.text_part(0).map(|p| (p, &p.body)) {
        Some((p, PartType::Text(t))) if !t.trim().is_empty() || htmls.is_empty() => {
            Some(part_text(p, t))
        }
        _ => None,
    };
    let body = match text {
        Some(t) => t,
        None => match htmls.first() {
            Some(h) => clean(&html_to_text(&block_lines(html_new_part(h)))),
            None => return Err(Refusal::MalformedMime("no text body".into())),
        },
    };
    let mut all_text = texts.join("\n");
    for h in &htmls {
        all_text.push('\n');
        all_text.push_str(&clean(&html_to_text(&block_lines(h))));
    }
    Ok(Reply {
        from: one_line(&from).into_owned(),
        subject: one_line(msg.subject().unwrap_or_default()).into_owned(),
        message_id: one_line(msg.message_id().unwrap_or_default()).into_owned(),
        answers: answers(&msg),
        body: printable(&body).into_owned(),
        all_text: printable(&all_text).into_owned(),
        digest: hex::encode(Sha256::digest(raw)),
    })
}

/// The Message-IDs a mail answers, without brackets, each once: `In-Reply-To`'s, then the last
/// of `References`, at most [`MAX_ANSWER_IDS`] in all (each header read once, whatever its
/// length).
fn answers(msg: &mail_parser::Message<'_>) -> Vec<String> {
    let in_reply_to = msg.in_reply_to().as_text_list().unwrap_or_default();
    let references = msg.references().as_text_list().unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    let lasts = references
        .iter()
        .skip(references.len().saturating_sub(MAX_ANSWER_IDS));
    let mut firsts = 0;
    for (i, id) in in_reply_to
        .iter()
        .take(MAX_ANSWER_IDS / 4)
        .map(|id| (true, id))
        .chain(lasts.map(|id| (false, id)))
    {
        let id = one_line(id.trim_matches(['<', '>', ' '])).into_owned();
        if !id.is_empty() && !out.contains(&id) {
            out.push(id);
            firsts += usize::from(i);
        }
    }
    // Over the cap: `In-Reply-To`'s and the last of `References` are kept.
    if out.len() > MAX_ANSWER_IDS {
        out.drain(firsts..firsts + out.len() - MAX_ANSWER_IDS);
    }
    out
}

/// What the text of a reply says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extracted {
    /// A `Game:` line (the new text's, else the first anywhere).
    pub game: Option<String>,
    /// Reply tokens found, best first: unquoted lines of the new text, then everything else in
    /// the order it appears; at most [`MAX_TOKENS`].
    pub tokens: Vec<String>,
    /// How many of [`Extracted::tokens`], from the first, the player typed: those on `Token:`
    /// lines of the new text, not quoted. When the player typed one, the mail is judged by
    /// what they typed alone: a token quoted from the prompt never stands in for a typed one
    /// that is wrong.
    pub typed: usize,
    /// Whether a line of the new text asks for a takeback (`takeback`, `takeback 2`: the only
    /// lines a token of an earlier prompt may carry), as [`scan`] finds it without reading the
    /// other lines.
    pub asks_takeback: bool,
    /// Whether the moves were read ([`read_moves`]); [`scan`] alone leaves them unread.
    pub moves_read: bool,
    /// Move lines, in order.
    pub moves: Vec<String>,
    /// Lines of the new text that were read as neither a move nor a field (greetings,
    /// sign-offs, chatter), for the receipt: at most [`MAX_IGNORED_KEPT`], then one line
    /// counting the rest.
    pub ignored: Vec<String>,
    /// A move line that a mail program seems to have cut inside a name (`influence Poland 4,
    /// East` / `Germany 2`): the move line, the next line and the name the two make. Not
    /// joined (a guess could make a wrong move): the mail is refused naming both lines.
    pub cut: Option<(String, String, String)>,
    /// Why the mail's moves are refused before any is tried: more lines to read than
    /// [`MAX_LINES_READ`], a line over [`MAX_LINE_BYTES`], or a second game-level line of one
    /// kind (a second `takeback`: `move_lines::GameLines`).
    pub refused: Option<Refusal>,
}

impl Extracted {
    /// The best token, if any.
    pub fn token(&self) -> Option<&str> {
        self.tokens.first().map(String::as_str)
    }
}

/// The value of a `Name: value` line whose name is `name` (any case).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
}

/// Reads the moves, the tokens and the `Game:` line of a reply: [`scan`], then
/// [`read_moves`].
///
/// `body` is the text the moves are read from; `all_text` every text of the mail (the token
/// and the `Game:` line may be anywhere in it).
pub fn extract(body: &str, all_text: &str) -> Extracted {
    let mut e = scan(body, all_text);
    read_moves(&mut e, body);
    e
}

/// The lines of the player's new text in `lines`: up to the first line at which it ends
/// ([`ends_new_text`]).
fn new_text(lines: &[&str]) -> usize {
    (0..lines.len())
        .find(|&i| ends_new_text(lines, i))
        .unwrap_or(lines.len())
}

/// The lines of the new text a player wrote, each with its index: quoted lines, blank lines
/// and quoting attributions skipped. Each line is looked at a bounded number of times.
fn own_lines<'a>(lines: &'a [&'a str]) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let mut skip = 0;
    lines.iter().enumerate().filter_map(move |(i, raw)| {
        if skip > 0 {
            skip -= 1;
            return None;
        }
        let n = attribution_len(lines, i);
        if n > 0 {
            skip = n - 1;
            return None;
        }
        let line = raw.trim();
        (!line.is_empty() && !line.starts_with('>') && !line.starts_with('|')).then_some((i, line))
    })
}

/// What a reply says that can be known before its sender is authenticated: the tokens, how
/// many the player typed, the `Game:` line and whether a line asks for a takeback — all in
/// one pass over the text, linear in its length, with no name looked up (no move is read:
/// [`read_moves`] does that once a token is found to be the sender's).
pub fn scan(body: &str, all_text: &str) -> Extracted {
    let mut e = Extracted::default();
    let lines: Vec<&str> = body.lines().collect();
    let end = new_text(&lines);
    let mut read = 0;
    for (_, line) in own_lines(&lines[..end]) {
        if let Some(t) = field(line, "token") {
            if let Some(tok) = token_in(line) {
                push_token(&mut e.tokens, tok);
            } else if !t.is_empty() {
                push_token(&mut e.tokens, t.to_string());
            }
            continue;
        }
        if let Some(g) = field(line, "game") {
            e.game.get_or_insert_with(|| g.to_string());
            continue;
        }
        if read < MAX_LINES_READ && line.len() <= MAX_LINE_BYTES {
            read += 1;
            e.asks_takeback |= matches!(
                crate::session::takeback::parse(line),
                Some(Ok(crate::session::takeback::TakebackMove::Ask(_)))
            );
        }
    }
    e.typed = e.tokens.len();
    for raw in body.lines().chain(all_text.lines()) {
        let line = unquote(raw);
        if let Some(tok) = token_in(line) {
            push_token(&mut e.tokens, tok);
        }
        if e.game.is_none() {
            if let Some(g) = field(line, "game").filter(|g| !g.is_empty()) {
                e.game = Some(g.split_whitespace().next().unwrap_or(g).to_string());
            }
        }
    }
    e
}

/// Reads the moves of a reply's `body` into `e` (see the module doc): each line of the new
/// text is read as a move, a mistyped move or chatter, until the moves end. At most
/// [`MAX_LINES_READ`] lines of at most [`MAX_LINE_BYTES`] are read, and at most one
/// game-level line of each kind (`move_lines::GameLines`); past them the mail is refused
/// ([`Extracted::refused`]) and nothing more is read.
pub fn read_moves(e: &mut Extracted, body: &str) {
    e.moves_read = true;
    let lines: Vec<&str> = body.lines().collect();
    let lines = &lines[..new_text(&lines)];
    let mut first_other: Option<String> = None;
    let mut moves_over = false;
    let mut skip = 0;
    let mut read = 0;
    let mut more_ignored = 0usize;
    let mut game_lines = move_lines::GameLines::default();
    // The index of the last line of the last move read, for a move cut in two.
    let mut last_move_line: Option<usize> = None;
    let mut ignore = |e: &mut Extracted, line: &str| {
        if e.ignored.len() < MAX_IGNORED_KEPT {
            e.ignored.push(line.to_string());
        } else {
            more_ignored += 1;
        }
    };
    for (i, line) in own_lines(lines) {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if field(line, "token").is_some() || field(line, "game").is_some() {
            continue;
        }
        if moves_over {
            ignore(e, line);
            continue;
        }
        if read == MAX_LINES_READ || line.len() > MAX_LINE_BYTES {
            e.refused = Some(too_long(read, line.len()));
            break;
        }
        read += 1;
        let (line, joined) = continued(lines, i);
        skip = joined;
        let line = line.as_str();
        match classify(line) {
            LineKind::Move | LineKind::Attempt => {
                if let Some(r) = game_lines.add(line, e.moves.len()) {
                    e.refused = Some(r);
                    break;
                }
                e.moves.push(line.to_string());
                last_move_line = Some(i + joined);
            }
            LineKind::Other if !e.moves.is_empty() => {
                if last_move_line == Some(i.wrapping_sub(1)) {
                    let prev = e.moves.last().cloned().unwrap_or_default();
                    if let Some(name) = cut_name(&prev, line) {
                        e.cut = Some((prev, line.to_string(), name));
                    }
                }
                moves_over = true;
                ignore(e, line);
            }
            LineKind::Other => {
                if first_other.is_none() && !is_pleasantry(line) {
                    first_other = Some(line.to_string());
                }
                ignore(e, line);
            }
        }
    }
    if e.moves.is_empty() && e.refused.is_none() {
        // Nothing reads as a move: the first line that is no pleasantry is what the player
        // meant as one, refused with the notation's reason rather than silently dropped.
        if let Some(l) = first_other {
            e.ignored.retain(|i| *i != l);
            e.moves.push(l);
        }
    }
    if more_ignored > 0 {
        e.ignored.push(format!("(and {more_ignored} more lines)"));
    }
}

/// The refusal of a mail whose moves would go on past what is read: after `read` lines, or at
/// a line of `len` bytes.
fn too_long(read: usize, len: usize) -> Refusal {
    Refusal::TooLong {
        what: if len > MAX_LINE_BYTES {
            format!(
                "a line read for a move is {len} bytes long, more than the {MAX_LINE_BYTES} read"
            )
        } else {
            format!(
                "its moves go on past the {read} lines read (greetings and chatter before the \
                 first move count)"
            )
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_over_the_limit_is_too_large_and_attachments_do_not_count() {
        let big = "x".repeat(MAX_TEXT_BYTES + 10);
        let raw = format!("From: a@b.test\r\nSubject: s\r\n\r\npass\r\n{big}\r\n");
        let r = read(raw.as_bytes()).unwrap_err();
        assert_eq!(r.kind(), "too-large");
        assert!(r.explain(None).contains("too large"), "{}", r.explain(None));
        let photo = "QUJD".repeat(MAX_TEXT_BYTES / 2);
        let raw = format!(
            "From: a@b.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\npass\r\n--b\r\nContent-Type: image/jpeg\r\nContent-Disposition: attachment; filename=\"a.jpg\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{photo}\r\n--b--\r\n"
        );
        let r = read(raw.as_bytes()).unwrap();
        assert_eq!(r.body.trim(), "pass");
    }

    #[test]
    fn a_mail_of_more_mime_parts_than_a_reply_has_is_refused_before_it_is_parsed() {
        let mail = |parts: usize| {
            let mut raw = String::from("From: a@b.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\npass\r\n");
            raw.push_str(&"--b\r\n\r\n".repeat(parts));
            raw.push_str("--b--\r\n");
            raw
        };
        let r = read(mail(MAX_MIME_DELIMITERS).as_bytes()).unwrap_err();
        assert_eq!(r.kind(), "malformed-mime");
        assert!(
            r.explain(None).contains("MIME boundary lines"),
            "{}",
            r.explain(None)
        );
        let r = read(mail(10).as_bytes()).unwrap();
        assert_eq!(r.body.trim(), "pass");
    }

    #[test]
    fn block_elements_of_an_html_only_reply_are_lines() {
        let html = |h: &str| {
            let raw = format!("From: a@b.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n{h}\r\n");
            let r = read(raw.as_bytes()).unwrap();
            r.body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let want = vec![
            "play 4 space".to_string(),
            "Token: AAAA-BBBB-CCCC-DDDD".to_string(),
        ];
        // Gmail's own markup: the first line in the outer div, the next in a nested one.
        assert_eq!(
            html("<div dir=\"ltr\">play 4 space<div>Token: AAAA-BBBB-CCCC-DDDD</div></div>"),
            want
        );
        assert_eq!(
            html("<p>play 4 space</p><p>Token: AAAA-BBBB-CCCC-DDDD</p>"),
            want
        );
        assert_eq!(html("play 4 space<br/>Token: AAAA-BBBB-CCCC-DDDD"), want);
        assert_eq!(
            html("<ul><li>play 4 space</li><LI>Token: AAAA-BBBB-CCCC-DDDD</LI></ul>"),
            want
        );
        // Inline elements stay inside their line.
        assert_eq!(
            html(
                "<div>play <b>4</b> <span>space</span></div><div>Token: AAAA-BBBB-CCCC-DDDD</div>"
            ),
            want
        );
    }

    #[test]
    fn an_empty_text_part_beside_html_falls_back_to_the_html() {
        let raw = "From: a@b.test\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<div>play 4 space</div><blockquote>Token: AAAA-BBBB-CCCC-DDDD</blockquote>\r\n--b--\r\n";
        let r = read(raw.as_bytes()).unwrap();
        let e = extract(&r.body, &r.all_text);
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
        assert_eq!(e.token(), Some("AAAA-BBBB-CCCC-DDDD"));
    }

    #[test]
    fn no_input_panics_the_reader() {
        for s in [
            "Token:",
            "token: ȺȺ é",
            "ȺȺ é\n> Token: é",
            "On ȺȺ\né wrote:",
            "From: é\nSent:",
        ] {
            let _ = extract(s, s);
        }
        for b in [
            &b"From: \xff@\xfe\r\n\r\n\xff"[..],
            b"\x00",
            b"From: a@b\r\nContent-Type: text/html\r\n\r\n<blockquote",
        ] {
            let _ = read(b);
        }
    }
}
