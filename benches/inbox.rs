//! `inbox` on hostile mails, whole (read, judged, answered, filed): a stranger's 20 MB mail of
//! `References` ids, a mebibyte of one-letter lines (from a stranger, and from the player with
//! the prompt's token, whose lines are read as far as they are read), and a mebibyte of
//! `takeback` lines from the player with their game token. Each must be handled in well under a
//! second, and read once: after one run the mail is out of `new/`. Run with
//! `cargo bench --bench inbox`; figures in `benches/README.md`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{TimeZone, Utc};
use divan::Bencher;

use twilight_pbem::data::Side;
use twilight_pbem::log::Players;
use twilight_pbem::mail::inbound::{self, InboxOptions};
use twilight_pbem::session::Session;

fn main() {
    divan::main();
}

/// A game after the USSR's setup move (the US owes its own), and a Maildir beside it.
struct Table {
    _tmp: tempfile::TempDir,
    opts: InboxOptions,
    dir: PathBuf,
    md: PathBuf,
    /// The US's prompt token, the USSR's game token.
    us_token: String,
    ussr_game_token: String,
}

fn table() -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let t0 = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
    let mut s = Session::create_with_seed(
        &dir,
        &Default::default(),
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        [5; 32],
        t0,
    )
    .unwrap();
    s.join(Side::Us, "a", t0).unwrap();
    s.join(Side::Ussr, "b", t0).unwrap();
    s.play(
        Side::Ussr,
        &["influence Poland 4, East Germany 2".into()],
        t0,
    )
    .unwrap();
    let md = tmp.path().join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(sub)).unwrap();
    }
    Table {
        opts: InboxOptions {
            games_dir: games,
            force_outbox: true,
            now: t0,
        },
        us_token: s.reply_token(Side::Us).unwrap(),
        ussr_game_token: twilight_pbem::mail::game_token::token(&s, Side::Ussr).unwrap(),
        dir,
        md,
        _tmp: tmp,
    }
}

fn mail(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: {subject}\r\nMessage-ID: <bench@ts.test>\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

/// Puts `raw` in the Maildir's `new/` under a fresh name, and forgets the refusals counted
/// (each run answers as the first would).
fn put(t: &Table, raw: &[u8]) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let name = format!("1700000000.M{}P1.bench", N.fetch_add(1, Ordering::Relaxed));
    let tmp = t.md.join("tmp").join(&name);
    std::fs::write(&tmp, raw).unwrap();
    let f = t.md.join("new").join(&name);
    std::fs::rename(&tmp, &f).unwrap();
    let _ = std::fs::remove_file(t.dir.join("refusal-limit.yaml"));
    f
}

/// One `inbox` run over the Maildir: the mail is judged once and leaves `new/`.
fn run(t: &Table, f: &Path, kind: &str) {
    let report = inbound::run(&t.opts, std::slice::from_ref(&t.md)).unwrap();
    assert_eq!(report.processed.len(), 1);
    assert!(!f.exists(), "read once: out of new/");
    let verdict = &report.processed[0].verdict;
    let got = match verdict {
        inbound::Verdict::Refused { refusal, .. } | inbound::Verdict::Held { refusal, .. } => {
            refusal.kind()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(got, kind);
}

/// A stranger's 20 MB mail of `References` ids: refused as too large from the first mebibyte
/// of its header (`MAX_HEADER_BYTES`), never parsed whole.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn references_20_mb(b: Bencher) {
    let t = table();
    let ids: Vec<String> = (0..900_000)
        .map(|i| format!("<id{i}.x@evil.test>"))
        .collect();
    let raw = mail(
        "stranger@evil.test",
        "hello",
        &format!("References: {}\r\n", ids.join("\r\n ")),
        "pass\r\n",
    );
    assert!(raw.len() >= 20_000_000, "{}", raw.len());
    b.with_inputs(|| put(&t, &raw))
        .bench_local_values(|f| run(&t, &f, "too-large"));
}

/// A stranger's mebibyte of one-letter lines for the game: refused, not a player.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn one_letter_lines_1_mib_stranger(b: Bencher) {
    let t = table();
    let raw = mail(
        "stranger@evil.test",
        "Re: [TS g1] move",
        "",
        &"a\r\n".repeat(((1 << 20) - 1000) / 3),
    );
    b.with_inputs(|| put(&t, &raw))
        .bench_local_values(|f| run(&t, &f, "not-a-player"));
}

/// The US player's mebibyte of one-letter lines with the prompt's token: its lines are read as
/// far as they are read, then it is refused as too long, and answered.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn one_letter_lines_1_mib_player(b: Bencher) {
    let t = table();
    let raw = mail(
        "us@ts.test",
        "Re: [TS g1] move",
        "",
        &format!(
            "Token: {}\r\n{}",
            t.us_token,
            "a\r\n".repeat(((1 << 20) - 1000) / 3)
        ),
    );
    b.with_inputs(|| put(&t, &raw))
        .bench_local_values(|f| run(&t, &f, "too-long"));
}

/// The USSR player's mebibyte of `takeback` lines with their game token: refused at the second,
/// nothing appended.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn takeback_lines_1_mib(b: Bencher) {
    let t = table();
    let raw = mail(
        "ussr@ts.test",
        "Re: [TS g1] takeback",
        "",
        &format!(
            "Token: {}\r\n{}",
            t.ussr_game_token,
            "takeback\r\n".repeat(((1 << 20) - 1000) / 10)
        ),
    );
    let len = Session::open(&t.dir).unwrap().log().len();
    b.with_inputs(|| put(&t, &raw))
        .bench_local_values(|f| run(&t, &f, "illegal-move"));
    assert_eq!(Session::open(&t.dir).unwrap().log().len(), len);
}
