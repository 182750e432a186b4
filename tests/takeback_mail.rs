//! A takeback by mail (`schemas/NOTATION.md` "Takebacks"): the asker, who owes nothing after
//! their move, asks with the token of the prompt that move answered; the opponent's next prompt
//! shows the request and the answers (which parse); the acceptance is mailed back to the asker,
//! who decides again.

mod mail_common;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";
const SETUP_USSR_2: &str = "influence Poland 3, East Germany 3";

fn body(moves: &str, token: &str) -> String {
    format!("{moves}\n\nToken: {token}\n\n-- \nBoris\n")
}

/// The text of a receipt to `to` holding `holding`.
fn receipt_to(t: &Table, to: &str, holding: &str) -> String {
    texts_to(&t.dir.join("outbox"), to)
        .into_iter()
        .filter(|(subject, text)| subject.contains("Receipt") && text.contains(holding))
        .map(|(_, text)| text)
        .next()
        .unwrap_or_else(|| panic!("no receipt to {to} holding `{holding}`"))
}

fn newest(t: &Table, to: &str) -> Mail {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
        .last()
        .cloned()
        .expect("a mail")
}

#[test]
fn a_takeback_asked_accepted_and_replayed_by_mail() {
    let gid = "tb-mail";
    let mut t = Table::new(gid, 5);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let prompt = newest(&t, &t.ussr.clone());
    let token = prompt.token().expect("a token");
    let ussr = t.ussr.clone();
    let subj = format!("Re: {}", prompt.subject);
    t.reply(&ussr, &subj, None, &body(SETUP_USSR, &token));
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // The USSR owes nothing now; the token of the prompt it answered still asks a takeback.
    t.reply(&ussr, &subj, None, &body("takeback", &token));
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    assert_eq!(s.pending_takeback().map(|p| p.side), Some(Side::Ussr));
    // Its receipt echoes the entry it asks to take back: seq and notation (a receipt that
    // named nothing would tell the asker nothing).
    let pending = s.pending_takeback().unwrap();
    let setup_seq = s
        .log()
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            twilight_pbem::log::Payload::Decision {
                side: Side::Ussr, ..
            } => Some(e.entry.seq),
            _ => None,
        })
        .unwrap();
    let echo = format!("  entry {setup_seq}: influence Poland 4, East Germany 2");
    let asked = receipt_to(&t, &ussr, "your takeback request");
    assert!(
        asked.contains(&format!(
            "Entry {}: your takeback request, asking to take back:\n{echo}",
            pending.request
        )),
        "{asked}"
    );
    // …but not a move: that token is stale for anything else.
    t.reply(&ussr, &subj, None, &body("influence Poland 1", &token));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(15), "{}{}", stdout(&o), stderr(&o));
    // The US prompt tells of the request, with answers that parse.
    let us = t.us.clone();
    let us_prompt = newest(&t, &us);
    let notice = us_prompt
        .text
        .lines()
        .find(|l| l.contains("asks to take back"))
        .unwrap_or_else(|| panic!("no notice in\n{}", us_prompt.text))
        .to_string();
    for form in notice.split('`').skip(1).step_by(2) {
        assert!(
            matches!(twilight_pbem::session::takeback::parse(form), Some(Ok(_))),
            "`{form}` is shown but does not parse"
        );
    }
    let us_token = us_prompt.token().expect("a token");
    t.reply(&us, &subj, None, &body("accept takeback", &us_token));
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    assert!(s.pending_takeback().is_none() && !s.cancelled().is_empty());
    let accepted = receipt_to(&t, &us, "your acceptance of the USSR's takeback");
    assert!(
        accepted.contains(&format!(
            "your acceptance of the USSR's takeback, which takes back:\n{echo}"
        )),
        "{accepted}"
    );
    // `check` reads these lines as no decision of the game: the receipts check clean.
    for (who, receipts) in [(&ussr, "your takeback request"), (&us, "your acceptance")] {
        let mut args = vec!["check".to_string()];
        args.extend(
            files_in(&t.dir.join("outbox"))
                .iter()
                .filter(|f| {
                    let raw = std::fs::read(f).unwrap();
                    mail_parser::MessageParser::default()
                        .parse(&raw)
                        .and_then(|m| Some(m.to()?.first()?.address()? == who.as_str()))
                        .unwrap_or(false)
                })
                .map(|f| f.to_string_lossy().into_owned()),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = t.twilight(&args);
        assert!(
            !stdout(&o).contains(receipts),
            "{receipts} read as a move:\n{}",
            stdout(&o)
        );
    }
    // The replay keeps the answer's seq (a mail reads no older entry for the news), through the
    // snapshot too: the news is there for a mail from before it, none after it.
    let answer = s.log().next_seq() - 1;
    let (_lock, _) = Session::lock(&t.dir).unwrap();
    for s in [s, Session::open(&t.dir).unwrap()] {
        assert_eq!(s.last_takeback_answer(), Some(answer));
        let told = twilight_pbem::session::takeback::news(&s, Side::Ussr, Some(answer));
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("accepted your takeback"), "{told:?}");
        assert!(twilight_pbem::session::takeback::news(&s, Side::Ussr, None).len() == 1);
        assert!(
            twilight_pbem::session::takeback::news(&s, Side::Ussr, Some(answer + 1)).is_empty()
        );
        assert!(twilight_pbem::session::takeback::news(&s, Side::Us, Some(0)).is_empty());
    }
    drop(_lock);
    // The USSR is told and owes its setup again.
    let again = newest(&t, &ussr);
    assert!(
        again.text.contains("accepted your takeback"),
        "{}",
        again.text
    );
    let token2 = again.token().expect("a prompt again");
    t.reply(&ussr, &subj, None, &body(SETUP_USSR_2, &token2));
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = t.twilight(&["verify", &t.game_arg()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}
