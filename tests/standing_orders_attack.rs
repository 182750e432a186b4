//! Attacks on standing orders (issue 17 point 5) as a hostile player: cancelling the
//! opponent's order, cancelling a used one, odd case and spacing; each refusal leaves
//! log.yaml byte-identical.

use chrono::{TimeZone, Utc};

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::Options;
use twilight_pbem::log::Payload;
use twilight_pbem::session::{Session, SessionError};

const USSR_SETUP: &str = "influence Poland 4, East Germany 1, Hungary 1";
const US_SETUP: &str = "influence West Germany 4, Italy 2, France 1";
const US_BONUS: &str = "influence West Germany 1, Iran 1";

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

fn new_game(dir: &std::path::Path, seed: [u8; 32]) -> Session {
    let players = twilight_pbem::log::Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut s = Session::create_with_seed(dir, &Options::default(), players, seed, now()).unwrap();
    s.join(Side::Ussr, "nonce-ussr", now()).unwrap();
    s.join(Side::Us, "nonce-us", now()).unwrap();
    s
}

fn play(s: &mut Session, side: Side, lines: &[&str]) -> Result<Vec<String>, SessionError> {
    let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    s.play(side, &lines, now())
}

/// A seed whose opening deal gives the USSR the Olympic Games, and a US headline card that is
/// not a scoring card or the Olympic Games, with the game past its setup.
fn olympic_game(dir: &std::path::Path) -> (Session, Card) {
    for n in 0u8..=255 {
        let d = dir.join(format!("seed{n}"));
        let mut s = new_game(&d, [n; 32]);
        let hands = &s.game().unwrap().state().cards.hands;
        if !hands.ussr.contains(&Card::OlympicGames) {
            continue;
        }
        // A US headline that resolves before the Olympic Games, asks nothing of the USSR
        // and leaves the Olympic Games event to happen.
        let us = hands.us.iter().copied().find(|c| {
            matches!(
                c,
                Card::DuckAndCover
                    | Card::Nato
                    | Card::MarshallPlan
                    | Card::TrumanDoctrine
                    | Card::IndependentReds
                    | Card::Containment
                    | Card::CiaCreated
                    | Card::UsJapanMutualDefensePact
                    | Card::EastEuropeanUnrest
            )
        });
        let Some(us) = us else { continue };
        play(&mut s, Side::Ussr, &[USSR_SETUP]).unwrap();
        play(&mut s, Side::Us, &[US_SETUP, US_BONUS]).unwrap();
        return (s, us);
    }
    panic!("no seed deals the USSR the Olympic Games");
}

fn kinds(s: &Session) -> Vec<&'static str> {
    s.log()
        .entries()
        .iter()
        .map(|e| e.entry.payload.kind())
        .collect()
}

fn log_bytes(s: &Session) -> Vec<u8> {
    std::fs::read(s.dir().join("log.yaml")).unwrap()
}

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
