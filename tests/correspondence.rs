//! Correspondence play (`schemas/NOTATION.md` "Correspondence moves"): time control, leave,
//! resignation and draws, timeouts and adjudication, and the player's record — through the
//! session, with time passing only through the `now` arguments (never by sleeping).

mod mail_common;

use std::path::Path;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};

use twilight_pbem::archive;
use twilight_pbem::data::Side;
use twilight_pbem::engine::legal::random_answer;
use twilight_pbem::engine::{Options, SeededChance, VictoryReason};
use twilight_pbem::log::{entry_hash, split_documents, Payload, Players};
use twilight_pbem::mail::transport::Transport;
use twilight_pbem::session::correspondence::{
    self, clock::clock_at, remind, Settings, TimeControl, TimeoutRule,
};
use twilight_pbem::session::Session;
use twilight_pbem::text::notation::format_answer;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2027, 1, 4, 12, 0, 0).unwrap()
}

fn days_per_move(days: u32, rule: TimeoutRule) -> Settings {
    Settings {
        time_control: Some(TimeControl::DaysPerMove(days)),
        grace_hours: 24,
        on_timeout: rule,
        leave_days_per_year: 10,
        remind_hours_before: vec![48, 12],
        time_zones: correspondence::TimeZones {
            us: Some("-05:00".into()),
            ussr: Some("+03:00".into()),
        },
    }
}

/// A started game in `dir` (both joined at `t0`) under `settings`.
fn game(dir: &Path, settings: &Settings) -> Session {
    let mut s = Session::create_correspondence(
        dir,
        &Options::default(),
        settings,
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        &Default::default(),
        Some([7; 32]),
        t0(),
    )
    .unwrap();
    s.join(Side::Ussr, "a", t0()).unwrap();
    s.join(Side::Us, "b", t0()).unwrap();
    s
}

/// Plays `n` random legal decisions, each `gap` after the one before, starting at `from`.
/// Returns the time of the last.
fn play_random(s: &mut Session, n: usize, from: DateTime<Utc>, gap: Duration) -> DateTime<Utc> {
    let mut rng = SeededChance::new(11);
    let mut at = from;
    for _ in 0..n {
        let g = s.game().unwrap().clone();
        if g.outcome().is_some() {
            break;
        }
        let side = g.prompts()[0].side;
        let a = random_answer(&g, side, &mut rng).unwrap();
        let line = format_answer(&a, g.prompt_for(side).unwrap());
        at += gap;
        s.play(side, &[line], at).unwrap();
    }
    at
}

fn owing(s: &Session) -> Side {
    s.game().unwrap().prompts()[0].side
}

fn report(dir: &Path) -> archive::GameReport {
    archive::verify_game(dir, None)
}

/// Appends one hand-written entry to the log (a forged or mistaken record a moderator's
/// tool might write), chained correctly so only the rules can refuse it.
fn append_raw(dir: &Path, by: &str, at: DateTime<Utc>, payload: &str) {
    let path = dir.join("log.yaml");
    let bytes = std::fs::read(&path).unwrap();
    let split = split_documents(&bytes);
    let last = split.documents.last().unwrap().clone();
    let prev = entry_hash(&bytes[last]);
    let seq = split.documents.len();
    let doc = format!(
        "---\nseq: {seq}\nat: {}\nby: {by}\nprev: {prev}\npayload:\n{payload}...\n",
        at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    let mut out = bytes;
    out.extend_from_slice(doc.as_bytes());
    std::fs::write(&path, out).unwrap();
}

#[test]
fn resignation_is_a_win_for_the_other_side_counted_in_the_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("resign");
    let mut s = game(&dir, &Settings::default());
    let at = play_random(&mut s, 6, t0(), Duration::hours(5));
    // The US resigns whether or not it owes the decision now.
    let done = s.play(Side::Us, &["resign".into()], at).unwrap();
    assert_eq!(done, ["resign"]);
    let o = s.game().unwrap().outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Resignation);
    assert!(s.is_revealed(), "the seed is revealed at the resignation");
    let kinds: Vec<&str> = s
        .log()
        .entries()
        .iter()
        .rev()
        .take(3)
        .map(|e| e.entry.payload.kind())
        .collect();
    // The dice key of the turn the resignation ended is published, as at any game end.
    assert_eq!(kinds, ["reveal", "dice_key", "resign"]);
    // No move after the end.
    assert!(s.play(Side::Ussr, &["resign".into()], at).is_err());
    let r = report(&dir);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.outcome.map(|o| o.reason),
        Some(VictoryReason::Resignation)
    );
    let rows = archive::standings(&[r]);
    let ussr = rows.iter().find(|r| r.player == "ussr@ts.test").unwrap();
    let us = rows.iter().find(|r| r.player == "us@ts.test").unwrap();
    assert_eq!((ussr.won, ussr.lost, us.won, us.lost), (1, 0, 0, 1));
    // The 6 decisions, 5 hours apart, were each a reply to a decision owed; a reply took 5
    // hours, or 10 for the second headline (both sides were on the clock together).
    assert_eq!(ussr.replies + us.replies, 6);
    for row in [us, ussr] {
        let avg = row.average_reply().unwrap();
        assert!(
            avg >= Duration::hours(5) && avg <= Duration::hours(10),
            "{avg}"
        );
    }
}

#[test]
fn a_draw_is_offered_declined_lapses_by_a_move_and_is_agreed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("draw");
    let mut s = game(&dir, &Settings::default());
    let at = play_random(&mut s, 4, t0(), Duration::hours(1));
    // Nothing to answer yet.
    let len = s.log().len();
    let e = s.play(Side::Us, &["accept draw".into()], at).unwrap_err();
    assert!(e.to_string().contains("no draw offer standing"), "{e}");
    assert_eq!(s.log().len(), len, "a refused act writes nothing");

    s.play(Side::Ussr, &["offer draw".into()], at).unwrap();
    assert_eq!(
        s.correspondence().draw_offer.map(|(by, _)| by),
        Some(Side::Ussr)
    );
    let e = s.play(Side::Ussr, &["offer draw".into()], at).unwrap_err();
    assert!(e.to_string().contains("already offered"), "{e}");
    let e = s.play(Side::Ussr, &["accept draw".into()], at).unwrap_err();
    assert!(e.to_string().contains("the US has no draw offer"), "{e}");
    let lines = correspondence::status_lines(s.correspondence(), false, at);
    assert!(
        lines.iter().any(|l| l.starts_with("Draw offer: the USSR")),
        "{lines:?}"
    );
    // Every move form the status line and the players' history show reads as that move.
    let history: Vec<String> = s.game().unwrap().history().cloned().collect();
    let shown: Vec<String> = lines
        .iter()
        .chain(history.iter().filter(|h| h.contains("offers a draw")))
        .flat_map(|l| l.split('`').skip(1).step_by(2).map(str::to_string))
        .collect();
    assert_eq!(shown.len(), 4, "{shown:?}");
    for form in &shown {
        assert!(
            matches!(correspondence::parse_act(form), Some(Ok(_))),
            "`{form}` is shown but does not read"
        );
    }
    s.play(Side::Us, &["decline draw".into()], at).unwrap();
    assert_eq!(s.correspondence().draw_offer, None);

    // An offer lapses when the other side makes a decision of the game.
    s.play(Side::Ussr, &["offer draw".into()], at).unwrap();
    let mut rng = SeededChance::new(3);
    let mut at = at;
    while owing(&s) != Side::Us {
        at = play_random(&mut s, 1, at, Duration::hours(1));
    }
    let g = s.game().unwrap().clone();
    let a = random_answer(&g, Side::Us, &mut rng).unwrap();
    s.play(
        Side::Us,
        &[format_answer(&a, g.prompt_for(Side::Us).unwrap())],
        at,
    )
    .unwrap();
    assert_eq!(s.correspondence().draw_offer, None, "a move declines");

    // Offered and accepted: a draw, the seed revealed.
    s.play(Side::Us, &["offer draw".into()], at).unwrap();
    s.play(Side::Ussr, &["accept draw".into()], at).unwrap();
    let o = s.game().unwrap().outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, VictoryReason::AgreedDraw));
    assert!(s.is_revealed());
    let r = report(&dir);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    let rows = archive::standings(&[r]);
    assert!(rows.iter().all(|r| r.drawn == 1 && r.games == 1));
}

#[test]
fn a_resignation_by_the_wrong_side_and_an_answer_to_no_offer_are_errors_naming_the_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("forged");
    let mut s = game(&dir, &Settings::default());
    let at = play_random(&mut s, 3, t0(), Duration::hours(1));
    let next = s.log().len();
    drop(s);
    let clean = std::fs::read(dir.join("log.yaml")).unwrap();

    // Written by the US, naming the USSR as resigning.
    append_raw(&dir, "us", at, "  resign:\n    side: ussr\n");
    let r = report(&dir);
    assert!(
        r.findings
            .iter()
            .any(|f| f.contains(&format!("seq {next}")) && f.contains("by: ussr")),
        "{:?}",
        r.findings
    );

    // Accepting a draw nobody offered.
    std::fs::write(dir.join("log.yaml"), &clean).unwrap();
    append_raw(&dir, "us", at, "  draw:\n    side: us\n    act: accept\n");
    let r = report(&dir);
    assert!(
        r.findings
            .iter()
            .any(|f| f.contains(&format!("log entry {next}"))
                && f.contains("no draw offer standing")),
        "{:?}",
        r.findings
    );
}

#[test]
fn days_per_move_reminds_tells_the_opponent_and_records_the_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("clock");
    let mut s = game(&dir, &days_per_move(3, TimeoutRule::Loses));
    let outbox = tmp.path().join("outbox");
    let transport = Transport::Outbox(outbox.clone());
    let late = owing(&s);
    let c = clock_at(s.correspondence(), late, t0());
    assert_eq!(c.deadline, Some(t0() + Duration::days(3)));
    assert_eq!(c.timeout_at, Some(t0() + Duration::days(4)));

    // Nothing before the first reminder point (48 h before the deadline).
    assert!(remind::run(&mut s, &transport, t0() + Duration::hours(23))
        .unwrap()
        .is_empty());
    // The 48-hour reminder, once.
    let n = remind::run(&mut s, &transport, t0() + Duration::hours(25)).unwrap();
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].side, late);
    assert!(n[0].subject.contains("Reminder"), "{}", n[0].subject);
    // In the USSR player's zone (+03:00): the deadline 2027-01-07 12:00 UTC is 15:00.
    if late == Side::Ussr {
        assert!(
            n[0].text.contains("2027-01-07 15:00 +03:00"),
            "{}",
            n[0].text
        );
    }
    assert!(remind::run(&mut s, &transport, t0() + Duration::hours(26))
        .unwrap()
        .is_empty());
    // The 12-hour one.
    let n = remind::run(&mut s, &transport, t0() + Duration::hours(61)).unwrap();
    assert_eq!(n.len(), 1);
    // Past the deadline: both players are told, once.
    let n = remind::run(&mut s, &transport, t0() + Duration::hours(73)).unwrap();
    assert_eq!(n.len(), 2);
    assert!(n.iter().any(|m| m.side == late.opponent()
        && m.text
            .contains(&format!("Your opponent (the {late}) is late"))));
    assert!(remind::run(&mut s, &transport, t0() + Duration::hours(80))
        .unwrap()
        .is_empty());
    // A timeout before the grace ends is refused, and writes nothing.
    let len = s.log().len();
    assert!(s.record_timeout(late, t0() + Duration::hours(95)).is_err());
    assert_eq!(s.log().len(), len);
    // The end of grace: the timeout is recorded, the late side loses, the seed is revealed.
    let n = remind::run(&mut s, &transport, t0() + Duration::hours(96)).unwrap();
    assert_eq!(n.len(), 2);
    let o = s.game().unwrap().outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(late.opponent()), VictoryReason::Timeout)
    );
    assert!(s.is_revealed());
    assert!(matches!(
        s.log().entries()[len].entry.payload,
        Payload::Timeout { side, deadline } if side == late && deadline == t0() + Duration::days(3)
    ));
    let r = report(&dir);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.record[late].timeouts, 1);
    let rows = archive::standings(&[r]);
    let who = if late == Side::Us {
        "us@ts.test"
    } else {
        "ussr@ts.test"
    };
    let row = rows.iter().find(|r| r.player == who).unwrap();
    assert_eq!((row.timeouts, row.lost), (1, 1));
    // The notices are in the outbox.
    let mails = std::fs::read_dir(&outbox)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "eml")
        })
        .count();
    assert_eq!(mails, 6);
}

#[test]
fn a_timeout_before_its_deadline_is_an_error_naming_the_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("early");
    let s = game(&dir, &days_per_move(3, TimeoutRule::Loses));
    let late = owing(&s);
    let next = s.log().len();
    drop(s);
    let side = twilight_pbem::session::side_str(late);
    append_raw(
        &dir,
        "moderator",
        t0() + Duration::days(2),
        &format!("  timeout:\n    side: {side}\n    deadline: 2027-01-07T12:00:00Z\n"),
    );
    let r = report(&dir);
    assert!(
        r.findings
            .iter()
            .any(|f| f.contains(&format!("log entry {next}"))
                && f.contains("before its deadline and grace end")),
        "{:?}",
        r.findings
    );
}

#[test]
fn leave_moves_deadlines_within_the_allowance_and_the_opponent_is_told() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("leave");
    let mut s = game(&dir, &days_per_move(3, TimeoutRule::Loses));
    let away = owing(&s);
    let day = |d| NaiveDate::from_ymd_opt(2027, 1, d).unwrap();
    // Starting today: refused (a leave is declared in advance).
    let len = s.log().len();
    let e = s.leave(away, day(4), day(6), t0()).unwrap_err();
    assert!(
        e.to_string().contains("the next day at the earliest"),
        "{e}"
    );
    // Beyond the allowance of 10 days a year: refused, nothing written.
    let e = s.leave(away, day(5), day(20), t0()).unwrap_err();
    assert!(
        e.to_string().contains("over the game's allowance of 10"),
        "{e}"
    );
    assert_eq!(s.log().len(), len);
    // By mail's notation, as a move line: 4 days, the 5th to the 8th.
    s.play(away, &["leave 2027-01-05 to 2027-01-08".into()], t0())
        .unwrap();
    // The deadline (the 7th 12:00) moves past the leave by the time left: 12 h + 2 d after
    // the 9th 00:00.
    let c = clock_at(s.correspondence(), away, t0());
    assert_eq!(
        c.deadline,
        Some(Utc.with_ymd_and_hms(2027, 1, 11, 12, 0, 0).unwrap())
    );
    // The opponent is told: the history line their next mail carries.
    let g = s.game().unwrap();
    assert!(g.history().any(|h| h.contains(&format!(
        "The {away} is on leave from 2027-01-05 to 2027-01-08"
    ))));
    // 6 days are left this year; 7 more are too many.
    assert_eq!(s.correspondence().leave_left(away, 2027), 6);
    assert!(s.leave(away, day(20), day(26), t0()).is_err());
    s.leave(away, day(20), day(25), t0()).unwrap();
    assert_eq!(s.correspondence().leave_left(away, 2027), 0);
    drop(s);
    let r = report(&dir);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

#[test]
fn a_leave_beyond_the_allowance_in_the_log_is_an_error_naming_the_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("overleave");
    let s = game(&dir, &days_per_move(3, TimeoutRule::Loses));
    let next = s.log().len();
    drop(s);
    append_raw(
        &dir,
        "us",
        t0(),
        "  leave:\n    side: us\n    from: 2027-02-01\n    to: 2027-02-28\n",
    );
    let r = report(&dir);
    assert!(
        r.findings
            .iter()
            .any(|f| f.contains(&format!("log entry {next}")) && f.contains("allowance")),
        "{:?}",
        r.findings
    );
}

#[test]
fn adjudicate_rule_stops_the_game_until_the_moderator_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("adjudicate");
    let mut s = game(&dir, &days_per_move(2, TimeoutRule::Adjudicate));
    let late = owing(&s);
    // Adjudicating with no timeout is refused.
    assert!(s.adjudicate(Some(Side::Us), "", t0()).is_err());
    let end = t0() + Duration::days(3);
    s.record_timeout(late, end).unwrap();
    assert!(s.game().unwrap().outcome().is_none());
    assert!(!s.is_revealed());
    assert_eq!(
        s.correspondence().awaiting_adjudication.map(|(_, x)| x),
        Some(late)
    );
    // No move while it waits.
    let g = s.game().unwrap().clone();
    let a = random_answer(&g, late, &mut SeededChance::new(1)).unwrap();
    let e = s
        .play(late, &[format_answer(&a, g.prompt_for(late).unwrap())], end)
        .unwrap_err();
    assert!(e.to_string().contains("adjudication"), "{e}");
    s.adjudicate(
        None,
        "position even; the late player wrote in hospital",
        end,
    )
    .unwrap();
    let o = s.game().unwrap().outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, VictoryReason::Adjudication));
    assert!(s.is_revealed());
    let r = report(&dir);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

#[test]
fn chess_clock_bank_spends_time_and_adds_the_increment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bank");
    let settings = Settings {
        time_control: Some(TimeControl::Bank {
            days: 10,
            increment_hours: 24,
        }),
        ..Settings::default()
    };
    let mut s = game(&dir, &settings);
    // The two setup placements, each 10 hours after the one before (one side on the clock
    // at a time).
    let at = play_random(&mut s, 2, t0(), Duration::hours(10));
    for side in Side::BOTH {
        let c = clock_at(s.correspondence(), side, at);
        // Each reply spent 10 h and earned 24 h back.
        let moves = i64::from(c.moves);
        let spent_now = c.owing_since.map_or(Duration::zero(), |t| at - t);
        assert_eq!(
            c.bank_left,
            Some(Duration::days(10) + Duration::hours(14 * moves) - spent_now),
            "{side}"
        );
    }
    let json = correspondence::status_json(s.correspondence(), false, at);
    assert!(json["clocks"]["us"]["bank_seconds_left"].is_i64());
}

#[test]
fn old_games_have_no_time_control_and_replay_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("old");
    let mut s = Session::create_with_seed(
        &dir,
        &Options::default(),
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        [3; 32],
        t0(),
    )
    .unwrap();
    s.join(Side::Ussr, "a", t0()).unwrap();
    s.join(Side::Us, "b", t0()).unwrap();
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    assert!(!text.contains("correspondence"));
    assert_eq!(s.correspondence().settings, Settings::default());
    assert!(correspondence::status_lines(s.correspondence(), false, t0()).is_empty());
    // No leave allowance in a game that set none.
    let day = NaiveDate::from_ymd_opt(2027, 2, 1).unwrap();
    assert!(s.leave(Side::Us, day, day, t0()).is_err());
    // Resignation and draws need no time control.
    s.play(Side::Us, &["offer draw".into()], t0()).unwrap();
}

/// By mail: the USSR sends `offer draw` with its setup placement; the US's next prompt tells
/// it of the offer, and its reply `accept draw` ends the game; both get the game-over mail.
#[test]
fn a_draw_offered_and_accepted_by_mail() {
    use mail_common::{files_in, read_mails, stderr, stdout, Table};
    let gid = "corr-mail";
    let mut t = Table::new(gid, 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.ussr)
        .pop()
        .unwrap();
    let body = format!(
        "Offer draw\ninfluence Poland 4, East Germany 2\n\nToken: {}\n",
        m.token().unwrap()
    );
    t.reply(&t.ussr.clone(), &format!("Re: {}", m.subject), None, &body);
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    assert_eq!(
        s.correspondence().draw_offer.map(|(by, _)| by),
        Some(Side::Ussr)
    );
    let us = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.us)
        .pop()
        .unwrap();
    assert!(us.text.contains("The USSR offers a draw"), "{}", us.text);
    let body = format!("accept draw\n\nToken: {}\n", us.token().unwrap());
    t.reply(&t.us.clone(), &format!("Re: {}", us.subject), None, &body);
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let s = Session::open(&t.dir).unwrap();
    let o = s.game().unwrap().outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, VictoryReason::AgreedDraw));
    assert!(s.is_revealed());
    for to in [&t.us, &t.ussr] {
        let last = read_mails(&files_in(&t.dir.join("outbox")), gid, to)
            .pop()
            .unwrap();
        assert!(last.subject.contains("Game over"), "{}", last.subject);
    }
}

/// Through the binary, with the clock set by `TWILIGHT_NOW`: `new` with a time control,
/// `status` shows the deadline in the player's zone (text and JSON), `leave` moves it,
/// `remind` at the end of grace records the timeout, `verify` counts it in the standings.
#[test]
fn cli_time_control_leave_remind_and_verify() {
    use assert_cmd::Command;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cli-clock");
    let d = dir.to_str().unwrap();
    let run = |now: &str, args: &[&str]| {
        let o = Command::cargo_bin("twilight")
            .unwrap()
            .env("TWILIGHT_NOW", now)
            .env_remove("TWILIGHT_SMTP_URL")
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let start = "2027-01-04T12:00:00Z";
    let (code, _, err) = run(
        start,
        &[
            "new",
            d,
            "--us",
            "a@ts.test",
            "--ussr",
            "b@ts.test",
            "--days-per-move",
            "3",
            "--grace-hours",
            "24",
            "--ussr-tz",
            "+03:00",
            "--leave-days-per-year",
            "10",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    for (side, nonce) in [("ussr", "x"), ("us", "y")] {
        let (code, _, err) = run(
            start,
            &["join", d, "--as", side, "--nonce", nonce, "--no-mail"],
        );
        assert_eq!(code, Some(0), "{err}");
    }
    let (_, out, _) = run("2027-01-05T12:00:00Z", &["status", d]);
    assert!(
        out.contains("Time control: 3 days per move, grace 24 h"),
        "{out}"
    );
    assert!(
        out.contains("USSR: deadline 2027-01-07 15:00 +03:00 (2 d 0 h left)"),
        "{out}"
    );
    // Two days of leave push the deadline two days.
    let (code, out, err) = run(
        "2027-01-05T12:00:00Z",
        &[
            "leave",
            d,
            "--as",
            "ussr",
            "--from",
            "2027-01-06",
            "--to",
            "2027-01-07",
            "--no-mail",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (_, out, _) = run("2027-01-05T12:00:00Z", &["status", d, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["correspondence"]["clocks"]["ussr"];
    assert_eq!(c["deadline"], "2027-01-09T12:00:00+00:00", "{v}");
    assert_eq!(c["leave_days_left"], 8);
    // Too much leave is refused with the reason, exit 1 (a refused move, README), nothing
    // written.
    let before = std::fs::read(dir.join("log.yaml")).unwrap();
    let (code, _, err) = run(
        "2027-01-05T12:00:00Z",
        &[
            "leave",
            d,
            "--as",
            "ussr",
            "--from",
            "2027-02-01",
            "--to",
            "2027-02-20",
            "--no-mail",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("allowance"), "{err}");
    assert_eq!(std::fs::read(dir.join("log.yaml")).unwrap(), before);
    // The end of grace: the timeout, the US wins.
    let (code, out, err) = run("2027-01-10T12:00:00Z", &["remind", d, "--outbox"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Timeout"), "{out}");
    let (_, out, _) = run("2027-01-10T12:00:00Z", &["status", d]);
    assert!(out.contains("Game over: US wins by timeout."), "{out}");
    let (code, out, _) = run("2027-01-10T12:00:00Z", &["verify", d, "--format", "json"]);
    assert_eq!(code, Some(0), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["standings"].as_array().unwrap();
    let b = rows.iter().find(|r| r["player"] == "b@ts.test").unwrap();
    assert_eq!(
        (b["timeouts"].as_u64(), b["lost"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
}

/// A game without a leave allowance says so when a leave is asked for, instead of counting it
/// against "an allowance of 0"; the log is left as it was.
#[test]
fn a_leave_in_a_game_without_an_allowance_says_the_game_allows_none() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("g1");
    let d = d.to_str().unwrap();
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .env("TWILIGHT_NOW", "2027-01-01T00:00:00Z")
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        &[
            "new",
            d,
            "--us",
            "a@ts.test",
            "--ussr",
            "b@ts.test",
            "--leave-days-per-year",
            "0",
            "--no-mail",
        ][..],
        &["join", d, "--as", "us", "--nonce", "a", "--no-mail"],
        &["join", d, "--as", "ussr", "--nonce", "b", "--no-mail"],
    ] {
        let o = run(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let log = std::path::Path::new(d).join("log.yaml");
    let before = std::fs::read(&log).unwrap();
    let o = run(&[
        "play",
        d,
        "--as",
        "us",
        "--no-mail",
        "leave 2027-01-05 to 2027-01-06",
    ]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("this game allows no leave"), "{e}");
    assert_eq!(std::fs::read(&log).unwrap(), before);
}
