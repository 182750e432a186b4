//! The variant flags end to end: `new` records them in entry 0, `status` and `view` show them,
//! play follows them, `verify` replays under them; `selfplay --record` takes the same flags.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn twilight() -> Command {
    Command::cargo_bin("twilight").unwrap()
}

fn new_game(dir: &Path, flags: &[&str]) -> assert_cmd::assert::Assert {
    let mut args = vec![
        "new",
        dir.to_str().unwrap(),
        "--us",
        "us@example.org",
        "--ussr",
        "ussr@example.org",
    ];
    args.extend_from_slice(flags);
    twilight().args(&args).assert()
}

fn join_both(dir: &Path) {
    for (side, nonce) in [("ussr", "n1"), ("us", "n2")] {
        twilight()
            .args([
                "join",
                dir.to_str().unwrap(),
                "--as",
                side,
                "--nonce",
                nonce,
                "--no-mail",
            ])
            .assert()
            .success();
    }
}

/// The first legal move line `side` may send now (from `moves`).
fn first_move(dir: &Path, side: &str) -> String {
    let out = twilight()
        .args(["moves", dir.to_str().unwrap(), "--as", side])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("Answers"))
        .nth(1)
        .unwrap_or_else(|| panic!("no move in {text}"))
        .trim()
        .to_string()
}

fn play(dir: &Path, side: &str, line: &str) {
    twilight()
        .args([
            "play",
            dir.to_str().unwrap(),
            "--as",
            side,
            "--no-mail",
            line,
        ])
        .assert()
        .success();
}

#[test]
fn a_late_war_game_with_promos_records_shows_plays_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("lw");
    new_game(&dir, &["--scenario", "late-war", "--promos", "all"]).success();
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(log.contains("scenario: late-war"), "{log}");
    assert!(log.contains("us_bonus: 0"), "{log}");
    join_both(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args(["status", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("turn 8 · Headline Phase · VP USSR +4 · DEFCON 4"))
        .stdout(predicate::str::contains(
            "Options: Late War scenario (US needs 20 VP at the end, FAQ F186) · optional cards · promo packs 1, 2",
        ));
    twilight()
        .args(["view", d, "--as", "public"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Options: Late War scenario"));
    // Both headlines (sealed until the pair is in), then the first action round.
    let ussr = first_move(&dir, "ussr");
    assert!(ussr.starts_with("headline "), "{ussr}");
    play(&dir, "ussr", &ussr);
    let us = first_move(&dir, "us");
    play(&dir, "us", &us);
    twilight()
        .args(["verify", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("OK"));
}

#[test]
fn combinations_the_rules_exclude_are_refused_and_create_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, flags, message) in [
        (
            "a",
            &["--scenario", "late-war", "--chinese-civil-war"][..],
            "Chinese Civil War",
        ),
        (
            "b",
            &["--scenario", "late-war", "--us-bonus", "2"][..],
            "bonus",
        ),
        ("c", &["--promos", "3"][..], "no promo pack `3`"),
    ] {
        let dir = tmp.path().join(name);
        new_game(&dir, flags)
            .failure()
            .stderr(predicate::str::contains(message));
        assert!(!dir.join("log.yaml").exists(), "{name}: nothing created");
    }
}

#[test]
fn recorded_variant_games_verify_in_full() {
    // selfplay --record with the variant flags plays a sealed game to its end and reveals
    // the seed; verify re-derives every roll and deal under the recorded options.
    let tmp = tempfile::tempdir().unwrap();
    for (name, flags) in [
        ("ccw", &["--chinese-civil-war", "--promos", "all"][..]),
        ("lws", &["--scenario", "late-war", "--promos", "all"][..]),
    ] {
        let dir = tmp.path().join(name);
        let mut args = vec!["selfplay", "--seed", "3", "--record", dir.to_str().unwrap()];
        args.extend_from_slice(flags);
        twilight().args(&args).assert().success();
        twilight()
            .args(["verify", dir.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("full (seed revealed)"));
    }
}

/// The Late War scenario starts at turn 8: the dice keys of turns 1–7, never played, are logged
/// with the opening deal, so a turn-8 die is keyed by "1 + the dice keys before it"
/// (FAIRNESS.md §3.4) and a public verify of the game in progress has no finding.
#[test]
fn a_late_war_game_logs_the_keys_of_the_turns_before_its_first_at_the_deal() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("lw");
    new_game(&dir, &["--scenario", "late-war"]).success();
    join_both(&dir);
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert_eq!(log.matches("dice_key:").count(), 7, "{log}");
    twilight()
        .args(["verify", dir.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("dice checked: turns 1–7"))
        .stdout(predicate::str::contains("0 with findings"));
}
