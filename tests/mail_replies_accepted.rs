//! Replies that must be accepted, and their limits: a reply to an older prompt of the same
//! decision while nothing the player could see changed since (the same decision, the same legal
//! options, no entry the player has not seen: `Payload::keeps_reply_of`), refused as stale once
//! the opponent added a public entry; an HTML-only reply whose lines are block elements
//! (Gmail's own `<div dir="ltr">l1<div>l2</div></div>`).

mod mail_common;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::log::Payload;
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";

fn mails(t: &Table, to: &str) -> Vec<Mail> {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
}

fn send(
    t: &mut Table,
    side: Side,
    answering: &Mail,
    moves: &str,
    token: &str,
) -> std::process::Output {
    let to = t.addr(side).to_string();
    t.reply(
        &to,
        &format!("Re: {}", answering.subject),
        None,
        &format!("{moves}\n\nToken: {token}\n"),
    );
    t.inbox(&["--outbox"])
}

/// The options' section of a mail's text without its examples (drawn anew for each prompt):
/// the decision, the groups and the countries allowed.
fn options(m: &Mail) -> Vec<String> {
    let start = m.text.find("== Your options ==").expect("options");
    let end = m.text[start..]
        .find("Moves you can send")
        .expect("examples")
        + start;
    m.text[start..end]
        .lines()
        .filter(|l| !l.starts_with("    "))
        .map(str::to_string)
        .collect()
}

fn ussr_setups(t: &Table) -> usize {
    Session::open(&t.dir)
        .unwrap()
        .log()
        .entries()
        .iter()
        .filter(|e| {
            matches!(&e.entry.payload, Payload::Decision { side: Side::Ussr, notation, .. } if notation == SETUP_USSR)
        })
        .count()
}

#[test]
fn a_reply_to_an_older_prompt_applies_when_only_the_players_own_draw_offer_came_since() {
    let mut t = Table::new("older-ok", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = mails(&t, &t.ussr.clone()).pop().unwrap();
    let token = first.token().unwrap();
    // The USSR offers a draw: an entry of its own, which changes no position.
    let o = send(&mut t, Side::Ussr, &first, "offer draw", &token);
    assert!(o.status.success(), "{}", stdout(&o));
    let second = mails(&t, &t.ussr.clone()).pop().unwrap();
    assert!(second.seq > first.seq, "a second prompt, of a later entry");
    assert_ne!(second.token(), first.token());
    // The same decision with the same legal options.
    assert_eq!(options(&first), options(&second));
    // The reply to the first prompt, with its token, applies.
    let o = send(&mut t, Side::Ussr, &first, SETUP_USSR, &token);
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(ussr_setups(&t), 1);
}

#[test]
fn a_reply_to_an_older_prompt_is_stale_once_the_opponent_added_a_public_entry() {
    let mut t = Table::new("older-stale", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = mails(&t, &t.ussr.clone()).pop().unwrap();
    // The US, who owes nothing, offers a draw with its game token (the token its mails carry
    // while it owes nothing): the USSR has not seen it.
    let game_token =
        twilight_pbem::mail::game_token::token(&Session::open(&t.dir).unwrap(), Side::Us).unwrap();
    let o = send(&mut t, Side::Us, &first, "offer draw", &game_token);
    assert!(o.status.success(), "{}", stdout(&o));
    let second = mails(&t, &t.ussr.clone()).pop().unwrap();
    assert!(second.seq > first.seq);
    assert!(second.text.contains("draw"), "{}", second.text);
    let o = send(
        &mut t,
        Side::Ussr,
        &first,
        SETUP_USSR,
        &first.token().unwrap(),
    );
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("refused (stale"), "{}", stdout(&o));
    assert_eq!(ussr_setups(&t), 0);
    // The reply to the newer prompt applies.
    let o = send(
        &mut t,
        Side::Ussr,
        &second,
        SETUP_USSR,
        &second.token().unwrap(),
    );
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(ussr_setups(&t), 1);
}

#[test]
fn gmails_nested_div_reply_applies_as_two_lines() {
    let mut t = Table::new("gmail-div", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = mails(&t, &t.ussr.clone()).pop().unwrap();
    let raw = format!(
        "From: {}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <gmail.1@mail.gmail.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div dir=\"ltr\">{SETUP_USSR}<div>Token: {}</div></div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Mon, Nov 30, 2026 Referee wrote:<br></div><blockquote class=\"gmail_quote\">old prompt</blockquote></div>\r\n",
        t.ussr,
        m.subject,
        m.token().unwrap()
    );
    t.put_raw(raw.as_bytes());
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(ussr_setups(&t), 1);
}
