//! The card-flow records of FAIRNESS.md §3.7: a record that is not what the rules give is a
//! finding of `verify`, with the seed (the records re-derived differ) and without it (the
//! public replay refuses it), and fails the re-derivation from the spec alone; a log written before them (FAIRNESS version 2: no `card_records`, no records)
//! still verifies in full.

use std::path::Path;

use chrono::{TimeZone, Utc};
use twilight_pbem::archive;
use twilight_pbem::chance::fairness;
use twilight_pbem::engine::selfplay::{record_game, Policy};
use twilight_pbem::log::{entry_hash, split_documents};

fn at() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 3, 10, 0, 0).unwrap()
}

/// The log's documents as text.
fn documents(dir: &Path) -> Vec<String> {
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    split_documents(&bytes)
        .documents
        .iter()
        .map(|r| String::from_utf8(bytes[r.clone()].to_vec()).unwrap())
        .collect()
}

/// Writes `docs` as the log, every `prev` re-chained as a forger would.
fn write_rechained(dir: &Path, mut docs: Vec<String>) {
    let mut prev = "0".repeat(64);
    for d in &mut docs {
        let i = d.find("prev: ").expect("a prev line");
        let end = i + d[i..].find('\n').unwrap();
        *d = format!("{}prev: '{}'{}", &d[..i], prev, &d[end..]);
        prev = entry_hash(d.as_bytes()).to_hex();
    }
    std::fs::write(dir.join("log.yaml"), docs.concat()).unwrap();
}

/// A finished game (seed revealed) recorded in `dir`.
fn finished(dir: &Path, n: u64) {
    record_game(
        dir,
        Some(fairness::test_seed(n)),
        n,
        Policy::Careful,
        None,
        at(),
    )
    .unwrap();
}

fn python_rederives(dir: &Path) -> Option<bool> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/fairness_reference.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg("--games")
        .arg(dir)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (!text.contains("needs PyYAML")).then_some(out.status.success())
}

#[test]
fn a_log_without_card_flow_records_still_verifies_in_full() {
    // `tests/fixtures/fairness-v2-game`: the complete example game as FAIRNESS version 2
    // recorded it (no `card_records`, no records). The derivations did not change, so every
    // die, deal and commitment still checks.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fairness-v2-game");
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(!text.contains("card_records") && !text.contains("shuffled:"));
    assert!(text.contains("reveal:"));
    let report = archive::verify_game(&dir, None);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(
        report.summary().contains("full (seed revealed)"),
        "{}",
        report.summary()
    );
}

#[test]
fn a_forged_card_flow_record_is_a_finding_with_and_without_the_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    finished(&dir, 8);
    if let Some(ok) = python_rederives(&dir) {
        assert!(ok, "the genuine game re-derives");
    }
    // The host leaves a card out of a reshuffled discard pile (to deal other hands after it).
    let mut docs = documents(&dir);
    let i = docs
        .iter()
        .enumerate()
        .skip(5)
        .find(|(_, d)| d.contains("      shuffled:\n      - "))
        .map(|(i, _)| i)
        .expect("a reshuffle after the opening");
    let first = docs[i].find("      - ").unwrap();
    let end = first + docs[i][first..].find('\n').unwrap() + 1;
    docs[i].replace_range(first..end, "");
    write_rechained(&dir, docs);
    // With the seed: the records re-derived differ from the log's.
    let report = archive::verify_game(&dir, None);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.contains("differ from the outcomes re-derived") && f.contains("Shuffled")),
        "full replay: {:?}",
        report.findings
    );
    if let Some(ok) = python_rederives(&dir) {
        assert!(!ok, "the spec-only re-derivation fails too");
    }
    // Without the seed: the public replay reads the same record and finds it wrong.
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    let cut = text.rfind("---\n").unwrap();
    assert!(text[cut..].contains("reveal:"));
    std::fs::write(dir.join("log.yaml"), &text[..cut]).unwrap();
    let report = archive::verify_game(&dir, None);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.contains("the log records") && f.contains("where the rules give")),
        "public replay: {:?}",
        report.findings
    );
}
