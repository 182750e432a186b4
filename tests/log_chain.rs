//! The log's hash chain (design §4, `schemas/FAIRNESS.md` §11): append/open round trip, precise
//! findings, and the mutation test (every change before the last entry detected from the chain
//! alone; every change to the last entry and every truncation detected with a receipt's head
//! hash).

mod common;

use std::fs;
use std::time::Instant;

use common::{at, write_example_log, SEED};
use twilight_pbem::chance::fairness;
use twilight_pbem::data::Side;
use twilight_pbem::log::{
    entry_hash, split_documents, verify_chain, Author, FindingKind, Hex32, Log, LogError, Payload,
    Report,
};

/// The number of entries in the mutated log.
const ENTRIES: usize = 40;

fn kinds(report: &Report) -> Vec<FindingKind> {
    report.findings.iter().map(|f| f.kind).collect()
}

#[test]
fn append_then_open_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 12);
    let bytes = fs::read(&path).unwrap();
    let log = Log::open(&path).unwrap();
    assert_eq!(log.len(), 12);
    assert_eq!(log.bytes(), &bytes[..]);
    for (i, stored) in log.entries().iter().enumerate() {
        assert_eq!(stored.entry.seq, i as u64);
        assert_eq!(stored.hash, entry_hash(&bytes[stored.range.clone()]));
        let want_prev = if i == 0 {
            Hex32::ZERO
        } else {
            log.entries()[i - 1].hash
        };
        assert_eq!(stored.entry.prev, want_prev);
    }
    assert_eq!(log.head(), log.entries().last().unwrap().hash);
    assert_eq!(log.next_seq(), 12);
    assert!(bytes.starts_with(b"---\n"));
    assert!(bytes.ends_with(b"\n"));
    let report = verify_chain(&bytes, Some(&log.head()));
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.receipt_document, Some(11));
    assert_eq!(report.head(), log.head());
}

#[test]
fn an_older_receipt_still_verifies_against_a_longer_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.yaml");
    let mut log = Log::create(&path).unwrap();
    log.append(create_payload(), Author::Moderator, at(0))
        .unwrap();
    let receipt = log.head();
    log.append(
        Payload::Join {
            side: Side::Us,
            nonce: "n".into(),
            typed_by_moderator: true,
        },
        Author::Us,
        at(1),
    )
    .unwrap();
    let report = verify_chain(&fs::read(&path).unwrap(), Some(&receipt));
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.receipt_document, Some(0));
}

fn create_payload() -> Payload {
    Payload::Create {
        engine_version: "0.1.0".into(),
        rules_revision: "r1".into(),
        options: twilight_pbem::log::Value::Null,
        players: twilight_pbem::log::Players {
            us: "a@example.org".into(),
            ussr: "b@example.org".into(),
        },
        seed_commitment: Hex32(fairness::seed_commitment(&SEED)),
        dice_chain_end: Some(Hex32(fairness::dice_chain_end(&SEED))),
        test_seed: true,
        moderator: None,
        moderator_plays: false,
        seats: None,
    }
}

#[test]
fn append_refuses_what_verify_would_report_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.yaml");
    let mut log = Log::create(&path).unwrap();
    let join = Payload::Join {
        side: Side::Us,
        nonce: "n".into(),
        typed_by_moderator: true,
    };
    assert!(matches!(
        log.append(join.clone(), Author::Us, at(0)),
        Err(LogError::Refused { .. })
    ));
    log.append(create_payload(), Author::Moderator, at(0))
        .unwrap();
    let before = fs::read(&path).unwrap();
    for (payload, by) in [
        (create_payload(), Author::Moderator),
        (join.clone(), Author::Ussr),
        (join.clone(), Author::Moderator),
        (
            Payload::Reveal {
                seed: Hex32([1; 32]),
            },
            Author::Moderator,
        ),
    ] {
        let err = log.append(payload, by, at(1)).unwrap_err();
        assert!(matches!(err, LogError::Refused { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
    }
    log.append(join.clone(), Author::Us, at(1)).unwrap();
    assert!(matches!(
        log.append(join, Author::Us, at(2)),
        Err(LogError::Refused { .. })
    ));
    log.append(
        Payload::Reveal { seed: Hex32(SEED) },
        Author::Moderator,
        at(3),
    )
    .unwrap();
    let after_reveal = Payload::Chance {
        what: twilight_pbem::log::Value::Null,
    };
    assert!(matches!(
        log.append(after_reveal, Author::Moderator, at(4)),
        Err(LogError::Refused { .. })
    ));
    assert!(verify_chain(&fs::read(&path).unwrap(), None).is_clean());
}

#[test]
fn create_refuses_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 5);
    assert!(matches!(Log::create(&path), Err(LogError::Io { .. })));
}

#[test]
fn a_handle_that_missed_an_append_is_refused_and_writes_nothing() {
    // A move decided on a stale log must never be written (design §9); the caller re-reads
    // (under the game lock) and decides again.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.yaml");
    let decision = |side: Side| Payload::Decision {
        side,
        notation: "play 4 space".into(),
        answer: twilight_pbem::log::Value::Null,
    };
    Log::create(&path)
        .unwrap()
        .append(create_payload(), Author::Moderator, at(0))
        .unwrap();
    let mut a = Log::open(&path).unwrap();
    let mut b = Log::open(&path).unwrap();
    a.append(decision(Side::Us), Author::Us, at(1)).unwrap();
    let after_a = fs::read(&path).unwrap();
    let err = b
        .append(decision(Side::Ussr), Author::Ussr, at(2))
        .unwrap_err();
    assert!(matches!(err, LogError::Refused { .. }), "{err}");
    assert!(err
        .to_string()
        .contains("changed while this move was being decided"));
    assert_eq!(fs::read(&path).unwrap(), after_a, "nothing written");
    assert_eq!(b.len(), 1, "the refused entry is not kept in memory either");
    let mut b = Log::open(&path).unwrap();
    let stored = b.append(decision(Side::Ussr), Author::Ussr, at(2)).unwrap();
    assert_eq!(stored.entry.seq, 2);
    let bytes = fs::read(&path).unwrap();
    assert_eq!(b.bytes(), &bytes[..]);
    let report = verify_chain(&bytes, Some(&b.head()));
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.documents.len(), 3);
}

#[test]
fn a_crash_mid_append_is_reported_as_a_truncated_final_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 10);
    let mut bytes = fs::read(&path).unwrap();
    let good = bytes.len();
    bytes.extend_from_slice(b"---\nseq: 10\nat: 2026-11-30T13:00:00Z\nby: mod");
    fs::write(&path, &bytes).unwrap();
    let err = Log::open(&path).unwrap_err();
    let LogError::Corrupt { report, .. } = err else {
        panic!("expected a corrupt log, got {err}");
    };
    assert!(kinds(&report).contains(&FindingKind::Truncated), "{report}");
    // The previous entries are intact: every finding is about the last document.
    assert!(
        report.findings.iter().all(|f| f.document == Some(10)),
        "{report}"
    );
    assert_eq!(report.documents[9].range.end, good);

    // A cut just before the closing `...` line leaves a complete, parseable entry: the missing
    // end line still shows the cut, with no receipt needed.
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 10);
    let bytes = fs::read(&path).unwrap();
    let cut = &bytes[..bytes.len() - 4];
    let report = verify_chain(cut, None);
    assert_eq!(kinds(&report), vec![FindingKind::Truncated], "{report}");
    assert_eq!(report.findings[0].seq, Some(9));
}

#[test]
fn findings_name_the_entry_and_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 12);
    let bytes = fs::read(&path).unwrap();
    let docs = split_documents(&bytes).documents;

    // Change a byte inside entry 5: entry 6's prev no longer matches.
    let mut changed = bytes.clone();
    let pos = docs[5].start + 6; // inside "seq: 5"
    changed[pos] = b'5';
    let report = verify_chain(&changed, None);
    let prev = report
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::PrevMismatch)
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(prev.seq, Some(6));
    assert_eq!(prev.document, Some(6));
    assert_eq!(prev.offset, docs[6].start);
    assert!(
        prev.expected
            .contains(&entry_hash(&changed[docs[5].clone()]).to_hex()),
        "{prev}"
    );
    assert!(prev
        .to_string()
        .starts_with("entry seq 6 (document 6, byte "));

    // Remove entry 4: a gap at seq 5 and a prev naming no entry.
    let mut removed = bytes[..docs[4].start].to_vec();
    removed.extend_from_slice(&bytes[docs[5].start..]);
    let report = verify_chain(&removed, None);
    assert_eq!(
        kinds(&report),
        vec![FindingKind::SeqGap, FindingKind::PrevMismatch],
        "{report}"
    );
    assert_eq!(report.findings[0].expected, "seq 4");

    // A fork: entry 7 duplicated with a different payload after entry 11.
    let mut forked = bytes.clone();
    let fork = String::from_utf8(bytes[docs[7].clone()].to_vec())
        .unwrap()
        .replace("play", "pass");
    forked.extend_from_slice(fork.as_bytes());
    let report = verify_chain(&forked, None);
    assert!(
        kinds(&report).contains(&FindingKind::SeqDuplicate),
        "{report}"
    );
    let dup = report
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::PrevMismatch)
        .unwrap();
    assert!(dup.found.contains("the hash of document 6"), "{dup}");

    // A changed last entry is invisible without the receipt and reported with it.
    let mut last = bytes.clone();
    let t = bytes[docs[11].clone()]
        .windows(4)
        .position(|w| w == b"T12:")
        .unwrap();
    last[docs[11].start + t + 2] = b'3'; // 12:xx becomes 13:xx
    assert!(verify_chain(&last, None).is_clean());
    let receipt = entry_hash(&bytes[docs[11].clone()]);
    let report = verify_chain(&last, Some(&receipt));
    assert_eq!(kinds(&report), vec![FindingKind::HeadNotFound], "{report}");
}

#[test]
fn many_findings_are_capped_and_counted() {
    let mut bytes = Vec::new();
    for _ in 0..1500 {
        bytes.extend_from_slice(b"---\nnot: an entry\n");
    }
    let report = verify_chain(&bytes, None);
    assert_eq!(report.findings.len(), twilight_pbem::log::MAX_FINDINGS);
    assert!(report.omitted >= 500);
    assert!(report.to_string().contains("more findings not listed"));
}

/// Counts of one mutation family.
#[derive(Default)]
struct Tally {
    tried: usize,
    detected: usize,
}

impl Tally {
    fn record(&mut self, report: &Report) {
        self.tried += 1;
        if !report.is_clean() {
            self.detected += 1;
        }
    }

    fn print_and_check(&self, name: &str) {
        println!(
            "mutation {name:<48} tried {:>6}  detected {:>6}  ({:.1}%)",
            self.tried,
            self.detected,
            100.0 * self.detected as f64 / self.tried.max(1) as f64
        );
        assert!(self.tried > 0, "{name}: nothing tried");
        assert_eq!(self.tried, self.detected, "{name}: undetected mutations");
    }
}

/// Runs `check` for every value of `range`, spread over the available cores, and adds up the
/// tallies.
fn sweep(range: std::ops::Range<usize>, check: impl Fn(usize, &mut Tally) + Sync) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let items: Vec<usize> = range.collect();
    let chunk = items.len().div_ceil(threads).max(1);
    let check = &check;
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for &i in part {
                        check(i, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    tallies.into_iter().fold(Tally::default(), |a, b| Tally {
        tried: a.tried + b.tried,
        detected: a.detected + b.detected,
    })
}

/// The byte values a position is changed to: a low-bit flip (a digit or letter becomes its
/// neighbour), a high-bit flip (invalid UTF-8), and a structural byte (newline, or a space
/// where there was a newline).
fn variants(b: u8) -> [u8; 3] {
    [b ^ 0x01, b ^ 0x80, if b == b'\n' { b' ' } else { b'\n' }]
}

#[test]
fn mutation_test_every_change_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), ENTRIES);
    let bytes = fs::read(&path).unwrap();
    let docs = split_documents(&bytes).documents;
    assert_eq!(docs.len(), ENTRIES);
    let head = entry_hash(&bytes[docs[ENTRIES - 1].clone()]);
    assert!(verify_chain(&bytes, None).is_clean());
    assert!(verify_chain(&bytes, Some(&head)).is_clean());
    let started = Instant::now();
    println!(
        "example log: {} entries, {} bytes; last entry {} bytes",
        ENTRIES,
        bytes.len(),
        docs[ENTRIES - 1].len()
    );

    // (a) From the chain alone.
    let last_start = docs[ENTRIES - 1].start;
    let changed = sweep(0..last_start, |pos, tally| {
        let mut buf = bytes.clone();
        for v in variants(bytes[pos]) {
            buf[pos] = v;
            tally.record(&verify_chain(&buf, None));
        }
    });
    changed.print_and_check("(a) byte changed, entries before the last");

    let mut deleted = Tally::default();
    for d in &docs[..ENTRIES - 1] {
        let mut cut = bytes[..d.start].to_vec();
        cut.extend_from_slice(&bytes[d.end..]);
        deleted.record(&verify_chain(&cut, None));
    }
    deleted.print_and_check("(a) entry deleted, all but the last");

    let mut swapped = Tally::default();
    for i in 0..ENTRIES - 1 {
        let mut s = bytes[..docs[i].start].to_vec();
        s.extend_from_slice(&bytes[docs[i + 1].clone()]);
        s.extend_from_slice(&bytes[docs[i].clone()]);
        s.extend_from_slice(&bytes[docs[i + 1].end..]);
        swapped.record(&verify_chain(&s, None));
    }
    swapped.print_and_check("(a) adjacent entries swapped");

    // (b) With the head hash of a receipt taken at the last entry.
    let last = sweep(last_start..bytes.len(), |pos, tally| {
        let mut buf = bytes.clone();
        for v in variants(bytes[pos]) {
            buf[pos] = v;
            tally.record(&verify_chain(&buf, Some(&head)));
        }
    });
    last.print_and_check("(b) byte changed in the last entry, with head");

    let truncated = sweep(0..bytes.len(), |len, tally| {
        tally.record(&verify_chain(&bytes[..len], Some(&head)));
    });
    truncated.print_and_check("(b) truncated at every byte offset, with head");

    // (c) Without any receipt: a cut anywhere except exactly between two entries.
    let boundaries: Vec<usize> = docs.iter().map(|d| d.start).collect();
    let cut_no_head = sweep(1..bytes.len(), |len, tally| {
        if !boundaries.contains(&len) {
            tally.record(&verify_chain(&bytes[..len], None));
        }
    });
    cut_no_head.print_and_check("(c) truncated inside an entry, no head");

    let mut last_deleted = Tally::default();
    last_deleted.record(&verify_chain(&bytes[..last_start], Some(&head)));
    last_deleted.print_and_check("(b) last entry deleted, with head");

    let total = changed.tried
        + cut_no_head.tried
        + deleted.tried
        + swapped.tried
        + last.tried
        + truncated.tried
        + last_deleted.tried;
    println!(
        "mutation total: {total} tried, {total} detected, no panic, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "prints the example log"]
fn print_example_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 12);
    print!("{}", fs::read_to_string(path).unwrap());
}

/// The 40-entry example log's bytes, made once for the property tests.
fn example_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        fs::read(write_example_log(dir.path(), ENTRIES)).unwrap()
    })
}

/// Pieces of log-like text from which the property tests build hostile inputs.
const FRAGMENTS: &[&str] = &[
    "---\n",
    "---",
    "...\n",
    "seq: 0\n",
    "seq: 18446744073709551615\n",
    "at: 2026-11-30T12:00:00Z\n",
    "by: moderator\n",
    "prev: '0000000000000000000000000000000000000000000000000000000000000000'\n",
    "payload:\n  reveal:\n    seed: 5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e\n",
    "payload: !create {}\n",
    "a: &x [*x]\n",
    "- [[[[[[[[[[\n",
    "\t\r\n",
    "\u{feff}",
    "\"\\u0000\"\n",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn verify_never_panics_on_random_bytes(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..1024)
    ) {
        let _ = verify_chain(&bytes, Some(&Hex32::ZERO));
    }

    #[test]
    fn verify_never_panics_on_log_like_text(
        pieces in proptest::collection::vec(0..FRAGMENTS.len(), 0..40)
    ) {
        let text: String = pieces.iter().map(|&i| FRAGMENTS[i]).collect();
        let _ = verify_chain(text.as_bytes(), None);
    }

    #[test]
    fn several_random_byte_changes_are_detected(
        edits in proptest::collection::vec((0..9000usize, 1..=255u8), 1..6)
    ) {
        let original = example_bytes();
        let mut bytes = original.to_vec();
        let mut seen = std::collections::BTreeSet::new();
        for (pos, xor) in edits {
            let pos = pos % bytes.len();
            // One change per position, so two edits cannot cancel out.
            if seen.insert(pos) {
                bytes[pos] ^= xor;
            }
        }
        let head = entry_hash(&original[split_documents(original).documents[ENTRIES - 1].clone()]);
        let report = verify_chain(&bytes, Some(&head));
        proptest::prop_assert!(!report.is_clean());
    }
}

/// A log saved by an editor that put a UTF-8 byte-order mark before it: the first entry is
/// unreadable, and the finding says why, as it does for CRLF line endings (not only "682 bytes
/// before the first `---` line", then a gap and a hash mismatch).
#[test]
fn a_byte_order_mark_before_the_log_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_example_log(dir.path(), 4);
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(fs::read(&path).unwrap());
    let report = verify_chain(&bytes, None);
    let lead = report
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::LeadingBytes)
        .expect("a finding for the bytes before the first entry");
    assert!(lead.found.contains("byte-order mark"), "{}", lead.found);
}
