//! The replay snapshot's clock ticks, stored as compact records `[seq, secs, nanos, flags]`
//! (snapshot format 3, `correspondence::TickRecord`): a move at a leap second leaves a snapshot
//! whose records read back; a format 2 snapshot left by an older binary and tick records forged
//! with the game's own key (unknown flag bits, times out of range, wrong shapes) are ignored:
//! the game equals a fresh replay of its log, never a panic, and the next command under the
//! lock writes a good format 3 snapshot again.

use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use hmac::{KeyInit, Mac};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use twilight_pbem::session::{Session, SNAPSHOT_FILE};

mod game_common;
use game_common::{new_game, next_line, t0};

fn play_one(dir: &Path, k: u64) -> bool {
    let (_lock, _) = Session::lock(dir).unwrap();
    let mut s = Session::open(dir).unwrap();
    let Some((side, line)) = next_line(&s, k) else {
        return false;
    };
    s.play(side, std::slice::from_ref(&line), t0()).unwrap();
    true
}

fn fresh(dir: &Path) -> Session {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(dir.join(f), copy.join(f)).unwrap();
    }
    Session::open(&copy).unwrap()
}

/// What a command decides from (a shorter form of `tests/snapshot_cache.rs`'s fingerprint).
fn fingerprint(s: &Session) -> String {
    let mut out = format!(
        "findings {:?}\nnotes {:?}\ndecisions {}\nhead {}\ncorr {:?}\ntakeback {:?}\n",
        s.findings,
        s.notes,
        s.decisions,
        s.log().head(),
        s.correspondence(),
        s.pending_takeback(),
    );
    if let Some(g) = s.game() {
        out.push_str(&format!(
            "state {:?}\nprompts {:?}\noutcome {:?}\n",
            g.state(),
            g.prompts(),
            g.outcome()
        ));
    }
    out
}

fn seed_of(dir: &Path) -> [u8; 32] {
    let text = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
    let hex_seed = text
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .expect("a seed line");
    hex::decode(hex_seed.trim().trim_matches('\'').trim_matches('"'))
        .unwrap()
        .try_into()
        .unwrap()
}

fn tag(seed: &[u8; 32], body: &[u8]) -> String {
    let key = Sha256::new()
        .chain_update(b"twilight-pbem replay snapshot key v1\0")
        .chain_update(seed)
        .finalize();
    let mut m = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&key).unwrap();
    m.update(body);
    hex::encode(m.finalize().into_bytes())
}

fn read_snapshot(dir: &Path) -> Json {
    let bytes = std::fs::read(dir.join(SNAPSHOT_FILE)).expect("a snapshot");
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    serde_json::from_slice(&bytes[nl + 1..]).unwrap()
}

fn write_snapshot(dir: &Path, body: &Json) {
    let json = serde_json::to_vec(body).unwrap();
    let mut bytes = format!("twilight-snapshot-v1 {}\n", tag(&seed_of(dir), &json)).into_bytes();
    bytes.extend_from_slice(&json);
    std::fs::write(dir.join(SNAPSHOT_FILE), bytes).unwrap();
}

fn played(parent: &Path, gid: &str, seed: u8, n: u64) -> PathBuf {
    let dir = new_game(parent, gid, seed);
    for k in 0..n {
        if !play_one(&dir, k + 1000 * u64::from(seed)) {
            break;
        }
    }
    dir
}

/// The ticks array in a snapshot body.
fn ticks(body: &mut Json) -> &mut Vec<Json> {
    body["checkpoint"]["corr"]["ticks"]
        .as_array_mut()
        .expect("the ticks")
}

/// A format 3 tick record as a format 2 (named fields) tick, as an older binary wrote it.
fn as_format_2(t: &Json) -> Json {
    let [seq, secs, nanos, flags] = [0, 1, 2, 3].map(|i| t[i].as_i64().unwrap());
    let at = chrono::DateTime::from_timestamp(secs, nanos as u32).unwrap();
    json!({
        "seq": seq,
        "at": at,
        "owing": {"us": flags & 1 != 0, "ussr": flags & 2 != 0},
        "moved": {"us": flags & 4 != 0, "ussr": flags & 8 != 0},
    })
}

#[test]
fn ticks_are_stored_as_four_number_records() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "records", 3, 10);
    let mut body = read_snapshot(&dir);
    assert_eq!(body["key"]["format"], 3);
    let t = ticks(&mut body);
    assert!(!t.is_empty());
    let secs = t0().timestamp();
    for r in t.iter() {
        let r = r.as_array().expect("a record");
        assert_eq!(r.len(), 4, "{r:?}");
        assert!(r[1].as_i64().unwrap() >= secs - 86_400 * 366, "{r:?}");
        assert!(r[3].as_u64().unwrap() < 16, "{r:?}");
    }
}

/// A format 2 snapshot (ticks with named fields) at the head, left by an older binary and
/// carrying a poisoned decision count: ignored, the game replayed whole equals a fresh
/// replay, and the next locked command writes format 3 again.
#[test]
fn a_format_2_snapshot_is_ignored_and_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "format2", 4, 14);
    let want = fingerprint(&fresh(&dir));
    let mut body = read_snapshot(&dir);
    let old: Vec<Json> = ticks(&mut body).iter().map(as_format_2).collect();
    *ticks(&mut body) = old;
    body["key"]["format"] = json!(2);
    body["checkpoint"]["decisions"] = json!(9999);
    write_snapshot(&dir, &body);
    let (_lock, _) = Session::lock(&dir).unwrap();
    let s = Session::open(&dir).unwrap();
    assert_eq!(fingerprint(&s), want);
    assert!(s.entries_replayed() > 0, "the format 2 snapshot was used");
    drop(s);
    drop(_lock);
    // The same body claiming format 3 (named-field ticks under the new format): refused too.
    body["key"]["format"] = json!(3);
    write_snapshot(&dir, &body);
    let (_lock, _) = Session::lock(&dir).unwrap();
    let s = Session::open(&dir).unwrap();
    assert_eq!(fingerprint(&s), want);
    assert!(
        s.entries_replayed() > 0,
        "named-field ticks read as format 3"
    );
    drop(s);
    drop(_lock);
    assert!(play_one(&dir, 77));
    assert_eq!(read_snapshot(&dir)["key"]["format"], 3);
    assert_eq!(
        fingerprint(&Session::open(&dir).unwrap()),
        fingerprint(&fresh(&dir))
    );
}

/// Tick records forged with the game's own key but out of their range or shape: each makes
/// the snapshot ignored (never a panic), the game equals a fresh replay.
#[test]
fn garbled_tick_records_are_ignored_never_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "garbled", 6, 14);
    let want = fingerprint(&fresh(&dir));
    let body = read_snapshot(&dir);
    let bad: Vec<(&str, Json)> = vec![
        ("unknown flag 16", json!([1, 1_796_160_582, 0, 16])),
        ("unknown flag 128", json!([1, 1_796_160_582, 0, 128])),
        ("flag 256", json!([1, 1_796_160_582, 0, 256])),
        ("negative flag", json!([1, 1_796_160_582, 0, -1])),
        ("nanos 1e9", json!([1, 1_796_160_582, 1_000_000_000u32, 0])),
        (
            "nanos 2e9 in a leap second",
            json!([1, 1_798_761_599, 2_000_000_000u32, 0]),
        ),
        (
            "nanos leap outside a leap second",
            json!([1, 1_796_160_598, 1_999_999_999u32, 0]),
        ),
        ("nanos u32 max", json!([1, 1_796_160_582, u32::MAX, 0])),
        ("secs max", json!([1, i64::MAX, 0, 0])),
        ("secs min", json!([1, i64::MIN, 0, 0])),
        (
            "secs beyond chrono",
            json!([1, 9_000_000_000_000_000i64, 0, 0]),
        ),
        ("negative seq", json!([-1, 1_796_160_582, 0, 0])),
        ("float secs", json!([1, 1.5, 0, 0])),
        ("three", json!([1, 1_796_160_582, 0])),
        ("five", json!([1, 1_796_160_582, 0, 0, 0])),
        ("string", json!("1,1796160582,0,0")),
        ("null", json!(null)),
        ("object", json!({"0": 1, "1": 2, "2": 3, "3": 0})),
    ];
    for (what, rec) in bad {
        for at in [0usize, usize::MAX] {
            let mut b = body.clone();
            let t = ticks(&mut b);
            let i = at.min(t.len() - 1);
            t[i] = rec.clone();
            b["checkpoint"]["decisions"] = json!(9999);
            write_snapshot(&dir, &b);
            let (_lock, _) = Session::lock(&dir).unwrap();
            let s = std::panic::catch_unwind(|| Session::open(&dir))
                .unwrap_or_else(|_| panic!("{what}: a panic"))
                .unwrap();
            assert_eq!(fingerprint(&s), want, "{what}");
            assert!(s.entries_replayed() > 0, "{what}: the snapshot was used");
        }
    }
    // A time in range at the edge of what chrono and the record hold reads back and is used:
    // the snapshot's ticks are what the key's holder wrote.
    let mut b = body.clone();
    let t = ticks(&mut b);
    let last = t.len() - 1;
    t[last][2] = json!(999_999_999u32);
    write_snapshot(&dir, &b);
    let (_lock, _) = Session::lock(&dir).unwrap();
    let s = Session::open(&dir).unwrap();
    assert_eq!(s.entries_replayed(), 0, "a valid record refused");
    assert_eq!(
        s.correspondence()
            .ticks
            .last()
            .unwrap()
            .at
            .timestamp_subsec_nanos(),
        999_999_999
    );
}

/// `status` on a game whose snapshot holds a garbled tick record, then a move, then `status`
/// again: each says what it says with no snapshot at all, and the move leaves a good
/// format 3 snapshot at the head.
#[test]
fn status_and_a_move_over_a_garbled_tick_record_are_as_without_a_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "status", 8, 12);
    let d = dir.to_str().unwrap();
    let mut body = read_snapshot(&dir);
    ticks(&mut body)[0] = json!([0, 1_796_160_582, 0, 64]);
    write_snapshot(&dir, &body);
    let with = game_common::run(&["status", d]);
    assert!(with.status.success(), "{with:?}");
    let snapshot = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    std::fs::remove_file(dir.join(SNAPSHOT_FILE)).unwrap();
    let without = game_common::run(&["status", d]);
    assert_eq!(
        String::from_utf8_lossy(&with.stdout),
        String::from_utf8_lossy(&without.stdout)
    );
    std::fs::write(dir.join(SNAPSHOT_FILE), snapshot).unwrap();
    assert!(play_one(&dir, 4242));
    assert_eq!(read_snapshot(&dir)["key"]["format"], 3);
    let t = ticks(&mut read_snapshot(&dir))[0].clone();
    assert!(t[3].as_u64().unwrap() < 16, "{t}");
    assert_eq!(
        fingerprint(&Session::open(&dir).unwrap()),
        fingerprint(&fresh(&dir))
    );
}

// ---- A clock tick at a leap second: a move may be logged at one (`23:59:60.5Z`; chrono keeps
// it as nanoseconds of one second or more), and the snapshot's tick records must read it back,
// or every later command replays the whole log again.

/// Half a second into the leap second at the end of 2026.
fn leap() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(2026, 12, 31)
        .unwrap()
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap()
        .and_utc()
}

fn play_one_at(dir: &Path, k: u64, at: DateTime<Utc>) {
    let (_lock, _) = Session::lock(dir).unwrap();
    let mut s = Session::open(dir).unwrap();
    let (side, line) = next_line(&s, k).unwrap();
    s.play(side, std::slice::from_ref(&line), at).unwrap();
}

/// The game as a command opens it (under the lock): its clock ticks and how many entries it
/// replayed beyond the snapshot.
fn locked(dir: &Path) -> (Vec<(u64, DateTime<Utc>)>, usize) {
    let (_lock, _) = Session::lock(dir).unwrap();
    let s = Session::open(dir).unwrap();
    let ticks = s
        .correspondence()
        .ticks
        .iter()
        .map(|t| (t.seq, t.at))
        .collect();
    (ticks, s.entries_replayed())
}

#[test]
fn a_move_at_a_leap_second_leaves_a_snapshot_that_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "leap", 3);
    for k in 0..4 {
        play_one_at(&dir, k, t0());
    }
    play_one_at(&dir, 9, leap());
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(log.contains("at: 2026-12-31T23:59:60.500Z"), "{log}");
    let (ticks, _) = locked(&dir);
    assert_eq!(ticks.last().map(|t| t.1), Some(leap()));
    // Opened again: the snapshot written at the head is read, nothing replayed.
    let (again, replayed) = locked(&dir);
    assert_eq!(again, ticks);
    assert_eq!(
        replayed, 0,
        "the snapshot with a leap-second tick was not read"
    );
}
