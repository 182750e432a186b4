//! Reading replies (design §5; issue 8 scope 3–4, issue 13): `twilight inbox [--games DIR]
//! SOURCE…`.
//!
//! For each new message: read it as a person would ([`super::reply`]: the new text, the tokens
//! anywhere in the mail, the Message-IDs it answers); find the game (the subject's `[TS <game>]`
//! tag, else a `Game: <game>` line, else the prompt it answers); check that the sender is a
//! player of that game; refuse a mail already applied (same Message-ID or same bytes); check
//! the reply token (bound to game, log `seq` and side, compared in constant time; a reply naming
//! a prompt in `In-Reply-To`/`References` carries that prompt's token) and tell a stale token
//! from a wrong one; apply the move lines all or none. A refusal appends nothing to the log and
//! is answered — only to a player of the game — by a mail that is itself a prompt
//! ([`super::refusal`]).
//!
//! Sources and what becomes of a message (nothing is ever deleted):
//!
//! * a Maildir (a folder with `new/`, `cur/`, `tmp/`): each file in `new/` is read; an applied
//!   one moves to `cur/NAME:2,S` (Seen); a refused one moves to `cur/NAME:2,FS` (Flagged, Seen)
//!   and the reply sent about it is kept as `twilight-refused/NAME.txt` in the Maildir; a mail
//!   for no game here stays in `new/` for a later run; a mail that fails in an unforeseen way
//!   (an error, a panic) moves to [`FAILED_FOLDER`] with `NAME.reason.txt` (issue 12 §4).
//! * an `.eml` file: left where it is; a note `FILE.accepted`, `FILE.refused` or `FILE.failed`
//!   beside it records the result, and a file with a note is skipped on later runs.

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use mail_parser::MessageParser;
use sha2::{Digest, Sha256};

use super::outbound::{send_due, Outgoing};
use super::reply::{self, Reply};
use super::transport::Transport;
use super::{bare_address, Applied, MailConfig, MailError, MailState};
use crate::data::Side;
use crate::log::Payload;
use crate::session::{Session, SessionError};
use crate::text::notation;

pub use super::reply::{extract, Extracted, MAX_MESSAGE_BYTES, MAX_TEXT_BYTES};

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
    /// The mail's text (or the whole message) is over the size read.
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
        /// What was measured: `its text` or `the message`.
        what: &'static str,
    },
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
    /// The token the player typed (on a `Token:` line of their own text) is no token of this
    /// player in this game, and the mail carried others (quoted from the prompt, or the
    /// prompt's Message-ID in `In-Reply-To`), which are not tried in its place.
    WrongTypedToken {
        /// The token as typed.
        typed: String,
    },
    /// The player's game token ([`super::game_token`]) with a line that is no game-level move:
    /// it never vouches for a decision of the game.
    GameTokenForDecision,
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
            Refusal::TooLarge { .. } => "too-large",
            Refusal::UnknownGame(_) => "unknown-game",
            Refusal::NotAPlayer { .. } => "not-a-player",
            Refusal::MissingToken => "missing-token",
            Refusal::WrongToken | Refusal::WrongTypedToken { .. } => "wrong-token",
            Refusal::GameTokenForDecision => "game-token-for-a-move",
            Refusal::Stale { .. } => "stale",
            Refusal::Replayed { .. } => "replayed",
            Refusal::NoMove => "no-move",
            Refusal::Illegal { .. } => "illegal-move",
        }
    }

    /// The exit status of `inbox` for this refusal (`EXIT_*`).
    pub fn exit_code(&self) -> u8 {
        match self {
            Refusal::MalformedMime(_) | Refusal::TooLarge { .. } => EXIT_MALFORMED,
            Refusal::UnknownGame(_) => EXIT_UNKNOWN_GAME,
            Refusal::NotAPlayer { .. } => EXIT_NOT_A_PLAYER,
            Refusal::MissingToken => EXIT_MISSING_TOKEN,
            Refusal::WrongToken
            | Refusal::WrongTypedToken { .. }
            | Refusal::GameTokenForDecision => EXIT_WRONG_TOKEN,
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
            Refusal::TooLarge { bytes, limit, what } => format!(
                "Your mail is too large: {what} is {bytes} bytes, more than the {limit} read. Attachments are ignored; reply with your move as text."
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
            Refusal::WrongTypedToken { typed } => format!(
                "The token you typed, `{typed}`, is not the token of your prompt in game {g} (mistyped, or from another game or player). The token of the prompt you answer (quoted in your mail or named by its reply header) does not count when you type one: copy the `Token:` line of your latest prompt mail exactly, or leave your own `Token:` line out."
            ),
            Refusal::GameTokenForDecision => format!(
                "Your mail carries your game token of game {g}, which is good only for lines about the game itself (resign, draw offers and answers, leave, takeback lines, standing orders), not for a move of the game. Reply to your latest prompt mail of game {g} and keep its `Token:` line."
            ),
            Refusal::Stale { token_seq, now_seq } => format!(
                "Your mail answers the prompt of log entry {token_seq}, but game {g} has moved on to entry {now_seq}: the position changed since that mail. Your latest prompt mail has the current position, options and token."
            ),
            Refusal::Replayed { at, seq } => format!(
                "This mail was already applied to game {g} on {} (log entry {seq}); a mail is never applied twice.",
                at.format("%Y-%m-%d %H:%M UTC")
            ),
            Refusal::NoMove => "No move line was found in your mail (quoted lines, blank lines, the Token and Game lines and anything after a `-- ` signature line are ignored). Write your move on a line of its own, e.g. `pass`.".into(),
            Refusal::Illegal { line, why } if line.trim().is_empty() => {
                format!("Your mail is refused: {why}")
            }
            Refusal::Illegal { line, why } => format!("The move `{line}` is refused: {why}"),
        }
    }
}

/// A message as read ([`reply::read`]).
pub type Received = Reply;

/// Parses raw message bytes ([`reply::read`]).
pub fn read_message(raw: &[u8]) -> Result<Received, Refusal> {
    reply::read(raw)
}

/// The sender, subject and Message-ID of a message too broken to read in full, if its
/// headers name a sender (so a refusal can still be answered).
fn sender_of(raw: &[u8]) -> Option<Received> {
    let lf = reply::lf_line_ends(raw);
    let msg = MessageParser::default().parse(&lf[..])?;
    let from = msg.from()?.first()?.address()?.to_ascii_lowercase();
    from.contains('@').then(|| Received {
        from,
        subject: msg.subject().unwrap_or_default().to_string(),
        message_id: msg.message_id().unwrap_or_default().to_string(),
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
        /// The side that moved (`None`: a seat of a bid game sent its sealed bid, and the
        /// sides are not decided yet).
        side: Option<Side>,
        /// The decisions as logged (canonical notation).
        applied: Vec<String>,
        /// Lines of the player's text read as no move (greetings, sign-offs), for the receipt.
        ignored: Vec<String>,
    },
    /// Refused; nothing appended. Filed as refused.
    Refused {
        /// The game, if known.
        game: Option<String>,
        /// Why.
        refusal: Refusal,
        /// The reply's text (sent only to a player of the game).
        reply: String,
        /// Where the reply went (`outbox file PATH`, `SMTP …`); `None` when it was not sent
        /// because the sender is no player of the game (refusals go only to players).
        answered: Option<String>,
    },
    /// Applied already, by an earlier run that could not file it (moving it to `cur/`, or
    /// writing the `.eml` note, failed): this very file is recognised by the game's mail state
    /// ([`super::Applied::source`]) and filed as accepted now; nothing is applied or mailed
    /// again (the player had the receipt and the next prompt then).
    Filed {
        /// The game.
        game: String,
        /// The side whose move it was.
        side: Side,
        /// The log entry the move began at.
        seq: u64,
    },
    /// Not for any game here (the moderator's matter, not the player's): reported, left
    /// unfiled in `new/` (an `.eml` gets no note) for a later run, not answered.
    Held {
        /// The game the mail names, if any.
        game: Option<String>,
        /// Why.
        refusal: Refusal,
    },
    /// Failed in an unforeseen way (a broken game folder, an internal error): filed as failed
    /// (`MAILDIR/twilight-failed/`, or a `FILE.failed` note), never retried; other mails go on.
    Failed {
        /// What went wrong.
        reason: String,
    },
}

/// Exit status of `inbox` when a mail failed in an unforeseen way (filed as failed).
pub const EXIT_FAILED: u8 = 19;

impl Verdict {
    /// The exit status for this message: 0, the refusal's, or [`EXIT_FAILED`].
    pub fn exit_code(&self) -> u8 {
        match self {
            Verdict::Accepted { .. } | Verdict::Filed { .. } => 0,
            Verdict::Refused { refusal, .. } | Verdict::Held { refusal, .. } => refusal.exit_code(),
            Verdict::Failed { .. } => EXIT_FAILED,
        }
    }
}

/// One message's identity before processing.
#[derive(Default)]
struct Context {
    received: Option<Received>,
    game: Option<String>,
    game_dir: Option<PathBuf>,
    moves: Vec<String>,
    ignored: Vec<String>,
    /// The sides the sender plays in the game (empty: no player, or not known yet).
    sides: Vec<Side>,
    /// The side authenticated by the token.
    side: Option<Side>,
    /// The first log entry of an accepted move, for its receipt (issue 20).
    receipt_from: Option<u64>,
    /// The game's lock, held from reading the game to filing the mail (issue 12).
    lock: Option<crate::gamefs::GameLock>,
    /// The mail left its folder while we waited for the lock: another inbox run took it.
    gone: bool,
    /// What the lock's recovery set aside, to tell.
    recovered: Option<String>,
    /// The game after an accepted move, as this process replayed it: opened again from it
    /// ([`Session::reopen`]) for the receipt and the prompts instead of from the disk.
    session: Option<Session>,
    /// This very file was applied by an earlier run (at this log entry) that could not file
    /// it: it is filed now, not answered.
    unfiled: Option<u64>,
    /// Where the receipts of a join or a sealed bid went (`mailed …` lines), or why one could
    /// not be sent, to tell.
    receipts: Vec<Result<String, String>>,
}

/// The reply tokens a mail's `In-Reply-To`/`References` stand for: each names a prompt of
/// this game to one of `sides` whose Message-ID tag matches the token issued with it.
fn bound_tokens(session: &Session, sides: &[Side], answers: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for id in answers {
        let Some((game, side_name, tag, seq)) = reply::parse_prompt_id(id) else {
            continue;
        };
        if game != session.game_id() {
            continue;
        }
        for &side in sides {
            if side.name().to_ascii_lowercase() != side_name {
                continue;
            }
            if let Some(token) = session.reply_token_at(side, seq) {
                if reply::message_id_tag(&token) == tag && !out.contains(&token) {
                    out.push(token);
                }
            }
        }
    }
    out
}

/// Finds which side sent a mail carrying the candidate `tokens` (best first), or why it is
/// refused: missing, stale (the first stale candidate), or wrong.
fn authenticate(session: &Session, sides: &[Side], tokens: &[String]) -> Result<Side, Refusal> {
    if tokens.is_empty() {
        return Err(Refusal::MissingToken);
    }
    for token in tokens {
        for &side in sides {
            if session.check_reply_token(side, token) {
                return Ok(side);
            }
        }
    }
    let mut stale = None;
    for token in tokens {
        match authenticate_earlier(session, sides, token) {
            Ok(side) => return Ok(side),
            Err(r @ Refusal::Stale { .. }) if stale.is_none() => stale = Some(r),
            Err(_) => {}
        }
    }
    Err(stale.unwrap_or(Refusal::WrongToken))
}

/// A token of an earlier prompt: still good while only the opponent's sealed headline came
/// since, else stale; any other token is wrong.
fn authenticate_earlier(session: &Session, sides: &[Side], token: &str) -> Result<Side, Refusal> {
    let now = session.log().next_seq();
    for &side in sides {
        for seq in (0..now).rev() {
            if session.check_reply_token_at(side, seq, token) {
                // A token stays good while the only entries since it are the opponent's sealed
                // headline commitment: nothing this player could see has changed.
                let only_sealed = session.log().since(seq).iter().all(|e| {
                    matches!(
                        e.entry.payload,
                        Payload::Commitment {
                            kind,
                            side: Some(s),
                            ..
                        } if s == side.opponent() && kind.seals_a_choice()
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
        SessionError::State(m) | SessionError::Refusal(m) => Ok(Refusal::Illegal {
            line: line.into(),
            why: m,
        }),
        other => Err(MailError::Session(other)),
    }
}

/// A refusal of line `i` of a mail's `moves` that comes after other lines, with where it
/// stands: the line it repeats, or the line before it (which the trial took first), and that
/// nothing of the mail was applied. Line 0 or another refusal is returned as it is.
fn after_earlier_lines(refusal: Refusal, moves: &[String], i: usize) -> Refusal {
    let Refusal::Illegal { line, why } = refusal else {
        return refusal;
    };
    if i == 0 {
        return Refusal::Illegal { line, why };
    }
    let norm = |l: &str| {
        l.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let place = match moves[..i].iter().position(|m| norm(m) == norm(&line)) {
        Some(k) => format!(
            "line {} of your moves repeats line {}: send each move once",
            i + 1,
            k + 1
        ),
        None => format!("line {} of your moves, after `{}`", i + 1, moves[i - 1]),
    };
    Refusal::Illegal {
        line,
        why: format!("{why} ({place}; nothing of your mail was applied)"),
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
        // `resign`, `offer draw`, `leave …` (issue 17): the session reads them.
        if crate::session::correspondence::parse_act(line).is_some() {
            count += 1;
            continue;
        }
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
        // The replay snapshot, if any, spares the trial a replay of the log (a cache: none
        // is fine, and the trial checks it as any opening does).
        let snapshot = crate::session::SNAPSHOT_FILE;
        let _ = fs::copy(session.dir().join(snapshot), copy.join(snapshot));
        let mut trial = Session::open(&copy)?;
        for (i, line) in moves.iter().enumerate() {
            if let Err(e) = trial.play(side, std::slice::from_ref(line), now) {
                return Ok(Err(after_earlier_lines(illegal(line, e)?, moves, i)));
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
    /// The receipts mailed to the players whose moves were accepted, one line each: where
    /// each went (issue 20 point 5; a sealed headline's receipt too, and a join's or a sealed
    /// bid's).
    pub receipts: Vec<String>,
    /// Problems sending mail (the moves stand; `twilight mail GAME_DIR` re-sends).
    pub send_errors: Vec<String>,
    /// Lines saying what was set aside from a log a crash left incomplete.
    pub recovered: Vec<String>,
    /// Mails left in place because their game was busy (another command held its lock).
    pub deferred: Vec<String>,
}

impl InboxReport {
    /// How many mails got a verdict matching `f`.
    pub fn count(&self, f: impl Fn(&Verdict) -> bool) -> usize {
        self.processed.iter().filter(|p| f(&p.verdict)).count()
    }

    /// The exit status: the first refusal's, else 3 if a mail could not be sent, else 0.
    pub fn exit_code(&self) -> u8 {
        self.processed
            .iter()
            .map(|p| p.verdict.exit_code())
            .find(|c| *c != 0)
            .unwrap_or(if self.send_errors.is_empty() { 0 } else { 3 })
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
                return Err(ferr(format!(
                    "not a Maildir: it has no new/ folder. A Maildir holds new/, cur/ and tmp/ \
                     (your mail fetcher, fetchmail, mbsync or getmail, fills new/); make them with \
                     `{}`, or give .eml files",
                    mkdir_maildir(p)
                )));
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
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("eml")) {
            // A name ending in .eml means a mail file: no advice to make a Maildir of it.
            return Err(ferr(
                "no such .eml file (give the path of a saved mail, or a Maildir folder)".into(),
            ));
        } else {
            return Err(ferr(format!(
                "no such Maildir folder or .eml file. A Maildir is a folder holding new/, cur/ \
                 and tmp/ that your mail fetcher (fetchmail, mbsync or getmail) fills; if the \
                 path is right, make an empty one with `{}` and point the fetcher at it",
                mkdir_maildir(p)
            )));
        }
    }
    Ok(out)
}

/// The shell command that makes an empty Maildir at `p` (its `new/`, `cur/` and `tmp/`).
fn mkdir_maildir(p: &Path) -> String {
    let d = p.display().to_string();
    let d = if d.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
        format!("'{}'", d.replace('\'', "'\\''"))
    } else {
        d
    };
    format!("mkdir -p {d}/new {d}/cur {d}/tmp")
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

/// Files a message after processing: Maildir `new/` → `cur/` with flags (`S` applied, `FS`
/// refused) or → `twilight-failed/` (failed); `.eml` → a note beside it. A held mail stays.
/// False if the Maildir message was already gone (another inbox run filed it).
fn file_away(src: &Source, verdict: &Verdict) -> Result<bool, MailError> {
    let (ext, note) = match verdict {
        Verdict::Accepted {
            game,
            side,
            applied,
            ..
        } => (
            "accepted",
            match side {
                Some(side) => format!("accepted: game {game}, {side}: {}\n", applied.join(" | ")),
                None => format!("accepted: game {game}: {}\n", applied.join(" | ")),
            },
        ),
        Verdict::Refused { refusal, reply, .. } => {
            ("refused", format!("refused ({}):\n{reply}", refusal.kind()))
        }
        Verdict::Filed { game, side, seq } => (
            "accepted",
            format!(
                "accepted: game {game}, {side}: applied at log entry {seq} by an earlier run\n"
            ),
        ),
        Verdict::Held { .. } => return Ok(true),
        Verdict::Failed { reason } => ("failed", format!("failed: {reason}\n")),
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| MailError::File {
            path: path.clone(),
            message: e.to_string(),
        }
    };
    match src {
        Source::Maildir(root, file) => {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let base = name.split(":2,").next().unwrap_or(&name).to_string();
            if ext == "failed" {
                let dir = root.join(FAILED_FOLDER);
                fs::create_dir_all(&dir).map_err(io(&dir))?;
                match fs::rename(file, dir.join(&name)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
                    Err(e) => return Err(io(file)(e)),
                }
                return write_file(&dir.join(format!("{base}.reason.txt")), &note).map(|()| true);
            }
            let flags = if ext == "accepted" { "S" } else { "FS" };
            let dest = root.join("cur").join(format!("{base}:2,{flags}"));
            fs::create_dir_all(root.join("cur")).map_err(io(&root.join("cur")))?;
            match fs::rename(file, &dest) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
                Err(e) => return Err(io(file)(e)),
            }
            if ext == "refused" {
                write_file(
                    &root.join("twilight-refused").join(format!("{base}.txt")),
                    &note,
                )?;
            }
        }
        Source::Eml(f) => write_file(&note_path(f, ext), &note)?,
    }
    Ok(true)
}

/// The Maildir folder a failed mail is moved to, beside `new/` and `cur/`, with a
/// `NAME.reason.txt` saying why.
pub const FAILED_FOLDER: &str = "twilight-failed";

/// The folder of game `id` and the game's id as its folder spells it: `id` itself, else the
/// one game folder whose name is `id` in another letter case (`[TS G1]` for `g1`); `None`
/// when there is none, or several.
fn game_dir_of(games_dir: &Path, id: &str) -> Option<(PathBuf, String)> {
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

/// An applied mail: the game, the side (`None`: a seat's sealed bid, before the sides are
/// decided), the decisions as logged.
type AcceptedMoves = super::invite::Joined;

/// Processes one message: returns the verdict (refusals not yet answered) and, when accepted,
/// the game folder whose prompts are due.
fn judge(
    raw: &[u8],
    opts: &InboxOptions,
    ctx: &mut Context,
    source: &str,
    still_there: &dyn Fn() -> bool,
) -> Result<Result<AcceptedMoves, Refusal>, MailError> {
    let received = match read_message(raw) {
        Ok(r) => r,
        Err(r) => {
            // Answer the sender if the headers name one and a game of theirs.
            ctx.received = sender_of(raw);
            if let Some(id) = ctx
                .received
                .as_ref()
                .and_then(|rc| game_from_subject(&rc.subject))
            {
                let found = game_dir_of(&opts.games_dir, &id);
                ctx.game = Some(found.as_ref().map_or(id, |(_, name)| name.clone()));
                ctx.game_dir = found.map(|(d, _)| d);
            }
            return Ok(Err(r));
        }
    };
    let ex = extract(&received.body, &received.all_text);
    ctx.moves = ex.moves.clone();
    ctx.ignored = ex.ignored.clone();
    ctx.received = Some(received.clone());
    let id = game_from_subject(&received.subject)
        .or(ex.game.clone())
        .or_else(|| {
            received
                .answers
                .iter()
                .find_map(|a| reply::parse_prompt_id(a).map(|p| p.0))
        });
    let Some(id) = id else {
        return Ok(Err(Refusal::UnknownGame(None)));
    };
    ctx.game = Some(id.clone());
    let Some((dir, id)) = game_dir_of(&opts.games_dir, &id) else {
        return Ok(Err(Refusal::UnknownGame(Some(id))));
    };
    ctx.game = Some(id.clone());
    ctx.game_dir = Some(dir.clone());
    let (lock, recovered) = Session::lock(&dir)?;
    ctx.lock = Some(lock);
    ctx.recovered = recovered;
    if !still_there() {
        ctx.gone = true;
        return Ok(Err(Refusal::NoMove));
    }
    let mut session = Session::open(&dir)?;
    // A bid game before the bid: the sender is a seat (issue 18).
    let seats = if session.awaiting_bids() {
        session.seats_of(&received.from)
    } else {
        Vec::new()
    };
    let sides = sides_of(&session, &received.from);
    if sides.is_empty() && seats.is_empty() {
        return Ok(Err(Refusal::NotAPlayer {
            sender: received.from.clone(),
        }));
    }
    ctx.sides = sides.clone();
    let mut state = MailState::load(&dir)?;
    // A record written ahead of a move whose commit a crash stopped names an entry the log
    // does not hold: that mail was never applied.
    let in_log = |a: &Applied| {
        a.entry
            .is_none_or(|h| session.log().since(a.seq).iter().any(|e| e.hash == h))
    };
    // Records are added in the log's order and each run drops those of stopped moves before
    // it adds one: only the records after the last one found in the log can be stale, so the
    // search stops there (reading only recent entries of a long log).
    let found = state.applied.iter().rposition(in_log).map_or(0, |i| i + 1);
    let mut i = 0;
    state.applied.retain(|a| {
        i += 1;
        i <= found || in_log(a)
    });
    if let Some(a) = state.applied.iter().find(|a| {
        a.digest == received.digest
            || (!received.message_id.is_empty() && a.message_id == received.message_id)
    }) {
        // This very file, applied by a run that could not file it: file it now, quietly.
        if a.source.as_deref() == Some(source) {
            ctx.unfiled = Some(a.seq);
            return Ok(Ok((id, Some(a.side), Vec::new())));
        }
        return Ok(Err(Refusal::Replayed {
            at: a.at,
            seq: a.seq,
        }));
    }
    let key = super::MailKey {
        message_id: &received.message_id,
        digest: &received.digest,
        source,
    };
    let mut tokens = ex.tokens.clone();
    for t in bound_tokens(&session, &sides, &received.answers) {
        if !tokens.contains(&t) {
            tokens.push(t);
        }
    }
    // What the player typed is what they mean: a quoted or bound token never stands in.
    let set_aside = ex.typed > 0 && tokens.len() > ex.typed;
    if ex.typed > 0 {
        tokens.truncate(ex.typed);
    }
    if !seats.is_empty() {
        return super::bid_mail::judge_bid(
            &mut session,
            &seats,
            &received.body,
            &tokens,
            key,
            opts.force_outbox,
            opts.now,
            &mut ctx.receipts,
        );
    }
    if session.game().is_none() {
        // A game not started yet: the mail is a join reply (issue 20 point 6).
        return super::invite::judge_join(
            &mut session,
            &sides,
            &received.body,
            &tokens,
            key,
            opts.force_outbox,
            opts.now,
            &mut ctx.receipts,
        );
    }
    let side = match authenticate(&session, &sides, &tokens) {
        Ok(s) => s,
        // A takeback asked after one's own move, with the token of the prompt it answered.
        Err(r) => match crate::session::takeback::mail_asker(&session, &sides, &tokens, &ex.moves)
            // Resign, draws, leave, takeback answers, standing orders: the game token.
            .or_else(|| super::game_token::sender(&session, &sides, &tokens, &ex.moves))
        {
            Some(s) => s,
            None if matches!(r, Refusal::WrongToken)
                && super::game_token::carried(&session, &sides, &tokens) =>
            {
                return Ok(Err(Refusal::GameTokenForDecision))
            }
            None if matches!(r, Refusal::WrongToken) && set_aside => {
                return Ok(Err(Refusal::WrongTypedToken {
                    typed: tokens[0].clone(),
                }))
            }
            None => return Ok(Err(r)),
        },
    };
    ctx.side = Some(side);
    if ex.moves.is_empty() {
        return Ok(Err(Refusal::NoMove));
    }
    // A move cut inside a name by a hard wrap: refused whole, naming both lines, never read
    // as the shorter move it would make (`East` alone reads as East Germany 1).
    if let Some((line, next, name)) = &ex.cut {
        return Ok(Err(Refusal::Illegal {
            line: line.clone(),
            why: format!(
                "the line seems cut in two by your mail program: the next line `{next}` goes on \
                 with `{name}`. Nothing was applied; send the move again on one line (a long \
                 move may be broken after a comma)."
            ),
        }));
    }
    let seq = session.log().next_seq();
    ctx.receipt_from = Some(seq);
    match apply_moves(&mut session, side, &ex.moves, opts.now)? {
        Ok(done) => {
            // Written ahead of the move's commit, naming the move's last entry: after a crash
            // in between, the record counts exactly when the move is in the log (issue 12).
            state
                .applied
                .push(key.applied(side, seq, opts.now, Some(session.log().head())));
            // The record's new name needs its folder synced before the move's first write:
            // the commit's journal, written atomically in the same folder, syncs it (a move
            // with nothing staged writes no journal: then here). Killed at any point, the
            // renamed file stays as written.
            state.save_unsynced(&dir)?;
            crate::gamefs::crash_point("mail-state-ahead");
            if session.log().staged() == 0 {
                crate::gamefs::sync_dir(&dir).map_err(|e| MailError::File {
                    path: dir.clone(),
                    message: e.to_string(),
                })?;
            }
            if let Err(e) = session.commit() {
                state.applied.pop();
                state.save(&dir)?;
                return Err(e.into());
            }
            ctx.session = Some(session);
            Ok(Ok((id, Some(side), done)))
        }
        Err(r) => Ok(Err(r)),
    }
}

/// Mails the receipt of `side`'s move starting at log entry `from` (issue 20 point 5).
fn send_receipt(
    session: &Session,
    side: Side,
    from: u64,
    force_outbox: bool,
) -> Result<Option<String>, MailError> {
    let transport = Transport::choose(&session.dir().join("outbox"), force_outbox)?;
    super::receipt::send_move_receipt(session, side, from, &transport)
}

/// The game in `dir` opened again after a move: from `held`, this process's replay of it,
/// when the files are unchanged ([`Session::reopen`]), else from the disk.
fn reopen(dir: &Path, held: Option<Session>) -> Result<Session, SessionError> {
    match held {
        Some(s) if s.dir() == dir => s.reopen(),
        _ => Session::open(dir),
    }
}

/// The games whose prompts are due after the mails, each with this process's latest replay
/// of it, if any ([`reopen`]).
type Touched = Vec<(PathBuf, Option<Session>)>;

/// The sides `address` plays in the game of `session`.
fn sides_of(session: &Session, address: &str) -> Vec<Side> {
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

/// The reply to a refused mail (see [`super::refusal::refusal_text`]; no retry part).
pub fn refusal_text(refusal: &Refusal, game: Option<&str>, moves: &[String]) -> String {
    super::refusal::refusal_text(refusal, game, moves, None)
}

/// Answers a refused mail — only when its sender is a player of the game it names — with a
/// reply that is itself a prompt. Returns the reply's text and where it went (`None`: not
/// answered).
fn answer_refusal(
    opts: &InboxOptions,
    ctx: &Context,
    refusal: &Refusal,
) -> (String, Result<Option<String>, MailError>) {
    let plain = super::refusal::refusal_text(refusal, ctx.game.as_deref(), &ctx.moves, None);
    let (Some(r), Some(dir)) = (&ctx.received, &ctx.game_dir) else {
        return (plain, Ok(None));
    };
    let session = match Session::open(dir) {
        Ok(s) => s,
        Err(e) => return (plain, Err(e.into())),
    };
    let sides = if ctx.sides.is_empty() {
        sides_of(&session, &r.from)
    } else {
        ctx.sides.clone()
    };
    if sides.is_empty() {
        return (plain, Ok(None)); // refusals go only to a game's players
    }
    let side = ctx.side.unwrap_or_else(|| {
        sides
            .iter()
            .copied()
            .find(|s| session.game().is_some_and(|g| g.prompt_for(*s).is_some()))
            .unwrap_or(sides[0])
    });
    let retry = super::refusal::Retry {
        session: &session,
        side,
    };
    let text = super::refusal::refusal_text(refusal, ctx.game.as_deref(), &ctx.moves, Some(&retry));
    let sent = (|| {
        let config = MailConfig::load(dir)?;
        let to = match side {
            Side::Us => session.players().us.clone(),
            Side::Ussr => session.players().ussr.clone(),
        };
        let subject = super::refusal::refusal_subject(&r.subject, ctx.game.as_deref(), refusal);
        let m = super::refusal::refusal_message(
            &config,
            &to,
            &subject,
            &r.message_id,
            &r.digest,
            Some(&retry),
            &text,
            opts.now,
        )?;
        let transport = Transport::choose(&dir.join("outbox"), opts.force_outbox)?;
        transport.deliver(&m).map(Some)
    })();
    (text, sent)
}

/// Judges one message and answers it if refused; `touched` collects the games that moved on.
fn process(
    raw: &[u8],
    opts: &InboxOptions,
    report: &mut InboxReport,
    touched: &mut Touched,
    src: &Source,
    still_there: &dyn Fn() -> bool,
    held: &mut Option<crate::gamefs::GameLock>,
) -> Result<Option<Verdict>, MailError> {
    let file = match src {
        Source::Maildir(_, f) | Source::Eml(f) => f.as_path(),
    };
    let source = &source_name(src);
    #[cfg(debug_assertions)]
    if let Ok(needle) = std::env::var("TWILIGHT_TEST_PANIC_ON") {
        // Test-only failpoint (debug builds): a mail containing the text panics, so the tests
        // can check that one bad mail never stops the loop.
        if !needle.is_empty() && String::from_utf8_lossy(raw).contains(&needle) {
            panic!("test failpoint TWILIGHT_TEST_PANIC_ON hit");
        }
    }
    let mut ctx = Context::default();
    let judged = match judge(raw, opts, &mut ctx, source, still_there) {
        // One busy game does not stop the others: its mail waits for the next run (issue 12);
        // so does the mail of a game whose folder cannot be written (kept in new/, not filed
        // as failed: it applies once the folder is writable again).
        Err(MailError::Session(SessionError::Busy(e) | SessionError::ReadOnly(e))) => {
            report
                .deferred
                .push(format!("{}: left for the next run: {e}", file.display()));
            return Ok(None);
        }
        other => other,
    };
    report.recovered.extend(ctx.recovered.take());
    // A join's or a bid's receipt, mailed while judging: said and counted like a move's.
    for r in ctx.receipts.drain(..) {
        match r {
            Ok(line) => report.receipts.push(line),
            Err(e) => report
                .send_errors
                .push(format!("{}: receipt not sent: {e}", file.display())),
        }
    }
    // The lock is held by the caller until the mail is filed.
    *held = ctx.lock.take();
    if ctx.gone {
        return Ok(None); // another inbox run took it
    }
    Ok(Some(match judged? {
        Ok((game, Some(side), _)) if ctx.unfiled.is_some() => Verdict::Filed {
            game,
            side,
            seq: ctx.unfiled.unwrap_or_default(),
        },
        Ok((game, side, applied)) => {
            if let Some(d) = &ctx.game_dir {
                let i = match touched.iter().position(|(t, _)| t == d) {
                    Some(i) => i,
                    None => {
                        touched.push((d.clone(), None));
                        touched.len() - 1
                    }
                };
                // This move's replay stands for the game from now on (an earlier mail's no more).
                touched[i].1 = None;
                if let (Some(from), Some(side)) = (ctx.receipt_from, side) {
                    let sent = reopen(d, ctx.session.take()).map_err(MailError::from);
                    let sent = sent.and_then(|session| {
                        let line = send_receipt(&session, side, from, opts.force_outbox);
                        touched[i].1 = Some(session);
                        line
                    });
                    match sent {
                        Ok(Some(line)) => report.receipts.push(line),
                        Ok(None) => {}
                        Err(e) => report
                            .send_errors
                            .push(format!("{}: receipt not sent: {e}", file.display())),
                    }
                }
            }
            Verdict::Accepted {
                game,
                side,
                applied,
                ignored: ctx.ignored.clone(),
            }
        }
        Err(refusal @ Refusal::UnknownGame(_)) => Verdict::Held {
            game: ctx.game.clone(),
            refusal,
        },
        Err(refusal) => {
            let (reply, sent) = answer_refusal(opts, &ctx, &refusal);
            let answered = match sent {
                Ok(a) => a,
                Err(e) => {
                    report
                        .send_errors
                        .push(format!("{}: reply not sent: {e}", file.display()));
                    None
                }
            };
            Verdict::Refused {
                game: ctx.game.clone(),
                refusal,
                reply,
                answered,
            }
        }
    }))
}

/// The name of a mail's file as [`super::Applied::source`] records it: a Maildir message's
/// unique name without its `:2,` flags, an `.eml` file's path.
fn source_name(src: &Source) -> String {
    match src {
        Source::Maildir(_, f) => {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.split(":2,").next().unwrap_or(&name).to_string()
        }
        Source::Eml(f) => fs::canonicalize(f)
            .unwrap_or_else(|_| f.clone())
            .display()
            .to_string(),
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs the inbox: every new message of every source, in order; then the prompts of every game
/// that moved on. Each mail is handled on its own: a refusal is answered at once, a mail for no
/// game here is held for a later run, and a mail that fails in any unforeseen way — an error
/// or even a panic — is filed as failed while the other mails and games go on (issue 12 §4).
/// Mail errors are collected, not fatal.
pub fn run(opts: &InboxOptions, sources: &[PathBuf]) -> Result<InboxReport, MailError> {
    let mut report = InboxReport::default();
    let mut touched: Touched = Vec::new();
    let sources = list_sources(sources)?;
    let count = sources.len();
    // The lock of the last mail's game, kept for sending its prompts: held all along, its
    // files need not be read and compared again (`Session::reopen`), nor the lock taken anew.
    let mut kept: Option<crate::gamefs::GameLock> = None;
    for (n, src) in sources.into_iter().enumerate() {
        let file = match &src {
            Source::Maildir(_, f) | Source::Eml(f) => f.clone(),
        };
        if let Source::Eml(f) = &src {
            if ["accepted", "refused", "failed"]
                .iter()
                .any(|e| note_path(f, e).exists())
            {
                report.skipped.push(f.clone());
                continue;
            }
        }
        let still_there = || match &src {
            Source::Maildir(..) => file.is_file(),
            Source::Eml(f) => ["accepted", "refused", "failed"]
                .iter()
                .all(|e| !note_path(f, e).exists()),
        };
        let mut held: Option<crate::gamefs::GameLock> = None;
        let verdict = match fs::read(&file) {
            // Another inbox run filed it since we listed the folder.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => Verdict::Failed {
                reason: format!("cannot read the file: {e}"),
            },
            Ok(raw) => {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    process(
                        &raw,
                        opts,
                        &mut report,
                        &mut touched,
                        &src,
                        &still_there,
                        &mut held,
                    )
                }));
                match outcome {
                    Ok(Ok(Some(v))) => v,
                    Ok(Ok(None)) => continue, // left for the next run, or filed by another
                    Ok(Err(MailError::Session(
                        SessionError::Busy(e) | SessionError::ReadOnly(e),
                    ))) => {
                        report
                            .deferred
                            .push(format!("{}: left for the next run: {e}", file.display()));
                        continue;
                    }
                    Ok(Err(e)) => Verdict::Failed {
                        reason: e.to_string(),
                    },
                    Err(p) => Verdict::Failed {
                        reason: format!("internal error (panic: {})", panic_text(&*p)),
                    },
                }
            }
        };
        match file_away(&src, &verdict) {
            Ok(true) => {}
            Ok(false) => continue, // another inbox run filed it first
            Err(e) => report
                .send_errors
                .push(format!("{}: could not be filed: {e}", file.display())),
        }
        if n + 1 == count {
            kept = held;
        } else {
            drop(held);
        }
        report.processed.push(Processed {
            source: file,
            verdict,
        });
    }
    for (dir, held) in touched {
        // Each game's lock in turn: sending updates its mail state.
        let lock = match kept.take_if(|l| l.dir() == crate::gamefs::plain(&dir)) {
            Some(l) => Ok((l, None)),
            None => {
                // Never one game's lock held while waiting for another's: two runs taking
                // the same games in the other order would wait for each other until the
                // lock wait ran out, and send neither game's prompts. The kept lock is let
                // go (its game is then locked and compared again, as any other).
                kept = None;
                Session::lock(&dir)
            }
        };
        let (_lock, recovered) = match lock {
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
        let session = match reopen(&dir, held) {
            Ok(s) => s,
            Err(e) => {
                report
                    .send_errors
                    .push(format!("{}: prompts not sent: {e}", dir.display()));
                continue;
            }
        };
        let sent = Transport::choose(&dir.join("outbox"), opts.force_outbox)
            .and_then(|transport| send_due(&session, &transport, false, opts.now));
        match sent {
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
