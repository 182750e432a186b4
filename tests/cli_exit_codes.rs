//! The README's exit codes for refused moves that are not decisions of the game (a takeback,
//! a leave, a standing order: 1, like any refused move; 2 stays for usage and file errors),
//! and a refused move inside a line of several named as the move refused (not the whole line,
//! nor an earlier move of it).

use std::path::Path;

use assert_cmd::Command;

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec![args[0], dir.to_str().unwrap()];
    all.extend_from_slice(&args[1..]);
    let o = Command::cargo_bin("twilight")
        .unwrap()
        .env("TWILIGHT_NOW", "2027-01-04T12:00:00Z")
        .env_remove("TWILIGHT_SMTP_URL")
        .args(&all)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn started(dir: &Path) {
    let (code, err) = run(dir, &["new", "--us", "a@ts.test", "--ussr", "b@ts.test"]);
    assert_eq!(code, Some(0), "{err}");
    for (side, nonce) in [("ussr", "x"), ("us", "y")] {
        let (code, err) = run(dir, &["join", "--as", side, "--nonce", nonce, "--no-mail"]);
        assert_eq!(code, Some(0), "{err}");
    }
}

/// Refused, exit 1, with `message` on stderr, the log as it was.
fn refused(dir: &Path, args: &[&str], message: &str) {
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    let (code, err) = run(dir, args);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert!(err.contains(message), "{err}");
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
}

#[test]
fn refused_takebacks_leaves_and_standing_orders_exit_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    refused(
        &dir,
        &["play", "--as", "ussr", "takeback", "--no-mail"],
        "`takeback` refused:",
    );
    refused(
        &dir,
        &["play", "--as", "us", "accept takeback", "--no-mail"],
        "`accept takeback` refused: the USSR has asked for no takeback",
    );
    refused(
        &dir,
        &[
            "leave",
            "--as",
            "us",
            "--from",
            "2027-01-04",
            "--to",
            "2027-01-05",
            "--no-mail",
        ],
        "a leave starts the next day at the earliest",
    );
    refused(
        &dir,
        &["play", "--as", "us", "if Duck and Cover: yes", "--no-mail"],
        "no standing order for that decision",
    );
    refused(
        &dir,
        &["play", "--as", "us", "cancel order 3", "--no-mail"],
        "`cancel order 3` refused: entry 3 is no standing order",
    );
    // A usage error is still 2.
    let (code, _) = run(&dir, &["play", "--as", "nobody", "pass"]);
    assert_eq!(code, Some(2));
}

#[test]
fn a_refused_move_in_a_line_of_several_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    // The first move is the USSR's setup; the second is not the USSR's to make.
    refused(
        &dir,
        &[
            "play",
            "--as",
            "ussr",
            "influence Poland 4, East Germany 1, Hungary 1; influence Poland 1",
            "--no-mail",
        ],
        "`influence Poland 1` refused: it is not the USSR's decision now; waiting for US (in the line `influence Poland 4, East Germany 1, Hungary 1; influence Poland 1`: nothing of it was applied)",
    );
}

/// A move on a finished game is a refused move (exit 1, as the same line by mail is refused
/// as illegal), not a usage error (exit 2).
#[test]
fn a_move_on_a_finished_game_is_refused_with_exit_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    refused(
        &dir,
        &["play", "--as", "us", "Duck and Cover event", "--no-mail"],
        "the game is closed: its seed has been revealed",
    );
}

/// `verify --head HASH` names one game's receipt head: over more than one game it is a usage
/// error (exit 2) that says to name the one game, rather than every other game of the folder
/// reported with a finding ("receipt head not in the log: … the entry the receipt named was
/// changed"), as if tampered with, and `verify` exiting 1.
#[test]
fn verify_head_over_several_games_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    started(&a);
    started(&b);
    let head = twilight_pbem::session::Session::open(&a)
        .unwrap()
        .log()
        .head()
        .to_string();
    let (code, err) = run(tmp.path(), &["verify", "--head", &head]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--head") && err.contains("one game"), "{err}");
    // On its own game it is checked as before.
    let (code, err) = run(&a, &["verify", "--head", &head]);
    assert_eq!(code, Some(0), "{err}");
}

/// `status`, `moves` and `verify` print facts, not a picture: `--format png` or `svg` is a
/// usage error (exit 2, naming the values they take), never JSON with exit 0.
#[test]
fn a_picture_format_for_facts_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    started(&dir);
    for (cmd, format) in [
        ("status", "png"),
        ("status", "svg"),
        ("verify", "svg"),
        ("verify", "png"),
        ("moves", "png"),
    ] {
        let mut args = vec![cmd, "--format", format];
        if cmd == "moves" {
            args.extend(["--as", "ussr"]);
        }
        let o = Command::cargo_bin("twilight")
            .unwrap()
            .arg(args[0])
            .arg(&dir)
            .args(&args[1..])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd} --format {format}: {err}");
        assert!(
            o.stdout.is_empty(),
            "{cmd} --format {format} printed something"
        );
        assert!(
            err.contains(&format!("invalid value '{format}'")) && err.contains("text, yaml, json"),
            "{cmd} --format {format}: {err}"
        );
    }
    // `view` still draws the picture.
    let o = Command::cargo_bin("twilight")
        .unwrap()
        .arg("view")
        .arg(&dir)
        .args(["--as", "public", "--format", "svg"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("<svg"));
}
