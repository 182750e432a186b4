//! Refusals to one address are limited: a flood of forged mails `From:` a player, with no
//! token, is answered at most `REFUSALS_PER_HOUR` times an hour (the rest filed as refused and
//! reported, not mailed), and the next refusal after the hour says how many were not answered.
//! The player's real reply still goes through. The count is kept per game, 0600.

mod mail_common;

use mail_common::*;
use twilight_pbem::mail::inbound::REFUSALS_PER_HOUR;
use twilight_pbem::session::Session;

/// `n` forged mails `From:` the USSR player with no token, put in the inbox.
fn forge(t: &mut Table, n: usize, tag: &str) {
    for i in 0..n {
        let raw = format!(
            "From: {}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {}] move\r\nMessage-ID: <forged.{tag}.{i}@evil.test>\r\n\r\npass\r\n",
            t.ussr, t.gid
        );
        t.put_raw(raw.as_bytes());
    }
}

fn refusals(t: &Table) -> Vec<String> {
    texts_to(&t.dir.join("outbox"), &t.ussr)
        .into_iter()
        .filter(|(s, _)| s.contains("Refused ("))
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn a_flood_of_forged_mails_gets_a_few_refusals_then_one_count() {
    let mut t = Table::new("flood", 9);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    forge(&mut t, 200, "a");
    let before = t.log_bytes();
    t.env
        .push(("TWILIGHT_NOW".into(), "2026-11-30T12:00:00Z".into()));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(13), "{}", stderr(&o));
    assert_eq!(t.log_bytes(), before);
    let out = stdout(&o);
    assert!(
        out.contains("inbox: 200 messages, 0 applied, 200 refused, 0 held, 0 failed, 5 mails sent"),
        "{out}"
    );
    assert_eq!(refusals(&t).len(), REFUSALS_PER_HOUR, "mails in the outbox");
    assert_eq!(
        out.matches("  not answered: 5 refusals were mailed to this player in the last hour")
            .count(),
        200 - REFUSALS_PER_HOUR
    );
    // Every mail is filed once, whether answered or not.
    assert_eq!(std::fs::read_dir(t.inbox.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(t.inbox.join("cur")).unwrap().count(), 200);

    // Half an hour on: still none.
    forge(&mut t, 3, "b");
    t.env[0].1 = "2026-11-30T12:30:00Z".into();
    let o = t.inbox(&["--outbox"]);
    assert!(stdout(&o).contains("0 mails sent"), "{}", stdout(&o));
    assert_eq!(refusals(&t).len(), REFUSALS_PER_HOUR);

    // After the hour: one refusal, which counts those not answered.
    forge(&mut t, 1, "c");
    t.env[0].1 = "2026-11-30T13:00:01Z".into();
    let o = t.inbox(&["--outbox"]);
    assert!(stdout(&o).contains("1 mail sent"), "{}", stdout(&o));
    let all = refusals(&t);
    assert_eq!(all.len(), REFUSALS_PER_HOUR + 1);
    let counted: Vec<&String> = all.iter().filter(|r| r.contains("more mails")).collect();
    assert_eq!(counted.len(), 1);
    assert!(
        counted[0].contains(&format!(
            "198 more mails from {} to game flood were refused since 2026-11-30 12:00 UTC and not answered: at most 5 refusals an hour are mailed to one address.",
            t.ussr
        )),
        "{}",
        counted[0]
    );
    // The count comes after the first paragraph; the refusal is still a prompt.
    assert!(counted[0]
        .starts_with("Your mail was refused; nothing was added to the game's log.\n\n198 more"));
    assert!(counted[0].contains("Token: "));

    // The player's own reply still goes through.
    let mails = read_mails(&files_in(&t.dir.join("outbox")), "flood", &t.ussr);
    let prompt = mails
        .iter()
        .find(|m| !m.subject.contains("Refused"))
        .unwrap();
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", prompt.subject),
        None,
        &format!(
            "influence Poland 4, East Germany 2\n\nToken: {}\n",
            prompt.token().unwrap()
        ),
    );
    let d = Session::open(&t.dir).unwrap().decisions;
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!f.exists());
    assert_eq!(Session::open(&t.dir).unwrap().decisions, d + 1);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(t.dir.join("refusal-limit.yaml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
