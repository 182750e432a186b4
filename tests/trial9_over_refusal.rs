//! Found by a newcomer's trial (session 9): after a game had ended (DEFCON 1 there; here a
//! resignation, and a game closed with `reveal --force`), a player's late reply was refused
//! with "You owe no decision now; your next prompt mail will come when you do." — a prompt that
//! will never come. The refusal must say the game is over (how it ended) or closed.

mod game_common;
mod mail_common;
mod output_common;

use game_common::{new_game, run};
use output_common::text;

/// Mails `body` from `from` to game `g1` in a fresh Maildir under `root`, runs `inbox`, and
/// returns the text of the refusal mailed back.
fn refusal_after(root: &std::path::Path, games: &std::path::Path, from: &str) -> String {
    let md = root.join("md");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(
        md.join("new/late"),
        format!(
            "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS g1] your move\r\n\
             Message-ID: <late@ts.test>\r\nContent-Type: text/plain\r\n\r\npass\r\n"
        ),
    )
    .unwrap();
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(13), "missing token: {}", text(&o));
    let refusals: Vec<(String, String)> = mail_common::texts_to(&games.join("g1/outbox"), from)
        .into_iter()
        .filter(|(s, _)| s.contains("Refused"))
        .collect();
    assert_eq!(refusals.len(), 1, "{}", text(&o));
    refusals[0].1.clone()
}

#[test]
fn a_late_reply_to_a_resigned_game_is_told_the_game_is_over() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "g1", 11);
    let o = run(&[
        "play",
        dir.to_str().unwrap(),
        "--as",
        "us",
        "resign",
        "--no-mail",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let r = refusal_after(tmp.path(), &games, "ussr-g1@ts.test");
    assert!(!r.contains("your next prompt mail will come"), "{r}");
    assert!(
        r.contains("Game g1 is over: USSR wins by resignation"),
        "{r}"
    );
}

#[test]
fn a_late_reply_to_a_closed_game_is_told_it_is_closed() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "g1", 12);
    let o = run(&["reveal", dir.to_str().unwrap(), "--force"]);
    assert!(o.status.success(), "{}", text(&o));
    let r = refusal_after(tmp.path(), &games, "us-g1@ts.test");
    assert!(!r.contains("your next prompt mail will come"), "{r}");
    assert!(r.contains("Game g1 is closed"), "{r}");
}
