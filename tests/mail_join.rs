//! Joining by mail (`schemas/FAIRNESS.md` §3.2, the nonce mix): `new` mails invitations,
//! `inbox` records each player's nonce as their `join` entry and answers with a receipt echoing
//! it, reports each receipt it mails (for a join and for a seat's sealed bid) and counts it, and
//! refuses a nonce left as the invitation's placeholder.

mod mail_common;

use mail_common::*;
use mail_common::{empty_maildir as maildir, run_twilight as run};
use twilight_pbem::log::{Log, Payload};

#[test]
fn a_game_starts_by_mail_from_new_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let inbox = tmp.path().join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .env_remove("TWILIGHT_SMTP_URL")
            .env_remove("TWILIGHT_FROM")
            .args(args)
            .output()
            .unwrap()
    };
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
    let inv_ussr = texts_to(&outbox, "ussr-g1@ts.test");
    let inv_us = texts_to(&outbox, "us-g1@ts.test");
    assert_eq!(
        (inv_ussr.len(), inv_us.len()),
        (1, 1),
        "one invitation each"
    );
    let (subject, text) = &inv_ussr[0];
    assert!(subject.contains("[TS g1] Invitation"), "{subject}");
    // The invitation's text holds `—`: its charset must be declared (RFC 2045 §5.2 reads an
    // undeclared body as US-ASCII), and it carries a Message-ID a reply can name.
    for f in files_in(&outbox) {
        let raw = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        let head = raw.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        assert!(
            head.contains("content-type: text/plain; charset=utf-8"),
            "{head}"
        );
        assert!(head.contains("message-id: <"), "{head}");
    }
    for want in [
        "You play: the USSR",
        "Your opponent: the US (us-g1@ts.test)",
        "Seed commitment: ",
        "Dice-key chain end: ",
        "nonce: <any text you choose>",
        "Why the nonce matters",
    ] {
        assert!(text.contains(want), "no `{want}` in\n{text}");
    }
    let g = games.to_str().unwrap();
    let i = inbox.to_str().unwrap();

    // A wrong token joins nobody.
    std::fs::write(
        inbox.join("new/1.join"),
        raw_reply(
            "ussr-g1@ts.test",
            1,
            "[TS g1] Invitation",
            &format!("nonce: x\nToken: {}\n", token_of(&inv_us[0].1)),
        ),
    )
    .unwrap();
    let o = run(&["inbox", "--games", g, i, "--outbox"]);
    assert_eq!(o.status.code(), Some(14), "{}", stdout(&o));

    // The USSR joins by mail with a nonce of its own; the receipt echoes it as recorded.
    let nonce = "boris's dice: 4 8 15 16 23 42";
    std::fs::write(
        inbox.join("new/2.join"),
        raw_reply(
            "ussr-g1@ts.test",
            2,
            "[TS g1] Invitation",
            &format!("Token: {}\nnonce: {nonce}\n\n-- \nBoris\n", token_of(text)),
        ),
    )
    .unwrap();
    let o = run(&["inbox", "--games", g, i, "--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let log = Log::open(dir.join("log.yaml")).unwrap();
    let join = log
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            Payload::Join {
                nonce,
                typed_by_moderator,
                ..
            } => Some((nonce.clone(), *typed_by_moderator, e.entry.seq)),
            _ => None,
        })
        .expect("a join entry");
    assert_eq!(join, (nonce.to_string(), false, 1));
    let receipt = texts_to(&outbox, "ussr-g1@ts.test")
        .into_iter()
        .find(|(s, _)| s.contains("Receipt"))
        .expect("a receipt");
    assert!(
        receipt.1.contains(&format!("Nonce as recorded: {nonce:?}")),
        "{}",
        receipt.1
    );
    assert!(receipt.1.contains("Log entry: 1"), "{}", receipt.1);

    // The same mail again is filed quietly; the US joins with its invitation; the game starts.
    std::fs::write(
        inbox.join("new/3.join"),
        raw_reply(
            "ussr-g1@ts.test",
            2,
            "[TS g1] Invitation",
            &format!("Token: {}\nnonce: {nonce}\n\n-- \nBoris\n", token_of(text)),
        ),
    )
    .unwrap();
    std::fs::write(
        inbox.join("new/4.join"),
        raw_reply(
            "us-g1@ts.test",
            4,
            "[TS g1] Invitation",
            &format!("nonce: alice\nToken: {}\n", token_of(&inv_us[0].1)),
        ),
    )
    .unwrap();
    let o = run(&["inbox", "--games", g, i, "--outbox"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "the second copy is filed quietly: {}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("3.join: already applied to g1"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("refused ("), "{}", stdout(&o));
    let v = run(&["verify", d]);
    assert!(stdout(&v).contains("OK"), "{}", stdout(&v));
    let prompts = read_mails(&files_in(&outbox), "g1", "ussr-g1@ts.test");
    assert_eq!(prompts.len(), 1, "the USSR's first prompt");
    assert!(prompts[0].text.contains("Your hand digest: "));
}

/// A join reply with no `nonce:` line is refused in words about the mail, not as "The move ``
/// is refused: …", an empty move in backticks.
#[test]
fn a_join_reply_without_a_nonce_line_is_refused_in_words() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g2");
    let inbox = empty_maildir(tmp.path());
    let o = run_twilight(&[
        "new",
        dir.to_str().unwrap(),
        "--us",
        "us-g2@ts.test",
        "--ussr",
        "ussr-g2@ts.test",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let inv = texts_to(&dir.join("outbox"), "ussr-g2@ts.test");
    std::fs::write(
        inbox.join("new/1.join"),
        raw_reply(
            "ussr-g2@ts.test",
            1,
            "Re: [TS g2] Invitation",
            &format!("my nonce is abc\nToken: {}\n", token_of(&inv[0].1)),
        ),
    )
    .unwrap();
    let o = run_twilight(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        inbox.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(17), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(!out.contains("The move ``"), "{out}");
    assert!(
        out.contains(
            "Your mail is refused: a join reply needs a line `nonce: <any text you choose>`"
        ),
        "{out}"
    );
    let reply = texts_to(&dir.join("outbox"), "ussr-g2@ts.test")
        .into_iter()
        .find(|(s, _)| s.contains("Refused"))
        .expect("a refusal mailed to the player")
        .1;
    assert!(
        !reply.lines().any(|l| l.trim() == ">"),
        "an empty quote:
{reply}"
    );
}

// ---- A join reply (and a seat's sealed bid) taken in by `inbox` is answered with its receipt,
// and `inbox` says so: a `mailed … receipt` line for each, counted in the summary's mails sent
// (README: "each mail written says where it went"), so a moderator reading the report can tell
// the players have their receipts.

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

/// With the mail server unreachable, a join reply is recorded (the nonce in the log), so the
/// mail is applied and filed as such, not as failed (exit 19, "0 applied", as if the join had
/// not happened) because its receipt could not be sent: the receipt is named as not sent, exit
/// 3 (a mail could not be sent).
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

// ---- A join reply that sends the invitation's two lines back unedited
// (`nonce: <any text you choose>`) would join with a nonce anyone could foresee
// (`schemas/FAIRNESS.md` §2), recorded as the player's own: it is refused with what to do,
// nothing is logged, and the player's next reply with a nonce of their own joins. The same
// holds for a seat's sealed bid.

/// The text of the game's `log.yaml`.
fn log_text(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("log.yaml")).unwrap()
}

#[test]
fn a_join_reply_with_the_placeholder_nonce_is_refused_and_a_real_one_joins() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let md = maildir(tmp.path());
    let (g, m) = (games.to_str().unwrap(), md.to_str().unwrap());
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
    let token = token_of(&inv[0].1);
    for (n, nonce) in [(1, "<any text you choose>"), (2, "< Any text you choose >")] {
        std::fs::write(
            md.join(format!("new/{n}.join")),
            raw_reply(
                "ussr-g1@ts.test",
                n,
                "[TS g1] Invitation",
                &format!("Token: {token}\nnonce: {nonce}\n"),
            ),
        )
        .unwrap();
        let before = log_text(&dir);
        let o = run(&["inbox", "--games", g, m, "--outbox"]);
        assert_eq!(o.status.code(), Some(17), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("placeholder"), "{}", stdout(&o));
        assert_eq!(log_text(&dir), before, "nothing logged");
    }
    std::fs::write(
        md.join("new/3.join"),
        raw_reply(
            "ussr-g1@ts.test",
            3,
            "[TS g1] Invitation",
            &format!("Token: {token}\nnonce: boris picks 7 herons\n"),
        ),
    )
    .unwrap();
    let o = run(&["inbox", "--games", g, m, "--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(log_text(&dir).contains("nonce: boris picks 7 herons"));
}

#[test]
fn a_bid_reply_with_the_placeholder_nonce_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("b1");
    let md = maildir(tmp.path());
    let seat1 = "one@ts.test";
    let o = run(&[
        "new",
        dir.to_str().unwrap(),
        "--bid",
        "--player",
        seat1,
        "--player",
        "two@ts.test",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let inv = texts_to(&dir.join("outbox"), seat1);
    std::fs::write(
        md.join("new/1.bid"),
        raw_reply(
            seat1,
            1,
            "[TS b1] Invitation",
            &format!(
                "Token: {}\nnonce: <any text you choose>\nbid: ussr 2\n",
                token_of(&inv[0].1)
            ),
        ),
    )
    .unwrap();
    let before = log_text(&dir);
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(17), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("placeholder"), "{}", stdout(&o));
    assert_eq!(log_text(&dir), before, "nothing logged");
}
