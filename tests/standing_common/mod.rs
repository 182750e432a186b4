//! Set-up of the standing-order tests (`tests/standing_orders.rs`): a game past its setup whose
//! USSR holds the Olympic Games.
#![allow(dead_code)]

use chrono::{TimeZone, Utc};

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::Options;
use twilight_pbem::session::{Session, SessionError};

pub const USSR_SETUP: &str = "influence Poland 4, East Germany 1, Hungary 1";
pub const US_SETUP: &str = "influence West Germany 4, Italy 2, France 1";
pub const US_BONUS: &str = "influence West Germany 1, Iran 1";

pub fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

pub fn new_game(dir: &std::path::Path, seed: [u8; 32]) -> Session {
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s = Session::create_with_seed(dir, &Options::default(), players, seed, now()).unwrap();
    s.join(Side::Ussr, "nonce-ussr", now()).unwrap();
    s.join(Side::Us, "nonce-us", now()).unwrap();
    s
}

pub fn play(s: &mut Session, side: Side, lines: &[&str]) -> Result<Vec<String>, SessionError> {
    let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    s.play(side, &lines, now())
}

/// A seed whose opening deal gives the USSR the Olympic Games, and a US headline card that is
/// not a scoring card or the Olympic Games, with the game past its setup.
pub fn olympic_game(dir: &std::path::Path) -> (Session, Card) {
    for n in 0u8..=255 {
        let d = dir.join(format!("seed{n}"));
        let mut s = new_game(&d, [n; 32]);
        let hands = &s.game().unwrap().state().cards.hands;
        if !hands.ussr.contains(&Card::OlympicGames) {
            continue;
        }
        // A US headline that resolves before the Olympic Games, asks nothing of the USSR
        // and leaves the Olympic Games event to happen.
        let us = hands.us.iter().copied().find(|c| {
            matches!(
                c,
                Card::DuckAndCover
                    | Card::Nato
                    | Card::MarshallPlan
                    | Card::TrumanDoctrine
                    | Card::IndependentReds
                    | Card::Containment
                    | Card::CiaCreated
                    | Card::UsJapanMutualDefensePact
                    | Card::EastEuropeanUnrest
            )
        });
        let Some(us) = us else { continue };
        play(&mut s, Side::Ussr, &[USSR_SETUP]).unwrap();
        play(&mut s, Side::Us, &[US_SETUP, US_BONUS]).unwrap();
        return (s, us);
    }
    panic!("no seed deals the USSR the Olympic Games");
}

pub fn kinds(s: &Session) -> Vec<&'static str> {
    s.log()
        .entries()
        .iter()
        .map(|e| e.entry.payload.kind())
        .collect()
}

pub fn log_bytes(s: &Session) -> Vec<u8> {
    std::fs::read(s.dir().join("log.yaml")).unwrap()
}
