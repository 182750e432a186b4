//! What one mail may cost `inbox`, whoever sent it: read in one pass before its sender is
//! authenticated (the Message-IDs it answers cut to `MAX_ANSWER_IDS`, its text scanned for
//! tokens only), its moves read only once a token is the sender's and only so far
//! (`MAX_LINES_READ` lines of `MAX_LINE_BYTES`, one game-level line of each kind: a second
//! `takeback` is refused, never appended), a mail over `MAX_MESSAGE_BYTES` read to its headers
//! only, a header over `MAX_HEADER_BYTES` never parsed, and a mail for no game here moved out of
//! `new/` once, never read again. The time each
//! takes is in `benches/inbox.rs`.

mod mail_common;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::mail::reply::{
    self, MAX_ANSWER_IDS, MAX_HEADER_BYTES, MAX_LINES_READ, MAX_LINE_BYTES, MAX_MESSAGE_BYTES,
};
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";

/// A table whose first prompt (the USSR setup placement) is in the game's outbox.
fn table(gid: &str) -> (Table, Mail) {
    let t = Table::new(gid, 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mails = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.ussr);
    assert_eq!(mails.len(), 1, "one prompt to the USSR");
    (t, mails[0].clone())
}

/// A mail with `headers` (each ending in CRLF) and `body` (LF lines, sent as CRLF).
fn mail(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: {subject}\r\nMessage-ID: <{}@ts.test>\r\n{headers}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        subject.len() + body.len(),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The mails in the game's outbox whose subject says they are refusals, to `to`.
fn refusals_to(t: &Table, to: &str) -> Vec<String> {
    texts_to(&t.dir.join("outbox"), to)
        .into_iter()
        .filter(|(s, _)| s.contains("Refused ("))
        .map(|(_, text)| text)
        .collect()
}

fn decisions(t: &Table) -> u64 {
    Session::open(&t.dir).unwrap().decisions
}

#[test]
fn a_mail_answering_thousands_of_ids_keeps_the_in_reply_to_and_the_last_references() {
    let refs: Vec<String> = (0..30_000).map(|i| format!("<junk.{i}@x.test>")).collect();
    let raw = mail(
        "a@b.test",
        "hello",
        &format!(
            "In-Reply-To: <parent@x.test>\r\nReferences: {} <prompt@x.test>\r\n",
            refs.join("\r\n ")
        ),
        "pass\n",
    );
    let r = reply::read(&raw).unwrap();
    assert_eq!(r.answers.len(), MAX_ANSWER_IDS, "{:?}", &r.answers[..3]);
    assert_eq!(r.answers[0], "parent@x.test");
    assert_eq!(r.answers.last().unwrap(), "prompt@x.test");
    assert_eq!(r.answers[r.answers.len() - 2], "junk.29999@x.test");
}

/// A reply whose only token is the prompt's Message-ID at the end of a `References` header of
/// ten thousand ids is authenticated and applied: the cap keeps the id that matters.
#[test]
fn a_reply_naming_its_prompt_last_of_many_references_is_applied() {
    let (mut t, m) = table("b-refs");
    let refs: Vec<String> = (0..10_000).map(|i| format!("<old.{i}@x.test>")).collect();
    let raw = mail(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        &format!("References: {} <{}>\r\n", refs.join("\r\n "), m.message_id),
        &format!("{SETUP_USSR}\n"),
    );
    t.put_raw(&raw);
    let before = decisions(&t);
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(decisions(&t), before + 1);
}

/// A stranger's mail that names no game, with a header of twenty thousand ids: moved out of
/// `new/` once with its reason, and never read again by later runs.
#[test]
fn a_strangers_mail_for_no_game_is_read_once_and_quarantined() {
    let (mut t, _) = table("b-stranger");
    let refs: Vec<String> = (0..20_000).map(|i| format!("<id.{i}@evil.test>")).collect();
    let f = t.put_raw(&mail(
        "stranger@evil.test",
        "hello",
        &format!("References: {}\r\n", refs.join("\r\n ")),
        "a\n".repeat(10_000).as_str(),
    ));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(11), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("inbox: 1 message, 0 applied, 0 refused, 1 held"));
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    let q = t.inbox.join("twilight-quarantine");
    assert!(!f.exists());
    assert!(q.join(&name).is_file());
    let reason = std::fs::read_to_string(q.join(format!("{name}.reason.txt"))).unwrap();
    assert!(reason.contains("Your mail names no game."), "{reason}");
    for _ in 0..2 {
        let again = t.inbox(&["--outbox"]);
        assert_eq!(again.status.code(), Some(0));
        assert!(
            stdout(&again).contains("inbox: 0 messages"),
            "{}",
            stdout(&again)
        );
    }
    assert!(refusals_to(&t, &t.ussr).is_empty() && refusals_to(&t, &t.us).is_empty());
}

/// A header of twenty megabytes of `References` ids: refused as too large from its first
/// mebibyte, never parsed whole; filed once (not answered: it names no game).
#[test]
fn a_header_over_the_size_read_is_refused_unparsed_and_filed_once() {
    let (mut t, _) = table("b-header");
    let refs: Vec<String> = (0..900_000)
        .map(|i| format!("<id{i}.x@evil.test>"))
        .collect();
    let raw = mail(
        "stranger@evil.test",
        "hello",
        &format!("References: {}\r\n", refs.join("\r\n ")),
        "pass\n",
    );
    assert!(raw.len() > 20_000_000);
    assert_eq!(
        reply::read(&raw).unwrap_err(),
        twilight_pbem::mail::inbound::Refusal::TooLarge {
            bytes: MAX_HEADER_BYTES + 1,
            limit: MAX_HEADER_BYTES,
            what: "its header (at least)"
        }
    );
    let f = t.put_raw(&raw);
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(10), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("refused (too-large"), "{}", stdout(&o));
    assert!(!f.exists());
    let again = t.inbox(&["--outbox"]);
    assert!(
        stdout(&again).contains("inbox: 0 messages"),
        "{}",
        stdout(&again)
    );
}

/// Before a token is found to be the sender's, the text is scanned for tokens only: no line is
/// read as a move (no card or country name is looked up). Once read, the moves stop at
/// `MAX_LINES_READ` lines.
#[test]
fn the_lines_of_a_mail_are_not_read_as_moves_before_its_token_is_checked() {
    let body = "a\n".repeat((1 << 20) / 2);
    let mut e = reply::scan(&body, &body);
    assert!(!e.moves_read);
    assert!(e.moves.is_empty() && e.ignored.is_empty() && e.tokens.is_empty());
    reply::read_moves(&mut e, &body);
    assert!(e.moves_read);
    let refused = e.refused.clone().expect("refused past the lines read");
    assert_eq!(refused.kind(), "too-long");
    assert!(
        refused
            .explain(None)
            .contains(&format!("past the {MAX_LINES_READ} lines read")),
        "{}",
        refused.explain(None)
    );
    assert!(e.ignored.len() <= MAX_LINES_READ + 1, "{}", e.ignored.len());
}

/// A player's mail of one-letter lines with no token: refused for its token, answered once,
/// nothing appended.
#[test]
fn a_players_mail_of_one_letter_lines_without_a_token_is_refused_once() {
    let (mut t, m) = table("b-letters");
    let from = t.ussr.clone();
    t.put_raw(&mail(
        &from,
        &format!("Re: {}", m.subject),
        "",
        &"a\n".repeat(((1 << 20) - 1000) / 3),
    ));
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(13), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(t.log_bytes(), before);
    let refusals = refusals_to(&t, &from);
    assert_eq!(refusals.len(), 1);
    assert!(
        refusals[0].contains("Refusal: missing-token"),
        "{}",
        refusals[0]
    );
}

/// More lines before the moves end than are read, or a line longer than a move: refused as
/// too long, nothing tried; just under the caps, the move is applied.
#[test]
fn lines_past_what_is_read_refuse_the_mail_unread() {
    let (mut t, m) = table("b-long");
    let token = m.token().unwrap();
    let from = t.ussr.clone();
    let subject = format!("Re: {}", m.subject);
    let chatter = |n: usize| "blah blah blah\n".repeat(n);
    for body in [
        format!("{}{SETUP_USSR}\nToken: {token}\n", chatter(MAX_LINES_READ)),
        format!(
            "influence Poland 4, East Germany 2 {}\nToken: {token}\n",
            "x".repeat(MAX_LINE_BYTES)
        ),
    ] {
        t.put_raw(&mail(&from, &subject, "", &body));
        let before = t.log_bytes();
        let o = t.inbox(&["--outbox"]);
        assert_eq!(o.status.code(), Some(10), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("refused (too-long"), "{}", stdout(&o));
        assert_eq!(t.log_bytes(), before);
    }
    let refusals = refusals_to(&t, &from);
    assert_eq!(refusals.len(), 2);
    assert!(refusals[0].contains("Your mail was not read to its end"));
    // One line fewer of chatter: the move is the last line read, and applied.
    t.put_raw(&mail(
        &from,
        &subject,
        "",
        &format!(
            "{}{SETUP_USSR}\nToken: {token}\n",
            chatter(MAX_LINES_READ - 1)
        ),
    ));
    let before = decisions(&t);
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(decisions(&t), before + 1);
    // The lines read as no move are listed up to a count, then summed up.
    assert!(
        stdout(&o).contains("ignored (not a move): (and 39 more lines)"),
        "{}",
        stdout(&o)
    );
}

/// The USSR's game token after its setup move (which the US now answers): what a takeback is
/// asked with by mail.
fn after_ussr_setup(gid: &str) -> (Table, String) {
    let (t, _) = table(gid);
    let mut s = Session::open(&t.dir).unwrap();
    s.play(Side::Ussr, &[SETUP_USSR.to_string()], t0()).unwrap();
    let token = twilight_pbem::mail::game_token::token(&s, Side::Ussr).unwrap();
    (t, token)
}

/// A second takeback line in one mail is refused, naming it; nothing is appended, however many
/// lines follow (a mebibyte of them). One takeback line alone is applied.
#[test]
fn a_second_takeback_in_one_mail_is_refused_not_appended() {
    let (mut t, token) = after_ussr_setup("b-takeback");
    let from = t.ussr.clone();
    let subject = "Re: [TS b-takeback] takeback";
    for (body, second) in [
        (format!("Token: {token}\ntakeback\ntakeback\n"), "takeback"),
        (
            format!(
                "Token: {token}\n{}",
                "takeback\n".repeat(((1 << 20) - 1000) / 10)
            ),
            "takeback",
        ),
        (
            format!("Token: {token}\ntakeback\naccept takeback\n"),
            "accept takeback",
        ),
    ] {
        t.put_raw(&mail(&from, subject, "", &body));
        let before = t.log_bytes();
        let o = t.inbox(&["--outbox"]);
        assert_eq!(o.status.code(), Some(17), "{}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).contains(&format!(
                "The move `{second}` is refused: one mail carries one takeback line, and line 2 \
                 of your moves is a second one (line 1 was the first)"
            )),
            "{}",
            stdout(&o)
        );
        assert_eq!(t.log_bytes(), before, "nothing appended");
    }
    let len = Session::open(&t.dir).unwrap().log().len();
    t.put_raw(&mail(
        &from,
        subject,
        "",
        &format!("Token: {token}\ntakeback\n"),
    ));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        Session::open(&t.dir).unwrap().log().len(),
        len + 1,
        "one request"
    );
}

/// A mail larger than the most read at all: refused as too large from its headers (the rest of
/// the file is never read), and answered.
#[test]
fn a_mail_over_the_size_read_is_refused_from_its_headers() {
    let (mut t, m) = table("b-huge");
    let from = t.ussr.clone();
    let f = t.put_raw(&mail(
        &from,
        &format!("Re: {}", m.subject),
        "",
        &format!("{SETUP_USSR}\n"),
    ));
    // A sparse file: its length is over the limit, its blocks are not.
    let file = std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    file.set_len(MAX_MESSAGE_BYTES as u64 + 4096).unwrap();
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(10), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("refused (too-large"), "{}", stdout(&o));
    assert_eq!(t.log_bytes(), before);
    let refusals = refusals_to(&t, &from);
    assert_eq!(refusals.len(), 1);
    assert!(
        refusals[0].contains(&format!(
            "the message is {} bytes",
            MAX_MESSAGE_BYTES + 4096
        )),
        "{}",
        refusals[0]
    );
}

/// An `.eml` file for no game here gets a `.held` note with its reason, and is skipped by later
/// runs: it is read once.
#[test]
fn an_eml_file_for_no_game_is_noted_and_not_read_again() {
    let (t, _) = table("b-eml");
    let eml = t.tmp.path().join("stray.eml");
    std::fs::write(&eml, mail("x@y.test", "hello", "", "pass\n")).unwrap();
    let games = t.games.to_string_lossy().into_owned();
    let file = eml.to_string_lossy().into_owned();
    let o = t.twilight(&["inbox", "--games", &games, &file, "--outbox"]);
    assert_eq!(o.status.code(), Some(11), "{}{}", stdout(&o), stderr(&o));
    let note = std::fs::read_to_string(t.tmp.path().join("stray.eml.held")).unwrap();
    assert!(note.contains("Your mail names no game."), "{note}");
    let o = t.twilight(&["inbox", "--games", &games, &file, "--outbox"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("stray.eml: already processed, skipped"),
        "{}",
        stdout(&o)
    );
}
