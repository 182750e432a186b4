//! Attacks on standing orders (issue 17 point 5) as a hostile player: cancelling the
//! opponent's order, cancelling a used one, odd case and spacing; each refusal leaves
//! log.yaml byte-identical.

use twilight_pbem::data::Side;
use twilight_pbem::log::Payload;
use twilight_pbem::session::{Session, SessionError};

mod standing_common;
use standing_common::*;

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
