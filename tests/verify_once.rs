//! `verify` reads, hashes and parses a log once: the checks of the chain a second reading would
//! make are made from the one reading.

use std::path::PathBuf;

use twilight_pbem::archive::verify_game;
use twilight_pbem::log::{verify_chain, Hex32};

fn complete_game_copy() -> (tempfile::TempDir, PathBuf) {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(src.join("log.yaml"), dir.join("log.yaml")).unwrap();
    (tmp, dir)
}

#[test]
fn verify_checks_the_receipt_head_from_the_single_reading() {
    let (_tmp, dir) = complete_game_copy();
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    let head = verify_chain(&bytes, None).head();
    let clean = verify_game(&dir, Some(&head));
    assert!(clean.findings.is_empty(), "{:?}", clean.findings);
    assert!(clean.outcome.is_some(), "the replay ran on the one parse");
    let wrong = verify_game(&dir, Some(&Hex32::ZERO));
    assert_eq!(wrong.findings.len(), 1, "{:?}", wrong.findings);
    assert!(wrong.outcome.is_none(), "no replay after a chain finding");
}

#[test]
fn verify_reports_a_changed_byte_and_an_empty_file() {
    let (_tmp, dir) = complete_game_copy();
    let path = dir.join("log.yaml");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes[at] = if bytes[at] == b'a' { b'b' } else { b'a' };
    std::fs::write(&path, &bytes).unwrap();
    let r = verify_game(&dir, None);
    assert!(!r.findings.is_empty());
    std::fs::write(&path, b"").unwrap();
    let r = verify_game(&dir, None);
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    assert!(r.players.is_none());
}

#[test]
fn verify_of_many_games_piped_shows_no_progress_bar() {
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let out = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["verify", "--jobs", "2"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("games verified"));
}
