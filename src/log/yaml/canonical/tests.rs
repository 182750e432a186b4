//! Differential tests of the canonical reader against the library parser: whenever the reader
//! gives an entry, the library gives the same one (the module's claim), on random entries as the
//! emitter writes them and on random mutations of real documents; and the reader does read what
//! the emitter writes from plain content, so the fast path is taken.

use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;

use super::parse;
use crate::data::Side;
use crate::log::yaml::{entry_document, parse_entry};
use crate::log::{
    Author, BidBonus, Cancelled, CommitmentKind, DrawAct, Entry, Hex32, Payload, Players,
    RevealedBid, Value,
};

/// The library's entry for `doc`, if it reads one.
fn library(doc: &str) -> Option<Entry> {
    parse_entry(doc).ok()
}

/// The claim: the reader gives nothing, or what the library gives.
fn check_agrees(doc: &str) -> Option<Entry> {
    let fast = parse(doc);
    if let Some(entry) = &fast {
        assert_eq!(
            library(doc).as_ref(),
            Some(entry),
            "the reader and the library differ on:\n{doc}"
        );
    }
    fast
}

/// Texts that trouble YAML: quotes, colons, comment signs, indicators, numbers, null and
/// boolean spellings, non-ASCII, line breaks, spaces at either end.
fn tricky_text() -> BoxedStrategy<String> {
    prop_oneof![
        "[a-z]{1,8}( [A-Za-z0-9,'.()-]{1,10}){0,4}",
        "[ -~]{0,24}",
        "\\PC{0,12}",
        "[a-z0-9 :#'\"\\-\n\t]{0,16}",
        prop::sample::select(vec![
            "",
            "null",
            "Null",
            "~",
            "true",
            "False",
            "yes",
            "no",
            "y",
            "0",
            "007",
            "-0",
            "+1",
            "1e5",
            "1.5",
            ".inf",
            "-.inf",
            ".nan",
            "0x1f",
            "0o17",
            "12:30",
            "a: b",
            "a:b",
            "#x",
            "a #b",
            "- x",
            "-x",
            "'q'",
            "it's",
            "\"q\"",
            "[a]",
            "{a: 1}",
            "&a",
            "*a",
            "!t",
            "|",
            ">",
            "%x",
            "@x",
            "`x",
            "--- x",
            "...",
            "a\nb",
            " a",
            "a ",
            "é",
            "inf",
            "nan",
            "_x",
            "18446744073709551616",
            "-9223372036854775809",
        ])
        .prop_map(str::to_string),
    ]
    .boxed()
}

/// Text the emitter writes plain or single-quoted, all of which the reader must take.
fn plain_text() -> BoxedStrategy<String> {
    "[a-zA-Z][a-zA-Z0-9 ,.'()-]{0,20}".boxed()
}

fn hex32() -> impl Strategy<Value = Hex32> {
    any::<[u8; 32]>().prop_map(Hex32)
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Us), Just(Side::Ussr)]
}

fn date() -> impl Strategy<Value = NaiveDate> {
    (0i32..200_000).prop_map(|d| NaiveDate::from_num_days_from_ce_opt(700_000 + d).unwrap())
}

fn time() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_000_000_000, 0u32..1_000_000_000)
        .prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap())
}

/// A free-form value: `text` for its strings, `keys` for its mapping keys, floats when
/// `floats`.
fn value(
    text: BoxedStrategy<String>,
    keys: BoxedStrategy<String>,
    floats: bool,
) -> BoxedStrategy<Value> {
    let float = if floats {
        prop_oneof![any::<f64>(), -10.0f64..10.0].boxed()
    } else {
        Just(0.0).boxed()
    };
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        float.prop_map(move |f| if floats { Value::from(f) } else { Value::Null }),
        text.clone().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Sequence),
            prop::collection::vec((keys.clone(), inner), 0..4).prop_map(|items| {
                Value::Mapping(
                    items
                        .into_iter()
                        .map(|(k, v)| (Value::String(k), v))
                        .collect(),
                )
            }),
        ]
    })
    .boxed()
}

/// An entry of any kind, its strings from `text`, the keys of its free-form values from
/// `keys`.
fn entry(
    text: BoxedStrategy<String>,
    keys: BoxedStrategy<String>,
    floats: bool,
) -> impl Strategy<Value = Entry> {
    let t = text.clone();
    let v = value(text, keys, floats);
    let payload = prop_oneof![
        (side(), t.clone(), v.clone()).prop_map(|(side, notation, answer)| Payload::Decision {
            side,
            notation,
            answer
        }),
        v.clone().prop_map(|what| Payload::Chance { what }),
        (side(), t.clone(), any::<bool>()).prop_map(|(side, nonce, typed_by_moderator)| {
            Payload::Join {
                side,
                nonce,
                typed_by_moderator,
            }
        }),
        (
            prop_oneof![
                Just(CommitmentKind::Hand),
                Just(CommitmentKind::Headline),
                Just(CommitmentKind::SuperpowerCard)
            ],
            proptest::option::of(side()),
            proptest::option::of(any::<u32>()),
            hex32()
        )
            .prop_map(|(kind, side, turn, digest)| Payload::Commitment {
                kind,
                side,
                turn,
                digest
            }),
        (
            t.clone(),
            t.clone(),
            v.clone(),
            (t.clone(), t.clone()),
            proptest::option::of(prop::collection::vec(t.clone(), 0..3)),
            hex32(),
            proptest::option::of(hex32()),
            (
                any::<bool>(),
                proptest::option::of(t.clone()),
                any::<bool>()
            )
        )
            .prop_map(
                |(
                    engine_version,
                    rules_revision,
                    options,
                    (us, ussr),
                    seats,
                    seed_commitment,
                    dice_chain_end,
                    (test_seed, moderator, moderator_plays),
                )| {
                    Payload::Create {
                        engine_version,
                        rules_revision,
                        options,
                        players: Players { us, ussr },
                        seats,
                        seed_commitment,
                        dice_chain_end,
                        test_seed,
                        moderator,
                        moderator_plays,
                    }
                }
            ),
        (side(), prop::collection::vec((any::<u64>(), hex32()), 0..3)).prop_map(
            |(side, cancels)| Payload::TakebackRequest {
                side,
                cancels: cancels
                    .into_iter()
                    .map(|(seq, hash)| Cancelled { seq, hash })
                    .collect()
            }
        ),
        (side(), date(), date()).prop_map(|(side, from, to)| Payload::Leave { side, from, to }),
        (side(), time()).prop_map(|(side, deadline)| Payload::Timeout { side, deadline }),
        (time(), time()).prop_map(|(from, to)| Payload::Outage { from, to }),
        (proptest::option::of(side()), t.clone())
            .prop_map(|(winner, note)| Payload::Adjudication { winner, note }),
        (
            side(),
            prop_oneof![
                Just(DrawAct::Offer),
                Just(DrawAct::Accept),
                Just(DrawAct::Decline)
            ]
        )
            .prop_map(|(side, act)| Payload::Draw { side, act }),
        (side(), any::<u64>(), t.clone(), hex32()).prop_map(|(side, order, text, salt)| {
            Payload::StandingOrderUsed {
                side,
                order,
                text,
                salt,
            }
        }),
        (
            prop::collection::vec((any::<u8>(), side(), any::<u8>(), hex32()), 0..3),
            proptest::option::of(any::<u8>()),
            (t.clone(), t),
            proptest::option::of((side(), any::<u8>()))
        )
            .prop_map(
                |(bids, draw_winner, (us, ussr), bonus)| Payload::BidResult {
                    bids: bids
                        .into_iter()
                        .map(|(seat, side, influence, salt)| RevealedBid {
                            seat,
                            side,
                            influence,
                            salt
                        })
                        .collect(),
                    draw_winner,
                    players: Players { us, ussr },
                    bonus: bonus.map(|(side, influence)| BidBonus { side, influence }),
                }
            ),
        (1u32..11, hex32()).prop_map(|(turn, key)| Payload::DiceKey { turn, key }),
        hex32().prop_map(|seed| Payload::Reveal { seed }),
    ];
    (
        any::<u64>(),
        time(),
        prop_oneof![
            Just(Author::Us),
            Just(Author::Ussr),
            Just(Author::Moderator)
        ],
        hex32(),
        payload,
    )
        .prop_map(|(seq, at, by, prev, payload)| Entry {
            seq,
            at,
            by,
            prev,
            payload,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random entries with troublesome strings and floats, as the emitter writes them: the
    /// reader gives nothing or the library's entry.
    #[test]
    fn reader_agrees_with_the_library_on_random_entries(e in entry(tricky_text(), tricky_text(), true)) {
        let doc = entry_document(&e).unwrap();
        check_agrees(&doc);
    }

    /// Entries of plain content (no floats, no `#`, no non-ASCII, keys of letters, digits and
    /// `_`) as the emitter writes them: the reader reads every one, and gives back the entry
    /// written.
    #[test]
    fn reader_reads_what_the_emitter_writes_from_plain_content(e in entry(plain_text(), "[a-z_][a-z0-9_]{0,8}".boxed(), false)) {
        let doc = entry_document(&e).unwrap();
        prop_assert_eq!(check_agrees(&doc), Some(e), "{}", doc);
    }
}

/// The documents of the example game and of a random entry of each kind.
fn real_documents() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/example-complete/log.yaml"
    ))
    .unwrap();
    let split = crate::log::split_documents(text.as_bytes());
    split
        .documents
        .iter()
        .map(|r| text[r.clone()].to_string())
        .collect()
}

/// Every document of the example game (a complete sealed game) is read by the reader, as the
/// library reads it.
#[test]
fn reader_reads_every_document_of_the_example_game() {
    let docs = real_documents();
    assert!(docs.len() > 700);
    for doc in &docs {
        assert!(check_agrees(doc).is_some(), "not read:\n{doc}");
    }
}

/// Bytes a mutation writes: the YAML indicators, white space, line breaks, digits, letters.
const MUTATION_BYTES: &[u8] = b" \n\t:#-'\"{}[],&*!|>%@`?.~0159azAZ_\\\r";

/// A small deterministic generator (xorshift), so the mutation test needs no seed file.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// One random change to `doc`: a byte replaced, inserted or removed, a line indented or
/// dedented by one or two spaces, removed or repeated, or two lines swapped.
fn mutate(doc: &str, rng: &mut Rng) -> String {
    let mut bytes = doc.as_bytes().to_vec();
    let lines: Vec<&str> = doc.split_inclusive('\n').collect();
    let line = rng.below(lines.len());
    let relines = |f: &dyn Fn(&mut Vec<String>)| {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        f(&mut l);
        l.concat()
    };
    match rng.below(8) {
        0 => {
            let at = rng.below(bytes.len());
            bytes[at] = MUTATION_BYTES[rng.below(MUTATION_BYTES.len())];
        }
        1 => {
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, MUTATION_BYTES[rng.below(MUTATION_BYTES.len())]);
        }
        2 => {
            let at = rng.below(bytes.len());
            bytes.remove(at);
        }
        3 => {
            return relines(&|l| {
                l[line].insert_str(0, if line.is_multiple_of(2) { " " } else { "  " })
            })
        }
        4 => {
            return relines(&|l| {
                let n = l[line].len() - l[line].trim_start_matches(' ').len();
                l[line].drain(..n.min(1 + line % 2));
            })
        }
        5 => return relines(&|l| drop(l.remove(line))),
        6 => return relines(&|l| l.insert(line, l[line].clone())),
        _ => {
            let other = rng.below(lines.len());
            return relines(&|l| l.swap(line, other));
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Random mutations of real documents (one to three changes each): whenever the reader still
/// reads one, the library reads the same entry; and both outcomes occur, so the test is not
/// empty.
#[test]
fn reader_agrees_with_the_library_on_mutated_documents() {
    let docs = real_documents();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut read, mut left) = (0, 0);
    for i in 0..30_000 {
        let mut doc = docs[rng.below(docs.len())].clone();
        for _ in 0..=i % 3 {
            doc = mutate(&doc, &mut rng);
        }
        match check_agrees(&doc) {
            Some(_) => read += 1,
            None => left += 1,
        }
    }
    assert!(read > 1_000 && left > 10_000, "read {read}, left {left}");
}

/// Plain scalars YAML resolves specially, and texts that trouble the scanner: each is put in
/// place of values and keys of real documents by
/// `reader_agrees_with_the_library_on_adversarial_values`.
const ADVERSARIAL: &[&str] = &[
    "~",
    "null",
    "Null",
    "NULL",
    "nUll",
    "true",
    "True",
    "TRUE",
    "tRue",
    "false",
    "FALSE",
    "yes",
    "Yes",
    "no",
    "No",
    "on",
    "On",
    "off",
    "OFF",
    "y",
    "n",
    "Y",
    "N",
    ".inf",
    "-.Inf",
    "+.inf",
    ".nan",
    ".NaN",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "infinity",
    "Infinity",
    "-infinity",
    "0o17",
    "0x1F",
    "0x1f",
    "-0x1f",
    "0b101",
    "-0b1",
    "+12",
    "1_000",
    "1e3",
    "1E3",
    "1e-3",
    "1.",
    "1.5",
    "-1.5",
    ".5",
    "012",
    "-012",
    "0",
    "-0",
    "00",
    "+0",
    "-",
    "1-2",
    "1:2",
    "1:30",
    "12:30:45",
    "2026-12-01",
    "2026-12-01T21:29:42Z",
    "2026-12-01 21:29:42",
    "2026-12-01T21:29:42.592902817+00:00",
    "2026-12-01t21:29:42z",
    "2026-12-01T21:29:42.592902817Z",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999",
    "a: b",
    "a:b",
    "a:",
    "a #b",
    "a#b",
    "#a",
    "a ",
    " a",
    "'a'",
    "'a''b'",
    "''",
    "''''",
    "'a'b'",
    "'",
    "'a",
    "a'",
    "\"a\"",
    "[]",
    "{}",
    "[a]",
    "{a: 1}",
    "[ ]",
    "{ }",
    "&a x",
    "*a",
    "!!str 1",
    "!t x",
    "|",
    ">",
    "|-",
    "%x",
    "@x",
    "`x",
    "? x",
    "--- x",
    "---",
    "...",
    "-x",
    "- x",
    "-1",
    "a\\b",
    "a,b",
    "a, b",
    "a[b]",
    "a{b}",
    "ab:c",
    "_",
    "_1",
    "us",
    "ussr",
    "US",
    "Us",
    "us ",
    "ussr:",
    "0.1.0",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000 ",
    "'0000000000000000000000000000000000000000000000000000000000000000'",
    "d6f976b4f0aaddf259f336529ae8021117b7f40d779cfb6e4e26ffb2441f69da",
    "D6F976B4F0AADDF259F336529AE8021117B7F40D779CFB6E4E26FFB2441F69DA",
    "6f976b4f0aaddf259f336529ae8021117b7f40d779cfb6e4e26ffb2441f69da",
    "1e999",
    "0e0",
    "1e",
    "e1",
    "0x",
    "0o",
    "0xg",
    "0x_1",
    "1__0",
    "0x1_0",
];

/// Each adversarial text in place of each value (after `KEY: ` or `- `) and each key of a
/// sample of real documents, and whole-line insertions of YAML punctuation: whenever the
/// reader reads the result, the library reads the same entry.
#[test]
fn reader_agrees_with_the_library_on_adversarial_values() {
    let docs = real_documents();
    let (mut read, mut total) = (0usize, 0usize);
    let mut run = |doc: String| {
        total += 1;
        if check_agrees(&doc).is_some() {
            read += 1;
        }
    };
    for doc in docs.iter().step_by(7) {
        let lines: Vec<&str> = doc.split_inclusive('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            let body = line.trim_end_matches('\n');
            let indent = body.len() - body.trim_start_matches(' ').len();
            let (head, value) = match body
                .find(": ")
                .or(body.strip_suffix(':').map(|_| body.len() - 1))
            {
                Some(at) => (&body[..at], body.get(at + 2..)),
                None => continue,
            };
            for a in ADVERSARIAL {
                let with = |new: String| {
                    let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                    l[i] = new;
                    l.concat()
                };
                if value.is_some() {
                    run(with(format!("{head}: {a}\n")));
                    run(with(format!("{head}:{a}\n")));
                }
                let key = head.trim_start_matches(' ');
                let pre = &head[..head.len() - key.len()];
                let rest = &body[head.len()..];
                run(with(format!("{pre}{a}{rest}\n")));
                run(with(format!("{pre}{key}{a}{rest}\n")));
                run(with(format!("{}{a}\n{body}\n", " ".repeat(indent))));
            }
        }
    }
    eprintln!("adversarial: {total} documents, {read} read by the reader");
    assert!(read > 1_000 && total > 50_000, "read {read} of {total}");
}

/// Pieces of YAML a token mutation inserts.
const MUTATION_TOKENS: &[&str] = &[
    ": ", " #", "#", "'", "''", "- ", "-", "{}", "[]", "{", "]", "&a ", "*a", "!!str ", "!t ",
    "\n", "\n  ", "\n- ", "...\n", "---\n", "--- x\n", "? ", "|\n", ">\n", "~", "null", "true",
    "0x", "0o", "1e3", ".inf", "_", " ", "  ", "\t", "\r", "\u{feff}", ",", "%", "@", "`", "\"",
    ":", "0", "-0", "+", ".",
];

/// One token mutation: a YAML piece inserted at a random byte, a line re-indented by one
/// space either way, a line duplicated, or a line's tail after `: ` cut.
fn mutate_tokens(doc: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = doc.split_inclusive('\n').collect();
    let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let i = rng.below(l.len());
    match rng.below(5) {
        0 | 1 => {
            let mut at = rng.below(doc.len() + 1);
            while !doc.is_char_boundary(at) {
                at -= 1;
            }
            let token = MUTATION_TOKENS[rng.below(MUTATION_TOKENS.len())];
            return format!("{}{token}{}", &doc[..at], &doc[at..]);
        }
        2 => {
            if rng.below(2) == 0 {
                l[i].insert(0, ' ');
            } else if l[i].starts_with(' ') {
                l[i].remove(0);
            }
        }
        3 => l.insert(i, l[i].clone()),
        _ => {
            if let Some(at) = l[i].find(": ") {
                l[i].truncate(at + 1);
                l[i].push('\n');
            }
        }
    }
    l.concat()
}

/// Token mutations of real documents, mixed with the byte and line mutations of [`mutate`]
/// (one to four each; `CANONICAL_MUTATIONS` sets how many
/// documents, 30,000 by default): whenever the reader reads one, the library reads the same
/// entry.
#[test]
fn reader_agrees_with_the_library_on_token_mutations() {
    let docs = real_documents();
    let runs: usize = std::env::var("CANONICAL_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30_000);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut read, mut left) = (0usize, 0usize);
    for i in 0..runs {
        let mut doc = docs[rng.below(docs.len())].clone();
        for step in 0..=i % 4 {
            doc = if (i + step) % 3 == 2 {
                mutate(&doc, &mut rng)
            } else {
                mutate_tokens(&doc, &mut rng)
            };
        }
        match check_agrees(&doc) {
            Some(_) => read += 1,
            None => left += 1,
        }
    }
    eprintln!("token mutations: {read} read, {left} left to the library");
    assert!(
        read > runs / 100 && left > runs / 4,
        "read {read}, left {left}"
    );
}

/// Hand-made structures in a free-form `Value` field (the create entry's `options`, read by
/// `deserialize_any`): duplicate and resolved keys, indentless and nested sequences, empty
/// values, deep nesting, flow pieces. Whenever the reader reads one, the library reads the
/// same entry; the well-formed ones are read.
#[test]
fn reader_agrees_with_the_library_on_free_form_structures() {
    let first = &real_documents()[0];
    let (head, tail) = first.split_once("    options:\n").unwrap();
    let tail = &tail[tail.find("    players:").unwrap()..];
    let bodies: &[(&str, bool)] = &[
        ("    options:\n      a: 1\n      a: 2\n", false),
        ("    options:\n      null: 1\n      Null: 2\n", false),
        ("    options:\n      true: 1\n      TRUE: 2\n", false),
        ("    options:\n      1: a\n      01: b\n", false),
        (
            "    options:\n      null: 1\n      true: 2\n      7: 3\n",
            true,
        ),
        ("    options:\n      -7: 4\n", false),
        ("    options:\n      a: 1\n      A: 2\n", true),
        ("    options:\n    - a\n    - 1\n    - null\n", true),
        ("    options:\n    - - a\n      - - b\n    - c\n", true),
        (
            "    options:\n    - a: 1\n      b:\n      - x\n      c: 2\n    - []\n",
            true,
        ),
        ("    options:\n    - a: 1\n     b: 2\n", false),
        ("    options:\n    - a: 1\n       b: 2\n", false),
        ("    options:\n     - a\n", false),
        ("    options:\n      - a\n", false),
        ("    options:\n    - a\n     - b\n", false),
        ("    options:\n    - a\n      b\n", false),
        ("    options:\n      a:\n      b: 1\n", false),
        (
            "    options:\n      a: {}\n      b: []\n      c: ''\n      d: 'null'\n",
            true,
        ),
        (
            "    options:\n      a:\n        b:\n          c: -0\n",
            false,
        ),
        (
            "    options:\n      a:\n        b:\n          c: -1\n",
            true,
        ),
        ("    options:\n      a:\n      - b:\n        - c\n", true),
        ("    options:\n      a:\n         b: 1\n", false),
        ("    options:\n      a: 1\n     b: 2\n", false),
        ("    options:\n      a: 1\n       b: 2\n", false),
        ("    options:\n      'a': 1\n", false),
        ("    options:\n      a : 1\n", false),
        ("    options:\n      ? a\n      : 1\n", false),
        ("    options:\n      a: &x 1\n      b: *x\n", false),
        ("    options:\n      a: !!str 1\n", false),
        ("    options:\n      <<: {a: 1}\n", false),
        ("    options:\n      a: 1 # c\n", false),
        ("    options: # c\n      a: 1\n", false),
        ("    options:\n      a: b\n        c\n", false),
        ("    options:\n      a: |\n        b\n", false),
    ];
    let mut read = 0;
    for (body, well_formed) in bodies {
        let doc = format!("{head}{body}{tail}");
        let got = check_agrees(&doc);
        if *well_formed {
            assert!(got.is_some(), "not read:\n{doc}");
            read += 1;
        }
    }
    assert!(read > 5);
    let mut deep = String::from("    options:\n");
    for d in 0..100 {
        deep.push_str(&format!("{}- -\n", " ".repeat(4 + 2 * d)).replace("- -\n", "-\n"));
    }
    check_agrees(&format!("{head}{deep}{tail}"));
    let mut nested = String::from("    options:\n");
    for d in 0..70 {
        nested.push_str(&format!("{}k{d}:\n", " ".repeat(6 + 2 * d)));
    }
    nested.push_str(&format!("{}v: 1\n", " ".repeat(6 + 140)));
    check_agrees(&format!("{head}{nested}{tail}"));
}
