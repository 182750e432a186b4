//! A game opened from its replay snapshot is judged as a full replay of its log judges it. A
//! log changed behind the snapshot's point (an old entry's bytes edited in place, the log rolled
//! back, replaced by another game's log of the same id, the game moved to another folder) is
//! refused where a full replay refuses, and never a move is accepted onto a log whose chain does
//! not verify; the log's recent entries, read by the canonical reader first
//! (`Log::open_after`), are judged as a full replay judges them when written by hand in a
//! valid but non-canonical YAML layout; commands print the same with and without the snapshot.

use std::path::Path;

use twilight_pbem::data::Side;
use twilight_pbem::log::Players;
use twilight_pbem::session::{Session, SNAPSHOT_FILE};

mod game_common;
use game_common::{new_game, next_line, run, side_arg, t0};

/// Plays `n` random decisions under the game's lock (each commit writes the snapshot).
fn play_n(dir: &Path, n: u64, salt: u64) {
    for k in 0..n {
        let (_lock, _) = Session::lock(dir).unwrap();
        let mut s = Session::open(dir).unwrap();
        let Some((side, line)) = next_line(&s, k + salt) else {
            return;
        };
        s.play(side, std::slice::from_ref(&line), t0()).unwrap();
    }
}

/// The byte ranges of the log's entries (documents ending in `...\n`).
fn documents(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let line_end = bytes[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| i + p + 1);
        if &bytes[i..line_end] == b"...\n" {
            out.push(start..line_end);
            start = line_end;
        }
        i = line_end;
    }
    out
}

/// Edits entry `seq` of the log in place, keeping its length: one hex digit of its `prev`
/// hash changed, so the chain no longer verifies from there.
fn edit_in_place(dir: &Path, seq: usize) {
    let path = dir.join("log.yaml");
    let mut bytes = std::fs::read(&path).unwrap();
    let doc = documents(&bytes)[seq].clone();
    let text = std::str::from_utf8(&bytes[doc.clone()]).unwrap();
    let at = doc.start + text.find("prev:").expect("a prev line") + "prev:".len();
    let digit = (at..doc.end)
        .find(|&i| bytes[i].is_ascii_hexdigit())
        .unwrap();
    bytes[digit] = if bytes[digit] == b'0' { b'1' } else { b'0' };
    std::fs::write(&path, bytes).unwrap();
}

/// The game replayed from its log alone (a copy without a snapshot), or its error.
fn fresh(dir: &Path) -> Result<Session, String> {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(dir.join(f), copy.join(f)).unwrap();
    }
    Session::open(&copy).map_err(|e| e.to_string())
}

#[test]
fn a_log_edited_in_place_behind_the_snapshot_is_refused_as_a_full_replay_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "edited", 21);
    play_n(&dir, 60, 0);
    assert!(dir.join(SNAPSHOT_FILE).exists());
    let len = documents(&std::fs::read(dir.join("log.yaml")).unwrap()).len();
    assert!(
        len > 40,
        "{len} entries: too few to edit behind the snapshot's window"
    );
    // An entry between entry 0 and the last 32: where `Log::open_after` does not read.
    edit_in_place(&dir, 5);
    let full = fresh(&dir);
    assert!(full.is_err(), "a full replay accepts the edited log");
    let d = dir.to_str().unwrap();
    for args in [vec!["status", d], vec!["moves", d, "--as", "us"]] {
        let out = run(&args);
        assert!(
            !out.status.success(),
            "`{}` succeeds on a log a full replay refuses: {}",
            args[0],
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // No move may be appended to it.
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    let (_lock, _) = Session::lock(&dir).unwrap();
    let opened = Session::open(&dir);
    assert!(
        opened.is_err(),
        "the library opens a log a full replay refuses"
    );
    drop(opened);
    drop(_lock);
    for side in [Side::Us, Side::Ussr] {
        let out = run(&["play", d, "--as", side_arg(side), "pass", "--no-mail"]);
        assert!(!out.status.success());
    }
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
    let v = run(&["verify", d]);
    assert!(!v.status.success(), "verify passes an edited log");
}

/// A command's line, exit code, stdout and stderr.
type Shown = (String, Option<i32>, Vec<u8>, Vec<u8>);

/// What the read-only commands print of the game (`status`, `moves` and `view` as each side).
fn shown(dir: &Path) -> Vec<Shown> {
    let d = dir.to_str().unwrap();
    let mut out = Vec::new();
    let mut cmds = vec![vec!["status", d]];
    for side in ["us", "ussr"] {
        cmds.push(vec!["moves", d, "--as", side]);
        cmds.push(vec!["view", d, "--as", side]);
    }
    for args in cmds {
        let o = run(&args);
        out.push((args.join(" "), o.status.code(), o.stdout, o.stderr));
    }
    out
}

/// Commands print the same with the snapshot as with it deleted.
fn assert_same_shown(dir: &Path, what: &str) {
    let with = shown(dir);
    std::fs::remove_file(dir.join(SNAPSHOT_FILE)).ok();
    let without = shown(dir);
    for (a, b) in with.iter().zip(&without) {
        assert_eq!(a, b, "{what}: `{}` differs with the snapshot", a.0);
    }
}

#[test]
fn a_log_rolled_back_under_a_newer_snapshot_is_judged_as_a_full_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "restored", 22);
    play_n(&dir, 45, 100);
    // A backup of the log taken here…
    let backup = std::fs::read(dir.join("log.yaml")).unwrap();
    play_n(&dir, 12, 200);
    let newer = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    // …restored under the newer snapshot; then the game goes on another way.
    std::fs::write(dir.join("log.yaml"), &backup).unwrap();
    assert_same_shown(&dir, "restored");
    std::fs::write(dir.join(SNAPSHOT_FILE), &newer).unwrap();
    play_n(&dir, 12, 300);
    std::fs::write(dir.join(SNAPSHOT_FILE), &newer).unwrap();
    assert_same_shown(&dir, "restored and played on another way");
    let v = run(&["verify", dir.to_str().unwrap()]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
}

#[test]
fn another_games_log_under_the_same_id_and_seed_is_judged_as_a_full_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let a = new_game(&tmp.path().join("a"), "twin", 23);
    let b = new_game(&tmp.path().join("b"), "twin", 23);
    play_n(&a, 50, 400);
    play_n(&b, 50, 500);
    // B's log (same id, same seed, same entry 0) put under A's snapshot.
    std::fs::copy(b.join("log.yaml"), a.join("log.yaml")).unwrap();
    assert_same_shown(&a, "twin");
    // A game moved to another folder keeps its snapshot valid (same id) and is shown alike.
    play_n(&a, 3, 600);
    let moved = tmp.path().join("c").join("twin");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&a, &moved).unwrap();
    assert_same_shown(&moved, "moved");
}

#[test]
fn commands_print_the_same_with_and_without_the_snapshot_in_variants() {
    use twilight_pbem::engine::Options;
    let tmp = tempfile::tempdir().unwrap();
    let variants: Vec<(&str, Options)> = vec![
        ("standard", Options::default()),
        (
            "turnzero",
            Options {
                turn_zero: true,
                ..Options::default()
            },
        ),
        (
            "ccw",
            Options {
                chinese_civil_war: true,
                ..Options::default()
            },
        ),
    ];
    for (i, (name, options)) in variants.into_iter().enumerate() {
        let dir = tmp.path().join(name);
        let mut s = Session::create_with_seed(
            &dir,
            &options,
            Players {
                us: "us@ts.test".into(),
                ussr: "ussr@ts.test".into(),
            },
            [30 + i as u8; 32],
            t0(),
        )
        .unwrap();
        s.join(Side::Us, "us nonce", t0()).unwrap();
        s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
        drop(s);
        for step in 0..5u64 {
            play_n(&dir, 9, 1000 * step + i as u64);
            // Rebuild the snapshot by a locked open, then compare.
            let (_lock, _) = Session::lock(&dir).unwrap();
            drop(Session::open(&dir).unwrap());
            drop(_lock);
            assert_same_shown(&dir, &format!("{name} step {step}"));
        }
    }
}

// ---- Entries after the snapshot's point written by hand in a valid but non-canonical YAML
// layout, the snapshot's last entry rewritten so, and a recent entry edited in place.

/// Plays the next decision under the game's lock; false once the game is over.
fn play_one(dir: &Path, k: u64) -> bool {
    let (_lock, _) = Session::lock(dir).unwrap();
    let mut s = Session::open(dir).unwrap();
    let Some((side, line)) = next_line(&s, k) else {
        return false;
    };
    s.play(side, std::slice::from_ref(&line), t0()).unwrap();
    true
}

/// The game replayed from its log alone, its fingerprint or its error.
fn fresh_fingerprint(dir: &Path) -> Result<String, String> {
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
fn an_entry_after_the_point_in_another_layout_is_read_as_a_full_replay_reads_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "layout", 9);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    let older = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    assert!(play_one(&dir, 99));
    std::fs::write(dir.join(SNAPSHOT_FILE), &older).unwrap();
    relayout(&dir, 0);
    let want = fresh_fingerprint(&dir).expect("a full replay reads the hand-written entry");
    let (got, replayed) = locked(&dir).unwrap();
    assert_eq!(got, want);
    assert!(replayed >= 1, "{replayed}");
}

/// The snapshot's last entry rewritten in another layout (its bytes' hash no longer the
/// point's head): the snapshot is not used, the game is the full replay's.
#[test]
fn the_points_last_entry_in_another_layout_is_replayed_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "lastlayout", 10);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    relayout(&dir, 0);
    let want = fresh_fingerprint(&dir);
    let got = locked(&dir).map(|(f, _)| f);
    assert_eq!(got, want);
}

/// A recent entry before the last rewritten in another layout: the chain breaks after it; a
/// command refuses the log as a full replay does, with the same words.
#[test]
fn a_recent_entry_in_another_layout_is_refused_as_a_full_replay_refuses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "midlayout", 11);
    for k in 0..12 {
        assert!(play_one(&dir, k));
    }
    relayout(&dir, 3);
    let want = fresh_fingerprint(&dir);
    let got = locked(&dir).map(|(f, _)| f);
    assert_eq!(got, want);
    assert!(want.is_err(), "a broken chain accepted");
}
