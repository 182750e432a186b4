//! The mail queue under concurrent runs (design §9): `inbox` applying a reply while other
//! `inbox` and `remind` runs drain the same game's queue, round after round. Every owed mail
//! reaches the outbox once (the sender's lock and the sent marks), nothing stays queued.

mod outbox_crash_common;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use outbox_crash_common::{bin, left_queued, outbox_ids, reference, Cmd, Fixture, NOW};

#[test]
fn concurrent_inbox_and_remind_runs_send_each_owed_mail_once() {
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::new(&tmp.path().join("fixture"), 1, 21);
    let want = reference(Cmd::Inbox, &fx, tmp.path());
    for round in 0..20 {
        let work = tmp.path().join(format!("round-{round}"));
        fx.copy_to(&work);
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(work.join("empty").join(sub)).unwrap();
        }
        let runs: [&[&str]; 5] = [
            &["inbox", "--games", "games", "inbox", "--outbox"],
            &["inbox", "--games", "games", "empty", "--outbox"],
            &["remind", "games/g1", "--outbox"],
            &["inbox", "--games", "games", "empty", "--outbox"],
            &["remind", "games/g1", "--outbox"],
        ];
        // Started in a different order each round.
        let mut children = Vec::new();
        for k in 0..runs.len() {
            let args = runs[(k + round) % runs.len()];
            children.push(
                Command::new(bin())
                    .current_dir(&work)
                    .args(args)
                    .env_remove("TWILIGHT_SMTP_URL")
                    .env_remove("TWILIGHT_FROM")
                    .env("TWILIGHT_NOW", NOW)
                    .env("TWILIGHT_LOCK_WAIT_SECS", "60")
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap(),
            );
        }
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        // What an idle run leaves owed (mails another run queued after the last drain of
        // each): sent now, and then the outbox is the uninterrupted run's.
        let o = Command::new(bin())
            .current_dir(&work)
            .args(["inbox", "--games", "games", "empty", "--outbox"])
            .env_remove("TWILIGHT_SMTP_URL")
            .env("TWILIGHT_NOW", NOW)
            .output()
            .unwrap();
        assert!(o.status.success());
        let ids = outbox_ids(&work);
        let set: BTreeSet<String> = ids.iter().cloned().collect();
        assert_eq!(
            ids.len(),
            set.len(),
            "round {round}: a mail twice: {ids:#?}"
        );
        assert_eq!(set, want.after, "round {round}");
        assert!(left_queued(&work).is_empty(), "round {round}");
    }
}
