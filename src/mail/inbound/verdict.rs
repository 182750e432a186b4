//! What becomes of a mail: accepted, refused (and why, in the words the reply mail and the
//! terminal use: [`Refusal::explain`]), filed late, held for a later run, or failed; and the
//! exit status of `inbox` for each.

use chrono::{DateTime, Utc};

use crate::data::Side;

/// Exit status of `inbox` when a message was refused as malformed MIME, too large or too long.
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
    /// The mail's moves go on past what is read of one mail (a line too long, too many lines
    /// before the moves end: [`crate::mail::reply::MAX_LINES_READ`],
    /// [`crate::mail::reply::MAX_LINE_BYTES`]); nothing of it was tried.
    TooLong {
        /// What went past the limit, in words (`a line read for a move is 5000 bytes long…`).
        what: String,
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
    /// The player's game token ([`crate::mail::game_token`]) with a line that is no game-level
    /// move: it never vouches for a decision of the game.
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
    /// A short name: `malformed-mime`, `too-large`, `too-long`, `unknown-game`, `not-a-player`,
    /// `missing-token`, `wrong-token`, `game-token-for-a-move`, `stale`, `replayed`, `no-move`,
    /// `illegal-move`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::MalformedMime(_) => "malformed-mime",
            Refusal::TooLarge { .. } => "too-large",
            Refusal::TooLong { .. } => "too-long",
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
            Refusal::MalformedMime(_) | Refusal::TooLarge { .. } | Refusal::TooLong { .. } => {
                EXIT_MALFORMED
            }
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
            Refusal::TooLong { what } => format!(
                "Your mail was not read to its end: {what}. Nothing was applied; write each move on a line of its own near the top of your reply."
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
        /// because the sender is no player of the game (refusals go only to players), or
        /// because of the limit ([`Verdict::Refused::withheld`]).
        answered: Option<String>,
        /// Not answered because [`super::REFUSALS_PER_HOUR`] refusals were mailed to that
        /// player in the last hour.
        withheld: bool,
    },
    /// Applied already, by an earlier run that could not file it (moving it to `cur/`, or
    /// writing the `.eml` note, failed): this very file is recognised by the game's mail state
    /// ([`crate::mail::Applied::source`]) and filed as accepted now; nothing is applied or mailed
    /// again (the player had the receipt and the next prompt then).
    Filed {
        /// The game.
        game: String,
        /// The side whose move it was.
        side: Side,
        /// The log entry the move began at.
        seq: u64,
    },
    /// Not for any game here (the moderator's matter, not the player's): reported, moved to
    /// [`super::QUARANTINE_FOLDER`] once with its reason (an `.eml` gets a `.held` note), not
    /// answered.
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
