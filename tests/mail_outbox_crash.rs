//! Never lost (design §9; `twilight_pbem::mail::queue`): `kill -9` at every mutating system
//! call of `inbox`, `play`, `remind` and `mail`, then one more run of a command, delivers
//! every mail the game owes exactly once and times out no side that was not prompted in time.
//! The sweep itself is `tests/outbox_crash_common/mod.rs`; `tools/outbox_crash_sweep.sh`
//! runs it over many more positions.

mod outbox_crash_common;

use outbox_crash_common::{strace_works, sweep, Cmd, Fixture};

/// Whether strace can inject the kills here; `.ci/run` installs it and sets
/// `TWILIGHT_TEST_REQUIRE_STRACE=1`, which makes its absence a failure.
fn strace_or_skip(name: &str) -> bool {
    let works = strace_works();
    if !works {
        assert!(
            std::env::var("TWILIGHT_TEST_REQUIRE_STRACE")
                .ok()
                .as_deref()
                != Some("1"),
            "TWILIGHT_TEST_REQUIRE_STRACE=1 but strace cannot trace here"
        );
        eprintln!("{name}: strace cannot trace here (run under .ci/run): skipped");
    }
    works
}

/// Sweeps `cmds` over a fixture of `moves` decisions, every kill point; prints the counts.
fn sweep_all(name: &str, moves: usize, k: u64, cmds: &[Cmd]) -> usize {
    if !strace_or_skip(name) {
        return 0;
    }
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::new(&tmp.path().join("fixture"), moves, k);
    let mut total = 0;
    for &cmd in cmds {
        let scratch = tmp.path().join(format!("{cmd:?}"));
        std::fs::create_dir_all(&scratch).unwrap();
        let (run, killed, committed) = sweep(cmd, &fx, &scratch, 1);
        eprintln!(
            "{name}: {cmd:?}: {run} kill points, {killed} kills landed, {committed} with the change in the log"
        );
        assert!(
            killed * 10 >= run * 9,
            "{cmd:?}: most kills land ({killed} of {run})"
        );
        total += run;
    }
    total
}

#[test]
fn a_kill_at_every_write_of_inbox_and_play_in_the_setup_loses_no_mail() {
    let n = sweep_all("setup", 0, 1, &[Cmd::Inbox, Cmd::Play]);
    eprintln!("setup: {n} kill points");
}

#[test]
fn a_kill_at_every_write_of_inbox_joining_a_player_loses_no_mail() {
    if !strace_or_skip("join") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::joining(&tmp.path().join("fixture"));
    let scratch = tmp.path().join("join");
    std::fs::create_dir_all(&scratch).unwrap();
    let (run, killed, committed) = sweep(Cmd::Inbox, &fx, &scratch, 1);
    eprintln!(
        "join: {run} kill points, {killed} kills landed, {committed} with the join in the log"
    );
    assert!(
        killed * 10 >= run * 9,
        "most kills land ({killed} of {run})"
    );
}

#[test]
fn a_kill_at_every_write_of_remind_and_mail_loses_no_mail() {
    let n = sweep_all("remind and mail", 0, 2, &[Cmd::Remind, Cmd::Mail]);
    eprintln!("remind and mail: {n} kill points");
}

#[test]
fn a_kill_at_every_write_of_inbox_and_play_in_the_headlines_loses_no_mail() {
    let n = sweep_all("headlines", 2, 3, &[Cmd::Inbox, Cmd::Play, Cmd::Remind]);
    eprintln!("headlines: {n} kill points");
}

/// The SMTP test server, or `None` (with a loud note) where none runs; `.ci/run` starts one
/// and sets `TWILIGHT_TEST_REQUIRE_SMTP=1`, which makes its absence a failure.
fn smtp_or_skip(name: &str) -> Option<(u16, std::path::PathBuf)> {
    let s = outbox_crash_common::smtp_server();
    if s.is_none() {
        assert!(
            std::env::var("TWILIGHT_TEST_REQUIRE_SMTP").ok().as_deref() != Some("1"),
            "TWILIGHT_TEST_REQUIRE_SMTP=1 but TWILIGHT_TEST_SMTP_PORT/MAILDIR are not set"
        );
        eprintln!("{name}: NO SMTP SERVER (run under .ci/run): skipped");
    }
    s
}

#[test]
fn a_kill_at_every_write_of_inbox_and_play_over_smtp_sends_each_mail_once() {
    let Some((port, maildir)) = smtp_or_skip("smtp sweep") else {
        return;
    };
    if !strace_or_skip("smtp sweep") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::new(&tmp.path().join("fixture"), 1, 4);
    let mut total = 0;
    for cmd in [Cmd::Inbox, Cmd::Play] {
        let scratch = tmp.path().join(format!("{cmd:?}"));
        std::fs::create_dir_all(&scratch).unwrap();
        let (run, killed, committed, resent) =
            outbox_crash_common::smtp_sweep(cmd, &fx, &scratch, (port, &maildir), 1);
        eprintln!(
            "SMTP: {cmd:?}: {run} kill points, {killed} kills landed, {committed} with the \
             change in the log, {resent} with one mail received twice (same Message-ID)"
        );
        assert!(
            killed * 10 >= run * 9,
            "{cmd:?}: most kills land ({killed} of {run})"
        );
        total += run;
    }
    eprintln!("SMTP: {total} kill points");
}

/// The mail server down: the move stands, its receipt and prompts stay queued (exit 3), the
/// side whose prompt is queued is not timed out; the server back: after the back-off every
/// mail goes once, with the Message-IDs an uninterrupted run gives them; then nothing more.
#[test]
fn mails_wait_in_the_queue_while_the_server_is_down_and_go_once_when_it_is_back() {
    use outbox_crash_common::{left_queued, received, reference, timeouts, LATE, NOW};
    let Some((port, maildir)) = smtp_or_skip("smtp down and back") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::new(&tmp.path().join("fixture"), 1, 5);
    let want = reference(Cmd::Inbox, &fx, tmp.path());
    let owed: std::collections::BTreeSet<String> = want
        .after
        .difference(&want.before)
        .map(|id| {
            id.trim_matches(['<', '>'])
                .split('@')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    let work = tmp.path().join("work");
    fx.copy_to(&work);
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(work.join("empty").join(sub)).unwrap();
    }
    let domain = format!("down-{}.test", std::process::id());
    let run = |url: &str, now: &str, args: &[&str]| {
        std::process::Command::new(outbox_crash_common::bin())
            .current_dir(&work)
            .args(args)
            .env("TWILIGHT_SMTP_URL", url)
            .env("TWILIGHT_FROM", format!("referee@{domain}"))
            .env("TWILIGHT_NOW", now)
            .output()
            .unwrap()
    };
    // Nothing listens on the discard port of the loopback: the connection is refused.
    let down = "smtp+insecure://127.0.0.1:9";
    let up = format!("smtp+insecure://127.0.0.1:{port}");
    let o = run(down, NOW, &["inbox", "--games", "games", "inbox"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("receipt not sent"), "{err}");
    assert!(err.contains("it stays queued"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 applied"));
    assert_eq!(
        left_queued(&work).len(),
        owed.len(),
        "{:?}",
        left_queued(&work)
    );
    // Past every deadline, the server still down: the side whose prompt is queued is not
    // timed out.
    let o = run(down, LATE, &["remind", "games/g1"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("its prompt has not gone out"), "{err}");
    assert!(
        timeouts(&work).is_empty(),
        "a side timed out while its prompt was queued"
    );
    assert!(received(&maildir, &domain).is_empty());
    // The server back, one minute later: the back-off (two failed tries: two minutes) runs.
    let late_1 = "2027-01-12T13:01:00Z";
    let o = run(&up, late_1, &["inbox", "--games", "games", "empty"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        o.status.code(),
        Some(3),
        "{err}{}{:?}",
        String::from_utf8_lossy(&o.stdout),
        left_queued(&work)
    );
    assert!(err.contains("wait for the next try"), "{err}");
    assert!(
        received(&maildir, &domain).is_empty(),
        "tried before its back-off ran"
    );
    // Three minutes later: every mail goes, once.
    let late_3 = "2027-01-12T13:03:00Z";
    let o = run(&up, late_3, &["inbox", "--games", "games", "empty"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = received(&maildir, &domain);
    let set: std::collections::BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(got.len(), set.len(), "{got:#?}");
    assert_eq!(set, owed);
    assert!(left_queued(&work).is_empty());
    // Its prompt went out after its deadline: still no timeout, and the moderator is told.
    let o = run(&up, late_3, &["remind", "games/g1"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("after its deadline"), "{err}");
    assert!(timeouts(&work).is_empty());
    // Nothing is sent again.
    let o = run(&up, late_3, &["inbox", "--games", "games", "empty"]);
    assert!(o.status.success());
    assert_eq!(received(&maildir, &domain), got);
}

/// The long sweep (`tools/outbox_crash_sweep.sh`): positions of more and more decisions, each
/// swept with all four commands (and, when the SMTP test server runs, `inbox` and `play` over
/// SMTP), until `TWILIGHT_OUTBOX_SWEEP_POINTS` kill points (default 5,000) have run.
#[test]
#[ignore = "minutes long: tools/outbox_crash_sweep.sh runs it"]
fn the_long_kill_sweep() {
    let want: usize = std::env::var("TWILIGHT_OUTBOX_SWEEP_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    if !strace_or_skip("long sweep") {
        return;
    }
    let smtp = outbox_crash_common::smtp_server();
    let started = std::time::Instant::now();
    let (mut total, mut landed, mut committed, mut resent) = (0, 0, 0, 0);
    let mut position: u64 = std::env::var("TWILIGHT_OUTBOX_SWEEP_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let first = position;
    while total < want {
        let tmp = tempfile::tempdir().unwrap();
        let moves = (position % 12) as usize;
        let fx = Fixture::new(&tmp.path().join("fixture"), moves, 100 + position);
        for cmd in [Cmd::Inbox, Cmd::Play, Cmd::Remind, Cmd::Mail] {
            let scratch = tmp.path().join(format!("{cmd:?}"));
            std::fs::create_dir_all(&scratch).unwrap();
            let (r, k, c) = sweep(cmd, &fx, &scratch, 1);
            eprintln!("position {position} ({moves} decisions): {cmd:?}: {r} points, {k} landed, {c} committed");
            (total, landed, committed) = (total + r, landed + k, committed + c);
            if let (Some((port, maildir)), Cmd::Inbox | Cmd::Play) = (&smtp, cmd) {
                let (r, k, c, d) =
                    outbox_crash_common::smtp_sweep(cmd, &fx, &scratch, (*port, maildir), 1);
                eprintln!("position {position}: SMTP {cmd:?}: {r} points, {k} landed, {c} committed, {d} with one mail twice");
                (total, landed, committed, resent) =
                    (total + r, landed + k, committed + c, resent + d);
            }
        }
        position += 1;
    }
    eprintln!(
        "long sweep: {total} kill points over {} positions in {:.0} s: {landed} kills \
         landed, {committed} with the change in the log, {resent} SMTP points with the mail in \
         flight received twice (same Message-ID); every owed mail delivered, none twice to the \
         outbox, no side timed out unprompted",
        position - first,
        started.elapsed().as_secs_f64()
    );
}
