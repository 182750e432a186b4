//! One `inbox` run answering two games (`board_png` keeps the last picture it drew): each
//! game's mails carry that game's own public picture, drawn afresh here, never the picture the
//! process drew last for the other game.
#![cfg(feature = "png")]

mod mail_common;

use mail_common::*;
use mail_parser::MimeHeaders;
use twilight_pbem::data::Side;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::log::Players;
use twilight_pbem::picture::{self, MAIL_SCALE};
use twilight_pbem::session::Session;

fn body(moves: &str, token: &str) -> String {
    format!("{moves}\n\nToken: {token}\n\n-- \nBoris\n")
}

/// The PNG the newest mail to `to` in game folder `dir` carries, with the mail.
fn newest_png(dir: &std::path::Path, gid: &str, to: &str) -> (Mail, Vec<u8>) {
    let m = read_mails(&files_in(&dir.join("outbox")), gid, to)
        .last()
        .cloned()
        .expect("a mail");
    let parsed = mail_parser::MessageParser::default().parse(&m.raw).unwrap();
    let png = parsed
        .parts
        .iter()
        .find(|p| p.is_content_type("image", "png"))
        .expect("a picture")
        .contents()
        .to_vec();
    (m, png)
}

/// The public picture of the game in `dir`, drawn afresh (not through `board_png`).
fn public_picture(dir: &std::path::Path) -> Vec<u8> {
    let s = Session::open_public(dir).unwrap();
    let v = view(s.game().unwrap(), Role::Public);
    let (changed, caption) = picture::mail::last_move(&s, &v);
    picture::board_png_fresh(&v, &changed, caption.as_deref(), MAIL_SCALE).unwrap()
}

#[test]
fn two_games_answered_in_one_inbox_run_each_get_their_own_picture() {
    let mut t = Table::new("alpha", 5);
    let bravo = t.games.join("bravo");
    let mut s = Session::create_with_seed(
        &bravo,
        &Default::default(),
        Players {
            us: "us-bravo@ts.test".into(),
            ussr: "ussr-bravo@ts.test".into(),
        },
        [9; 32],
        t0(),
    )
    .unwrap();
    s.join(Side::Us, "us nonce", t0()).unwrap();
    s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
    drop(s);
    let games = [
        (t.dir.clone(), "alpha", t.us.clone(), t.ussr.clone(), "influence Poland 4, East Germany 2"),
        (bravo.clone(), "bravo", "us-bravo@ts.test".to_string(), "ussr-bravo@ts.test".to_string(), "influence Poland 1, East Germany 1, Hungary 1, Romania 1, Yugoslavia 1, Czechoslovakia 1"),
    ];
    for (dir, ..) in &games {
        let o = t.twilight(&["mail", dir.to_str().unwrap(), "--outbox"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for (dir, gid, _, ussr, setup) in &games {
        let (prompt, _) = newest_png(dir, gid, ussr);
        let token = prompt.token().expect("a token");
        t.reply(
            ussr,
            &format!("Re: {}", prompt.subject),
            None,
            &body(setup, &token),
        );
    }
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let mut pictures = Vec::new();
    for (dir, gid, us, ussr, _) in &games {
        let want = public_picture(dir);
        let (to_us, us_png) = newest_png(dir, gid, us);
        let (to_ussr, ussr_png) = newest_png(dir, gid, ussr);
        assert!(
            to_us.text.contains("USSR +1 Influence in") == (*gid == "bravo"),
            "{gid}: the US is told of this game's setup: {}",
            to_us.text
        );
        assert!(
            to_ussr.seq >= 5 && to_us.seq >= 5,
            "{gid}: mails of this run"
        );
        assert!(
            us_png == want,
            "{gid}: the US mail's picture is not this game's"
        );
        assert!(
            ussr_png == want,
            "{gid}: the USSR mail's picture is not this game's"
        );
        pictures.push(want);
    }
    assert!(pictures[0] != pictures[1], "the two games' boards differ");
}
