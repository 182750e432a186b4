//! The test vectors of `schemas/FAIRNESS.md`, read from the page itself so that the page and
//! the code cannot drift apart, plus statistical sanity of dice, uniform draws and shuffles.
//!
//! Vector syntax (FAIRNESS.md §12): inside each ```` ```vectors ```` block, one vector per
//! line, `function key=value … -> expected`; `#` starts a comment line. Hex values are lower
//! case; lists are comma-separated (`cards=5,1,3`) or space-separated after the arrow.

use std::collections::{BTreeMap, BTreeSet};

use twilight_pbem::chance::fairness::{self, ChanceStream};
use twilight_pbem::log::entry_hash;

const FAIRNESS_MD: &str = include_str!("../schemas/FAIRNESS.md");

/// The lines of every ```` ```vectors ```` block.
fn vector_lines(markdown: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in markdown.lines() {
        let trimmed = line.trim();
        if inside {
            if trimmed.starts_with("```") {
                inside = false;
            } else if !trimmed.is_empty() && !trimmed.starts_with('#') {
                out.push(trimmed);
            }
        } else if trimmed == "```vectors" {
            inside = true;
        }
    }
    out
}

fn hex32(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).unwrap_or_else(|e| panic!("bad 32-byte hex {s:?}: {e}"));
    out
}

fn cards(s: &str) -> Vec<u8> {
    if s.is_empty() {
        return Vec::new();
    }
    s.split(',').map(|c| c.parse().unwrap()).collect()
}

/// Space-separated values; `(none)` for an empty list.
fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let words: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    if words.is_empty() {
        "(none)".to_string()
    } else {
        words.join(" ")
    }
}

/// The opening shuffle and deal (FAIRNESS.md §3.3): `cards` (the opening deck, ascending)
/// shuffled by the deck key in resolution 0, then dealt one card at a time from the top,
/// USSR first, alternating, 8 each. Returns `ussr=… us=…` (hands ascending) and the rest of
/// the deck top first.
fn opening_deal(key: &[u8; 32], mix: &[u8; 32], cards: &[u8]) -> String {
    let perm = fairness::shuffle(key, mix, "shuffle", 0, 0, cards.len());
    let mut deck: Vec<u8> = perm.iter().map(|&i| cards[i]).collect();
    let mut hands = [Vec::new(), Vec::new()];
    for _ in 0..8 {
        for hand in &mut hands {
            hand.push(deck.pop().expect("enough cards"));
        }
    }
    let list = |v: &[u8]| {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    hands[0].sort_unstable();
    hands[1].sort_unstable();
    deck.reverse();
    format!(
        "ussr={} us={} deck={}",
        list(&hands[0]),
        list(&hands[1]),
        list(&deck)
    )
}

/// Computes what the code gives for one vector's function and arguments.
fn compute(function: &str, args: &BTreeMap<&str, &str>) -> String {
    let arg = |k: &str| {
        *args
            .get(k)
            .unwrap_or_else(|| panic!("{function}: missing argument {k}"))
    };
    let num = |k: &str| -> u64 { arg(k).parse().unwrap() };
    let key = || hex32(arg("key"));
    let mix = || hex32(arg("mix"));
    match function {
        "seed_commitment" => hex::encode(fairness::seed_commitment(&hex32(arg("seed")))),
        "dice_key" => hex::encode(fairness::dice_key(&hex32(arg("seed")), num("turn") as u32)),
        "dice_chain_end" => hex::encode(fairness::dice_chain_end(&hex32(arg("seed")))),
        "is_dice_key" => {
            fairness::is_dice_key(&key(), num("turn") as u32, &hex32(arg("end"))).to_string()
        }
        "deck_key" => hex::encode(fairness::deck_key(&hex32(arg("seed")))),
        "nonce_mix" => hex::encode(fairness::nonce_mix(arg("ussr"), arg("us"))),
        "test_seed" => hex::encode(fairness::test_seed(num("n"))),
        "small_test_number" => fairness::small_test_number(&hex32(arg("commitment")))
            .map_or("none".to_string(), |n| n.to_string()),
        "stream" => {
            let mut s = ChanceStream::new(&key(), &mix(), arg("label"), num("r"), num("k"));
            let bytes: Vec<u8> = (0..num("bytes")).map(|_| s.next_byte()).collect();
            hex::encode(bytes)
        }
        "die_roll" => {
            let (from, to) = arg("k").split_once("..").unwrap();
            let (from, to): (u64, u64) = (from.parse().unwrap(), to.parse().unwrap());
            join((from..to).map(|k| fairness::die_roll(&key(), &mix(), arg("label"), num("r"), k)))
        }
        "die_stream" => {
            let mut s = ChanceStream::new(&key(), &mix(), arg("label"), num("r"), num("k"));
            join((0..num("count")).map(|_| s.die()))
        }
        "uniform_index" => fairness::uniform_index(
            &key(),
            &mix(),
            arg("label"),
            num("r"),
            num("k"),
            num("n") as usize,
        )
        .to_string(),
        "shuffle" => join(fairness::shuffle(
            &key(),
            &mix(),
            arg("label"),
            num("r"),
            num("k"),
            num("n") as usize,
        )),
        "opening_deal" => opening_deal(&key(), &mix(), &cards(arg("cards"))),
        "hand_salt" => hex::encode(fairness::hand_salt(
            &hex32(arg("seed")),
            arg("side"),
            num("seq"),
        )),
        "headline_salt" => hex::encode(fairness::headline_salt(
            &hex32(arg("seed")),
            arg("side"),
            num("turn") as u32,
        )),
        "canonical_hand" => hex::encode(fairness::canonical_hand(&cards(arg("cards")))),
        "canonical_headline" => hex::encode(fairness::canonical_headline(
            arg("side"),
            num("turn") as u32,
            num("card") as u8,
        )),
        "commitment" => hex::encode(fairness::commitment(
            &hex32(arg("salt")),
            &hex::decode(arg("canonical")).unwrap(),
        )),
        "reply_token" => {
            fairness::reply_token(&hex32(arg("seed")), arg("game_id"), num("seq"), arg("side"))
        }
        "entry_hash" => entry_hash(&hex::decode(arg("document")).unwrap()).to_hex(),
        "bid_salt" => hex::encode(twilight_pbem::chance::bid::bid_salt(
            &hex32(arg("seed")),
            num("seat") as u8,
        )),
        "canonical_bid" => hex::encode(twilight_pbem::chance::bid::canonical_bid(
            num("seat") as u8,
            twilight_pbem::chance::bid::parse_bid(&format!("{} {}", arg("side"), arg("influence")))
                .unwrap(),
        )),
        "seat_mix" => hex::encode(twilight_pbem::chance::bid::seat_mix(
            arg("seat1"),
            arg("seat2"),
        )),
        "superpower_card_salt" => hex::encode(fairness::superpower_card_salt(
            &hex32(arg("seed")),
            arg("side"),
            num("crisis") as u32,
        )),
        "canonical_superpower_card" => hex::encode(fairness::canonical_superpower_card(
            arg("side"),
            num("crisis") as u32,
            arg("card"),
        )),
        "bid_draw" => twilight_pbem::chance::bid::bid_draw(&key(), &mix()).to_string(),
        other => panic!("unknown vector function {other:?}"),
    }
}

#[test]
fn fairness_md_vectors_are_reproduced() {
    let lines = vector_lines(FAIRNESS_MD);
    let mut functions = BTreeSet::new();
    let mut mismatches = Vec::new();
    for line in &lines {
        let (call, expected) = line
            .split_once(" -> ")
            .unwrap_or_else(|| panic!("vector without ` -> `: {line}"));
        let mut words = call.split_whitespace();
        let function = words.next().unwrap();
        let args: BTreeMap<&str, &str> = words
            .map(|w| {
                w.split_once('=')
                    .unwrap_or_else(|| panic!("argument without `=` in {line}"))
            })
            .collect();
        let actual = compute(function, &args);
        functions.insert(function);
        if actual != expected.trim() {
            mismatches.push(format!("{call} -> {actual}"));
        }
    }
    println!(
        "{} vectors from FAIRNESS.md, {} functions",
        lines.len(),
        functions.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} vector(s) differ; the code gives:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    let all = [
        "seed_commitment",
        "dice_key",
        "dice_chain_end",
        "is_dice_key",
        "deck_key",
        "nonce_mix",
        "test_seed",
        "small_test_number",
        "stream",
        "die_roll",
        "die_stream",
        "uniform_index",
        "shuffle",
        "opening_deal",
        "hand_salt",
        "headline_salt",
        "canonical_hand",
        "canonical_headline",
        "commitment",
        "reply_token",
        "entry_hash",
    ];
    for f in all {
        assert!(functions.contains(f), "FAIRNESS.md has no vector for {f}");
    }
}

#[test]
fn the_vectors_include_rejections() {
    // FAIRNESS.md states that its die_stream and uniform_index vectors hit the rejection
    // rule; check that they really do, so the vectors pin that rule down.
    let lines = vector_lines(FAIRNESS_MD);
    let rejecting = lines
        .iter()
        .filter(|l| l.starts_with("stream ") && l.contains("label=reject"))
        .count();
    assert!(
        rejecting >= 2,
        "expected the rejection streams in FAIRNESS.md"
    );
}

const SEED: [u8; 32] = [0x11; 32];

#[test]
fn dice_are_uniform_enough() {
    let head = [0x22; 32];
    let mut counts = [0u32; 7];
    for k in 0..60_000 {
        counts[usize::from(fairness::die_roll(&SEED, &head, "die", 0, k))] += 1;
    }
    assert_eq!(counts[0], 0);
    // Mean 10,000, standard deviation ≈ 91.3: allow five deviations either way.
    for (face, &c) in counts.iter().enumerate().skip(1) {
        assert!((9_544..=10_456).contains(&c), "face {face}: {c}");
    }
    // Chi-square with 5 degrees of freedom: 20.5 is the 0.1% critical value.
    let chi2: f64 = counts[1..]
        .iter()
        .map(|&c| (f64::from(c) - 10_000.0).powi(2) / 10_000.0)
        .sum();
    println!("60,000 rolls: {:?}, chi-square {chi2:.2}", &counts[1..]);
    assert!(chi2 < 20.5, "chi-square {chi2}");
}

#[test]
fn uniform_index_is_uniform_enough() {
    let head = [0x33; 32];
    let n = 110;
    let mut counts = vec![0u32; n];
    let mut stream = ChanceStream::new(&SEED, &head, "many", 0, 0);
    for _ in 0..110_000 {
        counts[stream.below(n)] += 1;
    }
    // Mean 1,000, standard deviation ≈ 31.5.
    let chi2: f64 = counts
        .iter()
        .map(|&c| (f64::from(c) - 1_000.0).powi(2) / 1_000.0)
        .sum();
    println!("110,000 draws below 110: chi-square {chi2:.1} (109 degrees of freedom)");
    for (i, &c) in counts.iter().enumerate() {
        assert!((840..=1_160).contains(&c), "value {i}: {c}");
    }
    // 109 degrees of freedom: 159.4 is the 0.1% critical value.
    assert!(chi2 < 159.4, "chi-square {chi2}");
}

#[test]
fn shuffles_are_permutations() {
    let head = [0x44; 32];
    for n in 0..=120usize {
        for k in 0..3 {
            let mut p = fairness::shuffle(&SEED, &head, "shuffle", 7, k, n);
            p.sort_unstable();
            assert_eq!(p, (0..n).collect::<Vec<_>>(), "n = {n}, k = {k}");
        }
    }
}

#[test]
fn shuffles_of_four_hit_every_order_about_equally() {
    let head = [0x55; 32];
    let mut counts: BTreeMap<Vec<usize>, u32> = BTreeMap::new();
    for k in 0..24_000 {
        *counts
            .entry(fairness::shuffle(&SEED, &head, "four", 0, k, 4))
            .or_default() += 1;
    }
    assert_eq!(counts.len(), 24);
    // Mean 1,000, standard deviation ≈ 30.6; allow five.
    for (p, &c) in &counts {
        assert!((847..=1_153).contains(&c), "{p:?}: {c}");
    }
}

#[test]
fn the_nonces_change_every_draw() {
    // The players' join nonces feed every draw through the nonce mix: another nonce, another
    // deck order (FAIRNESS.md §3).
    let a = fairness::shuffle(&SEED, &fairness::nonce_mix("a", "b"), "shuffle", 0, 0, 35);
    let b = fairness::shuffle(&SEED, &fairness::nonce_mix("a", "c"), "shuffle", 0, 0, 35);
    assert_ne!(a, b);
}

#[test]
fn the_python_reference_agrees_with_the_page() {
    // tools/fairness_reference.py re-implements FAIRNESS.md with Python's standard library.
    // Machines without python3 skip this check (and say so); the Rust vectors above still run.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/fairness_reference.py");
    match std::process::Command::new("python3").arg(script).output() {
        Err(e) => println!("python3 not available ({e}); reference check skipped"),
        Ok(out) => {
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            println!("python reference: {}", stdout.trim());
        }
    }
}
