//! A clock tick at a leap second: a move may be logged at one (`23:59:60.5Z`; chrono keeps it
//! as nanoseconds of one second or more), and the replay snapshot's compact tick records
//! (format 3, `correspondence::TickRecord`) must read it back, or every later command replays
//! the whole log again (issue 15 target 3). Before format 3 the tick's time was chrono's own
//! text and read back.

use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use twilight_pbem::session::Session;

mod game_common;
use game_common::{new_game, next_line, t0};

/// Half a second into the leap second at the end of 2026.
fn leap() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(2026, 12, 31)
        .unwrap()
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap()
        .and_utc()
}

fn play_one(dir: &Path, k: u64, at: DateTime<Utc>) {
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
fn attack9_a_move_at_a_leap_second_leaves_a_snapshot_that_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "leap", 3);
    for k in 0..4 {
        play_one(&dir, k, t0());
    }
    play_one(&dir, 9, leap());
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
