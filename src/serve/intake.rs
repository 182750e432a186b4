//! Where `serve`'s mail comes from and what becomes of each one.
//!
//! * **IMAP**: new messages are fetched (oldest first) into the spool, a Maildir in the state
//!   folder, under the name `imap-UIDVALIDITY-UID` (so a message is fetched once, and found
//!   again after a crash); once handled, the message is moved on the server to the folder
//!   named for its fate ([`Folder`]) and the spool keeps its copy. A message whose spool copy
//!   was handled but which is still in the mailbox (a crash between the two) is moved without
//!   being handled again.
//! * **Maildir**: the host's own Maildir (filled by the MTA, fetchmail, mbsync), read in place
//!   as `twilight inbox` reads it.
//!
//! Each mail is handed to [`inbound::run_message`] alone, in arrival order.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::imap::{Folder, ImapSettings, Mailbox};
use super::ServeError;
use crate::mail::inbound::{self, Verdict, FAILED_FOLDER};

/// Where the mail comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// An IMAP mailbox.
    Imap(ImapSettings),
    /// A Maildir on this machine.
    Maildir(PathBuf),
}

/// One mail waiting to be handled: its file in `maildir`'s `new/`, and its IMAP UID.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    pub maildir: PathBuf,
    pub file: PathBuf,
    pub uid: Option<u32>,
}

/// What became of one mail, for the server and the log.
pub(super) enum Fate {
    /// Handled: applied, refused, held or failed.
    Handled(Verdict),
    /// Its game was busy or read-only: left in place for the next pass.
    Deferred(String),
    /// Another process took it first.
    Gone,
}

/// The spool's folder of mails for no game: where `inbox` sets them aside, once
/// ([`inbound::QUARANTINE_FOLDER`]).
const HELD: &str = inbound::QUARANTINE_FOLDER;

/// At most this many bytes of one message are fetched: one byte more than the largest mail
/// read, so that a larger one is refused as too large without being held whole.
const FETCH_CAP: usize = inbound::MAX_MESSAGE_BYTES + 1;

/// At most this many bytes are fetched in one command.
const FETCH_BATCH_BYTES: u64 = 8 << 20;

/// The mail source, connected as needed.
pub(super) struct Intake {
    source: Source,
    prefix: String,
    spool: PathBuf,
    mailbox: Option<Mailbox>,
    /// Maildir mails held for no game, not read again by this process.
    held: HashSet<PathBuf>,
}

impl Intake {
    pub(super) fn new(source: Source, prefix: &str, spool: PathBuf) -> Intake {
        Intake {
            source,
            prefix: prefix.to_string(),
            spool,
            mailbox: None,
            held: HashSet::new(),
        }
    }

    /// What the source is, for the log (never a credential).
    pub(super) fn describe(&self) -> String {
        match &self.source {
            Source::Imap(s) => s.describe(),
            Source::Maildir(d) => format!("Maildir {}", d.display()),
        }
    }

    /// The mails to handle now, oldest first. Over IMAP, connects if need be, moves the
    /// messages already handled before a crash, and fetches the new ones into the spool.
    ///
    /// # Errors
    ///
    /// [`ServeError::Unreachable`] when the server cannot be reached (the connection is
    /// dropped, and made again at the next call).
    pub(super) fn collect(&mut self) -> Result<Vec<Pending>, ServeError> {
        match self.source.clone() {
            Source::Maildir(dir) => {
                let mut files = list_new(&dir)?;
                files.retain(|f| !self.held.contains(f));
                Ok(files
                    .into_iter()
                    .map(|file| Pending {
                        maildir: dir.clone(),
                        file,
                        uid: None,
                    })
                    .collect())
            }
            Source::Imap(settings) => {
                let r = self.collect_imap(&settings);
                if matches!(r, Err(ServeError::Unreachable(_))) {
                    self.mailbox = None;
                }
                r
            }
        }
    }

    fn collect_imap(&mut self, settings: &ImapSettings) -> Result<Vec<Pending>, ServeError> {
        if self.mailbox.is_none() {
            make_maildir(&self.spool)?;
            self.mailbox = Some(Mailbox::connect(settings, &self.prefix)?);
        }
        let mb = self.mailbox.as_mut().expect("connected");
        let validity = mb.uid_validity();
        let mut to_fetch = Vec::new();
        let mut pending = Vec::new();
        for uid in mb.uids()? {
            let name = spool_name(validity, uid);
            match spooled(&self.spool, &name) {
                Some(Some(folder)) => mb.file(uid, folder)?,
                Some(None) => pending.push(uid),
                None => to_fetch.push(uid),
            }
        }
        for batch in batches(mb.sizes(&to_fetch)?) {
            for (uid, raw) in mb.fetch(&batch, FETCH_CAP)? {
                write_spool(&self.spool, &spool_name(validity, uid), &raw)?;
                pending.push(uid);
            }
        }
        pending.sort_unstable();
        Ok(pending
            .into_iter()
            .map(|uid| Pending {
                maildir: self.spool.clone(),
                file: self.spool.join("new").join(spool_name(validity, uid)),
                uid: Some(uid),
            })
            .collect())
    }

    /// Handles one mail: judged, answered, filed, its prompts sent (on any thread; the
    /// server is told with [`Intake::settle`]).
    pub(super) fn judge(
        p: &Pending,
        opts: &inbound::InboxOptions,
    ) -> Result<(Fate, inbound::InboxReport), ServeError> {
        let report = inbound::run_message(opts, &p.maildir, &p.file, crate::gamefs::lock_wait())?;
        let fate = match report.processed.first() {
            Some(done) => Fate::Handled(done.verdict.clone()),
            None => match report.deferred.first() {
                Some(why) => Fate::Deferred(why.clone()),
                None => Fate::Gone,
            },
        };
        Ok((fate, report))
    }

    /// After [`Intake::judge`]: over IMAP, moves the mail to its folder on the server; a mail
    /// for no game leaves the spool's `new/` (IMAP) or is not read again by this process
    /// (Maildir).
    pub(super) fn settle(&mut self, p: &Pending, fate: &Fate) -> Result<(), ServeError> {
        let folder = match fate {
            Fate::Handled(Verdict::Accepted { .. } | Verdict::Filed { .. }) => Some(Folder::Done),
            Fate::Handled(Verdict::Refused { .. }) => Some(Folder::Refused),
            Fate::Handled(Verdict::Failed { .. }) => Some(Folder::Failed),
            Fate::Handled(Verdict::Held { .. }) => Some(Folder::Held),
            Fate::Deferred(_) | Fate::Gone => None,
        };
        // A mail for no game has left new/ for the quarantine folder already (`inbox` files it
        // there); a Maildir's is not looked at again by this process either way.
        if folder == Some(Folder::Held) && p.uid.is_none() {
            self.held.insert(p.file.clone());
        }
        if let (Some(uid), Some(folder), Some(mb)) = (p.uid, folder, self.mailbox.as_mut()) {
            if let Err(e) = mb.file(uid, folder) {
                // Moved at the next pass, from the spool's record.
                self.mailbox = None;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Waits at most `timeout` for new mail (IMAP IDLE, or a plain wait that a stop ends).
    pub(super) fn wait(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), ServeError> {
        match self.mailbox.as_mut() {
            Some(mb) => {
                if let Err(e) = mb.wait(timeout) {
                    self.mailbox = None;
                    return Err(e);
                }
                Ok(())
            }
            None => {
                super::sleep(timeout, stop);
                Ok(())
            }
        }
    }

    /// Logs out of the server, if connected.
    pub(super) fn close(&mut self) {
        if let Some(mb) = self.mailbox.take() {
            mb.logout();
        }
    }
}

fn file_error(path: &Path, e: std::io::Error) -> ServeError {
    ServeError::File {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The spool name of message `uid`: sorts in arrival order.
fn spool_name(validity: u32, uid: u32) -> String {
    format!("imap-{validity:010}-{uid:010}")
}

/// Where the spool has message `name`: `None` not there; `Some(None)` waiting in `new/`;
/// `Some(Some(folder))` handled, and the server folder it belongs in.
fn spooled(spool: &Path, name: &str) -> Option<Option<Folder>> {
    if spool.join("new").join(name).is_file() {
        return Some(None);
    }
    let cur = spool.join("cur");
    [
        (cur.join(format!("{name}:2,S")), Folder::Done),
        (cur.join(format!("{name}:2,FS")), Folder::Refused),
        (spool.join(FAILED_FOLDER).join(name), Folder::Failed),
        (spool.join(HELD).join(name), Folder::Held),
    ]
    .into_iter()
    .find(|(p, _)| p.is_file())
    .map(|(_, f)| Some(f))
}

/// The UIDs to fetch, in commands of at most [`FETCH_BATCH_BYTES`] (a larger message alone).
fn batches(sizes: Vec<(u32, u32)>) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    let mut bytes = 0u64;
    for (uid, size) in sizes {
        let size = u64::from(size).min(FETCH_CAP as u64);
        match out.last_mut() {
            Some(b) if bytes + size <= FETCH_BATCH_BYTES && b.len() < 200 => {
                b.push(uid);
                bytes += size;
            }
            _ => {
                out.push(vec![uid]);
                bytes = size;
            }
        }
    }
    out
}

/// Makes the spool's `new/`, `cur/` and `tmp/`.
fn make_maildir(dir: &Path) -> Result<(), ServeError> {
    for sub in ["new", "cur", "tmp"] {
        let d = dir.join(sub);
        let mut b = fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(&d).map_err(|e| file_error(&d, e))?;
    }
    Ok(())
}

/// Writes a fetched message into the spool as a Maildir delivery does: into `tmp/`, then
/// renamed into `new/` whole (mode 0600: a reply quotes its prompt's token). Not synced: the
/// server keeps the message until it is handled, and fetching it again costs nothing.
fn write_spool(spool: &Path, name: &str, raw: &[u8]) -> Result<(), ServeError> {
    let tmp = spool.join("tmp").join(name);
    let mut o = fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(&tmp).map_err(|e| file_error(&tmp, e))?;
    std::io::Write::write_all(&mut f, raw).map_err(|e| file_error(&tmp, e))?;
    drop(f);
    let new = spool.join("new").join(name);
    fs::rename(&tmp, &new).map_err(|e| file_error(&new, e))
}

/// The files of `maildir`'s `new/`, sorted by name (a Maildir name starts with its delivery
/// time).
fn list_new(maildir: &Path) -> Result<Vec<PathBuf>, ServeError> {
    let new = maildir.join("new");
    let mut files: Vec<PathBuf> = fs::read_dir(&new)
        .map_err(|e| file_error(&new, e))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spool_names_sort_in_arrival_order() {
        assert!(spool_name(7, 9) < spool_name(7, 10));
        assert_eq!(spool_name(7, 10), "imap-0000000007-0000000010");
    }

    #[test]
    fn fetches_are_batched_by_size_and_a_large_message_goes_alone() {
        let b = batches(vec![(1, 100), (2, 9 << 20), (3, 100), (4, 100)]);
        assert_eq!(b, vec![vec![1], vec![2], vec![3, 4]]);
    }

    #[test]
    fn the_spool_tells_where_a_handled_message_belongs() {
        let tmp = tempfile::tempdir().unwrap();
        let s = tmp.path();
        make_maildir(s).unwrap();
        let n = spool_name(1, 5);
        assert_eq!(spooled(s, &n), None);
        write_spool(s, &n, b"x").unwrap();
        assert_eq!(spooled(s, &n), Some(None));
        fs::rename(
            s.join("new").join(&n),
            s.join("cur").join(format!("{n}:2,FS")),
        )
        .unwrap();
        assert_eq!(spooled(s, &n), Some(Some(Folder::Refused)));
    }
}
