//! Reading and appending `log.yaml` (design §4, ecosystem.md §8 "Locking", "Appending a
//! record"); recovering a commit a crash interrupted is in `store/recover.rs`.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::entry::{Author, Entry, Payload};
use super::hash::{entry_hash, Hex32};
use super::verify::{scan, split_documents, ChainRules, Report, END_LINE};
use super::yaml::{entry_document, parse_canonical, parse_entry};
use crate::gamefs;
use sha2::Digest;

mod recover;

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
/// Holds the file's bytes and parsed entries. Opening refuses a log that does not verify (and a
/// symbolic link). A move's entries are first *staged* ([`Log::stage`]: numbered, chained and
/// hashed in memory) and then *committed* together ([`Log::commit`]): a write-ahead journal
/// `log.yaml.pending` framing the group, then one `write` with `O_APPEND` under an exclusive
/// advisory lock (`flock`; unreliable on some network file systems), one fsync, a read-back,
/// and the journal's removal. [`Log::recover`] finishes or sets aside an interrupted commit.
///
/// A log opened at a known point ([`Log::open_after`], the replay snapshot of
/// `crate::session`) holds only the bytes and entries from the last entry the point covers
/// on; [`Log::entries`] and [`Log::bytes`] then read the entries before it from the file the
/// first time they are asked for, while [`Log::head`], [`Log::next_seq`], [`Log::since`] (of
/// a recent entry), staging and committing never do.
#[derive(Debug, Clone, Default)]
pub struct Log {
    path: PathBuf,
    /// The file's bytes from offset `base` on.
    bytes: Vec<u8>,
    /// The entries from seq `skipped` on; each entry's `range` is in the whole file.
    entries: Vec<StoredEntry>,
    rules: ChainRules,
    /// The file offset up to which the bytes are on disk; the rest are staged entries of the
    /// move being made.
    written: usize,
    /// The rules' state after the entries on disk.
    committed_rules: ChainRules,
    /// The file offset of `bytes[0]` (0 for a log read whole).
    base: usize,
    /// The number of entries before `entries[0]` (0 for a log read whole).
    skipped: usize,
    /// The end and hash of entry 0, in a log opened at a known point.
    first: Option<(usize, Hex32)>,
    /// The file's bytes before `base` (empty for a log read whole): read, and checked against
    /// [`LogPoint::prefix`], in a log opened at a known point, but not parsed.
    prefix: std::sync::Arc<Vec<u8>>,
    /// SHA-256 fed with exactly `prefix` (none for a log read whole): the digest of a later
    /// point's prefix ([`Log::point`]) carries on from it instead of hashing the file again.
    prefix_hash: Option<sha2::Sha256>,
    /// The whole log (bytes and entries), read on first demand in a log opened at a known
    /// point; reset whenever the log in memory changes.
    whole: std::sync::OnceLock<(Vec<u8>, Vec<StoredEntry>)>,
}

/// How many entries up to a [`LogPoint`] a log opened there reads again, so that the recent
/// entries (a player's last moves and what followed, for mail and receipts) are at hand
/// without reading the whole file.
pub const RECENT: usize = 32;

/// A known point of a log file, as a log opened there needs it ([`Log::open_after`]): what the
/// replay snapshot of `crate::session` records of the log it was made from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct LogPoint {
    /// Entries up to the point.
    pub len: usize,
    /// The file's length up to the point (the end of entry `len − 1`).
    pub end: usize,
    /// The first of the recent entries read again at each opening (at most [`RECENT`] of
    /// them, the last one `len − 1`): its seq and where it starts in the file.
    pub recent_seq: usize,
    /// Where entry `recent_seq` starts in the file.
    pub recent_start: usize,
    /// The hash of entry `len − 1` (the head at the point).
    pub head: Hex32,
    /// The end of entry 0 in the file, and its hash.
    pub first_end: usize,
    /// The hash of entry 0.
    pub first: Hex32,
    /// The log-level rules' state after entry `len − 1`.
    pub(crate) rules: ChainRules,
    /// SHA-256 of the file's bytes before `recent_start`: an old entry edited in place (same
    /// length, where no entry is parsed again) no longer matches it.
    pub prefix: Hex32,
}

/// SHA-256 of the bytes `hashed` was fed, then `more`.
fn prefix_digest(hashed: &sha2::Sha256, more: &[u8]) -> Hex32 {
    use sha2::Digest;
    let d: [u8; 32] = hashed.clone().chain_update(more).finalize().into();
    Hex32::from(d)
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
        Ok(Log::whole_log(
            path,
            Vec::new(),
            Vec::new(),
            ChainRules::default(),
        ))
    }

    /// A log held whole.
    fn whole_log(
        path: PathBuf,
        bytes: Vec<u8>,
        entries: Vec<StoredEntry>,
        rules: ChainRules,
    ) -> Log {
        let written = bytes.len();
        Log {
            path,
            bytes,
            entries,
            committed_rules: rules.clone(),
            rules,
            written,
            base: 0,
            skipped: 0,
            first: None,
            prefix: Default::default(),
            prefix_hash: None,
            whole: std::sync::OnceLock::new(),
        }
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
        let bytes = read_log(&path)?;
        Log::from_bytes(path, bytes)
    }

    /// Builds a verified log from bytes read from `path`.
    fn from_bytes(path: PathBuf, bytes: Vec<u8>) -> Result<Log, LogError> {
        if bytes.is_empty() {
            return Ok(Log::whole_log(
                path,
                bytes,
                Vec::new(),
                ChainRules::default(),
            ));
        }
        let (report, parsed) = scan(&bytes, None);
        Log::from_scan(path, bytes, report, parsed)
    }

    /// A log from `bytes` read from `path`, checked as [`super::verify_chain`] checks them
    /// (against `expected_head`, a receipt's head hash, if given): the bytes are split, hashed
    /// and parsed once, for the chain and the entries alike (`verify`). Unlike
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
        Ok(Log::whole_log(path, bytes, entries, rules))
    }

    /// Opens the log at `path` from a known point `at` of it: reads the whole file, but
    /// parses only the bytes from the recent entries before the point (at most [`RECENT`])
    /// on, and checks them: the bytes before the recent entries must have the SHA-256
    /// [`LogPoint::prefix`] (an old entry edited in place is caught here), entry 0 and entry
    /// `at.len − 1` must hash as `at` says, the recent entries must chain (seq, `prev`), and
    /// every entry after the point must be a complete document that chains on and keeps the
    /// log-level rules. The entries before the recent ones are parsed only if
    /// [`Log::entries`] or [`Log::bytes`] is asked for. `None` if anything differs: the
    /// caller then opens the log whole ([`Log::open`]), which reports what is wrong.
    ///
    /// # Errors
    ///
    /// [`LogError::Io`] if the file cannot be opened or read.
    pub fn open_after(path: impl AsRef<Path>, at: &LogPoint) -> Result<Option<Log>, LogError> {
        let path = path.as_ref().to_path_buf();
        let io_err = |action, source| LogError::Io {
            path: path.clone(),
            action,
            source,
        };
        let mut file = gamefs::open_regular(&path)
            .map_err(|e| fs_err(gamefs::link_or_io(&path, "open", e)))?;
        let size = file.metadata().map_err(|e| io_err("read", e))?.len() as usize;
        if at.len == 0
            || at.recent_seq >= at.len
            || at.first_end > at.end
            || at.recent_start >= at.end
            || size < at.end
            || (at.recent_seq == 0) != (at.recent_start == 0)
        {
            return Ok(None);
        }
        // The bytes before the recent entries are read and hashed whole (never parsed): an
        // entry edited there in place would leave a log a full replay refuses.
        let mut bytes = Vec::with_capacity(size);
        file.read_to_end(&mut bytes)
            .map_err(|e| io_err("read", e))?;
        if bytes.len() < at.end
            || at.first_end > bytes.len()
            || entry_hash(&bytes[..at.first_end]) != at.first
        {
            return Ok(None);
        }
        let prefix_hash = {
            use sha2::Digest;
            sha2::Sha256::new().chain_update(&bytes[..at.recent_start])
        };
        if prefix_digest(&prefix_hash, &[]) != at.prefix {
            return Ok(None);
        }
        // The recent part moves to a buffer of its own; the prefix keeps the file's.
        let mut prefix = bytes;
        let mut bytes = prefix.split_off(at.recent_start);
        bytes.reserve(4096);
        let prefix = std::sync::Arc::new(prefix);
        let split = split_documents(&bytes);
        if !split.leading.is_empty() {
            return Ok(None);
        }
        let mut rules = at.rules.clone();
        let mut entries: Vec<StoredEntry> = Vec::with_capacity(split.documents.len());
        for r in split.documents {
            let range = r.start + at.recent_start..r.end + at.recent_start;
            let doc = &bytes[r];
            let seq = (at.recent_seq + entries.len()) as u64;
            let Some(entry) = std::str::from_utf8(doc)
                .ok()
                .filter(|_| doc.ends_with(END_LINE))
                // The reader of canonical documents first (it gives what the library gives,
                // or nothing: yaml/canonical.rs), the library for the rest.
                .and_then(|t| parse_canonical(t).or_else(|| parse_entry(t).ok()))
                .filter(|e| e.seq == seq && entries.last().is_none_or(|p| e.prev == p.hash))
            else {
                return Ok(None);
            };
            let hash = entry_hash(doc);
            let covered = range.end <= at.end;
            // The point's last entry must be the one it names; those after it keep the rules.
            if (covered && (range.end == at.end) != (seq + 1 == at.len as u64))
                || (seq + 1 == at.len as u64 && (hash != at.head || range.end != at.end))
                || (!covered && !rules.check(false, &entry).is_empty())
            {
                return Ok(None);
            }
            entries.push(StoredEntry { entry, range, hash });
        }
        if entries.len() < at.len - at.recent_seq {
            return Ok(None);
        }
        Ok(Some(Log {
            path,
            bytes,
            entries,
            committed_rules: rules.clone(),
            rules,
            written: size,
            base: at.recent_start,
            skipped: at.recent_seq,
            first: Some((at.first_end, at.first)),
            prefix,
            prefix_hash: Some(prefix_hash),
            whole: std::sync::OnceLock::new(),
        }))
    }

    /// The point of this log at its last entry committed ([`Log::open_after`]), `None` for an
    /// empty log or one with staged entries.
    pub fn point(&self) -> Option<LogPoint> {
        if self.staged() > 0 {
            return None;
        }
        let last = self.entries.last()?;
        let (first_end, first) = match self.first {
            Some(f) => f,
            None => self.entries.first().map(|e| (e.range.end, e.hash))?,
        };
        let recent = &self.entries[self.entries.len().saturating_sub(RECENT)];
        let recent_bytes = &self.bytes[..recent.range.start - self.base];
        let prefix = match &self.prefix_hash {
            Some(h) => prefix_digest(h, recent_bytes),
            None => {
                use sha2::Digest;
                prefix_digest(
                    &sha2::Sha256::new().chain_update(self.prefix.as_slice()),
                    recent_bytes,
                )
            }
        };
        Some(LogPoint {
            len: self.len(),
            end: last.range.end,
            recent_seq: recent.entry.seq as usize,
            recent_start: recent.range.start,
            head: last.hash,
            first_end,
            first,
            rules: self.rules.clone(),
            prefix,
        })
    }

    /// The bytes and entries of the whole log, parsing the part before `base` (read and
    /// checked against [`LogPoint::prefix`] at opening) once, in a log opened at a known point.
    ///
    /// # Panics
    ///
    /// If that part no longer reads as the log it was when the point was taken (its digest
    /// matched, so only a SHA-256 collision gets here): `twilight verify` tells what is wrong.
    fn whole(&self) -> &(Vec<u8>, Vec<StoredEntry>) {
        self.whole.get_or_init(|| {
            let prefix = self.prefix.as_slice();
            let read = {
                let (report, parsed) = scan(prefix, None);
                let sound = report.is_clean()
                    && parsed.len() == self.skipped
                    && report.documents.last().map(|d| d.hash)
                        == self.entries.first().map(|e| e.entry.prev);
                sound.then(|| {
                    let mut entries: Vec<StoredEntry> = report
                        .documents
                        .iter()
                        .zip(parsed)
                        .filter_map(|(d, e)| {
                            Some(StoredEntry {
                                entry: e?,
                                range: d.range.clone(),
                                hash: d.hash,
                            })
                        })
                        .collect();
                    entries.extend(self.entries.iter().cloned());
                    let mut bytes = prefix.to_vec();
                    bytes.extend_from_slice(&self.bytes);
                    (bytes, entries)
                })
            };
            read.unwrap_or_else(|| {
                panic!(
                    "{}: the log's first {} bytes no longer read as the log its replay snapshot was made from; run `twilight verify` on it",
                    self.path.display(),
                    self.base
                )
            })
        })
    }

    /// Whether the file at [`Log::path`] holds exactly the bytes this log holds, no more and
    /// no fewer, with nothing staged: read a block at a time and compared byte for byte, never
    /// parsed or hashed. False if it cannot be read or is not a regular file: a symbolic link is
    /// never followed, and a FIFO is never waited on.
    pub fn matches_file(&self) -> bool {
        if self.staged() > 0 || self.prefix.len() != self.base {
            return false;
        }
        // Never waiting for a writer: a FIFO in the file's place is no regular file.
        let Ok(mut file) = gamefs::open_regular(&self.path) else {
            return false;
        };
        // Compared a block at a time: no copy of the whole file is made.
        let mut block = vec![0u8; 64 << 10];
        let mut seen = 0usize;
        loop {
            let n = match file.read(&mut block) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return false,
            };
            let at = seen;
            seen += n;
            if seen > self.written || self.file_range(at..seen).as_deref() != Some(&block[..n]) {
                return false;
            }
        }
        seen == self.written
    }

    /// The file's bytes in `range` (offsets in the whole file, as [`StoredEntry::range`] gives
    /// them) as this log holds them — as last read or written, staged entries included —
    /// without reading the file or parsing anything: the bytes a log opened at a known point
    /// read but did not parse ([`Log::open_after`]) are held too. `None` past the end.
    pub fn file_range(&self, range: std::ops::Range<usize>) -> Option<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        let base = self.base;
        if range.start > range.end {
            return None;
        }
        if range.start >= base {
            return self
                .bytes
                .get(range.start - base..range.end - base)
                .map(Cow::Borrowed);
        }
        if range.end <= base {
            return self.prefix.get(range).map(Cow::Borrowed);
        }
        let mut joined = self.prefix.get(range.start..)?.to_vec();
        joined.extend_from_slice(self.bytes.get(..range.end - base)?);
        Some(Cow::Owned(joined))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's bytes as last read or written (with the staged entries).
    pub fn bytes(&self) -> &[u8] {
        if self.base == 0 {
            return &self.bytes;
        }
        &self.whole().0
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[StoredEntry] {
        if self.skipped == 0 {
            return &self.entries;
        }
        &self.whole().1
    }

    /// The entries from seq `seq` on (empty past the last): in a log opened at a known point,
    /// without reading the file when `seq` is at or after that point's last entry.
    pub fn since(&self, seq: u64) -> &[StoredEntry] {
        let seq = usize::try_from(seq).unwrap_or(usize::MAX).min(self.len());
        if seq >= self.skipped {
            &self.entries[seq - self.skipped..]
        } else {
            &self.entries()[seq..]
        }
    }

    /// The entry of seq `seq`, as [`Log::since`] finds it.
    pub fn get(&self, seq: u64) -> Option<&StoredEntry> {
        self.since(seq).first()
    }

    /// The hash of the last entry (staged or not), `None` for an empty log.
    pub fn entries_held_last(&self) -> Option<Hex32> {
        self.entries.last().map(|e| e.hash)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.skipped + self.entries.len()
    }

    /// True when the log has no entry yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    /// Appends one entry with the next `seq` and `prev` = [`Log::head`], and returns it:
    /// [`Log::stage`] then [`Log::commit`] (so any entries staged before go with it).
    ///
    /// # Errors
    ///
    /// As [`Log::stage`] and [`Log::commit`]; on error nothing was written.
    pub fn append(
        &mut self,
        payload: Payload,
        by: Author,
        at: DateTime<Utc>,
    ) -> Result<&StoredEntry, LogError> {
        self.stage(payload, by, at)?;
        self.commit()?;
        Ok(self.entries.last().expect("just staged"))
    }

    /// Stages one entry of the move being made: gives it the next `seq` and `prev` =
    /// [`Log::head`] (staged entries included), checks it against the log-level rules of
    /// [`super::verify_chain`], encodes it, and adds it to the log in memory with its hash.
    /// Nothing reaches the disk until [`Log::commit`].
    ///
    /// # Errors
    ///
    /// [`LogError::Refused`] if the entry breaks a rule, [`LogError::Encode`] if it cannot be
    /// written as YAML that reads back identically; the log is then unchanged.
    pub fn stage(
        &mut self,
        payload: Payload,
        by: Author,
        at: DateTime<Utc>,
    ) -> Result<&StoredEntry, LogError> {
        let entry = Entry {
            seq: self.next_seq(),
            at,
            by,
            prev: self.head(),
            payload,
        };
        let kind = entry.payload.kind();
        let mut rules = self.rules.clone();
        let broken = rules.check(self.is_empty(), &entry);
        if let Some((_, expected, found)) = broken.into_iter().next() {
            return Err(LogError::Refused {
                kind,
                reason: format!("expected {expected}; found {found}"),
            });
        }
        let document = encode_checked(&entry)?;
        let start = self.base + self.bytes.len();
        self.bytes.extend_from_slice(document.as_bytes());
        self.rules = rules;
        self.whole = std::sync::OnceLock::new();
        self.entries.push(StoredEntry {
            entry,
            range: start..self.base + self.bytes.len(),
            hash: entry_hash(document.as_bytes()),
        });
        Ok(self.entries.last().expect("just pushed"))
    }

    /// The number of entries staged and not yet committed.
    pub fn staged(&self) -> usize {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.range.start >= self.written)
            .count()
    }

    /// Drops staged entries until only `len` entries remain (never a committed one).
    pub fn unstage_to(&mut self, len: usize) {
        let committed = self.len() - self.staged();
        let len = len.max(committed);
        if len >= self.len() {
            return;
        }
        self.entries.truncate(len - self.skipped);
        let end = self
            .entries
            .last()
            .map_or(0, |e| e.range.end)
            .max(self.written);
        self.bytes.truncate(end - self.base);
        self.whole = std::sync::OnceLock::new();
        // The rules' state before the staged entries, then the staged entries kept.
        let mut rules = self.committed_rules.clone();
        for e in &self.entries[self.entries.len() - (len - committed)..] {
            let _ = rules.check(e.entry.seq == 0, &e.entry);
        }
        self.rules = rules;
    }

    /// The write-ahead journal beside the log: `log.yaml.pending`.
    pub fn journal_path(&self) -> PathBuf {
        journal_of(&self.path)
    }

    /// Writes every staged entry to the disk as one group (one move, one transaction):
    ///
    /// 1. the journal `log.yaml.pending` (the log's old length, the group's length and SHA-256,
    ///    the group's bytes), written atomically;
    /// 2. under an exclusive lock on the log file, a check that the file is still the log as
    ///    read, then the whole group in one `write_all` with `O_APPEND`, one `sync_data`, and
    ///    a read-back;
    /// 3. the journal removed.
    ///
    /// A crash between 1 and 3 leaves the journal, and [`Log::recover`] then sees whether the
    /// group is on disk whole (kept), not at all (nothing to do) or in part (set aside). If
    /// the write fails, the file is cut back to its previous length and the staged entries
    /// are dropped from memory too. Nothing staged: nothing to do.
    ///
    /// # Errors
    ///
    /// [`LogError::Corrupt`] if the file changed under us into something else, [`LogError::Io`]
    /// or [`LogError::WriteMismatch`] if the write failed (then undone).
    pub fn commit(&mut self) -> Result<(), LogError> {
        if self.written == self.base + self.bytes.len() {
            return Ok(());
        }
        let result = self.write_group();
        // Made or tried, the write may have changed the file: counted (`gamefs::LockMark`).
        gamefs::note_write(&gamefs::parent_of(&self.path));
        match result {
            Ok(()) => self.committed_rules = self.rules.clone(),
            Err(_) => {
                let committed = self.len() - self.staged();
                self.unstage_to(committed);
            }
        }
        result
    }

    fn write_group(&mut self) -> Result<(), LogError> {
        let path = self.path.clone();
        let io_err = |action, source| LogError::Io {
            path: path.clone(),
            action,
            source,
        };
        let group = self.bytes[self.written - self.base..].to_vec();
        let old_len = self.written as u64;
        let journal = self.journal_path();
        let mut jbytes = format!(
            "{JOURNAL_MAGIC} {old_len} {} {}\n",
            group.len(),
            hex::encode(sha2::Sha256::digest(&group))
        )
        .into_bytes();
        jbytes.extend_from_slice(&group);
        gamefs::atomic_write(&journal, &jbytes, "journal").map_err(fs_err)?;

        let mut file = gamefs::nofollow_options()
            .read(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| fs_err(gamefs::link_or_io(&path, "open", e)))?;
        file.lock().map_err(|e| io_err("lock", e))?;
        // The file must still be the log as read (from `base` on: the part before it was
        // checked when the log was opened at its known point).
        let size = file.metadata().map_err(|e| io_err("read", e))?.len() as usize;
        let mut current = Vec::with_capacity(self.written - self.base);
        if size == self.written {
            file.seek(SeekFrom::Start(self.base as u64))
                .map_err(|e| io_err("read", e))?;
            file.read_to_end(&mut current)
                .map_err(|e| io_err("read", e))?;
        }
        if size != self.written || current[..] != self.bytes[..self.written - self.base] {
            let _ = std::fs::remove_file(&journal);
            return Err(LogError::Refused {
                kind: "move",
                reason: format!(
                    "{} changed while this move was being decided (another writer without \
                     the game lock?); nothing was written, run the command again",
                    path.display()
                ),
            });
        }
        if let Some(n) = gamefs::crash_after_bytes("log-write") {
            let _ = file.write_all(&group[..n.min(group.len())]);
            let _ = file.sync_data();
            std::process::abort();
        }
        if let Err(err) = append_or_undo(&mut file, &group, old_len) {
            let _ = std::fs::remove_file(&journal);
            return Err(match err {
                WriteFailure::Io(action, source) => io_err(action, source),
                WriteFailure::Mismatch => LogError::WriteMismatch { path },
            });
        }
        gamefs::crash_point("log-synced");
        let _ = file.unlock();
        // The group is on disk: a journal left behind by a crash here is harmless (recover
        // finds the group whole and removes it).
        let _ = std::fs::remove_file(&journal);
        gamefs::crash_point("journal-removed");
        self.written = self.base + self.bytes.len();
        Ok(())
    }
}

/// The first word of a journal's header line.
const JOURNAL_MAGIC: &str = "twilight-journal-v1";

/// `log.yaml` → `log.yaml.pending`.
fn journal_of(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".pending");
    PathBuf::from(s)
}

/// Reads the log, refusing a symbolic link.
fn read_log(path: &Path) -> Result<Vec<u8>, LogError> {
    gamefs::read_nofollow(path).map_err(fs_err)
}

/// A file-system error as a log error.
fn fs_err(e: gamefs::FsError) -> LogError {
    match e {
        gamefs::FsError::Io {
            path,
            action,
            source,
        } => LogError::Io {
            path,
            action,
            source,
        },
        gamefs::FsError::Symlink(path) => LogError::Io {
            path,
            action: "open",
            source: io::Error::other(
                "a symbolic link; a game's log must be a real file, never written through a link",
            ),
        },
        other => LogError::Io {
            path: PathBuf::new(),
            action: "open",
            source: io::Error::other(other.to_string()),
        },
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
