//! A mail whose move `inbox` applied (committed to the log) but could not file afterwards (move
//! it from the Maildir's `new/` to `cur/`, or write an `.eml` file's note): the game's mail
//! state knows the very file it applied, and the next run files it quietly — no refusal
//! "replayed" for a move that went through, nothing applied or mailed again. The same mail in
//! another file (a second delivery) is filed quietly as well.

mod output_common;
use output_common::text;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use twilight_pbem::data::Side;
use twilight_pbem::session::Session;

mod game_common;
use game_common::{bin, new_game, next_line};

fn decisions(dir: &Path) -> u64 {
    Session::open(dir).unwrap().game().unwrap().decisions()
}

/// A reply to game `dir` with a legal move and the current token, as `name` in `folder`.
fn reply(dir: &Path, name: &str) -> Vec<u8> {
    let s = Session::open(dir).unwrap();
    let gid = s.game_id().to_string();
    let (side, line) = next_line(&s, 7).unwrap();
    let token = s.reply_token(side).unwrap();
    let from = match side {
        Side::Us => &s.players().us,
        Side::Ussr => &s.players().ussr,
    };
    format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <{name}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
    )
    .into_bytes()
}

fn inbox(games: &Path, source: &Path) -> Output {
    Command::new(bin())
        .args(["inbox", "--games"])
        .arg(games)
        .arg(source)
        .arg("--outbox")
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_LOCK_WAIT_SECS", "60")
        .output()
        .unwrap()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_maildir_mail_applied_but_not_filed_is_filed_by_the_next_run_without_a_refusal() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "unfiled", 31);
    let maildir = tmp.path().join("inbox");
    for sub in ["new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    // A file where `cur/` should be: filing fails (whoever runs the test, root included).
    std::fs::write(maildir.join("cur"), b"in the way").unwrap();
    let raw = reply(&dir, "m1");
    std::fs::write(maildir.join("new").join("m1"), &raw).unwrap();
    let before = decisions(&dir);

    let first = inbox(&games, &maildir);
    assert!(
        String::from_utf8_lossy(&first.stderr).contains("could not be filed"),
        "{}",
        text(&first)
    );
    assert_eq!(decisions(&dir), before + 1, "the move went through");
    assert!(
        maildir.join("new").join("m1").is_file(),
        "the mail stayed unfiled"
    );
    let outbox = files(&dir.join("outbox"));

    // The moderator clears the way; the next run files the mail, and only files it.
    std::fs::remove_file(maildir.join("cur")).unwrap();
    std::fs::create_dir(maildir.join("cur")).unwrap();
    let second = inbox(&games, &maildir);
    let out = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));
    assert!(!out.contains("refused ("), "{}", text(&second));
    assert!(out.contains("already applied"), "{}", text(&second));
    assert!(
        out.contains("0 refused") && out.contains("0 mails"),
        "{}",
        text(&second)
    );
    assert_eq!(decisions(&dir), before + 1, "applied once");
    assert_eq!(files(&dir.join("outbox")), outbox, "nothing mailed again");
    assert!(files(&maildir.join("new")).is_empty());
    assert_eq!(
        files(&maildir.join("cur")),
        [maildir.join("cur").join("m1:2,S")],
        "filed as applied"
    );
    assert!(!maildir.join("twilight-refused").exists());

    // The same mail delivered again, in another file: its move stands, so it is filed
    // quietly too, never answered as refused.
    std::fs::write(maildir.join("new").join("m1-again"), &raw).unwrap();
    let third = inbox(&games, &maildir);
    let out = String::from_utf8_lossy(&third.stdout);
    assert!(!out.contains("refused ("), "{}", text(&third));
    assert!(out.contains("already applied"), "{}", text(&third));
    assert_eq!(files(&dir.join("outbox")), outbox, "nothing mailed");
    assert_eq!(decisions(&dir), before + 1);
}

#[cfg(unix)]
#[test]
fn an_eml_mail_applied_but_not_noted_is_noted_by_the_next_run_without_a_refusal() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "unnoted", 32);
    let mails = tmp.path().join("mails");
    std::fs::create_dir(&mails).unwrap();
    let eml = mails.join("m1.eml");
    std::fs::write(&eml, reply(&dir, "e1")).unwrap();
    // A link where the note `m1.eml.accepted` should be written, to a folder that does not
    // exist: the mail is not seen as processed (the note does not exist), and the note cannot
    // be written.
    let note = mails.join("m1.eml.accepted");
    std::os::unix::fs::symlink(tmp.path().join("no-such-folder").join("note"), &note).unwrap();
    let before = decisions(&dir);

    let first = inbox(&games, &eml);
    assert!(
        String::from_utf8_lossy(&first.stderr).contains("could not be filed"),
        "{}",
        text(&first)
    );
    assert_eq!(decisions(&dir), before + 1);
    std::fs::remove_file(&note).unwrap();
    let outbox = files(&dir.join("outbox"));

    let second = inbox(&games, &eml);
    let out = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));
    assert!(!out.contains("refused ("), "{}", text(&second));
    assert!(out.contains("already applied"), "{}", text(&second));
    assert_eq!(decisions(&dir), before + 1);
    assert_eq!(files(&dir.join("outbox")), outbox, "nothing mailed again");
    assert!(note.is_file(), "the note is written now");
}
