//! Fixtures shared by the integration tests. The card tests start from [`positions`] and play
//! with [`moves`]; the log tests use the generated example log at this level: a short sealed
//! game with every payload kind, awkward strings, and the seed revealed at the end.
//!
//! Each test file compiles this module on its own and uses only a part of it.

#![allow(dead_code)]

pub mod moves;
pub mod positions;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};
use twilight_pbem::chance::fairness;
use twilight_pbem::data::Side;
use twilight_pbem::log::{Author, CommitmentKind, Hex32, Log, Payload, Players, Value};

/// The example game's master seed.
pub const SEED: [u8; 32] = [0x5e; 32];

/// The fixed clock of the example: 2026-11-30 12:00:00 UTC plus `minutes`.
pub fn at(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap() + Duration::minutes(minutes)
}

/// Parses a YAML snippet into a payload value.
pub fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).unwrap()
}

/// Writes the example log (exactly `entries` entries, at least 4) to `dir/log.yaml`.
pub fn write_example_log(dir: &Path, entries: usize) -> PathBuf {
    assert!(entries >= 4);
    let path = dir.join("log.yaml");
    let mut log = Log::create(&path).unwrap();
    let mut minute = 0;
    let mut tick = || {
        minute += 1;
        at(minute)
    };
    log.append(
        Payload::Create {
            engine_version: "0.1.0".into(),
            rules_revision: "deluxe-2015".into(),
            options: yaml("optional_cards: true\nvariant: standard\n"),
            players: Players {
                us: "truman@example.org".into(),
                ussr: "stalin@example.org".into(),
            },
            seed_commitment: Hex32(fairness::seed_commitment(&SEED)),
            dice_chain_end: Some(Hex32(fairness::dice_chain_end(&SEED))),
            test_seed: true,
            moderator: None,
            moderator_plays: false,
            seats: None,
        },
        Author::Moderator,
        tick(),
    )
    .unwrap();
    log.append(
        Payload::Join {
            side: Side::Ussr,
            nonce: "yes".into(),
            typed_by_moderator: true,
        },
        Author::Ussr,
        tick(),
    )
    .unwrap();
    log.append(
        Payload::Join {
            side: Side::Us,
            nonce: "NO: 12:30 ---\nsecond line".into(),
            typed_by_moderator: true,
        },
        Author::Us,
        tick(),
    )
    .unwrap();
    let mut k = 0u64;
    let mut turn = 1u32;
    while log.len() < entries - 1 {
        let head = log.head();
        let seq = log.next_seq();
        let (payload, by) = match log.len() % 5 {
            0 => {
                let deck = fairness::shuffle(&SEED, head.as_bytes(), "shuffle", 0, k, 35);
                let hand: Vec<u8> = deck[..8].iter().map(|&i| (i + 1) as u8).collect();
                let side = if seq.is_multiple_of(2) { "us" } else { "ussr" };
                let salt = fairness::hand_salt(&SEED, side, seq);
                let digest = fairness::commitment(&salt, &fairness::canonical_hand(&hand));
                k += 1;
                (
                    Payload::Commitment {
                        kind: CommitmentKind::Hand,
                        side: Some(if side == "us" { Side::Us } else { Side::Ussr }),
                        turn: None,
                        digest: Hex32(digest),
                    },
                    Author::Moderator,
                )
            }
            1 => {
                let roll = fairness::die_roll(&SEED, head.as_bytes(), "die", 0, k);
                k += 1;
                (
                    Payload::Chance {
                        what: yaml(&format!(
                            "die: {roll}\nfor: coup\nlabel: d6\nk: {}\n",
                            k - 1
                        )),
                    },
                    Author::Moderator,
                )
            }
            2 => (
                Payload::Decision {
                    side: Side::Ussr,
                    notation: "play 19 ops coup Iran".into(),
                    answer: yaml("play: {card: 19, use: ops, coup: Iran}\n"),
                },
                Author::Ussr,
            ),
            3 => {
                let salt = fairness::headline_salt(&SEED, "us", turn);
                let digest =
                    fairness::commitment(&salt, &fairness::canonical_headline("us", turn, 27));
                turn += 1;
                (
                    Payload::Commitment {
                        kind: CommitmentKind::Headline,
                        side: Some(Side::Us),
                        turn: Some(turn),
                        digest: Hex32(digest),
                    },
                    Author::Moderator,
                )
            }
            _ => (
                Payload::Decision {
                    side: Side::Us,
                    notation: "play Duck and Cover event # ---".into(),
                    answer: yaml("play: {card: 'Duck and Cover', use: event}\n"),
                },
                Author::Us,
            ),
        };
        log.append(payload, by, tick()).unwrap();
    }
    log.append(
        Payload::Reveal { seed: Hex32(SEED) },
        Author::Moderator,
        tick(),
    )
    .unwrap();
    assert_eq!(log.len(), entries);
    path
}
