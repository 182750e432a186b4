//! Turn Zero in a sealed game: each crisis's superpower cards are chosen at once (Turn Zero
//! rulebook steps 5–6), so the first card received is logged only as a `superpower_card`
//! commitment until the second arrives, as a headline is (`schemas/FAIRNESS.md` §9, §15).

use chrono::{TimeZone, Utc};
use twilight_pbem::data::Side;
use twilight_pbem::engine::{Activity, Options};
use twilight_pbem::log::{CommitmentKind, Log, Payload, Players};
use twilight_pbem::session::Session;

fn t0() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap()
}

fn turn_zero_game(dir: &std::path::Path) -> Session {
    let players = Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let options = Options {
        turn_zero: true,
        ..Options::default()
    };
    let mut s = Session::create_with_seed(dir, &options, players, [9; 32], t0()).unwrap();
    s.join(Side::Ussr, "n1", t0()).unwrap();
    s.join(Side::Us, "n2", t0()).unwrap();
    s
}

fn log_text(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("log.yaml")).unwrap()
}

#[test]
fn the_first_superpower_card_is_sealed_until_the_second_arrives() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = turn_zero_game(&dir);
    assert!(matches!(
        s.game().unwrap().activity(),
        Activity::TurnZero { crisis: 0 }
    ));
    s.play(Side::Us, &["Marshall".into()], t0()).unwrap();
    // Only the commitment is in the log; the card is in the moderator's secret.
    let last = s.log().entries().last().unwrap().entry.payload.clone();
    assert!(
        matches!(
            last,
            Payload::Commitment {
                kind: CommitmentKind::SuperpowerCard,
                side: Some(Side::Us),
                turn: Some(1),
                ..
            }
        ),
        "{last:?}"
    );
    assert!(!log_text(&dir).contains("Marshall"));
    assert!(std::fs::read_to_string(dir.join("secret.yaml"))
        .unwrap()
        .contains("marshall"));
    // The public replay sees the US as done: only the USSR owes a card.
    let p = Session::open_public(&dir).unwrap();
    assert!(p.findings.is_empty(), "{:?}", p.findings);
    // The US cannot choose twice.
    let mut s = Session::open(&dir).unwrap();
    assert!(s.play(Side::Us, &["Kennan".into()], t0()).is_err());
    // The second card reveals both: the US decision entry comes first, then the USSR's.
    s.play(Side::Ussr, &["Molotov".into()], t0()).unwrap();
    let decisions: Vec<(Side, String)> = s
        .log()
        .entries()
        .iter()
        .filter_map(|e| match &e.entry.payload {
            Payload::Decision { side, notation, .. } => Some((*side, notation.clone())),
            _ => None,
        })
        .collect();
    let n = decisions.len();
    assert_eq!(
        decisions[n - 2..],
        [
            (Side::Us, "Marshall".to_string()),
            (Side::Ussr, "Molotov".to_string())
        ]
    );
    let tz = s.game().unwrap().state().turn_zero.clone().unwrap();
    assert_eq!(tz.resolved.len(), 1);
    assert_eq!(tz.resolved[0].played.us.name(), "Marshall");
    assert!(!std::fs::read_to_string(dir.join("secret.yaml"))
        .unwrap()
        .contains("pending_superpower_card"));
    let full = Session::open(&dir).unwrap();
    assert!(full.findings.is_empty(), "{:?}", full.findings);
}

#[test]
fn a_swapped_pending_superpower_card_in_secret_yaml_is_refused() {
    // The moderator edits the sealed first card in secret.yaml: it no longer matches the
    // commitment logged for it, and the game refuses to go on (FAIRNESS.md §9, as for
    // headlines).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = turn_zero_game(&dir);
    s.play(Side::Ussr, &["Beria".into()], t0()).unwrap();
    let secret = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
    assert!(secret.contains("card: beria"), "{secret}");
    std::fs::write(
        dir.join("secret.yaml"),
        secret.replace("card: beria", "card: molotov"),
    )
    .unwrap();
    let err = Session::open(&dir).err().expect("refused").to_string();
    assert!(
        err.contains("is not the card its logged commitment seals"),
        "{err}"
    );
}

#[test]
fn verify_names_the_entry_of_a_revealed_card_that_does_not_match_its_commitment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = turn_zero_game(&dir);
    s.play(Side::Us, &["Kennan".into()], t0()).unwrap();
    s.play(Side::Ussr, &["KGB".into()], t0()).unwrap();
    // An abandoned game: the seed is revealed, so anyone can check every commitment.
    s.reveal(true, t0()).unwrap();
    // The US card revealed is changed from Kennan to Acheson (same +1, so the game goes on
    // alike); the log's hash chain is rebuilt, the commitment left as it was.
    let bad = tmp.path().join("g-bad");
    std::fs::create_dir_all(&bad).unwrap();
    let log = Log::open(dir.join("log.yaml")).unwrap();
    let mut new = Log::create(bad.join("log.yaml")).unwrap();
    let mut changed = None;
    for e in log.entries() {
        let mut p = e.entry.payload.clone();
        if let Payload::Decision {
            side: Side::Us,
            notation,
            answer,
        } = &mut p
        {
            if notation == "Kennan" {
                *notation = "Acheson".into();
                // Kennan is option 0 of the US hand, Acheson option 1.
                *answer = serde_yaml::from_str("number: 1").unwrap();
                changed = Some(e.entry.seq);
            }
        }
        new.append(p, e.entry.by, e.entry.at).unwrap();
    }
    let seq = changed.expect("the US decision Kennan is logged");
    let v = Session::open_public(&bad).unwrap();
    let want = format!("entry {seq}: the US superpower card Acheson does not match its commitment");
    assert!(v.findings.contains(&want), "{:?}", v.findings);
    let o = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["verify", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&want),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_refused_superpower_card_names_the_cards_in_hand_and_changes_nothing() {
    // A new user's replies in crisis 2 after Marshall was played in crisis 1: the card already
    // played, a card of no hand, the opponent's card and a bare number are refused, each
    // naming the cards still in hand (the refusal once asked for "an option number", which a
    // bare number did not answer either); log and secret stay byte-identical.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = turn_zero_game(&dir);
    s.play(Side::Us, &["Marshall".into()], t0()).unwrap();
    s.play(Side::Ussr, &["Beria".into()], t0()).unwrap();
    assert!(matches!(
        s.game().unwrap().activity(),
        Activity::TurnZero { crisis: 1 }
    ));
    let log = std::fs::read(dir.join("log.yaml")).unwrap();
    let secret = std::fs::read(dir.join("secret.yaml")).unwrap();
    for reply in ["Marshall", "Truman", "Molotov", "3"] {
        let err = s
            .play(Side::Us, &[reply.into()], t0())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("one of Kennan, Acheson, Dulles, OSS"),
            "{reply}: {err}"
        );
        assert!(!err.contains("option number"), "{reply}: {err}");
        assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), log, "{reply}");
        assert_eq!(
            std::fs::read(dir.join("secret.yaml")).unwrap(),
            secret,
            "{reply}"
        );
    }
    // Sealed once, a second card from the same side is refused and the sealed one stays.
    s.play(Side::Us, &["kennan".into()], t0()).unwrap();
    let log = std::fs::read(dir.join("log.yaml")).unwrap();
    let secret = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
    assert!(secret.contains("card: kennan"), "{secret}");
    assert!(s.play(Side::Us, &["Acheson".into()], t0()).is_err());
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), log);
    assert_eq!(
        std::fs::read_to_string(dir.join("secret.yaml")).unwrap(),
        secret
    );
}

#[test]
fn a_takeback_after_a_sealed_superpower_card_is_refused_naming_the_superpower_card() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let mut s = turn_zero_game(&dir);
    s.play(Side::Us, &["Marshall".into()], t0()).unwrap();
    let before = log_text(&dir);
    let err = s
        .play(Side::Us, &["takeback".into()], t0())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is a sealed Turn Zero superpower card"),
        "{err}"
    );
    assert!(!err.contains("is a sealed headline"), "{err}");
    assert_eq!(log_text(&dir), before, "a refused takeback writes nothing");
}
