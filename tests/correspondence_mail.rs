//! Correspondence play by mail end to end: one game — through the binary, the outbox and the
//! inbox Maildir, time passing only through `TWILIGHT_NOW` — that uses a deadline (time
//! control), a leave, a takeback and a standing order; and the game token, with which a player
//! who owes no decision sends game-level moves (a draw offer, a standing order) by mail.

mod mail_common;

use mail_common::*;
use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::Options;
use twilight_pbem::log::{Payload, Players};
use twilight_pbem::session::correspondence::{Settings, TimeControl, TimeoutRule};
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";
const SETUP_USSR_2: &str = "influence Poland 3, East Germany 3";
const SETUP_US: &str = "influence West Germany 4, Italy 2, France 1";
const SETUP_US_BONUS: &str = "influence West Germany 1, Iran 1";

fn body(moves: &str, token: &str) -> String {
    format!("{moves}\n\nToken: {token}\n\n-- \nA player\n")
}

fn newest(t: &Table, to: &str) -> Mail {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
        .last()
        .cloned()
        .expect("a mail")
}

/// A US headline that resolves before the Olympic Games and asks nothing of the USSR.
const QUIET_US_HEADLINES: [Card; 6] = [
    Card::DuckAndCover,
    Card::Nato,
    Card::TrumanDoctrine,
    Card::Containment,
    Card::CiaCreated,
    Card::UsJapanMutualDefensePact,
];

/// A game by mail with 3 days per move, 24 h grace (the late side loses), 10 days of leave a
/// year, whose deal gives the USSR the Olympic Games and the US a quiet headline.
fn table(gid: &str) -> (Table, Card) {
    let settings = Settings {
        time_control: Some(TimeControl::DaysPerMove(3)),
        grace_hours: 24,
        on_timeout: TimeoutRule::Loses,
        leave_days_per_year: 10,
        ..Settings::default()
    };
    for seed in 0u8..=255 {
        let mut t = Table::new(gid, 0);
        std::fs::remove_dir_all(&t.dir).unwrap();
        let mut s = Session::create_correspondence(
            &t.dir,
            &Options::default(),
            &settings,
            Players {
                us: t.us.clone(),
                ussr: t.ussr.clone(),
            },
            &Default::default(),
            Some([seed; 32]),
            t0(),
        )
        .unwrap();
        s.join(Side::Us, "us nonce", t0()).unwrap();
        s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
        let hands = &s.game().unwrap().state().cards.hands;
        let quiet = QUIET_US_HEADLINES
            .iter()
            .copied()
            .find(|c| hands.us.contains(c));
        if let (true, Some(us)) = (hands.ussr.contains(&Card::OlympicGames), quiet) {
            t.env.push(("TWILIGHT_NOW".into(), at(0)));
            return (t, us);
        }
    }
    panic!("no seed deals the USSR the Olympic Games");
}

/// `2026-11-30T12:00Z` plus `hours`, as `TWILIGHT_NOW` reads it.
fn at(hours: i64) -> String {
    (t0() + chrono::Duration::hours(hours)).to_rfc3339()
}

fn set_now(t: &mut Table, hours: i64) {
    t.env.retain(|(k, _)| k != "TWILIGHT_NOW");
    t.env.push(("TWILIGHT_NOW".into(), at(hours)));
}

/// `side` replies to its newest mail with `moves` (and that mail's token) at `hours`; the
/// inbox must take it.
fn send(t: &mut Table, side: Side, hours: i64, moves: &str) {
    set_now(t, hours);
    let to = t.addr(side).to_string();
    let m = newest(t, &to);
    let token = m
        .token()
        .unwrap_or_else(|| panic!("no token in\n{}", m.text));
    t.reply(
        &to,
        &format!("Re: {}", m.subject),
        None,
        &body(moves, &token),
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{moves}: {}{}", stdout(&o), stderr(&o));
}

fn status_json(t: &Table) -> serde_json::Value {
    let o = t.twilight(&["status", &t.game_arg(), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn a_game_by_mail_with_a_deadline_a_leave_a_takeback_and_a_standing_order() {
    let (mut t, us_headline) = table("corr-mail");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The USSR's setup, then a takeback of it, accepted by the US.
    send(&mut t, Side::Ussr, 1, SETUP_USSR);
    send(&mut t, Side::Ussr, 2, "takeback");
    let us_prompt = newest(&t, &t.us.clone());
    assert!(
        us_prompt.text.contains("asks to take back"),
        "{}",
        us_prompt.text
    );
    send(&mut t, Side::Us, 3, "accept takeback");
    let again = newest(&t, &t.ussr.clone());
    assert!(
        again.text.contains("accepted your takeback"),
        "{}",
        again.text
    );
    send(&mut t, Side::Ussr, 4, SETUP_USSR_2);
    // The US sets up and gives a standing order in the same reply.
    send(
        &mut t,
        Side::Us,
        5,
        &format!("if Olympic Games: boycott\n{SETUP_US}\n{SETUP_US_BONUS}"),
    );
    // The US's next mail lists its order, in a form that is accepted when sent back.
    let us_mail = newest(&t, &t.us.clone());
    let listed = us_mail
        .text
        .lines()
        .find(|l| l.starts_with("standing order "))
        .unwrap_or_else(|| panic!("no standing order listed in\n{}", us_mail.text))
        .to_string();
    let shown = listed.split('`').nth(1).unwrap();
    assert_eq!(shown, "if Olympic Games: boycott");
    assert!(matches!(
        twilight_pbem::session::correspondence::standing_orders::parse(shown),
        Some(Ok(_))
    ));
    // The USSR's mail says nothing of it: it is sealed.
    let ussr_mail = newest(&t, &t.ussr.clone());
    assert!(!ussr_mail.text.contains("boycott"), "{}", ussr_mail.text);
    // Headlines: the USSR declares a leave with its headline; the US's order is used.
    send(
        &mut t,
        Side::Ussr,
        6,
        "leave 2026-12-02 to 2026-12-03\nheadline Olympic Games",
    );
    send(
        &mut t,
        Side::Us,
        7,
        &format!("headline {}", us_headline.name()),
    );
    let s = Session::open(&t.dir).unwrap();
    let kinds: Vec<&str> = s
        .log()
        .entries()
        .iter()
        .map(|e| e.entry.payload.kind())
        .collect();
    for k in [
        "takeback_request",
        "takeback",
        "leave",
        "standing_order",
        "standing_order_used",
    ] {
        assert!(kinds.contains(&k), "no {k} entry in {kinds:?}");
    }
    assert!(s.log().entries().iter().any(|e| matches!(
        &e.entry.payload,
        Payload::Decision { side: Side::Us, notation, .. } if notation == "boycott"
    )));
    // Both players' next mails tell which standing order was used.
    for side in [Side::Us, Side::Ussr] {
        let m = newest(&t, t.addr(side));
        assert!(
            m.text
                .contains("The US's standing order `if Olympic Games: boycott`"),
            "{side}:\n{}",
            m.text
        );
    }
    // The USSR now owes its 4 Operations; its deadline is 3 days on, pushed 2 days by its
    // leave: 2026-11-30 19:00 + 3 days + 2 days.
    let v = status_json(&t);
    let c = &v["correspondence"]["clocks"]["ussr"];
    assert_eq!(c["deadline"], "2026-12-05T19:00:00+00:00", "{v}");
    assert_eq!(c["leave_days_left"], 8, "{v}");
    // Past the deadline and the grace: `remind` records the timeout; the US wins.
    set_now(&mut t, 24 * 6 + 8);
    let o = t.twilight(&["remind", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = t.twilight(&["status", &t.game_arg()]);
    assert!(
        stdout(&o).contains("Game over: US wins by timeout."),
        "{}",
        stdout(&o)
    );
    let o = t.twilight(&["verify", &t.game_arg()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// A player who owes no decision holds the game token of its last mail: good for game-level
/// moves (a draw offer, a standing order, its cancel), never for a decision.
#[test]
fn the_game_token_carries_game_level_moves_only() {
    let (mut t, _) = table("corr-token");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, 1, SETUP_USSR);
    // The USSR owes nothing during the US's setup: its mail carries the game token.
    let ussr = t.ussr.clone();
    let update = newest(&t, &ussr);
    assert!(
        update.text.contains("good for these moves only"),
        "{}",
        update.text
    );
    let token = update.token().expect("the game token");
    let subj = format!("Re: {}", update.subject);
    set_now(&mut t, 2);
    let before = t.log_bytes();
    t.reply(&ussr, &subj, None, &body("influence Poland 1", &token));
    let o = t.inbox(&["--outbox"]);
    // A decision with the game token: refused (exit 14, as a wrong token), nothing written,
    // and told why: the game token is good for game-level lines only.
    assert_eq!(o.status.code(), Some(14), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("refused (game-token-for-a-move, exit 14)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("good only for lines about the game itself"),
        "{}",
        stdout(&o)
    );
    assert_eq!(t.log_bytes(), before, "nothing written");
    t.reply(
        &ussr,
        &subj,
        None,
        &body("offer draw\nif Olympic Games: participate", &token),
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    assert_eq!(
        s.correspondence().draw_offer.map(|(side, _)| side),
        Some(Side::Ussr)
    );
    assert_eq!(s.standing_order_lines(Side::Ussr).len(), 1);
    // The same token still carries the cancel, later in the game.
    set_now(&mut t, 3);
    let seq = s
        .log()
        .entries()
        .iter()
        .find(|e| matches!(e.entry.payload, Payload::StandingOrder { .. }))
        .unwrap()
        .entry
        .seq;
    t.reply(
        &ussr,
        &subj,
        None,
        &body(&format!("cancel order {seq}"), &token),
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    assert!(s.standing_order_lines(Side::Ussr).is_empty());
}

/// The game token misused: the USSR's token sent from the US's address, and the token with
/// a game-level line plus a decision line, are refused as a wrong token (exit 14), nothing
/// written; the same mail sent again after it was handled is not handled twice.
#[test]
fn the_game_token_is_refused_for_the_other_side_and_for_a_mixed_mail() {
    let (mut t, _) = table("corr-token-attack");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, 1, SETUP_USSR);
    let ussr = t.ussr.clone();
    let us = t.us.clone();
    let update = newest(&t, &ussr);
    let token = update.token().expect("the game token");
    let subj = format!("Re: {}", update.subject);
    set_now(&mut t, 2);
    let before = t.log_bytes();
    // The USSR's game token from the US's address.
    t.reply(&us, &subj, None, &body("resign", &token));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(14), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("(wrong-token, exit 14)"),
        "{}",
        stdout(&o)
    );
    assert_eq!(t.log_bytes(), before, "nothing written");
    // A game-level line with a decision line.
    t.reply(
        &ussr,
        &subj,
        None,
        &body("offer draw\ninfluence Poland 1", &token),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(14), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(t.log_bytes(), before, "nothing written");
    let s = Session::open(&t.dir).unwrap();
    assert!(s.correspondence().draw_offer.is_none());
}

/// The game token after the game ended (the USSR resigned with it): a standing order or a
/// draw offer with it is refused and nothing is written.
#[test]
fn the_game_token_is_refused_after_the_game_ends() {
    let (mut t, _) = table("corr-token-ended");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, 1, SETUP_USSR);
    let ussr = t.ussr.clone();
    let update = newest(&t, &ussr);
    let token = update.token().expect("the game token");
    let subj = format!("Re: {}", update.subject);
    set_now(&mut t, 2);
    t.reply(&ussr, &subj, None, &body("resign", &token));
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let before = t.log_bytes();
    set_now(&mut t, 3);
    t.reply(
        &ussr,
        &subj,
        None,
        &body("if Olympic Games: participate", &token),
    );
    let o = t.inbox(&["--outbox"]);
    assert!(!o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(t.log_bytes(), before, "nothing written");
    let s = Session::open(&t.dir).unwrap();
    assert!(s.standing_order_lines(Side::Ussr).is_empty());
}
