//! Play by email (design §5): redacted prompts out, authenticated moves in.
//!
//! Where each step of a game's mail lives, in the order a move goes through them:
//!
//! * **A prompt is composed** in [`outbound::compose`]: what the player owes, the legal options
//!   with examples, the redacted view, what happened since their last mail, the reply token,
//!   the log's seq and head hash; [`html`] renders the same mail as HTML with the board
//!   as tables. [`outbound::due`] decides who is owed a mail.
//! * **It is queued** with the change that owes it ([`queue`]: the transactional outbox, one
//!   per game, written before the change is committed) and **sent** from the queue by
//!   [`transport`]: `.eml` files in `GAME_DIR/outbox/` by default, or SMTP with STARTTLS or
//!   implicit TLS and authentication, configured by environment variables; retried with a
//!   back-off, never sent twice but for the one mail a crash caught between the server's
//!   acceptance and its sent mark.
//! * **The reply is read** the way a person reads it (quotes, attributions, signatures, HTML,
//!   lines a client wrapped) by [`reply::read`] and [`reply::extract`].
//! * **`twilight inbox` judges it** ([`inbound::run`]); one mail's steps, in order, are in
//!   `inbound/judge.rs`:
//!   * the game and the sender are identified in `inbound/identify.rs`;
//!   * **the reply's token is checked** in `inbound/authenticate.rs` (the tokens a mail
//!     carries are found by `reply/tokens.rs`; the game token, good for game-level lines
//!     only, is [`game_token`]);
//!   * **the move is applied**, all or none, and committed with the mail's record (a mail is
//!     applied once, even across a crash) in `inbound/apply.rs`.
//! * **A refusal is written**: its reason in [`inbound::Refusal::explain`] (and its exit status
//!   in [`inbound::Refusal::exit_code`]); the reply mail, itself a prompt the player can answer,
//!   in [`refusal::refusal_text`] and [`refusal::refusal_message`]; it is sent, only to a
//!   player of the game, from `inbound/answer.rs`.
//! * **An accepted move gets its receipt** ([`receipt`]), echoing every entry the move made as
//!   logged, queued ahead of the move's commit; then the prompts of every game that moved on
//!   are queued ([`queue::queue_due`]) and every game's queue is sent ([`queue::flush`],
//!   [`queue::drain_game`]).
//!
//! Before the game starts: [`invite`] (the invitation and the join reply carrying the player's
//! nonce) and [`bid_mail`] (the blind bid for sides). At any time a player checks their own
//! mails against each other with [`check`] (`twilight check`). [`moderator`] finds the
//! moderator's games folder.
//!
//! Per game, two small files sit beside the log: `mail.yaml` (optional settings, written by
//! the moderator: [`MailConfig`]) and `mail-state.yaml` (what was sent and which replies were
//! applied: [`MailState`]); and the folder `mail-queue/` ([`queue`]). Neither ever holds a credential; SMTP settings come only from the
//! environment or a file outside the game folder ([`transport::SmtpSettings`]).

pub mod bid_mail;
pub mod check;
pub mod game_token;
pub mod html;
pub mod inbound;
pub mod invite;
pub mod moderator;
pub mod outbound;
pub mod queue;
pub mod receipt;
pub mod refusal;
pub mod reply;
pub mod transport;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::data::Side;

/// Errors of the mail loop that are not refusals of a player's mail.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The mail settings are wrong (an SMTP URL, a missing credential, a bad address).
    #[error("mail settings: {0}")]
    Config(String),
    /// A message could not be built.
    #[error("cannot build a mail: {0}")]
    Build(String),
    /// A message could not be sent (the game's log is unaffected).
    #[error("cannot send a mail: {0}")]
    Send(String),
    /// The game could not be opened.
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
}

/// Reads one of a game's small YAML files (`mail.yaml`, `mail-state.yaml`,
/// `clock-mail.yaml`): its defaults when it is missing or blank. A symbolic link in its place
/// is refused, never read through ([`crate::gamefs::read_optional`]).
///
/// # Errors
///
/// [`MailError::File`] naming the file: a link, not a regular file, not UTF-8, not the YAML
/// expected.
pub fn read_yaml<T: Default + serde::de::DeserializeOwned>(path: &Path) -> Result<T, MailError> {
    let err = file_err(path);
    let Some(bytes) = crate::gamefs::read_optional(path).map_err(|e| err(e.to_string()))? else {
        return Ok(T::default());
    };
    let text = String::from_utf8(bytes).map_err(|e| err(e.to_string()))?;
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    serde_yaml::from_str(&text).map_err(|e| err(e.to_string()))
}

fn file_err(path: &Path) -> impl Fn(String) -> MailError + '_ {
    move |message| MailError::File {
        path: path.to_path_buf(),
        message,
    }
}

/// Per-game mail settings, `GAME_DIR/mail.yaml` (all optional).
///
/// ```yaml
/// from: "Twilight Referee <referee@example.org>"   # else $TWILIGHT_FROM, else twilight@localhost
/// updates: true          # also mail the player who owes nothing when the game moved on
/// remind_after_hours: 48 # `twilight remind` mails a player owing a decision longer than this
/// ```
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// The sender address of the game's mails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Whether the player who owes no decision gets an update mail (default yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<bool>,
    /// Hours after which `twilight remind` reminds a player of a decision owed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_after_hours: Option<u32>,
}

impl MailConfig {
    /// Reads `GAME_DIR/mail.yaml`; the defaults if there is none.
    pub fn load(game_dir: &Path) -> Result<MailConfig, MailError> {
        read_yaml(&game_dir.join("mail.yaml"))
    }

    /// The sender: `from` of `mail.yaml`, else `$TWILIGHT_FROM`, else `twilight@localhost`.
    pub fn sender(&self) -> String {
        self.from
            .clone()
            .or_else(|| {
                std::env::var("TWILIGHT_FROM")
                    .ok()
                    .filter(|s| !s.is_empty())
            })
            .unwrap_or_else(|| "twilight@localhost".into())
    }

    /// Whether updates go to the player who owes nothing.
    pub fn updates(&self) -> bool {
        self.updates.unwrap_or(true)
    }
}

/// What was mailed to one player of a game.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlayerMail {
    /// Mails sent to this player in this game.
    #[serde(default)]
    pub sent: u64,
    /// The Message-ID of the first one (the thread's root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_id: Option<String>,
    /// The Message-ID of the latest one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_id: Option<String>,
    /// How many lines of the game's history the latest mail covered.
    #[serde(default)]
    pub history_len: usize,
    /// The log's next sequence number when the latest mail was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seq: Option<u64>,
    /// When the latest mail was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_at: Option<DateTime<Utc>>,
    /// Since when this player has owed the decision of `last_seq` (for reminders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owed_since: Option<DateTime<Utc>>,
    /// The Message-ID of the first prompt of the decision this player owes (of `last_seq`):
    /// when it went out decides whether `remind` may record a timeout
    /// ([`queue::prompt_sent_at`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_id: Option<String>,
}

/// A reply that was applied, so that the same mail is never applied twice.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Applied {
    /// The reply's Message-ID (empty if it had none).
    pub message_id: String,
    /// SHA-256 of the reply's raw bytes, hex.
    pub digest: String,
    /// The side that sent it.
    pub side: Side,
    /// The log's next sequence number before it was applied.
    pub seq: u64,
    /// When it was applied.
    pub at: DateTime<Utc>,
    /// The hash of the last log entry of the move it made, recorded before that move was
    /// committed: a record whose entry is not in the log is of a move a crash stopped, and
    /// does not count. Absent in records written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<crate::log::Hex32>,
    /// The file the reply was read from: a Maildir message's unique name (without its `:2,`
    /// flags) or an `.eml` file's path. A later `inbox` run that finds this very file still
    /// unfiled (the run that applied it could not move it to `cur/`) files it quietly, never
    /// answering it as a replay; the same mail in another file is a replay. Absent in
    /// records written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// What identifies a received reply in an [`Applied`] record: its Message-ID, the digest of
/// its bytes and the file it was read from ([`Applied::source`]).
#[derive(Debug, Clone, Copy)]
pub struct MailKey<'a> {
    /// The reply's Message-ID (empty if it had none).
    pub message_id: &'a str,
    /// SHA-256 of the reply's raw bytes, hex.
    pub digest: &'a str,
    /// The file it was read from ([`Applied::source`]).
    pub source: &'a str,
}

impl MailKey<'_> {
    /// The record of this reply, applied for `side` at log entry `seq` (the log's next
    /// sequence number before it) at `at`, its move ending with entry `entry`.
    pub fn applied(
        &self,
        side: Side,
        seq: u64,
        at: DateTime<Utc>,
        entry: Option<crate::log::Hex32>,
    ) -> Applied {
        Applied {
            message_id: self.message_id.to_string(),
            digest: self.digest.to_string(),
            side,
            seq,
            at,
            entry,
            source: Some(self.source.to_string()),
        }
    }
}

/// `GAME_DIR/mail-state.yaml`: threading, "since your last mail", reminders, applied replies.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MailState {
    /// Mails to the US player.
    #[serde(default)]
    pub us: PlayerMail,
    /// Mails to the USSR player.
    #[serde(default)]
    pub ussr: PlayerMail,
    /// Replies applied to the log.
    #[serde(default)]
    pub applied: Vec<Applied>,
}

impl MailState {
    /// Reads `GAME_DIR/mail-state.yaml`; empty if there is none.
    pub fn load(game_dir: &Path) -> Result<MailState, MailError> {
        read_yaml(&game_dir.join("mail-state.yaml"))
    }

    /// Replaces `GAME_DIR/mail-state.yaml` atomically, mode 0600 (temporary file, fsync,
    /// rename, fsync of the folder).
    pub fn save(&self, game_dir: &Path) -> Result<(), MailError> {
        self.write(game_dir, crate::gamefs::atomic_write)
    }

    /// [`MailState::save`] but for the folder's fsync, which the caller owes before anything
    /// that must follow the new state on a power loss
    /// ([`crate::gamefs::atomic_write_unsynced`]).
    pub fn save_unsynced(&self, game_dir: &Path) -> Result<(), MailError> {
        self.write(game_dir, crate::gamefs::atomic_write_unsynced)
    }

    fn write(
        &self,
        game_dir: &Path,
        how: fn(&Path, &[u8], &str) -> Result<(), crate::gamefs::FsError>,
    ) -> Result<(), MailError> {
        let path = game_dir.join("mail-state.yaml");
        let err = file_err(&path);
        let text = serde_yaml::to_string(self).map_err(|e| err(e.to_string()))?;
        how(&path, text.as_bytes(), "mail-state").map_err(|e| err(e.to_string()))?;
        Ok(())
    }

    /// One player's record.
    pub fn player(&self, side: Side) -> &PlayerMail {
        match side {
            Side::Us => &self.us,
            Side::Ussr => &self.ussr,
        }
    }

    /// One player's record, to update.
    pub fn player_mut(&mut self, side: Side) -> &mut PlayerMail {
        match side {
            Side::Us => &mut self.us,
            Side::Ussr => &mut self.ussr,
        }
    }
}

/// The e-mail address inside `Name <addr>` or a bare address, lower-cased, for comparing.
pub fn bare_address(s: &str) -> String {
    let s = s.trim();
    let inner = match (s.rfind('<'), s.rfind('>')) {
        (Some(a), Some(b)) if a < b => &s[a + 1..b],
        _ => s,
    };
    inner.trim().to_ascii_lowercase()
}
