//! One game whose files are damaged (a hand-edited or torn `mail-state.yaml`, `secret.yaml` or
//! `log.yaml`) stops only its own mail (design §9: a busy or broken game never holds up
//! another): an `inbox` run that exited 2 before any other game's mail was read would let one
//! bad game brick the mail loop of every game on the host.

use std::path::Path;
use std::process::{Command, Output};

use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::session::Session;

mod game_common;
use game_common::new_game;

fn decisions(dir: &Path) -> usize {
    Session::open(dir).unwrap().game().unwrap().decisions() as usize
}

/// Puts a reply with the next legal move of `dir`'s game into the Maildir `inbox`.
fn put_reply(inbox: &Path, dir: &Path, name: &str) {
    let s = Session::open(dir).unwrap();
    let game = s.game().unwrap();
    let prompt = game.prompts().first().cloned().unwrap();
    let answer = choose(
        game,
        prompt.side,
        Policy::Careful,
        &mut SeededChance::new(3),
    )
    .unwrap();
    let line = twilight_pbem::text::notation::format_answer(&answer, &prompt);
    let token = s.reply_token(prompt.side).unwrap();
    let from = match prompt.side {
        Side::Us => &s.players().us,
        Side::Ussr => &s.players().ussr,
    };
    let gid = s.game_id();
    let raw = format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <{name}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
    );
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    std::fs::write(inbox.join("new").join(name), raw).unwrap();
}

fn inbox(games: &Path, maildir: &Path) -> Output {
    Command::new(assert_cmd::cargo::cargo_bin("twilight"))
        .args(["inbox", "--games"])
        .arg(games)
        .arg(maildir)
        .arg("--outbox")
        .env_remove("TWILIGHT_SMTP_URL")
        .output()
        .unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A way of damaging one game's files: the file it damages, and how.
type Damage = (&'static str, fn(&Path));

/// Each way of damaging one game's files by hand.
fn damages() -> Vec<Damage> {
    vec![
        ("mail-state.yaml", |d| {
            std::fs::write(d.join("mail-state.yaml"), "garbage: [").unwrap()
        }),
        ("secret.yaml", |d| {
            std::fs::write(d.join("secret.yaml"), b"\xff\xfe").unwrap()
        }),
        ("log.yaml", |d| {
            // A doubled last entry, as a careless hand edit or a bad merge leaves it.
            let bytes = std::fs::read(d.join("log.yaml")).unwrap();
            let text = String::from_utf8(bytes).unwrap();
            let last = text.rfind("---").unwrap();
            let doubled = format!("{text}{}", &text[last..]);
            std::fs::write(d.join("log.yaml"), doubled).unwrap();
        }),
    ]
}

#[test]
fn a_game_with_damaged_files_fails_only_its_own_mail() {
    for (what, damage) in damages() {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games");
        let bad = new_game(&games, "bad", 21);
        let good = new_game(&games, "good", 22);
        let maildir = tmp.path().join("inbox");
        put_reply(&maildir, &bad, "to-bad");
        put_reply(&maildir, &good, "to-good");
        let (bad_before, good_before) = (decisions(&bad), decisions(&good));
        let original = std::fs::read(bad.join(what)).ok();
        damage(&bad);

        let out = inbox(&games, &maildir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Filed as failed (never retried forever), named with its reason.
        assert_eq!(out.status.code(), Some(19), "{what}: {stderr}");
        assert!(
            stderr.contains("to-bad") && stderr.contains(what),
            "{what}: the error names the mail and the damaged file: {stderr}"
        );
        assert_eq!(decisions(&good), good_before + 1, "{what}: the good game");
        assert!(names(&maildir.join("new")).is_empty(), "{what}");
        assert_eq!(names(&maildir.join("cur")), ["to-good:2,S"], "{what}");
        let failed = maildir.join("twilight-failed");
        assert!(failed.join("to-bad").is_file(), "{what}: kept, not lost");

        // The moderator repairs the file and puts the mail back: it is applied, exactly once.
        match original {
            Some(bytes) => std::fs::write(bad.join(what), bytes).unwrap(),
            None => std::fs::remove_file(bad.join(what)).unwrap(),
        }
        std::fs::rename(failed.join("to-bad"), maildir.join("new").join("to-bad")).unwrap();
        let out = inbox(&games, &maildir);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(decisions(&bad), bad_before + 1, "{what}: the repaired game");
        assert_eq!(decisions(&good), good_before + 1, "{what}: applied once");
        assert!(names(&maildir.join("new")).is_empty(), "{what}");
        let again = inbox(&games, &maildir);
        assert_eq!(again.status.code(), Some(0), "{what}");
        assert_eq!(decisions(&bad), bad_before + 1, "{what}: still once");
    }
}
