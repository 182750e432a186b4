//! The `outage` log entry (`schemas/NOTATION.md` "Correspondence moves"): `twilight serve`
//! records it when the host was out of service longer than its threshold; no time of it counts
//! on either side's clock, so every deadline (and the end of grace) falls later by its length.
//! The entry validates against `schemas/log-entry.schema.json`, replays in `verify`, and a bad
//! one (ending after its own entry, overlapping the one before) is refused with its entry named.

use std::path::Path;

use chrono::{DateTime, Duration, TimeZone, Utc};

use twilight_pbem::archive;
use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::{entry_hash, split_documents, Players};
use twilight_pbem::session::correspondence::{clock::clock_at, Settings, TimeControl};
use twilight_pbem::session::Session;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, 4, 12, 0, 0).unwrap()
}

/// A started game (both joined at `t0`), 3 days per move, 24 hours' grace.
fn game(dir: &Path) -> Session {
    let settings = Settings {
        time_control: Some(TimeControl::DaysPerMove(3)),
        grace_hours: 24,
        ..Settings::default()
    };
    let mut s = Session::create_correspondence(
        dir,
        &Options::default(),
        &settings,
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        &Default::default(),
        Some([7; 32]),
        t0(),
    )
    .unwrap();
    s.join(Side::Ussr, "a", t0()).unwrap();
    s.join(Side::Us, "b", t0()).unwrap();
    s
}

fn owing(s: &Session) -> Side {
    s.game().unwrap().prompts()[0].side
}

#[test]
fn an_outage_extends_the_deadline_and_the_grace_end_by_its_length() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("outage");
    let mut s = game(&dir);
    let side = owing(&s);
    let before = clock_at(s.correspondence(), side, t0());
    assert_eq!(before.deadline, Some(t0() + Duration::days(3)));
    let (from, to) = (
        t0() + Duration::days(1),
        t0() + Duration::days(1) + Duration::hours(10),
    );
    s.record_outage(from, to, to).unwrap();
    let after = clock_at(s.correspondence(), side, to);
    assert_eq!(
        after.deadline,
        Some(t0() + Duration::days(3) + Duration::hours(10))
    );
    assert_eq!(
        after.timeout_at,
        Some(t0() + Duration::days(4) + Duration::hours(10))
    );
    // The timeout waits for the extended end of grace.
    let early = t0() + Duration::days(4) + Duration::hours(9);
    let e = s.record_timeout(side, early).unwrap_err().to_string();
    assert!(e.contains("before its deadline and grace end"), "{e}");
    s.record_timeout(side, t0() + Duration::days(4) + Duration::hours(10))
        .unwrap();
    let outcome = s
        .game()
        .unwrap()
        .outcome()
        .expect("the timeout ends the game");
    assert_eq!(outcome.winner, Some(side.opponent()));
    // The history says so, and the log verifies clean.
    assert!(
        s.game()
            .unwrap()
            .history()
            .any(|l| l.contains("out of service") && l.contains("10 h 0 min")),
        "the history tells of the outage"
    );
    let r = archive::verify_game(&dir, None);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // The entry as stored validates against the published schema.
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/log-entry.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    let mut outages = 0;
    for r in split_documents(&bytes).documents {
        let doc: serde_json::Value = serde_yaml::from_slice(&bytes[r]).unwrap();
        if doc["payload"].get("outage").is_some() {
            outages += 1;
            assert_eq!(doc["by"], "moderator");
        }
        assert!(v.is_valid(&doc), "{doc}");
    }
    assert_eq!(outages, 1);
}

#[test]
fn an_outage_only_partly_after_a_decision_became_owed_extends_by_that_part() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("part");
    let mut s = game(&dir);
    let side = owing(&s);
    // The host was down from 6 hours before the decision became owed (t0) to 4 hours after.
    let (from, to) = (t0() - Duration::hours(6), t0() + Duration::hours(4));
    s.record_outage(from, to, to).unwrap();
    let c = clock_at(s.correspondence(), side, to);
    assert_eq!(
        c.deadline,
        Some(t0() + Duration::days(3) + Duration::hours(4))
    );
}

#[test]
fn a_bad_outage_is_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bad");
    let mut s = game(&dir);
    let len = s.log().len();
    let at = t0() + Duration::days(1);
    for (from, to, why) in [
        (at, at, "not after it"),
        (
            at - Duration::hours(1),
            at + Duration::hours(1),
            "after the entry's own time",
        ),
    ] {
        let e = s.record_outage(from, to, at).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
        assert_eq!(s.log().len(), len);
    }
    s.record_outage(at - Duration::hours(8), at, at).unwrap();
    let e = s
        .record_outage(
            at - Duration::hours(1),
            at + Duration::hours(2),
            at + Duration::hours(2),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("before the previous outage's end"), "{e}");
    assert_eq!(s.log().len(), len + 1);
}

#[test]
fn an_outage_written_by_hand_that_ends_after_its_entry_is_a_finding_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("forged");
    let s = game(&dir);
    let next = s.log().len();
    drop(s);
    // Ends a day after the entry's own time: it would push the deadline for time not yet past.
    let path = dir.join("log.yaml");
    let bytes = std::fs::read(&path).unwrap();
    let split = split_documents(&bytes);
    let prev = entry_hash(&bytes[split.documents.last().unwrap().clone()]);
    let doc = format!(
        "---\nseq: {next}\nat: 2027-01-05T12:00:00Z\nby: moderator\nprev: {prev}\npayload:\n  outage:\n    from: 2027-01-05T00:00:00Z\n    to: 2027-01-06T12:00:00Z\n...\n"
    );
    let mut out = bytes;
    out.extend_from_slice(doc.as_bytes());
    std::fs::write(&path, out).unwrap();
    let r = archive::verify_game(&dir, None);
    assert!(
        r.findings
            .iter()
            .any(|f| f.contains(&format!("log entry {next}"))
                && f.contains("after the entry's own time")),
        "{:?}",
        r.findings
    );
}
