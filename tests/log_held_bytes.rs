//! What a log opened at its replay snapshot's point holds of the file (issue 15 target 3):
//! `Log::file_range` gives exactly the file's bytes for any entry range — in the recent part
//! parsed, in the prefix only hashed, and across the two — and `Log::matches_file` (read a block
//! at a time, never copied whole) says the file is unchanged exactly when it is byte for byte.

use std::path::Path;

use twilight_pbem::session::Session;

mod game_common;
use game_common::{new_game, next_line, t0};

/// Plays `n` decisions (or until none is owed) with the first legal line each time.
fn play(dir: &Path, n: u64) {
    for k in 0..n {
        let (_lock, _) = Session::lock(dir).unwrap();
        let mut s = Session::open(dir).unwrap();
        let Some((side, line)) = next_line(&s, k) else {
            return;
        };
        s.play(side, std::slice::from_ref(&line), t0()).unwrap();
    }
}

#[test]
fn a_log_opened_at_its_snapshot_gives_the_files_bytes_and_knows_them() {
    let tmp = tempfile::tempdir().unwrap();
    // A random game long enough that the snapshot's log holds a prefix it did not parse.
    let dir = (1..40u8)
        .map(|seed| {
            let dir = new_game(tmp.path(), &format!("held{seed}"), seed);
            play(&dir, 200);
            dir
        })
        .find(|dir| {
            let (_lock, _) = Session::lock(dir).unwrap();
            Session::open(dir).unwrap().log().len() > 100
        })
        .expect("a game of over 100 entries");
    let path = dir.join("log.yaml");
    let file = std::fs::read(&path).unwrap();
    let (_lock, _) = Session::lock(&dir).unwrap();
    let s = Session::open(&dir).unwrap();
    let log = s.log();
    let recent = log.since(log.next_seq() - 1);
    let last = &recent[0].range;
    assert_eq!(last.end, file.len());
    // Every entry, the whole file, and ranges across every entry boundary.
    let entries = log.entries().to_vec();
    for (i, e) in entries.iter().enumerate() {
        let r = e.range.clone();
        assert_eq!(log.file_range(r.clone()).as_deref(), Some(&file[r.clone()]));
        let to = entries[(i + 40).min(entries.len() - 1)].range.end;
        assert_eq!(
            log.file_range(r.start..to).as_deref(),
            Some(&file[r.start..to])
        );
    }
    assert_eq!(log.file_range(0..file.len()).as_deref(), Some(&file[..]));
    assert_eq!(log.file_range(0..file.len() + 1), None);
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = 5..4;
    assert_eq!(log.file_range(backwards), None);
    assert!(log.matches_file());
    // One byte more, one byte less, one byte changed in the prefix or at the end: not the file.
    let write = |bytes: &[u8]| std::fs::write(&path, bytes).unwrap();
    write(&[&file[..], b"\n"].concat());
    assert!(!log.matches_file());
    write(&file[..file.len() - 1]);
    assert!(!log.matches_file());
    for at in [10, file.len() / 3, file.len() - 2] {
        let mut changed = file.clone();
        changed[at] ^= 0x20;
        write(&changed);
        assert!(!log.matches_file(), "byte {at} changed");
    }
    write(&file);
    assert!(log.matches_file());
}
