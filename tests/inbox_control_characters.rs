//! A mail never drives the moderator's terminal nor a player's mail client: control
//! characters, escape sequences and bidirectional overrides in a mail's subject, sender, move
//! lines and chatter are taken out of everything `inbox` prints and every mail it writes (and
//! of the move as read: an escape sequence inside a move line does not change what it says).

mod mail_common;

use mail_common::*;
use twilight_pbem::session::Session;

/// What a terminal would obey: ESC, BEL, backspace, C1 CSI, a right-to-left override.
const HOSTILE: [char; 5] = ['\u{1b}', '\u{7}', '\u{8}', '\u{9b}', '\u{202e}'];

fn clean(what: &str, text: &str) {
    for c in HOSTILE {
        assert!(
            !text.contains(c),
            "{what} holds U+{:04X}: {text:?}",
            u32::from(c)
        );
    }
}

fn mail(from: &str, subject: &str, body: &str, n: u32) -> Vec<u8> {
    format!(
        "From: \"Boris\u{1b}[2J\" <{from}>\r\nTo: referee@ts.test\r\nSubject: {subject}\r\nMessage-ID: <cc.{n}@ts.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

#[test]
fn escape_sequences_in_a_mail_reach_neither_the_terminal_nor_a_mail() {
    let mut t = Table::new("cc", 13);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let prompt = read_mails(&files_in(&t.dir.join("outbox")), "cc", &t.ussr)[0].clone();
    let token = prompt.token().unwrap();
    let ussr = t.ussr.clone();
    let subject = format!("Re: \u{1b}]0;pwned\u{7}{}\u{1b}[31m", prompt.subject);

    // Refused: a mistyped move full of escapes; the refusal quotes it, cleaned.
    t.put_raw(&mail(
        &ussr,
        &subject,
        &format!("Hi \u{1b}]0;title\u{7}Boris,\nplay \u{1b}[2J\u{9b}1mNATO \u{202e}opps\u{8}\u{8}\n\nToken: {token}\n"),
        1,
    ));
    // A stranger's mail naming a game that is not here, with escapes in the tag.
    t.put_raw(&mail(
        "x@evil.test",
        "[TS \u{1b}[5mno-such\u{1b}[0m] hi",
        "pass\n",
        2,
    ));
    // Applied: a move with an escape sequence inside a name, then chatter with escapes.
    t.put_raw(&mail(
        &ussr,
        &subject,
        &format!(
            "influence Poland 4, East\u{1b}[31m Germany 2\nThanks\u{1b}[8m, see you\u{7}\n\nToken: {token}\n"
        ),
        3,
    ));
    let before = Session::open(&t.dir).unwrap().decisions;
    let o = t.inbox(&["--outbox"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("refused (illegal-move"), "{out}{err}");
    assert!(out.contains("held for the moderator"), "{out}{err}");
    assert!(
        out.contains("applied to cc for the USSR: influence Poland 4, East Germany 2"),
        "{out}{err}"
    );
    assert!(
        out.contains("ignored (not a move): Thanks, see you"),
        "{out}"
    );
    clean("stdout", &out);
    clean("stderr", &err);
    assert_eq!(Session::open(&t.dir).unwrap().decisions, before + 1);
    for f in files_in(&t.dir.join("outbox"))
        .into_iter()
        .chain(files_in(&t.inbox.join("twilight-refused")))
        .chain(
            // The reason beside the mail, not the mail as it came.
            files_in(&t.inbox.join("twilight-quarantine"))
                .into_iter()
                .filter(|f| f.to_string_lossy().ends_with(".reason.txt")),
        )
    {
        let raw = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        clean(&f.display().to_string(), &raw);
        // Headers too, decoded as a mail client shows them.
        if let Some(m) = mail_parser::MessageParser::default().parse(raw.as_bytes()) {
            clean("a subject", m.subject().unwrap_or_default());
            clean("a body", &m.body_text(0).unwrap_or_default());
        }
    }
    let refusal = texts_to(&t.dir.join("outbox"), &ussr)
        .into_iter()
        .find(|(s, _)| s.contains("Refused ("))
        .expect("the refusal");
    assert!(refusal.1.contains("> play NATO opps"), "{}", refusal.1);
}
