//! `twilight serve --once` killed (`SIGKILL`, injected by strace) at every mutating syscall of
//! a pass that takes one reply from a real IMAP server (Dovecot) and mails through a real SMTP
//! server (aiosmtpd): its spool write, the move's log writes and fsyncs, the SMTP and IMAP
//! conversation, the IMAP MOVE. After each kill one more pass recovers, and then: the reply
//! was applied exactly once, it left the mailbox for `twilight/done` exactly once, and the next
//! prompt was mailed.
//!
//! Needs the servers of `.ci/imap-server.sh` and `.ci/smtp-server.sh` (skips loudly without
//! them, fails with `TWILIGHT_TEST_REQUIRE_IMAP=1`) and strace.

mod imap_common;
mod mail_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use mail_common::{read_mails, Table};
use twilight_pbem::data::Side;
use twilight_pbem::log::Payload;
use twilight_pbem::serve::imap::{ImapSettings, Mailbox};
use twilight_pbem::session::Session;

/// The mutating syscalls a kill is injected at, each in turn at its first, second, … call
/// (strace counts each syscall's calls apart).
const SYSCALLS: [&str; 8] = [
    "write",
    "sendto",
    "renameat",
    "rename",
    "fsync",
    "fdatasync",
    "unlinkat",
    "mkdir",
];

/// serve's environment for the test servers (IMAP, SMTP, the sender), the SMTP server's
/// Maildir, Dovecot's Maildir of the user.
type Servers = (Vec<(String, String)>, PathBuf, PathBuf);

fn env_or_skip() -> Option<Servers> {
    let s = imap_common::servers("serve IMAP crash")?;
    let mut env = s.imap;
    env.retain(|(k, _)| k != "TWILIGHT_IMAP_MAILBOX");
    env.push((
        "TWILIGHT_SMTP_URL".into(),
        format!("smtp+insecure://127.0.0.1:{}", s.smtp_port),
    ));
    env.push((
        "TWILIGHT_FROM".into(),
        "Twilight Referee <referee@ts.test>".into(),
    ));
    Some((env, s.spool, s.imap_home))
}

/// The SMTP server's mails written since `since` (the spool holds every test's mails).
fn fresh(spool: &Path, since: std::time::SystemTime) -> Vec<PathBuf> {
    mail_common::files_in(spool)
        .into_iter()
        .filter(|f| {
            std::fs::metadata(f)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= since)
        })
        .collect()
}

fn count(dir: &Path) -> usize {
    ["new", "cur"]
        .iter()
        .map(|s| std::fs::read_dir(dir.join(s)).map_or(0, |r| r.count()))
        .sum()
}

fn decisions(dir: &Path) -> usize {
    Session::open(dir)
        .unwrap()
        .log()
        .entries()
        .iter()
        .filter(|e| matches!(e.entry.payload, Payload::Decision { .. }))
        .count()
}

#[test]
fn serve_killed_at_any_mutating_syscall_loses_no_reply_and_applies_none_twice() {
    let Some((env, spool, home)) = env_or_skip() else {
        return;
    };
    if Command::new("strace").arg("-V").output().is_err() {
        assert!(
            std::env::var("TWILIGHT_TEST_REQUIRE_IMAP").ok().as_deref() != Some("1"),
            "strace is needed"
        );
        return;
    }
    let prefix = format!("crash-{}", std::process::id());
    let lookup = |k: &str| env.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
    let settings = ImapSettings::from_lookup(lookup).unwrap().unwrap();
    let mut mailbox = Mailbox::connect(&settings, &prefix).unwrap();
    let done = home.join(format!(".{prefix}.done"));
    let mut killed = 0;
    let mut points = Vec::new();
    for syscall in SYSCALLS {
        for n in 1..200u32 {
            points.push((syscall, n));
        }
    }
    let mut finished: Option<&str> = None;
    for (i, &(syscall, n)) in points.iter().enumerate() {
        if finished == Some(syscall) {
            continue;
        }
        let point = i as u32;
        let gid = format!("crash{point}-{}", std::process::id());
        let mut t = Table::new(&gid, (point % 200) as u8);
        t.env = env.clone();
        let since = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
        // The setup prompt, through the SMTP server; the USSR's reply to it, into the mailbox.
        let o = t.twilight(&["mail", &t.game_arg()]);
        assert!(o.status.success());
        let files = fresh(&spool, since);
        let ussr = t.addr(Side::Ussr).to_string();
        let prompt = read_mails(&files, &gid, &ussr)
            .pop()
            .expect("the setup prompt");
        let mv = prompt.examples()[0].clone();
        let raw = format!(
            "From: {ussr}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <crash.{point}.{}@ts.test>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{mv}\r\n\r\nToken: {}\r\n",
            prompt.subject,
            std::process::id(),
            prompt.message_id,
            prompt.token().unwrap()
        );
        mailbox.append("INBOX", raw.as_bytes()).unwrap();
        let done_before = count(&done);
        let serve = |strace: Option<u32>| {
            let mut c = match strace {
                Some(n) => {
                    let mut c = Command::new("strace");
                    c.args(["-f", "-qq", "-o", "/dev/null", "-e"])
                        .arg(format!("inject={syscall}:signal=KILL:when={n}"))
                        .arg(env!("CARGO_BIN_EXE_twilight"));
                    c
                }
                None => Command::new(env!("CARGO_BIN_EXE_twilight")),
            };
            c.args(["serve", "--once", "--folder-prefix", &prefix, "--games"])
                .arg(&t.games)
                .env_remove("TWILIGHT_SMTP_USER")
                .env_remove("TWILIGHT_SMTP_PASSWORD");
            for (k, v) in &t.env {
                c.env(k, v);
            }
            c.output().unwrap()
        };
        let o = serve(Some(n));
        let died = !o.status.success();
        // One more pass recovers what the kill left.
        let r = serve(None);
        assert!(
            r.status.success(),
            "point {point}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert_eq!(
            decisions(&t.dir),
            1,
            "point {point}: the reply applied once"
        );
        assert_eq!(count(&home), 0, "point {point}: the mailbox is empty");
        assert_eq!(count(&done), done_before + 1, "point {point}: moved once");
        let us = t.addr(Side::Us).to_string();
        let files = fresh(&spool, since);
        assert!(
            read_mails(&files, &gid, &us)
                .iter()
                .any(|m| m.token().is_some()),
            "point {point}: the next prompt was mailed"
        );
        if died {
            killed += 1;
        } else {
            // Past the syscall's last call in a pass: on to the next syscall.
            finished = Some(syscall);
        }
    }
    eprintln!(
        "serve IMAP crash: {killed} kills injected at {} syscalls",
        SYSCALLS.len()
    );
    assert!(killed >= 40, "{killed}");
}
