//! A game whose lock another process holds never holds up another game's mail: `inbox` tries a
//! game's lock and never waits for it, puts the busy game's mail off, and tries it again later
//! in the same run, in its order; what is still busy at the end stays in `new/` for the next
//! run, and the run says so. (The lock is held here by the test process: `flock` locks of two
//! processes exclude each other.)

#![cfg(unix)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use twilight_pbem::session::Session;

mod game_common;
use game_common::{bin, maildir, new_game, next_line};

/// A reply to the game in `dir` (as it stands in `state`, a copy, if given) answering its
/// first prompt with a legal move, put in the Maildir `inbox` as `name`.
fn put_reply(inbox: &Path, dir: &Path, state: Option<&Path>, name: &str) {
    let s = Session::open(state.unwrap_or(dir)).unwrap();
    let gid = s.game_id().to_string();
    let (side, line) = next_line(&s, 3).unwrap();
    let token = s.reply_token(side).unwrap();
    let from = match side {
        twilight_pbem::data::Side::Us => &s.players().us,
        twilight_pbem::data::Side::Ussr => &s.players().ussr,
    };
    let raw = format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <{name}@ts.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
    );
    std::fs::write(inbox.join("tmp").join(name), raw).unwrap();
    std::fs::rename(inbox.join("tmp").join(name), inbox.join("new").join(name)).unwrap();
}

/// A copy of the game in `dir` after its next move (the one [`put_reply`] sends), to write the
/// reply after it.
fn after_next_move(dir: &Path, to: &Path) -> PathBuf {
    let copy = to.join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(dir.join(f), copy.join(f)).unwrap();
    }
    let mut s = Session::open(&copy).unwrap();
    let (side, line) = next_line(&s, 3).unwrap();
    s.play(side, &[line], game_common::t0()).unwrap();
    copy
}

/// The game's lock file, taken as another command takes it.
fn hold_lock(dir: &Path) -> File {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".lock"))
        .unwrap();
    f.lock().unwrap();
    f
}

fn inbox(games: &Path, md: &Path, wait_secs: &str) -> Child {
    std::process::Command::new(bin())
        .args(["inbox", "--games"])
        .arg(games)
        .arg(md)
        .arg("--outbox")
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_LOCK_WAIT_SECS", wait_secs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn decisions(dir: &Path) -> u64 {
    Session::open(dir).unwrap().decisions
}

/// Waits until `path` exists, at most `limit`; how long it took.
fn wait_for(path: &Path, limit: Duration) -> Duration {
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < limit, "{} never came", path.display());
        std::thread::sleep(Duration::from_millis(5));
    }
    start.elapsed()
}

/// Game `ga`'s lock is held (for as long as ten minutes may be: the run may wait that long);
/// the mails are `ga`'s, then `gb`'s, then `ga`'s next one. `gb`'s reply is applied and filed
/// while `ga`'s lock is still held; once it is let go, the same run applies `ga`'s two mails,
/// in their order, and ends.
#[test]
fn a_busy_game_never_holds_up_another_games_reply_and_is_taken_later_in_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let a = new_game(&games, "ga", 41);
    let b = new_game(&games, "gb", 42);
    let md = maildir(tmp.path());
    put_reply(&md, &a, None, "m1-a");
    put_reply(&md, &b, None, "m2-b");
    let a_next = after_next_move(&a, &tmp.path().join("copy"));
    put_reply(&md, &a, Some(&a_next), "m3-a");
    let (da, db) = (decisions(&a), decisions(&b));

    let held = hold_lock(&a);
    let child = inbox(&games, &md, "600");
    let took = wait_for(&md.join("cur").join("m2-b:2,S"), Duration::from_secs(120));
    eprintln!("gb's reply filed {took:?} after the start, ga's lock held");
    assert_eq!(decisions(&b), db + 1, "gb's reply applied");
    assert!(md.join("new").join("m1-a").exists() && md.join("new").join("m3-a").exists());
    assert_eq!(decisions(&a), da);
    // gb's prompts go out too, before ga's lock is let go: its receipt, the US's prompt and
    // the USSR's update.
    let mails = || std::fs::read_dir(b.join("outbox")).map_or(0, |d| d.count());
    let start = Instant::now();
    while mails() < 3 {
        assert!(start.elapsed() < Duration::from_secs(120), "{}", mails());
        std::thread::sleep(Duration::from_millis(5));
    }

    held.unlock().unwrap();
    drop(held);
    let released = Instant::now();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        released.elapsed() < Duration::from_secs(60),
        "the run went on {:?} after the lock was let go",
        released.elapsed()
    );
    // ga's two mails, in their order (the second answers the position after the first).
    assert_eq!(decisions(&a), da + 2, "{stdout}{stderr}");
    assert!(stdout.contains("inbox: 3 messages, 3 applied"), "{stdout}");
    let order: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(": applied to "))
        .filter_map(|l| l.split(':').next()?.rsplit('/').next())
        .collect();
    assert_eq!(order, ["m2-b", "m1-a", "m3-a"], "{stdout}");
    assert!(!stderr.contains("not sent"), "{stderr}");
}

/// Game `ga`'s lock held all through the run: `gb`'s reply is applied, `ga`'s mail stays in
/// `new/`, the run says so and how often it tried (a bounded number of times), and ends once
/// its time for busy games is spent.
#[test]
fn a_game_busy_all_run_is_left_in_new_and_said_so() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let a = new_game(&games, "ga", 43);
    let b = new_game(&games, "gb", 44);
    let md = maildir(tmp.path());
    put_reply(&md, &a, None, "m1-a");
    put_reply(&md, &b, None, "m2-b");
    let (da, db) = (decisions(&a), decisions(&b));

    let held = hold_lock(&a);
    let start = Instant::now();
    let out = inbox(&games, &md, "2").wait_with_output().unwrap();
    let took = start.elapsed();
    drop(held);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(took < Duration::from_secs(60), "{took:?}");
    assert_eq!(decisions(&b), db + 1);
    assert_eq!(decisions(&a), da);
    assert!(md.join("new").join("m1-a").exists(), "left in new/");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("waiting: ") && l.contains("m1-a"))
        .unwrap_or_else(|| panic!("no waiting line: {stderr}"));
    assert!(
        line.contains("is busy (another twilight command holds its lock; tried ")
            && line.ends_with("; left in new/ for the next run"),
        "{line}"
    );
    let tries: u32 = line
        .split("tried ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!((2..=20).contains(&tries), "{tries} tries in 2 s: {line}");

    // The next run, the lock free, takes it.
    let out = inbox(&games, &md, "2").wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(decisions(&a), da + 1);
}
