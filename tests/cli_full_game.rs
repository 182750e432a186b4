//! A complete game through the binary only: `new`, `join`, then `moves` and `play` for
//! whichever side is owed a decision, each move picked from the `moves` listing, until the game
//! ends; then `reveal` and a full `verify`.

use std::path::Path;

use assert_cmd::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("twilight")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, out, err) = run(args);
    assert!(success, "twilight {args:?} failed:\n{out}\n{err}");
    out
}

/// A small linear congruential generator, so the test needs no crate for its choices.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn waiting_side(status: &str) -> Option<&'static str> {
    status.lines().find_map(|l| {
        if l.starts_with("Waiting for USSR:") {
            Some("ussr")
        } else if l.starts_with("Waiting for US:") {
            Some("us")
        } else {
            None
        }
    })
}

fn play_to_the_end(dir: &Path, seed: u64) -> (usize, String) {
    let d = dir.to_str().unwrap();
    ok(&[
        "new",
        d,
        "--us",
        "us@example.org",
        "--ussr",
        "ussr@example.org",
    ]);
    ok(&[
        "join",
        d,
        "--as",
        "ussr",
        "--nonce",
        &format!("ussr-{seed}"),
        "--no-mail",
    ]);
    ok(&[
        "join",
        d,
        "--as",
        "us",
        "--nonce",
        &format!("us-{seed}"),
        "--no-mail",
    ]);
    let mut rng = Lcg(seed);
    for decision in 0..3000 {
        let status = ok(&["status", d]);
        if status.contains("Game over") {
            return (decision, status);
        }
        let side =
            waiting_side(&status).unwrap_or_else(|| panic!("nobody owes a decision:\n{status}"));
        let moves = ok(&["moves", d, "--as", side]);
        let options: Vec<&str> = moves
            .lines()
            .filter_map(|l| l.strip_prefix("    "))
            .collect();
        assert!(!options.is_empty(), "no move listed:\n{moves}");
        let pick = options[rng.below(options.len())];
        let (success, out, err) = run(&["play", d, "--as", side, "--no-mail", pick]);
        assert!(success, "decision {decision}: `{pick}` from the listing was refused:\n{out}\n{err}\nlisting:\n{moves}");
    }
    panic!("the game did not end within 3000 decisions");
}

#[test]
fn a_complete_game_through_the_binary_reveals_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("full");
    let (decisions, status) = play_to_the_end(&dir, 2026);
    eprintln!(
        "binary game: {decisions} decisions; {}",
        status
            .lines()
            .find(|l| l.contains("Game over"))
            .unwrap_or("")
    );
    assert!(
        decisions > 10,
        "a game takes more than setup: {decisions}\n{status}"
    );
    let d = dir.to_str().unwrap();
    ok(&["reveal", d]);
    let out = ok(&["verify", d]);
    assert!(
        out.contains("OK") && out.contains("full (seed revealed)"),
        "{out}"
    );
    // The log names the decisions the players made, in the notation.
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(log.contains("notation: play "), "action rounds were played");
}
