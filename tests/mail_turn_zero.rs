//! A Turn Zero game by mail (`schemas/FAIRNESS.md` §15): `new --turn-zero` invites both
//! players, they join by replying with a nonce, each crisis's superpower cards are chosen by
//! mail (the first sealed until the second is in), and the game plays through its first turn by
//! mail alone, every move taken from the mails' own examples; `verify` checks it.

mod mail_common;

use std::path::{Path, PathBuf};

use mail_common::*;

fn twilight(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .env_remove("TWILIGHT_SMTP_URL")
        .env_remove("TWILIGHT_FROM")
        .args(args)
        .output()
        .unwrap()
}

/// A `new --turn-zero` game `gid` under `games/`, both players joined by mail: (temporary
/// folder, game folder, Maildir inbox).
fn started(gid: &str, us: &str, ussr: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join(gid);
    let inbox = tmp.path().join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let d = dir.to_str().unwrap();
    let o = twilight(&[
        "new",
        d,
        "--turn-zero",
        "--us",
        us,
        "--ussr",
        ussr,
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let outbox = dir.join("outbox");
    let (g, i) = (games.to_str().unwrap(), inbox.to_str().unwrap());
    for (n, who) in [us, ussr].into_iter().enumerate() {
        let inv = texts_to(&outbox, who);
        assert_eq!(inv.len(), 1, "one invitation to {who}");
        let (subject, text) = &inv[0];
        assert!(text.contains("Turn Zero"), "{text}");
        let body = format!("Token: {}\nnonce: player {n} dice\n", token_of(text));
        std::fs::write(
            inbox.join(format!("new/{n}.join")),
            raw_reply(who, n as u32, subject, &body),
        )
        .unwrap();
        let o = twilight(&["inbox", "--games", g, i, "--outbox"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    }
    (tmp, dir, inbox)
}

/// `who` answers its latest prompt mail in game folder `dir` with `mv` (reply number `n`), and
/// the inbox is read.
fn answer(tmp: &tempfile::TempDir, dir: &Path, inbox: &Path, who: &str, n: u32, mv: &str) {
    let gid = dir.file_name().unwrap().to_str().unwrap();
    let prompt = read_mails(&files_in(&dir.join("outbox")), gid, who)
        .into_iter()
        .filter(|m| m.token().is_some())
        .max_by_key(|m| m.n)
        .expect("a prompt");
    let body = format!("{mv}\n\nToken: {}\n", prompt.token().unwrap());
    std::fs::write(
        inbox.join(format!("new/{n}.move")),
        raw_reply(who, n, &prompt.subject, &body),
    )
    .unwrap();
    let games = tmp.path().join("games");
    let o = twilight(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        inbox.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 applied"), "{}", stdout(&o));
}

#[test]
fn check_finds_a_superpower_card_receipt_that_does_not_match_its_commitment() {
    // A player's own `check` of its mails confirms its sealed superpower card's receipt
    // against the logged commitment (FAIRNESS.md §15) and the card revealed; a receipt whose
    // card was altered is a finding naming the entry (check once skipped these receipts).
    let (us, ussr) = ("anna-tz3@ts.test", "ben-tz3@ts.test");
    let (tmp, dir, inbox) = started("tz3", us, ussr);
    answer(&tmp, &dir, &inbox, us, 9, "Kennan");
    answer(&tmp, &dir, &inbox, ussr, 10, "Beria");
    let mine: Vec<PathBuf> = files_in(&dir.join("outbox"))
        .into_iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains(&format!("To: {us}"))
        })
        .collect();
    let check = |files: &[PathBuf]| {
        let mut args = vec!["check".to_string()];
        args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        twilight(&args)
    };
    let o = check(&mine);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("the sealed superpower card is Kennan"),
        "{out}"
    );
    assert!(
        out.contains("the US superpower card revealed is the card sealed at entry"),
        "{out}"
    );
    let receipt = mine
        .iter()
        .find(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains("Superpower card: Kennan")
        })
        .unwrap();
    let raw = std::fs::read_to_string(receipt).unwrap();
    let seq = raw
        .lines()
        .find_map(|l| {
            l.strip_prefix("Entry ")?
                .split_once(": your superpower card")
        })
        .unwrap()
        .0
        .to_string();
    std::fs::write(
        receipt,
        raw.replace("Superpower card: Kennan", "Superpower card: Acheson"),
    )
    .unwrap();
    let o = check(&mine);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(&format!(
            "entry {seq}: the receipt's superpower card and salt do not match its commitment"
        )),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_sealed_superpower_cards_receipt_declares_its_charset() {
    // The receipt of a sealed card holds `·` and `§15`: sent without a Content-Type, a reader
    // takes it as US-ASCII (RFC 2045 §5.2) and shows them garbled.
    let (us, ussr) = ("anna-tz2@ts.test", "ben-tz2@ts.test");
    let (tmp, dir, inbox) = started("tz2", us, ussr);
    let outbox = dir.join("outbox");
    answer(&tmp, &dir, &inbox, us, 9, "Kennan");
    let receipts: Vec<(String, String)> = texts_to(&outbox, us)
        .into_iter()
        .filter(|(s, _)| s.contains("your move is recorded"))
        .collect();
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    let text = &receipts[0].1;
    assert!(text.contains("Superpower card: Kennan"), "{text}");
    assert!(text.contains(" · Crisis: 1"), "{text}");
    assert!(text.contains("schemas/FAIRNESS.md §15"), "{text}");
    let raw = files_in(&outbox)
        .into_iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .find(|r| r.contains("your move is recorded") && r.contains(us))
        .unwrap();
    assert!(
        raw.contains("Content-Type: text/plain; charset=utf-8"),
        "{raw}"
    );
    assert!(raw.contains("Message-ID: <"), "{raw}");
}

#[test]
fn a_turn_zero_game_plays_its_crises_and_first_turn_by_mail() {
    let (us, ussr) = ("anna-tz1@ts.test", "ben-tz1@ts.test");
    let (tmp, dir, inbox) = started("tz1", us, ussr);
    let games = tmp.path().join("games");
    let run = twilight;
    let status = || -> serde_json::Value {
        let o = run(&["status", dir.to_str().unwrap(), "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let d = dir.to_str().unwrap();
    let outbox = dir.join("outbox");
    let (g, i) = (games.to_str().unwrap(), inbox.to_str().unwrap());
    let s = status();
    assert_eq!(s["started"], true, "{s}");
    let player = |side: &str| if side == "US" { us } else { ussr };

    // Turn Zero and the first turn, by mail alone: each owed decision answered with the first
    // move its prompt mail offers, until turn 2 begins.
    let mut replies: usize = 10;
    let mut sealed_seen = 0;
    let mut crises_seen = std::collections::BTreeSet::new();
    for _ in 0..300 {
        let s = status();
        assert!(s["outcome"].is_null(), "the game ended in turn 1: {s}");
        if s["turn"].as_u64().unwrap_or(0) >= 2 {
            break;
        }
        let in_turn_zero = s["phase"].as_str().unwrap_or_default() == "turn zero";
        let owed = s["waiting_for"][0]["side"].as_str().unwrap().to_string();
        let to = player(&owed);
        let mails = read_mails(&files_in(&outbox), "tz1", to);
        let prompt = mails
            .iter()
            .rev()
            .find(|m| m.token().is_some() && !m.examples().is_empty())
            .unwrap_or_else(|| panic!("no prompt to {to} ({owed})"));
        if in_turn_zero {
            // The prompt lists the superpower cards in hand, each sendable as it is.
            assert!(prompt.text.contains("superpower card"), "{}", prompt.text);
            let waiting = s["waiting_for"].as_array().unwrap().len();
            let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
            if waiting == 1 {
                // The other side's card is sealed: only its commitment is in the log.
                assert!(log.contains("kind: superpower_card"));
                sealed_seen += 1;
            }
            crises_seen.insert(s["turn_zero"].to_string());
        }
        replies += 1;
        // In Turn Zero each reply takes another of the cards shown (every shown form must be
        // accepted); afterwards the first example.
        let examples = prompt.examples();
        let pick = if in_turn_zero {
            &examples[replies % examples.len()]
        } else {
            &examples[0]
        };
        let body = format!("{pick}\n\nToken: {}\n", prompt.token().unwrap());
        std::fs::write(
            inbox.join(format!("new/{replies}.move")),
            raw_reply(to, replies as u32, &prompt.subject, &body),
        )
        .unwrap();
        let o = run(&["inbox", "--games", g, i, "--outbox"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    }
    assert!(
        status()["turn"].as_u64().unwrap_or(0) >= 2,
        "turn 1 did not end"
    );
    // Six crises, each with one card sealed while the other was awaited.
    assert_eq!(sealed_seen, 6, "{crises_seen:?}");
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert_eq!(log.matches("kind: superpower_card").count(), 6);
    let o = run(&["verify", d]);
    assert!(o.status.success(), "{}", stdout(&o));
    // Each player's own check of its prompts and receipts finds nothing wrong.
    for who in [us, ussr] {
        let mine: Vec<String> = read_mails(&files_in(&outbox), "tz1", who)
            .iter()
            .map(|m| m.path.to_string_lossy().into_owned())
            .collect();
        let mut args = vec!["check"];
        args.extend(mine.iter().map(String::as_str));
        let o = run(&args);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    }
    // status and view show Turn Zero's results.
    let o = run(&["view", d, "--as", "public"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Turn Zero"), "{}", stdout(&o));
}

#[test]
fn the_crisis_prompt_says_what_each_result_does() {
    use twilight_pbem::engine::turn_zero::Crisis;
    let (us, ussr) = ("anna-tz4@ts.test", "ben-tz4@ts.test");
    let (_tmp, dir, _inbox) = started("tz4", us, ussr);
    let prompt = read_mails(&files_in(&dir.join("outbox")), "tz4", ussr)
        .into_iter()
        .rev()
        .find(|m| m.token().is_some())
        .expect("the crisis prompt");
    let crisis = Crisis::PILE_1
        .into_iter()
        .chain(Crisis::PILE_2)
        .find(|c| {
            prompt
                .text
                .contains(&format!("for the crisis {} (", c.name()))
        })
        .unwrap_or_else(|| panic!("no crisis named in\n{}", prompt.text));
    assert!(
        prompt.text.contains(&format!(
            "The crisis {}: one die, plus the US card's modifier and the USSR's",
            crisis.name()
        )),
        "{}",
        prompt.text
    );
    for (label, r) in [("1", 1), ("2–3", 2), ("4–5", 4), ("6", 6)] {
        let row = format!("\n  {label}: {}", crisis.row_text(r));
        assert!(prompt.text.contains(&row), "no `{row}` in\n{}", prompt.text);
    }
}
