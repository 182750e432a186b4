//! `twilight peer inbox` and `twilight peer status` end by naming the command that draws the
//! board as a picture (`twilight peer view DIR --format png --out board.png`), with the game
//! folder as typed; the line printed runs as it is and writes a PNG.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn twilight() -> Command {
    let mut c = Command::cargo_bin("twilight").unwrap();
    c.env_remove("TWILIGHT_SMTP_URL").env_remove("TWILIGHT_KEY");
    c
}

fn run(args: &[&std::ffi::OsStr], cwd: &Path) -> String {
    let o = twilight().args(args).current_dir(cwd).output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(0), "twilight {args:?}:\n{said}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn maildir(root: &Path, name: &str) -> PathBuf {
    let m = root.join(name);
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(m.join(sub)).unwrap();
    }
    m
}

/// Copies every outbox mail of `game` not yet delivered into the Maildir `to` (new/).
fn relay(game: &Path, to: &Path, sent: &mut HashSet<PathBuf>) -> usize {
    let mut n = 0;
    let Ok(dir) = std::fs::read_dir(game.join("outbox")) else {
        return 0;
    };
    let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
    files.sort_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap());
    for p in files {
        if p.extension().is_some_and(|x| x == "eml") && sent.insert(p.clone()) {
            let name = format!(
                "{:06}-{}",
                sent.len(),
                p.file_name().unwrap().to_string_lossy()
            );
            std::fs::copy(&p, to.join("new").join(name)).unwrap();
            n += 1;
        }
    }
    n
}

/// The last line `said` printed: the picture's command, for the folder `dir` as typed.
fn ends_with_the_picture_line(said: &str, dir: &str, what: &str) -> String {
    let last = said
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let want = format!("twilight peer view {dir} --format png --out board.png");
    assert!(
        last.ends_with(&want),
        "{what} ends with the picture's command `{want}`:\n{said}"
    );
    want
}

#[test]
fn peer_inbox_and_status_end_with_the_command_that_draws_the_board() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for k in ["a.key", "b.key"] {
        run(&[os("keygen"), os("--out"), os(k)], root);
    }
    let us_mail = maildir(root, "us-Maildir");
    let ussr_mail = maildir(root, "ussr-Maildir");
    run(
        &[
            os("new"),
            os("us-game"),
            os("--peer"),
            os("--as"),
            os("us"),
            os("--me"),
            os("us@example.org"),
            os("--opponent"),
            os("ussr@example.org"),
            os("--key"),
            os("a.key"),
        ],
        root,
    );
    let mut sent = HashSet::new();
    assert_eq!(relay(&root.join("us-game"), &ussr_mail, &mut sent), 1);
    let invite = std::fs::read_dir(ussr_mail.join("new"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    run(
        &[
            os("join"),
            os("ussr-game"),
            os("--peer"),
            os("--from-mail"),
            invite.as_os_str(),
            os("--key"),
            os("b.key"),
        ],
        root,
    );
    // The join's mail reaches the US: the game has begun for both.
    relay(&root.join("ussr-game"), &us_mail, &mut sent);
    let said = run(
        &[os("peer"), os("inbox"), os("us-game"), os("us-Maildir")],
        root,
    );
    ends_with_the_picture_line(&said, "us-game", "peer inbox");
    let said = run(&[os("peer"), os("status"), os("ussr-game")], root);
    let cmd = ends_with_the_picture_line(&said, "ussr-game", "peer status");
    // The line runs as printed.
    let words: Vec<&str> = cmd.split(' ').skip(1).collect();
    let args: Vec<&std::ffi::OsStr> = words.iter().map(|w| os(w)).collect();
    run(&args, root);
    let png = std::fs::read(root.join("board.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    // A folder named with a space is quoted, so the line still runs as printed.
    let spaced = root.join("my games");
    std::fs::create_dir(&spaced).unwrap();
    std::fs::rename(root.join("ussr-game"), spaced.join("ussr game")).unwrap();
    let said = run(&[os("peer"), os("status"), os("my games/ussr game")], root);
    ends_with_the_picture_line(&said, "'my games/ussr game'", "peer status");
}
