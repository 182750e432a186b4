//! What the `twilight` binary says to a new user who does something slightly wrong: each case
//! names what is wrong and what to do instead, with the exit status of an error, and writes
//! nothing to the game; and the words of `verify` and `export` on a folder of games.

use std::path::Path;

use assert_cmd::Command;

mod game_common;
mod output_common;
use output_common::text;

fn twilight() -> Command {
    let mut c = Command::cargo_bin("twilight").unwrap();
    c.env("TWILIGHT_CONFIG", "/nonexistent/twilight-config.yaml")
        .env("TWILIGHT_CACHE_DIR", "")
        .env_remove("TWILIGHT_GAMES")
        .env_remove("TWILIGHT_SMTP_URL")
        .env_remove("TWILIGHT_FROM");
    c
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = twilight().args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn new_game(dir: &Path) {
    let d = dir.to_str().unwrap();
    let (code, out, err) = run(&[
        "new",
        d,
        "--us",
        "alice@example.org",
        "--ussr",
        "boris@example.org",
        "--no-mail",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
}

fn started(dir: &Path) {
    new_game(dir);
    let d = dir.to_str().unwrap();
    for (side, nonce) in [("us", "a"), ("ussr", "b")] {
        let (code, out, err) = run(&["join", d, "--as", side, "--nonce", nonce, "--no-mail"]);
        assert_eq!(code, Some(0), "{out}{err}");
    }
}

fn log_bytes(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("log.yaml")).unwrap()
}

/// `verify DIR` where DIR holds a sub-folder without a log.yaml, or one whose log.yaml is a
/// folder: each is named with what is wrong, the games that are there are verified, and the
/// exit status says failure.
#[test]
fn verify_names_a_sub_folder_without_a_log_and_a_log_that_is_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    started(&games.join("good"));
    std::fs::create_dir_all(games.join("stray")).unwrap();
    std::fs::write(games.join("stray/notes.txt"), "not a game").unwrap();
    std::fs::create_dir_all(games.join("broken/log.yaml")).unwrap();
    std::fs::create_dir_all(games.join(".hidden")).unwrap();
    std::fs::write(games.join("README.txt"), "a file, not a folder").unwrap();
    let (code, out, err) = run(&["verify", games.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("good: OK"), "{out}");
    let stray = format!(
        "{}: not verified: no log.yaml",
        games.join("stray").display()
    );
    assert!(out.contains(&stray), "{out}");
    let broken = format!(
        "{}: not verified: {} is a folder",
        games.join("broken").display(),
        games.join("broken/log.yaml").display()
    );
    assert!(out.contains(&broken), "{out}");
    assert!(out.contains("2 folders not verified"), "{out}");
    assert!(!out.contains(".hidden") && !out.contains("README"), "{out}");
    assert!(!err.contains("panicked"), "{err}");

    // JSON: the same, as fields.
    let (code, out, _) = run(&["verify", games.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nv = v["not_verified"].as_array().unwrap();
    assert_eq!(nv.len(), 2, "{out}");
    assert!(nv[0]["reason"].as_str().unwrap().contains("is a folder"));

    // The folder named alone, its log.yaml a folder.
    let (code, out, err) = run(&["verify", games.join("broken").to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains(&broken), "{out}{err}");
    let (code, out, err) = run(&["verify", games.join("broken/log.yaml").to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains(&broken), "{out}{err}");

    // Only clean games: success, nothing said about folders.
    std::fs::remove_dir_all(games.join("stray")).unwrap();
    std::fs::remove_dir_all(games.join("broken")).unwrap();
    let (code, out, err) = run(&["verify", games.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.contains("not verified"), "{out}");
}

/// The note `verify` gives a folder that is no game.
const NOTE: &str = "no log.yaml in this folder: not a game folder (a game whose log is missing, \
                    or a folder that does not belong among the games)";

/// `verify` on a folder of games holding a folder that is no game (a Maildir kept beside the
/// games, an empty folder) names it in one sentence, in text and JSON, with no source line's
/// indentation inside the message.
#[test]
fn a_folder_that_is_no_game_is_named_in_one_clean_sentence() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    game_common::new_game(&games, "g1", 3);
    std::fs::create_dir_all(games.join("Maildir/new")).unwrap();
    let g = games.to_str().unwrap();
    let o = game_common::run(&["verify", g]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains(NOTE), "{}", text(&o));
    assert!(!out.contains("  or a folder"), "{}", text(&o));
    let o = game_common::run(&["verify", g, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let s = v["not_verified"].to_string();
    assert!(s.contains(NOTE), "{s}");
}

/// `status` after one of the two players joined names who is awaited: the side and its address,
/// not "both players".
#[test]
fn status_names_the_side_and_address_still_awaited() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    new_game(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, _) = run(&["status", d]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains(
            "waiting for the USSR (boris@example.org) and the US (alice@example.org) to join"
        ),
        "{out}"
    );
    let (code, out, err) = run(&["join", d, "--as", "us", "--nonce", "a", "--no-mail"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run(&["status", d]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("the US (alice@example.org) has joined"),
        "{out}"
    );
    assert!(
        out.contains("waiting for the USSR (boris@example.org) to join"),
        "{out}"
    );
    assert!(out.contains("--as ussr"), "{out}");
    assert!(!out.contains("both players"), "{out}");
    let (code, out, _) = run(&["status", d, "--format", "json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["waiting_to_join"],
        serde_json::json!([{"side": "USSR", "address": "boris@example.org"}])
    );
}

/// An empty move names the side given and what a move looks like; exit 2; the log is unchanged.
#[test]
fn an_empty_move_names_the_side_and_what_a_move_looks_like() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    started(&dir);
    let d = dir.to_str().unwrap();
    let before = log_bytes(&dir);
    for (arg, name) in [("ussr", "USSR"), ("us", "US")] {
        let (code, out, err) = run(&["play", d, "--as", arg, "--no-mail", ""]);
        assert_eq!(code, Some(2), "{out}{err}");
        assert!(
            err.contains(&format!("no move given for the {name}")),
            "{err}"
        );
        assert!(err.contains(&format!("--as {arg} ")), "{err}");
        assert!(
            err.contains("influence Poland 4") && err.contains("play CARD ops"),
            "what a move looks like: {err}"
        );
        assert_eq!(log_bytes(&dir), before);
    }
}

/// `peer …` on an ordinary moderated game folder says it is not a peer game and which command
/// to use instead; exit 2, no raw error, nothing written.
#[test]
fn peer_commands_on_a_moderated_game_name_the_command_to_use() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    started(&dir);
    let d = dir.to_str().unwrap();
    let before = log_bytes(&dir);
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let m = maildir.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["peer", "status", d], "twilight status"),
        (&["peer", "moves", d], "twilight moves"),
        (&["peer", "play", d, "pass"], "twilight play"),
        (&["peer", "view", d], "twilight view"),
        (&["peer", "send", d, "--outbox"], "twilight mail"),
        (
            &["peer", "inbox", d, m, "--outbox"],
            "twilight inbox --games",
        ),
    ];
    for (args, instead) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(
            err.contains("is an ordinary (moderated) game folder, not a peer game"),
            "{args:?}: {err}"
        );
        assert!(err.contains(instead), "{args:?}: {err}");
        assert!(err.contains(d), "{args:?}: {err}");
        assert_eq!(log_bytes(&dir), before);
        assert!(!dir.join("peer.yaml").exists() && !dir.join("peer-log.yaml").exists());
    }
    // A folder that is no game at all.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = run(&["peer", "status", empty.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is not a peer game folder"), "{err}");
}

/// `export GAMES --html OUT.html` counts the game pages it writes beside the index in words:
/// "1 game page", "2 game pages".
#[test]
fn export_of_one_game_says_one_game_page() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    game_common::new_game(&games, "g1", 4);
    let out = tmp.path().join("site/index.html");
    let o = game_common::run(&[
        "export",
        games.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("and 1 game page beside it."), "{}", text(&o));
    game_common::new_game(&games, "g2", 5);
    let o = game_common::run(&[
        "export",
        games.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("and 2 game pages beside it."), "{}", text(&o));
}
