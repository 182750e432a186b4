//! No panic on any input. Property tests feed random and mutated inputs to the notation parser
//! (and through it the engine), the log parser and verifier, and mail ingestion: 10^4 cases
//! each here; the `#[ignore]`d `*_million` tests run 10^6
//! (`cargo test --release --test fuzz_inputs -- --ignored`). Every input that ever panicked is
//! kept in `tests/corpus/panics.json` and replayed by `the_panic_corpus_never_panics`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;

use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::{Game, Options, Prompt, SeededChance};
use twilight_pbem::log::{split_documents, verify_chain, Players};
use twilight_pbem::mail::inbound::{self, extract, game_from_subject, read_message};
use twilight_pbem::session::Session;
use twilight_pbem::text::notation;

/// Positions with the decision owed in each: every kind of prompt a game reaches early.
fn positions() -> &'static [(Game, Prompt)] {
    static P: OnceLock<Vec<(Game, Prompt)>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = Vec::new();
        let mut rng = SeededChance::new(12);
        for seed in 0..3 {
            let (mut game, _) =
                Game::new(Options::default(), &mut SeededChance::new(seed)).expect("a new game");
            for step in 0..120 {
                let Some(prompt) = game.prompts().first().cloned() else {
                    break;
                };
                if step % 6 == 0 {
                    out.push((game.clone(), prompt.clone()));
                }
                let Some(answer) = choose(&game, prompt.side, Policy::Careful, &mut rng) else {
                    break;
                };
                if game.apply(prompt.side, answer, &mut rng).is_err() {
                    break;
                }
            }
        }
        out
    })
}

/// A move line through the whole path `play` takes: parse, resolve against the decision
/// owed, format, and apply to a copy of the game. Any outcome but a panic is fine.
fn line_never_panics(line: &str, pick: usize) {
    let Ok(moves) = notation::parse_line(line) else {
        return;
    };
    let all = positions();
    let (game, prompt) = &all[pick % all.len()];
    let mut trial = game.clone();
    let mut dice = SeededChance::new(pick as u64);
    for mv in &moves {
        let Some(p) = trial.prompt_for(prompt.side).cloned() else {
            return;
        };
        let Ok(answer) = notation::resolve(mv, &p) else {
            return;
        };
        let _ = notation::format_answer(&answer, &p);
        if trial.apply(p.side, answer, &mut dice).is_err() {
            return;
        }
    }
}

/// Words a player might type, to build notation-like lines.
const WORDS: &[&str] = &[
    "play",
    "headline",
    "ops",
    "event",
    "space",
    "first",
    "influence",
    "coup",
    "realign",
    "yes",
    "no",
    "pass",
    "countries",
    "cards",
    "discard",
    "option",
    "number",
    "none",
    "Iran",
    "W Germany",
    "Japan",
    "China",
    "Duck and Cover",
    "27",
    "4",
    "2",
    "1",
    ",",
    ";",
    "Ⱥ",
    "é",
    "İ",
    "ǅ",
    "ß",
    "\u{307}",
    "ﬁ",
    "🙂",
    "\t",
    "  ",
    "-1",
    "255",
    "9999",
];

/// Characters whose lower case differs in length, combining marks, ligatures: what breaks byte
/// offsets taken from a lower-cased copy.
const TRICKY: &[char] = &[
    'Ⱥ', 'Ⱦ', 'İ', 'é', ' ', ' ', 'a', 'ß', 'ǅ', '\u{307}', 'ﬁ', '\u{212a}', 'Σ', '\t', ',', ';',
];

fn notation_line() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(0..TRICKY.len(), 0..14)
            .prop_map(|v| v.iter().map(|&i| TRICKY[i]).collect::<String>()),
        prop::collection::vec(0..WORDS.len(), 0..12).prop_map(|v| v
            .iter()
            .map(|&i| WORDS[i])
            .collect::<Vec<_>>()
            .join(" ")),
        (prop::collection::vec(0..WORDS.len(), 0..8), any::<String>()).prop_map(|(v, s)| {
            let mut l: String = v.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
            let mid = (0..=l.len() / 2)
                .rev()
                .find(|&i| l.is_char_boundary(i))
                .unwrap_or(0);
            l.insert_str(mid, &s);
            l
        }),
    ]
}

/// The example game's first `n` entries, as bytes.
fn example_log(n: usize) -> Vec<u8> {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/example/log.yaml"))
        .expect("the example game");
    let docs = split_documents(&bytes).documents;
    bytes[..docs[n.min(docs.len()) - 1].end].to_vec()
}

fn small_log() -> &'static [u8] {
    static L: OnceLock<Vec<u8>> = OnceLock::new();
    L.get_or_init(|| example_log(24))
}

/// One mutation of a byte string.
#[derive(Debug, Clone)]
enum Edit {
    Flip(usize, u8),
    Cut(usize),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(p, x)| Edit::Flip(p, x)),
        any::<usize>().prop_map(Edit::Cut),
        (
            any::<usize>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..16),
                Just(b"---\n".to_vec()),
                Just(b"...\n".to_vec()),
                Just("\u{23a}\u{23a} \u{e9}".as_bytes().to_vec()),
                Just(b"\n  decision:\n    side: us\n".to_vec()),
            ]
        )
            .prop_map(|(p, b)| Edit::Insert(p, b)),
        (any::<usize>(), 1..400usize).prop_map(|(p, n)| Edit::Remove(p, n)),
        (any::<usize>(), 1..400usize).prop_map(|(p, n)| Edit::Repeat(p, n)),
    ]
}

fn mutate(base: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = base.to_vec();
    for e in edits {
        let len = b.len().max(1);
        match e {
            Edit::Flip(p, x) => {
                if !b.is_empty() {
                    let i = p % b.len();
                    b[i] ^= x;
                }
            }
            Edit::Cut(p) => b.truncate(p % len),
            Edit::Insert(p, bytes) => {
                let i = p % (b.len() + 1);
                b.splice(i..i, bytes.iter().copied());
            }
            Edit::Remove(p, n) => {
                let i = p % len;
                let j = (i + n).min(b.len());
                if i < j {
                    b.drain(i..j);
                }
            }
            Edit::Repeat(p, n) => {
                let i = p % len;
                let j = (i + n).min(b.len());
                if i < j {
                    let piece = b[i..j].to_vec();
                    b.splice(j..j, piece);
                }
            }
        }
    }
    b
}

fn log_never_panics(edits: &[Edit]) {
    let bytes = mutate(small_log(), edits);
    let report = verify_chain(&bytes, None);
    let _ = report.to_string();
}

/// A reply as a player's client might send it.
fn reply_bytes() -> &'static [u8] {
    b"From: Alice <us-g1@ts.test>\r\nTo: referee@ts.test\r\nSubject: Re: [TS g1] Turn 1 Headline\r\nMessage-ID: <r.1@ts.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nHi Boris,\r\n\r\nheadline Five Year Plan\r\nplay 27 ops influence Iran 2, Iraq 1\r\n\r\nToken: ABCD-EFGH-IJKL\r\nGame: g1\r\n\r\nOn Mon, referee wrote:\r\n> Token: OLD\r\n-- \r\nAlice\r\n"
}

fn mail_never_panics(raw: &[u8], pick: usize) {
    if let Ok(r) = read_message(raw) {
        let _ = game_from_subject(&r.subject);
        let ex = extract(&r.body, &r.all_text);
        for line in &ex.moves {
            line_never_panics(line, pick);
        }
        let refusal = inbound::Refusal::Illegal {
            line: ex.moves.first().cloned().unwrap_or_default(),
            why: r.subject.clone(),
        };
        let _ = inbound::refusal_text(&refusal, ex.game.as_deref(), &ex.moves);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn notation_lines_never_panic(line in notation_line(), pick in any::<usize>()) {
        line_never_panics(&line, pick);
    }

    #[test]
    fn mutated_logs_never_panic_the_parser_or_verifier(edits in prop::collection::vec(edit(), 1..6)) {
        log_never_panics(&edits);
    }

    #[test]
    fn mutated_and_random_mails_never_panic_ingestion(
        edits in prop::collection::vec(edit(), 0..6),
        random in prop::collection::vec(any::<u8>(), 0..600),
        pick in any::<usize>(),
    ) {
        mail_never_panics(&mutate(reply_bytes(), &edits), pick);
        mail_never_panics(&random, pick);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "10^6 cases: cargo test --release --test fuzz_inputs -- --ignored"]
    fn notation_lines_never_panic_million(line in notation_line(), pick in any::<usize>()) {
        line_never_panics(&line, pick);
    }

    #[test]
    #[ignore = "10^6 cases: cargo test --release --test fuzz_inputs -- --ignored"]
    fn mutated_logs_never_panic_million(edits in prop::collection::vec(edit(), 1..6)) {
        log_never_panics(&edits);
    }

    #[test]
    #[ignore = "10^6 cases: cargo test --release --test fuzz_inputs -- --ignored"]
    fn mails_never_panic_million(
        edits in prop::collection::vec(edit(), 0..6),
        random in prop::collection::vec(any::<u8>(), 0..600),
        pick in any::<usize>(),
    ) {
        mail_never_panics(&mutate(reply_bytes(), &edits), pick);
        mail_never_panics(&random, pick);
    }
}

/// A started game in `games/g1` with its players' addresses as in [`reply_bytes`]: made once
/// through the library, then copied (creating it with its fsyncs for every case is slow).
fn game_on_disk(games: &Path) -> PathBuf {
    static TEMPLATE: OnceLock<tempfile::TempDir> = OnceLock::new();
    let template = TEMPLATE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g1");
        let t = chrono::DateTime::parse_from_rfc3339("2026-11-30T12:00:00Z")
            .unwrap()
            .to_utc();
        let mut s = Session::create_with_seed(
            &dir,
            &Options::default(),
            Players {
                us: "us-g1@ts.test".into(),
                ussr: "ussr-g1@ts.test".into(),
            },
            [3; 32],
            t,
        )
        .unwrap();
        s.join(Side::Us, "a", t).unwrap();
        s.join(Side::Ussr, "b", t).unwrap();
        tmp
    });
    let dir = games.join("g1");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(template.path().join("g1").join(f), dir.join(f)).unwrap();
    }
    dir
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The whole inbox over a Maildir (with the game's real token in the mail): a mutated
    /// mail is applied or refused, never a panic, and the game still opens and verifies.
    #[test]
    fn the_inbox_survives_mutated_mails(edits in prop::collection::vec(edit(), 0..4)) {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games");
        let dir = game_on_disk(&games);
        let s = Session::open(&dir).unwrap();
        let side = s.game().unwrap().prompts()[0].side;
        let token = s.reply_token(side).unwrap();
        let raw = String::from_utf8_lossy(reply_bytes())
            .replace("ABCD-EFGH-IJKL", &token)
            .replace("us-g1", if side == Side::Us { "us-g1" } else { "ussr-g1" });
        let raw = mutate(raw.as_bytes(), &edits);
        let maildir = tmp.path().join("inbox");
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        std::fs::write(maildir.join("new").join("m1"), &raw).unwrap();
        let opts = inbound::InboxOptions {
            games_dir: games.clone(),
            force_outbox: true,
            now: chrono::Utc::now(),
        };
        let _ = inbound::run(&opts, std::slice::from_ref(&maildir));
        let report = twilight_pbem::archive::verify_game(&dir, None);
        prop_assert!(report.findings.is_empty(), "{:?}", report.findings);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// A damaged `secret.yaml` or `mail.yaml` is an error naming the file, never a panic.
    #[test]
    fn damaged_secret_and_mail_settings_never_panic(
        secret_edits in prop::collection::vec(edit(), 1..4),
        mail_edits in prop::collection::vec(edit(), 1..4),
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = game_on_disk(&tmp.path().join("games"));
        let secret = std::fs::read(dir.join("secret.yaml")).unwrap();
        std::fs::write(dir.join("secret.yaml"), mutate(&secret, &secret_edits)).unwrap();
        let mail = b"from: \"Ref <ref@ts.test>\"\nupdates: true\nremind_after_hours: 48\n";
        std::fs::write(dir.join("mail.yaml"), mutate(mail, &mail_edits)).unwrap();
        let _ = Session::open(&dir).map(|s| s.findings.len());
        let _ = twilight_pbem::mail::MailConfig::load(&dir);
        let _ = twilight_pbem::mail::MailState::load(&dir);
    }
}

#[test]
fn the_panic_corpus_never_panics() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/panics.json");
    let corpus: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(corpus.iter().any(|l| l == "ȺȺ é"));
    for (i, line) in corpus.iter().enumerate() {
        for pick in 0..positions().len() {
            line_never_panics(line, pick);
        }
        let mail = format!(
            "From: us-g1@ts.test\r\nSubject: [TS g1]\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n"
        );
        mail_never_panics(mail.as_bytes(), i);
    }
    // Through the binary: a refusal (exit 1), not a panic (exit 101).
    let tmp = tempfile::tempdir().unwrap();
    let dir = game_on_disk(tmp.path());
    let side = Session::open(&dir).unwrap().game().unwrap().prompts()[0].side;
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    for line in &corpus {
        let out = assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .args([
                "play",
                dir.to_str().unwrap(),
                "--as",
                if side == Side::Us { "us" } else { "ussr" },
                line,
                "--no-mail",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "`{line}`: {out:?}");
    }
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
}
