//! Found by a newcomer's trial (session 9): a join reply (and a seat's sealed bid) taken in by
//! `inbox` was answered with its receipt — the outbox held it — but `inbox` did not say so: no
//! `mailed … receipt` line, and the summary counted one mail sent where three were written
//! (README: "each mail written says where it went"). A moderator reading the report could not
//! tell that the players had their receipts.

mod mail_common;
use mail_common::*;
use mail_common::{empty_maildir as maildir, run_twilight as run};

#[test]
fn inbox_reports_each_join_receipt_it_mails_and_counts_it() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let md = maildir(tmp.path());
    let d = dir.to_str().unwrap();
    let o = run(&[
        "new",
        d,
        "--us",
        "us-g1@ts.test",
        "--ussr",
        "ussr-g1@ts.test",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let outbox = dir.join("outbox");
    for (n, who) in [(1, "ussr-g1@ts.test"), (2, "us-g1@ts.test")] {
        let inv = texts_to(&outbox, who);
        std::fs::write(
            md.join(format!("new/{n}.join")),
            raw_reply(
                who,
                n,
                "[TS g1] Invitation",
                &format!("Token: {}\nnonce: dice of {who}\n", token_of(&inv[0].1)),
            ),
        )
        .unwrap();
    }
    let before = files_in(&outbox).len();
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let written = files_in(&outbox).len() - before;
    let out = stdout(&o);
    for who in ["ussr-g1@ts.test", "us-g1@ts.test"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("mailed {who}")) && l.contains("receipt")),
            "no receipt line for {who}:\n{out}"
        );
    }
    assert!(
        out.contains(&format!("{written} mails sent")),
        "{written} mails written:\n{out}"
    );
}

#[test]
fn inbox_reports_each_sealed_bid_receipt_it_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("b1");
    let md = maildir(tmp.path());
    let d = dir.to_str().unwrap();
    let (seat1, seat2) = ("one@ts.test", "two@ts.test");
    let o = run(&[
        "new", d, "--bid", "--player", seat1, "--player", seat2, "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let outbox = dir.join("outbox");
    let inv = texts_to(&outbox, seat1);
    std::fs::write(
        md.join("new/1.bid"),
        raw_reply(
            seat1,
            1,
            "[TS b1] Invitation",
            &format!(
                "Token: {}\nnonce: seat 1 dice\nbid: ussr 2\n",
                token_of(&inv[0].1)
            ),
        ),
    )
    .unwrap();
    let before = files_in(&outbox).len();
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let written = files_in(&outbox).len() - before;
    assert_eq!(written, 1, "the bid's receipt");
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("mailed {seat1}")) && l.contains("receipt")),
        "no receipt line:\n{out}"
    );
    assert!(out.contains("1 mail sent"), "{out}");
}

/// Found by the same trial: with the mail server unreachable, a join reply was recorded (the
/// nonce in the log) but `inbox` filed the mail as *failed* (exit 19, "0 applied") because its
/// receipt could not be sent — the moderator was told the join had not happened. Now it is
/// applied and filed as such, the receipt named as not sent, exit 3 (a mail could not be sent).
#[test]
fn a_join_whose_receipt_cannot_be_sent_is_applied_not_failed() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let md = maildir(tmp.path());
    let o = run(&[
        "new",
        dir.to_str().unwrap(),
        "--us",
        "us-g1@ts.test",
        "--ussr",
        "ussr-g1@ts.test",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let inv = texts_to(&dir.join("outbox"), "ussr-g1@ts.test");
    std::fs::write(
        md.join("new/1.join"),
        raw_reply(
            "ussr-g1@ts.test",
            1,
            "[TS g1] Invitation",
            &format!("Token: {}\nnonce: heron 77\n", token_of(&inv[0].1)),
        ),
    )
    .unwrap();
    // Port 9 (discard) on the loopback: nothing listens, the connection is refused.
    let o = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .env("TWILIGHT_SMTP_URL", "smtp+insecure://127.0.0.1:9")
        .env_remove("TWILIGHT_FROM")
        .args([
            "inbox",
            "--games",
            games.to_str().unwrap(),
            md.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(log.contains("nonce: heron 77"), "the join is recorded");
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 applied"), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 failed"), "{}", stdout(&o));
    assert!(stderr(&o).contains("receipt not sent"), "{}", stderr(&o));
    assert!(!md.join("twilight-failed").exists(), "not filed as failed");
}
