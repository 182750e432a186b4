//! The `twilight` binary end to end: create, join, play, refusals, verify.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn twilight() -> Command {
    Command::cargo_bin("twilight").unwrap()
}

/// A game in `dir` after both joins, ready for the USSR's setup placement.
fn started(dir: &Path) {
    twilight()
        .args([
            "new",
            dir.to_str().unwrap(),
            "--us",
            "us@example.org",
            "--ussr",
            "ussr@example.org",
        ])
        .assert()
        .success();
    twilight()
        .args([
            "join",
            dir.to_str().unwrap(),
            "--as",
            "ussr",
            "--nonce",
            "n1",
        ])
        .assert()
        .success();
    twilight()
        .args(["join", dir.to_str().unwrap(), "--as", "us", "--nonce", "n2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Waiting for USSR: USSR setup: place 6 Influence in Eastern Europe",
        ));
}

fn log_bytes(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("log.yaml")).unwrap()
}

fn refused(dir: &Path, side: &str, moves: &[&str], message: &str) {
    let before = log_bytes(dir);
    let mut args = vec!["play", dir.to_str().unwrap(), "--as", side];
    args.extend_from_slice(moves);
    twilight()
        .args(&args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(message));
    assert_eq!(log_bytes(dir), before, "a refused move appends nothing");
}

#[test]
fn setup_moves_are_accepted_and_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    started(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args([
            "play",
            d,
            "--as",
            "ussr",
            "influence Poland 4, E Germany 1, Hungary 1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "accepted: influence Poland 4, East Germany 1, Hungary 1",
        ));
    // The text board names the setup and who owes it, not a phasing player ("Setup · phasing
    // USSR" while the US owes its placement would mislead).
    twilight()
        .args(["view", d, "--as", "public"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Turn 1 · Setup · US to place initial Influence\n",
        ));
    twilight()
        .args([
            "play",
            d,
            "--as",
            "us",
            "influence W Germany 4, Italy 2, France 1",
            "influence west germany 1, Iran 1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Waiting for US: US: choose your headline card",
        ));
    twilight().args(["verify", d]).assert().success().stdout(
        predicate::str::contains("OK").and(predicate::str::contains("3 decisions checked")),
    );
    // The public view shows Influence but no hand.
    twilight()
        .args(["view", d, "--as", "public"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("West Germany")
                .and(predicate::str::contains("Your hand").not()),
        );
}

#[test]
fn unknown_country_is_refused_with_suggestions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    refused(
        &dir,
        "ussr",
        &["influence Polland 6"],
        "unknown country `Polland`; did you mean Poland",
    );
}

#[test]
fn unknown_card_is_refused_with_suggestions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args(["play", d, "--as", "ussr", "influence Poland 6"])
        .assert()
        .success();
    twilight()
        .args([
            "play",
            d,
            "--as",
            "us",
            "influence Italy 7",
            "influence Italy 2",
        ])
        .assert()
        .success();
    refused(
        &dir,
        "ussr",
        &["headline Duk and Cover"],
        "unknown card `Duk and Cover`; did you mean Duck and Cover (#4)",
    );
}

#[test]
fn ambiguous_prefix_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    refused(
        &dir,
        "ussr",
        &["influence Korea 6"],
        "`Korea` is ambiguous: it could be South Korea, North Korea",
    );
}

#[test]
fn wrong_player_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    refused(
        &dir,
        "us",
        &["influence Italy 7"],
        "it is not the US's decision now; waiting for USSR",
    );
}

#[test]
fn illegal_placement_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    // Italy is in Western Europe, not Eastern Europe.
    refused(
        &dir,
        "ussr",
        &["influence Poland 5, Italy 1"],
        "cannot place Influence in Italy here",
    );
    // Five is not six (FAQ F001).
    refused(
        &dir,
        "ussr",
        &["influence Poland 5"],
        "place exactly 6 Influence, not 5",
    );
}

#[test]
fn card_not_in_hand_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args(["play", d, "--as", "ussr", "influence Poland 6"])
        .assert()
        .success();
    twilight()
        .args([
            "play",
            d,
            "--as",
            "us",
            "influence Italy 7",
            "influence Italy 2",
        ])
        .assert()
        .success();
    // The China Card is never in a hand, and cannot be headlined (FAQ F043, F147).
    refused(
        &dir,
        "ussr",
        &["headline China"],
        "the China Card cannot be headlined",
    );
    // 110 AWACS is a Late War card: in nobody's hand on turn 1.
    refused(
        &dir,
        "ussr",
        &["headline AWACS"],
        "AWACS Sale to Saudis is not in the USSR hand",
    );
}

#[test]
fn malformed_batch_stops_at_the_first_refused_move() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    refused(&dir, "ussr", &["play"], "say how the card is played");
    let d = dir.to_str().unwrap();
    twilight()
        .args(["play", d, "--as", "ussr", "influence Poland 6"])
        .assert()
        .success();
    let before = log_bytes(&dir);
    // The first move is applied; the second is refused; the third is never tried.
    twilight()
        .args([
            "play",
            d,
            "--as",
            "us",
            "influence Italy 7",
            "influence Poland 2",
            "influence Italy 2",
        ])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("accepted: influence Italy 7")
                .and(predicate::str::contains("Italy 2").not()),
        )
        .stderr(predicate::str::contains(
            "cannot place Influence in Poland here",
        ));
    let after = log_bytes(&dir);
    assert!(
        after.len() > before.len(),
        "the first move of the batch was applied"
    );
    twilight()
        .args(["status", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("US bonus: place 2 Influence"));
}

#[test]
fn verify_reports_a_tampered_log() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args(["play", d, "--as", "ussr", "influence Poland 6"])
        .assert()
        .success();
    let text = String::from_utf8(log_bytes(&dir)).unwrap();
    std::fs::write(dir.join("log.yaml"), text.replace("- 6", "- 7")).unwrap();
    twilight()
        .args(["verify", d])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("finding"));
}

/// A test game recorded by `selfplay` (test seed 2, the careful policy, 32 decisions): turn 2,
/// USSR action round 1, DEFCON 4, the USSR holding De Gaulle Leads France (3 Ops).
fn recorded_at_defcon_4(tmp: &Path) -> std::path::PathBuf {
    let dir = tmp.join("example");
    twilight()
        .args([
            "selfplay",
            "--careful",
            "--seed",
            "2",
            "--stop-after",
            "32",
            "--record",
        ])
        .arg(&dir)
        .assert()
        .success();
    dir
}

#[test]
fn coup_barred_by_defcon_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = recorded_at_defcon_4(tmp.path());
    let d = dir.to_str().unwrap();
    twilight().args(["status", d]).assert().success().stdout(
        predicate::str::contains("DEFCON 4").and(predicate::str::contains(
            "Waiting for USSR: USSR action round 1",
        )),
    );
    let before = log_bytes(&dir);
    twilight()
        .args([
            "play",
            d,
            "--as",
            "ussr",
            "--no-mail",
            "play De Gaulle Leads France ops",
            "coup UK",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "coups and realignments in Europe are barred at DEFCON 4 (FAQ F130)",
        ));
    // The card play before the refused coup stands; the coup appended nothing.
    let after = log_bytes(&dir);
    assert!(after.len() > before.len());
    assert!(!String::from_utf8(after).unwrap().contains("coup: uk"));
    twilight()
        .args(["status", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("USSR: use 3 Operations points"));
}

#[test]
fn a_line_is_refused_whole() {
    // `play CARD ops influence …` is one move as the player meant it: a misspelt country in
    // its second half refuses the whole line, and the card stays in hand (nothing appended).
    let tmp = tempfile::tempdir().unwrap();
    let dir = recorded_at_defcon_4(tmp.path());
    refused(
        &dir,
        "ussr",
        &["play De Gaulle Leads France ops influence Polnd 1"],
        "unknown country `Polnd`; did you mean Poland",
    );
    refused(
        &dir,
        "ussr",
        &["play De Gaulle Leads France ops realign Iran, Iran, Iran, Iran"],
        "",
    );
}

#[test]
fn new_refuses_what_would_break_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("g");
    let d = d.to_str().unwrap();
    twilight()
        .args(["new", d, "--us", "notanemail", "--ussr", "b@example.org"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the US address `notanemail` is not an e-mail address",
        ));
    twilight()
        .args(["new", d, "--us", "a@example.org", "--ussr", "A@example.org"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("two different addresses"));
    let bad = tmp.path().join("bad name");
    twilight()
        .args([
            "new",
            bad.to_str().unwrap(),
            "--us",
            "a@example.org",
            "--ussr",
            "b@example.org",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("letters, digits"));
    assert!(!tmp.path().join("g").join("log.yaml").exists());
}

#[test]
fn moderator_commands_need_the_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    std::fs::remove_file(dir.join("secret.yaml")).unwrap();
    let d = dir.to_str().unwrap();
    for args in [
        vec!["moves", d, "--as", "ussr"],
        vec!["view", d, "--as", "ussr"],
        vec!["mail", d],
    ] {
        twilight()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "this needs the moderator's secret",
            ));
    }
    twilight()
        .args(["view", d, "--as", "public"])
        .assert()
        .success();
}

/// What the public `verify` shows must be what the log holds: once the USSR's first headline is
/// sealed (a `headline` commitment with no decision after it), it owes nothing more.
#[test]
fn verify_shows_a_sealed_first_headline() {
    let tmp = tempfile::tempdir().unwrap();
    // The first recorded position (by decisions made) that stands at a headline phase with
    // both headlines owed: it does not depend on how many decisions a setup takes.
    let dir = (15..120)
        .find_map(|n: u32| {
            let dir = tmp.path().join(format!("g{n}"));
            let d = dir.to_str().unwrap();
            twilight()
                .args(["selfplay", "--seed", "7", "--stop-after"])
                .arg(n.to_string())
                .args(["--record", d])
                .assert()
                .success();
            let out = twilight().args(["verify", d]).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            (text.contains("headline phase") && text.contains("(waiting for USSR and US)"))
                .then_some(dir)
        })
        .expect("a recorded position at a headline phase");
    let d = dir.to_str().unwrap();
    let moves = twilight()
        .args(["moves", "--as", "ussr", d])
        .output()
        .unwrap();
    let moves = String::from_utf8(moves.stdout).unwrap();
    let headline = moves
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("headline "))
        .expect("a headline answer");
    twilight()
        .args(["play", "--no-mail", "--as", "ussr", d, headline])
        .assert()
        .success();
    twilight()
        .args(["verify", d])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "(USSR headline sealed; waiting for US)",
        ));
}

/// `verify` says where a game stands as `status` does: during the setup placements it is the
/// setup, not the headline phase.
#[test]
fn verify_calls_the_setup_the_setup_as_status_does() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("g1");
    let d = d.to_str().unwrap();
    let ok = |args: &[&str]| {
        let o = twilight().args(args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    ok(&[
        "new",
        d,
        "--us",
        "a@ts.test",
        "--ussr",
        "b@ts.test",
        "--no-mail",
    ]);
    ok(&["join", d, "--as", "us", "--nonce", "a", "--no-mail"]);
    ok(&["join", d, "--as", "ussr", "--nonce", "b", "--no-mail"]);
    assert!(ok(&["status", d]).contains("· Setup ·"));
    let v = ok(&["verify", d]);
    assert!(v.contains("turn 1, setup, DEFCON 5"), "{v}");
    assert!(!v.contains("headline phase"), "{v}");
}

/// `play` with an empty move is a usage error that says so, and writes nothing (not an exit 0
/// that prints the status).
#[test]
fn play_with_an_empty_move_says_no_move_was_given() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("g1");
    let d = d.to_str().unwrap();
    for args in [
        &[
            "new",
            d,
            "--us",
            "a@ts.test",
            "--ussr",
            "b@ts.test",
            "--no-mail",
        ][..],
        &["join", d, "--as", "us", "--nonce", "a", "--no-mail"],
        &["join", d, "--as", "ussr", "--nonce", "b", "--no-mail"],
    ] {
        assert!(twilight().args(args).output().unwrap().status.success());
    }
    let before = std::fs::read(tmp.path().join("g1/log.yaml")).unwrap();
    let o = twilight()
        .args(["play", d, "--as", "ussr", "--no-mail", "  "])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no move given"));
    assert_eq!(
        std::fs::read(tmp.path().join("g1/log.yaml")).unwrap(),
        before
    );
}

/// `mail` says where each mail went: with `--outbox`, the file it wrote, which exists.
#[test]
fn mail_names_the_outbox_file_of_each_mail_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    let out = twilight()
        .args(["mail", dir.to_str().unwrap(), "--outbox"])
        .env_remove("TWILIGHT_SMTP_URL")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("mailed "))
        .collect();
    assert!(!lines.is_empty(), "{stdout}");
    for l in lines {
        let file = l
            .split(" — outbox file ")
            .nth(1)
            .unwrap_or_else(|| panic!("no outbox file named: {l}"));
        assert!(Path::new(file).is_file(), "{file}");
        assert!(file.ends_with(".eml"), "{file}");
    }
}

/// A folder of games holding one game gets its standings table; the game folder named alone
/// does not (a league folder's first game shows its standings).
#[test]
fn verify_of_a_folder_with_one_game_prints_its_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let league = tmp.path().join("league");
    let game = league.join("g1");
    std::fs::create_dir_all(&game).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
    std::fs::copy(src.join("log.yaml"), game.join("log.yaml")).unwrap();
    let out = twilight().arg("verify").arg(&league).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("\nStandings (win 1"), "{stdout}");
    // The bundled complete game is a US win (Final Scoring).
    let us = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("us@example.org"))
        .unwrap_or_else(|| panic!("no US row in\n{stdout}"));
    let cols: Vec<&str> = us.split_whitespace().collect();
    assert_eq!(&cols[1..4], &["1", "1", "0"], "games, won, drew: {us}");
    let out = twilight().arg("verify").arg(&game).output().unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8(out.stdout).unwrap().contains("Standings"));
}

/// `--as` in the letter case the mails write the sides in (`you are the USSR`): `--as USSR` is
/// read, not refused by the command line ("invalid value 'USSR'").
#[test]
fn the_side_is_read_in_any_letter_case() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    started(&dir);
    let d = dir.to_str().unwrap();
    twilight()
        .args(["moves", d, "--as", "USSR"])
        .assert()
        .success()
        .stdout(predicate::str::contains("USSR setup: place 6 Influence"));
    twilight()
        .args(["view", d, "--as", "Public"])
        .assert()
        .success();
    twilight()
        .args([
            "play",
            d,
            "--as",
            "Ussr",
            "--no-mail",
            "influence Poland 4, E Germany 1, Hungary 1",
        ])
        .assert()
        .success();
}

/// A game named as `.` from inside its folder (or `..` from below it) is the folder's game:
/// its id is the folder's name, not the path's last part (empty for `.`, so `status .` would
/// print " · turn 1 …" and `mail .` send prompts tagged `[TS ]`, whose replies no `inbox`
/// could route).
#[test]
fn a_game_named_as_dot_from_inside_its_folder_keeps_its_id() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    started(&dir);
    twilight()
        .current_dir(&dir)
        .args(["status", "."])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("g1 · "));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    twilight()
        .current_dir(dir.join("sub"))
        .args(["status", ".."])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("g1 · "));
    twilight()
        .current_dir(&dir)
        .args(["mail", ".", "--outbox"])
        .assert()
        .success()
        .stdout(predicate::str::contains("[TS g1] Setup"));
}
