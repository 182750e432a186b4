//! Composing the game's mails (design §5 "The mail shows").
//!
//! Each player gets, in plain text: what they owe, the legal options with examples in the
//! notation, what happened since their last mail, their redacted view (the CLI's text view),
//! and the receipt (game, log `seq`, head hash, reply token, their own hand commitment's entry
//! and salt); the same view as a YAML attachment. Everything comes from the player's
//! [`view`](crate::engine::view::view) and their own prompt; nothing else of the moderator's
//! state is read, so the other hand, the deck order, other salts and the seed cannot appear.

use std::fmt::Write as _;
use std::path::Path;

use chrono::{DateTime, Utc};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::Message;

use super::{bare_address, MailConfig, MailError, MailState};
use crate::data::Side;
use crate::engine::legal::legal_answers;
use crate::engine::view::{view, Role};
use crate::engine::{vp_text, Game, Prompt, SeededChance};
use crate::session::Session;
use crate::text::notation::format_answer;
use crate::text::render::{render_moves, render_view};

/// The heading of the board's section in a mail.
pub const BOARD_HEADING: &str = "== The board (your view) ==";

/// At most this many ready-to-send example moves are listed.
pub const MAX_EXAMPLES: usize = 12;

/// Why a mail is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The player owes a decision.
    Prompt,
    /// The player owes nothing; the game moved on.
    Update,
    /// The game is over.
    GameOver,
    /// A reminder of a decision owed for a while.
    Reminder,
}

/// One composed mail, before it is turned into a MIME message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The recipient's side.
    pub side: Side,
    /// Why it is sent.
    pub purpose: Purpose,
    /// From.
    pub from: String,
    /// To (the player's address as registered).
    pub to: String,
    /// Subject: `[TS <game>] Turn T AR n — <what is owed>`.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body: the same mail with the board as tables ([`super::html::mail_html`]).
    pub html: String,
    /// The redacted view, YAML.
    pub view_yaml: String,
    /// The board picture of the same view as PNG (`None` when built without the
    /// `png` feature), shown inline in the HTML part.
    pub picture_png: Option<Vec<u8>>,
    /// Message-ID, without angle brackets.
    pub message_id: String,
    /// The previous mail of this thread, without angle brackets.
    pub in_reply_to: Option<String>,
    /// The thread: its root and the previous mail, without angle brackets.
    pub references: Vec<String>,
    /// The log's next sequence number (the receipt).
    pub seq: u64,
    /// History lines covered.
    pub history_len: usize,
    /// The public log entries since this player's previous mail, exactly as stored (attached
    /// as `log-FROM-TO.yaml`, for the player's own check: [`super::check`]), and the first
    /// entry's seq.
    pub log_since: (u64, String),
}

/// The subject tag of a game: `[TS <game>]`.
pub fn subject_tag(game_id: &str) -> String {
    format!("[TS {game_id}]")
}

fn where_in_game(game: &Game) -> String {
    let st = game.state();
    use crate::engine::flow::Activity;
    match game.activity() {
        Activity::TurnZero { crisis } => format!("Turn Zero, crisis {}", crisis + 1),
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => "Setup".into(),
        _ if st.action_round == 0 => format!("Turn {} Headline", st.turn),
        _ => format!("Turn {} AR {}", st.turn, st.action_round),
    }
}

/// The domain of the address `addr` (`localhost` when it has none), for Message-IDs.
pub(crate) fn domain_of(addr: &str) -> String {
    bare_address(addr)
        .rsplit_once('@')
        .map(|(_, d)| d.to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// `s` made safe for a Message-ID: characters other than letters, digits, `-`, `_` and `.`
/// become `_`.
pub(crate) fn id_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Ready-to-send legal moves for `side` (formatted in the notation), at most
/// [`MAX_EXAMPLES`]; empty if `side` owes nothing or nothing is legal.
pub fn examples(game: &Game, side: Side, seed: u64) -> Vec<String> {
    let Some(prompt) = game.prompt_for(side) else {
        return Vec::new();
    };
    let mut rng = SeededChance::new(seed);
    let mut out: Vec<String> = Vec::new();
    for a in legal_answers(game, side, &mut rng, 2) {
        let t = format_answer(&a, prompt);
        if !out.contains(&t) {
            out.push(t);
        }
        if out.len() == MAX_EXAMPLES {
            break;
        }
    }
    out
}

/// Composes the mail for `side` of the game in `session` with the given purpose, updating the
/// player's threading record in `state` (the caller saves it once the mail is sent). The body
/// is made of parts, each named for what it renders: the heading, the decision (or that none is
/// owed), the history since the player's last mail, the board, the receipt.
pub fn compose(
    session: &Session,
    config: &MailConfig,
    state: &mut MailState,
    side: Side,
    purpose: Purpose,
    now: DateTime<Utc>,
) -> Result<Outgoing, MailError> {
    let game = session
        .game()
        .ok_or_else(|| MailError::Config("the game has not started".into()))?;
    let gid = session.game_id();
    let role = match side {
        Side::Us => Role::Us,
        Side::Ussr => Role::Ussr,
    };
    let v = view(game, role);
    let to = match side {
        Side::Us => session.players().us.clone(),
        Side::Ussr => session.players().ussr.clone(),
    };
    let from = config.sender();
    let seq = session.log().next_seq();
    let history: Vec<&String> = game.history().collect();
    let rec = state.player(side).clone();
    let since = rec.history_len.min(history.len());
    let prompt = game.prompt_for(side);
    let owed = owed_text(game, side, purpose);
    let subject = if game.outcome().is_some() {
        format!("{} Game over — {owed}", subject_tag(gid))
    } else {
        format!("{} {} — {owed}", subject_tag(gid), where_in_game(game))
    };
    let token = if game.outcome().is_none() && prompt.is_some() {
        session.reply_token(side)
    } else {
        None
    };

    let mut t = String::new();
    heading_part(&mut t, game, gid, side, &to);
    if purpose == Purpose::Reminder {
        let _ = writeln!(
            t,
            "A reminder: the decision below is still owed. Reply to this mail with your move, as to the prompt.\n"
        );
    }
    clock_part(&mut t, session, side, now);
    t.push_str(&session.host_notice(Some(&from)));
    if let Some(p) = session.pending_takeback().filter(|p| p.side != side) {
        let _ = writeln!(t, "{}", p.notice());
        let _ = writeln!(t, "It would take back:");
        super::receipt::takeback_lines(&mut t, session, &p.cancels);
        let _ = writeln!(t);
    }
    for line in crate::session::takeback::news(session, side, rec.last_seq) {
        let _ = writeln!(t, "{line}\n");
    }
    standing_orders_part(&mut t, session, side, rec.last_seq);
    match (prompt, &token) {
        (Some(p), Some(token)) => decision_part(&mut t, game, side, p, token, seq, &v),
        _ => {
            nothing_owed_part(&mut t, game, &owed);
            game_token_part(&mut t, session, side);
        }
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "== What happened since your last mail ==");
    let news = log_news(session, rec.last_seq);
    for line in &news {
        let _ = writeln!(t, "  {line}");
    }
    if news.is_empty() || since < history.len() {
        t.push_str(&crate::text::render::render_history(
            &history[since..],
            since == 0,
        ));
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "{BOARD_HEADING}");
    t.push_str(&render_view(game, &v));
    let _ = writeln!(t);
    receipt_part(&mut t, session, side, token.as_deref());

    let view_yaml = serde_yaml::to_string(&v).map_err(|e| MailError::Build(e.to_string()))?;
    let (changed, caption) = last_move(session, &v);
    let picture_png = crate::picture::mail::picture(gid, &v, &changed, caption.as_deref())?;
    let n = rec.sent + 1;
    let (message_id, root, references) =
        thread_ids(&rec, gid, side, &from, token.as_deref(), n, seq);
    let mut out = Outgoing {
        side,
        purpose,
        from,
        to,
        subject,
        text: t,
        html: String::new(),
        view_yaml,
        picture_png,
        message_id: message_id.clone(),
        in_reply_to: rec.last_id.clone(),
        references,
        seq,
        history_len: history.len(),
        log_since: super::receipt::log_since(session, rec.last_seq.unwrap_or(0))?,
    };
    // The HTML shows the picture inline above the board as tables.
    out.html = super::html::mail_html(&out.text, BOARD_HEADING, &v, &inline_parts(&out));
    let p = state.player_mut(side);
    p.sent = n;
    p.root_id = Some(root);
    p.last_id = Some(message_id);
    p.history_len = history.len();
    if purpose == Purpose::Prompt && p.last_seq != Some(seq) {
        p.owed_since = Some(now);
        p.prompt_id = Some(out.message_id.clone());
    }
    if purpose != Purpose::Prompt && purpose != Purpose::Reminder {
        p.owed_since = None;
        p.prompt_id = None;
    }
    p.last_seq = Some(seq);
    p.last_at = Some(now);
    Ok(out)
}

/// What the game's history lines cannot tell of the log since the player's last mail (entry
/// `since`; the whole log before their first mail): the bids revealed (a bid game: who plays
/// which side), and the decisions made again after a takeback accepted since — the replay drops
/// the cancelled lines, so a move made again can leave the history as long as it was. Public
/// entries only; linear in the entries since the last mail.
fn log_news(session: &Session, since: Option<u64>) -> Vec<String> {
    let from = since.unwrap_or(0);
    let mut out = Vec::new();
    if let (Some(seq), Some(summary)) = (session.bid_result_seq(), session.bid_summary()) {
        if seq >= from {
            out.push(format!("The bids are revealed (entry {seq}): {summary}."));
        }
    }
    let entries = session.log().since(from);
    let Some(k) = entries
        .iter()
        .rposition(|e| matches!(e.entry.payload, crate::log::Payload::Takeback { .. }))
    else {
        return out;
    };
    let seq = entries[k].entry.seq;
    let redone: Vec<String> = entries[k + 1..]
        .iter()
        .filter_map(|e| match &e.entry.payload {
            crate::log::Payload::Decision { side, notation, .. } => {
                Some(format!("  entry {}: {side}: {notation}", e.entry.seq))
            }
            _ => None,
        })
        .collect();
    if !redone.is_empty() {
        out.push(format!(
            "After the takeback (entry {seq}), the moves made again:"
        ));
        out.extend(redone);
    }
    out
}

/// Standing orders (`schemas/NOTATION.md`, FAIRNESS.md §16): those used since the player's
/// last mail (theirs or the opponent's — both players are told), then the player's own open
/// orders with how to cancel them.
fn standing_orders_part(t: &mut String, session: &Session, side: Side, since: Option<u64>) {
    for line in session.standing_order_news(since.unwrap_or(0)) {
        let _ = writeln!(t, "{line}\n");
    }
    let open = session.standing_order_lines(side);
    if !open.is_empty() {
        let _ = writeln!(t, "== Your standing orders ==");
        for line in open {
            let _ = writeln!(t, "{line}");
        }
        let _ = writeln!(t);
    }
}

/// What is owed, for the subject: the result, a reminder of the decision, the decision, or
/// an update naming who is awaited.
fn owed_text(game: &Game, side: Side, purpose: Purpose) -> String {
    match (purpose, game.prompt_for(side), game.outcome()) {
        (_, _, Some(o)) => match o.winner {
            Some(w) => format!("game over: {w} wins by {}", o.reason.describe()),
            None => "game over: draw".into(),
        },
        (Purpose::Reminder, Some(p), _) => format!("reminder: {}", p.text),
        (_, Some(p), _) => p.text.clone(),
        (_, None, _) => {
            let who: Vec<&str> = game.prompts().iter().map(|p| p.side.name()).collect();
            format!("update: waiting for {}", who.join(" and "))
        }
    }
}

/// Under a time control, the player's clock: the deadline of the decision owed (in the
/// player's time zone) or that none is owed, the bank left, the time control
/// ([`crate::session::correspondence::clock::mail_line`]); nothing without one.
pub(crate) fn clock_part(t: &mut String, session: &Session, side: Side, now: DateTime<Utc>) {
    if let Some(line) =
        crate::session::correspondence::clock::mail_line(session.correspondence(), side, now)
    {
        let _ = writeln!(t, "{line}");
        let _ = writeln!(t);
    }
}

/// The first lines: game, side, address; where in the game, VP, DEFCON.
fn heading_part(t: &mut String, game: &Game, gid: &str, side: Side, to: &str) {
    let st = game.state();
    let _ = writeln!(
        t,
        "Twilight Struggle by email · game {gid} · you are the {side} ({to})"
    );
    let _ = writeln!(
        t,
        "{} · VP {} · DEFCON {}",
        where_in_game(game),
        vp_text(st.vp),
        st.defcon
    );
    let _ = writeln!(t);
}

/// The decision owed: what it is, how to answer (the token), the options, examples and the
/// notation's hint.
fn decision_part(
    t: &mut String,
    game: &Game,
    side: Side,
    p: &Prompt,
    token: &str,
    seq: u64,
    v: &crate::engine::view::View,
) {
    let _ = writeln!(t, "== Your decision ==");
    let _ = writeln!(t, "{}", p.text);
    let _ = writeln!(t);
    for note in crate::text::decision_notes::decision_notes(game, side, p, v) {
        let _ = writeln!(t, "{note}");
        let _ = writeln!(t);
    }
    let _ = writeln!(
        t,
        "Reply to this mail with your move on a line of its own and keep this line:"
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "Token: {token}");
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Quoted lines (starting with >) and anything after a `-- ` signature line are ignored."
    );
    let _ = writeln!(
        t,
        "Several decisions at once: one per line; they are applied in order, all or none."
    );
    let _ = writeln!(t);
    options_part(t, game, side, seq);
    let _ = writeln!(
        t,
        "Notation: `headline CARD`, `play CARD event`, `play CARD ops influence COUNTRY 2, COUNTRY 1`,"
    );
    let _ = writeln!(
        t,
        "`play CARD ops coup COUNTRY`, `play CARD ops realign COUNTRY`, `play CARD space`, `pass`, `yes`, `no`."
    );
    let _ = writeln!(
        t,
        "Cards by number, name or unambiguous prefix; countries by name or prefix; any case."
    );
}

/// `== Your options ==`: the legal moves as `moves` lists them, then examples that can be sent as
/// they are. When the examples are the whole list (a headline's cards, a yes/no), the list is
/// not printed twice: only the examples are.
pub(crate) fn options_part(t: &mut String, game: &Game, side: Side, seq: u64) {
    let _ = writeln!(t, "== Your options ==");
    let listed = render_moves(game, side);
    let ex = examples(game, side, seq);
    let shown: std::collections::HashSet<&str> = ex.iter().map(|e| e.trim()).collect();
    let whole_list_in_examples = !ex.is_empty()
        && listed
            .lines()
            .skip(1)
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.ends_with(':'))
            .all(|l| shown.contains(l));
    if whole_list_in_examples {
        let _ = writeln!(t, "{}", listed.lines().next().unwrap_or_default());
    } else {
        t.push_str(&listed);
    }
    if !ex.is_empty() {
        let _ = writeln!(t, "Moves you can send as they are, for example:");
        for e in &ex {
            let _ = writeln!(t, "  {e}");
        }
    }
}

/// No decision owed: the result, or what the mail is for.
fn nothing_owed_part(t: &mut String, game: &Game, owed: &str) {
    let _ = writeln!(t, "== Nothing to do ==");
    if let Some(o) = game.outcome() {
        let _ = writeln!(
            t,
            "The game is over: {}. The moderator now reveals the master seed; then `twilight verify` checks every shuffle, roll and move.",
            match o.winner {
                Some(w) => format!("{w} wins by {}", o.reason.describe()),
                None => "draw".into(),
            }
        );
    } else {
        let _ = writeln!(
            t,
            "You owe no decision now; this mail tells you what happened. {owed}."
        );
    }
}

/// In a mail that owes no decision, while the game goes on: the game token, good for the
/// game-level moves only ([`super::game_token`]).
fn game_token_part(t: &mut String, session: &Session, side: Side) {
    let over = session.game().is_none_or(|g| g.outcome().is_some());
    let Some(token) = super::game_token::token(session, side).filter(|_| !over) else {
        return;
    };
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "You may still reply with `resign`, `offer draw`, `accept draw`, `decline draw`, `leave YYYY-MM-DD to YYYY-MM-DD`,"
    );
    let _ = writeln!(
        t,
        "`takeback`, `accept takeback`, `decline takeback`, or standing orders (`if CARD: MOVE`, `orders`, `cancel order N`)."
    );
    let _ = writeln!(
        t,
        "Keep this line in such a reply (it is good for these moves only, for the whole game):"
    );
    let _ = writeln!(t);
    let _ = writeln!(t, "Token: {token}");
}

/// The receipt: game, seq, head hash, token, the player's hand commitment and salt.
fn receipt_part(t: &mut String, session: &Session, side: Side, token: Option<&str>) {
    let head = session.log().head();
    let _ = writeln!(t, "== Receipt ==");
    let _ = writeln!(t, "Game: {}", session.game_id());
    let _ = writeln!(t, "Seq: {}", session.log().next_seq());
    let _ = writeln!(t, "Head: {head}");
    if let Some(token) = token {
        let _ = writeln!(t, "Token: {token}");
    }
    if let Some((cseq, digest, salt)) = session.hand_commitment(side) {
        let _ = writeln!(t, "Your hand commitment: log entry {cseq}");
        let _ = writeln!(t, "Your hand digest: {}", hex::encode(digest));
        let _ = writeln!(t, "Your hand salt: {}", hex::encode(salt));
        let _ = writeln!(
            t,
            "  (SHA-256 of the salt and your canonical hand equals that entry's digest; schemas/FAIRNESS.md)"
        );
    }
    let _ = writeln!(
        t,
        "Keep this mail: `twilight verify --head {head} GAME_DIR` proves the log still holds this history."
    );
}

/// The parts shown inside a mail's HTML: its board picture, if drawn, as
/// `cid:board.<message-id>` ([`crate::picture::mail::content_id`]).
fn inline_parts(o: &Outgoing) -> Vec<super::html::InlinePart> {
    o.picture_png
        .iter()
        .map(|png| super::html::InlinePart {
            content_id: crate::picture::mail::content_id(o),
            content_type: "image/png".into(),
            bytes: png.clone(),
        })
        .collect()
}

/// The mail's Message-ID (`ts.<game>.<side>.k<tag>.<n>.s<seq>@domain`, the `k` part bound to
/// the reply token so that a reply naming this mail in `In-Reply-To` is authenticated even
/// without the quoted token: `reply::message_id_tag`), the thread's root and its References.
fn thread_ids(
    rec: &super::PlayerMail,
    gid: &str,
    side: Side,
    from: &str,
    token: Option<&str>,
    n: u64,
    seq: u64,
) -> (String, String, Vec<String>) {
    let domain = id_safe(&domain_of(from));
    let key = token
        .map(super::reply::message_id_tag)
        .unwrap_or_else(|| "0".into());
    let message_id = format!(
        "ts.{}.{}.k{key}.{n}.s{seq}@{domain}",
        id_safe(gid),
        side.name().to_ascii_lowercase()
    );
    let root = rec.root_id.clone().unwrap_or_else(|| message_id.clone());
    let mut references = Vec::new();
    if rec.root_id.is_some() {
        references.push(root.clone());
        if let Some(l) = &rec.last_id {
            if *l != root {
                references.push(l.clone());
            }
        }
    }
    (message_id, root, references)
}

/// At most this many history lines are listed in the first mail of a game (the setup and the
/// deal are summed up in one line before them).
pub use crate::text::render::FIRST_MAIL_HISTORY;

fn mailbox(s: &str) -> Result<Mailbox, MailError> {
    s.parse::<Mailbox>()
        .or_else(|_| bare_address(s).parse::<Mailbox>())
        .map_err(|e| MailError::Config(format!("bad address `{s}`: {e}")))
}

/// Builds the MIME message: the body as `multipart/alternative` (plain text, HTML with the
/// board as tables) and the view as `view.yaml`, with explicit
/// Message-ID and threading headers, and `X-Twilight-Game`/`-Seq`/`-Side` for tools.
pub fn to_message(o: &Outgoing, game_id: &str) -> Result<Message, MailError> {
    let mut b = Message::builder()
        .from(mailbox(&o.from)?)
        .to(mailbox(&o.to)?)
        .subject(o.subject.clone())
        .message_id(Some(format!("<{}>", o.message_id)))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Twilight-Game"),
            game_id.to_string(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Twilight-Seq"),
            o.seq.to_string(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Twilight-Side"),
            o.side.name().to_ascii_lowercase(),
        ));
    if let Some(r) = &o.in_reply_to {
        b = b.in_reply_to(format!("<{r}>"));
    }
    if !o.references.is_empty() {
        let refs: Vec<String> = o.references.iter().map(|r| format!("<{r}>")).collect();
        b = b.references(refs.join(" "));
    }
    let yaml_type = ContentType::parse("application/yaml; charset=utf-8")
        .map_err(|e| MailError::Build(e.to_string()))?;
    let inline = inline_parts(o);
    let mut parts = MultiPart::mixed()
        .multipart(super::html::alternative_body(&o.text, &o.html, &inline)?)
        .singlepart(
            Attachment::new("view.yaml".into()).body(o.view_yaml.clone(), yaml_type.clone()),
        );
    if let Some(part) =
        super::receipt::log_attachment(o.log_since.0, o.seq, &o.log_since.1, yaml_type)
    {
        parts = parts.singlepart(part);
    }
    b.multipart(parts)
        .map_err(|e| MailError::Build(e.to_string()))
}

/// Which mails the game owes now: a prompt to each player who owes a decision; to the other an
/// update if the game moved on since their last mail and `mail.yaml` allows updates; to both a
/// final mail once the game is over. With `resend`, the prompts are sent even if unchanged.
pub fn due(
    session: &Session,
    config: &MailConfig,
    state: &MailState,
    resend: bool,
) -> Vec<(Side, Purpose)> {
    let Some(game) = session.game() else {
        return Vec::new();
    };
    let seq = session.log().next_seq();
    let hist = game.history().count();
    let mut out = Vec::new();
    for side in [Side::Us, Side::Ussr] {
        let rec = state.player(side);
        if game.outcome().is_some() {
            if rec.last_seq != Some(seq) || resend {
                out.push((side, Purpose::GameOver));
            }
        } else if game.prompt_for(side).is_some() {
            let unchanged = rec
                .last_seq
                .is_some_and(|since| only_sealed_headline_since(session, side, since));
            if (rec.last_seq != Some(seq) && !unchanged) || resend {
                out.push((side, Purpose::Prompt));
            }
        } else if !resend && config.updates() && rec.history_len < hist && rec.last_seq != Some(seq)
        {
            out.push((side, Purpose::Update));
        } else if !resend
            && rec.last_seq != Some(seq)
            && !crate::session::takeback::news(session, side, rec.last_seq).is_empty()
        {
            // The opponent answered this player's takeback request.
            out.push((side, Purpose::Update));
        }
    }
    out
}

/// The last decision in `session`'s log for the mail picture's highlight:
/// the countries whose Influence it changed, as seen in `now`, and its notation as logged
/// (`USSR: play 27 ops …`), as [`crate::picture::mail::last_move`] finds them; from what the
/// replay kept of it ([`Session::last_decision`]) when it kept it, so that the log is neither
/// read whole nor replayed a second time.
pub fn last_move(
    session: &Session,
    now: &crate::engine::view::View,
) -> (Vec<crate::data::Country>, Option<String>) {
    let Some(last) = session.last_decision() else {
        return crate::picture::mail::last_move(session, now);
    };
    let Some(d) = last else {
        return (Vec::new(), None);
    };
    let after = |c: crate::data::Country| {
        now.board
            .iter()
            .find(|cv| cv.country == c)
            .map_or((0, 0), |cv| (cv.us, cv.ussr))
    };
    let changed = crate::data::ALL_COUNTRIES
        .into_iter()
        .filter(|c| {
            let b = d.before[*c as usize];
            (b.us, b.ussr) != after(*c)
        })
        .collect();
    (changed, Some(format!("{}: {}", d.side.name(), d.notation)))
}

/// Whether every log entry from `since` on is the opponent's sealed headline commitment or a
/// host outage ([`crate::log::Payload::keeps_prompt_of`]): then `side`'s decision and
/// everything it may see are as its last prompt showed them, and that prompt's token is still
/// good (`inbound`), so no second, identical prompt is mailed.
fn only_sealed_headline_since(session: &Session, side: Side, since: u64) -> bool {
    session
        .log()
        .since(since)
        .iter()
        .all(|e| e.entry.payload.keeps_prompt_of(side))
}

/// Reminders: a prompt mail again to each player who has owed the same decision for longer than
/// `mail.yaml`'s `remind_after_hours` since the last mail (none if it is not set), composed and
/// queued ([`super::queue`]; sent by the next flush or drain), the threading record saved
/// after. Returns the reminders queued.
///
/// # Errors
///
/// The mail settings or state could not be read, a mail could not be composed, or a file
/// could not be written.
pub fn queue_reminders(session: &Session, now: DateTime<Utc>) -> Result<Vec<Outgoing>, MailError> {
    let dir = session.dir();
    let config = MailConfig::load(dir)?;
    let Some(hours) = config.remind_after_hours else {
        return Ok(Vec::new());
    };
    let Some(game) = session.game() else {
        return Ok(Vec::new());
    };
    if game.outcome().is_some() {
        return Ok(Vec::new());
    }
    let queue = super::queue::Queue::of(dir);
    let mut state = MailState::load(dir)?;
    let seq = session.log().next_seq();
    let mut out = Vec::new();
    for side in [Side::Us, Side::Ussr] {
        let rec = state.player(side);
        let due = game.prompt_for(side).is_some()
            && rec.last_seq == Some(seq)
            && rec.last_at.is_some_and(|t| {
                now.signed_duration_since(t).num_minutes() >= i64::from(hours) * 60
            });
        if due {
            let o = compose(session, &config, &mut state, side, Purpose::Reminder, now)?;
            super::queue::queue_outgoing(&queue, session, &o, now)?;
            out.push(o);
        }
    }
    if !out.is_empty() {
        queue.sync()?;
        state.save(dir)?;
    }
    Ok(out)
}

/// The outbox folder of a game.
pub fn outbox_of(game_dir: &Path) -> std::path::PathBuf {
    game_dir.join("outbox")
}
