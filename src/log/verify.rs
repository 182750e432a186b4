//! Verification of a log's hash chain and entry structure: a pure function over the file's
//! bytes (design §4 "A log that is truncated, edited, reordered or forked is detected and
//! reported precisely").
//!
//! [`verify_chain`] never stops at the first finding: it walks every document and lists every
//! problem, each naming the document (index and byte offset), the entry's `seq` where it could
//! be read, what was expected and what was found. It caps the list at [`MAX_FINDINGS`] and says
//! how many more it left out. It never panics, whatever the bytes.
//!
//! This checks the chain and the log-level rules only. Replaying moves through the engine and
//! recomputing shuffles, rolls and commitments from a revealed seed come on top of it.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use super::entry::{Author, Entry, Payload};
use super::hash::{entry_hash, Hex32};
use super::yaml::{parse_canonical, parse_entry, parse_stream, ParseError};
use crate::chance::fairness;
use crate::data::Side;

/// The last line of every document: the YAML document end marker. A document that does not
/// end with it was cut short, so a crash mid-append is always seen, even without a receipt.
pub const END_LINE: &[u8] = b"...\n";

/// At most this many findings are listed in a [`Report`]; the rest are only counted.
pub const MAX_FINDINGS: usize = 1000;

/// How a log's bytes split into documents: the bytes before the first `---` line (normally
/// none) and the byte range of each document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Bytes before the first `---` line. Empty in a sound log.
    pub leading: Range<usize>,
    /// One range per document: from the start of its `---` line to the start of the next
    /// document's `---` line, or to the end of the file.
    pub documents: Vec<Range<usize>>,
}

/// Splits a log into documents at every line that is exactly `---` (in column 0, ended by a
/// newline or by the end of the file), keeping every byte (design §4; ecosystem.md §1.4:
/// the emitter never writes such a line inside a document).
///
/// The concatenation of `leading` and all `documents` is always the whole input.
pub fn split_documents(bytes: &[u8]) -> Split {
    // Each `---` found (a fast search) starts a document if it is a whole line. The
    // search reports matches that do not overlap, which misses no line: a match overlapping
    // one that starts a line would hold the newline before it.
    let starts: Vec<usize> = memchr::memmem::find_iter(bytes, b"---")
        .filter(|&at| {
            (at == 0 || bytes[at - 1] == b'\n') && matches!(bytes.get(at + 3), None | Some(b'\n'))
        })
        .collect();
    let first = starts.first().copied().unwrap_or(bytes.len());
    let documents = starts
        .iter()
        .enumerate()
        .map(|(i, &s)| s..starts.get(i + 1).copied().unwrap_or(bytes.len()))
        .collect();
    Split {
        leading: 0..first,
        documents,
    }
}

/// What kind of problem a [`Finding`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// The file has no entry at all.
    Empty,
    /// Bytes before the first `---` line.
    LeadingBytes,
    /// A document that is not valid UTF-8.
    NotUtf8,
    /// A document that is not YAML, or holds more than one YAML document.
    BadYaml,
    /// YAML that is not an entry: a missing, unknown or ill-typed field.
    Schema,
    /// A document that does not end with its `...` line (and newline): cut short by a crash
    /// mid-append or a truncated copy (the last document), or cut and then appended to.
    Truncated,
    /// A `seq` greater than the one expected: entries are missing.
    SeqGap,
    /// A `seq` smaller than the one expected, never seen before: entries are out of order.
    SeqOrder,
    /// A `seq` already used by an earlier document: a duplicated entry or a fork.
    SeqDuplicate,
    /// `prev` is not the hash of the previous document's bytes: an earlier entry was changed,
    /// removed or reordered, or this one was.
    PrevMismatch,
    /// A log-level rule broken: `create` not first, a second `create`, a second `join` for a
    /// side, an entry after the reveal.
    Structure,
    /// `by` does not fit the payload (a decision by the wrong side, a chance record not by the
    /// moderator…).
    Author,
    /// The revealed seed does not match the `create` entry's seed commitment.
    RevealMismatch,
    /// No entry hashes to the head hash of a receipt: the entry it named was changed, or the
    /// log was truncated before it.
    HeadNotFound,
}

impl FindingKind {
    /// A short name for the kind, as printed in a report.
    pub fn describe(self) -> &'static str {
        match self {
            FindingKind::Empty => "empty log",
            FindingKind::LeadingBytes => "bytes before the first entry",
            FindingKind::NotUtf8 => "not UTF-8",
            FindingKind::BadYaml => "bad YAML",
            FindingKind::Schema => "not a log entry",
            FindingKind::Truncated => "truncated entry",
            FindingKind::SeqGap => "sequence gap",
            FindingKind::SeqOrder => "sequence out of order",
            FindingKind::SeqDuplicate => "duplicated sequence number (fork)",
            FindingKind::PrevMismatch => "previous-hash mismatch",
            FindingKind::Structure => "misplaced entry",
            FindingKind::Author => "wrong author",
            FindingKind::RevealMismatch => "revealed seed does not match its commitment",
            FindingKind::HeadNotFound => "receipt head not in the log",
        }
    }
}

/// One problem found in a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What kind of problem.
    pub kind: FindingKind,
    /// Index of the document concerned (0 = the first `---` document), if any.
    pub document: Option<usize>,
    /// Byte offset in the file where the concerned bytes start.
    pub offset: usize,
    /// The entry's `seq`, when its document could be read.
    pub seq: Option<u64>,
    /// What a sound log has here.
    pub expected: String,
    /// What this log has.
    pub found: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.seq, self.document) {
            (Some(seq), Some(doc)) => write!(
                f,
                "entry seq {seq} (document {doc}, byte {}): ",
                self.offset
            )?,
            (None, Some(doc)) => write!(f, "document {doc} (byte {}): ", self.offset)?,
            (_, None) => write!(f, "byte {}: ", self.offset)?,
        }
        write!(
            f,
            "{}: expected {}; found {}",
            self.kind.describe(),
            self.expected,
            self.found
        )
    }
}

/// Where one document lies and what it hashes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentInfo {
    /// Byte range of the document in the file.
    pub range: Range<usize>,
    /// [`entry_hash`] of the document's bytes.
    pub hash: Hex32,
    /// The entry's `seq`, if the document could be read as an entry.
    pub seq: Option<u64>,
}

/// The outcome of [`verify_chain`]: every document's place and hash, and every finding.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// One item per document, in file order.
    pub documents: Vec<DocumentInfo>,
    /// The findings, in file order (at most [`MAX_FINDINGS`]).
    pub findings: Vec<Finding>,
    /// How many further findings were left out of `findings`.
    pub omitted: usize,
    /// With an expected head hash: the index of the document that has it, if any.
    pub receipt_document: Option<usize>,
}

impl Report {
    /// True when nothing is wrong.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.omitted == 0
    }

    /// The head hash: the hash of the last document's bytes; [`Hex32::ZERO`] for a file with
    /// no document.
    pub fn head(&self) -> Hex32 {
        self.documents.last().map_or(Hex32::ZERO, |d| d.hash)
    }

    /// The number of findings, listed or not.
    pub fn finding_count(&self) -> usize {
        self.findings.len() + self.omitted
    }

    fn push(&mut self, finding: Finding) {
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(finding);
        } else {
            self.omitted += 1;
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last_seq = self.documents.last().and_then(|d| d.seq);
        write!(
            f,
            "{}, head {}",
            crate::text::wording::count(self.documents.len() as u64, "entry", "entries"),
            self.head()
        )?;
        if let Some(seq) = last_seq {
            write!(f, " (seq {seq})")?;
        }
        if self.is_clean() {
            return writeln!(f, ": chain intact");
        }
        writeln!(
            f,
            ": {}",
            crate::text::wording::count(self.finding_count() as u64, "finding", "findings")
        )?;
        for finding in &self.findings {
            writeln!(f, "  {finding}")?;
        }
        if self.omitted > 0 {
            writeln!(
                f,
                "  … and {} more {} not listed",
                self.omitted,
                if self.omitted == 1 {
                    "finding"
                } else {
                    "findings"
                }
            )?;
        }
        Ok(())
    }
}

/// Verifies a whole log file's bytes: document framing, YAML, entry fields, sequence numbers,
/// the hash chain and the log-level rules (design §2 "Receipts", §4).
///
/// With `expected_head` (the head hash from a receipt, `verify --head HASH`), also checks that
/// some entry hashes to it; the receipt may be older than the log, so it need not be the last
/// entry (the log must extend what the receipt saw). Without it, a change to the last entry
/// or a cut exactly between two entries cannot be seen; with it, both are.
///
/// The rules checked per entry: the first entry is `create` with `seq` 0 and `prev` all zeros,
/// and no other entry is `create`; each `seq` is one more than the last; each `prev` is the
/// [`entry_hash`] of the previous document; `create`, `chance`, `commitment` and `reveal` are
/// by the moderator, `join` and `decision` by their `side`; one `join` per side; nothing after
/// `reveal`; the revealed seed matches `create.seed_commitment` (FAIRNESS.md §2); every document
/// ends with the line `...` ([`END_LINE`]), so a cut anywhere but between two entries is seen.
pub fn verify_chain(bytes: &[u8], expected_head: Option<&Hex32>) -> Report {
    scan(bytes, expected_head).0
}

/// [`verify_chain`], also returning each document's parsed entry (`None` where unreadable).
///
/// One pass over the documents: each is hashed, read, checked for its end line, then checked
/// against the chain so far (`seq`, `prev`, the log-level rules).
pub(crate) fn scan(bytes: &[u8], expected_head: Option<&Hex32>) -> (Report, Vec<Option<Entry>>) {
    let mut report = Report::default();
    let split = split_documents(bytes);
    check_framing(&mut report, bytes, &split);
    let mut readers = Readers::new(bytes, &split);
    let mut entries = Vec::with_capacity(split.documents.len());
    let mut chain = Chain::default();
    let last = split.documents.len().saturating_sub(1);

    for (index, range) in split.documents.iter().enumerate() {
        let doc = &bytes[range.clone()];
        let hash = entry_hash(doc);
        let at = Place {
            index,
            offset: range.start,
        };
        let parsed = readers.entry(&mut report, at, doc);
        check_end_line(&mut report, at, doc, index == last, parsed.as_ref());
        match &parsed {
            Some(entry) => chain.check(&mut report, at, entry),
            None => chain.skip(),
        }
        report.documents.push(DocumentInfo {
            range: range.clone(),
            hash,
            seq: parsed.as_ref().map(|e| e.seq),
        });
        entries.push(parsed);
    }

    if let Some(want) = expected_head {
        check_receipt_head(&mut report, want);
    }
    (report, entries)
}

/// Where a document lies: its index and the byte offset where it starts.
#[derive(Debug, Clone, Copy)]
struct Place {
    index: usize,
    offset: usize,
}

impl Place {
    /// A finding about the document here.
    fn finding(
        self,
        kind: FindingKind,
        seq: Option<u64>,
        expected: String,
        found: String,
    ) -> Finding {
        Finding {
            kind,
            document: Some(self.index),
            offset: self.offset,
            seq,
            expected,
            found,
        }
    }
}

/// The file as a whole: bytes before the first `---` line (naming the likely cause), or no
/// document at all.
fn check_framing(report: &mut Report, bytes: &[u8], split: &Split) {
    if !split.leading.is_empty() {
        report.push(Finding {
            kind: FindingKind::LeadingBytes,
            document: None,
            offset: 0,
            seq: None,
            expected: "the file to start with a `---` line".into(),
            found: format!(
                "{} before the first `---` line{}",
                crate::text::wording::count(split.leading.len() as u64, "byte", "bytes"),
                if bytes.starts_with(b"---\r\n") {
                    " (the file has CRLF line endings: was it converted by git or a mail client?)"
                } else if bytes.starts_with(b"\xef\xbb\xbf---") {
                    " (the file starts with a UTF-8 byte-order mark: was it saved by a text editor?)"
                } else {
                    ""
                }
            ),
        });
    }
    if split.documents.is_empty() {
        report.push(Finding {
            kind: FindingKind::Empty,
            document: None,
            offset: 0,
            seq: None,
            expected: "at least the create entry".into(),
            found: "no `---` document".into(),
        });
    }
}

/// The entries the fast readers give, read before the walk over the documents.
///
/// The reader of canonical documents first: it gives what the library gives, or nothing
/// (yaml/canonical.rs). What it leaves goes to the library: in one pass over the whole file
/// when that is most of the file and gives what each document alone gives; otherwise each
/// document alone, for its findings.
struct Readers {
    /// Each document's entry from the reader of canonical documents, taken as it is used.
    canonical: Vec<Option<Entry>>,
    /// Each document's entry from the one-pass parse of the whole file, if made.
    streamed: Option<std::vec::IntoIter<Entry>>,
}

impl Readers {
    fn new(bytes: &[u8], split: &Split) -> Readers {
        let canonical: Vec<Option<Entry>> = split
            .documents
            .iter()
            .map(|r| {
                std::str::from_utf8(&bytes[r.clone()])
                    .ok()
                    .and_then(parse_canonical)
            })
            .collect();
        let left = canonical.iter().filter(|e| e.is_none()).count();
        let streamed = std::str::from_utf8(bytes)
            .ok()
            .filter(|_| split.leading.is_empty() && 2 * left > split.documents.len())
            .and_then(|text| parse_stream(text, &split.documents))
            .map(Vec::into_iter);
        Readers {
            canonical,
            streamed,
        }
    }

    /// The entry of the document `doc` at `at` (the next one): from the fast readers, else
    /// parsed alone, with a finding if that fails.
    fn entry(&mut self, report: &mut Report, at: Place, doc: &[u8]) -> Option<Entry> {
        let streamed_entry = self.streamed.as_mut().and_then(Iterator::next);
        if let Some(entry) = self.canonical[at.index].take().or(streamed_entry) {
            return Some(entry);
        }
        read_alone(report, at, doc)
    }
}

/// The entry of the document `doc` at `at`, parsed alone; `None` with a finding (not UTF-8,
/// bad YAML, not an entry) if it cannot be read.
fn read_alone(report: &mut Report, at: Place, doc: &[u8]) -> Option<Entry> {
    let text = match std::str::from_utf8(doc) {
        Ok(text) => text,
        Err(e) => {
            report.push(at.finding(
                FindingKind::NotUtf8,
                None,
                "UTF-8 text".into(),
                format!(
                    "an invalid byte at file offset {}",
                    at.offset + e.valid_up_to()
                ),
            ));
            return None;
        }
    };
    match parse_entry(text) {
        Ok(entry) => Some(entry),
        Err(ParseError::Syntax(msg)) => {
            report.push(at.finding(FindingKind::BadYaml, None, "one YAML document".into(), msg));
            None
        }
        Err(ParseError::Schema(msg)) => {
            report.push(at.finding(
                FindingKind::Schema,
                None,
                "a log entry (seq, at, by, prev, payload)".into(),
                msg,
            ));
            None
        }
    }
}

/// The document's end line ([`END_LINE`]): without it, the document was cut short.
fn check_end_line(
    report: &mut Report,
    at: Place,
    doc: &[u8],
    is_last: bool,
    parsed: Option<&Entry>,
) {
    if doc.ends_with(END_LINE) {
        return;
    }
    let (expected, found) = if is_last {
        (
            "the last entry to end with a `...` line and a newline".to_string(),
            format!(
                "the file ends {} into the last document without one: cut short",
                crate::text::wording::count(doc.len() as u64, "byte", "bytes")
            ),
        )
    } else {
        (
            "every entry to end with a `...` line before the next `---`".to_string(),
            format!(
                "document {} ends without one, {} after its start: cut short",
                at.index,
                crate::text::wording::count(doc.len() as u64, "byte", "bytes")
            ),
        )
    };
    report.push(at.finding(
        FindingKind::Truncated,
        parsed.map(|e| e.seq),
        expected,
        found,
    ));
}

/// What the checks of the chain carry from one document to the next.
#[derive(Default)]
struct Chain {
    /// The log-level rules' state.
    rules: ChainRules,
    /// The first document of each `seq`: looked up only for a `seq` below the next one
    /// expected (none in a sound log), since every `seq` seen is below it.
    by_seq: HashMap<u64, usize>,
    /// The `seq` the next document should have.
    next_seq: u64,
}

impl Chain {
    /// Checks the entry of the document at `at` against the chain so far: its `seq`, its
    /// `prev`, the log-level rules.
    fn check(&mut self, report: &mut Report, at: Place, entry: &Entry) {
        self.check_seq(report, at, entry);
        check_prev(report, at, entry);
        for (kind, expected, found) in self.rules.check(at.index == 0, entry) {
            report.push(at.finding(kind, Some(entry.seq), expected, found));
        }
    }

    /// A document that could not be read still takes a `seq`.
    fn skip(&mut self) {
        self.next_seq = self.next_seq.saturating_add(1);
    }

    /// The entry's `seq`: a duplicate, out of order, or after a gap.
    fn check_seq(&mut self, report: &mut Report, at: Place, entry: &Entry) {
        let seq = Some(entry.seq);
        let next_seq = self.next_seq;
        let earlier = if entry.seq < next_seq {
            self.by_seq.get(&entry.seq).copied()
        } else {
            None
        };
        if let Some(earlier) = earlier {
            report.push(at.finding(
                FindingKind::SeqDuplicate,
                seq,
                format!("seq {next_seq}"),
                format!(
                    "seq {} again, first used by document {earlier}: a duplicated entry or a fork",
                    entry.seq
                ),
            ));
        } else if entry.seq < next_seq {
            report.push(at.finding(
                FindingKind::SeqOrder,
                seq,
                format!("seq {next_seq}"),
                format!("seq {}, which belongs earlier", entry.seq),
            ));
        } else if entry.seq > next_seq {
            report.push(at.finding(
                FindingKind::SeqGap,
                seq,
                format!("seq {next_seq}"),
                format!(
                    "seq {}: {} entr{} missing",
                    entry.seq,
                    entry.seq - next_seq,
                    if entry.seq - next_seq == 1 {
                        "y"
                    } else {
                        "ies"
                    }
                ),
            ));
        }
        self.by_seq.entry(entry.seq).or_insert(at.index);
        self.next_seq = next_seq.max(entry.seq.saturating_add(1));
    }
}

/// The hash chain: the entry's `prev` is the hash of the document before it (all zeros for
/// the first), whose hash `report` already holds.
fn check_prev(report: &mut Report, at: Place, entry: &Entry) {
    let index = at.index;
    let want_prev = if index == 0 {
        Hex32::ZERO
    } else {
        report.documents[index - 1].hash
    };
    if entry.prev == want_prev {
        return;
    }
    let what = if index == 0 {
        "all zeros (the first entry)".to_string()
    } else {
        format!("{want_prev} (the hash of document {})", index - 1)
    };
    // The first earlier document with that hash (looked for only here, in a log that does
    // not verify).
    let earlier = report.documents.iter().position(|d| d.hash == entry.prev);
    let found = match earlier {
        Some(j) => format!(
            "{}, the hash of document {j}: an entry was removed, reordered or forked",
            entry.prev
        ),
        None if entry.prev == Hex32::ZERO => {
            format!("{} (a first entry's prev)", entry.prev)
        }
        None => format!(
            "{}, the hash of no earlier entry: a previous entry was changed or removed, or this one was",
            entry.prev
        ),
    };
    report.push(at.finding(FindingKind::PrevMismatch, Some(entry.seq), what, found));
}

/// A receipt's head hash `want`: some document must hash to it.
fn check_receipt_head(report: &mut Report, want: &Hex32) {
    report.receipt_document = report.documents.iter().position(|d| d.hash == *want);
    if report.receipt_document.is_some() {
        return;
    }
    let (document, offset, seq) = match report.documents.last() {
        Some(d) => (Some(report.documents.len() - 1), d.range.start, d.seq),
        None => (None, 0, None),
    };
    report.push(Finding {
        kind: FindingKind::HeadNotFound,
        document,
        offset,
        seq,
        expected: format!("an entry whose hash is {want} (the receipt's head)"),
        found: format!(
            "no such entry; the log's head is {}: the entry the receipt named was changed, or the log was cut before it",
            report.head()
        ),
    });
}

/// The log-level rules that depend on earlier entries; shared by [`verify_chain`] and
/// `Log::append`, so that append never writes what verify would refuse.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct ChainRules {
    /// The seed commitment of the `create` entry, once seen.
    seed_commitment: Option<Hex32>,
    /// The `seq` of the reveal, once seen.
    revealed_at: Option<u64>,
    /// Sides that have joined.
    joined: Vec<Side>,
    /// Seats that have bid (a bid game).
    bids: Vec<u8>,
}

impl ChainRules {
    /// Checks one entry against the rules and records it. `first` is true for the first
    /// document of the file. Returns `(kind, expected, found)` for each broken rule.
    pub(crate) fn check(
        &mut self,
        first: bool,
        entry: &Entry,
    ) -> Vec<(FindingKind, String, String)> {
        let mut out = Vec::new();
        let kind = entry.payload.kind();
        match (&entry.payload, first) {
            (Payload::Create { .. }, false) => out.push((
                FindingKind::Structure,
                "create only as the first entry".into(),
                "another create entry".into(),
            )),
            (Payload::Create { .. }, true) => {}
            (_, true) => out.push((
                FindingKind::Structure,
                "a create entry first".into(),
                format!("a {kind} entry"),
            )),
            _ => {}
        }
        if let Some(at) = self.revealed_at {
            out.push((
                FindingKind::Structure,
                format!("no entry after the reveal (seq {at})"),
                format!("a {kind} entry"),
            ));
        }
        let author = entry.payload.author();
        if entry.by != author {
            out.push((
                FindingKind::Author,
                format!("by: {} for a {kind} entry", author.as_str()),
                format!("by: {}", entry.by.as_str()),
            ));
        }
        match &entry.payload {
            Payload::Create {
                seed_commitment, ..
            } if first => self.seed_commitment = Some(*seed_commitment),
            Payload::Join { side, .. } => {
                if self.joined.contains(side) {
                    out.push((
                        FindingKind::Structure,
                        "one join per side".into(),
                        format!("a second join for {}", Author::from(*side).as_str()),
                    ));
                } else {
                    self.joined.push(*side);
                }
            }
            Payload::Bid { seat, .. } => {
                if !matches!(seat, 1 | 2) {
                    out.push((
                        FindingKind::Structure,
                        "a bid of seat 1 or 2".into(),
                        format!("a bid of seat {seat}"),
                    ));
                } else if self.bids.contains(seat) {
                    out.push((
                        FindingKind::Structure,
                        "one bid per seat".into(),
                        format!("a second bid for seat {seat}"),
                    ));
                } else {
                    self.bids.push(*seat);
                }
            }
            Payload::Reveal { seed } => {
                let got = Hex32(fairness::seed_commitment(seed.as_bytes()));
                match self.seed_commitment {
                    Some(want) if want != got => out.push((
                        FindingKind::RevealMismatch,
                        format!("a seed whose commitment is {want} (the create entry's)"),
                        format!("a seed whose commitment is {got}"),
                    )),
                    _ => {}
                }
                self.revealed_at.get_or_insert(entry.seq);
            }
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass parse of a whole log gives each document's entry as parsing it alone
    /// does, and is not used where a document holds a second start or end marker or a
    /// directive.
    #[test]
    fn one_pass_parse_matches_parsing_each_document() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/example-complete/log.yaml"
        ))
        .unwrap();
        let split = split_documents(text.as_bytes());
        let streamed = parse_stream(&text, &split.documents).expect("a plain log streams");
        assert_eq!(streamed.len(), split.documents.len());
        for (entry, range) in streamed.iter().zip(&split.documents) {
            assert!(parse_entry(&text[range.clone()]).ok().as_ref() == Some(entry));
        }
        let first = split.documents[0].clone();
        let body_start = first.start + 4;
        for inserted in ["... # end\n", "--- x\n", "%YAML 1.2\n"] {
            let odd = format!("{}{inserted}{}", &text[..body_start], &text[body_start..]);
            let odd_split = split_documents(odd.as_bytes());
            assert!(
                parse_stream(&odd, &odd_split.documents).is_none(),
                "{inserted}"
            );
        }
        assert!(parse_stream(
            &text[1..],
            &split_documents(&text.as_bytes()[1..]).documents
        )
        .is_none());
    }

    #[test]
    fn split_keeps_every_byte() {
        let text = b"junk\n---\na: 1\n---\nb: '---'\n--- x\n---";
        let s = split_documents(text);
        assert_eq!(s.leading, 0..5);
        assert_eq!(s.documents, vec![5..14, 14..33, 33..36]);
        assert_eq!(
            split_documents(b"").documents,
            Vec::<std::ops::Range<usize>>::new()
        );
        assert_eq!(split_documents(b"---\n").documents, vec![0..4]);
        let s = split_documents(b"----\n---\n ---\n---x\n--\n---");
        assert_eq!((s.leading, s.documents), (0..5, vec![5..22, 22..25]));
    }

    #[test]
    fn empty_and_garbage_inputs_are_findings_not_panics() {
        for input in [
            &b""[..],
            b"\n",
            b"---",
            b"---\n",
            b"---\n: :\n",
            b"\xff\xfe---\n",
            b"---\n\xff\n",
            b"---\n- [\n",
        ] {
            let r = verify_chain(input, Some(&Hex32::ZERO));
            assert!(!r.is_clean(), "{input:?}");
        }
    }

    #[test]
    fn crlf_line_endings_are_named() {
        let r = verify_chain(b"---\r\nseq: 0\r\n", None);
        assert!(r.findings[0].found.contains("CRLF"), "{r}");
    }
}
