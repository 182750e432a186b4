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

/// Cards as a comma-separated list.
fn list(v: &[u8]) -> String {
    v.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A deal of FAIRNESS.md §3.7 with the code's shuffle: hands `ussr` and `us` filled for turn
/// `turn` (8 cards to turn 3, 9 after) one card at a time from the top of `deck` (bottom
/// first), USSR first; when the deck is empty, the next record's cards `then` are shuffled
/// in (the shuffle `k` of resolution `r`). Returns the hands ascending and the deck top first.
fn deal(
    key: &[u8; 32],
    mix: &[u8; 32],
    (r, k, turn): (u64, u64, u64),
    hands: [Vec<u8>; 2],
    deck: Vec<u8>,
    then: Vec<u8>,
) -> String {
    let target = if turn <= 3 { 8 } else { 9 };
    let (mut hands, mut deck, mut then) = (hands, deck, Some(then));
    loop {
        let mut dealt = false;
        for hand in &mut hands {
            if hand.len() < target {
                if deck.is_empty() {
                    if let Some(mut added) = then.take() {
                        added.sort_unstable();
                        let perm = fairness::shuffle(key, mix, "shuffle", r, k, added.len());
                        deck = perm.iter().map(|&i| added[i]).collect();
                    }
                }
                if let Some(c) = deck.pop() {
                    hand.push(c);
                    dealt = true;
                }
            }
        }
        if !dealt {
            break;
        }
    }
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

/// A shuffle of FAIRNESS.md §3.5 with the code's: the undrawn `deck` (bottom first) and the
/// `added` cards, ascending, permuted by the shuffle `k` of resolution `r`. The deck, top first.
fn shuffle_in(
    key: &[u8; 32],
    mix: &[u8; 32],
    (r, k): (u64, u64),
    deck: &[u8],
    added: &[u8],
) -> String {
    let mut all: Vec<u8> = deck.iter().chain(added).copied().collect();
    all.sort_unstable();
    let perm = fairness::shuffle(key, mix, "shuffle", r, k, all.len());
    let mut new: Vec<u8> = perm.iter().map(|&i| all[i]).collect();
    new.reverse();
    list(&new)
}

/// The canonical form of a standing order (FAIRNESS.md §16) by the code, from a vector's
/// arguments: the kind read from its JSON, `%20` in the move a space.
fn canonical_standing_order(args: &BTreeMap<&str, &str>) -> String {
    use twilight_pbem::data::{Card, Side};
    let side = match args["side"] {
        "us" => Side::Us,
        "ussr" => Side::Ussr,
        other => panic!("no side {other}"),
    };
    let card = Card::from_number(args["card"].parse().unwrap()).expect("a card");
    let kind: twilight_pbem::engine::PromptKind = serde_json::from_str(args["kind"]).unwrap();
    let answer = args["move"].replace("%20", " ");
    hex::encode(
        twilight_pbem::session::correspondence::standing_orders::canonical(
            side, card, &answer, &kind,
        ),
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
        "deal" => deal(
            &key(),
            &mix(),
            (num("r"), num("k"), num("turn")),
            [cards(arg("ussr")), cards(arg("us"))],
            cards(arg("deck")),
            cards(arg("then")),
        ),
        "shuffle_in" => shuffle_in(
            &key(),
            &mix(),
            (num("r"), num("k")),
            &cards(arg("deck")),
            &cards(arg("added")),
        ),
        "standing_order_salt" => hex::encode(fairness::standing_order_salt(
            &hex32(arg("seed")),
            arg("side"),
            num("seq"),
        )),
        "canonical_standing_order" => canonical_standing_order(args),
        "turn_zero_crisis" => {
            // §15: `left[(d − 1) mod n]` of the crises left, in listed order, by the engine's names.
            use twilight_pbem::engine::turn_zero::Crisis;
            let all = [Crisis::PILE_1, Crisis::PILE_2].concat();
            let left: Vec<Crisis> = arg("left")
                .split(',')
                .map(|n| {
                    let n = n.replace("%20", " ");
                    *all.iter().find(|c| c.name() == n).expect("a crisis")
                })
                .collect();
            let d = fairness::die_roll(&key(), &mix(), "die", num("r"), num("k"));
            left[usize::from(d - 1) % left.len()]
                .name()
                .replace(' ', "%20")
        }
        "crisis_result" => {
            use twilight_pbem::engine::turn_zero::{modified_result, Statecraft};
            let card = |side, name: &str| {
                *Statecraft::hand(side)
                    .iter()
                    .find(|c| c.name() == name)
                    .expect("a superpower card")
            };
            use twilight_pbem::data::Side;
            modified_result(
                num("die") as u8,
                card(Side::Us, arg("us")),
                card(Side::Ussr, arg("ussr")),
            )
            .to_string()
        }
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
        "deal",
        "shuffle_in",
        "standing_order_salt",
        "canonical_standing_order",
        "turn_zero_crisis",
        "crisis_result",
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

/// The lines of the fenced block of FAIRNESS.md whose info string is `name`.
fn block_lines<'a>(markdown: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("```{name}");
    let mut out = Vec::new();
    let mut inside = false;
    for line in markdown.lines() {
        let t = line.trim();
        if inside {
            if t.starts_with("```") {
                break;
            }
            if !t.is_empty() {
                out.push(t);
            }
        } else if t == open {
            inside = true;
        }
    }
    out
}

#[test]
fn every_kind_of_decision_reads_and_writes_back_as_fairness_md_gives_it() {
    // §16: JSON(kind) of a standing order is serde_json's form of `PromptKind`; the page gives
    // one example of every kind, and each must read and write back byte for byte.
    let lines = block_lines(FAIRNESS_MD, "kinds");
    let mut kinds = std::collections::HashSet::new();
    for line in &lines {
        let kind: twilight_pbem::engine::PromptKind =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(serde_json::to_string(&kind).unwrap(), *line);
        kinds.insert(std::mem::discriminant(&kind));
    }
    assert_eq!(kinds.len(), lines.len(), "one example of each kind");
    assert_eq!(lines.len(), 14, "every kind of PromptKind");
}

#[test]
fn the_card_table_of_fairness_md_is_the_engines() {
    // §3.8: war period, Ops, whose event, asterisk, underline and set of every card, as the
    // engine's card table has them (`src/data/cards.rs`).
    use twilight_pbem::data::{Card, Era, Side};
    let rows: Vec<Vec<&str>> = FAIRNESS_MD
        .lines()
        .skip_while(|l| !l.starts_with("| # | card | war | Ops | event | ★ | lasting | set |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), twilight_pbem::data::CARDS.len());
    for (row, info) in rows.iter().zip(twilight_pbem::data::CARDS.iter()) {
        let era = match info.era {
            Era::Early => "Early",
            Era::Mid => "Mid",
            Era::Late => "Late",
        };
        let owner = match (info.scoring, info.side) {
            (Some(_), _) => "scoring",
            (None, Some(Side::Us)) => "US",
            (None, Some(Side::Ussr)) => "USSR",
            (None, None) => "—",
        };
        let set = match (info.optional, info.promo) {
            (true, _) => "optional".to_string(),
            (_, true) => format!("promo {}", if (info.card as u8) <= 120 { 1 } else { 2 }),
            _ => "base".to_string(),
        };
        let want = vec![
            (info.card as u8).to_string(),
            info.name.to_string(),
            era.to_string(),
            info.ops.to_string(),
            owner.to_string(),
            if info.starred { "★" } else { "" }.to_string(),
            if info.lasting { "yes" } else { "" }.to_string(),
            set,
        ];
        assert_eq!(row, &want, "{:?}", info.card);
        assert_eq!(Card::from_number(info.card as u8), Some(info.card));
    }
}
