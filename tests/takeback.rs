//! Takeback by consent (`schemas/NOTATION.md` "Takebacks"): asked, accepted or declined,
//! recorded as an entry naming what it cancels; never past a die roll, a shuffle, a draw, a
//! revealed card or a headline; replay and verify skip the cancelled entries; a tampered
//! takeback record is an error naming it; the decision made in place of a cancelled one gets
//! the same dice.

use chrono::{TimeZone, Utc};
use twilight_pbem::data::Side;
use twilight_pbem::engine::legal::legal_answers;
use twilight_pbem::engine::{Options, SeededChance};
use twilight_pbem::log::{entry_hash, split_documents, Payload};
use twilight_pbem::session::{Session, SessionError};

const SEED: [u8; 32] = [11u8; 32];
const USSR_SETUP: &str = "influence Poland 4, East Germany 1, Hungary 1";
const USSR_SETUP_2: &str = "influence Poland 3, East Germany 2, Hungary 1";

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

fn new_game(dir: &std::path::Path) -> Session {
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s = Session::create_with_seed(dir, &Options::default(), players, SEED, now()).unwrap();
    s.join(Side::Ussr, "nonce-ussr", now()).unwrap();
    s.join(Side::Us, "nonce-us", now()).unwrap();
    s
}

fn play(s: &mut Session, side: Side, line: &str) -> Result<Vec<String>, SessionError> {
    s.play(side, &[line.to_string()], now())
}

fn refusal(r: Result<Vec<String>, SessionError>) -> String {
    match r {
        Err(e) => e.to_string(),
        Ok(done) => panic!("expected a refusal, got {done:?}"),
    }
}

/// Random legal play: the next decision owed, as a line (`index` picks among the first legal
/// answers).
fn next_line(s: &Session, index: usize) -> Option<(Side, String)> {
    let game = s.game()?;
    if game.outcome().is_some() {
        return None;
    }
    let prompt = game.prompts().first()?.clone();
    let legal = legal_answers(game, prompt.side, &mut SeededChance::new(index as u64), 12);
    let answer = legal.get(index % legal.len().max(1))?.clone();
    Some((
        prompt.side,
        twilight_pbem::text::notation::format_answer(&answer, &prompt),
    ))
}

fn influence_of(s: &Session, country: &str) -> (u8, u8) {
    let c = twilight_pbem::text::notation::find_country(country).unwrap();
    let st = s.game().unwrap().state();
    (st.influence(c, Side::Us), st.influence(c, Side::Ussr))
}

#[test]
fn an_accepted_takeback_cancels_the_decision_and_the_player_decides_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = new_game(&dir);
    play(&mut s, Side::Ussr, USSR_SETUP).unwrap();
    assert_eq!(influence_of(&s, "Poland").1, 4);
    let setup_seq = s.log().next_seq() - 1;
    assert_eq!(
        play(&mut s, Side::Ussr, "takeback").unwrap(),
        vec!["takeback"]
    );
    let pending = s.pending_takeback().expect("asked").clone();
    assert_eq!(pending.side, Side::Ussr);
    assert_eq!(pending.decisions, 1);
    assert!(pending.cancels.iter().any(|c| c.seq == setup_seq));
    assert!(pending.notice().contains("accept takeback"));
    // The asker cannot answer their own request.
    assert!(refusal(play(&mut s, Side::Ussr, "accept takeback")).contains("asked for no takeback"));
    assert_eq!(
        play(&mut s, Side::Us, "accept takeback").unwrap(),
        vec!["accept takeback"]
    );
    assert!(s.pending_takeback().is_none());
    assert!(s.cancelled().contains(&setup_seq));
    // The USSR owes its setup again, and the board is as before it.
    assert_eq!(influence_of(&s, "Poland").1, 0);
    assert!(s.game().unwrap().prompt_for(Side::Ussr).is_some());
    play(&mut s, Side::Ussr, USSR_SETUP_2).unwrap();
    assert_eq!(influence_of(&s, "Poland").1, 3);
    // The log kept everything: the cancelled decision, the request and the takeback record.
    let log = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(log.contains(USSR_SETUP) && log.contains("takeback_request:"));
    assert!(log.contains("\n  takeback:\n"));
    // Replay from disk (moderator and public) skips the cancelled entries.
    for reopened in [
        Session::open(&dir).unwrap(),
        Session::open_public(&dir).unwrap(),
    ] {
        assert_eq!(influence_of(&reopened, "Poland").1, 3);
        assert!(reopened.findings.is_empty(), "{:?}", reopened.findings);
        assert!(reopened.cancelled().contains(&setup_seq));
    }
}

#[test]
fn a_declined_takeback_changes_nothing_and_a_move_lapses_a_request() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = new_game(&dir);
    play(&mut s, Side::Ussr, USSR_SETUP).unwrap();
    play(&mut s, Side::Ussr, "takeback").unwrap();
    play(&mut s, Side::Us, "decline takeback").unwrap();
    assert!(s.pending_takeback().is_none() && s.cancelled().is_empty());
    assert_eq!(influence_of(&s, "Poland").1, 4);
    assert!(refusal(play(&mut s, Side::Us, "accept takeback")).contains("asked for no takeback"));
    // Asked again, then the US plays on instead of answering: the request lapses.
    play(&mut s, Side::Ussr, "takeback").unwrap();
    play(
        &mut s,
        Side::Us,
        "influence West Germany 4, Italy 2, France 1",
    )
    .unwrap();
    assert!(s.pending_takeback().is_none());
    assert!(refusal(play(&mut s, Side::Us, "accept takeback")).contains("asked for no takeback"));
    let reopened = Session::open_public(&dir).unwrap();
    assert!(reopened.cancelled().is_empty());
    assert_eq!(influence_of(&reopened, "Poland").1, 4);
}

#[test]
fn a_takeback_never_goes_past_the_opponents_decision_and_says_which_entry_blocks() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = new_game(&tmp.path().join("g"));
    // Nothing of its own to take back: the start of play blocks.
    let why = refusal(play(&mut s, Side::Us, "takeback"));
    assert!(
        why.contains("nothing can be taken back") && why.contains("start of play"),
        "{why}"
    );
    play(&mut s, Side::Ussr, USSR_SETUP).unwrap();
    let ussr_seq = s.log().next_seq() - 1;
    play(
        &mut s,
        Side::Us,
        "influence West Germany 4, Italy 2, France 1",
    )
    .unwrap();
    let why = refusal(play(&mut s, Side::Us, "takeback 2"));
    assert!(
        why.contains("only your last decision")
            && why.contains(&format!("entry {ussr_seq} is the USSR's decision")),
        "{why}"
    );
    let why = refusal(play(&mut s, Side::Ussr, "takeback"));
    assert!(why.contains("nothing can be taken back"), "{why}");
    assert!(s.pending_takeback().is_none());
    // Malformed forms are refused as notation.
    assert!(refusal(play(&mut s, Side::Us, "takeback two")).contains("takeback 2"));
}

/// Plays random legal moves until a decision of the kind `what` is the last one, then asks
/// the side that made it for a takeback: refused, naming that entry.
fn blocked_by(what: &str, seeds: std::ops::Range<usize>) {
    for pick in seeds {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = new_game(&tmp.path().join("g"));
        for step in 0..120 {
            let Some((side, line)) = next_line(&s, pick + step) else {
                break;
            };
            play(&mut s, side, &line).unwrap();
            let entries = s.log().entries();
            let Some(last) = entries
                .iter()
                .rev()
                .find(|e| matches!(e.entry.payload, Payload::Decision { .. }))
            else {
                continue;
            };
            let Payload::Decision { side, .. } = last.entry.payload.clone() else {
                unreachable!()
            };
            let r = s.play(side, &["takeback".to_string()], now());
            match r {
                Err(e) if e.to_string().contains(what) => {
                    let m = e.to_string();
                    assert!(
                        m.contains("never goes back past") && m.contains("entry "),
                        "{m}"
                    );
                    return;
                }
                Err(_) => {}
                Ok(_) => {
                    // Allowed: decline it and play on.
                    play(&mut s, side.opponent(), "decline takeback").unwrap();
                }
            }
        }
    }
    panic!("no position where `{what}` blocked a takeback");
}

#[test]
fn a_die_roll_blocks_a_takeback() {
    blocked_by("a die roll", 0..4);
}

#[test]
fn a_headline_blocks_a_takeback() {
    blocked_by("headline", 0..4);
}

#[test]
fn the_end_of_a_turn_blocks_a_takeback() {
    blocked_by("ends turn", 0..4);
}

#[test]
fn the_decision_made_in_place_of_a_cancelled_one_gets_the_same_dice() {
    // Game A: random play. Game B: the same moves, but every decision that can be taken back
    // is first made, taken back (accepted) and made again. Their chance records agree.
    let run = |with_takebacks: bool| {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        let mut s = new_game(&dir);
        let mut takebacks = 0;
        for step in 0..60 {
            let Some((side, line)) = next_line(&s, step) else {
                break;
            };
            play(&mut s, side, &line).unwrap();
            if with_takebacks && play(&mut s, side, "takeback").is_ok() {
                play(&mut s, side.opponent(), "accept takeback").unwrap();
                play(&mut s, side, &line).unwrap();
                takebacks += 1;
            }
        }
        // The records of the game as played: a cancelled decision's card-flow records
        // (FAIRNESS.md §3.7) are cancelled with it.
        let cancelled = s.cancelled().clone();
        let chance: Vec<String> = s
            .log()
            .entries()
            .iter()
            .filter(|e| !cancelled.contains(&e.entry.seq))
            .filter_map(|e| match &e.entry.payload {
                Payload::Chance { what } => Some(format!("{what:?}")),
                _ => None,
            })
            .collect();
        let reopened = Session::open_public(&dir).unwrap();
        assert!(reopened.findings.is_empty(), "{:?}", reopened.findings);
        (chance, takebacks)
    };
    let (a, _) = run(false);
    let (b, n) = run(true);
    assert!(n >= 3, "only {n} takebacks were possible");
    assert!(a.iter().any(|c| c.contains("die")), "the games rolled dice");
    assert_eq!(a, b);
}

/// Rewrites document `doc` of the log with `edit` and re-chains every later entry's `prev`, as
/// a forger would.
fn forge(path: &std::path::Path, doc: usize, edit: impl Fn(&str) -> String) {
    let bytes = std::fs::read(path).unwrap();
    let split = split_documents(&bytes);
    let mut docs: Vec<String> = split
        .documents
        .iter()
        .map(|r| String::from_utf8(bytes[r.clone()].to_vec()).unwrap())
        .collect();
    docs[doc] = edit(&docs[doc]);
    for i in doc + 1..docs.len() {
        let prev = entry_hash(docs[i - 1].as_bytes()).to_string();
        let fixed: Vec<String> = docs[i]
            .lines()
            .map(|l| {
                if l.starts_with("prev: ") {
                    format!("prev: {prev}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        docs[i] = fixed.join("\n") + "\n";
    }
    std::fs::write(path, docs.concat()).unwrap();
}

#[test]
fn a_tampered_takeback_record_is_an_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = new_game(&dir);
    play(&mut s, Side::Ussr, USSR_SETUP).unwrap();
    play(&mut s, Side::Ussr, "takeback").unwrap();
    play(&mut s, Side::Us, "accept takeback").unwrap();
    play(&mut s, Side::Ussr, USSR_SETUP_2).unwrap();
    let entries = s.log().entries().to_vec();
    let (doc, record) = entries
        .iter()
        .enumerate()
        .find(|(_, e)| matches!(e.entry.payload, Payload::Takeback { .. }))
        .map(|(i, e)| (i, e.entry.seq))
        .unwrap();
    let Payload::Takeback { cancels, .. } = &entries[doc].entry.payload else {
        unreachable!()
    };
    let hash = cancels[0].hash.to_string();
    let log = dir.join("log.yaml");
    let clean = std::fs::read(&log).unwrap();
    // A cancelled entry's hash changed in the record.
    let forged_hash = "0".repeat(64);
    forge(&log, doc, |d| d.replace(&hash, &forged_hash));
    let e = Session::open_public(&dir)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains(&format!("log entry {record}:")) && e.contains("not the entries"),
        "{e}"
    );
    // A takeback record with no request before it (the request's entry turned into a decline
    // of nothing is not possible to forge without breaking the chain; here the record names
    // another request).
    std::fs::write(&log, &clean).unwrap();
    forge(&log, doc, |d| {
        d.lines()
            .map(|l| {
                if l.trim_start().starts_with("request: ") {
                    "    request: 1".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    });
    let e = Session::open_public(&dir)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains(&format!("log entry {record}:")) && e.contains("request 1"),
        "{e}"
    );
    // The clean log verifies, with the seed too.
    std::fs::write(&log, &clean).unwrap();
    assert!(Session::open(&dir).unwrap().findings.is_empty());
}

#[test]
fn takeback_entries_match_the_log_schema_and_verify_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = new_game(&dir);
    play(&mut s, Side::Ussr, USSR_SETUP).unwrap();
    play(&mut s, Side::Ussr, "takeback").unwrap();
    play(&mut s, Side::Us, "decline takeback").unwrap();
    play(&mut s, Side::Ussr, "take back 1").unwrap();
    play(&mut s, Side::Us, "Accept Takeback").unwrap();
    play(&mut s, Side::Ussr, USSR_SETUP_2).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/log-entry.schema.json"
    ))
    .unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for range in split_documents(&bytes).documents {
        let doc: serde_json::Value =
            serde_yaml::from_str(std::str::from_utf8(&bytes[range]).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{doc}");
        kinds.extend(doc["payload"].as_object().unwrap().keys().cloned());
    }
    for k in ["takeback_request", "takeback", "takeback_declined"] {
        assert!(kinds.contains(k), "{kinds:?}");
    }
    // The schema's author rule: a takeback record written by the asker is refused.
    let text = std::str::from_utf8(&bytes).unwrap();
    let record = split_documents(&bytes)
        .documents
        .into_iter()
        .find(|r| text[r.clone()].contains("\n  takeback:\n"))
        .unwrap();
    let forged = format!(
        "{}{}{}",
        &text[..record.start],
        text[record.clone()].replace("by: us\n", "by: ussr\n"),
        &text[record.end..]
    );
    let report = twilight_pbem::log::verify_chain(forged.as_bytes(), None);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == twilight_pbem::log::FindingKind::Author
                && f.expected.contains("by: us for a takeback entry")),
        "{:?}",
        report.findings
    );
    // `twilight verify` on the game: clean.
    let out = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["verify", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_takeback_forms_read_and_print_back() {
    use twilight_pbem::session::takeback::{parse, TakebackMove};
    for (typed, want) in [
        ("takeback", TakebackMove::Ask(1)),
        ("TAKEBACK 3", TakebackMove::Ask(3)),
        ("take back 2", TakebackMove::Ask(2)),
        ("accept takeback", TakebackMove::Accept),
        ("decline takeback", TakebackMove::Decline),
    ] {
        let got = parse(typed).unwrap().unwrap();
        assert_eq!(got, want);
        // What the program prints is what it accepts.
        assert_eq!(parse(&got.to_string()).unwrap().unwrap(), got);
    }
    assert!(parse("takeback 0").unwrap().is_err());
    assert!(parse("accept takeback please").unwrap().is_err());
    assert!(parse("play 4 space").is_none());
    assert!(parse("accept draw").is_none());
}

/// A takeback the moderator's replay would accept but the public replay `verify` makes would
/// not (`takeback 2` over `play Fidel ops` and its Influence, a card the public had not seen in
/// the USSR's hand) is refused by `play`, and the log is left as it was; the single takeback
/// both replays accept goes through and verifies.
#[test]
fn play_refuses_a_takeback_the_public_replay_would_not_accept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("k1");
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/takeback-public-view");
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(fixture.join(f), dir.join(f)).unwrap();
    }
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .args(args)
            .output()
            .unwrap()
    };
    let d = dir.to_str().unwrap();
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    let o = run(&["play", d, "--as", "ussr", "--no-mail", "takeback 2"]);
    // A refused move: exit 1 (README's exit codes), not 2 (usage or file error).
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("the public replay `verify` makes would not accept it"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
    let o = run(&["play", d, "--as", "ussr", "--no-mail", "takeback 1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["play", d, "--as", "us", "--no-mail", "accept takeback"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["verify", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

/// `moves` shows the opponent's standing takeback request and draw offer with the lines that
/// answer them, not only "owes no decision now", and each line shown is accepted when sent.
#[test]
fn moves_shows_a_pending_takeback_and_draw_offer_with_their_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("g1");
    let d = d.to_str().unwrap();
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .args(args)
            .output()
            .unwrap()
    };
    let ok = |args: &[&str]| {
        let o = run(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    ok(&[
        "new",
        d,
        "--us",
        "a@ts.test",
        "--ussr",
        "b@ts.test",
        "--no-mail",
    ]);
    ok(&["join", d, "--as", "us", "--nonce", "a", "--no-mail"]);
    ok(&["join", d, "--as", "ussr", "--nonce", "b", "--no-mail"]);
    ok(&[
        "play",
        d,
        "--as",
        "ussr",
        "--no-mail",
        "influence Poland 4, East Germany 1, Hungary 1",
    ]);
    ok(&["play", d, "--as", "ussr", "--no-mail", "takeback"]);
    let m = ok(&["moves", d, "--as", "us"]);
    assert!(m.contains("asks to take back 1 decision"), "{m}");
    assert!(m.contains("`accept takeback` or `decline takeback`"), "{m}");
    assert!(!ok(&["moves", d, "--as", "ussr"]).contains("accept takeback"));
    ok(&["play", d, "--as", "us", "--no-mail", "decline takeback"]);
    ok(&["play", d, "--as", "ussr", "--no-mail", "offer draw"]);
    let m = ok(&["moves", d, "--as", "us"]);
    assert!(m.contains("offers a draw"), "{m}");
    assert!(m.contains("`accept draw` or `decline draw`"), "{m}");
    ok(&["play", d, "--as", "us", "--no-mail", "accept draw"]);
    assert!(ok(&["status", d]).contains("draw"));
}

/// What `side` must be told of takebacks for a mail after `since`: every answer to their
/// request from `since` on, read from the whole log with no shortcut.
fn answers_told(s: &Session, side: Side, since: u64) -> usize {
    s.log()
        .entries()
        .iter()
        .filter(|e| e.entry.seq >= since)
        .filter(|e| match &e.entry.payload {
            Payload::Takeback { side: a, .. } | Payload::TakebackDeclined { side: a, .. } => {
                *a == side
            }
            _ => false,
        })
        .count()
}

/// The takeback news (read only from the replay's last answer on) and the whole prompt mail are
/// the same from the live session, a replay with no snapshot and a replay from the snapshot,
/// for every point a player's last mail may have been at, through requests declined, accepted,
/// several in a row, by both sides, and lapsed by a move.
#[test]
fn takeback_news_is_the_same_with_and_without_the_snapshot_for_every_last_mail() {
    use twilight_pbem::mail::outbound::{compose, Purpose};
    use twilight_pbem::mail::{MailConfig, MailState};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = new_game(&dir);
    let steps: &[(Side, &str)] = &[
        (Side::Ussr, USSR_SETUP),
        (Side::Ussr, "takeback"),
        (Side::Us, "decline takeback"),
        (Side::Ussr, "takeback"),
        (Side::Us, "accept takeback"),
        (Side::Ussr, USSR_SETUP_2),
        (Side::Ussr, "takeback"),
        (Side::Us, "accept takeback"),
        (Side::Ussr, USSR_SETUP),
        (Side::Ussr, "takeback"),
        (Side::Us, "decline takeback"),
        (Side::Ussr, "takeback"),
        (Side::Us, "influence West Germany 4, Italy 2, France 1"),
        (Side::Us, "takeback"),
        (Side::Ussr, "decline takeback"),
        (Side::Us, "takeback"),
        (Side::Ussr, "accept takeback"),
        (Side::Us, "influence West Germany 3, Italy 3, France 1"),
    ];
    let mut checked = 0;
    let mut told = 0;
    for (i, (side, line)) in steps.iter().enumerate() {
        play(&mut s, *side, line).unwrap_or_else(|e| panic!("step {i} `{line}`: {e}"));
        let _ = std::fs::remove_file(dir.join("snapshot.json"));
        let (lock, _) = Session::lock(&dir).unwrap();
        let fresh = Session::open(&dir).unwrap();
        assert_eq!(
            fresh.entries_replayed(),
            fresh.log().len(),
            "step {i}: no snapshot"
        );
        let from_snapshot = Session::open(&dir).unwrap();
        assert_eq!(
            from_snapshot.entries_replayed(),
            0,
            "step {i}: the snapshot is read"
        );
        drop(lock);
        let end = s.log().next_seq();
        for since in (0..=end + 1).map(Some).chain([None]) {
            for who in Side::BOTH {
                let want = answers_told(&s, who, since.unwrap_or(0));
                let mails: Vec<String> = [&s, &fresh, &from_snapshot]
                    .iter()
                    .map(|x| {
                        let news = twilight_pbem::session::takeback::news(x, who, since);
                        assert_eq!(
                            news.len(),
                            want,
                            "step {i}, {who}, since {since:?}: {news:?}"
                        );
                        let mut state = MailState::default();
                        let rec = if who == Side::Us {
                            &mut state.us
                        } else {
                            &mut state.ussr
                        };
                        rec.last_seq = since;
                        let o = compose(
                            x,
                            &MailConfig::default(),
                            &mut state,
                            who,
                            Purpose::Prompt,
                            now(),
                        )
                        .unwrap();
                        o.text.clone()
                    })
                    .collect();
                assert_eq!(
                    mails[0], mails[1],
                    "step {i}, {who}, since {since:?}: no snapshot"
                );
                assert_eq!(
                    mails[0], mails[2],
                    "step {i}, {who}, since {since:?}: snapshot"
                );
                checked += 1;
                told += want;
            }
        }
    }
    assert!(
        checked > 500 && told > 100,
        "{checked} mails, {told} answers told"
    );
    eprintln!("{checked} mail points, {told} answers told");
}
