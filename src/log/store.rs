//! Reading and appending `log.yaml` (design §4, ecosystem.md §8 "Locking", "Appending a
//! record").

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::entry::{Author, Entry, Payload};
use super::hash::{entry_hash, Hex32};
use super::verify::{scan, split_documents, ChainRules, Report, END_LINE};
use super::yaml::{entry_document, parse_entry};

/// An error reading or appending a log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file could not be created, opened, locked, read, written or synced.
    #[error("{path}: {action}: {source}")]
    Io {
        /// The log file.
        path: PathBuf,
        /// What was being done (`open`, `lock`, `append`…).
        action: &'static str,
        /// The operating system's error.
        source: io::Error,
    },
    /// The file on disk does not verify; the report lists every finding. Nothing is repaired.
    #[error("{path} does not verify: {report}")]
    Corrupt {
        /// The log file.
        path: PathBuf,
        /// What [`super::verify_chain`] found.
        report: Box<Report>,
    },
    /// The entry would break a log-level rule (e.g. a second `create`, a decision by the wrong
    /// side, anything after the reveal); nothing was written.
    #[error("refused to append a {kind} entry: {reason}")]
    Refused {
        /// The payload's kind.
        kind: &'static str,
        /// The rule, as verify would report it.
        reason: String,
    },
    /// The entry could not be written as one YAML document that reads back identically;
    /// nothing was written.
    #[error("cannot encode a {kind} entry: {reason}")]
    Encode {
        /// The payload's kind.
        kind: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// The bytes read back after the write differ from those written; the file was cut back
    /// to its previous length.
    #[error("{path}: the appended entry did not read back as written; the append was undone")]
    WriteMismatch {
        /// The log file.
        path: PathBuf,
    },
}

/// One entry of an opened log, with where its bytes lie and what they hash to.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntry {
    /// The parsed entry.
    pub entry: Entry,
    /// Byte range of its document in the file.
    pub range: Range<usize>,
    /// [`entry_hash`] of those bytes.
    pub hash: Hex32,
}

/// An append-only log file, opened and verified (design §4).
///
/// Holds the file's bytes and parsed entries. Opening refuses a log that does not verify;
/// appending takes an exclusive advisory lock (`flock`; unreliable on some network file
/// systems), re-reads the file under the lock, writes one document with `O_APPEND`, syncs it
/// to disk and reads it back.
#[derive(Debug)]
pub struct Log {
    path: PathBuf,
    bytes: Vec<u8>,
    entries: Vec<StoredEntry>,
    rules: ChainRules,
}

impl Log {
    /// Creates a new, empty log file at `path`; its first append must be a `create` entry.
    ///
    /// Fails if the file already exists. Syncs the directory so the new name survives a crash.
    ///
    /// # Errors
    ///
    /// [`LogError::Io`] if the file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> Result<Log, LogError> {
        let path = path.as_ref().to_path_buf();
        let io_err = |action, source| LogError::Io {
            path: path.clone(),
            action,
            source,
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| io_err("create", e))?;
        file.sync_all().map_err(|e| io_err("sync", e))?;
        sync_parent_dir(&path).map_err(|e| io_err("sync directory", e))?;
        Ok(Log {
            path,
            bytes: Vec::new(),
            entries: Vec::new(),
            rules: ChainRules::default(),
        })
    }

    /// Opens and verifies the log at `path`.
    ///
    /// An empty file is an empty log (as left by [`Log::create`]).
    ///
    /// # Errors
    ///
    /// [`LogError::Io`] if it cannot be read; [`LogError::Corrupt`] with the full report if it
    /// does not verify.
    pub fn open(path: impl AsRef<Path>) -> Result<Log, LogError> {
        let path = path.as_ref().to_path_buf();
        let bytes = std::fs::read(&path).map_err(|source| LogError::Io {
            path: path.clone(),
            action: "read",
            source,
        })?;
        Log::from_bytes(path, bytes)
    }

    /// Builds a verified log from bytes read from `path`.
    fn from_bytes(path: PathBuf, bytes: Vec<u8>) -> Result<Log, LogError> {
        if bytes.is_empty() {
            return Ok(Log {
                path,
                bytes,
                entries: Vec::new(),
                rules: ChainRules::default(),
            });
        }
        let (report, parsed) = scan(&bytes, None);
        Log::from_scan(path, bytes, report, parsed)
    }

    /// A log from `bytes` read from `path`, checked as [`super::verify_chain`] checks them
    /// (against `expected_head`, a receipt's head hash, if given): the bytes are split, hashed
    /// and parsed once, for the chain and the entries alike (`verify`; issue 15). Unlike
    /// [`Log::open`], an empty file is a finding (a game has at least its create entry).
    ///
    /// # Errors
    ///
    /// [`LogError::Corrupt`] with the full report if the chain does not verify.
    pub fn verify_bytes(
        path: impl Into<PathBuf>,
        bytes: Vec<u8>,
        expected_head: Option<&Hex32>,
    ) -> Result<Log, LogError> {
        let (report, parsed) = scan(&bytes, expected_head);
        Log::from_scan(path.into(), bytes, report, parsed)
    }

    /// A log from bytes already scanned: their report and parsed entries.
    fn from_scan(
        path: PathBuf,
        bytes: Vec<u8>,
        report: Report,
        parsed: Vec<Option<super::Entry>>,
    ) -> Result<Log, LogError> {
        if !report.is_clean() {
            return Err(LogError::Corrupt {
                path,
                report: Box::new(report),
            });
        }
        let mut rules = ChainRules::default();
        let mut entries = Vec::with_capacity(parsed.len());
        for (i, (info, entry)) in report.documents.iter().zip(parsed).enumerate() {
            // A clean report means every document parsed; stay safe if that ever changes.
            let Some(entry) = entry else {
                return Err(LogError::Corrupt {
                    path,
                    report: Box::new(report.clone()),
                });
            };
            let _ = rules.check(i == 0, &entry);
            entries.push(StoredEntry {
                entry,
                range: info.range.clone(),
                hash: info.hash,
            });
        }
        Ok(Log {
            path,
            bytes,
            entries,
            rules,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's bytes as last read or written.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[StoredEntry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the log has no entry yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The head hash: [`entry_hash`] of the last entry's bytes, or [`Hex32::ZERO`] for an
    /// empty log. This is what receipts carry and the next entry's `prev`.
    pub fn head(&self) -> Hex32 {
        self.entries.last().map_or(Hex32::ZERO, |e| e.hash)
    }

    /// The `seq` the next entry will get.
    pub fn next_seq(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.entry.seq + 1)
    }

    /// Appends one entry with the next `seq` and `prev` = [`Log::head`], and returns it.
    ///
    /// Under an exclusive lock on the file: re-reads it (and re-verifies it if another process
    /// appended meanwhile), checks the entry against the log-level rules of
    /// [`super::verify_chain`], writes `---\n` + the entry's YAML + `...\n` in one `write_all` at the end
    /// of the file, calls `sync_data`, and reads the bytes back. If anything fails after the
    /// write started, the file is cut back to its previous length and synced, so it is as it
    /// was.
    ///
    /// # Errors
    ///
    /// [`LogError::Refused`] if the entry breaks a rule, [`LogError::Encode`] if it cannot be
    /// written as YAML that reads back identically, [`LogError::Corrupt`] if the file changed
    /// into something that does not verify, [`LogError::Io`] or [`LogError::WriteMismatch`] if
    /// the write failed (then undone).
    pub fn append(
        &mut self,
        payload: Payload,
        by: Author,
        at: DateTime<Utc>,
    ) -> Result<&StoredEntry, LogError> {
        let path = self.path.clone();
        let io_err = |action, source| LogError::Io {
            path: path.clone(),
            action,
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| io_err("open", e))?;
        file.lock().map_err(|e| io_err("lock", e))?;

        // Another process may have appended since we read the file.
        let mut current = Vec::with_capacity(self.bytes.len());
        file.read_to_end(&mut current)
            .map_err(|e| io_err("read", e))?;
        if current != self.bytes {
            *self = Log::from_bytes(self.path.clone(), current)?;
        }

        let entry = Entry {
            seq: self.next_seq(),
            at,
            by,
            prev: self.head(),
            payload,
        };
        let kind = entry.payload.kind();
        let mut rules = self.rules.clone();
        let broken = rules.check(self.entries.is_empty(), &entry);
        if let Some((_, expected, found)) = broken.into_iter().next() {
            return Err(LogError::Refused {
                kind,
                reason: format!("expected {expected}; found {found}"),
            });
        }
        let document = encode_checked(&entry)?;

        let old_len = self.bytes.len() as u64;
        if let Err(err) = append_or_undo(&mut file, document.as_bytes(), old_len) {
            return Err(match err {
                WriteFailure::Io(action, source) => io_err(action, source),
                WriteFailure::Mismatch => LogError::WriteMismatch { path },
            });
        }
        let _ = file.unlock();

        let start = self.bytes.len();
        self.bytes.extend_from_slice(document.as_bytes());
        self.rules = rules;
        self.entries.push(StoredEntry {
            entry,
            range: start..self.bytes.len(),
            hash: entry_hash(document.as_bytes()),
        });
        Ok(self.entries.last().expect("just pushed"))
    }
}

/// Encodes an entry and checks that it is one document that reads back as the same entry.
fn encode_checked(entry: &Entry) -> Result<String, LogError> {
    let kind = entry.payload.kind();
    let encode_err = |reason: String| LogError::Encode { kind, reason };
    let document = entry_document(entry).map_err(encode_err)?;
    let split = split_documents(document.as_bytes());
    if !split.leading.is_empty()
        || split.documents.len() != 1
        || !document.as_bytes().ends_with(END_LINE)
        || document[4..document.len() - END_LINE.len()].contains("\n...\n")
    {
        return Err(encode_err(
            "the emitter's output is not exactly one `---` document ending in a `...` line".into(),
        ));
    }
    match parse_entry(&document) {
        Ok(back) if back == *entry => Ok(document),
        Ok(_) => Err(encode_err(
            "the document reads back as a different entry".into(),
        )),
        Err(_) => Err(encode_err("the document does not read back".into())),
    }
}

/// Why an append failed.
#[derive(Debug)]
enum WriteFailure {
    Io(&'static str, io::Error),
    Mismatch,
}

/// The file operations an append needs; [`File`] in the program, a fault-injecting fake in
/// the tests of the undo path.
trait AppendTarget: Read + Write + Seek {
    /// `File::sync_data`.
    fn sync(&mut self) -> io::Result<()>;
    /// `File::set_len`.
    fn truncate(&mut self, len: u64) -> io::Result<()>;
}

impl AppendTarget for File {
    fn sync(&mut self) -> io::Result<()> {
        self.sync_data()
    }

    fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)
    }
}

/// Appends `document` to a file of `old_len` bytes, syncs it and reads it back. On any
/// failure, cuts the file back to `old_len` and syncs, so it is as it was; if even that
/// fails, the file ends in a partial entry that verify reports as a truncated final entry.
fn append_or_undo(
    file: &mut impl AppendTarget,
    document: &[u8],
    old_len: u64,
) -> Result<(), WriteFailure> {
    let result = write_synced(file, document, old_len);
    if result.is_err() {
        let _ = file.truncate(old_len);
        let _ = file.sync();
    }
    result
}

/// Appends `document`, syncs it, and reads it back from `old_len`.
fn write_synced(
    file: &mut impl AppendTarget,
    document: &[u8],
    old_len: u64,
) -> Result<(), WriteFailure> {
    file.write_all(document)
        .map_err(|e| WriteFailure::Io("append", e))?;
    file.sync().map_err(|e| WriteFailure::Io("sync", e))?;
    file.seek(SeekFrom::Start(old_len))
        .map_err(|e| WriteFailure::Io("seek", e))?;
    let mut back = Vec::with_capacity(document.len());
    file.read_to_end(&mut back)
        .map_err(|e| WriteFailure::Io("read back", e))?;
    if back != document {
        return Err(WriteFailure::Mismatch);
    }
    Ok(())
}

/// Syncs the directory holding `path`, so a newly created name survives a crash.
fn sync_parent_dir(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Where the fake file fails.
    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Fault {
        /// `write` stores this many bytes, then fails.
        WriteAfter(usize),
        /// `sync` fails.
        Sync,
        /// Reading back returns a changed byte.
        CorruptRead,
    }

    /// An in-memory file that appends on write and fails as told.
    struct FakeFile {
        data: Cursor<Vec<u8>>,
        fault: Fault,
        written: usize,
    }

    impl Read for FakeFile {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.data.read(buf)?;
            if self.fault == Fault::CorruptRead && n > 0 {
                buf[0] ^= 1;
            }
            Ok(n)
        }
    }

    impl Write for FakeFile {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if let Fault::WriteAfter(limit) = self.fault {
                if self.written >= limit {
                    return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
                }
                let n = buf.len().min(limit - self.written);
                self.written += n;
                let end = self.data.get_ref().len() as u64;
                self.data.set_position(end);
                return self.data.write(&buf[..n]);
            }
            let end = self.data.get_ref().len() as u64;
            self.data.set_position(end);
            self.data.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seek for FakeFile {
        fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
            self.data.seek(pos)
        }
    }

    impl AppendTarget for FakeFile {
        fn sync(&mut self) -> io::Result<()> {
            if self.fault == Fault::Sync {
                return Err(io::Error::other("sync failed"));
            }
            Ok(())
        }

        fn truncate(&mut self, len: u64) -> io::Result<()> {
            self.data.get_mut().truncate(len as usize);
            Ok(())
        }
    }

    #[test]
    fn a_failed_append_leaves_the_file_as_it_was() {
        let before = b"---\nseq: 0\n".to_vec();
        let document = b"---\nseq: 1\nby: moderator\n";
        for fault in [
            Fault::WriteAfter(0),
            Fault::WriteAfter(7),
            Fault::Sync,
            Fault::CorruptRead,
        ] {
            let mut file = FakeFile {
                data: Cursor::new(before.clone()),
                fault,
                written: 0,
            };
            let result = append_or_undo(&mut file, document, before.len() as u64);
            assert!(result.is_err(), "{fault:?}");
            assert_eq!(file.data.get_ref(), &before, "{fault:?}");
        }
        let mut file = FakeFile {
            data: Cursor::new(before.clone()),
            fault: Fault::WriteAfter(usize::MAX),
            written: 0,
        };
        append_or_undo(&mut file, document, before.len() as u64).unwrap();
        assert_eq!(file.data.get_ref().len(), before.len() + document.len());
    }
}
