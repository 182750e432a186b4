//! A game folder that cannot be written — an archive copy made read-only (`chmod -R a-w`), a
//! read-only mount, a folder of another user: a command that only reads works there (`status`,
//! `view`, `moves`, `verify`; it reads without the lock, under a shared hold of the lock file
//! when there is one, never failing on opening the `.lock` file), and a command that must write
//! (`mail`, `play`) says that the folder is read-only and changes nothing.
//!
//! Every case runs on a copy of a bundled game in a temporary folder. Permission bits do not
//! stop root, so when the tests run as root the binary runs as the unprivileged user `nobody`
//! (uid 65534), for whom the copy cannot be written; if the system refuses that, the test says
//! so and checks nothing.
#![cfg(unix)]

mod output_common;
use output_common::text;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The unprivileged user the binary runs as when the tests run as root.
const NOBODY: u32 = 65534;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the tracked files of the bundled game `name` (its `log.yaml`, and `secret.yaml`
/// when it has one) into `games/name` under `root`.
fn copy_game(name: &str, root: &Path) -> PathBuf {
    let from = repo().join("games").join(name);
    let to = root.join("games").join(name);
    std::fs::create_dir_all(&to).unwrap();
    for f in ["log.yaml", "secret.yaml", "import-report.yaml"] {
        if from.join(f).is_file() {
            std::fs::copy(from.join(f), to.join(f)).unwrap();
        }
    }
    to
}

/// Makes everything under `dir` read-only for everyone (files 0444, folders 0555).
fn make_read_only(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            make_read_only(&p);
        } else {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
}

/// Makes `dir` (and what is in it) writable by its owner again, so the temporary folder can
/// be removed.
fn make_writable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            make_writable(&p);
        }
    }
}

/// Every file under `dir` with its bytes and mode, sorted: what must not change.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>, u32)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let mode = std::fs::symlink_metadata(&p).unwrap().permissions().mode();
        if p.is_dir() {
            out.push((p.clone(), Vec::new(), mode));
            out.extend(contents(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap(), mode));
        }
    }
    out.sort();
    out
}

/// The binary run with `args` as a user who cannot write the copy: this user, or `nobody`
/// when the tests run as root. `None` when running as another user is refused.
fn twilight(args: &[&str], home: &Path) -> Option<Output> {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("twilight"));
    c.args(args)
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_LOCK_WAIT_SECS", "2")
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .current_dir(home);
    if is_root() {
        c.uid(NOBODY).gid(NOBODY);
    }
    match c.output() {
        Ok(o) => Some(o),
        Err(e) if is_root() => {
            println!("skipped: running the binary as uid {NOBODY} was refused ({e})");
            None
        }
        Err(e) => panic!("cannot run the binary: {e}"),
    }
}

/// A temporary root everyone may enter, holding a read-only copy of `games`, and a home
/// folder the binary's user may write (for caches outside the game).
struct Archive {
    tmp: tempfile::TempDir,
    games: PathBuf,
    home: PathBuf,
}

impl Archive {
    fn new(games: &[&str], lock_file: bool) -> Archive {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir_all(tmp.path().join("games")).unwrap();
        for g in games {
            let dir = copy_game(g, tmp.path());
            if lock_file {
                // A copy of a game that was used: its lock file came along.
                std::fs::write(dir.join(".lock"), b"").unwrap();
            }
        }
        let games = tmp.path().join("games");
        make_read_only(&games);
        let home = tmp.path().join("home");
        std::fs::create_dir(&home).unwrap();
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o777)).unwrap();
        Archive { tmp, games, home }
    }

    fn run(&self, args: &[&str]) -> Option<Output> {
        twilight(args, &self.home)
    }
}

impl Drop for Archive {
    fn drop(&mut self) {
        make_writable(self.tmp.path());
    }
}

fn reading_commands_work(lock_file: bool) {
    let a = Archive::new(&["example", "example-complete", "de-game-14"], lock_file);
    let before = contents(&a.games);
    let ex = a.games.join("example");
    let ex = ex.to_str().unwrap();
    let done = a.games.join("example-complete");
    let done = done.to_str().unwrap();
    let all = a.games.to_str().unwrap();
    let reads: Vec<Vec<&str>> = vec![
        vec!["status", ex],
        vec!["status", ex, "--format", "json"],
        vec!["status", done],
        vec!["view", ex, "--as", "public"],
        vec!["view", ex, "--as", "us"],
        vec!["view", ex, "--as", "ussr", "--format", "yaml"],
        vec!["view", ex, "--as", "public", "--format", "svg"],
        vec!["moves", ex, "--as", "us"],
        vec!["moves", ex, "--as", "ussr"],
        vec!["verify", ex],
        vec!["verify", done],
        vec!["verify", all],
    ];
    for args in &reads {
        let Some(o) = a.run(args) else { return };
        assert!(
            o.status.success(),
            "{args:?} on a read-only copy:\n{}",
            text(&o)
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains(".lock"), "{args:?}: {}", text(&o));
    }
    // What it said is what the writable game says.
    let status = a.run(&["status", ex]).unwrap();
    let s = String::from_utf8_lossy(&status.stdout);
    assert!(
        s.contains("log: ") && s.contains("head"),
        "{}",
        text(&status)
    );
    assert_eq!(
        contents(&a.games),
        before,
        "a reading command changed the archive"
    );
}

#[test]
fn reading_commands_work_on_a_read_only_copy_without_a_lock_file() {
    reading_commands_work(false);
}

#[test]
fn reading_commands_work_on_a_read_only_copy_with_its_lock_file() {
    reading_commands_work(true);
}

#[test]
fn writing_commands_say_the_folder_is_read_only_and_change_nothing() {
    for lock_file in [false, true] {
        let a = Archive::new(&["example"], lock_file);
        let before = contents(&a.games);
        let ex = a.games.join("example");
        let ex = ex.to_str().unwrap();
        let writes: Vec<Vec<&str>> = vec![
            vec!["mail", ex, "--outbox"],
            vec!["play", ex, "--as", "us", "pass"],
            vec!["remind", ex, "--outbox"],
        ];
        for args in &writes {
            let Some(o) = a.run(args) else { return };
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}:\n{}", text(&o));
            assert!(
                err.contains("the game folder is read-only") && err.contains("nothing was done"),
                "{args:?} should say the folder is read-only:\n{}",
                text(&o)
            );
            assert!(
                err.contains("status") && err.contains("chmod"),
                "{args:?} should say what works and what to do:\n{}",
                text(&o)
            );
        }
        assert_eq!(contents(&a.games), before, "lock file {lock_file}");
        assert!(!a.games.join("example").join("outbox").exists());
    }
}

#[test]
fn inbox_leaves_a_mail_to_a_read_only_game_where_it_is_and_says_why() {
    use twilight_pbem::data::Side;
    let a = Archive::new(&[], false);
    make_writable(&a.games);
    let dir = copy_game("example", a.tmp.path());
    // A reply with a legal move and the current token, for the side that owes one.
    let s = twilight_pbem::session::Session::open(&dir).unwrap();
    let game = s.game().unwrap();
    let prompt = game.prompts().first().cloned().unwrap();
    let answer = twilight_pbem::engine::selfplay::choose(
        game,
        prompt.side,
        twilight_pbem::engine::selfplay::Policy::Careful,
        &mut twilight_pbem::engine::SeededChance::new(1),
    )
    .unwrap();
    let line = twilight_pbem::text::notation::format_answer(&answer, &prompt);
    let token = s.reply_token(prompt.side).unwrap();
    let from = match prompt.side {
        Side::Us => s.players().us.clone(),
        Side::Ussr => s.players().ussr.clone(),
    };
    let gid = s.game_id().to_string();
    drop(s);
    make_read_only(&a.games);
    let before = contents(&a.games);
    let maildir = a.home.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
        std::fs::set_permissions(maildir.join(sub), std::fs::Permissions::from_mode(0o777))
            .unwrap();
    }
    std::fs::set_permissions(&maildir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let mail = maildir.join("new").join("m1");
    std::fs::write(
        &mail,
        format!(
            "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <m1@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&mail, std::fs::Permissions::from_mode(0o666)).unwrap();
    let games = a.games.to_str().unwrap().to_string();
    let md = maildir.to_str().unwrap().to_string();
    let Some(o) = a.run(&["inbox", "--games", &games, &md, "--outbox"]) else {
        return;
    };
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("left for the next run") && err.contains("the game folder is read-only"),
        "{}",
        text(&o)
    );
    assert!(
        mail.is_file(),
        "the mail waits in new/, neither filed nor lost"
    );
    assert!(!maildir.join("twilight-failed").exists(), "{}", text(&o));
    assert_eq!(contents(&a.games), before);
}

#[test]
fn a_read_only_copy_whose_log_ends_in_a_cut_move_says_what_to_do() {
    let a = Archive::new(&[], false);
    make_writable(&a.games);
    let dir = copy_game("example", a.tmp.path());
    // The first bytes of a next entry, as a crash while it was written leaves them.
    let mut log = std::fs::read(dir.join("log.yaml")).unwrap();
    log.extend_from_slice(b"---\nseq: 147\nat: 2026-12-01T21:29:38Z\nby: us\n");
    std::fs::write(dir.join("log.yaml"), &log).unwrap();
    make_read_only(&a.games);
    let before = contents(&a.games);
    let d = dir.to_str().unwrap();
    for args in [vec!["status", d], vec!["view", d, "--as", "public"]] {
        let Some(o) = a.run(&args) else { return };
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}:\n{}", text(&o));
        assert!(
            err.contains("a crash cut short") && err.contains("read-only") && err.contains("chmod"),
            "{args:?}:\n{}",
            text(&o)
        );
    }
    assert_eq!(contents(&a.games), before);
    // Made writable, the next command sets the cut bytes aside and shows the game.
    make_writable(&a.games);
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::set_permissions(dir.join(f), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let o = Command::new(assert_cmd::cargo::cargo_bin("twilight"))
        .args(["status", d])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("set aside"),
        "{}",
        text(&o)
    );
}
