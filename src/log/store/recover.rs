//! Recovery of a commit a crash interrupted (design §2 "One move, one transaction": a torn
//! tail after a crash is set aside, never silently deleted, never left to brick the game):
//! [`Log::recover`] reads the write-ahead journal `log.yaml.pending` that [`Log::commit`]
//! leaves until its group is on disk, and keeps, drops or sets aside what the crash left.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use chrono::Utc;
use sha2::Digest;

use super::{fs_err, journal_of, read_log, Log, LogError, JOURNAL_MAGIC};
use crate::gamefs;
use crate::log::verify::{split_documents, END_LINE};

impl Log {
    /// Finishes or sets aside a commit that a crash interrupted, before anything reads the log
    /// to decide a move. Call it holding the game's lock ([`gamefs::GameLock`]).
    ///
    /// * A journal `log.yaml.pending` whose group is on disk whole: the journal is removed.
    ///   A journal whose group is not on disk at all: removed (the move was never made).
    ///   A journal whose group is on disk in part: the partial bytes are moved to
    ///   `log.yaml.torn-<UTC timestamp>` beside the log and the log is cut back to its length
    ///   before the group.
    /// * No journal, but the last document is incomplete (no `...` end line): that document's
    ///   bytes are moved to a `log.yaml.torn-…` file likewise.
    ///
    /// Complete entries of committed moves are never touched. Returns a line saying what was
    /// done, or `None` if the log was sound.
    ///
    /// # Errors
    ///
    /// [`LogError::Io`] if the files cannot be read or written; [`LogError::Refused`] if the
    /// journal and the log disagree in a way no crash explains (nothing is then changed).
    pub fn recover(path: impl AsRef<Path>) -> Result<Option<String>, LogError> {
        let path = path.as_ref();
        let journal = journal_of(path);
        // The common case, at a cost that does not grow with the log: no journal, and the
        // file ends with a document's end line (or is empty).
        if std::fs::symlink_metadata(&journal).is_err_and(|e| e.kind() == io::ErrorKind::NotFound)
            && ends_complete(path)
        {
            return Ok(None);
        }
        let bytes = match read_log(path) {
            Ok(b) => b,
            Err(LogError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Ok(None)
            }
            Err(e) => return Err(e),
        };
        match gamefs::read_nofollow(&journal) {
            Ok(j) => Self::recover_from_journal(path, &journal, &bytes, &j),
            Err(gamefs::FsError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                let split = split_documents(&bytes);
                match split.documents.last() {
                    Some(last) if !bytes[last.clone()].ends_with(END_LINE) => {
                        let cut = last.start;
                        let torn = set_aside(path, &bytes, cut)?;
                        Ok(Some(torn_line(path, &torn, bytes.len() - cut)))
                    }
                    _ => Ok(None),
                }
            }
            Err(e) => Err(fs_err(e)),
        }
    }

    /// Whether the log at `path` holds a move a crash interrupted, which [`Log::recover`]
    /// would finish or set aside: its write-ahead journal is there, or its last document has
    /// no end line. Reads only the file's last bytes; writes nothing (for a reader that
    /// cannot recover, e.g. in a read-only folder).
    pub fn needs_recovery(path: impl AsRef<Path>) -> bool {
        let path = path.as_ref();
        std::fs::symlink_metadata(journal_of(path)).is_ok() || !ends_complete(path)
    }

    fn recover_from_journal(
        path: &Path,
        journal: &Path,
        bytes: &[u8],
        j: &[u8],
    ) -> Result<Option<String>, LogError> {
        let refuse = |why: String| LogError::Refused {
            kind: "recovery",
            reason: format!(
                "{} and its journal {} disagree: {why}; nothing was changed",
                path.display(),
                journal.display()
            ),
        };
        let remove = || {
            std::fs::remove_file(journal).map_err(|source| LogError::Io {
                path: journal.to_path_buf(),
                action: "remove",
                source,
            })
        };
        let Some(nl) = j.iter().position(|&b| b == b'\n') else {
            // The journal is written atomically, so a headless one was never ours to trust;
            // with no log bytes beyond a complete document it framed nothing.
            return Err(refuse("the journal has no header".into()));
        };
        let header = String::from_utf8_lossy(&j[..nl]).into_owned();
        let group = &j[nl + 1..];
        let parts: Vec<&str> = header.split(' ').collect();
        let (old_len, glen) = match parts.as_slice() {
            [magic, old, len, digest]
                if *magic == JOURNAL_MAGIC
                    && len.parse::<usize>().ok() == Some(group.len())
                    && hex::encode(sha2::Sha256::digest(group)) == *digest =>
            {
                match old.parse::<usize>() {
                    Ok(o) => (o, group.len()),
                    Err(_) => return Err(refuse("a bad journal header".into())),
                }
            }
            _ => return Err(refuse("a bad journal header".into())),
        };
        let len = bytes.len();
        if len == old_len {
            remove()?;
            return Ok(None);
        }
        if len == old_len + glen && bytes[old_len..] == *group {
            remove()?;
            return Ok(None);
        }
        if len > old_len && len < old_len + glen && bytes[old_len..] == group[..len - old_len] {
            let torn = set_aside(path, bytes, old_len)?;
            remove()?;
            return Ok(Some(torn_line(path, &torn, len - old_len)));
        }
        Err(refuse(format!(
            "the log is {len} bytes, the journal's move would make it {old_len}–{}",
            old_len + glen
        )))
    }
}

/// Whether the log file at `path` (not a symbolic link) is empty or ends with [`END_LINE`],
/// reading only its last bytes; false if it cannot tell.
fn ends_complete(path: &Path) -> bool {
    let Ok(mut file) = gamefs::open_regular(path) else {
        return false;
    };
    let Ok(size) = file.metadata().map(|m| m.len()) else {
        return false;
    };
    if size == 0 {
        return true;
    }
    let n = END_LINE.len() as u64;
    let mut tail = vec![0u8; END_LINE.len()];
    size >= n
        && file.seek(SeekFrom::Start(size - n)).is_ok()
        && file.read_exact(&mut tail).is_ok()
        && tail == END_LINE
}

/// Moves `bytes[cut..]` of the log at `path` to a new `log.yaml.torn-<timestamp>` file
/// (written and synced first), then cuts the log to `cut` bytes and syncs it. Returns the torn
/// file's path.
fn set_aside(path: &Path, bytes: &[u8], cut: usize) -> Result<PathBuf, LogError> {
    let io_err = |p: &Path, action, source| LogError::Io {
        path: p.to_path_buf(),
        action,
        source,
    };
    let stamp = Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let mut torn = PathBuf::from(format!("{}.torn-{stamp}", path.display()));
    let mut n = 1;
    let mut file = loop {
        match gamefs::nofollow_options()
            .write(true)
            .create_new(true)
            .open(&torn)
        {
            Ok(f) => break f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => {
                n += 1;
                torn = PathBuf::from(format!("{}.torn-{stamp}-{n}", path.display()));
            }
            Err(e) => return Err(io_err(&torn, "create", e)),
        }
    };
    file.write_all(&bytes[cut..])
        .and_then(|_| file.sync_all())
        .map_err(|e| io_err(&torn, "write", e))?;
    let dir = gamefs::parent_of(path);
    gamefs::sync_dir(&dir).map_err(|e| io_err(&dir, "sync the folder", e))?;
    let log = gamefs::nofollow_options()
        .write(true)
        .open(path)
        .map_err(|e| io_err(path, "open", e))?;
    log.set_len(cut as u64)
        .and_then(|_| log.sync_all())
        .map_err(|e| io_err(path, "cut back", e))?;
    Ok(torn)
}

/// The line telling the user what [`Log::recover`] set aside.
fn torn_line(path: &Path, torn: &Path, n: usize) -> String {
    format!(
        "{} ended in an incomplete move ({n} bytes, left by a crash while it was being \
         written); those bytes were set aside in {} and the game continues from its last \
         complete move",
        path.display(),
        torn.display()
    )
}
