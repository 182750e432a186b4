//! Standing orders (`schemas/NOTATION.md` "Standing orders", `schemas/FAIRNESS.md` §16): given
//! with any reply, sealed as a digest until used, applied when their decision comes (and told
//! to both players), listed and cancelled by their owner, never applied to a decision whose
//! answers changed, and checked by verify. Applying one draws the same dice as the same answer
//! typed by hand. A hostile player can neither cancel the opponent's order nor a used one, and
//! each refusal leaves log.yaml byte-identical.

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::{Prompt, PromptKind};
use twilight_pbem::log::Payload;
use twilight_pbem::session::correspondence::standing_orders::{self, SealedOrder};
use twilight_pbem::session::{Session, SessionError};

mod standing_common;
use standing_common::*;

#[test]
fn an_olympic_games_order_is_sealed_then_used_and_told() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(tmp.path());
    let done = play(
        &mut s,
        Side::Us,
        &[
            "if Olympic Games: boycott",
            &format!("headline {}", us_headline.name()),
        ],
    )
    .unwrap();
    assert_eq!(done[0], "if Olympic Games: boycott");
    // Sealed: the log holds a digest only; the owner sees the order, the opponent nothing.
    let order_seq = s
        .log()
        .entries()
        .iter()
        .find(|e| matches!(e.entry.payload, Payload::StandingOrder { .. }))
        .map(|e| e.entry.seq)
        .expect("a standing_order entry");
    let log_text = std::fs::read_to_string(s.dir().join("log.yaml")).unwrap();
    assert!(
        !log_text.contains("boycott"),
        "the order is sealed in the log"
    );
    assert_eq!(
        s.standing_order_lines(Side::Us),
        vec![format!(
            "standing order {order_seq}: `if Olympic Games: boycott` (cancel with `cancel order {order_seq}`)"
        )]
    );
    assert!(s.standing_order_lines(Side::Ussr).is_empty());
    let defcon = s.game().unwrap().state().defcon;
    let happened = {
        play(&mut s, Side::Ussr, &["headline Olympic Games"]).unwrap();
        s.happened().to_vec()
    };
    // Used: the order revealed, then its answer as the US's decision.
    let k = kinds(&s);
    let used = k
        .iter()
        .position(|k| *k == "standing_order_used")
        .expect("used");
    assert_eq!(k[used + 1], "decision");
    let e = &s.log().entries()[used + 1].entry;
    match &e.payload {
        Payload::Decision { side, notation, .. } => {
            assert_eq!(*side, Side::Us);
            assert_eq!(notation, "boycott");
        }
        other => panic!("expected the order's decision, got {other:?}"),
    }
    assert_eq!(
        s.game().unwrap().state().defcon,
        defcon - 1,
        "the boycott degrades DEFCON"
    );
    let told = format!(
        "The US's standing order `if Olympic Games: boycott` (entry {order_seq}) is used: boycott."
    );
    assert!(happened.contains(&told), "{happened:#?}");
    assert_eq!(
        s.standing_order_news(0),
        vec![format!(
            "The US's standing order `if Olympic Games: boycott` (entry {order_seq}) was used (entry {}).",
            s.log().entries()[used].entry.seq
        )]
    );
    assert!(s.standing_order_lines(Side::Us).is_empty(), "used up");
    // Every entry, the standing-order ones included, is valid under the published schema.
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/log-entry.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let bytes = std::fs::read(s.dir().join("log.yaml")).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for range in twilight_pbem::log::split_documents(&bytes).documents {
        let entry: serde_json::Value = serde_yaml::from_str(&text[range]).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&entry)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{entry}");
        seen.extend(entry["payload"].as_object().unwrap().keys().cloned());
    }
    assert!(seen.contains("standing_order") && seen.contains("standing_order_used"));
    // verify: the public replay checks the reveal against the digest.
    let public = Session::open_public(s.dir()).unwrap();
    assert!(public.findings.is_empty(), "{:?}", public.findings);
    assert_eq!(public.game().unwrap().state().defcon, defcon - 1);
}

/// The same game with `participate` given as a standing order and typed by hand: the same
/// entries' dice, the same Olympic rolls, the same board.
#[test]
fn an_order_draws_the_same_dice_as_the_answer_typed_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut a, us_headline) = olympic_game(&tmp.path().join("a"));
    let (mut b, _) = olympic_game(&tmp.path().join("b"));
    let h = format!("headline {}", us_headline.name());
    play(&mut a, Side::Us, &["if Olympic Games: participate", &h]).unwrap();
    play(&mut a, Side::Ussr, &["headline Olympic Games"]).unwrap();
    play(&mut b, Side::Us, &[&h]).unwrap();
    play(&mut b, Side::Ussr, &["headline Olympic Games"]).unwrap();
    assert!(b.game().unwrap().prompt_for(Side::Us).is_some());
    play(&mut b, Side::Us, &["participate"]).unwrap();
    let rolls = |s: &Session| -> Vec<String> {
        s.game()
            .unwrap()
            .history()
            .filter(|l| l.starts_with("Olympic Games:"))
            .cloned()
            .collect()
    };
    assert!(!rolls(&a).is_empty());
    assert_eq!(rolls(&a), rolls(&b));
    let (sa, sb) = (a.game().unwrap().state(), b.game().unwrap().state());
    assert_eq!(sa.vp, sb.vp);
    assert_eq!(sa.defcon, sb.defcon);
    assert_eq!(
        a.game().unwrap().prompts(),
        b.game().unwrap().prompts(),
        "the same decision follows"
    );
}

#[test]
fn an_order_is_listed_and_cancelled_and_the_player_is_then_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(tmp.path());
    play(&mut s, Side::Us, &["if Olympic Games: boycott"]).unwrap();
    let seq = s.log().next_seq() - 1;
    play(&mut s, Side::Us, &["orders"]).unwrap();
    assert_eq!(
        s.happened(),
        &[format!(
            "standing order {seq}: `if Olympic Games: boycott` (cancel with `cancel order {seq}`)"
        )]
    );
    // The shown cancel line is accepted as it is shown.
    assert_eq!(
        play(&mut s, Side::Us, &[&format!("cancel order {seq}")]).unwrap(),
        vec![format!("cancel order {seq}")]
    );
    assert!(s.standing_order_lines(Side::Us).is_empty());
    let again = play(&mut s, Side::Us, &[&format!("cancel order {seq}")]).unwrap_err();
    assert_eq!(
        again.to_string(),
        format!(
            "`cancel order {seq}` refused: standing order {seq} was cancelled in entry {}",
            seq + 1
        )
    );
    assert_eq!(
        play(&mut s, Side::Us, &["cancel orders"])
            .unwrap_err()
            .to_string(),
        "`cancel orders` refused: the US has no standing orders"
    );
    play(
        &mut s,
        Side::Us,
        &[&format!("headline {}", us_headline.name())],
    )
    .unwrap();
    play(&mut s, Side::Ussr, &["headline Olympic Games"]).unwrap();
    assert!(!kinds(&s).contains(&"standing_order_used"));
    let p = s
        .game()
        .unwrap()
        .prompt_for(Side::Us)
        .expect("the US is asked as usual");
    assert_eq!(p.card, Some(Card::OlympicGames));
}

#[test]
fn an_order_for_no_fixed_decision_is_refused_with_the_forms() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, _) = olympic_game(tmp.path());
    let len = s.log().len();
    let e = play(&mut s, Side::Us, &["if Duck and Cover: yes"]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("`if Duck and Cover: yes`: no standing order for that decision"),
        "{e}"
    );
    // The order of an event and its Operations: only for an opponent's card.
    let e = play(&mut s, Side::Us, &["if Duck and Cover: ops first"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`if Duck and Cover: ops first`: the order of an event and its Operations is asked only for an opponent's card (Duck and Cover is not a USSR event)"
    );
    // A Blockade discard of a card the discard would not list.
    let e = play(&mut s, Side::Us, &["if Blockade: discard Olympic Games"]).unwrap_err();
    assert!(
        e.to_string().starts_with("`if Blockade: discard Olympic Games`: Olympic Games is not among the cards the discard would list now"),
        "{e}"
    );
    // An answer the decision does not accept.
    let e = play(&mut s, Side::Us, &["if Olympic Games: pass"]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("`if Olympic Games: pass`: `pass` is no answer to that decision"),
        "{e}"
    );
    assert_eq!(s.log().len(), len, "nothing written");
    // The forms the refusal names are accepted.
    for (typed, shown) in [
        ("if Blockade: discard none", "if Blockade: discard none"),
        ("if comecon: ops first", "if COMECON: ops first"),
        ("if 20: participate", "if Olympic Games: participate"),
    ] {
        assert_eq!(
            play(&mut s, Side::Us, &[typed]).unwrap(),
            vec![shown.to_string()]
        );
        // What is shown is accepted when sent back.
        assert!(matches!(standing_orders::parse(shown), Some(Ok(_))));
    }
    assert_eq!(s.standing_order_lines(Side::Us).len(), 3);
}

/// Bound to the answers: an order given for one list of discards is not used for another.
#[test]
fn an_order_fits_only_the_decision_it_was_given_for() {
    let for_kind = |cands: Vec<Card>| PromptKind::ChooseCard {
        candidates: cands,
        optional: true,
    };
    let order = SealedOrder {
        seq: 9,
        side: Side::Us,
        card: Card::Blockade,
        answer: "discard none".into(),
        kind: serde_json::to_string(&for_kind(vec![Card::DuckAndCover])).unwrap(),
    };
    let asked =
        |cands: Vec<Card>| Prompt::new(Side::Us, for_kind(cands), "").for_card(Card::Blockade);
    assert!(order.fits(&asked(vec![Card::DuckAndCover])));
    assert!(!order.fits(&asked(vec![Card::DuckAndCover, Card::Nato])));
    assert!(!order.fits(&asked(vec![])));
    assert!(!order.fits(
        &Prompt::new(Side::Us, for_kind(vec![Card::DuckAndCover]), "")
            .for_card(Card::LatinAmericanDebtCrisis)
    ));
    assert_eq!(order.text(), "if Blockade: discard none");
    assert!(matches!(
        standing_orders::parse(&order.text()),
        Some(Ok(standing_orders::OrderMove::Give {
            card: Card::Blockade,
            ..
        }))
    ));
}

/// verify refuses a `standing_order_used` that reveals another order than the one sealed.
#[test]
fn a_reveal_that_is_not_the_sealed_order_is_refused_by_the_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(&tmp.path().join("g"));
    let h = format!("headline {}", us_headline.name());
    play(&mut s, Side::Us, &["if Olympic Games: boycott", &h]).unwrap();
    play(&mut s, Side::Ussr, &["headline Olympic Games"]).unwrap();
    let entries = s.log().entries().to_vec();
    let used = entries
        .iter()
        .position(|e| e.entry.payload.kind() == "standing_order_used")
        .unwrap();
    let Payload::StandingOrderUsed {
        side, order, salt, ..
    } = entries[used].entry.payload.clone()
    else {
        unreachable!()
    };
    // The log up to the reveal, then a forged reveal and its decision, chained properly.
    let bytes = std::fs::read(s.dir().join("log.yaml")).unwrap();
    let docs = twilight_pbem::log::split_documents(&bytes).documents;
    let forged = tmp.path().join("forged");
    std::fs::create_dir_all(&forged).unwrap();
    std::fs::write(forged.join("log.yaml"), &bytes[..docs[used].start]).unwrap();
    let mut log = twilight_pbem::log::Log::open(forged.join("log.yaml")).unwrap();
    log.stage(
        Payload::StandingOrderUsed {
            side,
            order,
            text: "if Olympic Games: participate".into(),
            salt,
        },
        twilight_pbem::log::Author::Moderator,
        now(),
    )
    .unwrap();
    log.stage(
        Payload::Decision {
            side: Side::Us,
            notation: "participate".into(),
            answer: serde_yaml::to_value(twilight_pbem::engine::Answer::Number(0)).unwrap(),
        },
        twilight_pbem::log::Author::Us,
        now(),
    )
    .unwrap();
    log.commit().unwrap();
    let e = Session::open_public(&forged).err().expect("refused");
    assert_eq!(
        e.to_string(),
        format!(
            "log entry {}: the US's standing order {order} revealed as `if Olympic Games: participate` does not match its digest for the decision owed (another order, or given for other answers)",
            entries[used].entry.seq
        )
    );
}

/// By the command line: given with `play`, listed by `play … orders` and `view --as SIDE` to
/// its owner only, counted (sealed) by `status`, cancelled with the line the listing shows.
#[test]
fn cli_gives_lists_shows_and_cancels_an_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let d = dir.to_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let o = assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .env("TWILIGHT_NOW", "2027-01-04T12:00:00Z")
            .env_remove("TWILIGHT_SMTP_URL")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    run(&["new", &d, "--us", "a@ts.test", "--ussr", "b@ts.test"]);
    run(&["join", &d, "--as", "ussr", "--nonce", "x", "--no-mail"]);
    run(&["join", &d, "--as", "us", "--nonce", "y", "--no-mail"]);
    run(&["play", &d, "--as", "us", "--no-mail", "if olympic: boycott"]);
    let listed = run(&["play", &d, "--as", "us", "--no-mail", "orders"]);
    let line = listed
        .lines()
        .find(|l| l.contains("standing order "))
        .unwrap_or_else(|| panic!("not listed:\n{listed}"))
        .to_string();
    assert!(line.contains("`if Olympic Games: boycott`"), "{line}");
    let us_view = run(&["view", &d, "--as", "us"]);
    assert!(us_view.contains("== Your standing orders =="), "{us_view}");
    assert!(us_view.contains("`if Olympic Games: boycott`"), "{us_view}");
    let ussr_view = run(&["view", &d, "--as", "ussr"]);
    assert!(!ussr_view.contains("boycott"), "{ussr_view}");
    let status = run(&["status", &d]);
    assert!(
        status.contains("Standing orders: the US has 1 sealed"),
        "{status}"
    );
    assert!(!status.contains("boycott"), "{status}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["status", &d, "--format", "json"])).unwrap();
    assert_eq!(
        json["standing_orders"],
        serde_json::json!({"US": 1, "USSR": 0})
    );
    // The cancel line shown in the listing is accepted as shown.
    let cancel = line.split('`').nth(3).expect("the cancel form").to_string();
    assert!(cancel.starts_with("cancel order "), "{line}");
    run(&["play", &d, "--as", "us", "--no-mail", &cancel]);
    assert!(!run(&["status", &d]).contains("Standing orders"));
    let json: serde_json::Value =
        serde_json::from_str(&run(&["status", &d, "--format", "json"])).unwrap();
    assert_eq!(
        json["standing_orders"],
        serde_json::json!({"US": 0, "USSR": 0})
    );
}

/// A player's own order waits for the end of their line: a move they type in the line answers
/// their decision (`play CARD ops` with the order implied by an Operations move), and the order
/// stays open, unused.
#[test]
fn a_move_typed_in_the_line_answers_before_the_players_own_order() {
    use twilight_pbem::engine::legal::legal_answers;
    use twilight_pbem::engine::{Answer, CardUse, SeededChance};
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(tmp.path());
    play(
        &mut s,
        Side::Us,
        &[&format!("headline {}", us_headline.name())],
    )
    .unwrap();
    play(&mut s, Side::Ussr, &["headline Olympic Games"]).unwrap();
    play(&mut s, Side::Us, &["participate"]).unwrap();
    // The USSR's first action round: a US card in its hand, played for Operations.
    let game = s.game().unwrap().clone();
    assert!(
        game.prompt_for(Side::Ussr).is_some(),
        "the USSR's action round"
    );
    let card = game
        .state()
        .cards
        .hands
        .ussr
        .iter()
        .copied()
        .find(|c| c.event_side() == Some(Side::Us))
        .expect("a US card in the USSR hand");
    // An Operations move the USSR may make after `ops first`.
    let mut trial = game.clone();
    let mut dice = SeededChance::new(0);
    trial
        .apply(
            Side::Ussr,
            Answer::Play {
                card,
                mode: CardUse::Operations,
            },
            &mut dice,
        )
        .unwrap();
    trial
        .apply(Side::Ussr, Answer::YesNo(false), &mut dice)
        .unwrap();
    let prompt = trial.prompt_for(Side::Ussr).unwrap().clone();
    let ops = legal_answers(&trial, Side::Ussr, &mut SeededChance::new(3), 4)
        .into_iter()
        .find(|a| matches!(a, Answer::Influence(_)))
        .expect("an Influence placement");
    let ops = twilight_pbem::text::notation::format_answer(&ops, &prompt);
    play(
        &mut s,
        Side::Ussr,
        &[&format!("if {}: event first", card.name())],
    )
    .unwrap();
    play(
        &mut s,
        Side::Ussr,
        &[&format!("play {} ops; ops first; {ops}", card.name())],
    )
    .unwrap();
    assert!(!kinds(&s).contains(&"standing_order_used"));
    assert_eq!(s.standing_order_lines(Side::Ussr).len(), 1, "still open");
}

/// A second open order for the same card's same decision, identical or not, is refused naming
/// the first and how to cancel it, and writes nothing; once the first is cancelled it is taken.
#[test]
fn a_second_order_for_the_same_decision_is_refused_until_the_first_is_cancelled() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, _) = olympic_game(tmp.path());
    play(&mut s, Side::Us, &["if Olympic Games: boycott"]).unwrap();
    let seq = s.log().next_seq() - 1;
    let log_before = std::fs::read(s.dir().join("log.yaml")).unwrap();
    for line in ["if Olympic Games: boycott", "if Olympic Games: participate"] {
        let err = play(&mut s, Side::Us, &[line]).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "`{line}` refused: standing order {seq} (`if Olympic Games: boycott`) already \
                 answers that decision; cancel it first with `cancel order {seq}`"
            )
        );
        assert_eq!(std::fs::read(s.dir().join("log.yaml")).unwrap(), log_before);
    }
    assert_eq!(s.standing_order_lines(Side::Us).len(), 1);
    play(&mut s, Side::Us, &[&format!("cancel order {seq}")]).unwrap();
    play(&mut s, Side::Us, &["if Olympic Games: participate"]).unwrap();
    assert_eq!(s.standing_order_lines(Side::Us).len(), 1);
}

// ---- Orders as a hostile player gives them: cancelling the opponent's order, cancelling a
// used one, odd case and spacing; each refusal leaves log.yaml byte-identical.

#[test]
fn the_opponent_cannot_cancel_an_order_and_the_log_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, _) = olympic_game(tmp.path());
    play(&mut s, Side::Us, &["if Olympic Games: boycott"]).unwrap();
    let seq = s.log().next_seq() - 1;
    let before = log_bytes(&s);
    let e = play(&mut s, Side::Ussr, &[&format!("cancel order {seq}")]).unwrap_err();
    assert!(matches!(e, SessionError::Refusal(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!("`cancel order {seq}` refused: standing order {seq} is the US's, not the USSR's")
    );
    assert_eq!(log_bytes(&s), before);
    assert_eq!(s.standing_order_lines(Side::Us).len(), 1, "still open");
    assert!(
        s.standing_order_lines(Side::Ussr).is_empty(),
        "not shown to the USSR"
    );
}

#[test]
fn a_used_order_cannot_be_cancelled_and_the_log_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(tmp.path());
    play(
        &mut s,
        Side::Us,
        &[
            "  IF   olympic games :   BOYCOTT  ",
            &format!("headline {}", us_headline.name()),
        ],
    )
    .unwrap();
    let seq = s
        .log()
        .entries()
        .iter()
        .find(|e| matches!(e.entry.payload, Payload::StandingOrder { .. }))
        .map(|e| e.entry.seq)
        .unwrap();
    play(&mut s, Side::Ussr, &["headline Olympic Games"]).unwrap();
    assert!(
        kinds(&s).contains(&"standing_order_used"),
        "{:?}",
        kinds(&s)
    );
    let before = log_bytes(&s);
    let e = play(&mut s, Side::Us, &[&format!("cancel order {seq}")]).unwrap_err();
    assert!(matches!(e, SessionError::Refusal(_)), "{e:?}");
    assert!(
        e.to_string()
            .contains(&format!("standing order {seq} was used in entry")),
        "{e}"
    );
    assert_eq!(log_bytes(&s), before);
    let e = play(&mut s, Side::Us, &["cancel orders"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`cancel orders` refused: the US has no standing orders"
    );
    assert_eq!(log_bytes(&s), before);
}

#[test]
fn an_order_for_the_opponents_decision_is_refused_and_the_log_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, _) = olympic_game(tmp.path());
    let before = log_bytes(&s);
    // Blockade's discard is the US's: the USSR cannot order it.
    let e = play(&mut s, Side::Ussr, &["if Blockade: discard none"]).unwrap_err();
    assert!(matches!(e, SessionError::Refusal(_)), "{e:?}");
    assert_eq!(log_bytes(&s), before);
    // An order for an answer that no decision takes.
    let e = play(&mut s, Side::Us, &["if Olympic Games: pass"]).unwrap_err();
    assert!(matches!(e, SessionError::Refusal(_)), "{e:?}");
    assert_eq!(log_bytes(&s), before);
}

#[test]
fn an_order_naming_the_card_by_number_is_logged_and_listed_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, _) = olympic_game(tmp.path());
    let done = play(&mut s, Side::Us, &["if 20: boycott"]).unwrap();
    assert_eq!(done, vec!["if Olympic Games: boycott".to_string()]);
    let seq = s.log().next_seq() - 1;
    assert_eq!(
        s.standing_order_lines(Side::Us),
        vec![format!(
            "standing order {seq}: `if Olympic Games: boycott` (cancel with `cancel order {seq}`)"
        )]
    );
    // The cancel line shown is accepted as shown, with `#` and odd case too.
    play(&mut s, Side::Us, &[&format!("Cancel Order #{seq}")]).unwrap();
    assert!(s.standing_order_lines(Side::Us).is_empty());
}

/// The moderator's secret file altered after the order was given (`boycott` made
/// `participate`): the order no longer matches its digest, so it is refused when its decision
/// comes, loudly and naming the order; the opponent's legal move that raised the decision
/// stands, the order is not revealed or used, and the log stays valid.
#[test]
fn an_order_altered_in_the_secret_file_is_refused_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut s, us_headline) = olympic_game(tmp.path());
    let h = format!("headline {}", us_headline.name());
    play(&mut s, Side::Us, &["if Olympic Games: boycott", &h]).unwrap();
    let order = s.log().next_seq() - 2;
    let dir = s.dir().to_path_buf();
    drop(s);
    let secret = dir.join("secret.yaml");
    let text = std::fs::read_to_string(&secret).unwrap();
    assert!(text.contains("boycott"), "the order is in the secret file");
    assert!(text.contains("answer: boycott"), "{text}");
    std::fs::write(
        &secret,
        text.replace("answer: boycott", "answer: participate"),
    )
    .unwrap();
    let mut s = Session::open(&dir).unwrap();
    let r = play(&mut s, Side::Ussr, &["headline Olympic Games"]);
    let k = kinds(&s);
    let public = Session::open_public(&dir).map(|p| p.findings.len());
    let e = r.expect_err(&format!(
        "an altered order is not used silently: {k:?} {public:?}"
    ));
    assert!(
        e.to_string().contains(&format!("standing order {order}")),
        "{e}"
    );
    let s = Session::open(&dir).unwrap();
    assert!(!kinds(&s).contains(&"standing_order_used"));
    let public = Session::open_public(&dir).unwrap();
    assert!(public.findings.is_empty(), "{:?}", public.findings);
}
