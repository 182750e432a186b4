//! `schemas/log-entry.schema.json` accepts every entry of a generated example log, refuses
//! broken entries, and agrees with the verifier on them (design §4).

mod common;

use std::fs;

use common::write_example_log;
use twilight_pbem::log::{split_documents, verify_chain, FindingKind};

fn validator() -> jsonschema::Validator {
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/log-entry.schema.json"
    ))
    .unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// Reads one YAML document as JSON, the way a third-party tool would validate it.
fn as_json(document: &str) -> serde_json::Value {
    serde_yaml::from_str(document).unwrap()
}

#[test]
fn every_entry_of_the_example_log_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(write_example_log(dir.path(), 40)).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    let validator = validator();
    let mut kinds = std::collections::BTreeSet::new();
    let docs = split_documents(&bytes).documents;
    for (i, range) in docs.iter().enumerate() {
        let entry = as_json(&text[range.clone()]);
        let errors: Vec<String> = validator
            .iter_errors(&entry)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "entry {i}: {errors:?}\n{entry}");
        let payload = entry["payload"].as_object().unwrap();
        kinds.extend(payload.keys().cloned());
    }
    println!("{} entries valid; payload kinds {kinds:?}", docs.len());
    assert_eq!(docs.len(), 40);
    // Every payload kind is exercised.
    assert_eq!(kinds.len(), 6, "{kinds:?}");
}

#[test]
fn broken_entries_are_refused_by_the_schema_and_by_verify() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = fs::read(write_example_log(dir.path(), 12)).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let docs = split_documents(text.as_bytes()).documents;
    let validator = validator();
    // Each edit applies to one document; (document, from, to, verify's finding).
    let edits = [
        (1, "nonce: yes", "nonse: yes", FindingKind::Schema),
        (1, "side: ussr", "side: both", FindingKind::Schema),
        (1, "by: ussr", "by: us", FindingKind::Author),
        (3, "kind: headline", "kind: discard", FindingKind::Schema),
        (0, "prev: '0000", "prev: '000", FindingKind::Schema),
        (
            0,
            "at: 2026-11-30T12:01:00Z",
            "at: yesterday",
            FindingKind::Schema,
        ),
        (0, "seq: 0", "seq: -1", FindingKind::Schema),
        (0, "by: moderator", "by: us", FindingKind::Author),
        (0, "    engine_version: 0.1.0\n", "", FindingKind::Schema),
        (
            11,
            "by: moderator",
            "by: moderator\nextra: 1",
            FindingKind::Schema,
        ),
    ];
    for (doc, from, to, finding) in edits {
        let original = &text[docs[doc].clone()];
        assert!(original.contains(from), "document {doc} lacks {from:?}");
        let changed = original.replacen(from, to, 1);
        let json = as_json(&changed);
        assert!(
            !validator.is_valid(&json),
            "schema accepted {from:?} -> {to:?}"
        );
        // verify reports the same entry with the expected kind of finding.
        let mut log = text.clone();
        log.replace_range(docs[doc].clone(), &changed);
        let report = verify_chain(log.as_bytes(), None);
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.kind == finding && f.document == Some(doc)),
            "{from:?} -> {to:?}: {report}"
        );
    }
}

#[test]
fn every_entry_of_every_game_in_games_is_valid() {
    // The bundled games (sealed, revealed, recorded from the digital edition) all follow the
    // published schemas: each entry against log-entry.schema.json, each decision's structured
    // answer against move.schema.json.
    let validator = validator();
    let move_schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/move.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let moves = jsonschema::validator_for(&move_schema).unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut logs = 0;
    let mut entries = 0;
    let mut decisions = 0;
    for game in fs::read_dir(&games).unwrap().flatten() {
        let path = game.path().join("log.yaml");
        if !path.is_file() {
            continue;
        }
        logs += 1;
        let bytes = fs::read(&path).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        for range in split_documents(&bytes).documents {
            let entry = as_json(&text[range]);
            let errors: Vec<String> = validator
                .iter_errors(&entry)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}\n{entry}", path.display());
            if let Some(answer) = entry["payload"].get("decision").map(|d| &d["answer"]) {
                let errors: Vec<String> =
                    moves.iter_errors(answer).map(|e| e.to_string()).collect();
                assert!(
                    errors.is_empty(),
                    "{}: move {answer}: {errors:?}",
                    path.display()
                );
                decisions += 1;
            }
            entries += 1;
        }
    }
    println!("{logs} logs in games/, {entries} entries and {decisions} decisions valid");
    assert!(logs >= 3 && decisions > 300);
}
