//! `Session::reopen`'s lock tenure: a game reopened while this process still holds the lock it
//! read the files under is not compared with the disk again. Each test makes the session's
//! memory differ from the files while the tenure it carries looks unbroken, then checks that
//! `reopen` gives exactly what a fresh `Session::open` of the files gives (never a replay
//! missing another command's move).

use std::path::{Path, PathBuf};

use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::session::Session;

mod game_common;
use game_common::{new_game, next_line, run, side_arg, t0};

/// The game replayed from its log alone: the log and secret copied to a fresh folder of the
/// same name, opened without the lock.
fn fresh(dir: &Path) -> Session {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        if dir.join(f).exists() {
            std::fs::copy(dir.join(f), copy.join(f)).unwrap();
        }
    }
    Session::open(&copy).unwrap()
}

/// What a command decides from: the log's head and length, the decisions, the prompts and the
/// moderator's view.
fn fingerprint(s: &Session) -> String {
    let mut out = format!(
        "len {} head {} decisions {} findings {:?}\n",
        s.log().len(),
        s.log().head(),
        s.decisions,
        s.findings
    );
    if let Some(g) = s.game() {
        out.push_str(&format!(
            "prompts {:?}\nmoderator {:?}\n",
            g.prompts(),
            view(g, Role::Moderator)
        ));
    }
    out
}

/// A started game with `n` decisions played (each under the lock, as a command plays).
fn played(parent: &Path, gid: &str, seed: u8, n: u64) -> PathBuf {
    let dir = new_game(parent, gid, seed);
    for k in 0..n {
        assert!(play_one(&dir, k), "the game ended early");
    }
    dir
}

/// Plays the next decision under the game's lock, as another command would.
fn play_one(dir: &Path, k: u64) -> bool {
    let (_lock, _) = Session::lock(dir).unwrap();
    let mut s = Session::open(dir).unwrap();
    let Some((side, line)) = next_line(&s, k) else {
        return false;
    };
    s.play(side, std::slice::from_ref(&line), t0())
        .unwrap_or_else(|e| panic!("`{line}` by the {side}: {e}"));
    true
}

/// A session read WITHOUT the lock, whose move is then refused at its commit because another
/// command moved meanwhile (the log changed under it), all while this process has since taken
/// the lock: the commit's error path replays the memory again (`reload`), and that replay
/// must not be stamped with the lock's tenure — its files were read before that tenure began.
/// Skipping the comparison, `reopen` would return the game without the other command's move.
#[test]
fn a_failed_commit_under_a_lock_taken_after_the_read_reopens_from_the_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "tenure-reload", 41, 6);
    let mut stale = Session::open(&dir).unwrap();
    let (side, line) = next_line(&stale, 900).unwrap();
    // Another command's move (the lock taken and released).
    assert!(play_one(&dir, 900));
    let (_lock, _) = Session::lock(&dir).unwrap();
    let err = stale
        .play(side, std::slice::from_ref(&line), t0())
        .expect_err("the log changed under the session: its commit is refused");
    assert!(err.to_string().contains("changed"), "{err}");
    let again = stale.reopen().unwrap();
    assert_eq!(
        fingerprint(&again),
        fingerprint(&fresh(&dir)),
        "reopened after a refused commit"
    );
}

/// The lock file removed while the lock is held (a clean-up script, a user tidying the
/// folder): another process then creates a new lock file, locks it and moves. This process's
/// lock is on a file no longer in the folder, so it no longer keeps others out: its tenure must
/// not stand for "nobody wrote meanwhile": skipping the comparison, `reopen` would return the
/// game without the other process's move.
#[test]
fn a_lock_file_removed_while_held_ends_the_tenure() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "tenure-unlinked", 42, 6);
    let (lock, _) = Session::lock(&dir).unwrap();
    let held = Session::open(&dir).unwrap();
    std::fs::remove_file(dir.join(".lock")).unwrap();
    // Another process: it finds no lock file, makes one and takes it.
    let (side, line) = next_line(&held, 901).unwrap();
    let d = dir.display().to_string();
    let out = run(&["play", &d, "--as", side_arg(side), &line, "--no-mail"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        fresh(&dir).log().len() > held.log().len(),
        "the other move is on disk"
    );
    let again = held.reopen().unwrap();
    assert_eq!(
        fingerprint(&again),
        fingerprint(&fresh(&dir)),
        "reopened after another process moved under a new lock file"
    );
    drop(lock);
}

/// The same with the lock file replaced by another file of the same name: the tenure ends
/// too (the lock held is not the lock file's any more).
#[test]
fn a_lock_file_replaced_while_held_ends_the_tenure() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "tenure-replaced", 43, 6);
    let (lock, _) = Session::lock(&dir).unwrap();
    let held = Session::open(&dir).unwrap();
    let lock_file = dir.join(".lock");
    std::fs::remove_file(&lock_file).unwrap();
    std::fs::write(&lock_file, b"").unwrap();
    let (side, line) = next_line(&held, 902).unwrap();
    let d = dir.display().to_string();
    let out = run(&["play", &d, "--as", side_arg(side), &line, "--no-mail"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = held.reopen().unwrap();
    assert_eq!(fingerprint(&again), fingerprint(&fresh(&dir)), "replaced");
    drop(lock);
}

/// One session carried through a whole game under one lock (one tenure) — each move played
/// on the session the last `reopen` gave, takebacks asked after moves and accepted or
/// declined, refused lines among them, the reveal at the end — and reopened after each step:
/// every reopening equals a fresh opening of the files (the replay kept from a checkpoint
/// with no entry after it, and the comparison with the disk the tenure skips).
#[test]
fn reopening_one_session_through_a_whole_game_under_one_lock_equals_fresh_openings() {
    let tmp = tempfile::tempdir().unwrap();
    for seed in [44u8, 45] {
        let dir = new_game(tmp.path(), &format!("cycle-{seed}"), seed);
        let mut lock = Some(Session::lock(&dir).unwrap().0);
        let mut s = Session::open(&dir).unwrap();
        let (mut asked, mut answered, mut refused, mut ended) = (0, 0, 0, false);
        for step in 0..400u64 {
            let what = format!("seed {seed} step {step}");
            let Some((side, line)) = next_line(&s, u64::from(seed) * 7919 + step) else {
                break;
            };
            let answer = s.pending_takeback().filter(|p| p.side != side).map(|_| {
                if answered % 2 == 0 {
                    "accept takeback"
                } else {
                    "decline takeback"
                }
            });
            let lines = vec![answer.map_or(line.clone(), str::to_string)];
            answered += usize::from(answer.is_some());
            s.play(side, &lines, t0())
                .unwrap_or_else(|e| panic!("{what}: {lines:?}: {e}"));
            if step % 5 == 0 {
                asked += usize::from(s.play(side, &["takeback".to_string()], t0()).is_ok());
            }
            if step % 7 == 0 {
                // A refused line: nothing written, the session as before.
                refused += usize::from(
                    s.play(side, &["influence Nowhere 9".to_string()], t0())
                        .is_err(),
                );
            }
            let revealed = s.is_revealed();
            s = s.reopen().unwrap();
            assert_eq!(fingerprint(&s), fingerprint(&fresh(&dir)), "{what}");
            s = s.reopen().unwrap();
            assert_eq!(fingerprint(&s), fingerprint(&fresh(&dir)), "{what}: twice");
            if revealed {
                ended = true;
                break;
            }
            // Now and then the lock let go and taken again: a new tenure.
            if step % 11 == 10 {
                drop(lock.take());
                lock = Some(Session::lock(&dir).unwrap().0);
            }
        }
        drop(lock);
        eprintln!(
            "seed {seed}: {asked} takebacks asked, {answered} answered, {refused} refused lines, revealed {ended}"
        );
        assert!(
            asked >= 3 && answered >= 2,
            "asked {asked}, answered {answered}"
        );
    }
}

/// Two sessions of one game in one process under the same lock: the second moves (and, on a
/// headline, writes the secret), then the first is reopened. The tenure is the same, but the
/// files are not what the first session read: it must be compared again, or `reopen` would
/// return the first session's replay, without the other's move.
#[test]
fn a_second_session_writing_under_the_same_lock_ends_the_firsts_tenure() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "tenure-two", 46, 6);
    let (_lock, _) = Session::lock(&dir).unwrap();
    for k in 0..12u64 {
        let first = Session::open(&dir).unwrap();
        let mut second = Session::open(&dir).unwrap();
        let (side, line) = next_line(&second, 700 + k).unwrap();
        second
            .play(side, std::slice::from_ref(&line), t0())
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
        let again = first.reopen().unwrap();
        assert_eq!(
            fingerprint(&again),
            fingerprint(&fresh(&dir)),
            "move {k} `{line}` by a second session"
        );
        // The writer's own session reopens as the files are.
        assert_eq!(
            fingerprint(&second.reopen().unwrap()),
            fingerprint(&fresh(&dir)),
            "move {k}: the writer"
        );
    }
    // The speed-up stands for a session's own writes: reopened under the same mark after its
    // own move, the files are not read again (a log moved away meanwhile is not noticed; a
    // full opening would fail on it).
    let mut own = Session::open(&dir).unwrap();
    let (side, line) = next_line(&own, 800).unwrap();
    own.play(side, std::slice::from_ref(&line), t0()).unwrap();
    let log = dir.join("log.yaml");
    std::fs::rename(&log, dir.join("log.away")).unwrap();
    let again = own.reopen();
    std::fs::rename(dir.join("log.away"), &log).unwrap();
    assert_eq!(
        fingerprint(&again.expect("reopened without reading the files")),
        fingerprint(&fresh(&dir))
    );
}
