//! The log attachments of mails (`receipt::log_since` takes the bytes from the log in memory,
//! `Log::file_range`, instead of reading `log.yaml` again): every `log-A-B.yaml` attachment of
//! every mail is exactly the bytes of entries A to B in `log.yaml` — each entry hashing as the
//! log's chain says — for a player's first mail (the whole history), for replies to a long game
//! (its replay snapshot's log holds a prefix it did not parse), after a takeback, and with the
//! snapshot deleted or stale.

mod game_common;
mod mail_common;

use mail_common::{files_in, read_mails, stderr, stdout, Mail, Table};
use mail_parser::{MessageParser, MimeHeaders};
use twilight_pbem::log::{entry_hash, Log};
use twilight_pbem::session::Session;

/// Checks every log attachment of every mail in the game's outbox against `log.yaml`; returns
/// how many there were and how many began at entry 0.
fn check_attachments(t: &Table) -> (usize, usize) {
    let path = t.dir.join("log.yaml");
    let file = std::fs::read(&path).unwrap();
    let log = Log::open(&path).unwrap();
    let entries = log.entries();
    let (mut n, mut whole) = (0, 0);
    for f in files_in(&t.dir.join("outbox")) {
        let raw = std::fs::read(&f).unwrap();
        let Some(m) = MessageParser::default().parse(&raw) else {
            continue;
        };
        for a in m.attachments() {
            let Some(name) = a.attachment_name() else {
                continue;
            };
            let Some(span) = name
                .strip_prefix("log-")
                .and_then(|s| s.strip_suffix(".yaml"))
            else {
                continue;
            };
            let (from, to) = span.split_once('-').unwrap();
            let (from, to): (usize, usize) = (from.parse().unwrap(), to.parse().unwrap());
            let want = &file[entries[from].range.start..entries[to].range.end];
            assert!(
                a.contents() == want,
                "{}: {name} is not entries {from}..={to} of log.yaml",
                f.display()
            );
            // Each document hashes as the chain holds it.
            for e in &entries[from..=to] {
                let at = e.range.start - entries[from].range.start;
                let doc = &a.contents()[at..at + e.range.len()];
                assert_eq!(entry_hash(doc), e.hash, "{name}: entry {}", e.entry.seq);
            }
            n += 1;
            whole += usize::from(from == 0);
        }
    }
    (n, whole)
}

fn body(moves: &str, token: &str) -> String {
    format!("{moves}\n\nToken: {token}\n")
}

/// The newest mail to `to` that carries a token.
fn newest(t: &Table, to: &str) -> Option<Mail> {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
        .into_iter()
        .rev()
        .find(|m| m.token().is_some())
}

#[test]
fn every_log_attachment_is_the_logs_bytes_through_snapshots_and_a_takeback() {
    let mut t = Table::new("attach", 9);
    // A long game first: well over 32 recent entries before the first mail.
    for k in 0..60 {
        let (_lock, _) = Session::lock(&t.dir).unwrap();
        let mut s = Session::open(&t.dir).unwrap();
        let (side, line) = game_common::next_line(&s, k).unwrap();
        s.play(side, std::slice::from_ref(&line), game_common::t0())
            .unwrap();
    }
    assert!(Session::open(&t.dir).unwrap().log().len() > 100);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (n, whole) = check_attachments(&t);
    assert!(n >= 1 && whole >= 1, "{n} {whole}");
    let snapshot = t.dir.join("snapshot.json");
    let stale = std::fs::read(&snapshot).expect("a snapshot after the mail");
    let (us, ussr) = (t.us.clone(), t.ussr.clone());
    let addr = |side| match side {
        twilight_pbem::data::Side::Us => us.clone(),
        twilight_pbem::data::Side::Ussr => ussr.clone(),
    };
    let mut took_back = false;
    let mut last: Option<(twilight_pbem::data::Side, String, String)> = None;
    for k in 0..14u64 {
        match k % 4 {
            1 => {
                let _ = std::fs::remove_file(&snapshot);
            }
            2 => std::fs::write(&snapshot, &stale).unwrap(),
            _ => {}
        }
        let s = Session::open(&t.dir).unwrap();
        if k == 6 {
            // The side that moved last asks to take its move back, with the token it used.
            let (side, token, subject) = last.clone().unwrap();
            t.reply(&addr(side), &subject, None, &body("takeback", &token));
            let o = t.inbox(&["--outbox"]);
            assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
            if Session::open(&t.dir).unwrap().pending_takeback().is_some() {
                let other = addr(twilight_pbem::data::Side::opponent(side));
                let m = newest(&t, &other).expect("the opponent's prompt");
                let subject = format!("Re: {}", m.subject);
                t.reply(
                    &other,
                    &subject,
                    None,
                    &body("accept takeback", &m.token().unwrap()),
                );
                let o = t.inbox(&["--outbox"]);
                assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
                took_back = Session::open(&t.dir).unwrap().pending_takeback().is_none();
            }
            check_attachments(&t);
            continue;
        }
        let Some((side, line)) = game_common::next_line(&s, 1000 + k) else {
            break;
        };
        drop(s);
        let m = newest(&t, &addr(side)).expect("a prompt to the side owed a decision");
        let token = m.token().unwrap();
        let subject = format!("Re: {}", m.subject);
        t.reply(&addr(side), &subject, None, &body(&line, &token));
        let before = Session::open(&t.dir).unwrap().log().len();
        let o = t.inbox(&["--outbox"]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        assert!(
            Session::open(&t.dir).unwrap().log().len() > before,
            "step {k}"
        );
        last = Some((side, token, subject));
        check_attachments(&t);
    }
    assert!(took_back, "the takeback was asked and accepted");
    let (n, whole) = check_attachments(&t);
    assert!(
        n >= 20 && whole >= 2,
        "{n} attachments, {whole} from entry 0"
    );
}
