//! The log's recent entries read by the canonical reader first (`Log::open_after`): an entry
//! after the snapshot's point written by hand in a valid but non-canonical YAML layout, the
//! snapshot's last entry rewritten so, and a recent entry edited in place, are judged exactly
//! as a full replay of the log judges them.

use std::path::Path;

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

/// The game replayed from its log alone, or its error.
fn fresh(dir: &Path) -> Result<String, String> {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(dir.join(f), copy.join(f)).unwrap();
    }
    Session::open(&copy).map(|s| fingerprint(&s)).map_err(|e| {
        e.to_string()
            .replace(&copy.display().to_string(), &dir.display().to_string())
    })
}

/// The game as a command opens it (under the lock, from the snapshot when it fits), or its
/// error.
fn locked(dir: &Path) -> Result<(String, usize), String> {
    let (_lock, _) = Session::lock(dir).unwrap();
    Session::open(dir)
        .map(|s| (fingerprint(&s), s.entries_replayed()))
        .map_err(|e| e.to_string())
}

fn fingerprint(s: &Session) -> String {
    let mut out = format!(
        "findings {:?}\nnotes {:?}\ndecisions {}\nhead {}\nlen {}\ncorr {:?}\n",
        s.findings,
        s.notes,
        s.decisions,
        s.log().head(),
        s.log().len(),
        s.correspondence(),
    );
    if let Some(g) = s.game() {
        out.push_str(&format!(
            "state {:?}\nprompts {:?}\n",
            g.state(),
            g.prompts()
        ));
    }
    out
}

/// The byte ranges of the log's entries.
fn documents(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let end = bytes[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| i + p + 1);
        if &bytes[i..end] == b"...\n" {
            out.push(start..end);
            start = end;
        }
        i = end;
    }
    out
}

/// Entry `k` (from the end when negative) rewritten in a valid YAML layout the canonical
/// reader leaves to the library: a comment line and `by` double-quoted. Same values.
fn relayout(dir: &Path, from_end: usize) -> String {
    let path = dir.join("log.yaml");
    let bytes = std::fs::read(&path).unwrap();
    let docs = documents(&bytes);
    let r = docs[docs.len() - 1 - from_end].clone();
    let doc = std::str::from_utf8(&bytes[r.clone()]).unwrap();
    let by = doc
        .lines()
        .find_map(|l| l.strip_prefix("by: "))
        .expect("a by line")
        .to_string();
    let new = doc
        .replacen("---\n", "---\n# written by hand\n", 1)
        .replacen(
            &format!("by: {by}\n"),
            &format!("by: \"{by}\"  # quoted\n"),
            1,
        );
    assert_ne!(new, doc);
    let mut out = bytes[..r.start].to_vec();
    out.extend_from_slice(new.as_bytes());
    out.extend_from_slice(&bytes[r.end..]);
    std::fs::write(&path, out).unwrap();
    new
}

/// An entry after the snapshot's point written by hand (same values, another layout): read by
/// the library, the game equals the full replay's.
#[test]
fn attack9_an_entry_after_the_point_in_another_layout_is_read_as_a_full_replay_reads_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "layout", 9);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    let older = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    assert!(play_one(&dir, 99));
    std::fs::write(dir.join(SNAPSHOT_FILE), &older).unwrap();
    relayout(&dir, 0);
    let want = fresh(&dir).expect("a full replay reads the hand-written entry");
    let (got, replayed) = locked(&dir).unwrap();
    assert_eq!(got, want);
    assert!(replayed >= 1, "{replayed}");
}

/// The snapshot's last entry rewritten in another layout (its bytes' hash no longer the
/// point's head): the snapshot is not used, the game is the full replay's.
#[test]
fn attack9_the_points_last_entry_in_another_layout_is_replayed_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "lastlayout", 10);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    relayout(&dir, 0);
    let want = fresh(&dir);
    let got = locked(&dir).map(|(f, _)| f);
    assert_eq!(got, want);
}

/// A recent entry before the last rewritten in another layout: the chain breaks after it; a
/// command refuses the log as a full replay does, with the same words.
#[test]
fn attack9_a_recent_entry_in_another_layout_is_refused_as_a_full_replay_refuses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "midlayout", 11);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    relayout(&dir, 3);
    let want = fresh(&dir);
    let got = locked(&dir).map(|(f, _)| f);
    assert_eq!(got, want);
    assert!(want.is_err(), "a broken chain accepted");
}
