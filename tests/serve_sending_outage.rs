//! An outage of the sending side: while the mail server takes no mail, the players are not told
//! of the moves, so `twilight serve` (here `--once` passes, as cron runs it) writes no heartbeat
//! then; the pass after the mail server takes mail again finds the gap and, longer than
//! `--outage-after`, records an `outage` entry from the last pass that could send to that pass,
//! extending every deadline by it (the same entry as for a host that was down:
//! `schemas/NOTATION.md` "Correspondence moves"), and tells both players. A gap shorter than
//! the threshold records nothing.
//!
//! Mail goes to a real SMTP server on loopback (aiosmtpd, `.ci/smtp-server.sh`); the server
//! "out of reach" is a loopback port nothing listens on. Without `TWILIGHT_TEST_SMTP_PORT` the
//! test says so loudly and checks nothing (CI sets `TWILIGHT_TEST_REQUIRE_SMTP=1`).

#![cfg(unix)]

mod mail_common;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

use mail_common::{stderr, t0, Table};
use twilight_pbem::log::split_documents;

/// The SMTP test server's port and Maildir, if one runs.
fn smtp_server() -> Option<(String, PathBuf)> {
    let port = std::env::var("TWILIGHT_TEST_SMTP_PORT").ok();
    let maildir = std::env::var("TWILIGHT_TEST_SMTP_MAILDIR").ok();
    match (port, maildir) {
        (Some(p), Some(d)) => Some((p, PathBuf::from(d))),
        _ => {
            assert!(
                std::env::var("TWILIGHT_TEST_REQUIRE_SMTP").ok().as_deref() != Some("1"),
                "TWILIGHT_TEST_REQUIRE_SMTP=1 but TWILIGHT_TEST_SMTP_PORT/MAILDIR are not set"
            );
            eprintln!("## serve sending outage: NO SMTP SERVER (TWILIGHT_TEST_SMTP_PORT unset); nothing checked ##");
            None
        }
    }
}

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// The mails the SMTP server holds for `to` (its Maildir's `new/` and `cur/`).
fn mails_to(maildir: &Path, to: &str) -> Vec<String> {
    ["new", "cur"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(maildir.join(sub)).into_iter().flatten())
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .filter(|m| m.contains(to))
        .collect()
}

/// The `outage` entries of the game's log: (from, to).
fn outages(dir: &Path) -> Vec<(String, String)> {
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    split_documents(&bytes)
        .documents
        .into_iter()
        .filter_map(|r| {
            let doc: serde_yaml::Value = serde_yaml::from_slice(&bytes[r]).unwrap();
            let o = doc["payload"].get("outage")?.clone();
            Some((
                o["from"].as_str()?.to_string(),
                o["to"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// One `serve --once` pass at `now`, sending through `port`.
fn pass(t: &mut Table, clock: &Path, now: DateTime<Utc>, port: u16) -> String {
    std::fs::write(clock, now.to_rfc3339()).unwrap();
    t.env.push((
        "TWILIGHT_SMTP_URL".into(),
        format!("smtp+insecure://127.0.0.1:{port}"),
    ));
    let (games, inbox) = (t.games.to_string_lossy(), t.inbox.to_string_lossy());
    let o = t.twilight(&[
        "serve",
        "--games",
        &games,
        "--maildir",
        &inbox,
        "--once",
        "--outage-after",
        "6h",
    ]);
    t.env.pop();
    stderr(&o)
}

#[test]
fn mail_the_server_did_not_take_for_longer_than_the_threshold_is_an_outage_once_it_does() {
    let Some((port, spool)) = smtp_server() else {
        return;
    };
    let port: u16 = port.parse().unwrap();
    let mut t = Table::new(&format!("sendout-{}", std::process::id()), 23);
    let clock = t.tmp.path().join("clock");
    t.env
        .push(("TWILIGHT_NOW_FILE".into(), clock.to_string_lossy().into()));
    t.env
        .push(("TWILIGHT_FROM".into(), "Referee <referee@ts.test>".into()));
    let down = closed_port();
    let start = t0() + Duration::hours(1);

    // The first pass cannot send the first prompt: it stays queued.
    let log = pass(&mut t, &clock, start, down);
    assert!(mails_to(&spool, &t.ussr).is_empty(), "{log}");
    assert!(
        t.games.join(".serve").join("not-sending").exists(),
        "the pass that could not send says so on disk: {log}"
    );
    // Eight hours on, still out of reach: nothing recorded, nothing sent.
    let log = pass(&mut t, &clock, start + Duration::hours(8), down);
    assert!(outages(&t.dir).is_empty(), "{log}");
    // The mail server takes mail again: the owed prompt goes out.
    let back = start + Duration::hours(9);
    let log = pass(&mut t, &clock, back, port);
    assert!(!mails_to(&spool, &t.ussr).is_empty(), "{log}");
    assert!(
        !t.games.join(".serve").join("not-sending").exists(),
        "{log}"
    );
    // The next pass finds the gap: one outage, from the last pass that could send.
    let next = back + Duration::minutes(1);
    let log = pass(&mut t, &clock, next, port);
    let o = outages(&t.dir);
    assert_eq!(o.len(), 1, "{log}");
    let parse = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
    assert_eq!((parse(&o[0].0), parse(&o[0].1)), (start, next), "{log}");
    for to in [&t.us, &t.ussr] {
        let told = mails_to(&spool, to)
            .iter()
            .filter(|m| m.contains("Service outage"))
            .count();
        assert_eq!(told, 1, "{to} is told of the outage once: {log}");
    }
    // A later pass records no second outage.
    pass(&mut t, &clock, next + Duration::minutes(1), port);
    assert_eq!(outages(&t.dir).len(), 1);
}

#[test]
fn a_short_failure_to_send_records_no_outage() {
    let Some((port, _spool)) = smtp_server() else {
        return;
    };
    let port: u16 = port.parse().unwrap();
    let mut t = Table::new(&format!("sendshort-{}", std::process::id()), 29);
    let clock = t.tmp.path().join("clock");
    t.env
        .push(("TWILIGHT_NOW_FILE".into(), clock.to_string_lossy().into()));
    t.env
        .push(("TWILIGHT_FROM".into(), "Referee <referee@ts.test>".into()));
    let start = t0() + Duration::hours(1);
    pass(&mut t, &clock, start, closed_port());
    pass(&mut t, &clock, start + Duration::hours(2), port);
    let log = pass(
        &mut t,
        &clock,
        start + Duration::hours(2) + Duration::minutes(1),
        port,
    );
    assert!(outages(&t.dir).is_empty(), "{log}");
}
