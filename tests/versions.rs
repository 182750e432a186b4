//! Rules revisions and divergence (design §4): a log written under another rules revision is
//! reported as such, and a replay that diverges names the entry and the reason.

use chrono::{TimeZone, Utc};
use twilight_pbem::archive::verify_game;
use twilight_pbem::chance::fairness;
use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::{Author, Hex32, Log, Payload, Players};
use twilight_pbem::session::RULES_REVISION;

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

fn options_value() -> serde_yaml::Value {
    serde_yaml::to_value(serde_json::to_value(Options::default()).unwrap()).unwrap()
}

/// A log with a create entry of `revision` and both joins, written with the log API only.
fn log_with_revision(dir: &std::path::Path, revision: &str) -> Log {
    std::fs::create_dir_all(dir).unwrap();
    let seed = [3u8; 32];
    let mut log = Log::create(dir.join("log.yaml")).unwrap();
    log.append(
        Payload::Create {
            engine_version: "0.0.1".into(),
            rules_revision: revision.into(),
            options: options_value(),
            players: Players {
                us: "us@example.org".into(),
                ussr: "ussr@example.org".into(),
            },
            seed_commitment: Hex32::from(fairness::seed_commitment(&seed)),
            dice_chain_end: Some(Hex32(fairness::dice_chain_end(&seed))),
            test_seed: true,
            moderator: None,
            moderator_plays: false,
            seats: None,
        },
        Author::Moderator,
        now(),
    )
    .unwrap();
    log.append(
        Payload::Join {
            side: Side::Ussr,
            nonce: "a".into(),
            typed_by_moderator: true,
        },
        Author::Ussr,
        now(),
    )
    .unwrap();
    log.append(
        Payload::Join {
            side: Side::Us,
            nonce: "b".into(),
            typed_by_moderator: true,
        },
        Author::Us,
        now(),
    )
    .unwrap();
    log
}

#[test]
fn a_log_of_another_rules_revision_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("old");
    log_with_revision(&dir, "deluxe-faq-2020.01-r0");
    let r = verify_game(&dir, None);
    // It replays identically, so it is a note, not a finding.
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    assert!(
        r.notes[0].contains("written under rules revision deluxe-faq-2020.01-r0")
            && r.notes[0].contains(RULES_REVISION),
        "{:?}",
        r.notes
    );
}

#[test]
fn a_diverging_replay_names_the_entry_and_the_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("diverged");
    let mut log = log_with_revision(&dir, RULES_REVISION);
    // A decision the rules refuse: the USSR's setup Influence in Western Europe.
    let answer = serde_yaml::from_str("influence: [[italy, 6]]").unwrap();
    let entry = log
        .append(
            Payload::Decision {
                side: Side::Ussr,
                notation: "influence Italy 6".into(),
                answer,
            },
            Author::Ussr,
            now(),
        )
        .unwrap();
    let seq = entry.entry.seq;
    let r = verify_game(&dir, None);
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    let f = &r.findings[0];
    assert!(f.contains(&format!("log entry {seq}")), "{f}");
    assert!(
        f.contains(
            "`influence Italy 6` by the USSR is refused: cannot place Influence in Italy here"
        ),
        "{f}"
    );
}
