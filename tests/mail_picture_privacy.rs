//! The mail's picture is the public picture: at many points of `games/example-complete`, the
//! picture both players' mails carry is byte for byte the picture drawn afresh from the PUBLIC
//! replay of the log (which holds no hand, no deck order), so it can show nothing of either
//! hand; and `board_png`'s kept picture is never a stale one of an earlier point.
#![cfg(feature = "png")]

use std::path::{Path, PathBuf};

use chrono::TimeZone;
use mail_parser::MimeHeaders;

use twilight_pbem::data::Side;
use twilight_pbem::engine::view::{view, Role};
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
    assert_eq!(total, 756);
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
