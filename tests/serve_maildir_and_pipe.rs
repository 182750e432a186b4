//! The host's other two ways in: a Maildir read by `twilight serve --maildir` (here one pass,
//! `--once`, as cron runs it), and one mail piped from the MTA to `twilight inbox --stdin`,
//! whose exit status tells the MTA to keep the mail and try again (75, `EX_TEMPFAIL`) when
//! the game is busy or the disk full, and never to bounce a mail that was taken.

#![cfg(unix)]

mod mail_common;

use std::io::Write as _;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use mail_common::{files_in, read_mails, stderr, stdout, Table};
use twilight_pbem::data::Side;
use twilight_pbem::session::Session;

/// The USSR's first prompt (the setup), mailed to the game's outbox, and a reply to it.
fn first_reply(t: &Table) -> Vec<u8> {
    let o = t.twilight(&["mail", &t.game_arg()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mails = read_mails(&files_in(&t.dir.join("outbox")), &t.gid, t.addr(Side::Ussr));
    let last = mails.last().expect("the setup prompt");
    let mv = last.examples().first().cloned().expect("a move to send");
    format!(
        "From: {}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <piped.1@ts.test>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{mv}\r\n\r\nToken: {}\r\n",
        t.addr(Side::Ussr),
        last.subject,
        last.message_id,
        last.token().expect("a token")
    )
    .into_bytes()
}

/// `twilight inbox --stdin --games GAMES --outbox` fed `raw`, each file it writes limited to
/// `fsize` bytes if given (a full disk: `EFBIG`, as `tests/full_disk.rs` does it).
fn pipe(t: &Table, raw: &[u8], fsize: Option<u64>, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("twilight"));
    c.args(["inbox", "--stdin", "--outbox", "--games"])
        .arg(&t.games)
        .env_remove("TWILIGHT_SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    if let Some(limit) = fsize {
        // SAFETY: between fork and exec only async-signal-safe calls (signal, setrlimit).
        unsafe {
            c.pre_exec(move || {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let l = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(raw).unwrap();
    child.wait_with_output().unwrap()
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |r| r.count())
}

fn entries(t: &Table) -> usize {
    Session::open(&t.dir).unwrap().log().len()
}

#[test]
fn a_piped_mail_is_taken_once_or_left_to_the_mta_with_exit_75() {
    let t = Table::new(&format!("piped-{}", std::process::id()), 31);
    let raw = first_reply(&t);
    let before = entries(&t);
    let mta = t.games.join(".mta");

    // The game busy (its lock held): not taken, nothing kept, the MTA tries again.
    let lock = twilight_pbem::gamefs::GameLock::acquire(&t.dir).unwrap();
    let o = pipe(&t, &raw, None, &[("TWILIGHT_LOCK_WAIT_SECS", "0.3")]);
    assert_eq!(o.status.code(), Some(75), "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("the MTA will try again"),
        "{}",
        stderr(&o)
    );
    assert_eq!(count(&mta.join("new")), 0);
    assert_eq!(entries(&t), before);
    drop(lock);

    // The disk full: the mail cannot be kept, so it is not taken either.
    let o = pipe(&t, &raw, Some(100), &[]);
    assert_eq!(o.status.code(), Some(75), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(count(&mta.join("new")) + count(&mta.join("tmp")), 0);
    assert_eq!(entries(&t), before);

    // Taken: applied, kept in GAMES/.mta/cur, exit 0.
    let o = pipe(&t, &raw, None, &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("applied to"), "{}", stdout(&o));
    assert!(entries(&t) > before);
    assert_eq!(count(&mta.join("cur")), 1);
    assert_eq!(count(&mta.join("new")), 0);

    // The same mail again (an MTA that lost our exit status): taken and answered as a replay,
    // not applied twice, and not bounced (exit 0).
    let applied = entries(&t);
    let o = pipe(&t, &raw, None, &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("refused"), "{}", stdout(&o));
    assert_eq!(entries(&t), applied);
}

#[test]
fn serve_once_takes_a_maildir_mail_files_it_and_sends_the_next_prompt() {
    let mut t = Table::new(&format!("maildir-{}", std::process::id()), 37);
    let raw = first_reply(&t);
    let prompts_before = files_in(&t.dir.join("outbox")).len();
    let file = t.put_raw(&raw);
    let before = entries(&t);
    let serve = |t: &Table| {
        t.twilight(&[
            "serve",
            "--games",
            &t.games.to_string_lossy(),
            "--maildir",
            &t.inbox.to_string_lossy(),
            "--once",
            "--outbox",
        ])
    };
    let o = serve(&t);
    assert!(o.status.success(), "{}", stderr(&o));
    let log = stderr(&o);
    assert!(log.contains(": applied to "), "{log}");
    assert!(log.contains("serve: stopped; 1 mail handled"), "{log}");
    assert!(entries(&t) > before);
    assert!(!file.exists());
    assert_eq!(count(&t.inbox.join("cur")), 1);
    assert!(files_in(&t.dir.join("outbox")).len() > prompts_before);
    // A second pass finds nothing to do and sends nothing.
    let mails = files_in(&t.dir.join("outbox")).len();
    let o = serve(&t);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 mails handled"), "{}", stderr(&o));
    assert_eq!(files_in(&t.dir.join("outbox")).len(), mails);
}

#[test]
fn serve_without_a_mail_source_says_how_to_give_one() {
    let t = Table::new(&format!("nosource-{}", std::process::id()), 41);
    let o = t.twilight(&["serve", "--games", &t.games.to_string_lossy(), "--once"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("TWILIGHT_IMAP_URL"), "{}", stderr(&o));
    assert!(stderr(&o).contains("--maildir"), "{}", stderr(&o));
}

#[test]
fn a_second_serve_on_the_same_games_is_refused_and_sigterm_stops_the_first() {
    let t = Table::new(&format!("twice-{}", std::process::id()), 43);
    let log = t.tmp.path().join("serve.log");
    let mut first = Command::new(assert_cmd::cargo::cargo_bin("twilight"))
        .args(["serve", "--outbox", "--tick", "0.2", "--games"])
        .arg(&t.games)
        .arg("--maildir")
        .arg(&t.inbox)
        .stdin(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("serve: games")
    {
        assert!(start.elapsed().as_secs() < 30, "serve did not start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = t.twilight(&[
        "serve",
        "--games",
        &t.games.to_string_lossy(),
        "--maildir",
        &t.inbox.to_string_lossy(),
        "--once",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("another `twilight serve` runs"),
        "{}",
        stderr(&o)
    );
    unsafe {
        libc::kill(first.id() as i32, libc::SIGTERM);
    }
    let status = first.wait().unwrap();
    assert!(status.success(), "{status}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("serve: stopped"), "{text}");
}
