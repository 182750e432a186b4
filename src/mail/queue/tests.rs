//! The queue's files and its sender, checked on a game folder of their own (the kill sweep
//! through the binary is `tests/mail_outbox_crash.rs`).

use std::path::Path;

use chrono::{TimeZone, Utc};

use super::*;
use crate::log::{Hex32, Players};
use crate::mail::transport::Transport;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, 4, 12, 0, 0).unwrap()
}

/// A game folder `dir/g1` (its log holds the `create` entry).
fn game(dir: &Path) -> Session {
    Session::create_with_seed(
        &dir.join("g1"),
        &Default::default(),
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        [3; 32],
        now(),
    )
    .unwrap()
}

fn mail(id: &str) -> Mail {
    Mail {
        message: crate::mail::invite::plain_with_id(
            "ref@ts.test",
            "us@ts.test",
            format!("about {id}"),
            "text".into(),
            Some(id.into()),
        )
        .unwrap(),
        kind: Kind::Notice,
        to: "us@ts.test".into(),
        side: Some(Side::Us),
        whom: "US".into(),
        label: format!("about {id}"),
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_mail_is_queued_once_and_sent_once_to_the_outbox() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    assert_eq!(
        q.enqueue(&mail("a.1@ts.test"), now()).unwrap(),
        Enqueued::Queued
    );
    assert_eq!(
        q.enqueue(&mail("a.1@ts.test"), now()).unwrap(),
        Enqueued::AlreadyQueued
    );
    let outbox = s.dir().join("outbox");
    let t = Transport::Outbox(outbox.clone());
    let r = flush(&s, &t, now(), false);
    assert_eq!(r.sent.len(), 1, "{r:?}");
    assert!(r.all_sent());
    assert_eq!(
        r.sent[0].line().split(" — ").next(),
        Some("mailed us@ts.test (US): about a.1@ts.test")
    );
    assert_eq!(files(&outbox).len(), 1);
    // Sent: queued again, it is not added; a drain sends nothing more.
    assert_eq!(
        q.enqueue(&mail("a.1@ts.test"), now()).unwrap(),
        Enqueued::AlreadySent
    );
    assert!(flush(&s, &t, now(), false).sent.is_empty());
    assert!(q.is_empty());
    assert_eq!(q.sent_ids().unwrap().len(), 1);
}

#[test]
fn a_mail_sent_again_after_a_crash_replaces_its_own_outbox_file() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    q.enqueue(&mail("b.1@ts.test"), now()).unwrap();
    let outbox = s.dir().join("outbox");
    let t = Transport::Outbox(outbox.clone());
    // The transport took it, and the process died before the sent mark.
    let key = key_of("b.1@ts.test");
    let bytes = q.message(&key).unwrap();
    let env = lettre::address::Envelope::new(None, vec!["us@ts.test".parse().unwrap()]).unwrap();
    t.deliver_raw(&env, &bytes, &key).unwrap();
    let r = flush(&s, &t, now(), false);
    assert_eq!(r.sent.len(), 1);
    assert_eq!(files(&outbox).len(), 1, "the same file, not a second one");
}

#[test]
fn a_mail_written_ahead_is_owed_when_its_entry_is_in_the_log_and_dropped_when_not() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    let head = After::head_of(s.log()).unwrap();
    q.enqueue_ahead(&mail("c.1@ts.test"), head, now()).unwrap();
    let never = After {
        seq: head.seq + 1,
        entry: Hex32([7; 32]),
    };
    q.enqueue_ahead(&mail("c.2@ts.test"), never, now()).unwrap();
    // Another entry at a seq the log holds: not this move's.
    let other = After {
        seq: head.seq,
        entry: Hex32([9; 32]),
    };
    q.enqueue_ahead(&mail("c.3@ts.test"), other, now()).unwrap();
    assert!(q.has_pending());
    // Pending mails are never sent.
    let t = Transport::Outbox(s.dir().join("outbox"));
    assert!(send_owed(&q, &t, now(), true).sent.is_empty());
    assert_eq!(q.settle(s.log()).unwrap(), (1, 2));
    assert!(!q.has_pending());
    let r = flush(&s, &t, now(), false);
    let ids: Vec<&str> = r.sent.iter().map(|d| d.message_id.as_str()).collect();
    assert_eq!(ids, ["c.1@ts.test"]);
    // Nothing of the dropped ones is left.
    assert_eq!(files(q.dir()), [".send-lock", "sent.log"]);
}

#[test]
fn the_back_off_doubles_from_a_minute_to_an_hour() {
    let mins: Vec<u64> = (1..=9).map(|n| backoff(n).as_secs() / 60).collect();
    assert_eq!(mins, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
}

#[test]
fn a_failed_mail_stays_queued_with_its_back_off_and_holds_the_queue() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    q.enqueue(&mail("d.1@ts.test"), now()).unwrap();
    q.enqueue(&mail("d.2@ts.test"), now()).unwrap();
    // A file where the outbox folder should be: the mail cannot be written.
    let blocked = s.dir().join("blocked");
    std::fs::write(&blocked, b"").unwrap();
    let t = Transport::Outbox(blocked.join("outbox"));
    let r = flush(&s, &t, now(), false);
    assert_eq!(r.failed.len(), 1, "{r:?}");
    assert_eq!(r.failed[0].message_id, "d.1@ts.test");
    assert_eq!(r.failed[0].attempts, 1);
    assert_eq!(r.failed[0].next_try, now() + chrono::Duration::minutes(1));
    assert_eq!(r.waiting, 1, "the second waits behind the first");
    assert!(!r.all_sent());
    assert!(
        r.problems().iter().any(|p| p.contains("it stays queued")),
        "{r:?}"
    );
    // Within the back-off nothing is tried; `retry_now` tries.
    let good = Transport::Outbox(s.dir().join("outbox"));
    let r = flush(&s, &good, now(), false);
    assert!(r.sent.is_empty() && r.waiting == 2, "{r:?}");
    let r = flush(&s, &good, now(), true);
    let ids: Vec<&str> = r.sent.iter().map(|d| d.message_id.as_str()).collect();
    assert_eq!(ids, ["d.1@ts.test", "d.2@ts.test"], "in the order queued");
    assert!(q.is_empty());
}

#[test]
fn a_mark_a_crash_cut_counts_when_its_message_id_is_whole_and_the_next_starts_on_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    q.enqueue(&mail("e.1@ts.test"), now()).unwrap();
    q.enqueue(&mail("e.2@ts.test"), now()).unwrap();
    // e.1 was accepted and its mark cut after the Message-ID; a mark cut inside the
    // Message-ID names no mail.
    std::fs::write(
        q.dir().join("sent.log"),
        b"e.1@ts.test\t2027-01-04T12:00:00+00:00\tcu",
    )
    .unwrap();
    assert_eq!(q.sent_ids().unwrap().len(), 1);
    let r = flush(&s, &Transport::Outbox(s.dir().join("outbox")), now(), false);
    let ids: Vec<&str> = r.sent.iter().map(|d| d.message_id.as_str()).collect();
    assert_eq!(ids, ["e.2@ts.test"], "e.1 is not sent twice");
    let log = std::fs::read_to_string(q.dir().join("sent.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert_eq!(q.sent_at("e.2@ts.test").unwrap(), Some(now()));
    std::fs::write(q.dir().join("sent.log"), b"e.2@ts.te").unwrap();
    assert!(q.sent_ids().unwrap().is_empty());
}

#[cfg(unix)]
#[test]
fn the_queue_is_private_and_never_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let s = game(tmp.path());
    let q = Queue::of(s.dir());
    q.enqueue(&mail("f.1@ts.test"), now()).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(q.dir()), 0o700);
    for f in files(q.dir()) {
        assert_eq!(mode(&q.dir().join(&f)), 0o600, "{f}");
    }
    // A queue folder that is a link to a folder elsewhere is refused, read or written.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::rename(q.dir(), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, q.dir()).unwrap();
    assert!(q.enqueue(&mail("f.2@ts.test"), now()).is_err());
    let r = flush(&s, &Transport::Outbox(s.dir().join("outbox")), now(), false);
    assert!(r.sent.is_empty());
    assert!(!r.errors.is_empty(), "{r:?}");
}
