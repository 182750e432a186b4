//! A crash at every write boundary of what `inbox` writes for a mail it does not apply — the
//! refusal mailed, the count of refusals (`GAMES/.refusal-limit.yaml`), the answer kept in
//! `twilight-refused/`, the reason beside a mail set aside in `twilight-quarantine/` — and
//! then one more run: every mail is filed exactly once, a set-aside mail always has its reason,
//! the count still reads, and never more refusals are mailed in an hour than the limit lets
//! through (the count is written before the refusal is sent).

mod mail_common;

use mail_common::*;
use twilight_pbem::mail::inbound::{RefusalLimits, REFUSALS_PER_HOUR};

/// The files in `dir` but temporary ones (`.tmp-*`: what a crash stops before its rename
/// leaves; a later run removes them once they are ten minutes old).
fn count(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter(|e| !e.file_name().to_string_lossy().starts_with(".tmp-"))
            .count()
    })
}

fn refusals(t: &Table) -> usize {
    texts_to(&t.dir.join("outbox"), &t.ussr)
        .into_iter()
        .filter(|(s, _)| s.contains("Refused ("))
        .count()
}

#[test]
fn a_crash_at_every_write_of_a_refusal_or_a_quarantine_files_each_mail_once() {
    let mut t = Table::new("setaside", 17);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    t.env
        .push(("TWILIGHT_NOW".into(), "2026-11-30T12:00:00Z".into()));
    // The notes twice: once with the refused mail first, once with the one set aside first.
    let points = [
        "outbox-mail-temp",
        "outbox-mail",
        "refusal-limit-temp",
        "refusal-limit",
        "inbox-note-temp",
        "inbox-note-temp",
        "inbox-note",
        "inbox-note",
    ];
    let ussr = t.ussr.clone();
    let mut mails = 0;
    for (i, p) in points.iter().enumerate() {
        // A forged mail from the player (refused; answered while the limit lets it) and a
        // stranger's naming no game (set aside), in either order.
        let forged = |t: &mut Table| t.reply(&ussr, "Re: [TS setaside] move", None, "pass\n");
        let stranger = |t: &mut Table| t.reply("x@evil.test", "hello", None, "pass\n");
        if i % 2 == 0 {
            forged(&mut t);
            stranger(&mut t);
        } else {
            stranger(&mut t);
            forged(&mut t);
        }
        mails += 2;
        t.env.push(("TWILIGHT_CRASH_AT".into(), p.to_string()));
        let crashed = t.inbox(&["--outbox"]);
        t.env.pop();
        assert!(
            crashed.status.code().is_none(),
            "{p}: no crash: {:?} {}",
            crashed.status,
            stdout(&crashed)
        );
        let o = t.inbox(&["--outbox"]);
        assert!(o.status.code().is_some(), "{p}: {}", stderr(&o));
        assert_eq!(count(&t.inbox.join("new")), 0, "{p}: mail left in new/");
        let held = count(&t.inbox.join("twilight-quarantine"));
        assert_eq!(held % 2, 0, "{p}: a set-aside mail without its reason");
        let filed = count(&t.inbox.join("cur")) + held / 2;
        assert_eq!(filed, mails, "{p}: each mail filed once");
        assert!(
            refusals(&t) <= REFUSALS_PER_HOUR,
            "{p}: {} refusals mailed in the hour",
            refusals(&t)
        );
        RefusalLimits::load(&t.games).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
}
