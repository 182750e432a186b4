//! End to end by mail (design §5): two scripted players read their mails from a real SMTP
//! server's spool (aiosmtpd started by `.ci/smtp-server.sh`), pick a legal move from the mail's
//! own option list, reply into an inbox Maildir; the moderator runs `twilight inbox` through
//! the binary. At the end the game is revealed and must verify clean.
//!
//! Without `TWILIGHT_TEST_SMTP_PORT`/`TWILIGHT_TEST_SMTP_MAILDIR` the test says so loudly and
//! falls back to the outbox transport (`GAME_DIR/outbox`); with `TWILIGHT_TEST_REQUIRE_SMTP=1`
//! (set by `.ci/smtp-server.sh`) it fails instead.
//!
//! ENGINE NOT COMPLETE YET: while card events are missing (RuleError::NotImplemented) the game
//! stops when a player has no legal move left (the first Headline Phase for most deals). The
//! test then asserts that the stop is exactly that (every candidate answer fails with
//! NotImplemented and none is legal), that the setup was played by mail, and that a forced
//! reveal verifies clean. ONCE ALL EVENTS EXIST the same loop plays on: the test asserts the
//! game ends (`outcome` is set), both players get a "Game over" mail, `twilight reveal`
//! succeeds and `twilight verify` reports OK with full (seed revealed) verification.

mod mail_common;

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::engine::legal::candidate_groups;
use twilight_pbem::engine::{RuleError, SeededChance};
use twilight_pbem::session::Session;

#[test]
fn a_game_by_mail_through_a_real_smtp_server() {
    let gid = format!("e2e-{}", std::process::id());
    let mut t = Table::new(&gid, 11);
    let port = std::env::var("TWILIGHT_TEST_SMTP_PORT").ok();
    let maildir = std::env::var("TWILIGHT_TEST_SMTP_MAILDIR").ok();
    let spool: PathBuf = match (port, maildir) {
        (Some(p), Some(d)) => {
            eprintln!("mail e2e: sending through the SMTP server on 127.0.0.1:{p}, reading its Maildir {d}");
            t.env.push((
                "TWILIGHT_SMTP_URL".into(),
                format!("smtp+insecure://127.0.0.1:{p}"),
            ));
            PathBuf::from(d)
        }
        _ => {
            assert!(
                std::env::var("TWILIGHT_TEST_REQUIRE_SMTP").ok().as_deref() != Some("1"),
                "TWILIGHT_TEST_REQUIRE_SMTP=1 but TWILIGHT_TEST_SMTP_PORT/MAILDIR are not set"
            );
            eprintln!(
                "################################################################################"
            );
            eprintln!(
                "## mail e2e: NO SMTP SERVER (TWILIGHT_TEST_SMTP_PORT / _MAILDIR unset).       ##"
            );
            eprintln!(
                "## Falling back to the OUTBOX transport: this run does NOT test SMTP.         ##"
            );
            eprintln!(
                "## Run under .ci/run (which sources .ci/smtp-server.sh) for the real test.    ##"
            );
            eprintln!(
                "################################################################################"
            );
            t.dir.join("outbox")
        }
    };
    t.env.push((
        "TWILIGHT_FROM".into(),
        "Twilight Referee <referee@ts.test>".into(),
    ));

    let o = t.twilight(&["mail", &t.game_arg()]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));

    let mut handled: HashSet<String> = HashSet::new();
    let mut lcg: u64 = 0x2545_f491_4f6c_dd1d;
    let mut stuck: Option<Side> = None;
    let mut refused_for_missing_event: Option<String> = None;
    let mut replies = 0u64;
    let mut inbox_ms: Vec<u128> = Vec::new();
    let started = Instant::now();
    for _round in 0..5000 {
        let mut replied = false;
        for side in [Side::Us, Side::Ussr] {
            let addr = t.addr(side).to_string();
            let mails = read_mails(&files_in(&spool), &gid, &addr);
            let Some(last) = mails.last().cloned() else {
                continue;
            };
            if !handled.insert(last.message_id.clone()) {
                continue;
            }
            let Some(token) = last.token() else {
                continue; // an update or the final mail: nothing owed
            };
            let options = last.examples();
            if options.is_empty() {
                stuck = Some(side);
                continue;
            }
            lcg = lcg
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = &options[(lcg >> 33) as usize % options.len()];
            // Every other reply carries the token only in the quoted prompt, as a plain
            // "reply" in a mail client does.
            let quoted: String = last
                .text
                .lines()
                .take(40)
                .map(|l| format!("> {l}\n"))
                .collect();
            let body = if replies.is_multiple_of(2) {
                format!("{mv}\n\nToken: {token}\n\n-- \n{addr}\n")
            } else {
                format!("{mv}\n\nOn Mon, 30 Nov 2026, Twilight Referee wrote:\n{quoted}")
            };
            t.reply(
                &addr,
                &format!("Re: {}", last.subject),
                Some(&last.message_id),
                &body,
            );
            replies += 1;
            replied = true;
        }
        if !replied {
            break;
        }
        let o = t.inbox(&[]);
        let out = stdout(&o);
        if o.status.code() == Some(17) && out.contains("is not implemented yet") {
            // ENGINE NOT COMPLETE YET: a move listed as legal alone (a headline) needs a
            // missing event once paired with the other side's; nothing was appended.
            let line = out
                .lines()
                .find(|l| l.contains("is not implemented yet"))
                .unwrap();
            refused_for_missing_event = Some(line.to_string());
            break;
        }
        assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
        if let Some(ms) = stdout(&o)
            .lines()
            .find_map(|l| l.strip_prefix("inbox: "))
            .and_then(|l| l.rsplit(", ").next())
            .and_then(|l| l.strip_suffix(" ms"))
            .and_then(|l| l.parse().ok())
        {
            inbox_ms.push(ms);
        }
    }
    let s = Session::open(&t.dir).unwrap();
    let g = s.game().unwrap();
    inbox_ms.sort();
    eprintln!(
        "mail e2e: {replies} replies, {} decisions, {} inbox runs in {:.1} s; inbox (SMTP included) median {} ms, max {} ms; turn {}, {}",
        s.decisions,
        inbox_ms.len(),
        started.elapsed().as_secs_f64(),
        inbox_ms.get(inbox_ms.len() / 2).copied().unwrap_or(0),
        inbox_ms.last().copied().unwrap_or(0),
        g.state().turn,
        g.prompts().first().map_or("no prompt".to_string(), |p| p.text.clone())
    );
    // Every mail was threaded: one thread per player.
    for side in [Side::Us, Side::Ussr] {
        let mails = read_mails(&files_in(&spool), &gid, t.addr(side));
        assert!(!mails.is_empty());
        for w in mails.windows(2) {
            assert_eq!(w[1].in_reply_to.as_deref(), Some(w[0].message_id.as_str()));
            assert_eq!(w[1].references.first(), Some(&mails[0].message_id));
        }
    }

    if let Some(outcome) = g.outcome() {
        // The complete game (once all card events exist).
        eprintln!("mail e2e: the game ended: {outcome:?}");
        for side in [Side::Us, Side::Ussr] {
            let mails = read_mails(&files_in(&spool), &gid, t.addr(side));
            assert!(mails.last().unwrap().subject.contains("Game over"));
        }
        let o = t.twilight(&["reveal", &t.game_arg()]);
        assert!(o.status.success(), "{}", stderr(&o));
    } else {
        // ENGINE NOT COMPLETE YET: the stop must be a missing card event, nothing else.
        let why = if let Some(line) = refused_for_missing_event {
            line
        } else {
            let side =
                stuck.expect("the loop stopped without a game end or a player without options");
            let prompt = g
                .prompt_for(side)
                .expect("the stuck player owes a decision")
                .clone();
            let mut rng = SeededChance::new(5);
            let mut not_implemented = 0;
            for a in candidate_groups(g, &prompt, &mut rng, 3)
                .into_iter()
                .flatten()
            {
                match g.is_legal(side, &a, &mut SeededChance::new(0)) {
                    Ok(()) => panic!("{a:?} is legal but the mail listed no option"),
                    Err(RuleError::NotImplemented(_)) => not_implemented += 1,
                    Err(_) => {}
                }
            }
            assert!(
                not_implemented > 0,
                "the stop is not due to a missing event"
            );
            format!(
                "`{}`: {not_implemented} candidate answers need an unimplemented event",
                prompt.text
            )
        };
        assert!(s.decisions >= 3, "the setup placements were played by mail");
        eprintln!(
            "################################################################################"
        );
        eprintln!(
            "## mail e2e: CARD EVENTS MISSING — the game stopped after {} decisions at     ",
            s.decisions
        );
        eprintln!("##   {why}");
        eprintln!(
            "## Once all events exist this test plays to the end and asserts game over,    ##"
        );
        eprintln!(
            "## reveal and a clean full verify.                                             ##"
        );
        eprintln!(
            "################################################################################"
        );
        let o = t.twilight(&["reveal", "--force", &t.game_arg()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = t.twilight(&["verify", &t.game_arg()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains(": OK") && out.contains("full (seed revealed)"),
        "{out}"
    );
}
