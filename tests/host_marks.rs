//! The host's powers shown where people look (FAIRNESS.md §2 "What the host can do"): a nonce
//! the moderator typed and a moderator who also plays are said by `status`, `verify` (per game
//! and in the standings), every mail of the game and the replay page; a finished game whose
//! seed is not revealed is a finding once the grace period has passed; a small test seed is
//! flagged even when entry 0 does not say so.

mod mail_common;

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use chrono::{DateTime, Duration, Utc};

use mail_common::{empty_maildir, raw_reply, texts_to, token_of};
use twilight_pbem::chance::fairness;
use twilight_pbem::engine::selfplay::{record_game, Policy};
use twilight_pbem::log::{Log, Payload};
use twilight_pbem::session::host::REVEAL_GRACE_DAYS;

const US: &str = "us@ts.test";
const USSR: &str = "ussr@ts.test";
const TYPED: &str = "the host could choose this game's chance";

/// Runs the binary in `cwd` with `env` (mails to the game's outbox).
fn twilight(cwd: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::cargo_bin("twilight").unwrap();
    c.current_dir(cwd)
        .env_remove("TWILIGHT_SMTP_URL")
        .env_remove("TWILIGHT_FROM")
        .env_remove("TWILIGHT_NOW")
        .args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A folder `games/g` under a temporary folder, with an empty Maildir beside it.
struct Table {
    tmp: tempfile::TempDir,
    replies: u32,
}

impl Table {
    fn new() -> Table {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("games")).unwrap();
        empty_maildir(tmp.path());
        Table { tmp, replies: 0 }
    }

    fn root(&self) -> &Path {
        self.tmp.path()
    }

    fn game(&self) -> PathBuf {
        self.root().join("games/g")
    }

    fn run(&self, env: &[(&str, &str)], args: &[&str]) -> Output {
        twilight(self.root(), env, args)
    }

    /// `twilight new games/g --us US --ussr USSR EXTRA…`, with `env`.
    fn new_game(&self, env: &[(&str, &str)], extra: &[&str]) {
        let mut args = vec!["new", "games/g", "--us", US, "--ussr", USSR, "--outbox"];
        args.extend_from_slice(extra);
        let o = self.run(env, &args);
        assert!(o.status.success(), "{}", text(&o));
    }

    /// The player at `address` joins by mail: a reply to the invitation with its token.
    fn join_by_mail(&mut self, address: &str, nonce: &str) {
        let outbox = self.game().join("outbox");
        let (subject, invitation) = texts_to(&outbox, address)
            .into_iter()
            .find(|(s, _)| s.contains("Invitation"))
            .expect("an invitation");
        self.replies += 1;
        let body = format!("Token: {}\nnonce: {nonce}\n", token_of(&invitation));
        let raw = raw_reply(address, self.replies, &subject, &body);
        std::fs::write(
            self.root().join(format!("inbox/new/reply{}", self.replies)),
            raw,
        )
        .unwrap();
        let o = self.run(&[], &["inbox", "--games", "games", "inbox"]);
        assert!(o.status.success(), "{}", text(&o));
    }

    /// The USSR's setup, so that the US gets its first prompt.
    fn ussr_setup(&self) {
        let o = self.run(
            &[],
            &[
                "play",
                "games/g",
                "--as",
                "ussr",
                "influence Poland 4, E Germany 1, Hungary 1",
                "--outbox",
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
    }

    fn status(&self) -> String {
        let o = self.run(&[], &["status", "games/g"]);
        assert!(o.status.success(), "{}", text(&o));
        text(&o)
    }

    fn status_json(&self) -> serde_json::Value {
        let o = self.run(&[], &["status", "games/g", "--format", "json"]);
        serde_json::from_slice(&o.stdout).unwrap()
    }

    /// `verify games` (the folder: the game's line and the standings).
    fn verify(&self, env: &[(&str, &str)]) -> (bool, String) {
        let o = self.run(env, &["verify", "games"]);
        (o.status.success(), text(&o))
    }

    fn replay_page(&self) -> String {
        let o = self.run(&[], &["export", "games/g", "--html", "page.html"]);
        assert!(o.status.success(), "{}", text(&o));
        std::fs::read_to_string(self.root().join("page.html")).unwrap()
    }

    /// The text of every mail in the game's outbox to `to` whose subject contains `about`.
    fn mails(&self, to: &str, about: &str) -> Vec<String> {
        texts_to(&self.game().join("outbox"), to)
            .into_iter()
            .filter(|(s, _)| s.contains(about))
            .map(|(_, t)| t)
            .collect()
    }
}

#[test]
fn a_typed_nonce_is_shown_by_status_verify_the_mails_and_the_replay_page() {
    let mut t = Table::new();
    t.new_game(&[], &[]);
    // The USSR's nonce typed by the moderator; the US's sent by mail.
    let o = t.run(
        &[],
        &[
            "join", "games/g", "--as", "ussr", "--nonce", "typed", "--outbox",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    t.join_by_mail(US, "mine");
    t.ussr_setup();

    let status = t.status();
    assert!(
        status
            .contains("Host: The moderator typed the nonce of the USSR (`twilight join --nonce`)")
            && status.contains(TYPED),
        "{status}"
    );
    assert!(!status.contains("nonce of the USSR and the US"), "{status}");
    let marks = t.status_json()["host_marks"].clone();
    assert_eq!(
        marks[0]["mark"],
        format!("nonce typed by the host (USSR): {TYPED}"),
        "{marks}"
    );

    let (ok, verify) = t.verify(&[]);
    assert!(ok, "a mark is not a finding: {verify}");
    assert!(
        verify.contains(&format!("· nonce typed by the host (USSR): {TYPED}")),
        "{verify}"
    );
    assert!(
        verify.contains("not fair games counted above")
            && verify.contains(&format!("{US} 1"))
            && verify.contains(&format!("{USSR} 1")),
        "the standings say which players' games are marked: {verify}"
    );

    // Every mail sent once the nonce was typed says it: the US's join receipt, both players'
    // first prompts (the invitations went out before).
    for to in [US, USSR] {
        let prompts = t.mails(to, "Setup");
        assert!(!prompts.is_empty(), "a mail to {to}");
        for m in &prompts {
            assert!(
                m.contains("== About this game's host ==") && m.contains(TYPED),
                "{m}"
            );
        }
    }
    let receipts = t.mails(US, "Receipt");
    assert!(!receipts.is_empty(), "the US join receipt");
    assert!(receipts.iter().all(|m| m.contains(TYPED)), "{receipts:?}");
    for m in t.mails(US, "Invitation") {
        assert!(
            !m.contains(TYPED),
            "the invitation came before the typed nonce: {m}"
        );
    }

    let page = t.replay_page();
    assert!(
        page.contains(r#"<p class="warn">⚠ The moderator typed the nonce of the USSR"#),
        "{page}"
    );
}

#[test]
fn a_moderator_who_plays_is_shown_by_status_verify_the_mails_and_the_replay_page() {
    let mut t = Table::new();
    // The host mails from the US player's own address.
    let from = [("TWILIGHT_FROM", "Referee <US@ts.test>")];
    t.new_game(&from, &[]);
    let log = Log::open(t.game().join("log.yaml")).unwrap();
    let Payload::Create { moderator, .. } = &log.entries()[0].entry.payload else {
        panic!("entry 0 is the create entry");
    };
    assert_eq!(moderator.as_deref(), Some("Referee <US@ts.test>"));
    t.join_by_mail(USSR, "theirs");
    t.join_by_mail(US, "mine");
    t.ussr_setup();

    let plays = "the host plays the US (same address): the host knows every roll and the deck";
    let status = t.status();
    assert!(
        status.contains("Host: The host also plays the US (the same address, us@ts.test)")
            && status.contains("use peer mode"),
        "{status}"
    );
    assert!(!status.contains(TYPED), "nonces sent by mail: {status}");
    let (ok, verify) = t.verify(&[]);
    assert!(ok && verify.contains(&format!("· {plays}")), "{verify}");
    // Every mail of the game, the invitations included, says it.
    for to in [US, USSR] {
        for about in ["Invitation", "Setup"] {
            let mails = t.mails(to, about);
            assert!(!mails.is_empty(), "{about} to {to}");
            for m in mails {
                assert!(m.contains("The host also plays the US"), "{m}");
            }
        }
    }
    assert!(t
        .replay_page()
        .contains(r#"<p class="warn">⚠ The host also plays the US"#));
}

#[test]
fn a_declared_moderator_player_is_marked_and_a_game_joined_by_mail_is_not() {
    let mut t = Table::new();
    t.new_game(
        &[("TWILIGHT_FROM", "referee@ts.test")],
        &["--moderator-plays"],
    );
    t.join_by_mail(USSR, "theirs");
    t.join_by_mail(US, "mine");
    let (_, verify) = t.verify(&[]);
    assert!(
        verify.contains("· the host plays (declared): the host knows every roll and the deck"),
        "{verify}"
    );
    assert!(t
        .status()
        .contains("Host: The host declared that it also plays"));

    // The same game without the declaration, the host mailing from its own address: nothing
    // to mark anywhere.
    let mut t = Table::new();
    t.new_game(&[("TWILIGHT_FROM", "referee@ts.test")], &[]);
    t.join_by_mail(USSR, "theirs");
    t.join_by_mail(US, "mine");
    let (ok, verify) = t.verify(&[]);
    assert!(ok && !verify.contains("host"), "{verify}");
    assert!(!t.status().contains("Host:"));
    assert_eq!(t.status_json()["host_marks"], serde_json::json!([]));
    for m in t.mails(US, "Setup") {
        assert!(!m.contains("About this game's host"), "{m}");
    }
    assert!(!t.replay_page().contains(r#"class="warn""#));
}

/// The time of the log's last entry.
fn last_at(dir: &Path) -> DateTime<Utc> {
    let log = Log::open(dir.join("log.yaml")).unwrap();
    log.entries().last().unwrap().entry.at
}

/// `log.yaml` without its last document.
fn drop_last_entry(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    let docs: Vec<&str> = text.split_inclusive("...\n").collect();
    assert!(
        docs.last().unwrap().contains("reveal:"),
        "the last entry is the reveal"
    );
    std::fs::write(dir.join("log.yaml"), docs[..docs.len() - 1].concat()).unwrap();
}

#[test]
fn a_finished_game_without_its_reveal_is_a_finding_once_the_grace_period_has_passed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let t0 = chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 12, 1, 9, 0, 0).unwrap();
    record_game(
        &dir,
        Some(fairness::test_seed(4)),
        4,
        Policy::Uniform,
        None,
        t0,
    )
    .unwrap();
    drop_last_entry(&dir);
    let end = last_at(&dir);
    let at = |days: i64, minutes: i64| {
        (end + Duration::days(days) + Duration::minutes(minutes)).to_rfc3339()
    };
    let verify = |now: &str| {
        let o = twilight(tmp.path(), &[("TWILIGHT_NOW", now)], &["verify", "g"]);
        (o.status.code(), text(&o))
    };
    // Within the grace period: clean, and `status` says the reveal is due.
    let within = at(REVEAL_GRACE_DAYS, -1);
    let (code, out) = verify(&within);
    assert_eq!(code, Some(0), "{out}");
    let o = twilight(tmp.path(), &[("TWILIGHT_NOW", &within)], &["status", "g"]);
    assert!(text(&o).contains("Seed reveal: due by"), "{}", text(&o));
    // After it: a finding, exit 1.
    let (code, out) = verify(&at(REVEAL_GRACE_DAYS, 1));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "the game is over but its seed is not revealed, 7 days after the log's last entry"
        ),
        "{out}"
    );
    // Revealed: nothing owed.
    let o = twilight(tmp.path(), &[], &["reveal", "g"]);
    assert!(o.status.success(), "{}", text(&o));
    let (code, out) = verify(&at(100, 0));
    assert_eq!(code, Some(0), "{out}");
}

/// Entry 0 of the log in `dir` without its `test_seed: true` line, the hashes re-chained as a
/// forger would.
fn drop_test_seed_flag(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(text.contains("    test_seed: true\n"));
    let text = text.replacen("    test_seed: true\n", "", 1);
    let mut out = String::new();
    let mut prev = "0".repeat(64);
    for d in text.split_inclusive("...\n") {
        let i = d.find("prev: ").expect("a prev line");
        let end = i + d[i..].find('\n').unwrap();
        let fixed = format!("{}prev: '{}'{}", &d[..i], prev, &d[end..]);
        prev = twilight_pbem::log::entry_hash(fixed.as_bytes()).to_hex();
        out.push_str(&fixed);
    }
    std::fs::write(dir.join("log.yaml"), out).unwrap();
}

#[test]
fn a_small_test_seed_without_its_flag_is_a_finding() {
    let tmp = tempfile::tempdir().unwrap();
    for (n, flagged) in [
        (3, true),
        (fairness::SMALL_TEST_NUMBERS - 1, true),
        (fairness::SMALL_TEST_NUMBERS, false),
    ] {
        let dir = tmp.path().join(format!("g{n}"));
        record_game(
            &dir,
            Some(fairness::test_seed(n)),
            3,
            Policy::Careful,
            Some(20),
            mail_common::t0(),
        )
        .unwrap();
        std::fs::remove_file(dir.join("secret.yaml")).unwrap();
        drop_test_seed_flag(&dir);
        let o = twilight(tmp.path(), &[], &["verify", dir.to_str().unwrap()]);
        let out = text(&o);
        if flagged {
            assert_eq!(o.status.code(), Some(1), "{out}");
            assert!(
                out.contains(&format!(
                    "entry 0 commits to the test seed of the small test number {n}"
                )) && out.contains(&format!("test seed {n}: not a fair game")),
                "{out}"
            );
        } else {
            // Beyond the small test numbers: nothing to find from the log alone.
            assert_eq!(o.status.code(), Some(0), "{out}");
            assert!(!out.contains("test seed"), "{out}");
        }
    }
}
