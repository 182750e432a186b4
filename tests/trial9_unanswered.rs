//! Found by a newcomer's trial (session 9): `inbox` printed "not answered (the sender is no
//! player of a game here)" for every refused mail it did not answer — also for a mail with no
//! headers at all (no sender to speak of) and for a player's too-large mail that names no game
//! (its sender plays a game here). The line must give the reason that holds: the mail names no
//! game here, or its sender is no player of the game it names.

mod output_common;
use output_common::text;

mod game_common;
use game_common::{new_game, run};

/// A games folder with one started game `g1` (players `us-g1@ts.test`, `ussr-g1@ts.test`) and
/// an empty Maildir.
fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    new_game(&games, "g1", 9);
    let md = tmp.path().join("md");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    (tmp, games, md)
}

fn inbox(games: &std::path::Path, md: &std::path::Path) -> std::process::Output {
    run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ])
}

#[test]
fn a_players_too_large_mail_naming_no_game_is_not_called_a_strangers() {
    let (_tmp, games, md) = setup();
    let mut mail = String::from(
        "From: ussr-g1@ts.test\r\nTo: referee@ts.test\r\nSubject: Re: hello\r\n\
         Content-Type: text/plain\r\n\r\n",
    );
    for _ in 0..3000 {
        mail.push_str(&"A".repeat(1000));
        mail.push_str("\r\n");
    }
    std::fs::write(md.join("new/huge"), mail).unwrap();
    let o = inbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("too-large"), "{}", text(&o));
    assert!(
        !out.contains("no player of a game here"),
        "the sender plays g1: {}",
        text(&o)
    );
    assert!(
        out.contains("not answered (the mail names no game here"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_mail_with_no_headers_is_not_said_to_have_a_sender() {
    let (_tmp, games, md) = setup();
    std::fs::write(md.join("new/empty"), b"").unwrap();
    let o = inbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("malformed-mime"), "{}", text(&o));
    assert!(!out.contains("the sender is no player"), "{}", text(&o));
    assert!(
        out.contains("not answered (the mail names no game here"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_strangers_mail_for_a_game_says_whose_player_he_is_not() {
    let (_tmp, games, md) = setup();
    std::fs::write(
        md.join("new/stranger"),
        "From: nobody@ts.test\r\nTo: referee@ts.test\r\nSubject: Re: [TS g1] your move\r\n\
         Content-Type: text/plain\r\n\r\npass\r\n",
    )
    .unwrap();
    let o = inbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("not-a-player"), "{}", text(&o));
    assert!(
        out.contains("not answered (the sender is no player of g1)"),
        "{}",
        text(&o)
    );
}
