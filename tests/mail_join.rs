//! Joining by mail (issue 20 point 6): `new` mails invitations, `inbox` records each player's
//! nonce as their `join` entry and answers with a receipt echoing it.

mod mail_common;

use mail_common::*;
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

    // The same mail again is a replay; the US joins with its invitation; the game starts.
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
        Some(16),
        "the replay is refused: {}",
        stdout(&o)
    );
    let v = run(&["verify", d]);
    assert!(stdout(&v).contains("OK"), "{}", stdout(&v));
    let prompts = read_mails(&files_in(&outbox), "g1", "ussr-g1@ts.test");
    assert_eq!(prompts.len(), 1, "the USSR's first prompt");
    assert!(prompts[0].text.contains("Your hand digest: "));
}

/// A join reply with no `nonce:` line was refused as "The move `` is refused: …", an empty
/// move in backticks (session 10 trial); the refusal now speaks of the mail.
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
