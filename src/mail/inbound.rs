//! Reading replies (design §5; issue 8 scope 3–4): `twilight inbox [--games DIR] SOURCE…`.
//!
//! For each new message: parse it (mail-parser); find the game (the subject's `[TS <game>]`
//! tag, else a `Game: <game>` line); check that the sender is a player of that game; refuse a
//! mail already applied (same Message-ID or same bytes); check the reply token (bound to game,
//! log `seq` and side, compared in constant time) and tell a stale token from a wrong one; read
//! the move lines and apply them all or none. Every refusal appends nothing to the log and is
//! answered by a mail that quotes the mail's move lines and says exactly why.
//!
//! Sources and what becomes of a message (nothing is ever deleted):
//!
//! * a Maildir (a folder with `new/`, `cur/`, `tmp/`): each file in `new/` is read; an applied
//!   one moves to `cur/NAME:2,S` (Seen); a refused one moves to `cur/NAME:2,FS` (Flagged, Seen)
//!   and the reply sent about it is kept as `twilight-refused/NAME.txt` in the Maildir.
//! * an `.eml` file: left where it is; a note `FILE.accepted` or `FILE.refused` beside it
//!   records the result, and a file with a note is skipped on later runs.
//!
//! Reply tokens may be on an unquoted `Token:` line or, if there is none, on the first quoted
//! one (`> Token: …`, as a plain "reply" quotes the prompt mail).

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use lettre::message::{Mailbox, SinglePart};
use lettre::Message;
use mail_parser::MessageParser;
use sha2::{Digest, Sha256};

use super::outbound::{send_due, subject_tag, Outgoing};
use super::transport::Transport;
use super::{bare_address, Applied, MailConfig, MailError, MailState};
use crate::data::Side;
use crate::log::{CommitmentKind, Payload};
use crate::notation;
use crate::session::{Session, SessionError};

/// Largest message read (bytes); a bigger one is refused as malformed.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Exit status of `inbox` when a message was refused as malformed MIME.
pub const EXIT_MALFORMED: u8 = 10;
/// Exit status: the mail names no known game.
pub const EXIT_UNKNOWN_GAME: u8 = 11;
/// Exit status: the sender is not a player of the game.
pub const EXIT_NOT_A_PLAYER: u8 = 12;
/// Exit status: the mail carries no reply token.
pub const EXIT_MISSING_TOKEN: u8 = 13;
/// Exit status: the reply token is wrong.
pub const EXIT_WRONG_TOKEN: u8 = 14;
/// Exit status: the token is of an earlier position (stale seq).
pub const EXIT_STALE: u8 = 15;
/// Exit status: the same mail was already applied (replay).
pub const EXIT_REPLAYED: u8 = 16;
/// Exit status: a move was illegal or unreadable, or the game takes no move now.
pub const EXIT_ILLEGAL: u8 = 17;
/// Exit status: the mail holds no move line.
pub const EXIT_NO_MOVE: u8 = 18;

/// Why a mail was refused. Nothing was appended to any log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The bytes are not a readable e-mail message (or have no sender or no text).
    MalformedMime(String),
    /// The mail names no game, or a game that is not here.
    UnknownGame(Option<String>),
    /// The sender is not a player of the game.
    NotAPlayer {
        /// The sender's address.
        sender: String,
    },
    /// No `Token:` line.
    MissingToken,
    /// A token that is no token of this player in this game.
    WrongToken,
    /// The token of an earlier prompt: the position moved on.
    Stale {
        /// The log seq the token was issued for.
        token_seq: u64,
        /// The log seq now.
        now_seq: u64,
    },
    /// This very mail was already applied.
    Replayed {
        /// When.
        at: DateTime<Utc>,
        /// At which log seq.
        seq: u64,
    },
    /// No move line in the body.
    NoMove,
    /// A move line was refused by the notation or the rules.
    Illegal {
        /// The line as typed.
        line: String,
        /// Why.
        why: String,
    },
}

impl Refusal {
    /// A short name: `malformed-mime`, `unknown-game`, `not-a-player`, `missing-token`,
    /// `wrong-token`, `stale`, `replayed`, `no-move`, `illegal-move`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::MalformedMime(_) => "malformed-mime",
            Refusal::UnknownGame(_) => "unknown-game",
            Refusal::NotAPlayer { .. } => "not-a-player",
            Refusal::MissingToken => "missing-token",
            Refusal::WrongToken => "wrong-token",
            Refusal::Stale { .. } => "stale",
            Refusal::Replayed { .. } => "replayed",
            Refusal::NoMove => "no-move",
            Refusal::Illegal { .. } => "illegal-move",
        }
    }

    /// The exit status of `inbox` for this refusal (`EXIT_*`).
    pub fn exit_code(&self) -> u8 {
        match self {
            Refusal::MalformedMime(_) => EXIT_MALFORMED,
            Refusal::UnknownGame(_) => EXIT_UNKNOWN_GAME,
            Refusal::NotAPlayer { .. } => EXIT_NOT_A_PLAYER,
            Refusal::MissingToken => EXIT_MISSING_TOKEN,
            Refusal::WrongToken => EXIT_WRONG_TOKEN,
            Refusal::Stale { .. } => EXIT_STALE,
            Refusal::Replayed { .. } => EXIT_REPLAYED,
            Refusal::NoMove => EXIT_NO_MOVE,
            Refusal::Illegal { .. } => EXIT_ILLEGAL,
        }
    }

    /// Why, in full sentences, for the reply mail and the terminal.
    pub fn explain(&self, game: Option<&str>) -> String {
        let g = game.unwrap_or("?");
        match self {
            Refusal::MalformedMime(d) => format!(
                "Your mail could not be read as an e-mail message ({d}). Send your move as plain text in the body of a reply to the prompt mail."
            ),
            Refusal::UnknownGame(None) => "Your mail names no game. Reply to the prompt mail (its subject carries the tag [TS <game>]) or add a line `Game: <game>`.".into(),
            Refusal::UnknownGame(Some(id)) => format!(
                "There is no game `{id}` here. Reply to the prompt mail, whose subject carries the game's tag [TS <game>]."
            ),
            Refusal::NotAPlayer { sender } => format!(
                "{sender} is not a player of game {g}. Moves are accepted only from the addresses the game was created with."
            ),
            Refusal::MissingToken => format!(
                "Your mail carries no reply token. Keep the line `Token: …` of your latest prompt mail of game {g} in your reply."
            ),
            Refusal::WrongToken => format!(
                "The reply token in your mail is not the token of your prompt in game {g} (mistyped, or from another game or player). Reply to your latest prompt mail and keep its `Token:` line."
            ),
            Refusal::Stale { token_seq, now_seq } => format!(
                "Your mail answers the prompt of log entry {token_seq}, but game {g} has moved on to entry {now_seq}: the position changed since that mail. Your latest prompt mail has the current position, options and token."
            ),
            Refusal::Replayed { at, seq } => format!(
                "This mail was already applied to game {g} on {} (log entry {seq}); a mail is never applied twice.",
                at.format("%Y-%m-%d %H:%M UTC")
            ),
            Refusal::NoMove => "No move line was found in your mail (quoted lines, blank lines, the Token and Game lines and anything after a `-- ` signature line are ignored). Write your move on a line of its own, e.g. `pass`.".into(),
            Refusal::Illegal { line, why } => format!("The move `{line}` is refused: {why}"),
        }
    }
}

/// A message as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The sender's address (lower case).
    pub from: String,
    /// The subject.
    pub subject: String,
    /// The Message-ID without angle brackets (empty if none).
    pub message_id: String,
    /// The text body, LF line ends, non-breaking spaces as spaces.
    pub body: String,
    /// SHA-256 of the raw bytes, hex.
    pub digest: String,
}

/// Parses raw message bytes.
pub fn read_message(raw: &[u8]) -> Result<Received, Refusal> {
    if raw.len() > MAX_MESSAGE_BYTES {
        return Err(Refusal::MalformedMime(format!(
            "{} bytes, more than the {MAX_MESSAGE_BYTES} accepted",
            raw.len()
        )));
    }
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| Refusal::MalformedMime("no message headers".into()))?;
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.to_ascii_lowercase())
        .filter(|a| a.contains('@'))
        .ok_or_else(|| Refusal::MalformedMime("no sender address in a From: header".into()))?;
    let body = msg
        .body_text(0)
        .ok_or_else(|| Refusal::MalformedMime("no text body".into()))?
        .replace("\r\n", "\n")
        .replace('\u{a0}', " ");
    Ok(Received {
        from,
        subject: msg.subject().unwrap_or_default().to_string(),
        message_id: msg.message_id().unwrap_or_default().to_string(),
        body,
        digest: hex::encode(Sha256::digest(raw)),
    })
}

/// The sender, subject and Message-ID of a message too broken to read in full, if its
/// headers name a sender (so a refusal can still be answered).
fn sender_of(raw: &[u8]) -> Option<Received> {
    let msg = MessageParser::default().parse(raw)?;
    let from = msg.from()?.first()?.address()?.to_ascii_lowercase();
    from.contains('@').then(|| Received {
        from,
        subject: msg.subject().unwrap_or_default().to_string(),
        message_id: msg.message_id().unwrap_or_default().to_string(),
        body: String::new(),
        digest: hex::encode(Sha256::digest(raw)),
    })
}

/// What the body of a reply says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extracted {
    /// A `Game:` line.
    pub game: Option<String>,
    /// The reply token.
    pub token: Option<String>,
    /// Move lines, in order.
    pub moves: Vec<String>,
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
}

/// A greeting or sign-off around the moves (`Hi Boris,`, `Thanks!`, `Cheers`): a short line
/// ending in `,` or `!`, or opening with a greeting word. No move of the notation looks so.
fn is_pleasantry(line: &str) -> bool {
    const WORDS: [&str; 12] = [
        "hi",
        "hello",
        "hey",
        "dear",
        "thanks",
        "thank",
        "cheers",
        "regards",
        "best",
        "greetings",
        "good",
        "gl",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .first()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .unwrap_or_default();
    words.len() <= 5
        && (line.ends_with(',') || line.ends_with('!') || WORDS.contains(&first.as_str()))
}

/// Reads a reply's body: unquoted move lines up to a `-- ` signature; the `Token:` and `Game:`
/// lines (a quoted `Token:`/`Game:` line only if there is no unquoted one); quoting
/// attributions (`… wrote:`), blank lines and pleasantries (`Hi Boris,`) skipped; an
/// `-----Original Message-----` line ends the reply like a signature.
pub fn extract(body: &str) -> Extracted {
    let mut e = Extracted::default();
    let mut quoted_token = None;
    let mut quoted_game = None;
    for raw in body.lines() {
        if raw.trim_end() == "--"
            || raw
                .trim()
                .eq_ignore_ascii_case("-----Original Message-----")
        {
            break;
        }
        let line = raw.trim();
        if let Some(q) = line.strip_prefix('>') {
            let q = q.trim_start_matches(['>', ' ']);
            if quoted_token.is_none() {
                quoted_token = field(q, "token").map(str::to_string);
            }
            if quoted_game.is_none() {
                quoted_game = field(q, "game").map(str::to_string);
            }
            continue;
        }
        if line.is_empty() || line.ends_with("wrote:") || is_pleasantry(line) {
            continue;
        }
        if let Some(t) = field(line, "token") {
            e.token.get_or_insert_with(|| t.to_string());
            continue;
        }
        if let Some(g) = field(line, "game") {
            e.game.get_or_insert_with(|| g.to_string());
            continue;
        }
        e.moves.push(line.to_string());
    }
    if e.token.is_none() {
        e.token = quoted_token;
    }
    if e.game.is_none() {
        e.game = quoted_game;
    }
    e
}

/// The game id of a subject's `[TS <game>]` tag.
pub fn game_from_subject(subject: &str) -> Option<String> {
    let start = subject.find("[TS ")? + 4;
    let end = subject[start..].find(']')? + start;
    let id = subject[start..end].trim();
    (!id.is_empty()).then(|| id.to_string())
}

fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id != "."
        && id != ".."
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The result of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Moves applied.
    Accepted {
        /// The game.
        game: String,
        /// The side that moved.
        side: Side,
        /// The decisions as logged (canonical notation).
        applied: Vec<String>,
    },
    /// Refused; nothing appended.
    Refused {
        /// The game, if known.
        game: Option<String>,
        /// Why.
        refusal: Refusal,
        /// The reply sent (its text).
        reply: String,
    },
}

impl Verdict {
    /// The exit status for this message: 0 or the refusal's.
    pub fn exit_code(&self) -> u8 {
        match self {
            Verdict::Accepted { .. } => 0,
            Verdict::Refused { refusal, .. } => refusal.exit_code(),
        }
    }
}

/// One message's identity before processing.
struct Context {
    received: Option<Received>,
    game: Option<String>,
    game_dir: Option<PathBuf>,
    moves: Vec<String>,
    /// The first log entry of an accepted move, for its receipt (issue 20).
    receipt_from: Option<u64>,
    /// The game's lock, held from reading the game to filing the mail (issue 12).
    lock: Option<crate::gamefs::GameLock>,
    /// The mail left its folder while we waited for the lock: another inbox run took it.
    gone: bool,
    /// What the lock's recovery set aside, to tell.
    recovered: Option<String>,
}

/// Finds which side sent a mail whose token is `token`, or why it is refused.
fn authenticate(session: &Session, sides: &[Side], token: Option<&str>) -> Result<Side, Refusal> {
    let token = token.ok_or(Refusal::MissingToken)?;
    for &side in sides {
        if session.check_reply_token(side, token) {
            return Ok(side);
        }
    }
    let now = session.log().next_seq();
    for &side in sides {
        for seq in (0..now).rev() {
            if session.check_reply_token_at(side, seq, token) {
                // A token stays good while the only entries since it are the opponent's sealed
                // headline commitment: nothing this player could see has changed.
                let only_sealed = session
                    .log()
                    .entries()
                    .iter()
                    .filter(|e| e.entry.seq >= seq)
                    .all(|e| {
                        matches!(
                            e.entry.payload,
                            Payload::Commitment {
                                kind: CommitmentKind::Headline,
                                side: Some(s),
                                ..
                            } if s == side.opponent()
                        )
                    });
                if only_sealed && session.game().is_some_and(|g| g.prompt_for(side).is_some()) {
                    return Ok(side);
                }
                return Err(Refusal::Stale {
                    token_seq: seq,
                    now_seq: now,
                });
            }
        }
    }
    Err(Refusal::WrongToken)
}

fn illegal(line: &str, e: SessionError) -> Result<Refusal, MailError> {
    match e {
        SessionError::Refused { error, .. } => Ok(Refusal::Illegal {
            line: line.into(),
            why: error.to_string(),
        }),
        SessionError::Notation(n) => Ok(Refusal::Illegal {
            line: line.into(),
            why: n.to_string(),
        }),
        SessionError::State(m) => Ok(Refusal::Illegal {
            line: line.into(),
            why: m,
        }),
        other => Err(MailError::Session(other)),
    }
}

/// Applies `moves` for `side`, all or none: several decisions are first tried on a copy of the
/// game in a temporary folder, so a refused later line leaves the real log untouched.
fn apply_moves(
    session: &mut Session,
    side: Side,
    moves: &[String],
    now: DateTime<Utc>,
) -> Result<Result<Vec<String>, Refusal>, MailError> {
    let mut count = 0;
    for line in moves {
        match notation::parse_line(line) {
            Ok(v) => count += v.len(),
            Err(e) => {
                return Ok(Err(Refusal::Illegal {
                    line: line.clone(),
                    why: e.to_string(),
                }))
            }
        }
    }
    if count > 1 {
        let tmp = tempfile::tempdir().map_err(|e| MailError::File {
            path: std::env::temp_dir(),
            message: e.to_string(),
        })?;
        let copy = tmp.path().join(session.game_id());
        fs::create_dir_all(&copy).map_err(|e| MailError::File {
            path: copy.clone(),
            message: e.to_string(),
        })?;
        for f in ["log.yaml", "secret.yaml"] {
            fs::copy(session.dir().join(f), copy.join(f)).map_err(|e| MailError::File {
                path: session.dir().join(f),
                message: e.to_string(),
            })?;
        }
        let mut trial = Session::open(&copy)?;
        for line in moves {
            if let Err(e) = trial.play(side, std::slice::from_ref(line), now) {
                return Ok(Err(illegal(line, e)?));
            }
        }
    }
    match session.play_staged(side, moves, now) {
        Ok(done) => Ok(Ok(done)),
        Err(e) => {
            let line = match &e {
                SessionError::Refused { line, .. } => line.clone(),
                _ => moves.first().cloned().unwrap_or_default(),
            };
            Ok(Err(illegal(&line, e)?))
        }
    }
}

/// Options of an inbox run.
pub struct InboxOptions {
    /// The folder holding the game folders.
    pub games_dir: PathBuf,
    /// Write every mail to outbox folders even if SMTP is configured.
    pub force_outbox: bool,
    /// The clock.
    pub now: DateTime<Utc>,
}

/// What an inbox run did with one message.
#[derive(Debug, Clone)]
pub struct Processed {
    /// The message's file (its path before it was moved).
    pub source: PathBuf,
    /// The result.
    pub verdict: Verdict,
}

/// The result of an inbox run.
#[derive(Debug, Default)]
pub struct InboxReport {
    /// Each message read, in order.
    pub processed: Vec<Processed>,
    /// Files skipped (already processed `.eml` files).
    pub skipped: Vec<PathBuf>,
    /// Prompts and updates sent after the moves.
    pub sent: Vec<Outgoing>,
    /// Problems sending mail (the moves stand; `twilight mail GAME_DIR` re-sends).
    pub send_errors: Vec<String>,
    /// Lines saying what was set aside from a log a crash left incomplete.
    pub recovered: Vec<String>,
    /// Mails left in place because their game was busy (another command held its lock).
    pub deferred: Vec<String>,
    /// Mails left in place because their game could not be opened or written (a damaged
    /// `log.yaml`, `secret.yaml` or `mail-state.yaml`, a file the OS refused): one line each,
    /// naming the mail and the error. They wait in `new/` until the game is repaired; the
    /// other games' mails go on.
    pub held: Vec<String>,
}

impl InboxReport {
    /// The exit status: the first refusal's, else 3 if a mail could not be sent, else 0.
    pub fn exit_code(&self) -> u8 {
        self.processed
            .iter()
            .map(|p| p.verdict.exit_code())
            .find(|c| *c != 0)
            .unwrap_or(if !self.held.is_empty() {
                2
            } else if self.send_errors.is_empty() {
                0
            } else {
                3
            })
    }
}

enum Source {
    Maildir(PathBuf, PathBuf),
    Eml(PathBuf),
}

fn list_sources(paths: &[PathBuf]) -> Result<Vec<Source>, MailError> {
    let mut out = Vec::new();
    for p in paths {
        let ferr = |m: String| MailError::File {
            path: p.clone(),
            message: m,
        };
        if p.is_dir() {
            let new = p.join("new");
            if !new.is_dir() {
                return Err(ferr(
                    "not a Maildir (no new/ folder); give a Maildir or .eml files".into(),
                ));
            }
            let mut files: Vec<PathBuf> = fs::read_dir(&new)
                .map_err(|e| ferr(e.to_string()))?
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.is_file())
                .collect();
            files.sort();
            out.extend(files.into_iter().map(|f| Source::Maildir(p.clone(), f)));
        } else if p.is_file() {
            out.push(Source::Eml(p.clone()));
        } else {
            return Err(ferr("no such file or folder".into()));
        }
    }
    Ok(out)
}

fn note_path(eml: &Path, ext: &str) -> PathBuf {
    let mut s = eml.as_os_str().to_owned();
    s.push(format!(".{ext}"));
    PathBuf::from(s)
}

fn write_file(path: &Path, text: &str) -> Result<(), MailError> {
    if let Some(d) = path.parent() {
        fs::create_dir_all(d).map_err(|e| MailError::File {
            path: d.into(),
            message: e.to_string(),
        })?;
    }
    fs::write(path, text).map_err(|e| MailError::File {
        path: path.into(),
        message: e.to_string(),
    })
}

/// Files a message after processing: Maildir `new/` → `cur/` with flags; `.eml` → a note.
/// False if the Maildir message was already gone (another inbox run filed it).
fn file_away(src: &Source, verdict: &Verdict) -> Result<bool, MailError> {
    let (accepted, note) = match verdict {
        Verdict::Accepted {
            game,
            side,
            applied,
        } => (
            true,
            format!("accepted: game {game}, {side}: {}\n", applied.join(" | ")),
        ),
        Verdict::Refused { refusal, reply, .. } => {
            (false, format!("refused ({}):\n{reply}", refusal.kind()))
        }
    };
    match src {
        Source::Maildir(root, file) => {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let base = name.split(":2,").next().unwrap_or(&name).to_string();
            let flags = if accepted { "S" } else { "FS" };
            let dest = root.join("cur").join(format!("{base}:2,{flags}"));
            fs::create_dir_all(root.join("cur")).map_err(|e| MailError::File {
                path: root.join("cur"),
                message: e.to_string(),
            })?;
            match fs::rename(file, &dest) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
                Err(e) => {
                    return Err(MailError::File {
                        path: file.clone(),
                        message: e.to_string(),
                    })
                }
            }
            if !accepted {
                write_file(
                    &root.join("twilight-refused").join(format!("{base}.txt")),
                    &note,
                )?;
            }
        }
        Source::Eml(f) => write_file(
            &note_path(f, if accepted { "accepted" } else { "refused" }),
            &note,
        )?,
    }
    Ok(true)
}

fn game_dir_of(games_dir: &Path, id: &str) -> Option<PathBuf> {
    if !valid_game_id(id) {
        return None;
    }
    let d = games_dir.join(id);
    d.join("log.yaml").is_file().then_some(d)
}

/// An applied mail: the game, the side, the decisions as logged.
type AcceptedMoves = (String, Side, Vec<String>);

/// Processes one message: returns the verdict (refusals not yet answered) and, when accepted,
/// the game folder whose prompts are due.
fn judge(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
    still_there: &dyn Fn() -> bool,
) -> Result<Result<AcceptedMoves, Refusal>, MailError> {
    let received = match read_message(raw) {
        Ok(r) => r,
        Err(r) => {
            // Answer the sender if the headers name one.
            ctx.received = sender_of(raw);
            return Ok(Err(r));
        }
    };
    let ex = extract(&received.body);
    ctx.moves = ex.moves.clone();
    ctx.received = Some(received.clone());
    let id = game_from_subject(&received.subject).or(ex.game.clone());
    let Some(id) = id else {
        return Ok(Err(Refusal::UnknownGame(None)));
    };
    ctx.game = Some(id.clone());
    let Some(dir) = game_dir_of(&opts.games_dir, &id) else {
        return Ok(Err(Refusal::UnknownGame(Some(id))));
    };
    ctx.game_dir = Some(dir.clone());
    let (lock, recovered) = Session::lock(&dir)?;
    ctx.lock = Some(lock);
    ctx.recovered = recovered;
    if !still_there() {
        ctx.gone = true;
        return Ok(Err(Refusal::NoMove));
    }
    let mut session = Session::open(&dir)?;
    let sides: Vec<Side> = [Side::Us, Side::Ussr]
        .into_iter()
        .filter(|s| {
            let p = match s {
                Side::Us => &session.players().us,
                Side::Ussr => &session.players().ussr,
            };
            bare_address(p) == received.from
        })
        .collect();
    if sides.is_empty() {
        return Ok(Err(Refusal::NotAPlayer {
            sender: received.from.clone(),
        }));
    }
    let mut state = MailState::load(&dir)?;
    // A record written ahead of a move whose commit a crash stopped names an entry the log
    // does not hold: that mail was never applied.
    let in_log = |a: &Applied| {
        a.entry
            .is_none_or(|h| session.log().entries().iter().any(|e| e.hash == h))
    };
    state.applied.retain(in_log);
    if let Some(a) = state.applied.iter().find(|a| {
        a.digest == received.digest
            || (!received.message_id.is_empty() && a.message_id == received.message_id)
    }) {
        return Ok(Err(Refusal::Replayed {
            at: a.at,
            seq: a.seq,
        }));
    }
    if session.game().is_none() {
        // A game not started yet: the mail is a join reply (issue 20 point 6).
        return super::invite::judge_join(
            &mut session,
            &sides,
            &received.body,
            ex.token.as_deref(),
            &received.message_id,
            &received.digest,
            opts.force_outbox,
            opts.now,
        );
    }
    let side = match authenticate(&session, &sides, ex.token.as_deref()) {
        Ok(s) => s,
        Err(r) => return Ok(Err(r)),
    };
    if ex.moves.is_empty() {
        return Ok(Err(Refusal::NoMove));
    }
    let seq = session.log().next_seq();
    ctx.receipt_from = Some(seq);
    match apply_moves(&mut session, side, &ex.moves, opts.now)? {
        Ok(done) => {
            // Written ahead of the move's commit, naming the move's last entry: after a crash
            // in between, the record counts exactly when the move is in the log.
            state.applied.push(Applied {
                message_id: received.message_id.clone(),
                digest: received.digest.clone(),
                side,
                seq,
                at: opts.now,
                entry: Some(session.log().head()),
            });
            state.save(&dir)?;
            crate::gamefs::crash_point("mail-state-ahead");
            if let Err(e) = session.commit() {
                state.applied.pop();
                state.save(&dir)?;
                return Err(e.into());
            }
            Ok(Ok((id, side, done)))
        }
        Err(r) => Ok(Err(r)),
    }
}

/// Mails the receipt of `side`'s move starting at log entry `from` (issue 20 point 5).
fn send_receipt(dir: &Path, side: Side, from: u64, force_outbox: bool) -> Result<(), MailError> {
    let session = Session::open(dir)?;
    let transport = Transport::choose(&dir.join("outbox"), force_outbox)?;
    super::receipt::send_move_receipt(&session, side, from, &transport)
}

/// The reply to a refused mail: quotes its move lines and says why.
pub fn refusal_text(refusal: &Refusal, game: Option<&str>, moves: &[String]) -> String {
    let mut t = String::new();
    t.push_str("Your mail was refused; nothing was added to the game's log.\n\n");
    let quoted: Vec<&String> = match refusal {
        Refusal::Illegal { line, .. } => vec![line],
        _ => moves.iter().collect(),
    };
    for l in quoted {
        t.push_str(&format!("> {l}\n"));
    }
    if !moves.is_empty() || matches!(refusal, Refusal::Illegal { .. }) {
        t.push('\n');
    }
    t.push_str(&format!("Why: {}\n", refusal.explain(game)));
    t.push_str(&format!("Refusal: {}\n", refusal.kind()));
    if let Some(g) = game {
        t.push_str(&format!("Game: {g}\n"));
    }
    t
}

fn send_refusal(
    opts: &InboxOptions,
    ctx: &Context,
    refusal: &Refusal,
    text: &str,
) -> Result<(), MailError> {
    let Some(r) = &ctx.received else {
        return Ok(()); // no sender to answer
    };
    let (outbox, config) = match &ctx.game_dir {
        Some(d) => (d.join("outbox"), MailConfig::load(d)?),
        None => (opts.games_dir.join("outbox"), MailConfig::default()),
    };
    let transport = Transport::choose(&outbox, opts.force_outbox)?;
    let from = config.sender();
    let domain = bare_address(&from)
        .rsplit_once('@')
        .map(|(_, d)| d.to_string())
        .unwrap_or_else(|| "localhost".into());
    let tag = subject_tag(ctx.game.as_deref().unwrap_or("?"));
    let mut b = Message::builder()
        .from(
            from.parse::<Mailbox>()
                .or_else(|_| bare_address(&from).parse())
                .map_err(|e| MailError::Config(format!("bad sender `{from}`: {e}")))?,
        )
        .to(r
            .from
            .parse::<Mailbox>()
            .map_err(|e| MailError::Build(e.to_string()))?)
        .subject(format!(
            "{tag} Refused ({}) — Re: {}",
            refusal.kind(),
            r.subject
        ))
        .message_id(Some(format!(
            "<ts.refused.{}.{}@{domain}>",
            &r.digest[..16],
            opts.now.timestamp()
        )));
    if !r.message_id.is_empty() {
        b = b
            .in_reply_to(format!("<{}>", r.message_id))
            .references(format!("<{}>", r.message_id));
    }
    let m = b
        .singlepart(SinglePart::plain(text.to_string()))
        .map_err(|e| MailError::Build(e.to_string()))?;
    transport.send(&m)
}

/// Runs the inbox: every new message of every source, in order; then the prompts of every game
/// that moved on. A refusal is answered at once; mail errors are collected, not fatal.
pub fn run(opts: &InboxOptions, sources: &[PathBuf]) -> Result<InboxReport, MailError> {
    let mut report = InboxReport::default();
    let mut touched: Vec<PathBuf> = Vec::new();
    for src in list_sources(sources)? {
        let file = match &src {
            Source::Maildir(_, f) | Source::Eml(f) => f.clone(),
        };
        if let Source::Eml(f) = &src {
            if note_path(f, "accepted").exists() || note_path(f, "refused").exists() {
                report.skipped.push(f.clone());
                continue;
            }
        }
        let raw = match fs::read(&file) {
            Ok(raw) => raw,
            // Another inbox run filed it since we listed the folder.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(MailError::File {
                    path: file.clone(),
                    message: e.to_string(),
                })
            }
        };
        let mut ctx = Context {
            received: None,
            game: None,
            game_dir: None,
            moves: Vec::new(),
            receipt_from: None,
            lock: None,
            gone: false,
            recovered: None,
        };
        let still_there = || match &src {
            Source::Maildir(..) => file.is_file(),
            Source::Eml(f) => {
                !note_path(f, "accepted").exists() && !note_path(f, "refused").exists()
            }
        };
        let judged = match judge(&raw, opts, &mut ctx, &still_there) {
            // One busy game does not stop the others: its mail waits for the next run.
            Err(MailError::Session(SessionError::Busy(e))) => {
                report
                    .deferred
                    .push(format!("{}: left for the next run: {e}", file.display()));
                continue;
            }
            // A game whose files cannot be read or written stops only its own mail, which
            // stays in place for the run after the game is repaired (issue 12: one bad game
            // never stops the loop).
            Err(e) => {
                report.recovered.extend(ctx.recovered.take());
                report.held.push(format!(
                    "{}: left in place, its game could not be processed: {e}",
                    file.display()
                ));
                continue;
            }
            Ok(judged) => judged,
        };
        report.recovered.extend(ctx.recovered.take());
        if ctx.gone {
            continue;
        }
        let verdict = match judged {
            Ok((game, side, applied)) => {
                if let Some(d) = &ctx.game_dir {
                    if !touched.contains(d) {
                        touched.push(d.clone());
                    }
                    if let Some(from) = ctx.receipt_from {
                        if let Err(e) = send_receipt(d, side, from, opts.force_outbox) {
                            report
                                .send_errors
                                .push(format!("{}: receipt not sent: {e}", file.display()));
                        }
                    }
                }
                Verdict::Accepted {
                    game,
                    side,
                    applied,
                }
            }
            Err(refusal) => {
                let text = refusal_text(&refusal, ctx.game.as_deref(), &ctx.moves);
                if let Err(e) = send_refusal(opts, &ctx, &refusal, &text) {
                    report
                        .send_errors
                        .push(format!("{}: reply not sent: {e}", file.display()));
                }
                Verdict::Refused {
                    game: ctx.game.clone(),
                    refusal,
                    reply: text,
                }
            }
        };
        if !file_away(&src, &verdict)? {
            continue; // another inbox run filed it first
        }
        drop(ctx.lock.take());
        report.processed.push(Processed {
            source: file,
            verdict,
        });
    }
    for dir in touched {
        // Each game's lock in turn: sending updates its mail state.
        let (_lock, recovered) = match Session::lock(&dir) {
            Ok(l) => l,
            Err(e @ SessionError::Busy(_)) => {
                report.send_errors.push(format!(
                    "{}: prompts not sent: {e}; `twilight mail {}` re-sends",
                    dir.display(),
                    dir.display()
                ));
                continue;
            }
            Err(e) => {
                report
                    .send_errors
                    .push(format!("{}: prompts not sent: {e}", dir.display()));
                continue;
            }
        };
        report.recovered.extend(recovered);
        let session = match Session::open(&dir) {
            Ok(s) => s,
            Err(e) => {
                report
                    .send_errors
                    .push(format!("{}: prompts not sent: {e}", dir.display()));
                continue;
            }
        };
        let transport = Transport::choose(&dir.join("outbox"), opts.force_outbox)?;
        match send_due(&session, &transport, false, opts.now) {
            Ok(sent) => report.sent.extend(sent),
            Err(e) => report
                .send_errors
                .push(format!("{}: prompts not sent: {e}", dir.display())),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_skips_quotes_signatures_and_field_lines() {
        let body = "Token: ABCD-EFGH\nGame: g1\n\nplay 4 space\n\nOn Mon, ref wrote:\n> Token: OLD\n> pass\n-- \nAlice\npass\n";
        let e = extract(body);
        assert_eq!(e.token.as_deref(), Some("ABCD-EFGH"));
        assert_eq!(e.game.as_deref(), Some("g1"));
        assert_eq!(e.moves, vec!["play 4 space".to_string()]);
    }

    #[test]
    fn greetings_and_sign_offs_are_not_moves() {
        let e = extract("Hi Boris,\n\nplay 4 space\nThanks!\nCheers\nAlice\n");
        assert_eq!(
            e.moves,
            vec!["play 4 space".to_string(), "Alice".to_string()]
        );
        // A placement list is never taken for a pleasantry.
        let e = extract("Iran 2, Iraq 1\n");
        assert_eq!(e.moves, vec!["Iran 2, Iraq 1".to_string()]);
    }

    #[test]
    fn a_quoted_token_is_used_when_no_unquoted_one() {
        let e = extract("pass\n\n> Seq: 4\n> Token: Q1\n>> Token: Q0\n");
        assert_eq!(e.token.as_deref(), Some("Q1"));
        assert_eq!(e.moves, vec!["pass".to_string()]);
    }

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

    #[test]
    fn malformed_mail_is_refused_with_its_reason() {
        assert!(matches!(read_message(b""), Err(Refusal::MalformedMime(_))));
        let r = read_message(b"Subject: x\r\n\r\nbody\r\n").unwrap_err();
        assert_eq!(r.kind(), "malformed-mime");
        assert!(r.explain(None).contains("no sender address"));
    }
}
