//! `Log::append_all`: several entries in one write and one sync (issue 14 class 10, an
//! imported game written at once) make exactly the bytes one `append` per entry makes, and a
//! batch with one entry the log refuses writes nothing.

use chrono::{DateTime, TimeZone, Utc};
use twilight_pbem::data::Side;
use twilight_pbem::log::{verify_chain, Author, Hex32, Log, LogError, Payload, Players, Value};

fn at(s: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + s, 0).unwrap()
}

fn entries() -> Vec<(Payload, Author, DateTime<Utc>)> {
    vec![
        (
            Payload::Create {
                engine_version: "0.1.0".into(),
                rules_revision: "r3".into(),
                options: Value::Null,
                players: Players {
                    us: "a".into(),
                    ussr: "b".into(),
                },
                seed_commitment: Hex32::from([0u8; 32]),
            },
            Author::Moderator,
            at(0),
        ),
        (
            Payload::Join {
                side: Side::Ussr,
                nonce: "b".into(),
            },
            Author::Ussr,
            at(1),
        ),
        (
            Payload::Join {
                side: Side::Us,
                nonce: "a".into(),
            },
            Author::Us,
            at(2),
        ),
    ]
}

#[test]
fn one_batch_writes_what_one_append_per_entry_writes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.yaml"), dir.path().join("b.yaml"));
    let mut one = Log::create(&a).unwrap();
    for (p, by, t) in entries() {
        one.append(p, by, t).unwrap();
    }
    let mut batch = Log::create(&b).unwrap();
    batch.append_all(entries()).unwrap();
    let bytes = std::fs::read(&b).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), bytes);
    assert_eq!(batch.head(), one.head());
    assert_eq!(batch.entries(), one.entries());
    assert!(verify_chain(&bytes, None).is_clean());
    // The log reopens, and appends go on after the batch.
    let mut again = Log::open(&b).unwrap();
    assert_eq!(again.len(), 3);
    again
        .append_all([(
            Payload::Join {
                side: Side::Us,
                nonce: "again".into(),
            },
            Author::Us,
            at(3),
        )])
        .expect_err("a second US join is refused");
    assert_eq!(std::fs::read(&b).unwrap(), bytes);
}

#[test]
fn a_batch_with_a_refused_entry_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.yaml");
    let mut log = Log::create(&path).unwrap();
    let mut list = entries();
    list.swap(0, 1); // a join before the create
    assert!(matches!(
        log.append_all(list),
        Err(LogError::Refused { .. })
    ));
    assert!(log.is_empty());
    assert!(std::fs::read(&path).unwrap().is_empty());
}
