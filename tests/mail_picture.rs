//! The mail's picture is the public picture: at many points of `games/example-complete`, the
//! picture both players' mails carry is byte for byte the picture drawn afresh from the PUBLIC
//! replay of the log (which holds no hand, no deck order), so it can show nothing of either
//! hand; `board_png`'s kept picture is never a stale one of an earlier point, nor, in one
//! `inbox` run answering two games, the picture the process drew last for the other game.
#![cfg(feature = "png")]

mod mail_common;

use std::path::{Path, PathBuf};

use chrono::TimeZone;
use mail_parser::MimeHeaders;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::log::Players;
use twilight_pbem::mail::outbound::{compose, to_message, Purpose};
use twilight_pbem::mail::{MailConfig, MailState};
use twilight_pbem::picture::{self, svg, Layout, MAIL_SCALE};
use twilight_pbem::session::Session;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `games/example-complete` cut after its first `n` entries, in `dir`.
fn cut(dir: &Path, n: usize) -> PathBuf {
    let game = dir.join(format!("cut-{n}"));
    std::fs::create_dir(&game).unwrap();
    let log = std::fs::read_to_string(root().join("games/example-complete/log.yaml")).unwrap();
    let docs: Vec<&str> = log.split_inclusive("...\n").collect();
    assert!(n <= docs.len(), "{n} > {}", docs.len());
    std::fs::write(game.join("log.yaml"), docs[..n].concat()).unwrap();
    std::fs::copy(
        root().join("games/example-complete/secret.yaml"),
        game.join("secret.yaml"),
    )
    .unwrap();
    game
}

/// The PNG part of the mail composed as it is sent.
fn sent_png(o: &twilight_pbem::mail::outbound::Outgoing, gid: &str) -> Vec<u8> {
    let bytes = to_message(o, gid).unwrap().formatted();
    let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
    parsed
        .parts
        .iter()
        .find(|p| p.is_content_type("image", "png"))
        .expect("a picture part")
        .contents()
        .to_vec()
}

#[test]
fn both_players_mail_pictures_are_the_public_picture_throughout_a_game() {
    let tmp = tempfile::tempdir().unwrap();
    let total = std::fs::read_to_string(root().join("games/example-complete/log.yaml"))
        .unwrap()
        .matches("\nseq: ")
        .count();
    assert_eq!(total, 748);
    let now = chrono::Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap();
    let mut checked = 0;
    let mut distinct = std::collections::HashSet::new();
    // Points all through the game (headlines, action rounds, the end), each drawn after the
    // one before, so a kept picture of the previous point would show here.
    // A cut falls just before a decision (a decision's chance records follow it).
    let log = std::fs::read_to_string(root().join("games/example-complete/log.yaml")).unwrap();
    let before_decisions: Vec<usize> = log
        .split_inclusive("...\n")
        .enumerate()
        .filter(|(_, d)| d.contains("\npayload:\n  decision:"))
        .map(|(i, _)| i)
        .collect();
    let points: Vec<usize> = before_decisions
        .iter()
        .copied()
        .step_by(2)
        .chain([total])
        .collect();
    for n in points {
        let game = cut(tmp.path(), n);
        let s = Session::open(&game).unwrap();
        if s.game().is_none() {
            continue;
        }
        let public = Session::open_public(&game).unwrap();
        let pv = view(public.game().unwrap(), Role::Public);
        let (changed, caption) = picture::mail::last_move(&public, &pv);
        let want_svg = svg::overlay_svg(Layout::standard(), &pv, &changed, caption.as_deref());
        let fresh =
            picture::board_png_fresh(&pv, &changed, caption.as_deref(), MAIL_SCALE).unwrap();
        let mut state = MailState::default();
        for side in [Side::Us, Side::Ussr] {
            // What the mail draws: the player's view, made public.
            let own = view(
                s.game().unwrap(),
                if side == Side::Us {
                    Role::Us
                } else {
                    Role::Ussr
                },
            );
            assert!(own.hand.is_some(), "cut {n}: the {side} sees a hand");
            let o = compose(
                &s,
                &MailConfig::default(),
                &mut state,
                side,
                Purpose::Prompt,
                now,
            )
            .unwrap();
            let (c2, cap2) = twilight_pbem::mail::outbound::last_move(&s, &own);
            let mail_view = twilight_pbem::engine::view::View {
                role: Role::Public,
                hand: None,
                hands: None,
                deck: None,
                ..own.clone()
            };
            assert_eq!(
                svg::overlay_svg(Layout::standard(), &mail_view, &c2, cap2.as_deref()),
                want_svg,
                "cut {n}: the {side}'s mail pieces are not the public replay's"
            );
            let png = sent_png(&o, s.game_id());
            assert!(
                png == fresh,
                "cut {n}: the {side}'s mail picture is not the public picture"
            );
            checked += 1;
        }
        distinct.insert(fresh);
    }
    assert!(checked >= 300, "{checked} mails checked");
    assert!(
        distinct.len() >= 150,
        "{} distinct pictures",
        distinct.len()
    );
    eprintln!("{checked} mails, {} distinct pictures", distinct.len());
}

// ---- One `inbox` run answering two games: each game's mails carry that game's own public
// picture, drawn afresh here, never the picture the process drew last for the other game.

/// A reply's body: the moves, the token and a signature.
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
