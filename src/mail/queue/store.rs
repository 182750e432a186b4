//! The queue's files in `GAME_DIR/mail-queue/` (the module doc of [`super`] says why they are
//! shaped so):
//!
//! * `KEY.eml` — a mail exactly as it will be sent (RFC 5322 bytes), written once;
//! * `KEY.pending` — its record while the commit that owes it is not known to be in the log
//!   ([`After`]): never sent; [`Queue::settle`] makes it `KEY.yaml` or drops it;
//! * `KEY.yaml` — its record once owed ([`Record`]): what the sender drains, rewritten only to
//!   note a failed try;
//! * `sent.log` — one line per mail the server (or the outbox folder) accepted, appended and
//!   synced before the mail's files are removed: `MESSAGE-ID<TAB>TIME<TAB>WHERE`;
//! * `owed` — present while the game may owe prompts or updates not composed yet
//!   ([`super::owe`]);
//! * `.send-lock` — held by the one process sending this game's mail.
//!
//! `KEY` is the first 32 hex digits of the SHA-256 of the mail's Message-ID, so a mail queued
//! twice (the same owed mail composed again after a crash) lands on the same files.

use std::collections::HashSet;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use lettre::Message;
use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::data::Side;
use crate::gamefs;
use crate::log::{Hex32, Log};
use crate::mail::MailError;

/// The queue's folder inside a game folder.
pub const QUEUE_DIR: &str = "mail-queue";
/// The record of the mails sent.
pub(super) const SENT_LOG: &str = "sent.log";
/// The marker of prompts owed and not composed yet.
pub(super) const OWED: &str = "owed";
/// The sender's lock file.
pub(super) const SEND_LOCK: &str = ".send-lock";

/// What a queued mail is, for the report and for `remind`'s check that a side was prompted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A prompt: the player owes a decision (a reminder of one too).
    Prompt,
    /// An update: the player owes nothing; the game moved on.
    Update,
    /// The game is over.
    GameOver,
    /// The receipt of a move, a join or a sealed bid.
    Receipt,
    /// The answer to a refused mail.
    Refusal,
    /// A notice of the time control: a reminder before a deadline, a late notice, a timeout.
    Notice,
    /// An invitation to join or to bid.
    Invitation,
}

impl Kind {
    /// The word for this kind in a report line (`receipt not sent: …`).
    pub fn word(self) -> &'static str {
        match self {
            Kind::Prompt => "prompt",
            Kind::Update => "update",
            Kind::GameOver => "game-over mail",
            Kind::Receipt => "receipt",
            Kind::Refusal => "reply",
            Kind::Notice => "notice",
            Kind::Invitation => "invitation",
        }
    }
}

/// The commit a mail written ahead of it waits for: the log entry (its seq and hash) that
/// ends the move. The mail is owed exactly when the log holds that entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct After {
    /// The entry's sequence number.
    pub seq: u64,
    /// The entry's hash.
    pub entry: Hex32,
}

impl After {
    /// The last entry of `log`, staged or not: what a mail written ahead of committing the
    /// staged entries waits for. `None` for an empty log.
    pub fn head_of(log: &Log) -> Option<After> {
        (!log.is_empty()).then(|| After {
            seq: log.next_seq() - 1,
            entry: log.head(),
        })
    }
}

/// One mail to queue: the message (with its Message-ID set) and what the report says of it.
#[derive(Debug, Clone)]
pub struct Mail {
    /// The message, as it will be sent. Its Message-ID must be set, and must be the same each
    /// time the same owed mail is composed (it is how a mail queued twice is known).
    pub message: Message,
    /// What it is.
    pub kind: Kind,
    /// The recipient as the game registered them (for the report).
    pub to: String,
    /// The recipient's side, if a side's.
    pub side: Option<Side>,
    /// The recipient's role in the report's parentheses: `US`, `USSR`, `seat 1`.
    pub whom: String,
    /// What the report calls it: the subject, or `receipt of the move`.
    pub label: String,
}

/// A queued mail's record (`KEY.yaml`, `KEY.pending`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The Message-ID, without angle brackets.
    pub message_id: String,
    /// What it is.
    pub kind: Kind,
    /// The recipient as the game registered them.
    pub to: String,
    /// The recipient's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The recipient's role in the report.
    pub whom: String,
    /// What the report calls it.
    pub label: String,
    /// The SMTP envelope's sender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope_from: Option<String>,
    /// The SMTP envelope's recipients.
    pub envelope_to: Vec<String>,
    /// When it was queued (the command's clock).
    pub queued_at: DateTime<Utc>,
    /// Its place in the game's queue: mails go out in the order they were queued
    /// (nanoseconds of the system clock at queueing).
    pub order: u128,
    /// The commit it was written ahead of, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<After>,
    /// Tries that failed.
    #[serde(default)]
    pub attempts: u32,
    /// No try before this time (the back-off after a failed try).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_try: Option<DateTime<Utc>>,
    /// The last failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// The last failure was the server's refusal of this mail (an SMTP 5xx reply), not a
    /// failure to reach it: the mails queued after it are not held back by its back-off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
}

/// What [`Queue::enqueue`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// The mail is queued now.
    Queued,
    /// The same mail (its Message-ID) was queued already: nothing was written.
    AlreadyQueued,
    /// The same mail was sent already: nothing was written.
    AlreadySent,
}

/// A queued mail's key and its record (or why the record cannot be read).
pub type Owed = (String, Result<Record, MailError>);

/// The key of a Message-ID: the first 32 hex digits of its SHA-256.
pub fn key_of(message_id: &str) -> String {
    hex::encode(&sha2::Sha256::digest(message_id.as_bytes())[..16])
}

/// The Message-ID of `m`, without angle brackets.
pub fn message_id_of(m: &Message) -> Option<String> {
    let raw = m.headers().get_raw("Message-ID")?;
    let id = raw
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    (!id.is_empty()).then(|| id.to_string())
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> MailError + '_ {
    move |e| MailError::File {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

fn fs_err(e: gamefs::FsError) -> MailError {
    match e {
        gamefs::FsError::Io { path, source, .. } => MailError::File {
            path,
            message: source.to_string(),
        },
        other => MailError::File {
            path: PathBuf::new(),
            message: other.to_string(),
        },
    }
}

/// The mail queue of one game folder.
#[derive(Debug, Clone)]
pub struct Queue {
    dir: PathBuf,
}

impl Queue {
    /// The queue of the game in `game_dir` (`GAME_DIR/mail-queue`; nothing is read or made).
    pub fn of(game_dir: &Path) -> Queue {
        Queue {
            dir: gamefs::plain(game_dir).join(QUEUE_DIR),
        }
    }

    /// The queue's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The game folder.
    pub fn game_dir(&self) -> PathBuf {
        gamefs::parent_of(&self.dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Makes the folder (mode 0700: its mails hold live reply tokens) if it is not there,
    /// and syncs the game folder so that its name survives a crash. A symbolic link is
    /// refused.
    fn ensure(&self) -> Result<(), MailError> {
        gamefs::refuse_symlink(&self.dir).map_err(fs_err)?;
        if self.dir.is_dir() {
            return Ok(());
        }
        let mut b = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        match b.create(&self.dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(()),
            Err(e) => return Err(io_err(&self.dir)(e)),
        }
        gamefs::sync_dir(&self.game_dir()).map_err(io_err(&self.dir))
    }

    /// Syncs the queue's folder: every mail queued so far (its name) survives a power loss
    /// from here on. What [`Queue::enqueue`] and [`Queue::enqueue_ahead`] owe before the
    /// commit or the filing that must follow them.
    pub fn sync(&self) -> Result<(), MailError> {
        if !self.dir.is_dir() {
            return Ok(());
        }
        gamefs::sync_dir(&self.dir).map_err(io_err(&self.dir))
    }

    /// Queues `mail`, owed now. A mail with the same Message-ID already queued or sent is not
    /// queued again. The folder is not synced ([`Queue::sync`]).
    ///
    /// # Errors
    ///
    /// A message without a Message-ID, or a file that could not be written.
    pub fn enqueue(&self, mail: &Mail, now: DateTime<Utc>) -> Result<Enqueued, MailError> {
        self.put(mail, None, now)
    }

    /// Queues `mail` ahead of the commit that owes it: it waits, never sent, until
    /// [`Queue::settle`] finds `after`'s entry in the log (then it is owed) or not (then it
    /// is dropped). The folder is not synced: [`Queue::sync`] before the commit.
    ///
    /// # Errors
    ///
    /// As [`Queue::enqueue`].
    pub fn enqueue_ahead(
        &self,
        mail: &Mail,
        after: After,
        now: DateTime<Utc>,
    ) -> Result<Enqueued, MailError> {
        self.put(mail, Some(after), now)
    }

    fn put(
        &self,
        mail: &Mail,
        after: Option<After>,
        now: DateTime<Utc>,
    ) -> Result<Enqueued, MailError> {
        let message_id = message_id_of(&mail.message)
            .ok_or_else(|| MailError::Build("a queued mail needs a Message-ID".into()))?;
        let key = key_of(&message_id);
        if self.path(&format!("{key}.yaml")).exists() {
            return Ok(Enqueued::AlreadyQueued);
        }
        if self.sent_ids()?.contains(&message_id) {
            return Ok(Enqueued::AlreadySent);
        }
        self.ensure()?;
        let envelope = mail.message.envelope();
        let order = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let record = Record {
            message_id,
            kind: mail.kind,
            to: mail.to.clone(),
            side: mail.side,
            whom: mail.whom.clone(),
            label: mail.label.clone(),
            envelope_from: envelope.from().map(|a| a.to_string()),
            envelope_to: envelope.to().iter().map(|a| a.to_string()).collect(),
            queued_at: now,
            order,
            after,
            attempts: 0,
            next_try: None,
            last_error: None,
            refused: false,
        };
        // The message first, then its record: a record never names a message a crash cut.
        let eml = self.path(&format!("{key}.eml"));
        gamefs::atomic_write_unsynced(&eml, &mail.message.formatted(), "queue-mail")
            .map_err(fs_err)?;
        let name = if after.is_some() {
            format!("{key}.pending")
        } else {
            // A mail owed now replaces a copy of itself still waiting for a commit.
            let _ = fs::remove_file(self.path(&format!("{key}.pending")));
            format!("{key}.yaml")
        };
        self.write_record(&name, &record, "queue-record")?;
        Ok(Enqueued::Queued)
    }

    fn write_record(&self, name: &str, r: &Record, point: &str) -> Result<(), MailError> {
        let path = self.path(name);
        let text = serde_yaml::to_string(r).map_err(|e| MailError::Build(e.to_string()))?;
        gamefs::atomic_write_unsynced(&path, text.as_bytes(), point).map_err(fs_err)
    }

    /// Reads a record, refusing a symbolic link.
    fn read_record(&self, name: &str) -> Result<Record, MailError> {
        let path = self.path(name);
        let bytes = gamefs::read_nofollow(&path).map_err(fs_err)?;
        serde_yaml::from_slice(&bytes).map_err(|e| MailError::File {
            path,
            message: e.to_string(),
        })
    }

    /// The names in the folder with the given suffix (without it), sorted.
    fn names(&self, suffix: &str) -> Result<Vec<String>, MailError> {
        // Never a folder elsewhere through a link: its mails would be sent as the game's.
        gamefs::refuse_symlink(&self.dir).map_err(fs_err)?;
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_err(&self.dir)(e)),
        };
        let mut out: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_suffix(suffix)
                    .filter(|k| k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit()))
                    .map(str::to_string)
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// Whether mails wait for a commit to be settled ([`Queue::settle`]).
    pub fn has_pending(&self) -> bool {
        self.names(".pending").is_ok_and(|n| !n.is_empty())
    }

    /// Settles the mails written ahead of a commit, against `log` as committed (call it
    /// holding the game's lock, with no commit of this process under way): a mail whose
    /// entry the log holds is owed from now on; any other is dropped, its move never made.
    /// Also removes a message whose record a crash kept from being written. Returns how many
    /// mails became owed and how many were dropped.
    ///
    /// # Errors
    ///
    /// A file that could not be read, renamed or removed.
    pub fn settle(&self, log: &Log) -> Result<(usize, usize), MailError> {
        let pending = self.names(".pending")?;
        let committed = log.next_seq() - log.staged() as u64;
        let (mut owed, mut dropped) = (0, 0);
        for key in &pending {
            let name = format!("{key}.pending");
            let holds = match self.read_record(&name) {
                Ok(r) => r.after.is_some_and(|a| {
                    a.seq < committed && log.get(a.seq).is_some_and(|e| e.hash == a.entry)
                }),
                Err(_) => false,
            };
            if holds {
                fs::rename(self.path(&name), self.path(&format!("{key}.yaml")))
                    .map_err(io_err(&self.path(&name)))?;
                owed += 1;
            } else {
                fs::remove_file(self.path(&name)).map_err(io_err(&self.path(&name)))?;
                let _ = fs::remove_file(self.path(&format!("{key}.eml")));
                dropped += 1;
            }
        }
        // A message whose record was never written: its mail was never queued.
        let records: HashSet<String> = self.names(".yaml")?.into_iter().collect();
        for key in self.names(".eml")? {
            if !records.contains(&key) && !pending.contains(&key) {
                let _ = fs::remove_file(self.path(&format!("{key}.eml")));
            }
        }
        if owed + dropped > 0 {
            self.sync()?;
        }
        Ok((owed, dropped))
    }

    /// The mails owed (records `KEY.yaml`), in the order they were queued, with their keys.
    ///
    /// # Errors
    ///
    /// The folder could not be read. A record that cannot be read is skipped here and named by
    /// the sender's report.
    pub fn owed(&self) -> Result<Vec<Owed>, MailError> {
        let mut out: Vec<Owed> = self
            .names(".yaml")?
            .into_iter()
            .map(|k| {
                let r = self.read_record(&format!("{k}.yaml"));
                (k, r)
            })
            .collect();
        out.sort_by_key(|(k, r)| (r.as_ref().map_or(0, |r| r.order), k.clone()));
        Ok(out)
    }

    /// Whether a mail with this Message-ID is queued and not sent yet (owed or waiting for a
    /// commit).
    pub fn is_queued(&self, message_id: &str) -> bool {
        let key = key_of(message_id);
        self.path(&format!("{key}.yaml")).exists() || self.path(&format!("{key}.pending")).exists()
    }

    /// The message bytes of a queued mail.
    pub(super) fn message(&self, key: &str) -> Result<Vec<u8>, MailError> {
        gamefs::read_nofollow(&self.path(&format!("{key}.eml"))).map_err(fs_err)
    }

    /// Notes a failed try of the mail `key` (its record rewritten with the back-off).
    pub(super) fn note_failure(&self, key: &str, r: &Record) -> Result<(), MailError> {
        self.write_record(&format!("{key}.yaml"), r, "queue-retry")?;
        self.sync()
    }

    /// The Message-IDs of the mails sent (`sent.log`). A line a crash cut counts when its
    /// Message-ID is whole (a tab follows it): its mail was accepted before the line was
    /// begun; a Message-ID cut short matches no mail, which is then sent again.
    ///
    /// # Errors
    ///
    /// The file could not be read.
    pub fn sent_ids(&self) -> Result<HashSet<String>, MailError> {
        let path = self.path(SENT_LOG);
        let bytes = match gamefs::read_nofollow(&path) {
            Ok(b) => b,
            Err(gamefs::FsError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(HashSet::new())
            }
            Err(e) => return Err(fs_err(e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        Ok(text
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(id, _)| id.trim().to_string())
            .filter(|id| !id.is_empty())
            .collect())
    }

    /// When the mail with this Message-ID was recorded as sent (`sent.log`), if it was.
    ///
    /// # Errors
    ///
    /// The file could not be read.
    pub fn sent_at(&self, message_id: &str) -> Result<Option<DateTime<Utc>>, MailError> {
        let path = self.path(SENT_LOG);
        let bytes = match gamefs::read_nofollow(&path) {
            Ok(b) => b,
            Err(gamefs::FsError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(None)
            }
            Err(e) => return Err(fs_err(e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        Ok(text
            .lines()
            .filter_map(|l| {
                let mut f = l.split('\t');
                let id = f.next()?.trim();
                let at = f.next()?.trim();
                (id == message_id).then(|| DateTime::parse_from_rfc3339(at).ok())?
            })
            .map(|t| t.with_timezone(&Utc))
            .next())
    }

    /// Records the mail `key` as sent (a line appended to `sent.log` and synced), then removes
    /// its files. Called only after the server (or the outbox folder) accepted it: a crash
    /// before the line is on disk sends it again, with the same Message-ID.
    pub(super) fn mark_sent(
        &self,
        key: &str,
        message_id: &str,
        at: DateTime<Utc>,
        delivered: &str,
    ) -> Result<(), MailError> {
        let path = self.path(SENT_LOG);
        let line = format!(
            "{message_id}\t{}\t{}\n",
            at.to_rfc3339(),
            delivered.replace(['\t', '\n', '\r'], " ")
        );
        let mut f = gamefs::nofollow_options()
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| fs_err(gamefs::link_or_io(&path, "open", e)))?;
        // A line a crash cut (no newline) is ended before this one, never joined to it.
        let len = f.metadata().map_err(io_err(&path))?.len();
        if len > 0 && !ends_with_newline(&path, len) {
            f.write_all(b"\n").map_err(io_err(&path))?;
        }
        f.write_all(line.as_bytes()).map_err(io_err(&path))?;
        f.sync_data().map_err(io_err(&path))?;
        if len == 0 {
            self.sync()?;
        }
        gamefs::crash_point("queue-sent-marked");
        self.forget(key);
        Ok(())
    }

    /// Removes the files of the mail `key` (its record first: a message without a record is
    /// no mail).
    pub(super) fn forget(&self, key: &str) {
        let _ = fs::remove_file(self.path(&format!("{key}.yaml")));
        let _ = fs::remove_file(self.path(&format!("{key}.eml")));
    }

    /// Whether the `owed` marker is there ([`super::owe`]).
    pub fn owes_prompts(&self) -> bool {
        fs::symlink_metadata(self.path(OWED)).is_ok()
    }

    /// Writes the `owed` marker and syncs the folder.
    pub(super) fn mark_owed(&self) -> Result<(), MailError> {
        if self.owes_prompts() {
            return Ok(());
        }
        self.ensure()?;
        gamefs::atomic_write(&self.path(OWED), b"", "queue-owed").map_err(fs_err)
    }

    /// Removes the `owed` marker.
    pub(super) fn clear_owed(&self) -> Result<(), MailError> {
        match fs::remove_file(self.path(OWED)) {
            Ok(()) => self.sync(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err(&self.path(OWED))(e)),
        }
    }

    /// Whether there is anything to do: mails owed or waiting for a commit, or prompts owed.
    pub fn is_empty(&self) -> bool {
        let Ok(rd) = fs::read_dir(&self.dir) else {
            return true;
        };
        !rd.flatten().any(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.ends_with(".yaml") || n.ends_with(".pending") || n == OWED
        })
    }
}

/// Whether the file at `path` of length `len` ends with a newline.
fn ends_with_newline(path: &Path, len: u64) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = gamefs::open_regular(path) else {
        return false;
    };
    let mut b = [0u8; 1];
    f.seek(SeekFrom::Start(len - 1)).is_ok() && f.read_exact(&mut b).is_ok() && b[0] == b'\n'
}
