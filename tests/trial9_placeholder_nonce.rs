//! Found by a newcomer's trial (session 9): a join reply that sent the invitation's two lines
//! back unedited — `nonce: <any text you choose>` — joined the game with that placeholder as the
//! player's nonce: a nonce anyone could foresee (FAIRNESS.md §2), recorded as the player's own.
//! It is refused with what to do, nothing is logged, and the player's next reply with a nonce
//! of their own joins. The same holds for a seat's sealed bid.

mod mail_common;
use mail_common::*;
use mail_common::{empty_maildir as maildir, run_twilight as run};

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
