//! The sealed game: commitments, secrets that never leak, full verification after the reveal.

use chrono::{TimeZone, Utc};
use twilight_pbem::chance::fairness;
use twilight_pbem::data::Side;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::engine::Options;
use twilight_pbem::log::Players;
use twilight_pbem::session::{side_str, Mode, Session};

const SEED: [u8; 32] = [7u8; 32];

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

/// A game after setup with the USSR headline committed (not yet revealed).
fn game(dir: &std::path::Path) -> Session {
    let players = Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s = Session::create_with_seed(dir, &Options::default(), players, SEED, now()).unwrap();
    s.join(Side::Ussr, "nonce-ussr", now()).unwrap();
    s.join(Side::Us, "nonce-us", now()).unwrap();
    s.play(
        Side::Ussr,
        &["influence Poland 4, East Germany 1, Hungary 1".into()],
        now(),
    )
    .unwrap();
    s.play(
        Side::Us,
        &[
            "influence West Germany 4, Italy 2, France 1".into(),
            "influence West Germany 1, Iran 1".into(),
        ],
        now(),
    )
    .unwrap();
    // The USSR headlines the first card the engine accepts as a headline.
    let game = s.game().unwrap();
    let mut rng = twilight_pbem::engine::SeededChance::new(1);
    let legal = twilight_pbem::engine::legal::legal_answers(game, Side::Ussr, &mut rng, 1);
    let Some(twilight_pbem::engine::Answer::Card(card)) = legal.first().cloned() else {
        panic!("a legal headline")
    };
    s.play(Side::Ussr, &[format!("headline {}", card as u8)], now())
        .unwrap();
    s
}

#[test]
fn secrets_never_appear_in_the_log_or_in_other_views() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let s = game(&dir);
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    let seed_hex = hex::encode(SEED);
    assert!(
        !log.contains(&seed_hex),
        "the master seed is not in the log before the reveal"
    );
    for side in Side::BOTH {
        for seq in 0..s.log().next_seq() {
            let salt = hex::encode(fairness::hand_salt(&SEED, side_str(side), seq));
            assert!(!log.contains(&salt), "no hand salt is in the log");
        }
        let hl = hex::encode(fairness::headline_salt(&SEED, side_str(side), 1));
        assert!(!log.contains(&hl), "no headline salt is in the log");
    }
    assert!(!log.contains("order"), "no deck order is recorded");
    // The first headline is only a commitment.
    assert!(log.contains("kind: headline"));
    let game = s.game().unwrap();
    for role in [Role::Public, Role::Us] {
        let v = view(game, role);
        assert!(v.deck.is_none() && v.hands.is_none());
        if role == Role::Us {
            assert_eq!(
                v.hand.as_ref().unwrap().len(),
                game.state().cards.hands.us.len()
            );
        } else {
            assert!(v.hand.is_none());
        }
        let text = serde_yaml::to_string(&v).unwrap();
        assert!(!text.contains(&seed_hex));
        // The USSR hand is never listed in a US or public view (only its size).
        assert_eq!(v.hand_sizes.ussr, game.state().cards.hand_size(Side::Ussr));
    }
    // The public replay knows hand sizes but not the cards.
    let public = Session::open_public(&dir).unwrap();
    assert_eq!(public.mode(), Mode::Public);
    let pg = public.game().unwrap();
    assert!(pg.state().cards.hands.us.is_empty() && pg.state().cards.hands.ussr.is_empty());
    assert_eq!(pg.state().cards.hand_size(Side::Us), 8);
}

#[test]
fn hand_commitments_match_the_players_hands() {
    let tmp = tempfile::tempdir().unwrap();
    let s = game(&tmp.path().join("g"));
    for side in Side::BOTH {
        let (seq, salt) = s.hand_salt(side).expect("a hand commitment exists");
        assert_eq!(salt, fairness::hand_salt(&SEED, side_str(side), seq));
    }
    assert!(s.findings.is_empty(), "{:?}", s.findings);
}

#[test]
fn reveal_then_full_verification_is_clean_and_replays_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = game(&dir);
    assert!(s.reveal(false, now()).is_err(), "the game is not over");
    s.reveal(true, now()).unwrap();
    let a = Session::open_public(&dir).unwrap();
    assert_eq!(
        a.mode(),
        Mode::Full,
        "a revealed seed gives full verification"
    );
    assert!(a.findings.is_empty(), "{:?}", a.findings);
    let b = Session::open_public(&dir).unwrap();
    assert_eq!(
        a.game().unwrap().state(),
        b.game().unwrap().state(),
        "replay is deterministic"
    );
}

#[test]
fn a_revealed_seed_that_breaks_its_commitment_is_refused() {
    use twilight_pbem::log::{Author, Hex32, Log, Payload};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    game(&dir);
    // A reveal entry with the wrong seed is refused by the log itself; nothing is appended.
    let mut log = Log::open(dir.join("log.yaml")).unwrap();
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    let wrong = Payload::Reveal {
        seed: Hex32::from([8u8; 32]),
    };
    let err = log
        .append(wrong, Author::Moderator, now())
        .map(|_| ())
        .expect_err("refused");
    assert!(
        err.to_string().contains("seed whose commitment is"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
}
